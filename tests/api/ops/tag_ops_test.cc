// Tagging through the in-process Client: TagResource, UntagResource,
// ListTagsOfResource and CreateTable's Tags (shapes, DynamoDB's messages,
// the answers' JSON).

#include <gtest/gtest.h>

#include <string>

#include "engine/requests/scope.h"
#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

const std::string kArn =
    "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
    ":table/tbl";

class TagOpsTest : public ApiTest {
 protected:
  void SetUp() override { CreateTable("tbl"); }
  json List() {
    Reply r = Call("ListTagsOfResource", json{{"ResourceArn", kArn}});
    EXPECT_EQ(r.http_status, 200) << r;
    return r.body;
  }
};

TEST_F(TagOpsTest, TagUntagList) {
  EXPECT_EQ(List(), json::parse(R"({"Tags":[]})"));
  Reply r = Call("TagResource", json{{"ResourceArn", kArn},
                                     {"Tags", {{{"Key", "env"}, {"Value", "prod"}},
                                               {{"Key", "a"}, {"Value", ""}}}}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_TRUE(r.body.is_null()) << r;  // no body at all, as DynamoDB
  EXPECT_EQ(List(), json::parse(R"({"Tags":[{"Key":"a","Value":""},{"Key":"env","Value":"prod"}]})"));
  r = Call("UntagResource", json{{"ResourceArn", kArn}, {"TagKeys", {"a", "zzz"}}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_TRUE(r.body.is_null()) << r;
  EXPECT_EQ(List(), json::parse(R"({"Tags":[{"Key":"env","Value":"prod"}]})"));
}

TEST_F(TagOpsTest, CreateTableWithTags) {
  Reply r = Call("CreateTable", R"({"TableName":"tagged","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "Tags":[{"Key":"k","Value":"v"}]})");
  ASSERT_EQ(r.http_status, 200) << r;
  r = Call("ListTagsOfResource",
           R"({"ResourceArn":"arn:aws:dynamodb:ddblocal:)" +
               std::string(kDefaultAccountId) + R"(:table/tagged"})");
  EXPECT_EQ(r.body, json::parse(R"({"Tags":[{"Key":"k","Value":"v"}]})"));
}

TEST_F(TagOpsTest, Messages) {
  EXPECT_EQ(Call("TagResource", R"({})").body, ValidationError("Invalid TableArn"));
  EXPECT_EQ(Call("ListTagsOfResource", R"({})").body, ValidationError("Invalid TableArn"));
  // The members' JSON types come first, even without ResourceArn (dynalite's
  // tagResource and untagResource tests, recorded against DynamoDB).
  EXPECT_EQ(Call("TagResource", R"({"Tags": true})").body,
            SerializationError("Unexpected field type"));
  EXPECT_EQ(Call("TagResource", R"({"Tags": [{"Key": true}]})").body,
            SerializationError("TRUE_VALUE cannot be converted to String"));
  EXPECT_EQ(Call("UntagResource", R"({"TagKeys": [true]})").body,
            SerializationError("TRUE_VALUE cannot be converted to String"));
  // Missing ResourceArn before the other members' constraints.
  EXPECT_EQ(Call("UntagResource", R"({"TagKeys": []})").body, ValidationError("Invalid TableArn"));
  EXPECT_EQ(Call("TagResource", R"({"ResourceArn":"a:b:c:d:e:f/g"})").body,
            ValidationError("1 validation error detected: Value null at 'tags' failed to "
                            "satisfy constraint: Member must not be null"));
  EXPECT_EQ(Call("TagResource", R"({"ResourceArn":"a:b:c:d:e:f/g","Tags":[]})").body,
            ValidationError("One or more parameter values were invalid: ARNs must start with "
                            "'arn:': a:b:c:d:e:f/g"));
  EXPECT_EQ(Call("TagResource", R"({"ResourceArn":"arn:b:c:d:e:f/g","Tags":[]})").body,
            ValidationError("Invalid TableArn: Invalid ResourceArn provided as input "
                            "arn:b:c:d:e:f/g"));
  EXPECT_EQ(Call("TagResource", json{{"ResourceArn", kArn}, {"Tags", json::array()}}).body,
            ValidationError("Atleast one Tag needs to be provided as Input."));
  Reply r = Call("TagResource", json{{"ResourceArn", kArn},
                                     {"Tags", {{{"Key", std::string(129, 'k')}, {"Value", "v"}}}}});
  EXPECT_EQ(r.body, ValidationError(
      "1 validation error detected: Value '" + std::string(129, 'k') +
      "' at 'tags.1.member.key' failed to satisfy constraint: Member must have "
      "length less than or equal to 128"));
  r = Call("TagResource", json{{"ResourceArn", kArn},
                               {"Tags", {{{"Key", "k"}, {"Value", std::string(257, 'v')}}}}});
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body["message"].get<std::string>().find("'tags.1.member.value'"), std::string::npos);
  const std::string missing =
      "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
      ":table/nope";
  EXPECT_EQ(Call("ListTagsOfResource", json{{"ResourceArn", missing}}).body,
            ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                      "Requested resource not found: ResourceArn: " + missing + " not found"));
}

}  // namespace
}  // namespace dynarock::api
