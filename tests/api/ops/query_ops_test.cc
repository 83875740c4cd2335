// Query and Scan through the in-process Client: whole DynamoDB JSON
// requests and responses, shape errors and the order of checks.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>

#include "api/dispatch.h"
#include "api/json_codec.h"
#include "engine/value/number.h"
#include "tests/api/api_test_util.h"
#include "tests/testutil/random_item.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class QueryOpsTest : public ApiTest {
 protected:
  void SetUp() override {
    CreateTable("items", /*range=*/true);
    for (int i = 1; i <= 3; ++i) {
      json item = {{"pk", {{"S", "a"}}},
                   {"sk", {{"N", std::to_string(i)}}},
                   {"v", {{"S", "v" + std::to_string(i)}}}};
      ASSERT_EQ(Call("PutItem", json{{"TableName", "items"}, {"Item", item}}).http_status, 200);
    }
    ASSERT_EQ(Call("PutItem", R"({"TableName":"items","Item":{"pk":{"S":"b"},"sk":{"N":"-1.5"}}})")
                  .http_status,
              200);
  }

  Reply Query(const json& extra) {
    json req = {{"TableName", "items"}};
    req.update(extra);
    return Call("Query", req);
  }
  Reply Scan(const json& extra) {
    json req = {{"TableName", "items"}};
    req.update(extra);
    return Call("Scan", req);
  }
};

TEST_F(QueryOpsTest, QueryReturnsItemsCountsAndLastEvaluatedKey) {
  Reply r = Query(json::parse(R"({
    "KeyConditionExpression": "pk = :p AND sk >= :lo",
    "ExpressionAttributeValues": {":p": {"S": "a"}, ":lo": {"N": "2"}},
    "ScanIndexForward": false, "Limit": 1, "ConsistentRead": true})"));
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({
    "Count": 1, "ScannedCount": 1,
    "Items": [{"pk": {"S": "a"}, "sk": {"N": "3"}, "v": {"S": "v3"}}],
    "LastEvaluatedKey": {"pk": {"S": "a"}, "sk": {"N": "3"}}})"));

  Reply next = Query(json::parse(R"({
    "KeyConditionExpression": "pk = :p AND sk >= :lo",
    "ExpressionAttributeValues": {":p": {"S": "a"}, ":lo": {"N": "2"}},
    "ScanIndexForward": false, "Limit": 5,
    "ExclusiveStartKey": {"pk": {"S": "a"}, "sk": {"N": "3"}}})"));
  ASSERT_EQ(next.http_status, 200) << next;
  EXPECT_EQ(next.body, json::parse(R"({
    "Count": 1, "ScannedCount": 1,
    "Items": [{"pk": {"S": "a"}, "sk": {"N": "2"}, "v": {"S": "v2"}}]})"));
}

TEST_F(QueryOpsTest, LegacyParametersAndSelectCount) {
  Reply r = Query(json::parse(R"({
    "KeyConditions": {"pk": {"ComparisonOperator": "EQ", "AttributeValueList": [{"S": "a"}]},
                      "sk": {"ComparisonOperator": "BETWEEN",
                             "AttributeValueList": [{"N": "1"}, {"N": "2"}]}},
    "QueryFilter": {"v": {"ComparisonOperator": "BEGINS_WITH", "AttributeValueList": [{"S": "v2"}]}},
    "AttributesToGet": ["v"]})"));
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"Count": 1, "ScannedCount": 2, "Items": [{"v": {"S": "v2"}}]})"));

  Reply count = Query(json::parse(R"({
    "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "a"}},
    "Select": "COUNT"})"));
  ASSERT_EQ(count.http_status, 200) << count;
  EXPECT_EQ(count.body, json::parse(R"({"Count": 3, "ScannedCount": 3})"));
}

TEST_F(QueryOpsTest, QueryShapeErrors) {
  EXPECT_EQ(Query(json::parse(R"({"KeyConditionExpression": "pk = :p",
                                 "ExpressionAttributeValues": {":p": {"S": "a"}}, "Limit": 0})"))
                .body,
            ValidationError("1 validation error detected: Value at 'Limit' failed to "
                            "satisfy constraint: Member must have value greater than or "
                            "equal to 1"));
  Reply many = Query(json::parse(R"({"Limit": -1, "Select": "hi", "IndexName": "a;",
    "KeyConditions": {"a": {}}, "ReturnConsumedCapacity": "hi", "AttributesToGet": []})"));
  EXPECT_EQ(many.body,
            ValidationError(
                "6 validation errors detected: "
                "Value null at 'keyConditions.a.member.comparisonOperator' failed to "
                "satisfy constraint: Member must not be null; "
                "Value 'hi' at 'returnConsumedCapacity' failed to satisfy constraint: "
                "Member must satisfy enum value set: [INDEXES, TOTAL, NONE]; "
                "Value '[]' at 'attributesToGet' failed to satisfy constraint: Member "
                "must have length greater than or equal to 1; "
                "Value 'hi' at 'select' failed to satisfy constraint: Member must "
                "satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, "
                "ALL_PROJECTED_ATTRIBUTES]; "
                "Value 'a;' at 'indexName' failed to satisfy constraint: Member must "
                "satisfy regular expression pattern: [a-zA-Z0-9_.-]+; "
                "Value 'a;' at 'indexName' failed to satisfy constraint: Member must "
                "have length greater than or equal to 3"))
      << many;
  EXPECT_EQ(Query(json::parse(R"({"Limit": "1"})")).body,
            SerializationError("STRING_VALUE cannot be converted to Integer"));
}

TEST_F(QueryOpsTest, OrderOfChecks) {
  // Select against the projection comes before the parameter mix.
  EXPECT_EQ(Query(json::parse(R"({"Select": "COUNT", "ProjectionExpression": "v",
                                 "KeyConditions": {}, "QueryFilter": {},
                                 "KeyConditionExpression": "pk = :p"})"))
                .body,
            ValidationError("1 validation error detected: Cannot specify the "
                            "ProjectionExpression when choosing to get only the Count"));
  // The parameter mix comes before any AttributeValue is decoded.
  EXPECT_EQ(Query(json::parse(R"({"QueryFilter": {"v": {"ComparisonOperator": "EQ",
                                                         "AttributeValueList": [{"S": "a", "N": "1"}]}},
                                 "FilterExpression": "v = :v"})"))
                .body,
            ValidationError("Can not use both expression and non-expression parameters in "
                            "the same request: Non-expression parameters: {QueryFilter} "
                            "Expression parameters: {FilterExpression}"));
  // A malformed start-key value carries the start-key prefix.
  EXPECT_EQ(Query(json::parse(R"({"KeyConditionExpression": "pk = :p",
                                 "ExpressionAttributeValues": {":p": {"S": "a"}},
                                 "ExclusiveStartKey": {"pk": {}}})"))
                .body,
            ValidationError("The provided starting key is invalid: Supplied AttributeValue "
                            "is empty, must contain exactly one of the supported datatypes"));
  // Then the table.
  EXPECT_EQ(Call("Query", R"({"TableName": "nope", "KeyConditionExpression": "pk = :p",
                            "ExpressionAttributeValues": {":p": {"S": "a"}}})")
                .body,
            ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                      "Requested resource not found"));
  EXPECT_EQ(Query(json::parse(R"({"KeyConditionExpression": "pk = :p",
                                 "ExpressionAttributeValues": {":p": {"S": "a"}},
                                 "IndexName": "nope"})"))
                .body,
            ValidationError("The table does not have the specified index: nope"));
}

// dynalite's query and scan tests, recorded against DynamoDB: Query checks
// QueryFilter (its values, then argument counts and types), AttributesToGet
// and then the start key; Scan checks AttributesToGet before ScanFilter.
// Sets are checked as they are read, so an empty set is reported before a
// later empty value, and a missing index before a Scan's start key.
TEST_F(QueryOpsTest, LegacyParametersAreCheckedInDynamoDbsOrder) {
  EXPECT_EQ(Query(json::parse(R"({"ExclusiveStartKey": {"a": {}}, "AttributesToGet": ["a", "a"],
      "KeyConditions": {"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{}]}},
      "QueryFilter": {"a": {"ComparisonOperator": "EQ",
                            "AttributeValueList": [{"N": "1"}, {"SS": []}, {}]}}})"))
                .body,
            ValidationError("One or more parameter values were invalid: An string set  may "
                            "not be empty"));
  EXPECT_EQ(Query(json::parse(R"({"ExclusiveStartKey": {"a": {}}, "AttributesToGet": ["a", "a"],
      "QueryFilter": {"a": {"ComparisonOperator": "EQ"}}})"))
                .body,
            ValidationError("One or more parameter values were invalid: Invalid number of "
                            "argument(s) for the EQ ComparisonOperator"));
  EXPECT_EQ(Query(json::parse(R"({"ExclusiveStartKey": {"a": {}}, "AttributesToGet": ["a", "a"],
                                 "QueryFilter": {}})"))
                .body,
            ValidationError("One or more parameter values were invalid: Duplicate value in "
                            "attribute name: a"));
  EXPECT_EQ(Query(json::parse(R"({"KeyConditions": {"a": {"ComparisonOperator": "EQ",
                                                         "AttributeValueList": [{}, {}]}},
                                 "ExclusiveStartKey": {"a": {"NS": ["1", "1"]}}})"))
                .body,
            ValidationError("Input collection contains duplicates"));
  // Scan: AttributesToGet first, then the filter's values, then the start key.
  EXPECT_EQ(Scan(json::parse(R"({"AttributesToGet": ["a", "a"], "ExclusiveStartKey": {"a": {}},
      "ScanFilter": {"a": {"ComparisonOperator": "EQ", "AttributeValueList": [{}]}}})"))
                .body,
            ValidationError("One or more parameter values were invalid: Duplicate value in "
                            "attribute name: a"));
  EXPECT_EQ(Scan(json::parse(R"({"ExclusiveStartKey": {"a": {}},
      "ScanFilter": {"a": {"ComparisonOperator": "LT", "AttributeValueList": [{"BOOL": true}]}}})"))
                .body,
            ValidationError("One or more parameter values were invalid: ComparisonOperator LT "
                            "is not valid for BOOL AttributeValue type"));
  EXPECT_EQ(Scan(json::parse(R"({"IndexName": "whatever",
                                "ExclusiveStartKey": {"z": {"S": "a"}, "y": {"S": "a"}}})"))
                .body,
            ValidationError("The table does not have the specified index: whatever"));
}

TEST_F(QueryOpsTest, ScanReturnsTheTableAndSegments) {
  Reply r = Scan(json::parse(R"j({"FilterExpression": "attribute_exists(v)",
                                  "ProjectionExpression": "v"})j"));
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["Count"], 3);
  EXPECT_EQ(r.body["ScannedCount"], 4);
  EXPECT_EQ(r.body["Items"].size(), 3u);
  EXPECT_FALSE(r.body.contains("LastEvaluatedKey"));

  size_t total = 0;
  for (int s = 0; s < 3; ++s) {
    Reply seg = Scan({{"Segment", s}, {"TotalSegments", 3}});
    ASSERT_EQ(seg.http_status, 200) << seg;
    total += seg.body["Items"].size();
  }
  EXPECT_EQ(total, 4u);

  EXPECT_EQ(Scan({{"Segment", 0}, {"TotalSegments", 1000001}}).body,
            ValidationError("1 validation error detected: Value '1000001' at "
                            "'totalSegments' failed to satisfy constraint: Member must "
                            "have value less than or equal to 1000000"));
  EXPECT_EQ(Scan({{"Segment", -1}, {"TotalSegments", 2}}).body,
            ValidationError("1 validation error detected: Value '-1' at 'segment' failed "
                            "to satisfy constraint: Member must have value greater than "
                            "or equal to 0"));
  EXPECT_EQ(Scan({{"Segment", 3}, {"TotalSegments", 3}}).body,
            ValidationError("The Segment parameter is zero-based and must be less than "
                            "parameter TotalSegments: Segment: 3 is not less than "
                            "TotalSegments: 3"));
  EXPECT_EQ(Scan({{"TotalSegments", 3}}).body,
            ValidationError("The Segment parameter is required but was not present in the "
                            "request when parameter TotalSegments is present"));
  EXPECT_EQ(Scan(json::parse(R"({"ExclusiveStartKey": {"pk": {"S": "a"}}})")).body,
            ValidationError("The provided starting key is invalid: The provided key "
                            "element does not match the schema"));
  EXPECT_EQ(Scan(json::parse(R"({"ScanFilter": {"v": {"ComparisonOperator": "NULL",
                                                       "AttributeValueList": [{"S": "a"}]}}})"))
                .body,
            ValidationError("One or more parameter values were invalid: Invalid number of "
                            "argument(s) for the NULL ComparisonOperator"));
}

TEST_F(QueryOpsTest, ScanPagesEndWithoutLastEvaluatedKey) {
  json req = {{"Limit", 2}};
  size_t seen = 0;
  int pages = 0;
  while (pages < 10) {
    Reply r = Scan(req);
    ASSERT_EQ(r.http_status, 200) << r;
    ++pages;
    seen += r.body["Items"].size();
    if (!r.body.contains("LastEvaluatedKey")) break;
    req["ExclusiveStartKey"] = r.body["LastEvaluatedKey"];
  }
  EXPECT_EQ(seen, 4u);
  EXPECT_EQ(pages, 3);  // 2 + 2 (Limit on the last item) + an empty page
}

}  // namespace
}  // namespace dynarock::api

namespace dynarock::api {
namespace {

// The Client renders Query and Scan pages from the items' encodings; a
// caller that wants Json (Dispatch without body_text) gets the decoded
// path. Both must give byte-identical bodies over items of every type.
class EncodedResponseTest : public ApiTest {
 protected:
  void SetUp() override {
    const Reply created = Call("CreateTable", R"({"TableName": "enc", "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                                 {"AttributeName": "sk", "AttributeType": "N"},
                                 {"AttributeName": "g", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                      {"AttributeName": "sk", "KeyType": "RANGE"}],
        "GlobalSecondaryIndexes": [{"IndexName": "ByG",
            "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
            "Projection": {"ProjectionType": "ALL"}}]})");
    ASSERT_EQ(created.http_status, 200) << created;
    std::mt19937 rng(31);
    for (const char* pk : {"a", "b"}) {
      for (int i = 1; i <= 40; ++i) {
        Item item = RandomItem(rng, 6);
        item["pk"] = AttributeValue::S(pk);
        item["sk"] = AttributeValue::N(*Number::Parse(std::to_string(i)));
        item["g"] = AttributeValue::S(i % 2 ? "odd" : "even");
        PutItemRequest put;
        put.table_name = "enc";
        put.item = std::move(item);
        ASSERT_TRUE(test_engine_->PutItem(put).ok());
      }
    }
    ASSERT_TRUE(test_engine_->WaitUntilIndexesCaughtUp().ok());
  }

  // The Client's body and the Json path's, for one request.
  void ExpectSameBody(std::string_view op, const json& req) {
    const Response text = client_.Call(op, req.dump());
    ASSERT_EQ(text.http_status, 200) << text.body;
    RequestContext ctx{test_engine_.engine.get(), Scope{}};
    Result<Json> via_json = Dispatch(ctx, op, req);
    ASSERT_TRUE(via_json.ok()) << via_json.status().message();
    EXPECT_EQ(text.body, DumpJson(*via_json)) << req.dump();
  }
};

TEST_F(EncodedResponseTest, QueryAndScanBodiesAreByteIdentical) {
  for (const char* capacity : {"NONE", "TOTAL", "INDEXES"}) {
    for (bool forward : {true, false}) {
      for (int limit : {0, 1, 7, 100}) {
        json q = {{"TableName", "enc"},
                  {"KeyConditionExpression", "pk = :p"},
                  {"ExpressionAttributeValues", {{":p", {{"S", "a"}}}}},
                  {"ScanIndexForward", forward},
                  {"ReturnConsumedCapacity", capacity}};
        if (limit > 0) q["Limit"] = limit;
        ExpectSameBody("Query", q);
        json s = {{"TableName", "enc"}, {"ReturnConsumedCapacity", capacity}};
        if (limit > 0) s["Limit"] = limit;
        ExpectSameBody("Scan", s);
        s["IndexName"] = "ByG";
        ExpectSameBody("Scan", s);
      }
    }
  }
  // Empty pages, a start key, the index, and the paths that stay decoded.
  ExpectSameBody("Query", json::parse(R"({"TableName": "enc",
      "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "none"}}})"));
  ExpectSameBody("Query", json::parse(R"({"TableName": "enc", "Limit": 5,
      "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "b"}},
      "ExclusiveStartKey": {"pk": {"S": "b"}, "sk": {"N": "20"}}})"));
  ExpectSameBody("Query", json::parse(R"({"TableName": "enc", "IndexName": "ByG",
      "KeyConditionExpression": "g = :g", "ExpressionAttributeValues": {":g": {"S": "odd"}},
      "ReturnConsumedCapacity": "INDEXES"})"));
  ExpectSameBody("Query", json::parse(R"({"TableName": "enc",
      "KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "a"}},
      "Select": "COUNT"})"));
  ExpectSameBody("Query", json::parse(R"({"TableName": "enc",
      "KeyConditionExpression": "pk = :p", "FilterExpression": "g = :g",
      "ExpressionAttributeValues": {":p": {"S": "a"}, ":g": {"S": "odd"}}})"));
  ExpectSameBody("Query", json::parse(R"({"TableName": "enc",
      "KeyConditionExpression": "pk = :p", "FilterExpression": "g = :g",
      "ExpressionAttributeValues": {":p": {"S": "a"}, ":g": {"S": "none"}}})"));
  ExpectSameBody("Scan", json::parse(R"({"TableName": "enc", "ProjectionExpression": "pk, g"})"));
}

}  // namespace
}  // namespace dynarock::api
