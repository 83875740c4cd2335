// tests/tools/simulate/scale_test.cc
//
// `simulate scale` at a shrunk scale: 40 partitions with ceilings of 30 RCU
// / 10 WCU per second, so that 400 requests a second show what 100,000 do
// at DynamoDB's.

#include "tools/simulate/scale.h"

#include <gtest/gtest.h>

namespace dynarock::tools::simulate {
namespace {

ScaleOptions SmallOptions() {
  ScaleOptions o;
  o.partitions = 40;
  o.rate = 400;
  o.duration_seconds = 5;
  o.keys = 2'000;
  o.items_per_key = 3;
  o.item_bytes = 300;
  o.hot_keys = 2;
  o.hot_share = 0.3;
  o.engine_capacity.partition_ceilings.read_units_per_second = 30;
  o.engine_capacity.partition_ceilings.write_units_per_second = 10;
  return o;
}

int64_t Calls(const ScaleReport& r) { return r.get.calls + r.put.calls + r.query.calls; }

TEST(ScaleTest, TheTableHasThePartitionsAskedFor) {
  Result<ScaleReport> r = RunScale(SmallOptions());
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value().partitions_start, 40u);
  EXPECT_EQ(r.value().partitions.size(), r.value().partitions_end);
  // 30 x 20 RCU and 10 x 20 WCU: ceil(600 / 30 + 200 / 10) = 40.
  EXPECT_EQ(r.value().read_capacity_units, 600);
  EXPECT_EQ(r.value().write_capacity_units, 200);
  EXPECT_EQ(r.value().items_loaded, 6'000);
}

TEST(ScaleTest, EveryRequestIsAnsweredOrGivenUpAndCountedOnce) {
  const ScaleOptions o = SmallOptions();
  Result<ScaleReport> r = RunScale(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const ScaleReport& s = r.value();
  EXPECT_EQ(s.get.issued + s.put.issued + s.query.issued, o.rate * o.duration_seconds);
  for (const ScaleOpCounts* c : {&s.get, &s.put, &s.query}) {
    EXPECT_GT(c->issued, 0);
    EXPECT_EQ(c->ok + c->failed, c->issued);
    EXPECT_EQ(c->calls, c->ok + c->throttled);
  }
  // The mix: 60 / 30 / 10 % of 2,000, within a few percent.
  EXPECT_NEAR(static_cast<double>(s.get.issued), 1'200, 100);
  EXPECT_NEAR(static_cast<double>(s.put.issued), 600, 80);
  int64_t per_second = 0;
  for (const ScaleSecond& x : s.seconds) per_second += x.calls;
  EXPECT_EQ(per_second, Calls(s));
  // Every put of an item under 1 KB costs 1 WCU, counted by the engine.
  EXPECT_DOUBLE_EQ(s.table_usage.consumed_write_units, static_cast<double>(s.put.ok));
}

TEST(ScaleTest, HotKeysAreThrottledOnTheirPartitionsOnly) {
  Result<ScaleReport> r = RunScale(SmallOptions());
  ASSERT_TRUE(r.ok()) << r.status().message();
  const ScaleReport& s = r.value();
  // 30 % of 400 requests/s on 2 keys: ~18 PutItem WCU/s a key on 10 WCU/s
  // partitions; the spread keys (~2 WCU/s a partition) are not throttled.
  EXPECT_GT(s.put.throttled, 0);
  size_t throttled_partitions = 0;
  for (const ScalePartition& p : s.partitions) {
    if (p.usage.throttled_read_requests + p.usage.throttled_write_requests > 0) {
      ++throttled_partitions;
    }
  }
  EXPECT_GE(throttled_partitions, 1u);
  EXPECT_LE(throttled_partitions, 2u);
  ASSERT_FALSE(s.hot_keys.empty());
  EXPECT_TRUE(s.hot_keys[0].key.find("U#0") != std::string::npos ||
              s.hot_keys[0].key.find("U#1") != std::string::npos)
      << s.hot_keys[0].key;
  EXPECT_GT(s.hot_keys[0].throttled_units, 0);
}

TEST(ScaleTest, SameOptionsSameReport) {
  Result<ScaleReport> a = RunScale(SmallOptions());
  Result<ScaleReport> b = RunScale(SmallOptions());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ScaleJson(a.value(), false), ScaleJson(b.value(), false));
  EXPECT_EQ(ScaleText(a.value(), false), ScaleText(b.value(), false));
  ScaleOptions other = SmallOptions();
  other.seed = 2;
  Result<ScaleReport> c = RunScale(other);
  ASSERT_TRUE(c.ok());
  EXPECT_NE(ScaleJson(a.value(), false), ScaleJson(c.value(), false));
}

TEST(ScaleTest, TheMemtableSizeChangesNoResult) {
  ScaleOptions small = SmallOptions();
  small.memtable_bytes = int64_t{1} << 20;  // flushes and compactions during the run
  Result<ScaleReport> a = RunScale(small);
  Result<ScaleReport> b = RunScale(SmallOptions());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(ScaleJson(a.value(), false), ScaleJson(b.value(), false));
}

TEST(ScaleTest, RefusesOptionsOutOfRange) {
  ScaleOptions o = SmallOptions();
  o.partitions = 1;
  EXPECT_EQ(RunScale(o).status().code(), ErrorCode::kValidation);
  o = SmallOptions();
  o.get_percent = 80;
  o.put_percent = 30;
  EXPECT_EQ(RunScale(o).status().code(), ErrorCode::kValidation);
  o = SmallOptions();
  o.hot_share = 1.5;
  EXPECT_EQ(RunScale(o).status().code(), ErrorCode::kValidation);
}

}  // namespace
}  // namespace dynarock::tools::simulate
