// Client: the protocol envelope around the handlers (namespaces, ARNs, body
// parsing, unknown operations, never throwing).

#include "api/client.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class ClientTest : public ApiTest {};

const CallerIdentity kAlice{"AKIDALICE", "us-east-1"};
const CallerIdentity kBob{"AKIDBOB", "us-east-1"};

TEST_F(ClientTest, EachAccessKeyAndRegionHasItsOwnTables) {
  const char* create = R"({"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})";
  Reply r = Call("CreateTable", create, kAlice);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["TableDescription"]["TableArn"],
            "arn:aws:dynamodb:us-east-1:000000000000:table/tbl");
  EXPECT_EQ(Call("ListTables", "{}", kAlice).body, json::parse(R"({"TableNames":["tbl"]})"));
  EXPECT_EQ(Call("ListTables", "{}", kBob).body, json::parse(R"({"TableNames":[]})"));
  EXPECT_EQ(Call("ListTables", "{}", CallerIdentity{"AKIDALICE", "eu-west-1"}).body,
            json::parse(R"({"TableNames":[]})"));
  EXPECT_EQ(Call("ListTables", "{}").body, json::parse(R"({"TableNames":[]})"));
  // Bob may create his own tbl.
  EXPECT_EQ(Call("CreateTable", create, kBob).http_status, 200);
}

TEST_F(ClientTest, UnsignedCallsUseTheSharedSetAndDdbLocalArns) {
  CreateTable("shared");
  Reply r = Call("DescribeTable", R"({"TableName":"shared"})");
  EXPECT_EQ(r.body["Table"]["TableArn"], "arn:aws:dynamodb:ddblocal:000000000000:table/shared");
}

TEST_F(ClientTest, SharedDbIgnoresTheCaller) {
  Client shared(test_engine_.engine.get(), ClientOptions{.shared_db = true});
  Response created = shared.Call("CreateTable", R"({"TableName":"tbl",
      "BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})", kAlice);
  ASSERT_TRUE(created.ok()) << created.body;
  // The ARN still names the caller's region.
  EXPECT_EQ(json::parse(created.body)["TableDescription"]["TableArn"],
            "arn:aws:dynamodb:us-east-1:000000000000:table/tbl");
  EXPECT_EQ(json::parse(shared.Call("ListTables", "{}", kBob).body),
            json::parse(R"({"TableNames":["tbl"]})"));
  EXPECT_EQ(Call("ListTables", "{}").body, json::parse(R"({"TableNames":["tbl"]})"));
}

TEST_F(ClientTest, BodyThatIsNotJson) {
  for (const char* body : {"{", "hi", "[]", "7", "{\"TableName\":}", "{}}"}) {
    Response r = client_.Call("ListTables", body);
    EXPECT_EQ(r.http_status, 400) << body;
    EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException"})")
        << body;
  }
}

TEST_F(ClientTest, UnknownOperation) {
  Response r = client_.Call("ListTable", "{}");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#UnknownOperationException"})");
  // An empty body is looked at after the operation name, malformed JSON before.
  EXPECT_EQ(client_.Call("Nope", "").body,
            R"({"__type":"com.amazon.coral.service#UnknownOperationException"})");
  EXPECT_EQ(client_.Call("Nope", "{").body,
            R"({"__type":"com.amazon.coral.service#SerializationException"})");
}

TEST_F(ClientTest, EmptyBodyOfAKnownOperation) {
  Response r = client_.Call("ListTables", "  ");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException"})");
}

TEST_F(ClientTest, SuccessIsHttp200WithCompactJson) {
  Response r = client_.Call("ListTables", "{}");
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.body, R"({"TableNames":[]})");
}

TEST_F(ClientTest, ArbitraryBytesNeverThrow) {
  const std::string inputs[] = {
      std::string("\xff\xfe\x00", 3), std::string(100000, '['), std::string(100000, '{'),
      R"({"TableName":"\ud800"})", R"({"Item":{"a":{"M":{"b":{"L":[null,{"NULL":null}]}}}}})",
      R"({"TableName":"t","Item":{"a":{"SS":[null]}}})"};
  for (const char* op : {"PutItem", "GetItem", "CreateTable", "UpdateTable", "ListTables"}) {
    for (const std::string& in : inputs) {
      Response r = client_.Call(op, in);
      // ListTables ignores the members it does not know; all else fails.
      if (std::string_view(op) != "ListTables" || in[0] != '{') {
        EXPECT_EQ(r.http_status, 400) << op << " " << in.substr(0, 40);
      }
      EXPECT_FALSE(json::parse(r.body, nullptr, false).is_discarded()) << r.body;
    }
  }
}

}  // namespace
}  // namespace dynarock::api
