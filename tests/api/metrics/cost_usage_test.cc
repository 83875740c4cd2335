#include "api/metrics/cost_usage.h"

#include <gtest/gtest.h>

namespace dynarock::api::metrics {
namespace {

Json Capacity(const char* billing) {
  return Json::parse(std::string(R"({"BillingMode":")") + billing + R"(",
    "Table":{"PeakReadUnits":2.5,"PeakWriteUnits":10,
             "Total":{"ConsumedReadUnits":1000000,"ConsumedWriteUnits":2000000}},
    "GlobalSecondaryIndexes":[{"PeakReadUnits":0,"PeakWriteUnits":4,
             "Total":{"ConsumedReadUnits":0,"ConsumedWriteUnits":2000000}}]})");
}

Json Table() {
  return Json::parse(R"({"Table":{"TableSizeBytes":1073741824,
    "ProvisionedThroughput":{"ReadCapacityUnits":7,"WriteCapacityUnits":3},
    "GlobalSecondaryIndexes":[{"IndexSizeBytes":1073741824,
       "ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":2}}]}})");
}

TEST(CostUsageTest, OnDemandTablesAreSizedToTheirPeakForProvisioned) {
  const TableUsage u = CostUsageOf(Capacity("PAY_PER_REQUEST"), Table(), 730);
  EXPECT_EQ(u.read_units, 1'000'000);
  EXPECT_EQ(u.write_units, 2'000'000);
  EXPECT_EQ(u.gsi_write_units, 2'000'000);
  EXPECT_EQ(u.storage_bytes, 2.0 * 1073741824);
  EXPECT_EQ(u.provisioned_rcu, 3 + 1);   // ceil(2.5), and the GSI's minimum 1
  EXPECT_EQ(u.provisioned_wcu, 10 + 4);
  EXPECT_FALSE(UsesOwnProvisionedCapacity(Capacity("PAY_PER_REQUEST")));
}

TEST(CostUsageTest, ProvisionedTablesUseTheirOwnCapacity) {
  const TableUsage u = CostUsageOf(Capacity("PROVISIONED"), Table(), 730);
  EXPECT_EQ(u.provisioned_rcu, 7 + 1);
  EXPECT_EQ(u.provisioned_wcu, 3 + 2);
  EXPECT_TRUE(UsesOwnProvisionedCapacity(Capacity("PROVISIONED")));
}

TEST(CostUsageTest, MissingMembersReadAsZero) {
  const TableUsage u = CostUsageOf(Json(), Json(), 1);
  EXPECT_EQ(u.read_units, 0);
  EXPECT_EQ(u.provisioned_rcu, 1);  // the minimum
}

}  // namespace
}  // namespace dynarock::api::metrics
