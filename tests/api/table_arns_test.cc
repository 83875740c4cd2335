// A table ARN wherever a TableName is accepted (api/table_arns.h), through
// api::Client: every family of operation, batch keys (echoed as given),
// transactions, PartiQL, and the errors for other accounts and regions.

#include "api/table_arns.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "engine/requests/scope.h"
#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using ::testing::HasSubstr;
using nlohmann::json;

class TableArnsTest : public ApiTest {
 protected:
  // A signed caller in us-east-1: its tables' ARNs name that region.
  const CallerIdentity caller_{"AKID", "us-east-1"};
  // The table's ARN as CreateTable answered it.
  std::string arn_;

  void SetUp() override {
    json req = {{"TableName", "Music"},
                {"BillingMode", "PAY_PER_REQUEST"},
                {"AttributeDefinitions", {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
                {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}};
    Reply created = Call("CreateTable", req, caller_);
    ASSERT_EQ(created.http_status, 200);
    arn_ = created.body["TableDescription"]["TableArn"].get<std::string>();
    ASSERT_EQ(arn_, "arn:aws:dynamodb:us-east-1:" +
                        std::string(kDefaultAccountId) + ":table/Music");
  }
  Reply C(std::string_view op, const json& body) { return Call(op, body, caller_); }
};

TEST_F(TableArnsTest, SingleTableOperationsAcceptTheArn) {
  EXPECT_EQ(C("DescribeTable", {{"TableName", arn_}}).body["Table"]["TableName"], "Music");
  Reply put = C("PutItem", {{"TableName", arn_},
                            {"Item", {{"pk", {{"S", "a"}}}, {"v", {{"N", "1"}}}}},
                            {"ReturnConsumedCapacity", "TOTAL"}});
  ASSERT_EQ(put.http_status, 200) << put;
  // ConsumedCapacity names the table as the request did.
  EXPECT_EQ(put.body["ConsumedCapacity"]["TableName"], arn_);
  Reply get = C("GetItem", {{"TableName", arn_}, {"Key", {{"pk", {{"S", "a"}}}}}});
  EXPECT_EQ(get.body["Item"]["v"]["N"], "1") << get;
  Reply query = C("Query", {{"TableName", arn_},
                            {"KeyConditionExpression", "pk = :p"},
                            {"ExpressionAttributeValues", {{":p", {{"S", "a"}}}}},
                            {"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(query.body["Count"], 1) << query;
  EXPECT_EQ(query.body["ConsumedCapacity"]["TableName"], arn_);
  EXPECT_EQ(C("Scan", {{"TableName", arn_}}).body["Count"], 1);
  EXPECT_EQ(C("UpdateItem", {{"TableName", arn_},
                             {"Key", {{"pk", {{"S", "a"}}}}},
                             {"UpdateExpression", "SET v = :v"},
                             {"ExpressionAttributeValues", {{":v", {{"N", "2"}}}}}})
                .http_status,
            200);
  EXPECT_EQ(C("DescribeTimeToLive", {{"TableName", arn_}}).http_status, 200);
  EXPECT_EQ(C("DescribeContinuousBackups", {{"TableName", arn_}}).http_status, 200);
  EXPECT_EQ(C("DeleteItem", {{"TableName", arn_}, {"Key", {{"pk", {{"S", "a"}}}}}}).http_status,
            200);
  EXPECT_EQ(C("DeleteTable", {{"TableName", arn_}}).body["TableDescription"]["TableName"],
            "Music");
}

TEST_F(TableArnsTest, CreateTableTakesANameNotAnArn) {
  Reply r =
      C("CreateTable",
        {{"TableName", arn_.substr(0, arn_.size() - 5) + "X"},
         {"BillingMode", "PAY_PER_REQUEST"},
         {"AttributeDefinitions",
          {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
         {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}});
  EXPECT_EQ(r.http_status, 400);
  EXPECT_THAT(r.body["message"].get<std::string>(), HasSubstr("regular expression pattern"));
}

TEST_F(TableArnsTest, BatchesEchoTheKeysAsGiven) {
  Reply w = C("BatchWriteItem",
              {{"RequestItems",
                {{arn_, {{{"PutRequest", {{"Item", {{"pk", {{"S", "b"}}}}}}}}}}}},
               {"ReturnConsumedCapacity", "TOTAL"}});
  ASSERT_EQ(w.http_status, 200) << w;
  EXPECT_EQ(w.body["ConsumedCapacity"][0]["TableName"], arn_);
  Reply g = C("BatchGetItem",
              {{"RequestItems", {{arn_, {{"Keys", {{{"pk", {{"S", "b"}}}}}}}}}},
               {"ReturnConsumedCapacity", "TOTAL"}});
  ASSERT_EQ(g.http_status, 200) << g;
  ASSERT_TRUE(g.body["Responses"].contains(arn_)) << g;
  EXPECT_EQ(g.body["Responses"][arn_].size(), 1u);
  EXPECT_EQ(g.body["ConsumedCapacity"][0]["TableName"], arn_);
  // The same table by name and by ARN in one batch.
  Reply both = C("BatchGetItem",
                 {{"RequestItems", {{arn_, {{"Keys", {{{"pk", {{"S", "b"}}}}}}}},
                                    {"Music", {{"Keys", {{{"pk", {{"S", "c"}}}}}}}}}}});
  EXPECT_EQ(both.http_status, 400) << both;
}

TEST_F(TableArnsTest, TransactionsAndPartiqlAcceptTheArn) {
  Reply t = C("TransactWriteItems",
              {{"TransactItems",
                {{{"Put", {{"TableName", arn_}, {"Item", {{"pk", {{"S", "t"}}}}}}}}}},
               {"ReturnConsumedCapacity", "TOTAL"}});
  ASSERT_EQ(t.http_status, 200) << t;
  EXPECT_EQ(t.body["ConsumedCapacity"][0]["TableName"], arn_);
  Reply g = C("TransactGetItems",
              {{"TransactItems", {{{"Get", {{"TableName", arn_}, {"Key", {{"pk", {{"S", "t"}}}}}}}}}}});
  ASSERT_EQ(g.http_status, 200) << g;
  EXPECT_EQ(g.body["Responses"][0]["Item"]["pk"]["S"], "t");
  Reply s = C("ExecuteStatement",
              {{"Statement", "SELECT * FROM \"" + arn_ + "\" WHERE pk = 't'"}});
  ASSERT_EQ(s.http_status, 200) << s;
  EXPECT_EQ(s.body["Items"].size(), 1u);
}

TEST_F(TableArnsTest, OtherAccountsAndRegionsAnswerAsDynamoDb) {
  Reply account = C("GetItem", {{"TableName", "arn:aws:dynamodb:us-east-1:111122223333:table/Music"},
                                {"Key", {{"pk", {{"S", "a"}}}}}});
  EXPECT_EQ(account.http_status, 400);
  EXPECT_EQ(account.body["__type"], "com.amazon.coral.service#AccessDeniedException");
  EXPECT_THAT(account.body["message"].get<std::string>(),
              HasSubstr("is not authorized to perform: dynamodb:GetItem"));
  // DynamoDB Local's account, 000000000000, is no AWS account: another's.
  Reply zeros = C(
      "ListTagsOfResource",
      {{"ResourceArn", "arn:aws:dynamodb:us-east-1:000000000000:table/Music"}});
  EXPECT_EQ(zeros.http_status, 400);
  EXPECT_EQ(zeros.body["__type"],
            "com.amazon.coral.service#AccessDeniedException")
      << zeros;
  EXPECT_THAT(
      zeros.body["message"].get<std::string>(),
      HasSubstr(
          "User: arn:aws:iam::" + std::string(kDefaultAccountId) +
          ":root is not authorized to perform: dynamodb:ListTagsOfResource"));
  std::string eu_arn = arn_;
  eu_arn.replace(eu_arn.find("us-east-1"), 9, "eu-west-1");
  Reply region =
      C("GetItem", {{"TableName", eu_arn}, {"Key", {{"pk", {{"S", "a"}}}}}});
  EXPECT_EQ(region.http_status, 400);
  EXPECT_EQ(region.body["__type"], "com.amazon.coral.validate#ValidationException");
  Reply index = C("Query", {{"TableName", arn_ + "/index/byYear"},
                            {"KeyConditionExpression", "pk = :p"},
                            {"ExpressionAttributeValues", {{":p", {{"S", "a"}}}}}});
  EXPECT_EQ(index.body["__type"], "com.amazon.coral.validate#ValidationException");
  Reply partiql = C("ExecuteStatement",
                    {{"Statement",
                      "SELECT * FROM \"arn:aws:dynamodb:us-east-1:111122223333:table/Music\""}});
  EXPECT_EQ(partiql.body["__type"], "com.amazon.coral.service#AccessDeniedException");
  EXPECT_THAT(partiql.body["message"].get<std::string>(), HasSubstr("dynamodb:PartiQLSelect"));
}

TEST(RestoreTableArnsTest, RenamesOnlyTheAliasedTables) {
  TableArnAliases aliases = {{"T", "arn:aws:dynamodb:r:000000000000:table/T"}};
  Json response = Json::parse(
      R"({"Responses":{"T":[],"U":[]},"ConsumedCapacity":[{"TableName":"T"},{"TableName":"U"}]})");
  RestoreTableArns(aliases, &response);
  EXPECT_TRUE(response["Responses"].contains("arn:aws:dynamodb:r:000000000000:table/T"));
  EXPECT_TRUE(response["Responses"].contains("U"));
  EXPECT_EQ(response["ConsumedCapacity"][0]["TableName"], "arn:aws:dynamodb:r:000000000000:table/T");
  EXPECT_EQ(response["ConsumedCapacity"][1]["TableName"], "U");
}

}  // namespace
}  // namespace dynarock::api
