// tests/tools/simulate/write_sharding_test.cc
//
// Small configurations of the write-sharding experiment. The per-partition
// read ceiling is shrunk (50 RCU/s instead of 3,000, a 200 RRU/s warm
// start: 4 GSI partitions) so that 20,000 orders make one GSI2 partition
// the bottleneck, as 3M orders do at DynamoDB's scale.

#include "tools/simulate/write_sharding.h"

#include <gtest/gtest.h>

#include "tools/simulate/write_sharding_report.h"

namespace dynarock::tools::simulate {
namespace {

WriteShardingOptions SmallOptions() {
  WriteShardingOptions o;
  o.mode = ReadMode::kSingleRead;
  o.orders = 20'000;
  o.open_fraction = 0.2;
  o.order_bytes = 1'000;
  o.days = 30;
  o.shards = {1, 8};
  o.seed = 3;
  o.engine_capacity.partition_ceilings.read_units_per_second = 50;
  o.engine_capacity.on_demand_warm_read_units = 200;
  o.mode = ReadMode::kSingleRead;
  return o;
}

// A sustained read at the same shrunk scale: 800 OPEN orders of 100 B
// (10 read units a pass unsharded), 6,000 items/s for 10 s: 75 RCU/s on
// one partition of a 50 RCU/s ceiling unsharded; over 8 keys on the 4
// partitions, about 90 RCU/s in all (pages round up) and at most ~34 on one.
WriteShardingOptions SustainedOptions() {
  WriteShardingOptions o;
  o.orders = 4'000;
  o.open_fraction = 0.2;
  o.order_bytes = 100;
  o.days = 30;
  o.shards = {8};
  o.hash_shards = {8};
  o.seed = 3;
  o.engine_capacity.partition_ceilings.read_units_per_second = 50;
  o.engine_capacity.on_demand_warm_read_units = 200;
  o.mode = ReadMode::kSustained;
  o.required_items_per_second = 6'000;
  o.duration_seconds = 10;
  return o;
}

const ReadRun* Find(const WriteShardingReport& r, ShardingKind kind, int n) {
  for (const ReadRun& run : r.runs) {
    if (run.kind == kind && run.shards == n) return &run;
  }
  return nullptr;
}

TEST(WriteShardingTest, UnshardedIsThrottledAndSlowerThanSharded) {
  Result<WriteShardingReport> r = RunWriteSharding(SmallOptions());
  ASSERT_TRUE(r.ok()) << r.status().message();
  // The bill of each run's reads, as hot-partition prints it.
  EXPECT_NE(WriteShardingText(r.value()).find("unsharded N=1: on-demand $"), std::string::npos);
  const WriteShardingReport& report = r.value();
  ASSERT_EQ(report.runs.size(), 5u);  // unsharded; random, hash x {1, 8}
  const ReadRun* unsharded = Find(report, ShardingKind::kUnsharded, 1);
  const ReadRun* random8 = Find(report, ShardingKind::kRandom, 8);
  const ReadRun* hash8 = Find(report, ShardingKind::kHash, 8);
  ASSERT_TRUE(unsharded && random8 && hash8);
  for (const ReadRun& run : report.runs) {
    EXPECT_EQ(run.items, report.open_orders_in_range) << run.index_name;
    EXPECT_GE(run.partitions_touched, 1);
    EXPECT_LE(run.partitions_touched, run.index_partitions);
  }
  EXPECT_GT(unsharded->throttled, 0);
  EXPECT_EQ(unsharded->partitions_touched, 1);
  EXPECT_GT(random8->partitions_touched, 1);
  EXPECT_LT(random8->read_micros, unsharded->read_micros);
  EXPECT_LT(hash8->read_micros, unsharded->read_micros);
  EXPECT_EQ(report.simulated_n.at("random"), 8);
  EXPECT_EQ(report.simulated_n.at("hash"), 8);
  EXPECT_GT(Find(report, ShardingKind::kRandom, 1)->throttled, 0);
}

TEST(WriteShardingTest, SustainedUnshardedThrottlesEnoughShardsDoNot) {
  Result<WriteShardingReport> r = RunWriteSharding(SustainedOptions());
  ASSERT_TRUE(r.ok()) << r.status().message();
  const WriteShardingReport& report = r.value();
  ASSERT_EQ(report.runs.size(), 3u);  // unsharded; random 8, hash 8
  const double rate = 6'000;
  for (const ReadRun& run : report.runs) {
    SCOPED_TRACE(run.index_name);
    ASSERT_EQ(run.seconds.size(), 10u);
    EXPECT_EQ(run.read_micros, 10'000'000);
    // The model's accounting: no partition was charged more than its
    // ceiling allows (a full bucket, then 50 RCU a second), but for the
    // one page a read may take into debt.
    EXPECT_GT(run.max_page_units, 0);
    EXPECT_LE(run.max_ceiling_excess, run.max_page_units);
    int64_t items = 0, requests = 0, throttled = 0;
    for (size_t i = 0; i < run.seconds.size(); ++i) {
      const SecondSample& sec = run.seconds[i];
      items += sec.items;
      requests += sec.requests;
      throttled += sec.throttled;
      EXPECT_EQ(sec.partitions, 4);  // no split at this rate
      // In any one second a partition takes at most what its bucket held
      // (up to a second's worth) and a second's refill, and one page of debt.
      EXPECT_LE(sec.hottest_partition_units, 2 * 50 + run.max_page_units);
    }
    EXPECT_EQ(items, run.items);
    EXPECT_EQ(requests, run.requests);
    EXPECT_EQ(throttled, run.throttled);
    EXPECT_LE(run.achieved_items_per_second, rate * 1.02);
  }
  const ReadRun* unsharded = Find(report, ShardingKind::kUnsharded, 1);
  ASSERT_NE(unsharded, nullptr);
  EXPECT_GT(unsharded->throttled, 0);
  EXPECT_LT(unsharded->achieved_items_per_second, rate * 0.9);
  EXPECT_GT(unsharded->hottest_partition_mean, 40);  // at its ceiling
  for (ShardingKind kind : {ShardingKind::kRandom, ShardingKind::kHash}) {
    const ReadRun* sharded = Find(report, kind, 8);
    ASSERT_NE(sharded, nullptr);
    EXPECT_EQ(sharded->throttled, 0);
    EXPECT_GE(sharded->achieved_items_per_second, rate * 0.99);
    EXPECT_LT(sharded->hottest_partition_peak, 50);
    EXPECT_EQ(sharded->spread.partitions, 4);
  }
  EXPECT_EQ(report.simulated_n.at("random"), 8);
  EXPECT_EQ(report.unthrottled_n.at("hash"), 8);
}

TEST(WriteShardingTest, SustainedSameSeedSameSeries) {
  WriteShardingOptions o = SustainedOptions();
  o.duration_seconds = 3;
  Result<WriteShardingReport> a = RunWriteSharding(o);
  o.threads = 1;
  Result<WriteShardingReport> b = RunWriteSharding(o);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(WriteShardingSeries(a.value()).Csv(), WriteShardingSeries(b.value()).Csv());
  EXPECT_EQ(WriteShardingTable(a.value()).Csv(), WriteShardingTable(b.value()).Csv());
  EXPECT_EQ(WriteShardingSeries(a.value()).rows.size(), 3u * 3u);
}

TEST(WriteShardingTest, CountedAndReadPagesGiveTheSameReport) {
  // Counting lets the engine answer repeated pages from its page memo
  // (admitted and charged as reads); reading the items reads every page.
  // Sustained with throttles (unsharded) and without (8 keys), and a single
  // read: the same rows and the same seconds either way.
  WriteShardingOptions o = SustainedOptions();
  o.duration_seconds = 4;
  Result<WriteShardingReport> counted = RunWriteSharding(o);
  o.count_pages = false;
  Result<WriteShardingReport> read = RunWriteSharding(o);
  ASSERT_TRUE(counted.ok() && read.ok());
  EXPECT_GT(counted.value().runs.at(0).throttled, 0);
  EXPECT_EQ(WriteShardingTable(counted.value()).Csv(),
            WriteShardingTable(read.value()).Csv());
  EXPECT_EQ(WriteShardingSeries(counted.value()).Csv(),
            WriteShardingSeries(read.value()).Csv());

  WriteShardingOptions single = SmallOptions();
  single.orders = 10'000;
  Result<WriteShardingReport> single_counted = RunWriteSharding(single);
  single.count_pages = false;
  Result<WriteShardingReport> single_read = RunWriteSharding(single);
  ASSERT_TRUE(single_counted.ok() && single_read.ok());
  EXPECT_EQ(WriteShardingTable(single_counted.value()).Csv(),
            WriteShardingTable(single_read.value()).Csv());
}

TEST(WriteShardingTest, SustainedReportPlotsRateOverTime) {
  WriteShardingOptions o = SustainedOptions();
  o.duration_seconds = 3;
  Result<WriteShardingReport> r = RunWriteSharding(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const std::string svg = WriteShardingSvg(r.value());
  EXPECT_NE(svg.find("simulated second"), std::string::npos);
  EXPECT_NE(svg.find("unsharded: "), std::string::npos);
  EXPECT_NE(svg.find("random N = 8: "), std::string::npos);
  EXPECT_NE(svg.find("hash N = 8: "), std::string::npos);
  EXPECT_NE(svg.find("required rate"), std::string::npos);
  size_t lines = 0;
  for (size_t p = svg.find("<polyline"); p != std::string::npos;
       p = svg.find("<polyline", p + 1)) {
    ++lines;
  }
  EXPECT_EQ(lines, 4u);  // unsharded, random 8, hash 8, the required rate
  const std::string text = WriteShardingText(r.value());
  EXPECT_NE(text.find("read mode: sustained"), std::string::npos);
  EXPECT_NE(text.find("achieved items/s over time"), std::string::npos);
  EXPECT_NE(text.find("from the seed's N to the simulation's"), std::string::npos);
  EXPECT_NE(WriteShardingJson(r.value()).find("\"seconds\""), std::string::npos);
}

TEST(WriteShardingTest, SustainedSplitsShowOverTime) {
  // Twice the rate: the GSI's demand doubles its on-demand rate after the
  // first busy second (a split for throughput at second 1); with the heat
  // window shrunk to 3 s, the partitions still hot split again for heat.
  WriteShardingOptions o = SustainedOptions();
  o.required_items_per_second = 12'000;
  o.unsharded = false;
  o.hash = false;
  o.duration_seconds = 8;
  Result<WriteShardingReport> slow = RunWriteSharding(o);
  o.engine_capacity.heat_split_after_micros = 3'000'000;
  Result<WriteShardingReport> fast = RunWriteSharding(o);
  ASSERT_TRUE(slow.ok() && fast.ok());
  const ReadRun& a = slow.value().runs.at(0);
  const ReadRun& b = fast.value().runs.at(0);
  EXPECT_EQ(a.split_seconds, (std::vector<int>{1}));
  ASSERT_EQ(b.split_seconds.size(), 2u);
  EXPECT_EQ(b.split_seconds[0], 1);
  EXPECT_GE(b.split_seconds[1], 3);
  EXPECT_GT(b.seconds.back().partitions, a.seconds.back().partitions);
  EXPECT_EQ(a.seconds.front().partitions, 4);
  for (const ReadRun* run : {&a, &b}) {
    EXPECT_EQ(run->throttled, 0);
    EXPECT_LE(run->max_ceiling_excess, run->max_page_units);
  }
}

TEST(WriteShardingTest, SameSeedSameReport) {
  WriteShardingOptions o = SmallOptions();
  o.orders = 4'000;
  o.shards = {2};
  Result<WriteShardingReport> a = RunWriteSharding(o);
  Result<WriteShardingReport> b = RunWriteSharding(o);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(WriteShardingTable(a.value()).Csv(), WriteShardingTable(b.value()).Csv());
  // Every table has its own engine and clock: the thread count (and so the
  // grouping of GSIs into tables) changes nothing in the results.
  o.threads = 1;
  Result<WriteShardingReport> c = RunWriteSharding(o);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c.value().tables.size(), 1u);
  EXPECT_EQ(WriteShardingTable(a.value()).Csv(), WriteShardingTable(c.value()).Csv());
}

TEST(WriteShardingTest, BackfilledAndInlineIndexesReadTheSame) {
  WriteShardingOptions o = SmallOptions();
  o.orders = 10'000;
  o.shards = {1, 4};
  o.verify_indexes = true;  // entries and counters, both ways
  Result<WriteShardingReport> backfilled = RunWriteSharding(o);
  o.backfill_indexes = false;
  Result<WriteShardingReport> inline_ = RunWriteSharding(o);
  ASSERT_TRUE(backfilled.ok() && inline_.ok());
  EXPECT_GT(backfilled.value().runs[0].throttled, 0);  // a case with throttles
  EXPECT_EQ(WriteShardingTable(backfilled.value()).Csv(),
            WriteShardingTable(inline_.value()).Csv());
}

TEST(WriteShardingTest, TinyConfigurationExactCounts) {
  WriteShardingOptions o;
  o.mode = ReadMode::kSingleRead;
  o.orders = 200;
  o.open_fraction = 0.5;
  o.days = 10;
  o.shards = {1, 3};
  o.random = false;
  o.seed = 1;
  Result<WriteShardingReport> r = RunWriteSharding(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const WriteShardingReport& report = r.value();
  // 111 OPEN orders, all in range; only they are written (the default).
  EXPECT_EQ(report.open_orders, 111);
  EXPECT_EQ(report.open_orders_in_range, 111);
  EXPECT_EQ(report.orders_loaded, 111);
  ASSERT_EQ(report.runs.size(), 3u);
  // 111 OPEN orders of 100 B: one page per shard key, never throttled at
  // DynamoDB's ceilings. Eventually consistent: 0.5 RCU per 4 KB of a page,
  // at least 0.5 a query: 11.4 KB in one page is 1.5; over three shard keys
  // of ~3.8 KB each, 0.5 + 0.5 + 1 (one of them passes 4 KB).
  const ReadRun* h3 = Find(report, ShardingKind::kHash, 3);
  ASSERT_NE(h3, nullptr);
  EXPECT_EQ(h3->requests, 3);
  EXPECT_EQ(h3->throttled, 0);
  EXPECT_DOUBLE_EQ(h3->read_units, 2.0);
  EXPECT_EQ(h3->items, 111);
  const ReadRun* u = Find(report, ShardingKind::kUnsharded, 1);
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->requests, 1);
  EXPECT_DOUBLE_EQ(u->read_units, 1.5);
  EXPECT_EQ(u->items, report.open_orders);
  // One page: 2 ms + 10 µs per KB (8 KB per eventually consistent unit).
  EXPECT_EQ(u->read_micros,
            2'000 + 10 * static_cast<int64_t>(u->read_units * 8));
  // 5 GSIs on 2 threads: two tables (engines) of 3 and 2.
  EXPECT_EQ(report.tables.size(), 2u);
}

TEST(WriteShardingTest, SweepBeyondTwentyGsisSpillsIntoMoreTables) {
  WriteShardingOptions o;
  o.mode = ReadMode::kSingleRead;
  o.orders = 100;
  o.shards = {};
  for (int n = 1; n <= 12; ++n) o.shards.push_back(n);
  Result<WriteShardingReport> r = RunWriteSharding(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  // 1 unsharded + 24 sharded GSIs: at most 20 a table, and an even number
  // of tables for the 2 threads.
  EXPECT_EQ(r.value().tables.size(), 2u);
  EXPECT_EQ(r.value().runs.size(), 25u);
  for (const ReadRun& run : r.value().runs) {
    EXPECT_EQ(run.items, r.value().open_orders) << run.index_name;
  }
}

TEST(WriteShardingTest, DefaultSweepRunsHashAtFewerN) {
  WriteShardingOptions o;
  o.mode = ReadMode::kSingleRead;
  o.orders = 100;
  Result<WriteShardingReport> r = RunWriteSharding(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const WriteShardingReport& report = r.value();
  EXPECT_EQ(report.options.shards, DefaultShards());
  EXPECT_EQ(report.options.hash_shards, DefaultHashShards());
  // Unsharded, 11 random and 3 hash GSIs: two tables for the 2 threads.
  EXPECT_EQ(report.runs.size(), 15u);
  EXPECT_EQ(report.tables.size(), 2u);
  std::vector<int> hash;
  for (const ReadRun& run : report.runs) {
    if (run.kind == ShardingKind::kHash) hash.push_back(run.shards);
  }
  EXPECT_EQ(hash, (std::vector<int>{4, 13, 16}));
  // The seed's 13 is in both variants.
  EXPECT_NE(Find(report, ShardingKind::kRandom, 13), nullptr);
  EXPECT_NE(Find(report, ShardingKind::kHash, 13), nullptr);
}

TEST(WriteShardingTest, SustainedDefaultSweepIsSmaller) {
  WriteShardingOptions o;
  o.orders = 100;
  o.duration_seconds = 1;
  o.required_items_per_second = 100;
  Result<WriteShardingReport> r = RunWriteSharding(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value().options.mode, ReadMode::kSustained);
  EXPECT_EQ(r.value().options.shards, DefaultSustainedShards());
  EXPECT_EQ(r.value().options.hash_shards, DefaultSustainedHashShards());
  EXPECT_EQ(r.value().runs.size(), 1 + DefaultSustainedShards().size() +
                                       DefaultSustainedHashShards().size());
}

TEST(WriteShardingTest, ShardsAloneSweepBothVariantsHashShardsNarrowIt) {
  WriteShardingOptions o;
  o.mode = ReadMode::kSingleRead;
  o.orders = 100;
  o.unsharded = false;
  o.shards = {2, 3};
  Result<WriteShardingReport> r = RunWriteSharding(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value().runs.size(), 4u);  // random and hash at 2 and 3
  o.hash_shards = {3};
  r = RunWriteSharding(o);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r.value().runs.size(), 3u);
  EXPECT_EQ(Find(r.value(), ShardingKind::kHash, 2), nullptr);
  EXPECT_NE(Find(r.value(), ShardingKind::kHash, 3), nullptr);
}

TEST(WriteShardingTest, PlateauStart) {
  EXPECT_EQ(PlateauStart({1, 2, 4, 8}, {10, 5, 2.05, 2.0}, 0.05), 4);
  EXPECT_EQ(PlateauStart({1, 2, 4, 8}, {10, 5, 2.5, 2.0}, 0.05), 8);
  EXPECT_EQ(PlateauStart({}, {}, 0.1), 0);
}

TEST(WriteShardingTest, ZeroFrom) {
  EXPECT_EQ(ZeroFrom({1, 2, 4, 8}, {5, 0, 3, 0}), 8);
  EXPECT_EQ(ZeroFrom({1, 2, 4, 8}, {5, 0, 0, 0}), 2);
  EXPECT_EQ(ZeroFrom({1, 2, 4, 8}, {5, 0, 0, 1}), -1);
  EXPECT_EQ(ZeroFrom({}, {}), -1);
}

TEST(WriteShardingTest, RejectsBadOptions) {
  WriteShardingOptions o;
  o.mode = ReadMode::kSingleRead;
  o.orders = 0;
  EXPECT_EQ(RunWriteSharding(o).status().code(), ErrorCode::kValidation);
  o.orders = 10;
  o.open_fraction = 1.5;
  EXPECT_EQ(RunWriteSharding(o).status().code(), ErrorCode::kValidation);
  o.open_fraction = 0.5;
  o.mode = ReadMode::kSustained;
  o.duration_seconds = 0;
  EXPECT_EQ(RunWriteSharding(o).status().code(), ErrorCode::kValidation);
  o.duration_seconds = 10;
  o.required_items_per_second = 0;
  EXPECT_EQ(RunWriteSharding(o).status().code(), ErrorCode::kValidation);
}

}  // namespace
}  // namespace dynarock::tools::simulate

