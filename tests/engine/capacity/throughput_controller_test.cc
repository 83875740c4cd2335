#include "engine/capacity/throughput_controller.h"

#include <gtest/gtest.h>

#include <tuple>

#include "engine/clock.h"

namespace dynarock {
namespace {

constexpr int64_t kMs = 1000;
constexpr int64_t kSecond = 1'000'000;
constexpr uint32_t kTable = 7;
constexpr uint32_t kGsi = 11;
constexpr uint32_t kLsi = 12;
const char kArn[] = "arn:aws:dynamodb:us-east-1:000000000000:table/t";
const char kGsiArn[] = "arn:aws:dynamodb:us-east-1:000000000000:table/t/index/g";

constexpr char kTableMessage[] =
    "The level of configured provisioned throughput for the table was "
    "exceeded. Consider increasing your provisioning level with the "
    "UpdateTable API.";

TableThroughputConfig Provisioned(int64_t rcu, int64_t wcu) {
  TableThroughputConfig c;
  c.table_id = kTable;
  c.table_name = "t";
  c.table_arn = kArn;
  c.billing_mode = BillingMode::kProvisioned;
  c.read_capacity_units = rcu;
  c.write_capacity_units = wcu;
  return c;
}

TableThroughputConfig OnDemand() {
  TableThroughputConfig c = Provisioned(0, 0);
  c.billing_mode = BillingMode::kPayPerRequest;
  return c;
}

CapacityCharge WriteCharge(uint64_t hash, double units, uint32_t index = 0) {
  CapacityCharge c;
  c.table_id = kTable;
  c.parts.push_back(PartitionUnits{index, hash, "k", 0, units});
  return c;
}

CapacityCharge ReadCharge(uint64_t hash, double units, uint32_t index = 0) {
  CapacityCharge c;
  c.table_id = kTable;
  c.parts.push_back(PartitionUnits{index, hash, "k", units, 0});
  return c;
}

// One-unit writes at `hash` until one is throttled; returns how many passed.
int WriteUntilThrottled(ThroughputController& t, uint64_t hash) {
  int n = 0;
  while (t.AdmitWrite(WriteCharge(hash, 1)).ok()) ++n;
  return n;
}

// One-unit writes spread round-robin over every partition of the table
// until one is throttled; returns how many passed and the throttle.
std::pair<int, Status> FillTable(ThroughputController& t) {
  std::vector<uint64_t> hashes;
  const auto d = t.Describe(kTable);
  for (const PartitionStats& p : d->table.partitions) {
    hashes.push_back(p.begin);
  }
  int n = 0;
  for (;;) {
    Status s = t.AdmitWrite(WriteCharge(hashes[n % hashes.size()], 1));
    if (!s.ok()) return {n, s};
    ++n;
  }
}

std::vector<std::string> Reasons(const Status& s) {
  std::vector<std::string> out;
  for (const ThrottlingReason& r : s.throttling_reasons()) {
    out.push_back(r.reason + " " + r.resource);
  }
  return out;
}

class ThroughputControllerTest : public ::testing::Test {
 protected:
  SimulatedClock clock_;
};

TEST_F(ThroughputControllerTest, APartitionAcceptsExactlyItsCeilingInOneInstant) {
  ThroughputController t(&clock_);
  t.RegisterTable(Provisioned(1, 1000));
  EXPECT_EQ(WriteUntilThrottled(t, 42), 1000);
  Status s = t.AdmitWrite(WriteCharge(42, 1));
  EXPECT_EQ(s.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(Reasons(s), std::vector<std::string>{
                            std::string("TableWriteKeyRangeThroughputExceeded ") + kArn});
  clock_.Advance(1 * kMs);  // exactly one unit back
  EXPECT_EQ(WriteUntilThrottled(t, 42), 1);
}

TEST_F(ThroughputControllerTest, ReadDebtIsWaitedOut) {
  ThroughputController t(&clock_);
  t.RegisterTable(Provisioned(3000, 1));
  ASSERT_TRUE(t.CheckRead(kTable, 0, 42).ok());
  t.Charge(ReadCharge(42, 4000));  // a big Query: the partition owes 1000
  EXPECT_EQ(t.Describe(kTable)->table.partitions[0].read_balance, -1000);
  clock_.Advance(333'333);  // 999.999 units later: still in debt
  EXPECT_FALSE(t.CheckRead(kTable, 0, 42).ok());
  clock_.Advance(1);
  EXPECT_TRUE(t.CheckRead(kTable, 0, 42).ok());
}

TEST_F(ThroughputControllerTest, CheckWriteChargesNothingAndChargeAdmitsIntoDebt) {
  ThroughputController t(&clock_);
  t.RegisterTable(Provisioned(1, 1000));
  // A transaction's writes: each checked, none charged, then all charged.
  EXPECT_TRUE(t.CheckWrite(WriteCharge(42, 700)).ok());
  EXPECT_TRUE(t.CheckWrite(WriteCharge(42, 700)).ok());
  EXPECT_EQ(t.Describe(kTable)->table.partitions[0].write_balance, 1000);
  t.Charge(WriteCharge(42, 700));
  t.Charge(WriteCharge(42, 700));
  EXPECT_EQ(t.Describe(kTable)->table.partitions[0].write_balance, -400);
  // In debt: refused, counted as throttled, still charged nothing.
  Status s = t.CheckWrite(WriteCharge(42, 1));
  EXPECT_EQ(s.code(), ErrorCode::kProvisionedThroughputExceeded);
  const auto d = t.Describe(kTable);
  EXPECT_EQ(d->table.partitions[0].write_balance, -400);
  EXPECT_EQ(d->table.total.throttled_write_requests, 1);
}

TEST_F(ThroughputControllerTest, ProvisionedTableBurstsThreeHundredSecondsThenRefillsAtItsRate) {
  ThroughputController t(&clock_);
  t.RegisterTable(Provisioned(1, 5));
  // The single partition takes 1,000 at once, the table's burst the rest.
  EXPECT_EQ(WriteUntilThrottled(t, 42), 1000);
  clock_.Advance(1 * kSecond);  // partition full again; table 500 + 5
  EXPECT_EQ(WriteUntilThrottled(t, 42), 505);
  Status s = t.AdmitWrite(WriteCharge(42, 1));
  EXPECT_EQ(s.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(s.message(), kTableMessage);
  EXPECT_EQ(Reasons(s), std::vector<std::string>{
                            std::string("TableWriteProvisionedThroughputExceeded ") + kArn});
  clock_.Advance(1 * kSecond);
  EXPECT_EQ(WriteUntilThrottled(t, 42), 5);
  clock_.Advance(299 * kSecond);
  EXPECT_EQ(t.Describe(kTable)->table.write_balance, 1495);
  clock_.Advance(1 * kSecond);
  EXPECT_EQ(t.Describe(kTable)->table.write_balance, 1500);
  clock_.Advance(1000 * kSecond);
  EXPECT_EQ(t.Describe(kTable)->table.write_balance, 1500);  // no more
}

TEST_F(ThroughputControllerTest, AdaptiveCapacityLetsAHotPartitionUseTheTableUpToItsCeiling) {
  ThroughputController t(&clock_);
  t.RegisterTable(Provisioned(1, 1500));  // 2 partitions: a share of 750 each
  auto d = t.Describe(kTable);
  ASSERT_EQ(d->table.partitions.size(), 2u);
  EXPECT_EQ(WriteUntilThrottled(t, 42), 1000);  // beyond its share
  Status s = t.AdmitWrite(WriteCharge(42, 1));
  EXPECT_EQ(Reasons(s), std::vector<std::string>{
                            std::string("TableWriteKeyRangeThroughputExceeded ") + kArn});
  EXPECT_EQ(s.message(),
            "Throughput exceeds the current capacity of your table or index. "
            "DynamoDB is automatically scaling your table or index so please "
            "try again shortly. If exceptions persist, check if you have a "
            "hot key: https://docs.aws.amazon.com/amazondynamodb/latest/"
            "developerguide/bp-partition-key-design.html");
  // The other partition still serves the table's remaining rate.
  EXPECT_EQ(WriteUntilThrottled(t, uint64_t{1} << 63), 1000);
}

TEST_F(ThroughputControllerTest, AGsiThatCannotPayThrottlesTheBaseWriteAndNothingIsCharged) {
  ThroughputController t(&clock_);
  TableThroughputConfig c = Provisioned(1, 100);
  c.global_secondary_indexes.push_back({kGsi, "g", 1, 1, 0, 0});
  t.RegisterTable(c);
  auto write = [](uint64_t table_hash, uint64_t gsi_hash) {
    CapacityCharge ch = WriteCharge(table_hash, 1);
    ch.parts.push_back(PartitionUnits{kGsi, gsi_hash, "g", 0, 1});
    return ch;
  };
  int admitted = 0;
  // Spread over time so that only the GSI's 300 s burst runs out.
  for (int i = 0; i < 400 && t.AdmitWrite(write(i, i)).ok(); ++i) {
    ++admitted;
    clock_.Advance(10 * kMs);
  }
  // 300 of burst + 3.04 s of refill at 1 WCU/s: the 304th write finds 0.03.
  EXPECT_EQ(admitted, 304);
  const auto before = t.Describe(kTable);
  Status s = t.AdmitWrite(write(5, 5));
  EXPECT_EQ(s.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(s.message(),
            "The level of configured provisioned throughput for one or more "
            "global secondary indexes of the table was exceeded. Consider "
            "increasing your provisioning level for the under-provisioned "
            "global secondary indexes with the UpdateTable API");
  EXPECT_EQ(Reasons(s), std::vector<std::string>{
                            std::string("IndexWriteProvisionedThroughputExceeded ") + kGsiArn});
  const auto after = t.Describe(kTable);
  EXPECT_EQ(after->table.write_balance, before->table.write_balance);
  EXPECT_EQ(after->table.total.consumed_write_units, 304);
  EXPECT_EQ(after->global_secondary_indexes[0].total.consumed_write_units, 304);
  // Two throttled writes: the loop's last one and this one.
  EXPECT_EQ(after->table.total.throttled_write_requests, 2);
  EXPECT_EQ(after->table.total.throttled_write_units, 2);
  EXPECT_EQ(after->global_secondary_indexes[0].total.throttled_write_requests, 2);
}

TEST_F(ThroughputControllerTest, LsiPartsAreChargedToTheTable) {
  ThroughputController t(&clock_);
  TableThroughputConfig c = Provisioned(1, 10);
  c.local_secondary_index_ids = {kLsi};
  t.RegisterTable(c);
  ASSERT_TRUE(t.AdmitWrite(WriteCharge(42, 2, kLsi)).ok());
  ASSERT_TRUE(t.AdmitWrite(WriteCharge(42, 1, /*unknown index=*/99)).ok());
  EXPECT_EQ(t.Describe(kTable)->table.write_balance, 3000 - 2);
}

TEST_F(ThroughputControllerTest, GsiReadsUseTheIndexBucketsAndReasons) {
  ThroughputController t(&clock_);
  TableThroughputConfig c = Provisioned(100, 1);
  c.global_secondary_indexes.push_back({kGsi, "g", 1, 1, 0, 0});
  t.RegisterTable(c);
  ASSERT_TRUE(t.CheckRead(kGsi == 0 ? 0 : kTable, kGsi, 9).ok());
  t.Charge(ReadCharge(9, 300, kGsi));
  Status s = t.CheckRead(kTable, kGsi, 9, 0.5);
  EXPECT_EQ(Reasons(s), std::vector<std::string>{
                            std::string("IndexReadProvisionedThroughputExceeded ") + kGsiArn});
  EXPECT_TRUE(t.CheckRead(kTable, 0, 9).ok());
  const auto d = t.Describe(kTable);
  EXPECT_EQ(d->global_secondary_indexes[0].total.throttled_read_units, 0.5);
  EXPECT_EQ(d->global_secondary_indexes[0].total.throttled_read_requests, 1);
  EXPECT_TRUE(t.CheckRead(/*unknown table=*/99, 0, 9).ok());
}

TEST_F(ThroughputControllerTest, OnDemandServesTwiceThePreviousPeak) {
  ThroughputController t(&clock_);
  t.RegisterTable(OnDemand());
  auto d = t.Describe(kTable);
  EXPECT_EQ(d->table.partitions.size(), 4u);
  EXPECT_EQ(d->table.write_units_per_second, 4000);
  EXPECT_EQ(d->table.read_units_per_second, 12000);
  auto [n, s] = FillTable(t);
  EXPECT_EQ(n, 4000);
  EXPECT_EQ(s.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(Reasons(s)[0], std::string("TableWriteKeyRangeThroughputExceeded ") + kArn);
  clock_.Advance(1 * kSecond);
  d = t.Describe(kTable);
  EXPECT_EQ(d->table.peak_write_units, 4000);
  EXPECT_EQ(d->table.write_units_per_second, 8000);
  EXPECT_EQ(d->table.partitions.size(), 8u);
  EXPECT_EQ(FillTable(t).first, 8000);
  // The peak is remembered for 30 minutes, then forgotten.
  clock_.Advance(1799 * kSecond);
  EXPECT_EQ(t.Describe(kTable)->table.write_units_per_second, 16000);
  clock_.Advance(2 * kSecond);
  d = t.Describe(kTable);
  EXPECT_EQ(d->table.write_units_per_second, 4000);
  EXPECT_EQ(d->table.partitions.size(), 16u);  // partitions never merge
}

TEST_F(ThroughputControllerTest, OnDemandStopsAtTheTableQuota) {
  ThroughputController t(&clock_);
  t.RegisterTable(OnDemand());
  for (int expected : {4000, 8000, 16000, 32000}) {
    ASSERT_EQ(FillTable(t).first, expected);
    clock_.Advance(1 * kSecond);
  }
  auto [n, s] = FillTable(t);
  EXPECT_EQ(n, 40000);  // not 64,000
  EXPECT_EQ(s.code(), ErrorCode::kRequestLimitExceeded);
  EXPECT_EQ(Reasons(s)[0], std::string("TableWriteAccountLimitExceeded ") + kArn);
  EXPECT_EQ(t.Describe(kTable)->table.partitions.size(), 40u);
}

TEST_F(ThroughputControllerTest, OnDemandMaximumThrottlesWithItsOwnReason) {
  ThroughputController t(&clock_);
  TableThroughputConfig c = OnDemand();
  c.max_write_request_units = 100;
  t.RegisterTable(c);
  auto [n, s] = FillTable(t);
  EXPECT_EQ(n, 100);
  EXPECT_EQ(Reasons(s)[0], std::string("TableWriteMaxOnDemandThroughputExceeded ") + kArn);
}

TEST_F(ThroughputControllerTest, PartitionCountFollowsProvisionedThroughput) {
  ThroughputController t(&clock_);
  t.RegisterTable(Provisioned(3001, 1000));
  EXPECT_EQ(t.Describe(kTable)->table.partitions.size(), 3u);
  TableThroughputConfig c = Provisioned(1, 1);
  c.global_secondary_indexes.push_back({kGsi, "g", 6000, 1, 0, 0});
  t.RegisterTable(c);
  auto d = t.Describe(kTable);
  EXPECT_EQ(d->table.partitions.size(), 1u);
  EXPECT_EQ(d->global_secondary_indexes[0].partitions.size(), 3u);
  EXPECT_EQ(d->global_secondary_indexes[0].arn, kGsiArn);
}

TEST_F(ThroughputControllerTest, UpdateTableReRatesKeepingBalances) {
  ThroughputController t(&clock_);
  t.RegisterTable(Provisioned(1, 10));
  ASSERT_TRUE(t.AdmitWrite(WriteCharge(42, 500)).ok());
  EXPECT_EQ(t.Describe(kTable)->table.write_balance, 2500);
  t.UpdateTable(Provisioned(1, 5));  // capacity 1,500: capped
  EXPECT_EQ(t.Describe(kTable)->table.write_balance, 1500);
  t.UpdateTable(Provisioned(1, 100));  // kept, refilled at the new rate
  clock_.Advance(1 * kSecond);
  auto d = t.Describe(kTable);
  EXPECT_EQ(d->table.write_balance, 1600);
  EXPECT_EQ(d->table.write_units_per_second, 100);
  t.UpdateTable(Provisioned(1, 2000));
  EXPECT_EQ(t.Describe(kTable)->table.partitions.size(), 3u);  // 1 -> 2 -> 3 by halving
  // Switching to on-demand serves at least the provisioned rate.
  TableThroughputConfig c = OnDemand();
  t.UpdateTable(Provisioned(1, 6000));
  t.UpdateTable(c);
  d = t.Describe(kTable);
  EXPECT_EQ(d->billing_mode, BillingMode::kPayPerRequest);
  EXPECT_EQ(d->table.write_units_per_second, 6000);
  EXPECT_EQ(d->table.read_units_per_second, 12000);
  // A GSI added by UpdateTable gets its own model; a dropped one goes.
  c.global_secondary_indexes.push_back({kGsi, "g", 0, 0, 0, 0});
  t.UpdateTable(c);
  ASSERT_EQ(t.Describe(kTable)->global_secondary_indexes.size(), 1u);
  c.global_secondary_indexes.clear();
  t.UpdateTable(c);
  EXPECT_TRUE(t.Describe(kTable)->global_secondary_indexes.empty());
  t.RemoveTable(kTable);
  EXPECT_FALSE(t.Describe(kTable).has_value());
}

TEST_F(ThroughputControllerTest, APartitionPastTheSplitSizeSplitsAtItsMidpoint) {
  CapacityOptions o;
  o.split_size_bytes = 4096;
  ThroughputController t(&clock_, o);
  std::vector<std::tuple<uint32_t, uint32_t, uint64_t, uint64_t, uint64_t>> calls;
  t.SetSplitSizeFn([&](uint32_t table, uint32_t index, uint64_t begin,
                       uint64_t mid, uint64_t end) {
    calls.emplace_back(table, index, begin, mid, end);
    return SplitSizes{3, 1000, 2, 3500};
  });
  t.RegisterTable(Provisioned(1, 1));
  t.RecordWrite(kTable, 0, 42, 4, 4000);
  EXPECT_EQ(t.Describe(kTable)->table.partitions.size(), 1u);
  t.RecordWrite(kTable, 0, uint64_t{1} << 63, 1, 500);  // 4,500 > 4,096
  auto d = t.Describe(kTable);
  ASSERT_EQ(d->table.partitions.size(), 2u);
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0], std::make_tuple(kTable, 0u, uint64_t{0}, uint64_t{1} << 63,
                                      uint64_t{0}));
  EXPECT_EQ(d->table.partitions[0].end, uint64_t{1} << 63);
  EXPECT_EQ(d->table.partitions[0].items, 3);
  EXPECT_EQ(d->table.partitions[1].bytes, 3500);
}

TEST_F(ThroughputControllerTest, AnUncountedSplitSpreadsTheCountersByHashRange) {
  // A partition too large to count under the lock (SplitSizes::counted
  // false): its halves get its counters in proportion to their ranges.
  CapacityOptions o;
  o.split_size_bytes = 4096;
  ThroughputController t(&clock_, o);
  t.SetSplitSizeFn([](uint32_t, uint32_t, uint64_t, uint64_t, uint64_t) {
    SplitSizes partial{1, 10, 0, 0};
    partial.counted = false;
    return partial;
  });
  t.RegisterTable(Provisioned(1, 1));
  t.RecordWrite(kTable, 0, 42, 10, 5000);
  auto d = t.Describe(kTable);
  ASSERT_EQ(d->table.partitions.size(), 2u);
  EXPECT_EQ(d->table.partitions[0].items, 5);
  EXPECT_EQ(d->table.partitions[0].bytes, 2500);
  EXPECT_EQ(d->table.partitions[1].items, 5);
  EXPECT_EQ(d->table.partitions[1].bytes, 2500);
}

class SplitForHeatTest : public ThroughputControllerTest {
 protected:
  static constexpr uint64_t kLow = 100;
  static constexpr uint64_t kHigh = 200;

  // 900 WCU (above 80% of the ceiling) every second for `seconds`, on
  // `hashes` in turn.
  void Heat(ThroughputController& t, int seconds, std::vector<uint64_t> hashes) {
    for (int s = 0; s < seconds; ++s) {
      for (int i = 0; i < 900; ++i) {
        ASSERT_TRUE(t.AdmitWrite(WriteCharge(hashes[i % hashes.size()], 1)).ok());
      }
      clock_.Advance(1 * kSecond);
    }
  }
  CapacityOptions Options() {
    CapacityOptions o;
    o.heat_split_after_micros = 10 * kSecond;
    return o;
  }
};

TEST_F(SplitForHeatTest, SustainedHeatSplitsBetweenTheHotKeys) {
  ThroughputController t(&clock_, Options());
  t.RegisterTable(Provisioned(1, 999)  /* one partition */);
  Heat(t, 10, {kLow, kHigh});
  EXPECT_EQ(t.Describe(kTable)->table.partitions.size(), 1u);
  ASSERT_TRUE(t.AdmitWrite(WriteCharge(kLow, 1)).ok());  // the 10 s are up
  auto d = t.Describe(kTable);
  ASSERT_EQ(d->table.partitions.size(), 2u);
  EXPECT_EQ(d->table.partitions[1].begin, kHigh);  // the median hash
}

TEST_F(SplitForHeatTest, ABreakInTheHeatStartsTheWaitAgain) {
  ThroughputController t(&clock_, Options());
  t.RegisterTable(Provisioned(1, 999)  /* one partition */);
  Heat(t, 5, {kLow, kHigh});
  clock_.Advance(1 * kSecond);  // one quiet second
  Heat(t, 9, {kLow, kHigh});
  EXPECT_EQ(t.Describe(kTable)->table.partitions.size(), 1u);
  Heat(t, 2, {kLow, kHigh});
  EXPECT_EQ(t.Describe(kTable)->table.partitions.size(), 2u);
}

TEST_F(SplitForHeatTest, NeverForASingleHotKey) {
  ThroughputController t(&clock_, Options());
  t.RegisterTable(Provisioned(1, 999)  /* one partition */);
  Heat(t, 20, {kLow});
  EXPECT_EQ(t.Describe(kTable)->table.partitions.size(), 1u);
}

TEST_F(SplitForHeatTest, NeverOnATableWithLsis) {
  ThroughputController t(&clock_, Options());
  TableThroughputConfig c = Provisioned(1, 999)  /* one partition */;
  c.local_secondary_index_ids = {kLsi};
  t.RegisterTable(c);
  Heat(t, 20, {kLow, kHigh});
  EXPECT_EQ(t.Describe(kTable)->table.partitions.size(), 1u);
}

TEST_F(ThroughputControllerTest, StatsWindowsPerPartitionAndTable) {
  ThroughputController t(&clock_);
  t.RegisterTable(Provisioned(1, 1));  // burst 300 WCU, one partition
  ASSERT_TRUE(t.AdmitWrite(WriteCharge(42, 100)).ok());  // 200 left
  clock_.Advance(100 * kSecond);                         // 300 (capped)
  ASSERT_TRUE(t.AdmitWrite(WriteCharge(42, 250)).ok());  // 50
  ASSERT_TRUE(t.AdmitWrite(WriteCharge(42, 60)).ok());   // -10
  EXPECT_FALSE(t.AdmitWrite(WriteCharge(42, 3)).ok());
  clock_.Advance(5 * kSecond);  // -5
  EXPECT_FALSE(t.AdmitWrite(WriteCharge(42, 7)).ok());
  auto d = t.Describe(kTable);
  const PartitionStats& p = d->table.partitions[0];
  EXPECT_EQ(p.last_second.consumed_write_units, 0);
  EXPECT_EQ(p.last_second.throttled_write_units, 7);
  EXPECT_EQ(p.last_minute.consumed_write_units, 310);
  EXPECT_EQ(p.last_minute.throttled_write_units, 10);
  EXPECT_EQ(p.last_minute.throttled_write_requests, 2);
  EXPECT_EQ(p.last_5_minutes.consumed_write_units, 410);
  EXPECT_EQ(p.total.consumed_write_units, 410);
  EXPECT_EQ(d->table.last_minute, p.last_minute);
  clock_.Advance(200 * kSecond);  // 305 s after the first write
  d = t.Describe(kTable);
  EXPECT_EQ(d->table.partitions[0].last_5_minutes.consumed_write_units, 310);
  EXPECT_EQ(d->table.partitions[0].last_minute, Usage{});
  EXPECT_EQ(d->table.total.consumed_write_units, 410);
}

TEST_F(ThroughputControllerTest, HottestKeysByConsumedUnits) {
  ThroughputController t(&clock_);
  t.RegisterTable(Provisioned(1000, 1000));
  CapacityCharge c;
  c.table_id = kTable;
  c.parts = {{0, 1, "cold", 0, 1}, {0, 2, "hot", 0, 5}, {0, 3, "warm", 0, 2}};
  ASSERT_TRUE(t.AdmitWrite(c).ok());
  t.Charge(ReadCharge(3, 2.5));
  auto d = t.Describe(kTable, 2);
  ASSERT_EQ(d->table.hot_keys.size(), 2u);
  EXPECT_EQ(d->table.hot_keys[0].key, "hot");
  EXPECT_EQ(d->table.hot_keys[0].hash, 2u);
  EXPECT_EQ(d->table.hot_keys[1].key, "warm");  // tracked by hash
  EXPECT_EQ(d->table.hot_keys[1].units, 4.5);
  EXPECT_EQ(d->table.hot_keys[1].read_units, 2.5);
}

}  // namespace
}  // namespace dynarock
