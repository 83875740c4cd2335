// tests/tools/simulate/endpoint_write_sharding_test.cc
//
// The pure parts of `simulate write-sharding --endpoint`: the tables it
// creates (at most 20 GSIs each, whatever --threads), the plan the cost
// guard prices (write and read request units of a small schedule, stored
// bytes, provisioned GSIs billed like their tables) and the refusal above
// --max-cost-usd. The run itself is exercised against `dynarock serve` by
// tests/e2e/test_simulate_endpoint.py.

#include "tools/simulate/endpoint_write_sharding.h"

#include <gtest/gtest.h>

#include <cmath>

#include "api/metrics/price_table.h"
#include "engine/value/item_size.h"

namespace dynarock::tools::simulate {
namespace {

// 200 orders, half open, one random variant at N=4 beside the unsharded
// GSI: one table with two GSIs; 3 s of reading at 1,000 items/s.
WriteShardingOptions Small() {
  WriteShardingOptions o;
  o.orders = 200;
  o.open_fraction = 0.5;
  o.order_bytes = 500;
  o.shards = {4};
  o.hash = false;
  o.duration_seconds = 3;
  o.required_items_per_second = 1'000;
  o.load_orders_per_second = 100;
  EXPECT_TRUE(PrepareWriteShardingOptions(&o).ok());
  return o;
}

int64_t OpenOrders(const WriteShardingOptions& o) {
  int64_t n = 0;
  for (int64_t id = 0; id < o.orders; ++id) n += FactsOf(o.seed, id, o).open ? 1 : 0;
  return n;
}

// The size of an open order as the endpoint stores it (shard key included).
int64_t OpenOrderSize(const WriteShardingOptions& o, const TableSpec& t) {
  for (int64_t id = 0; id < o.orders; ++id) {
    if (!FactsOf(o.seed, id, o).open) continue;
    return ItemSize(*OrderToLoad(o, t, id));
  }
  return 0;
}

TEST(EndpointWriteShardingTest, TablesHoldAtMostTwentyGsisWhateverTheThreads) {
  WriteShardingOptions o = Small();
  o.threads = 8;
  std::vector<TableSpec> tables = EndpointTables(o);
  ASSERT_EQ(tables.size(), 1u);  // the model would spread 2 GSIs over 2 tables
  EXPECT_EQ(tables[0].name, "Orders");
  ASSERT_EQ(tables[0].indexes.size(), 2u);
  EXPECT_EQ(tables[0].indexes[0].index_name, "GSI2_unsharded");
  EXPECT_EQ(tables[0].indexes[1].index_name, "GSI2_rand_4");

  WriteShardingOptions full;
  full.shards.clear();
  for (int n = 1; n <= 20; ++n) full.shards.push_back(n);
  ASSERT_TRUE(PrepareWriteShardingOptions(&full).ok());
  tables = EndpointTables(full);  // 41 GSIs: unsharded, random and hash 1..20
  ASSERT_EQ(tables.size(), 3u);
  size_t total = 0;
  for (const TableSpec& t : tables) {
    EXPECT_LE(t.indexes.size(), 20u) << t.name;
    total += t.indexes.size();
  }
  EXPECT_EQ(total, 41u);
}

// The plan's units, worked out from the schedule: each loaded (open) order
// is written to the table and to each GSI, 1 WRU per started KB; each GSI
// is read once to count its entries and then for the duration at the
// required rate, eventually consistent (half a unit per started 4 KB), with
// a page's rounding (half a unit at most) counted for every page of up to
// 1 MB, and one more page per shard key.
TEST(EndpointWriteShardingTest, PlanCountsTheSchedulesUnits) {
  const WriteShardingOptions o = Small();
  const RunPlan plan = PlanWriteSharding(o, "us-east-1", "p-");
  EXPECT_EQ(plan.experiment, "write-sharding");
  EXPECT_EQ(plan.region, "us-east-1");
  EXPECT_EQ(plan.tables, (std::vector<std::string>{"p-Orders"}));
  EXPECT_EQ(plan.gsis, 2);
  EXPECT_FALSE(plan.provisioned);

  const int64_t open = OpenOrders(o);
  ASSERT_GT(open, 60);  // half of 200, drawn
  ASSERT_LT(open, 140);
  const int64_t bytes = OpenOrderSize(o, EndpointTables(o)[0]);
  ASSERT_GT(bytes, 500);  // the padding, the keys and the shard key
  ASSERT_LE(bytes, 1024);  // one WRU an entry

  EXPECT_EQ(plan.write_requests, (open + 24) / 25);  // BatchWriteItem of 25
  EXPECT_DOUBLE_EQ(plan.write_request_units, 3.0 * static_cast<double>(open));
  EXPECT_DOUBLE_EQ(plan.stored_bytes, 3.0 * static_cast<double>(open * bytes));

  const double items = 1'000.0 * 3 + static_cast<double>(open);  // per GSI
  const double per_page = std::floor(1024.0 * 1024.0 / static_cast<double>(bytes));
  const double pages_unsharded = std::ceil(items / per_page) + 1;
  const double pages_random = std::ceil(items / per_page) + 4;
  EXPECT_EQ(plan.read_requests, static_cast<int64_t>(pages_unsharded + pages_random));
  const double units_of_items =
      0.5 * std::ceil(items * static_cast<double>(bytes) / 4096.0);
  EXPECT_DOUBLE_EQ(plan.read_request_units,
                   2 * units_of_items + 0.5 * (pages_unsharded + pages_random));
  // The load at 100 orders/s, then 3 s per GSI.
  EXPECT_DOUBLE_EQ(plan.run_seconds, static_cast<double>(open) / 100.0 + 2 * 3.0);

  // Each step named: the table, each GSI's readers, the cleanup.
  ASSERT_EQ(plan.steps.size(), 4u);
  EXPECT_NE(plan.steps[0].find("CreateTable p-Orders with 2 GSI(s)"), std::string::npos)
      << plan.steps[0];
  EXPECT_NE(plan.steps[2].find("GSI GSI2_rand_4: count its " + std::to_string(open) +
                               " entries once the load is in, then 4 reader(s) Query it at "
                               "1000 items/s for 3 s"),
            std::string::npos)
      << plan.steps[2];
  EXPECT_EQ(plan.steps[3], "DeleteTable of every table created (also on Ctrl-C)");
}

// A narrower date range reads fewer entries per GSI but loads the same
// orders.
TEST(EndpointWriteShardingTest, DateRangeNarrowsTheCountNotTheLoad) {
  WriteShardingOptions o = Small();
  const RunPlan whole = PlanWriteSharding(o, "us-east-1", "p-");
  o.from_day = 0;
  o.to_day = 9;
  const RunPlan narrow = PlanWriteSharding(o, "us-east-1", "p-");
  EXPECT_DOUBLE_EQ(narrow.write_request_units, whole.write_request_units);
  EXPECT_LT(narrow.read_request_units, whole.read_request_units);
}

TEST(EndpointWriteShardingTest, PriceAndRefusalAboveTheLimit) {
  const RunPlan plan = PlanWriteSharding(Small(), "us-east-1", "p-");
  const PlanCost cost = PricePlan(plan);
  const auto& p = api::metrics::UsEast1StandardPrices();
  const double requests = plan.write_request_units * p.per_million_write_request_units / 1e6 +
                          plan.read_request_units * p.per_million_read_request_units / 1e6;
  // Storage of a few hundred KB for seconds is worth far less than a cent.
  EXPECT_GE(cost.dollars, requests);
  EXPECT_NEAR(cost.dollars, requests, 1e-6);

  EXPECT_TRUE(CheckCostLimit(cost, cost.dollars).ok());
  EXPECT_TRUE(CheckCostLimit(cost, 1.0).ok());
  const Status refused = CheckCostLimit(cost, cost.dollars / 2);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.code(), ErrorCode::kValidation);
  EXPECT_NE(refused.message().find("the run would cost about $"), std::string::npos)
      << refused.message();
  EXPECT_NE(refused.message().find("raise it or shorten the run (--dry-run shows the plan)"),
            std::string::npos);
  const std::string text = PlanText(plan, cost, cost.dollars / 2);
  EXPECT_NE(text.find("plan: write-sharding against the endpoint, Region us-east-1"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ABOVE, the run would refuse"), std::string::npos);
  EXPECT_NE(PlanText(plan, cost, 1.0).find(": within"), std::string::npos);
}

// Provisioned: each GSI holds the table's RCU and WCU and is billed as
// much, for every started hour.
TEST(EndpointWriteShardingTest, ProvisionedGsisArePaidLikeTheirTable) {
  WriteShardingOptions o = Small();
  o.capacity.provisioned = true;
  o.capacity.read_capacity_units = 10;
  o.capacity.write_capacity_units = 5;
  const RunPlan plan = PlanWriteSharding(o, "us-east-1", "p-");
  EXPECT_TRUE(plan.provisioned);
  EXPECT_EQ(plan.rcu_per_table, 10);
  EXPECT_EQ(plan.wcu_per_table, 5);
  const PlanCost cost = PricePlan(plan);
  const auto& p = api::metrics::UsEast1StandardPrices();
  // The table and its 2 GSIs: 15 WCU and 30 RCU for one hour.
  EXPECT_NEAR(cost.dollars, 15 * p.per_wcu_hour + 30 * p.per_rcu_hour, 1e-5);
  EXPECT_NE(cost.detail.find("15 WCU and 30 RCU for 1 started hour(s)"), std::string::npos)
      << cost.detail;
}

}  // namespace
}  // namespace dynarock::tools::simulate
