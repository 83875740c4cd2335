// Capacity through the in-process Client: DescribeLimits, and the
// DynamoRock_20251121 extensions DescribeCapacity and SetThrottling (shape
// checks, the statistics' JSON, throttling switched at runtime). The engine
// runs on a SimulatedClock that never advances here, so buckets do not refill.

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class CapacityOpsTest : public ApiTest {
 protected:
  // A provisioned table of 1 RCU / 1 WCU: 300 units of burst each.
  void CreateProvisioned(const std::string& name) {
    Reply r = Call("CreateTable", json{
        {"TableName", name},
        {"AttributeDefinitions",
         {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
          {{"AttributeName", "g"}, {"AttributeType", "S"}}}},
        {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
        {"ProvisionedThroughput",
         {{"ReadCapacityUnits", 1}, {"WriteCapacityUnits", 1}}},
        {"GlobalSecondaryIndexes",
         {{{"IndexName", "byG"},
           {"KeySchema", {{{"AttributeName", "g"}, {"KeyType", "HASH"}}}},
           {"Projection", {{"ProjectionType", "KEYS_ONLY"}}},
           {"ProvisionedThroughput",
            {{"ReadCapacityUnits", 5}, {"WriteCapacityUnits", 5}}}}}}});
    ASSERT_EQ(r.http_status, 200) << r;
  }
  // An item of exactly `kb` KB (so `kb` WCU) at partition key `pk`.
  Reply PutKb(const std::string& table, const std::string& pk, int kb) {
    // Item size: attribute names plus values; "pk" + pk + "v" + value.
    const size_t overhead = 2 + pk.size() + 1;
    json item = {{"pk", {{"S", pk}}},
                 {"v", {{"S", std::string(kb * 1024 - overhead, 'x')}}}};
    return Call("PutItem", json{{"TableName", table}, {"Item", item}});
  }
};

TEST_F(CapacityOpsTest, DescribeLimitsAnswersDynamoDbsDefaultQuotas) {
  Reply r = Call("DescribeLimits", "{}");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({
    "AccountMaxReadCapacityUnits": 80000, "AccountMaxWriteCapacityUnits": 80000,
    "TableMaxReadCapacityUnits": 40000, "TableMaxWriteCapacityUnits": 40000})"));
}

TEST_F(CapacityOpsTest, DescribeEndpointsNamesTheRegionalEndpointForADay) {
  Reply r = Call("DescribeEndpoints", "{}");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"Endpoints": [
    {"Address": "dynamodb.us-east-1.amazonaws.com", "CachePeriodInMinutes": 1440}]})"));
}

TEST_F(CapacityOpsTest, ExtensionsHaveTheirOwnTargetPrefix) {
  EXPECT_EQ(Call("DescribeCapacity", R"({"TableName":"t"})").body,
            json::parse(R"({"__type":
              "com.amazon.coral.service#UnknownOperationException"})"));
  EXPECT_EQ(Call("SetThrottling", R"({"Enabled":true})").http_status, 400);
  EXPECT_EQ(Call("DynamoRock_20251121.DescribeLimits", "{}").http_status, 400);
}

TEST_F(CapacityOpsTest, DescribeCapacityChecksItsRequest) {
  EXPECT_EQ(Call("DynamoRock_20251121.DescribeCapacity", "{}").body,
            ValidationError("1 validation error detected: Value null at "
                            "'tableName' failed to satisfy constraint: Member "
                            "must not be null"));
  EXPECT_EQ(Call("DynamoRock_20251121.DescribeCapacity",
                 R"({"TableName":"tbl","HotKeys":101})")
                .body,
            ValidationError("1 validation error detected: Value '101' at "
                            "'hotKeys' failed to satisfy constraint: Member "
                            "must have value less than or equal to 100"));
  EXPECT_EQ(Call("DynamoRock_20251121.DescribeCapacity",
                 R"({"TableName":"t","HotKeys":"3"})")
                .http_status,
            400);
  EXPECT_EQ(
      Call("DynamoRock_20251121.DescribeCapacity", R"({"TableName":"nope"})")
          .body["__type"],
      "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException");
}

TEST_F(CapacityOpsTest, DescribeCapacityShowsTheTableItsIndexesAndHotKeys) {
  CreateProvisioned("tbl");
  ASSERT_EQ(PutKb("tbl", "hot", 3).http_status, 200);   // 3 WCU
  ASSERT_EQ(PutKb("tbl", "hot", 2).http_status, 200);   // 3: the old item's size
  ASSERT_EQ(PutKb("tbl", "cold", 1).http_status, 200);  // 1

  Reply r = Call("DynamoRock_20251121.DescribeCapacity",
                 R"({"TableName":"tbl","HotKeys":1})");
  ASSERT_EQ(r.http_status, 200) << r;
  const json& body = r.body;
  EXPECT_EQ(body["BillingMode"], "PROVISIONED");
  const json& t = body["Table"];
  EXPECT_EQ(t["TableName"], "tbl");
  EXPECT_NE(t["Arn"].get<std::string>().find(":table/tbl"), std::string::npos)
      << t["Arn"];
  EXPECT_EQ(t["ReadUnitsPerSecond"], 1);
  EXPECT_EQ(t["WriteUnitsPerSecond"], 1);
  for (const char* window : {"LastSecond", "LastMinute", "Last5Minutes", "Total"}) {
    EXPECT_EQ(t[window]["ConsumedWriteUnits"], 7.0) << window << t;
    EXPECT_EQ(t[window]["ConsumedReadUnits"], 0.0) << window;
    EXPECT_EQ(t[window]["ThrottledWriteRequests"], 0) << window;
    EXPECT_TRUE(t[window].contains("ThrottledReadUnits")) << window;
    EXPECT_TRUE(t[window].contains("ThrottledWriteUnits")) << window;
    EXPECT_TRUE(t[window].contains("ThrottledReadRequests")) << window;
    EXPECT_EQ(t[window]["TimeToLiveDeletedItems"], 0) << window;
  }
  EXPECT_EQ(t["WriteBalance"], 300.0 - 7.0);
  EXPECT_TRUE(t.contains("PeakReadUnits") && t.contains("PeakWriteUnits")) << t;

  ASSERT_EQ(t["Partitions"].size(), 1u) << t;
  const json& p = t["Partitions"][0];
  EXPECT_EQ(p["HashBegin"], "0000000000000000");
  EXPECT_EQ(p["HashEnd"], "0000000000000000");  // the end of the ring
  EXPECT_EQ(p["ItemCount"], 2);
  EXPECT_EQ(p["SizeBytes"], 3 * 1024);  // the 2 KB and the 1 KB item
  EXPECT_EQ(p["LastMinute"]["ConsumedWriteUnits"], 7.0);
  EXPECT_TRUE(p.contains("Id") && p.contains("ReadBalance") &&
              p.contains("WriteBalance") && p.contains("Total"))
      << p;

  ASSERT_EQ(t["HotKeys"].size(), 1u) << t;  // HotKeys: 1
  const json& k = t["HotKeys"][0];
  EXPECT_NE(k["Key"].get<std::string>().find("hot"), std::string::npos) << k;
  EXPECT_EQ(k["Hash"].get<std::string>().size(), 16u);
  EXPECT_EQ(k["WriteUnits"], 6.0);
  EXPECT_EQ(k["ReadUnits"], 0.0);
  EXPECT_EQ(k["ThrottledUnits"], 0.0);
  EXPECT_EQ(k["Units"], 6.0);

  ASSERT_EQ(body["GlobalSecondaryIndexes"].size(), 1u) << body;
  const json& g = body["GlobalSecondaryIndexes"][0];
  EXPECT_EQ(g["IndexName"], "byG");
  EXPECT_EQ(g["Arn"], t["Arn"].get<std::string>() + "/index/byG");
  EXPECT_EQ(g["WriteUnitsPerSecond"], 5);
  EXPECT_EQ(g["Total"]["ConsumedWriteUnits"], 0.0);  // no item has g
  EXPECT_TRUE(g["Partitions"].is_array() && g["HotKeys"].is_array()) << g;
}

TEST_F(CapacityOpsTest, SetThrottlingSwitchesRefusalsAtRuntime) {
  CreateProvisioned("tbl");
  EXPECT_EQ(Call("DynamoRock_20251121.SetThrottling", "{}").http_status, 400);
  EXPECT_EQ(Call("DynamoRock_20251121.SetThrottling", R"({"Enabled":"yes"})")
                .http_status,
            400);
  ASSERT_EQ(Call("DynamoRock_20251121.SetThrottling", R"({"Enabled":true})").body,
            json::parse(R"({"Enabled":true})"));
  // 300 units of burst: the first 300 KB item empties the table's bucket,
  // the clock does not move, and the next write is refused whole.
  ASSERT_EQ(PutKb("tbl", "a", 300).http_status, 200);
  Reply refused = PutKb("tbl", "b", 1);
  ASSERT_EQ(refused.http_status, 400) << refused;
  EXPECT_EQ(refused.body["__type"],
            "com.amazonaws.dynamodb.v20120810#"
            "ProvisionedThroughputExceededException");
  EXPECT_EQ(Call("GetItem", R"({"TableName":"tbl","Key":{"pk":{"S":"b"}}})").body,
            json::object());

  Reply stats = Call("DynamoRock_20251121.DescribeCapacity", R"({"TableName":"tbl"})");
  ASSERT_EQ(stats.http_status, 200) << stats;
  EXPECT_EQ(stats.body["Table"]["LastMinute"]["ThrottledWriteRequests"], 1);
  EXPECT_EQ(stats.body["Table"]["LastMinute"]["ConsumedWriteUnits"], 300.0);

  // Off: the same write goes through (and is still metered).
  ASSERT_EQ(Call("DynamoRock_20251121.SetThrottling", R"({"Enabled":false})").body,
            json::parse(R"({"Enabled":false})"));
  ASSERT_EQ(PutKb("tbl", "b", 1).http_status, 200);
  stats = Call("DynamoRock_20251121.DescribeCapacity", R"({"TableName":"tbl"})");
  EXPECT_EQ(stats.body["Table"]["LastMinute"]["ConsumedWriteUnits"], 301.0);
}

}  // namespace
}  // namespace dynarock::api
