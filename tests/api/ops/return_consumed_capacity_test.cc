// ReturnConsumedCapacity on every data operation, through the in-process
// Client with whole JSON: NONE / absent, TOTAL, INDEXES, batches as lists,
// and errors without ConsumedCapacity.

#include "api/ops/return_consumed_capacity.h"

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

TEST(EncodeConsumedCapacityTest, TotalIsTableNameAndCapacityUnits) {
  ConsumedCapacity c;
  c.table_name = "t";
  c.table = {0, 1};
  c.global_secondary_indexes["g"] = {0, 2};
  EXPECT_EQ(ops::EncodeConsumedCapacity(c, ops::ReturnConsumedCapacity::kTotal),
            json::parse(R"({"TableName":"t","CapacityUnits":3.0})"));
}

TEST(EncodeConsumedCapacityTest, IndexesAddsTheTableAndEachIndexRead) {
  ConsumedCapacity c;
  c.table_name = "t";
  c.local_secondary_indexes["l"] = {0.5, 0};
  EXPECT_EQ(ops::EncodeConsumedCapacity(c, ops::ReturnConsumedCapacity::kIndexes),
            json::parse(R"({"TableName":"t","CapacityUnits":0.5,
                            "Table":{"CapacityUnits":0.0},
                            "LocalSecondaryIndexes":{"l":{"CapacityUnits":0.5}}})"));
}

class ConsumedCapacityOpsTest : public ApiTest {
 protected:
  void SetUp() override {
    CreateTable("items", /*range=*/true);
    CreateTable("other");
    json req = json::parse(R"({
      "TableName":"indexed","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                              {"AttributeName":"sk","AttributeType":"S"},
                              {"AttributeName":"g","AttributeType":"S"},
                              {"AttributeName":"l","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
                   {"AttributeName":"sk","KeyType":"RANGE"}],
      "GlobalSecondaryIndexes":[{"IndexName":"ByG",
        "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
        "Projection":{"ProjectionType":"KEYS_ONLY"}}],
      "LocalSecondaryIndexes":[{"IndexName":"ByL",
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
                     {"AttributeName":"l","KeyType":"RANGE"}],
        "Projection":{"ProjectionType":"ALL"}}]})");
    Reply r = Call("CreateTable", req);
    ASSERT_EQ(r.http_status, 200) << r;
  }

  // An "items" item of about `bytes` bytes.
  static json Item(const std::string& pk, int sk, size_t bytes) {
    return {{"pk", {{"S", pk}}},
            {"sk", {{"N", std::to_string(sk)}}},
            {"d", {{"S", std::string(bytes, 'x')}}}};
  }
  static json Key(const std::string& pk, int sk) {
    return {{"pk", {{"S", pk}}}, {"sk", {{"N", std::to_string(sk)}}}};
  }
  Reply Put(const json& item, const std::string& rcc = "TOTAL") {
    return Call("PutItem", json{{"TableName", "items"}, {"Item", item},
                                {"ReturnConsumedCapacity", rcc}});
  }
};

TEST_F(ConsumedCapacityOpsTest, NoneOrAbsentReturnsNothing) {
  Reply absent = Call("PutItem", json{{"TableName", "items"}, {"Item", Item("a", 1, 10)}});
  ASSERT_EQ(absent.http_status, 200) << absent;
  EXPECT_EQ(absent.body, json::object());
  Reply none = Put(Item("a", 1, 10), "NONE");
  EXPECT_EQ(none.body, json::object());
}

TEST_F(ConsumedCapacityOpsTest, WritesReportWholeUnitsAsJsonNumbers) {
  Response raw = client_.Call(
      "PutItem", json{{"TableName", "items"}, {"Item", Item("a", 1, 3000)},
                      {"ReturnConsumedCapacity", "TOTAL"}}.dump());
  EXPECT_NE(raw.body.find(R"("CapacityUnits":3.0)"), std::string::npos) << raw.body;
  Reply update = Call("UpdateItem", json::parse(R"({"TableName":"items",
      "Key":{"pk":{"S":"a"},"sk":{"N":"1"}},"UpdateExpression":"SET e = :e",
      "ExpressionAttributeValues":{":e":{"S":"y"}},"ReturnConsumedCapacity":"TOTAL"})"));
  EXPECT_EQ(update.body,
            json::parse(R"({"ConsumedCapacity":{"TableName":"items","CapacityUnits":3.0}})"));
  Reply del = Call("DeleteItem", json{{"TableName", "items"}, {"Key", Key("zz", 1)},
                                      {"ReturnConsumedCapacity", "INDEXES"}});
  EXPECT_EQ(del.body, json::parse(R"({"ConsumedCapacity":{"TableName":"items",
      "CapacityUnits":1.0,"Table":{"CapacityUnits":1.0}}})"));
}

TEST_F(ConsumedCapacityOpsTest, GetItemReportsHalfUnitsWhenEventuallyConsistent) {
  ASSERT_EQ(Put(Item("a", 1, 5000)).http_status, 200);
  Reply eventual = Call("GetItem", json{{"TableName", "items"}, {"Key", Key("a", 1)},
                                        {"ProjectionExpression", "pk"},
                                        {"ReturnConsumedCapacity", "TOTAL"}});
  EXPECT_EQ(eventual.body["ConsumedCapacity"],
            json::parse(R"({"TableName":"items","CapacityUnits":1.0})"));
  Reply missing = Call("GetItem", json{{"TableName", "items"}, {"Key", Key("b", 1)},
                                       {"ReturnConsumedCapacity", "INDEXES"}});
  EXPECT_EQ(missing.body, json::parse(R"({"ConsumedCapacity":{"TableName":"items",
      "CapacityUnits":0.5,"Table":{"CapacityUnits":0.5}}})"));
}

TEST_F(ConsumedCapacityOpsTest, QueryAndScanReportThePage) {
  for (int i = 0; i < 3; ++i) ASSERT_EQ(Put(Item("a", i, 3000)).http_status, 200);
  Reply q = Call("Query", json::parse(R"({"TableName":"items",
      "KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},
      "ConsistentRead":true,"Select":"COUNT","ReturnConsumedCapacity":"TOTAL"})"));
  EXPECT_EQ(q.body["ConsumedCapacity"],
            json::parse(R"({"TableName":"items","CapacityUnits":3.0})"));
  Reply s = Call("Scan", json::parse(R"({"TableName":"items","Limit":2,
      "ReturnConsumedCapacity":"INDEXES"})"));
  EXPECT_EQ(s.body["ConsumedCapacity"], json::parse(R"({"TableName":"items",
      "CapacityUnits":1.0,"Table":{"CapacityUnits":1.0}})"));
}

// DynamoDB's documented Query on an index with INDEXES: the Table part is
// present with 0 units.
TEST_F(ConsumedCapacityOpsTest, IndexReadIsListedUnderTheIndex) {
  Reply put = Call("PutItem", json::parse(R"({"TableName":"indexed",
      "Item":{"pk":{"S":"a"},"sk":{"S":"s"},"g":{"S":"x"},"l":{"S":"y"}},
      "ReturnConsumedCapacity":"INDEXES"})"));
  EXPECT_EQ(put.body, json::parse(R"({"ConsumedCapacity":{"TableName":"indexed",
      "CapacityUnits":3.0,"Table":{"CapacityUnits":1.0},
      "GlobalSecondaryIndexes":{"ByG":{"CapacityUnits":1.0}},
      "LocalSecondaryIndexes":{"ByL":{"CapacityUnits":1.0}}}})"));
  Reply q = Call("Query", json::parse(R"({"TableName":"indexed","IndexName":"ByL",
      "KeyConditionExpression":"pk = :p","ExpressionAttributeValues":{":p":{"S":"a"}},
      "ReturnConsumedCapacity":"INDEXES"})"));
  EXPECT_EQ(q.body["ConsumedCapacity"], json::parse(R"({"TableName":"indexed",
      "CapacityUnits":0.5,"Table":{"CapacityUnits":0.0},
      "LocalSecondaryIndexes":{"ByL":{"CapacityUnits":0.5}}})"));
  Reply total = Call("Query", json::parse(R"({"TableName":"indexed","IndexName":"ByG",
      "KeyConditionExpression":"g = :g","ExpressionAttributeValues":{":g":{"S":"x"}},
      "ReturnConsumedCapacity":"TOTAL"})"));
  EXPECT_EQ(total.body["ConsumedCapacity"],
            json::parse(R"({"TableName":"indexed","CapacityUnits":0.5})"));
}

TEST_F(ConsumedCapacityOpsTest, BatchesReportOneObjectPerTable) {
  ASSERT_EQ(Put(Item("a", 1, 1500)).http_status, 200);
  ASSERT_EQ(Put(Item("b", 1, 6600)).http_status, 200);
  Reply get = Call("BatchGetItem", json{
      {"RequestItems",
       {{"items", {{"Keys", {Key("a", 1), Key("b", 1)}}, {"ConsistentRead", true}}},
        {"other", {{"Keys", {{{"pk", {{"S", "none"}}}}}}}}}},
      {"ReturnConsumedCapacity", "TOTAL"}});
  ASSERT_EQ(get.http_status, 200) << get;
  EXPECT_EQ(get.body["ConsumedCapacity"], json::parse(R"([
      {"TableName":"items","CapacityUnits":3.0},
      {"TableName":"other","CapacityUnits":0.5}])"));
  Reply write = Call("BatchWriteItem", json{
      {"RequestItems",
       {{"items", {{{"PutRequest", {{"Item", Item("c", 1, 1500)}}}},
                   {{"PutRequest", {{"Item", Item("d", 1, 400)}}}}}}}},
      {"ReturnConsumedCapacity", "INDEXES"}});
  ASSERT_EQ(write.http_status, 200) << write;
  EXPECT_EQ(write.body["ConsumedCapacity"], json::parse(R"([
      {"TableName":"items","CapacityUnits":3.0,"Table":{"CapacityUnits":3.0}}])"));
}

TEST_F(ConsumedCapacityOpsTest, ErrorsCarryNoConsumedCapacity) {
  ASSERT_EQ(Put(Item("a", 1, 10)).http_status, 200);
  Reply r = Call("PutItem", json::parse(R"json({"TableName":"items",
      "Item":{"pk":{"S":"a"},"sk":{"N":"1"}},
      "ConditionExpression":"attribute_not_exists(pk)","ReturnConsumedCapacity":"TOTAL"})json"));
  EXPECT_EQ(r.http_status, 400);
  EXPECT_FALSE(r.body.contains("ConsumedCapacity")) << r;
}

}  // namespace
}  // namespace dynarock::api
