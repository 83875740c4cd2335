// tests/api/console/console_cost_test.cc

#include "api/console/console_cost.h"

#include <gtest/gtest.h>

namespace dynarock::api::console {
namespace {

// An on-demand table over one 730-hour month, by hand at us-east-1's prices
// of 2026-12-01: 2,000,000 WRU x $0.625/M = $1.25, 1,000,000 RRU x
// $0.125/M = $0.125, 1 GB x $0.25 = $0.25 -> $1.625 on-demand; provisioned
// for the busiest second: ceil(10) WCU x 730 h x $0.00065 = $4.745,
// ceil(2.5) = 3 RCU x 730 x $0.00013 = $0.2847 -> $5.2797.
TEST(ConsoleCostTest, AMonthOfAnOnDemandTableByHand) {
  const Json capacity = Json::parse(R"({"BillingMode":"PAY_PER_REQUEST",
      "Table":{"PeakReadUnits":2.5,"PeakWriteUnits":10,
               "Total":{"ConsumedReadUnits":1000000,"ConsumedWriteUnits":2000000}},
      "GlobalSecondaryIndexes":[]})");
  const Json table = Json::parse(R"({"Table":{"TableName":"orders","CreationDateTime":1000,
      "TableSizeBytes":1073741824}})");
  const Json clock = Json::parse(R"({"Mode":"SIMULATED","Now":2629000})");  // 1000 + 730 h
  const Json view = CostView(capacity, table, clock, metrics::UsEast1StandardPrices());
  EXPECT_EQ(view["TableName"], "orders");
  EXPECT_DOUBLE_EQ(view["PeriodHours"].get<double>(), 730);
  EXPECT_NEAR(view["OnDemand"]["Writes"].get<double>(), 1.25, 1e-9);
  EXPECT_NEAR(view["OnDemand"]["Reads"].get<double>(), 0.125, 1e-9);
  EXPECT_NEAR(view["OnDemand"]["Storage"].get<double>(), 0.25, 1e-9);
  EXPECT_NEAR(view["OnDemand"]["Total"].get<double>(), 1.625, 1e-9);
  EXPECT_NEAR(view["Provisioned"]["Writes"].get<double>(), 4.745, 1e-9);
  EXPECT_NEAR(view["Provisioned"]["Reads"].get<double>(), 0.2847, 1e-9);
  EXPECT_NEAR(view["Provisioned"]["Total"].get<double>(), 5.2797, 1e-9);
  EXPECT_EQ(view["OnDemandText"], "$1.63");
  EXPECT_EQ(view["ProvisionedText"], "$5.28");
  EXPECT_EQ(view["Cheaper"], "ON_DEMAND");
  EXPECT_EQ(view["Usage"]["ProvisionedFrom"], "PEAK");
  EXPECT_EQ(view["Usage"]["ProvisionedWriteCapacityUnits"], 10);
  EXPECT_EQ(view["Region"], "us-east-1");
  EXPECT_EQ(view["PricesAsOf"], "2026-12-01");
}

TEST(ConsoleCostTest, AClockBeforeCreationIsAnEmptyPeriod) {
  const Json view = CostView(Json::object(), Json::parse(R"({"Table":{"CreationDateTime":50}})"),
                             Json::parse(R"({"Now":10})"), metrics::UsEast1StandardPrices());
  EXPECT_EQ(view["PeriodHours"], 0);
  EXPECT_EQ(view["OnDemand"]["Total"], 0);
  EXPECT_EQ(view["Provisioned"]["Total"], 0);  // 1 RCU and 1 WCU for no time
  EXPECT_EQ(view["Cheaper"], "NEITHER");
}

}  // namespace
}  // namespace dynarock::api::console
