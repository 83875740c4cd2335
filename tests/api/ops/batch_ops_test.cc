// BatchGetItem and BatchWriteItem through the in-process Client: whole
// DynamoDB JSON requests and responses, RequestItems constraints.

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class BatchOpsTest : public ApiTest {
 protected:
  void SetUp() override {
    CreateTable("hash");
    CreateTable("range", /*range=*/true);
  }
};

TEST_F(BatchOpsTest, WriteThenGetAcrossTables) {
  Reply w = Call("BatchWriteItem", R"({"RequestItems": {
    "hash": [{"PutRequest": {"Item": {"pk": {"S": "a"}, "v": {"N": "1"}}}},
             {"PutRequest": {"Item": {"pk": {"S": "b"}, "v": {"N": "2"}}}}],
    "range": [{"PutRequest": {"Item": {"pk": {"S": "a"}, "sk": {"N": "1"}, "x": {"BOOL": true}}}}]},
    "ReturnConsumedCapacity": "NONE", "ReturnItemCollectionMetrics": "NONE"})");
  ASSERT_EQ(w.http_status, 200) << w;
  EXPECT_EQ(w.body, json::parse(R"({"UnprocessedItems": {}})"));

  Reply del = Call("BatchWriteItem", R"({"RequestItems": {
    "hash": [{"DeleteRequest": {"Key": {"pk": {"S": "b"}}}}]}})");
  ASSERT_EQ(del.http_status, 200) << del;

  Reply g = Call("BatchGetItem", R"({"RequestItems": {
    "hash": {"Keys": [{"pk": {"S": "a"}}, {"pk": {"S": "b"}}], "ConsistentRead": true},
    "range": {"Keys": [{"pk": {"S": "a"}, "sk": {"N": "1"}}],
              "ProjectionExpression": "#x", "ExpressionAttributeNames": {"#x": "x"}}}})");
  ASSERT_EQ(g.http_status, 200) << g;
  EXPECT_EQ(g.body, json::parse(R"({
    "Responses": {"hash": [{"pk": {"S": "a"}, "v": {"N": "1"}}],
                  "range": [{"x": {"BOOL": true}}]},
    "UnprocessedKeys": {}})"));
}

// Map entries "k=v", structures with every member, an AttributeValue as
// its class and a hash (DynamoDB's as quoted in risingwavelabs/
// risingwave#17572; the hash is dynarock's own).
TEST_F(BatchOpsTest, TooManyWritesRenderTheMapAsDynamoDb) {
  json writes = json::array();
  for (int i = 0; i < 26; ++i) {
    writes.push_back({{"PutRequest", {{"Item", {{"k", {{"S", "x"}}}}}}}});
  }
  Reply r = Call("BatchWriteItem", json{{"RequestItems", {{"tab", writes}}}});
  const std::string message = r.body["message"];
  const std::string one =
      "WriteRequest(putRequest=PutRequest(item={k=com.amazonaws.dynamodb.v20120810."
      "AttributeValue@";
  EXPECT_EQ(message.rfind("1 validation error detected: Value '{tab=[" + one, 0), 0u) << r;
  EXPECT_NE(message.find("}), deleteRequest=null), " + one), std::string::npos) << r;
  EXPECT_NE(message.find("}), deleteRequest=null)]}' at 'requestItems' failed to satisfy "
                         "constraint: Map value must satisfy constraint: [Member must have "
                         "length less than or equal to 25, Member must have length greater "
                         "than or equal to 1]"),
            std::string::npos)
      << r;
}

TEST_F(BatchOpsTest, WriteShapeErrors) {
  EXPECT_EQ(Call("BatchWriteItem", "{}").body,
            ValidationError("1 validation error detected: Value null at 'requestItems' "
                            "failed to satisfy constraint: Member must not be null"));
  EXPECT_EQ(Call("BatchWriteItem", R"({"RequestItems": {}})").body,
            ValidationError("The requestItems parameter is required for BatchWriteItem"));
  EXPECT_EQ(Call("BatchGetItem", R"({"RequestItems": {}})").body,
            ValidationError("The requestItems parameter is required for BatchGetItem"));
  // A null list is an empty one.
  EXPECT_EQ(Call("BatchWriteItem", R"({"RequestItems": {"abc": null}})").body,
            ValidationError("1 validation error detected: Value '{abc=null}' at "
                            "'requestItems' failed to satisfy constraint: Map value must "
                            "satisfy constraint: [Member must have length less than or "
                            "equal to 25, Member must have length greater than or equal "
                            "to 1]"));
  Reply short_name = Call("BatchWriteItem", R"({"RequestItems": {"a": []}})");
  EXPECT_EQ(short_name.body,
            ValidationError(
                "2 validation errors detected: Value '{a=[]}' at 'requestItems' failed to "
                "satisfy constraint: Map keys must satisfy constraint: [Member must have "
                "length less than or equal to 255, Member must have length greater than "
                "or equal to 3, Member must satisfy regular expression pattern: "
                "[a-zA-Z0-9_.-]+]; Value '{a=[]}' at 'requestItems' failed to satisfy "
                "constraint: Map value must satisfy constraint: [Member must have length "
                "less than or equal to 25, Member must have length greater than or equal "
                "to 1]"))
      << short_name;
  Reply nested = Call("BatchWriteItem",
                      R"({"RequestItems": {"hash": [{"PutRequest": {}, "DeleteRequest": {}}]}})");
  EXPECT_EQ(nested.body,
            ValidationError("2 validation errors detected: Value null at "
                            "'requestItems.hash.member.1.member.deleteRequest.key' failed "
                            "to satisfy constraint: Member must not be null; Value null at "
                            "'requestItems.hash.member.1.member.putRequest.item' failed to "
                            "satisfy constraint: Member must not be null"))
      << nested;
  json many = {{"RequestItems", {{"hash", json::array()}}}};
  for (int i = 0; i < 26; ++i) {
    many["RequestItems"]["hash"].push_back(
        {{"PutRequest", {{"Item", {{"pk", {{"S", std::to_string(i)}}}}}}}});
  }
  Reply too_many = Call("BatchWriteItem", many);
  EXPECT_EQ(too_many.http_status, 400);
  EXPECT_NE(too_many.body["message"].get<std::string>().find(
                "Map value must satisfy constraint: [Member must have length less than or "
                "equal to 25, Member must have length greater than or equal to 1]"),
            std::string::npos)
      << too_many;
  EXPECT_EQ(Call("BatchWriteItem", R"({"RequestItems": {"hash": [{}]}})").body,
            ValidationError("Supplied AttributeValue has more than one datatypes set, must "
                            "contain exactly one of the supported datatypes"));
  EXPECT_EQ(Call("BatchWriteItem",
                 R"({"RequestItems": {"nope": [{"PutRequest": {"Item": {"pk": {"S": "a"}}}}]}})")
                .body,
            ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                      "Requested resource not found"));
  EXPECT_EQ(Call("BatchWriteItem", R"({"RequestItems": {"hash": [
                   {"PutRequest": {"Item": {"pk": {"S": "a"}}}},
                   {"DeleteRequest": {"Key": {"pk": {"S": "a"}}}}]}})")
                .body,
            ValidationError("Provided list of item keys contains duplicates"));
}

TEST_F(BatchOpsTest, GetShapeErrors) {
  EXPECT_EQ(Call("BatchGetItem", R"({"RequestItems": {"hash": {"Keys": []}}})").body,
            ValidationError("1 validation error detected: Value '[]' at "
                            "'requestItems.hash.member.keys' failed to satisfy constraint: "
                            "Member must have length greater than or equal to 1"));
  EXPECT_EQ(Call("BatchGetItem", R"({"RequestItems": {"hash": {}}})").body,
            ValidationError("1 validation error detected: Value null at "
                            "'requestItems.hash.member.keys' failed to satisfy constraint: "
                            "Member must not be null"));
  EXPECT_EQ(Call("BatchGetItem", R"({"RequestItems": {"hash": {"Keys": [{"pk": {"S": "a"}}],
                                     "AttributesToGet": ["a"], "ProjectionExpression": "a"}}})")
                .body,
            ValidationError("Can not use both expression and non-expression parameters in "
                            "the same request: Non-expression parameters: {AttributesToGet} "
                            "Expression parameters: {ProjectionExpression}"));
  EXPECT_EQ(Call("BatchGetItem", R"({"RequestItems": {"nope": {"Keys": [
                   {"pk": {"S": "a"}}, {"pk": {"S": "a"}}]}}})")
                .body,
            ValidationError("Provided list of item keys contains duplicates"));
  // A table's AttributesToGet and expressions before its keys (dynalite's
  // batchGetItem tests, recorded against DynamoDB).
  EXPECT_EQ(Call("BatchGetItem", R"({"RequestItems": {"nope": {"Keys": [
                   {"pk": {"S": "a"}}, {"pk": {"S": "a"}}], "AttributesToGet": ["a", "a"]}}})")
                .body,
            ValidationError("One or more parameter values were invalid: Duplicate value in "
                            "attribute name: a"));
  EXPECT_EQ(Call("BatchGetItem", R"({"RequestItems": {"nope": {"Keys": [
                   {"pk": {"S": "a"}}, {"pk": {"S": "a"}}], "ProjectionExpression": ""}}})")
                .body,
            ValidationError("Invalid ProjectionExpression: The expression can not be empty;"));
  EXPECT_EQ(Call("BatchGetItem", R"({"RequestItems": {"nope": {"Keys": [{"pk": {"S": "a"}}]}}})")
                .body,
            ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                      "Requested resource not found"));
  EXPECT_EQ(Call("BatchGetItem", R"({"RequestItems": {"range": {"Keys": [{"pk": {"S": "a"}}]}}})")
                .body,
            ValidationError("The provided key element does not match the schema"));
}

TEST_F(BatchOpsTest, UnprocessedKeysCarryTheTablesParameters) {
  // 41 items of almost 400 KB: 40 fit in the 16 MB response.
  std::string big(400 * 1024 - 20, 'x');
  json keys = json::array();
  for (int i = 0; i < 41; ++i) {
    std::string pk = "k" + std::to_string(100 + i);
    json item = {{"pk", {{"S", pk}}}, {"b", {{"S", big}}}};
    ASSERT_EQ(Call("PutItem", json{{"TableName", "hash"}, {"Item", item}}).http_status, 200);
    keys.push_back({{"pk", {{"S", pk}}}});
  }
  Reply r = Call("BatchGetItem",
                 json{{"RequestItems",
                       {{"hash", {{"Keys", keys}, {"AttributesToGet", {"pk", "b"}},
                                  {"ConsistentRead", true}}}}}});
  ASSERT_EQ(r.http_status, 200);
  EXPECT_EQ(r.body["Responses"]["hash"].size(), 40u);
  EXPECT_EQ(r.body["UnprocessedKeys"],
            json::parse(R"({"hash": {"Keys": [{"pk": {"S": "k140"}}],
                                     "AttributesToGet": ["pk", "b"], "ConsistentRead": true}})"));
}

}  // namespace
}  // namespace dynarock::api
