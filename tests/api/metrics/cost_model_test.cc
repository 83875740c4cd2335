#include "api/metrics/cost_model.h"

#include <gtest/gtest.h>

namespace dynarock::api::metrics {
namespace {

// Round prices, so that the bills below are easy to check by hand.
PriceTable RoundPrices() {
  PriceTable p;
  p.per_million_write_request_units = 1.0;
  p.per_million_read_request_units = 0.2;
  p.per_wcu_hour = 0.001;
  p.per_rcu_hour = 0.0002;
  p.per_gb_month = 0.5;
  p.hours_per_month = 730;
  return p;
}

TEST(CostModelTest, OnDemandBillsRequestUnits) {
  TableUsage u;
  u.read_units = 3'000'000;     // 3 M RRU x $0.2 = $0.60
  u.write_units = 1'500'000;    // (1.5 M + 0.5 M) WRU x $1 = $2.00
  u.gsi_write_units = 500'000;
  const TableCost c = EstimateCost(u, RoundPrices());
  EXPECT_DOUBLE_EQ(c.on_demand_reads, 0.6);
  EXPECT_DOUBLE_EQ(c.on_demand_writes, 2.0);
  EXPECT_DOUBLE_EQ(c.storage, 0);
  EXPECT_DOUBLE_EQ(c.on_demand_total(), 2.6);
}

TEST(CostModelTest, ProvisionedBillsCapacityHours) {
  TableUsage u;
  u.period_hours = 730;  // a month
  u.provisioned_rcu = 100;  // 100 x 730 x $0.0002 = $14.60
  u.provisioned_wcu = 10;   // 10 x 730 x $0.001 = $7.30
  const TableCost c = EstimateCost(u, RoundPrices());
  EXPECT_DOUBLE_EQ(c.provisioned_reads, 14.6);
  EXPECT_DOUBLE_EQ(c.provisioned_writes, 7.3);
  EXPECT_DOUBLE_EQ(c.provisioned_total(), 21.9);
}

TEST(CostModelTest, StorageIsProratedGbMonths) {
  TableUsage u;
  u.storage_bytes = 4.0 * 1024 * 1024 * 1024;  // 4 GB
  u.period_hours = 365;                        // half a month: 4 x 0.5 x $0.5 = $1
  const TableCost c = EstimateCost(u, RoundPrices());
  EXPECT_DOUBLE_EQ(c.storage, 1.0);
  EXPECT_DOUBLE_EQ(c.on_demand_total(), 1.0);
  EXPECT_DOUBLE_EQ(c.provisioned_total(), 1.0);
}

TEST(CostModelTest, UsEast1BillOfAMonth) {
  // A month at 100 writes/s and 400 eventually consistent reads/s of 1 KB
  // items (200 RCU), 10 GB stored, one GSI taking every write.
  // On-demand: 100 x 3600 x 730 = 262.8 M WRU, twice (table + GSI):
  //            525.6 M x $0.625 = $328.50; 200 RRU/s x 3600 x 730 = 525.6 M
  //            RRU x $0.125 = $65.70; storage 10 GB x $0.25 = $2.50.
  // Provisioned: 200 WCU (table 100 + GSI 100) x 730 x $0.00065 = $94.90;
  //              200 RCU x 730 x $0.00013 = $18.98.
  TableUsage u;
  u.period_hours = 730;
  u.write_units = 100.0 * 3600 * 730;
  u.gsi_write_units = 100.0 * 3600 * 730;
  u.read_units = 200.0 * 3600 * 730;
  u.storage_bytes = 10.0 * 1024 * 1024 * 1024;
  u.provisioned_wcu = 200;
  u.provisioned_rcu = 200;
  const TableCost c = EstimateCost(u, UsEast1StandardPrices());
  EXPECT_NEAR(c.on_demand_writes, 328.50, 1e-9);
  EXPECT_NEAR(c.on_demand_reads, 65.70, 1e-9);
  EXPECT_NEAR(c.storage, 2.50, 1e-9);
  EXPECT_NEAR(c.on_demand_total(), 396.70, 1e-9);
  EXPECT_NEAR(c.provisioned_writes, 94.90, 1e-9);
  EXPECT_NEAR(c.provisioned_reads, 18.98, 1e-9);
  EXPECT_NEAR(c.provisioned_total(), 116.38, 1e-9);
}

TEST(CostModelTest, NegativeAndNonFiniteInputsCountAsZero) {
  TableUsage u;
  u.read_units = -5;
  u.period_hours = -1;
  u.provisioned_rcu = 10;
  u.storage_bytes = 1.0 / 0.0;
  const TableCost c = EstimateCost(u, RoundPrices());
  EXPECT_EQ(c.on_demand_total(), 0);
  EXPECT_EQ(c.provisioned_total(), 0);
}

TEST(CostModelTest, ProvisionedForPeakRoundsUpToAtLeastOne) {
  EXPECT_EQ(ProvisionedForPeak(0), 1);
  EXPECT_EQ(ProvisionedForPeak(0.5), 1);
  EXPECT_EQ(ProvisionedForPeak(12), 12);
  EXPECT_EQ(ProvisionedForPeak(12.5), 13);
}

TEST(CostModelTest, FormatDollars) {
  EXPECT_EQ(FormatDollars(0), "$0.00");
  EXPECT_EQ(FormatDollars(12.345), "$12.35");
  EXPECT_EQ(FormatDollars(0.003125), "$0.003125");
  // A half cent goes up, also where binary lands a hair under it.
  EXPECT_EQ(FormatDollars(1.625), "$1.63");
  EXPECT_EQ(FormatDollars(0.145), "$0.15");
  EXPECT_EQ(FormatDollars(1.6249), "$1.62");
}

}  // namespace
}  // namespace dynarock::api::metrics
