// tests/tools/simulate/hot_partition_test.cc
//
// The per-partition write ceiling is shrunk (100 WCU/s, a 400 WRU/s warm
// start: 4 partitions) so that a few hundred writes a second show what
// thousands do at DynamoDB's scale.

#include "tools/simulate/hot_partition.h"

#include <algorithm>

#include <gtest/gtest.h>

namespace dynarock::tools::simulate {
namespace {

HotPartitionOptions SmallOptions() {
  HotPartitionOptions o;
  o.rate = 200;
  o.item_bytes = 500;
  o.duration_seconds = 5;
  o.suffixes = 8;
  o.engine_capacity.partition_ceilings.write_units_per_second = 100;
  o.engine_capacity.on_demand_warm_write_units = 400;
  o.engine_capacity.on_demand_warm_read_units = 1200;
  return o;
}

TEST(HotPartitionTest, OneKeyIsThrottledSuffixesSpreadTheLoad) {
  Result<HotPartitionReport> r = RunHotPartition(SmallOptions());
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r.value().scenarios.size(), 2u);
  const HotScenario& single = r.value().scenarios[0];
  const HotScenario& spread = r.value().scenarios[1];
  EXPECT_EQ(single.keys, 1);
  EXPECT_EQ(spread.keys, 8);
  EXPECT_GT(single.throttled, 0);
  EXPECT_LT(spread.throttled, single.throttled);
  EXPECT_EQ(single.writes + single.failed, 1'000);
  EXPECT_EQ(spread.writes + spread.failed, 1'000);
  EXPECT_DOUBLE_EQ(single.write_units, static_cast<double>(single.writes));
  // The single key heats one partition a second (on-demand scaling may
  // split it, so which one can change), the suffixed keys several.
  auto most_used_in_a_second = [](const HotScenario& s) {
    size_t most = 0;
    const size_t seconds = s.heat.empty() ? 0 : s.heat[0].write_units.size();
    for (size_t sec = 0; sec < seconds; ++sec) {
      size_t n = 0;
      for (const PartitionHeat& h : s.heat) n += h.write_units[sec] > 0;
      most = std::max(most, n);
    }
    return most;
  };
  EXPECT_EQ(most_used_in_a_second(single), 1u);
  EXPECT_GT(most_used_in_a_second(spread), 1u);
  ASSERT_FALSE(single.hot_keys.empty());
  EXPECT_EQ(single.hot_keys[0].key, "{S:HOT}");
  EXPECT_GT(single.hot_keys[0].throttled_units, 0);
  EXPECT_EQ(HotPartitionSvg(r.value()).rfind("<?xml", 0), 0u);
  // The bill: on-demand by the units written ($0.625 per million WRU), the
  // spread keys' busiest second at least the single key's.
  const HotScenarioCost single_cost = CostOfScenario(single, 5);
  const HotScenarioCost spread_cost = CostOfScenario(spread, 5);
  EXPECT_DOUBLE_EQ(single_cost.on_demand, single.write_units / 1e6 * 0.625);
  EXPECT_GE(spread_cost.provisioned_wcu, single_cost.provisioned_wcu);
  EXPECT_NE(HotPartitionText(r.value()).find("single-key: on-demand $"), std::string::npos);
}

TEST(HotPartitionTest, SameSeedSameReport) {
  HotPartitionOptions o = SmallOptions();
  o.duration_seconds = 2;
  Result<HotPartitionReport> a = RunHotPartition(o);
  Result<HotPartitionReport> b = RunHotPartition(o);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(HotPartitionJson(a.value()), HotPartitionJson(b.value()));
}

}  // namespace
}  // namespace dynarock::tools::simulate
