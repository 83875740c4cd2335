#include "tools/stats/cost_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace dynarock::tools::stats {
namespace {

using ::testing::HasSubstr;

api::Json Capacity(const char* billing) {
  return api::Json::parse(std::string(R"({"BillingMode":")") + billing + R"(",
    "Table":{"PeakReadUnits":2.5,"PeakWriteUnits":10,
             "Total":{"ConsumedReadUnits":1000000,"ConsumedWriteUnits":2000000}},
    "GlobalSecondaryIndexes":[{"PeakReadUnits":0,"PeakWriteUnits":4,
             "Total":{"ConsumedReadUnits":0,"ConsumedWriteUnits":2000000}}]})");
}

api::Json Table() {
  return api::Json::parse(R"({"Table":{"TableSizeBytes":1073741824,
    "ProvisionedThroughput":{"ReadCapacityUnits":7,"WriteCapacityUnits":3},
    "GlobalSecondaryIndexes":[{"IndexSizeBytes":1073741824,
       "ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":2}}]}})");
}

TEST(CostReportTest, OnDemandTablesAreSizedToTheirPeakForProvisioned) {
  const api::metrics::TableUsage u = CostUsageOf(Capacity("PAY_PER_REQUEST"), Table(), 730);
  EXPECT_EQ(u.read_units, 1'000'000);
  EXPECT_EQ(u.write_units, 2'000'000);
  EXPECT_EQ(u.gsi_write_units, 2'000'000);
  EXPECT_EQ(u.storage_bytes, 2.0 * 1073741824);
  EXPECT_EQ(u.provisioned_rcu, 3 + 1);   // ceil(2.5), and the GSI's minimum 1
  EXPECT_EQ(u.provisioned_wcu, 10 + 4);
  EXPECT_FALSE(UsesOwnProvisionedCapacity(Capacity("PAY_PER_REQUEST")));
}

TEST(CostReportTest, ProvisionedTablesUseTheirOwnCapacity) {
  const api::metrics::TableUsage u = CostUsageOf(Capacity("PROVISIONED"), Table(), 730);
  EXPECT_EQ(u.provisioned_rcu, 7 + 1);
  EXPECT_EQ(u.provisioned_wcu, 3 + 2);
  EXPECT_TRUE(UsesOwnProvisionedCapacity(Capacity("PROVISIONED")));
}

TEST(CostReportTest, ReportsBothModesAndTheCheaper) {
  api::metrics::PriceTable p;
  p.region = "r-1";
  p.table_class = "STANDARD";
  p.as_of = "2026-12-01";
  p.source_url = "https://example";
  p.per_million_read_request_units = 1;
  p.per_million_write_request_units = 1;
  p.per_rcu_hour = 0.01;
  p.per_wcu_hour = 0.01;
  p.per_gb_month = 1;
  api::metrics::TableUsage u;
  u.read_units = 1'000'000;  // $1
  u.write_units = 2'000'000; // $2
  u.period_hours = 730;      // storage 1 GB: $1
  u.storage_bytes = 1073741824;
  u.provisioned_rcu = 1;     // $7.30
  u.provisioned_wcu = 1;     // $7.30
  const std::string text = FormatCostReport(u, false, p);
  EXPECT_THAT(text, HasSubstr("Cost over 730 h in r-1 (STANDARD list prices of 2026-12-01, https://example):\n"));
  EXPECT_THAT(text, HasSubstr("  on-demand    $4.00  reads 1000000 RRU $1.00, writes 2000000 + 0 GSI WRU $2.00, storage 1.0 GB $1.00\n"));
  EXPECT_THAT(text, HasSubstr("  provisioned  $15.60  1 RCU $7.30, 1 WCU $7.30 (sized to the busiest second), storage 1.0 GB $1.00\n"));
  EXPECT_THAT(text, HasSubstr("  cheaper: on-demand by $11.60\n"));
}

TEST(CostReportTest, MissingMembersReadAsZero) {
  const api::metrics::TableUsage u = CostUsageOf(api::Json(), api::Json(), 1);
  EXPECT_EQ(u.read_units, 0);
  EXPECT_EQ(u.provisioned_rcu, 1);  // the minimum
}

}  // namespace
}  // namespace dynarock::tools::stats
