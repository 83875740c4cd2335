// Resource-based policies through the in-process Client: PutResourcePolicy,
// GetResourcePolicy, DeleteResourcePolicy and CreateTable's ResourcePolicy
// (the document's checks and DynamoDB's messages, white space removed,
// PolicyNotFoundException's wire type, the answers' JSON).

#include <gtest/gtest.h>

#include <string>

#include "api/ops/resource_policy.h"
#include "engine/requests/scope.h"
#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

const std::string kArn =
    "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
    ":table/tbl";
constexpr char kPolicy[] =
    R"({"Version": "2012-10-17",
  "Statement": [{"Effect": "Allow", "Principal": {"AWS": "000000000000"},
                 "Action": "dynamodb:GetItem", "Resource": "a b"}]})";
constexpr char kCompact[] =
    R"({"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"000000000000"},"Action":"dynamodb:GetItem","Resource":"a b"}]})";

class PolicyOpsTest : public ApiTest {
 protected:
  void SetUp() override { CreateTable("tbl"); }
};

TEST_F(PolicyOpsTest, PutGetDelete) {
  Reply r = Call("GetResourcePolicy", json{{"ResourceArn", kArn}});
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, json({{"__type", "com.amazonaws.dynamodb.v20120810#PolicyNotFoundException"},
                          {"message", std::string("Resource-based policy not found for the "
                                                  "provided ResourceArn: ") + kArn}}));
  r = Call("PutResourcePolicy", json{{"ResourceArn", kArn},
                                     {"Policy", kPolicy},
                                     {"ConfirmRemoveSelfResourceAccess", true},
                                     {"ExpectedRevisionId", "NO_POLICY"}});
  ASSERT_EQ(r.http_status, 200) << r;
  ASSERT_TRUE(r.body["RevisionId"].is_string()) << r;
  const std::string revision = r.body["RevisionId"];
  EXPECT_EQ(r.body.size(), 1u);
  r = Call("GetResourcePolicy", json{{"ResourceArn", kArn}});
  ASSERT_EQ(r.http_status, 200) << r;
  // Stored without the white space between tokens, as DynamoDB returns it.
  EXPECT_EQ(r.body, json({{"Policy", kCompact}, {"RevisionId", revision}}));
  r = Call("DeleteResourcePolicy", json{{"ResourceArn", kArn}, {"ExpectedRevisionId", revision}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json({{"RevisionId", revision}}));
  r = Call("DeleteResourcePolicy", json{{"ResourceArn", kArn}});
  EXPECT_EQ(r.body["__type"], "com.amazonaws.dynamodb.v20120810#PolicyNotFoundException") << r;
}

TEST_F(PolicyOpsTest, DocumentChecks) {
  auto put = [&](const std::string& policy) {
    return Call("PutResourcePolicy", json{{"ResourceArn", kArn}, {"Policy", policy}}).body;
  };
  const std::string p = "One or more parameter values were invalid: ";
  EXPECT_EQ(put("{not json"), ValidationError(p + "Invalid policy document: This policy "
                                                  "contains invalid Json"));
  EXPECT_EQ(put(""), ValidationError(p + "Invalid policy document: This policy contains "
                                         "invalid Json"));
  EXPECT_EQ(put("[1]"), ValidationError(p + "Invalid policy document: This policy contains "
                                            "invalid Json"));
  EXPECT_EQ(put(R"({"Version":"2012-10-17","Statement":[]})"),
            ValidationError(p + "Invalid policy document: Could not parse the policy: "
                                "Statement is empty!"));
  EXPECT_EQ(put(R"({"Statement":[{"Effect":"Allow","Action":"dynamodb:*"}]})"),
            ValidationError(p + "Invalid policy document: Missing required field Resource"));
  // A single statement object naming NotResource is a statement.
  EXPECT_FALSE(put(R"({"Statement":{"Effect":"Deny","NotResource":"*"}})").contains("__type"));
  // 20 KB, white space included; a nesting no stack holds is invalid JSON.
  std::string padded = R"({"Statement":[{"Resource":"*"}]})";
  padded.insert(1, ops::kMaxResourcePolicyBytes - padded.size(), ' ');
  EXPECT_FALSE(put(padded).contains("__type"));
  padded.insert(1, " ");
  EXPECT_EQ(put(padded), ValidationError(p + "Maximum policy size of 20480 bytes exceeded"));
  EXPECT_EQ(put(std::string(10000, '[') + std::string(10000, ']')),
            ValidationError(p + "Invalid policy document: This policy contains invalid Json"));
  // Required members.
  EXPECT_EQ(Call("PutResourcePolicy", json{{"ResourceArn", kArn}}).body,
            ValidationError("1 validation error detected: Value null at 'policy' failed to "
                            "satisfy constraint: Member must not be null"));
}

TEST_F(PolicyOpsTest, CreateTableResourcePolicy) {
  std::string create = R"({"TableName":"withpolicy","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "ResourcePolicy":)";
  Reply r = Call("CreateTable", create + json(std::string(kPolicy)).dump() + "}");
  ASSERT_EQ(r.http_status, 200) << r;
  r = Call("GetResourcePolicy",
           R"({"ResourceArn":"arn:aws:dynamodb:ddblocal:)" +
               std::string(kDefaultAccountId) + R"(:table/withpolicy"})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["Policy"], kCompact);
  // A bad document refuses the table.
  r = Call("CreateTable", create + R"("{"})");
  EXPECT_EQ(r.body, ValidationError("One or more parameter values were invalid: Invalid policy "
                                    "document: This policy contains invalid Json"));
}

}  // namespace
}  // namespace dynarock::api
