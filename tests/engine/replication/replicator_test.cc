// The replicator's controls through the Engine (engine/replication/
// replicator.cc, engine/facade/engine_extensions.cc): a per-replica lag,
// Regions partitioned for a while and healed (on the clock or by a call),
// divergence and convergence by last writer wins across the partition,
// DescribeReplication's counters and latency distribution, the cursors a
// call's replication reads from, and the collection of tombstones.
#include "engine/replication/replicator.h"

#include <chrono>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "engine/engine.h"
#include "tests/testutil/global_table.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using namespace global_table_test;  // NOLINT: the fixture's vocabulary

Status Partition(Engine* db, const std::string& a, const std::string& b, int64_t micros) {
  PartitionRegionsRequest req;
  req.region_a = a;
  req.region_b = b;
  req.duration_micros = micros;
  return db->PartitionRegions(req);
}

Status Heal(Engine* db, const std::string& a, const std::string& b) {
  PartitionRegionsRequest req;
  req.region_a = a;
  req.region_b = b;
  req.heal = true;
  return db->PartitionRegions(req);
}

// The replica of "Tab" in `region` as DescribeReplication (asked in us-east-1)
// shows it.
ReplicaReplicationDescription ReplicaIn(Engine* db, const std::string& region) {
  Result<ReplicationDescription> d = db->DescribeReplication(kEast, "Tab");
  EXPECT_OK(d.status());
  if (d.ok()) {
    for (const ReplicaReplicationDescription& r : d->replicas) {
      if (r.region_name == region) return r;
    }
  }
  ADD_FAILURE() << "no replica in " << region;
  return {};
}

TEST(ReplicatorTest, ALagPerReplicaOverridesTheDefault) {
  TestEngine db(Options());
  MakeGlobal(db);
  SetReplicationLagRequest lag;
  lag.scope = kEast;
  lag.table_name = "Tab";
  lag.region_name = "us-west-2";
  lag.lag_micros = 5 * kLag;
  ASSERT_OK(db->SetReplicationLag(lag));
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-west-2").lag_micros, 5 * kLag);
  EXPECT_FALSE(ReplicaIn(db.engine.get(), "us-west-2").default_lag);
  EXPECT_TRUE(ReplicaIn(db.engine.get(), "us-east-1").default_lag);

  Put(db.engine.get(), kEast, "a", "slow");
  Put(db.engine.get(), kWest, "b", "fast");
  ASSERT_OK(db->AdvanceClock(2 * kLag).status());
  EXPECT_EQ(Get(db.engine.get(), kEast, "b"), "fast");  // the default lag, 1 s
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "");      // 5 s
  ASSERT_OK(db->AdvanceClock(4 * kLag).status());
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "slow");

  lag.lag_micros = -1;  // back to the default
  ASSERT_OK(db->SetReplicationLag(lag));
  EXPECT_TRUE(ReplicaIn(db.engine.get(), "us-west-2").default_lag);
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-west-2").lag_micros, kLag);
}

TEST(ReplicatorTest, APartitionHoldsChangesUntilHealedThenLastWriterWins) {
  TestEngine db(Options());
  MakeGlobal(db);
  ASSERT_OK(Partition(db.engine.get(), "us-east-1", "us-west-2", 0));
  Put(db.engine.get(), kEast, "a", "east-first");
  ASSERT_OK(db->AdvanceClock(kLag / 2).status());
  Put(db.engine.get(), kWest, "a", "west-later");
  Put(db.engine.get(), kWest, "b", "west-only");
  ASSERT_OK(db->AdvanceClock(100 * kLag).status());
  // Diverged: each Region sees its own writes only.
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "east-first");
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "west-later");
  EXPECT_EQ(Get(db.engine.get(), kEast, "b"), "");
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-east-1").pending_records, 2);
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-west-2").pending_records, 1);
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-east-1").partitioned_from,
            std::vector<std::string>{"us-west-2"});

  ASSERT_OK(Heal(db.engine.get(), "us-west-2", "us-east-1"));  // either order
  // Converged on the later write; the earlier one lost last-writer-wins.
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "west-later");
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "west-later");
  EXPECT_EQ(Get(db.engine.get(), kEast, "b"), "west-only");
  const ReplicaReplicationDescription west = ReplicaIn(db.engine.get(), "us-west-2");
  EXPECT_EQ(west.pending_records, 0);
  EXPECT_EQ(west.superseded, 1);
  EXPECT_TRUE(west.partitioned_from.empty());
  // Held ~100 s by the partition: the latency shows it.
  EXPECT_GE(west.latency_max_micros, 100 * kLag);
}

TEST(ReplicatorTest, APartitionWithADurationHealsOnTheClock) {
  TestEngine db(Options());
  MakeGlobal(db);
  ASSERT_OK(Partition(db.engine.get(), "us-east-1", "us-west-2", 30 * kLag));
  Put(db.engine.get(), kEast, "a", "held");
  ASSERT_OK(db->AdvanceClock(29 * kLag).status());
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "");
  Result<ReplicationDescription> d = db->DescribeReplication(kWest, "Tab");
  ASSERT_OK(d.status());
  ASSERT_EQ(d->partitions.size(), 1u);
  EXPECT_EQ(d->partitions[0].region_a, "us-east-1");
  EXPECT_EQ(d->partitions[0].region_b, "us-west-2");
  EXPECT_GT(d->partitions[0].until_micros, 0);
  EXPECT_EQ(d->replicas[0].region_name, "us-west-2");  // the caller's own first
  ASSERT_OK(db->AdvanceClock(2 * kLag).status());
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "held");
  d = db->DescribeReplication(kWest, "Tab");
  ASSERT_OK(d.status());
  EXPECT_TRUE(d->partitions.empty());
  // Healed already: a heal call finds nothing to heal.
  EXPECT_THAT(Heal(db.engine.get(), "us-east-1", "us-west-2"),
              StatusIs(ErrorCode::kValidation, testing::HasSubstr("not partitioned")));
}

TEST(ReplicatorTest, APartitionStopsOnlyItsOwnPair) {
  TestEngine db(Options());
  MakeGlobal(db);
  ASSERT_OK(Replicas(db.engine.get(), kEast,
                     {Action(ReplicationGroupUpdate::Action::kCreate, "eu-west-1")})
                .status());
  const Scope eu = In("eu-west-1");
  ASSERT_OK(db->AdvanceClock(2 * kLag).status());
  ASSERT_OK(Partition(db.engine.get(), "us-east-1", "eu-west-1", 0));
  Put(db.engine.get(), kEast, "a", "from-east");
  Put(db.engine.get(), kWest, "b", "from-west");
  ASSERT_OK(db->AdvanceClock(2 * kLag).status());
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "from-east");  // not partitioned
  EXPECT_EQ(Get(db.engine.get(), eu, "a"), "");             // held
  EXPECT_EQ(Get(db.engine.get(), eu, "b"), "from-west");    // us-west-2 -> eu flows
  ASSERT_OK(Heal(db.engine.get(), "eu-west-1", "us-east-1"));
  EXPECT_EQ(Get(db.engine.get(), eu, "a"), "from-east");
}

TEST(ReplicatorTest, DescribeReplicationCountsAndMeasures) {
  TestEngine db(Options());
  MakeGlobal(db);
  for (int i = 0; i < 10; ++i) Put(db.engine.get(), kEast, "k" + std::to_string(i), "v");
  ASSERT_OK(db->AdvanceClock(3 * kLag).status());
  EXPECT_EQ(Get(db.engine.get(), kWest, "k9"), "v");
  const ReplicaReplicationDescription west = ReplicaIn(db.engine.get(), "us-west-2");
  EXPECT_EQ(west.applied, 10);
  EXPECT_EQ(west.pending_records, 0);
  EXPECT_EQ(west.latency_samples, 10);
  // Applied at the first due work after the lag: 3 s after the writes.
  EXPECT_EQ(west.latency_p50_micros, 3 * kLag);
  EXPECT_EQ(west.latency_max_micros, 3 * kLag);
}

// With a due-work timer (as under `dynarock serve`; here one that never
// fires), a client's call applies the records from the replica's cursor
// rather than from the log's start. Records a partition held are behind
// it when the partition heals: the heal sends the next run to the start.
TEST(ReplicatorTest, AHealedPartitionsRecordsAreNotLostBehindTheCursor) {
  EngineOptions options = Options();
  options.due_work_interval_micros = int64_t{3600} * 1'000'000;
  TestEngine db(options);
  MakeGlobal(db);
  const Scope eu = In("eu-west-1");
  ASSERT_OK(Replicas(db.engine.get(), kEast,
                     {Action(ReplicationGroupUpdate::Action::kCreate, "eu-west-1")})
                .status());
  ASSERT_OK(Partition(db.engine.get(), "us-east-1", "us-west-2", 0));
  Put(db.engine.get(), kWest, "a", "held");
  ASSERT_OK(db->AdvanceClock(2 * kLag).status());
  Put(db.engine.get(), eu, "c", "from eu");
  ASSERT_OK(db->AdvanceClock(2 * kLag).status());
  // East took eu-west-1's later change; its cursor is past "a" by more
  // than the slack.
  EXPECT_EQ(Get(db.engine.get(), kEast, "c"), "from eu");
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "");
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-east-1").pending_records, 1);

  ASSERT_OK(Heal(db.engine.get(), "us-east-1", "us-west-2"));
  // The next call's run finds it. (A call skips the run while another
  // holds it, such as the timer's first at open on a busy machine: a few
  // calls, none of which would find it behind the cursor.)
  std::string a;
  for (int call = 0; call < 200 && a != "held"; ++call) {
    a = Get(db.engine.get(), kEast, "a");
    if (a != "held") std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(a, "held");
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-east-1").pending_records, 0);
}

// A minute of retention for the tombstone tests.
EngineOptions RetainingTombstones() {
  EngineOptions o = Options();
  o.replication_tombstone_retention_micros = 60 * kLag;
  return o;
}

TEST(ReplicatorTest, TombstonesAreCollectedAfterTheRetention) {
  TestEngine db(RetainingTombstones());
  MakeGlobal(db);
  Put(db.engine.get(), kEast, "gone", "x");
  Put(db.engine.get(), kEast, "kept", "y");
  ASSERT_OK(db->AdvanceClock(2 * kLag).status());
  Delete(db.engine.get(), kEast, "gone");
  ASSERT_OK(db->AdvanceClock(30 * kLag).status());
  // Replicated, but within the retention: every version stays.
  EXPECT_EQ(Get(db.engine.get(), kWest, "gone"), "");
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-east-1").tombstones_collected, 0);
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-west-2").tombstones_collected, 0);

  ASSERT_OK(db->AdvanceClock(120 * kLag).status());
  // Past it: the deleted item's version goes in both Regions, the live
  // item's stays.
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-east-1").tombstones_collected, 1);
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-west-2").tombstones_collected, 1);
  ASSERT_OK(db->AdvanceClock(200 * kLag).status());
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-east-1").tombstones_collected, 1);

  // A write after the collection is stamped later than the delete was:
  // it replicates as any write.
  Put(db.engine.get(), kWest, "gone", "back");
  ASSERT_OK(db->AdvanceClock(2 * kLag).status());
  EXPECT_EQ(Get(db.engine.get(), kEast, "gone"), "back");
  EXPECT_EQ(Get(db.engine.get(), kEast, "kept"), "y");
}

TEST(ReplicatorTest, ATombstoneStaysWhileAnOlderChangeWaitsForItsReplica) {
  TestEngine db(RetainingTombstones());
  MakeGlobal(db);
  Put(db.engine.get(), kEast, "a", "first");
  ASSERT_OK(db->AdvanceClock(2 * kLag).status());
  ASSERT_OK(Partition(db.engine.get(), "us-east-1", "us-west-2", 0));
  // West's write is older than east's delete, and waits for east behind
  // the partition.
  Put(db.engine.get(), kWest, "a", "older");
  ASSERT_OK(db->AdvanceClock(kLag).status());
  Delete(db.engine.get(), kEast, "a");
  // Long past the retention: east's tombstone must stay, or the older
  // write would bring the item back when the partition heals.
  ASSERT_OK(db->AdvanceClock(600 * kLag).status());
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-east-1").tombstones_collected, 0);

  ASSERT_OK(Heal(db.engine.get(), "us-east-1", "us-west-2"));
  ASSERT_OK(db->AdvanceClock(2 * kLag).status());
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "");
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "");
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-east-1").superseded, 1);
  // Nothing waits any more: both tombstones go.
  ASSERT_OK(db->AdvanceClock(600 * kLag).status());
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-east-1").tombstones_collected, 1);
  EXPECT_EQ(ReplicaIn(db.engine.get(), "us-west-2").tombstones_collected, 1);
}

TEST(ReplicatorTest, RefusesWhatMakesNoSense) {
  TestEngine db(Options());
  MakeGlobal(db);
  EXPECT_THAT(Partition(db.engine.get(), "us-east-1", "us-east-1", 0),
              StatusIs(ErrorCode::kValidation, testing::HasSubstr("itself")));
  EXPECT_THAT(Partition(db.engine.get(), "us-east-1", "moon-1", 0),
              StatusIs(ErrorCode::kValidation, testing::HasSubstr("moon-1")));
  SetReplicationLagRequest lag;
  lag.scope = kEast;
  lag.table_name = "Tab";
  lag.region_name = "eu-west-1";
  EXPECT_THAT(db->SetReplicationLag(lag),
              StatusIs(ErrorCode::kValidation, testing::HasSubstr("no replica in Region eu-west-1")));
  CreateTableRequest plain = SimpleTable("Plain");
  plain.scope = kEast;
  ASSERT_OK(db->CreateTable(plain).status());
  EXPECT_THAT(db->DescribeReplication(kEast, "Plain").status(),
              StatusIs(ErrorCode::kValidation, testing::HasSubstr("not a global table")));
  EXPECT_THAT(db->DescribeReplication(kEast, "Missing").status(),
              StatusIs(ErrorCode::kResourceNotFound, testing::_));
}

}  // namespace
}  // namespace dynarock
