// Secondary indexes through the in-process Client: UpdateTable
// GlobalSecondaryIndexUpdates (shape errors and backfill), Query on a GSI
// with paging, ReturnItemCollectionMetrics, and the DynamoRock_20251121
// extensions.

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class IndexOpsTest : public ApiTest {
 protected:
  void SetUp() override {
    Reply r = Call("CreateTable", R"({
      "TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                              {"AttributeName":"sk","AttributeType":"S"},
                              {"AttributeName":"g","AttributeType":"S"},
                              {"AttributeName":"l","AttributeType":"N"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
                   {"AttributeName":"sk","KeyType":"RANGE"}],
      "GlobalSecondaryIndexes":[{"IndexName":"byG",
        "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
        "Projection":{"ProjectionType":"KEYS_ONLY"}}],
      "LocalSecondaryIndexes":[{"IndexName":"byL",
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
                     {"AttributeName":"l","KeyType":"RANGE"}],
        "Projection":{"ProjectionType":"ALL"}}]})");
    ASSERT_EQ(r.http_status, 200) << r;
  }
  void Put(const std::string& pk, const std::string& sk, const std::string& g) {
    json item = {{"pk", {{"S", pk}}},
                 {"sk", {{"S", sk}}},
                 {"g", {{"S", g}}},
                 {"l", {{"N", "1"}}},
                 {"v", {{"S", "value"}}}};
    Reply r = Call("PutItem", json{{"TableName", "tbl"}, {"Item", item}});
    ASSERT_EQ(r.http_status, 200) << r;
  }
};

TEST_F(IndexOpsTest, QueryOnAGsiPagesWithIndexShapedKeys) {
  for (int i = 0; i < 5; ++i) Put("p" + std::to_string(i), "s", "x");
  json query = json::parse(R"({"TableName":"tbl","IndexName":"byG","Limit":2,
    "KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}}})");
  int seen = 0;
  for (int pages = 0; pages < 10; ++pages) {
    Reply r = Call("Query", query);
    ASSERT_EQ(r.http_status, 200) << r;
    for (const json& item : r.body["Items"]) {
      EXPECT_EQ(item.size(), 3u) << item;  // KEYS_ONLY: pk, sk, g
      ++seen;
    }
    if (!r.body.contains("LastEvaluatedKey")) break;
    EXPECT_EQ(r.body["LastEvaluatedKey"].size(), 3u) << r;
    query["ExclusiveStartKey"] = r.body["LastEvaluatedKey"];
  }
  EXPECT_EQ(seen, 5);
  query.erase("ExclusiveStartKey");
  query["ConsistentRead"] = true;
  EXPECT_EQ(
      Call("Query", query).body,
      ValidationError(
          "Consistent reads are not supported on global secondary indexes"));
}

TEST_F(IndexOpsTest, MultiAttributeGsiQueryPagesWithEveryKeyAttribute) {
  Reply r = Call("UpdateTable", R"({"TableName":"tbl",
    "AttributeDefinitions":[{"AttributeName":"g","AttributeType":"S"},
                            {"AttributeName":"h","AttributeType":"N"},
                            {"AttributeName":"l","AttributeType":"N"}],
    "GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byGh",
      "KeySchema":[{"AttributeName":"g","KeyType":"HASH"},
                   {"AttributeName":"h","KeyType":"HASH"},
                   {"AttributeName":"l","KeyType":"RANGE"},
                   {"AttributeName":"sk","KeyType":"RANGE"}],
      "Projection":{"ProjectionType":"KEYS_ONLY"}}}]})");
  ASSERT_EQ(r.http_status, 200) << r;
  for (int i = 0; i < 5; ++i) {
    json item = {{"pk", {{"S", "p" + std::to_string(i)}}}, {"sk", {{"S", "s"}}},
                 {"g", {{"S", "x"}}}, {"h", {{"N", "7"}}},
                 {"l", {{"N", std::to_string(5 - i)}}}, {"v", {{"S", "value"}}}};
    ASSERT_EQ(Call("PutItem", json{{"TableName", "tbl"}, {"Item", item}}).http_status, 200);
  }
  ASSERT_EQ(Call("DynamoRock_20251121.WaitForIndexes", "{}").http_status, 200);
  json query = json::parse(R"({"TableName":"tbl","IndexName":"byGh","Limit":2,
    "KeyConditionExpression":"g = :g AND h = :h AND l > :l",
    "ExpressionAttributeValues":{":g":{"S":"x"},":h":{"N":"7"},":l":{"N":"1"}}})");
  std::string order;
  for (int pages = 0; pages < 10; ++pages) {
    r = Call("Query", query);
    ASSERT_EQ(r.http_status, 200) << r;
    for (const json& item : r.body["Items"]) {
      EXPECT_EQ(item.size(), 5u) << item;  // KEYS_ONLY: pk, sk, g, h, l
      order += item["l"]["N"].get<std::string>();
    }
    if (!r.body.contains("LastEvaluatedKey")) break;
    EXPECT_EQ(r.body["LastEvaluatedKey"].size(), 5u) << r;
    query["ExclusiveStartKey"] = r.body["LastEvaluatedKey"];
  }
  EXPECT_EQ(order, "2345");
  query.erase("ExclusiveStartKey");
  query["KeyConditionExpression"] = "g = :g AND l > :l";
  query["ExpressionAttributeValues"].erase(":h");
  EXPECT_EQ(Call("Query", query).body,
            ValidationError("Query key condition not supported: every HASH key attribute "
                            "needs an equality condition; attribute: h"));
}

TEST_F(IndexOpsTest, ReturnItemCollectionMetrics) {
  Reply r = Call("PutItem",
                 R"({"TableName":"tbl","ReturnItemCollectionMetrics":"SIZE",
    "Item":{"pk":{"S":"a"},"sk":{"S":"b"}}})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"ItemCollectionMetrics":{
    "ItemCollectionKey":{"pk":{"S":"a"}},"SizeEstimateRangeGB":[0.0,1.0]}})"));
  r = Call("DeleteItem",
           R"({"TableName":"tbl","ReturnItemCollectionMetrics":"SIZE",
    "Key":{"pk":{"S":"a"},"sk":{"S":"b"}}})");
  EXPECT_TRUE(r.body.contains("ItemCollectionMetrics")) << r;
  r = Call("UpdateItem",
           R"({"TableName":"tbl","ReturnItemCollectionMetrics":"NONE",
    "Key":{"pk":{"S":"a"},"sk":{"S":"b"}}})");
  EXPECT_EQ(r.body, json::object());
}

TEST_F(IndexOpsTest, BatchWriteItemReturnsItemCollectionMetrics) {
  ASSERT_EQ(Call("CreateTable", R"({"TableName":"plain","BillingMode":"PAY_PER_REQUEST",
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})").http_status, 200);
  const char* batch = R"({"ReturnItemCollectionMetrics":"SIZE","RequestItems":{
    "tbl":[{"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"S":"1"}}}},
           {"PutRequest":{"Item":{"pk":{"S":"a"},"sk":{"S":"2"}}}},
           {"DeleteRequest":{"Key":{"pk":{"S":"b"},"sk":{"S":"1"}}}}],
    "plain":[{"PutRequest":{"Item":{"pk":{"S":"x"}}}}]}})";
  Reply r = Call("BatchWriteItem", batch);
  ASSERT_EQ(r.http_status, 200) << r;
  // One entry per collection written, only for the table with an LSI.
  EXPECT_EQ(r.body, json::parse(R"({"UnprocessedItems":{},"ItemCollectionMetrics":{"tbl":[
    {"ItemCollectionKey":{"pk":{"S":"a"}},"SizeEstimateRangeGB":[0.0,1.0]},
    {"ItemCollectionKey":{"pk":{"S":"b"}},"SizeEstimateRangeGB":[0.0,1.0]}]}})"));
  json none = json::parse(batch);
  none.erase("ReturnItemCollectionMetrics");
  EXPECT_EQ(Call("BatchWriteItem", none).body, json::parse(R"({"UnprocessedItems":{}})"));
}

TEST_F(IndexOpsTest, IndexKeyTypeMismatch) {
  EXPECT_EQ(Call("PutItem", R"({"TableName":"tbl",
    "Item":{"pk":{"S":"a"},"sk":{"S":"b"},"g":{"N":"1"}}})")
                .body,
            ValidationError(
                "One or more parameter values were invalid: Type mismatch for "
                "Index Key g Expected: S Actual: N IndexName: byG"));
}

TEST_F(IndexOpsTest, UpdateTableCreatesAndDeletesAGsi) {
  Put("a", "1", "x");
  Reply r = Call("UpdateTable", R"({"TableName":"tbl",
    "AttributeDefinitions":[{"AttributeName":"v","AttributeType":"S"}],
    "GlobalSecondaryIndexUpdates":[{"Create":{"IndexName":"byV",
      "KeySchema":[{"AttributeName":"v","KeyType":"HASH"}],
      "Projection":{"ProjectionType":"ALL"}}}]})");
  ASSERT_EQ(r.http_status, 200) << r;
  const json& gsis = r.body["TableDescription"]["GlobalSecondaryIndexes"];
  ASSERT_EQ(gsis.size(), 2u);
  EXPECT_EQ(gsis[1]["IndexName"], "byV");
  EXPECT_EQ(gsis[1]["IndexStatus"], "CREATING");
  EXPECT_EQ(gsis[1]["Backfilling"], true);
  ASSERT_EQ(Call("DynamoRock_20251121.WaitForIndexes", "{}").body,
            json::object());
  r = Call("DescribeTable", R"({"TableName":"tbl"})");
  EXPECT_EQ(r.body["Table"]["GlobalSecondaryIndexes"][1]["IndexStatus"],
            "ACTIVE");
  EXPECT_FALSE(
      r.body["Table"]["GlobalSecondaryIndexes"][1].contains("Backfilling"));
  r = Call("Query", R"({"TableName":"tbl","IndexName":"byV",
    "KeyConditionExpression":"v = :v","ExpressionAttributeValues":{":v":{"S":"value"}}})");
  EXPECT_EQ(r.body["Count"], 1) << r;
  r = Call("UpdateTable", R"({"TableName":"tbl",
    "GlobalSecondaryIndexUpdates":[{"Delete":{"IndexName":"byV"}}]})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["TableDescription"]["GlobalSecondaryIndexes"].size(), 1u);
}

TEST_F(IndexOpsTest, GlobalSecondaryIndexUpdatesShapeErrors) {
  EXPECT_EQ(
      Call("UpdateTable", R"({"TableName":"tbl",
    "GlobalSecondaryIndexUpdates":[{"Update":{}}]})")
          .body,
      // ProvisionedThroughput is optional since an Update may carry
      // OnDemandThroughput or WarmThroughput instead (current model).
      ValidationError(
          "1 validation error detected: Value null at "
          "'globalSecondaryIndexUpdates.1.member.update.indexName' failed "
          "to satisfy constraint: Member must not be null"));
  EXPECT_EQ(
      Call("UpdateTable",
           R"({"TableName":"tbl","GlobalSecondaryIndexUpdates":[{}]})")
          .body,
      ValidationError("One or more parameter values were invalid: One of "
                      "GlobalSecondaryIndexUpdate.Update, "
                      "GlobalSecondaryIndexUpdate.Create, "
                      "GlobalSecondaryIndexUpdate.Delete must not be null"));
  Reply r =
      Call("UpdateTable", R"({"TableName":"tbl","GlobalSecondaryIndexUpdates":[
    {"Delete":{"IndexName":"byG"}},{"Delete":{"IndexName":"byL"}}]})");
  EXPECT_EQ(r.body,
            ErrorBody("com.amazonaws.dynamodb.v20120810#LimitExceededException",
                      "Subscriber limit exceeded: Only 1 online index can be "
                      "created or deleted simultaneously per table"));
}

TEST_F(IndexOpsTest, ExtensionsHaveTheirOwnTargetPrefix) {
  // A DynamoDB_20120810 target never reaches them.
  EXPECT_EQ(Call("WaitForIndexes", "{}").http_status, 400);
  ASSERT_EQ(Call("DynamoRock_20251121.SetIndexLag",
                 R"({"TableName":"tbl","IndexName":"byG","LagMillis":60000})")
                .body,
            json::object());
  Put("a", "1", "x");
  json query = json::parse(R"({"TableName":"tbl","IndexName":"byG",
    "KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}}})");
  EXPECT_EQ(Call("Query", query).body["Count"],
            0);  // stale: the lag has not passed
  ASSERT_EQ(Call("DynamoRock_20251121.WaitForIndexes", "{}").http_status, 200);
  EXPECT_EQ(Call("Query", query).body["Count"], 1);
  Reply stats = Call("DynamoRock_20251121.DescribeIndexPropagation", "{}");
  ASSERT_EQ(stats.http_status, 200) << stats;
  EXPECT_GE(stats.body["AppliedRecords"].get<int64_t>(), 1);
  EXPECT_EQ(
      Call("DynamoRock_20251121.SetIndexLag",
           R"({"TableName":"tbl","IndexName":"nope","LagMillis":1})")
          .body,
      ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                "Requested resource not found: Index nope for table tbl"));
  EXPECT_EQ(Call("DynamoRock_20251121.SetIndexLag",
                 R"({"TableName":"tbl","IndexName":"byG"})")
                .http_status,
            400);
}

TEST_F(IndexOpsTest, VerifyIndexesChecksIndexesAndRecountsTheTable) {
  for (int i = 0; i < 4; ++i) Put("p" + std::to_string(i), "s", "x");
  ASSERT_EQ(Call("UpdateItem", R"({"TableName":"tbl",
      "Key":{"pk":{"S":"p1"},"sk":{"S":"s"}},"UpdateExpression":"SET g = :g",
      "ExpressionAttributeValues":{":g":{"S":"y"}}})").http_status, 200);
  ASSERT_EQ(Call("DeleteItem", R"({"TableName":"tbl",
      "Key":{"pk":{"S":"p2"},"sk":{"S":"s"}}})").http_status, 200);
  ASSERT_EQ(Call("DynamoRock_20251121.WaitForIndexes", "{}").http_status, 200);
  Reply ok = Call("DynamoRock_20251121.VerifyIndexes", R"({"TableName":"tbl"})");
  EXPECT_EQ(ok.http_status, 200) << ok;
  EXPECT_EQ(ok.body, json::object());

  // A GSI change still in the log is a difference the checker reports.
  ASSERT_EQ(Call("DynamoRock_20251121.SetIndexLag",
                 R"({"TableName":"tbl","IndexName":"byG","LagMillis":600000})")
                .http_status, 200);
  Put("p9", "s", "z");
  Reply stale = Call("DynamoRock_20251121.VerifyIndexes", R"({"TableName":"tbl"})");
  EXPECT_EQ(stale.http_status, 500) << stale;
  EXPECT_NE(stale.body.dump().find("index byG"), std::string::npos) << stale;
  ASSERT_EQ(Call("DynamoRock_20251121.WaitForIndexes", "{}").http_status, 200);
  EXPECT_EQ(Call("DynamoRock_20251121.VerifyIndexes", R"({"TableName":"tbl"})")
                .http_status, 200);
  EXPECT_EQ(Call("DynamoRock_20251121.VerifyIndexes", R"({"TableName":"nope"})")
                .http_status, 400);
}

}  // namespace
}  // namespace dynarock::api
