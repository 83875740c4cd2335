// tests/tools/simulate/endpoint_cost_test.cc
//
// The endpoint run's plan, its price and the guard: units from the schedule,
// dollars from the dated price table, refusal above the limit.

#include "tools/simulate/endpoint_cost.h"

#include <gtest/gtest.h>

#include "api/metrics/price_table.h"
#include "tools/simulate/endpoint_hot_partition.h"

namespace dynarock::tools::simulate {
namespace {

HotPartitionOptions Short() {
  HotPartitionOptions o;
  o.rate = 10;
  o.item_bytes = 200'000;
  o.duration_seconds = 4;
  o.suffixes = 10;
  return o;
}

TEST(EndpointCostTest, HotPartitionPlanCountsTheSchedulesUnits) {
  RunPlan plan = PlanHotPartition(Short(), "us-east-1", "p-");
  EXPECT_EQ(plan.tables, (std::vector<std::string>{"p-HotSingleKey", "p-HotSuffixed"}));
  EXPECT_EQ(plan.write_requests, 80);
  // 200,000 B is 196 started KB: 196 WRU a write.
  EXPECT_DOUBLE_EQ(plan.write_request_units, 80 * 196.0);
  EXPECT_EQ(plan.read_requests, 0);
  const PlanCost cost = PricePlan(plan);
  // 15,680 WRU at $0.625 per million, plus 16 MB for 8 s of storage.
  const double prices =
      api::metrics::UsEast1StandardPrices().per_million_write_request_units;
  EXPECT_NEAR(cost.dollars, 15'680 * prices / 1e6, 1e-6);
  EXPECT_NE(cost.prices.find("us-east-1 on-demand list prices of "), std::string::npos);
}

TEST(EndpointCostTest, GuardRefusesAboveTheLimit) {
  const PlanCost cost = PricePlan(PlanHotPartition(Short(), "us-east-1", "p-"));
  EXPECT_TRUE(CheckCostLimit(cost, 0.01).ok());
  Status refused = CheckCostLimit(cost, 0.005);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("would cost about $0.009800 on DynamoDB"), std::string::npos)
      << refused.message();
  EXPECT_NE(refused.message().find("above --max-cost-usd $0.005000"), std::string::npos);
  EXPECT_NE(PlanText(PlanHotPartition(Short(), "us-east-1", "p-"), cost, 0.005)
                .find("ABOVE, the run would refuse"),
            std::string::npos);
}

// Provisioned capacity is billed by the started hour, whatever the writes.
TEST(EndpointCostTest, ProvisionedPaysWholeHours) {
  HotPartitionOptions o = Short();
  o.capacity.provisioned = true;
  o.capacity.read_capacity_units = 10;
  o.capacity.write_capacity_units = 100;
  RunPlan plan = PlanHotPartition(o, "us-east-1", "p-");
  const PlanCost cost = PricePlan(plan);
  const auto& p = api::metrics::UsEast1StandardPrices();
  // 2 tables x (100 WCU + 10 RCU) for 1 hour, and a little storage.
  EXPECT_NEAR(cost.dollars, 2 * (100 * p.per_wcu_hour + 10 * p.per_rcu_hour), 1e-5);
  EXPECT_NE(cost.detail.find("200 WCU and 20 RCU for 1 started hour(s)"), std::string::npos)
      << cost.detail;
}

TEST(EndpointCostTest, OtherRegionsSayWhichPricesWereUsed) {
  const PlanCost cost = PricePlan(PlanHotPartition(Short(), "eu-west-1", "p-"));
  EXPECT_NE(cost.prices.find("no price table for eu-west-1: priced as us-east-1"),
            std::string::npos);
}

}  // namespace
}  // namespace dynarock::tools::simulate
