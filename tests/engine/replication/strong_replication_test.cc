// Multi-Region strong consistency (engine/replication/strong_replication.h),
// on the simulated clock: a write is in every replica when it returns (no
// clock moves), DynamoDB's creation and deletion rules, the features MRSC
// refuses, ReplicatedWriteConflictException inside a replica's lag, a
// Region cut off from the majority, and a restart.

#include <gtest/gtest.h>

#include <string>
#include <vector>


#include "engine/engine.h"
#include "engine/util/crash_points.h"
#include "tests/testutil/global_table.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using namespace global_table_test;  // NOLINT: the tests' vocabulary

const Scope kOhio = In("us-east-2");
using RAction = ReplicationGroupUpdate::Action;

WitnessUpdate Witness(WitnessUpdate::Action action, const std::string& region) {
  WitnessUpdate w;
  w.action = action;
  w.region_name = region;
  return w;
}

// UpdateTable of "Tab" in us-east-1: MultiRegionConsistency STRONG with
// `replicas` Creates and `witness` (if any).
Result<TableDescription> MakeStrong(Engine* db, std::vector<std::string> replicas,
                                    const std::string& witness = "") {
  UpdateTableRequest req;
  req.scope = kEast;
  req.table_name = "Tab";
  req.multi_region_consistency = MultiRegionConsistency::kStrong;
  req.replica_updates.emplace();
  for (const std::string& r : replicas) req.replica_updates->push_back(Action(RAction::kCreate, r));
  if (!witness.empty()) {
    req.witness_updates = std::vector<WitnessUpdate>{Witness(WitnessUpdate::Action::kCreate, witness)};
  }
  return db->UpdateTable(req);
}

void CreateTab(Engine* db, bool lsi = false, bool stream = false) {
  ASSERT_OK(db->AdvanceClock(10 * kLag).status());
  CreateTableRequest create = SimpleTable("Tab");
  create.scope = kEast;
  if (stream) {
    create.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
  }
  if (lsi) {
    create.attribute_definitions.push_back({"alt", AttrType::kS});
    LocalSecondaryIndexDef l;
    l.index_name = "ByAlt";
    l.key_schema = {{"pk", KeyType::kHash}, {"alt", KeyType::kRange}};
    create.local_secondary_indexes.push_back(l);
  }
  ASSERT_OK(db->CreateTable(create).status());
}

Status PutStatus(Engine* db, const Scope& scope, const std::string& pk, const std::string& v) {
  PutItemRequest req;
  req.scope = scope;
  req.table_name = "Tab";
  req.item = SimpleItem(pk, "1", v);
  return db->PutItem(req).status();
}

Result<GetItemResult> Read(Engine* db, const Scope& scope, const std::string& pk,
                           bool consistent) {
  GetItemRequest req;
  req.scope = scope;
  req.table_name = "Tab";
  req.key = SimpleKey(pk, "1");
  req.consistent_read = consistent;
  return db->GetItem(req);
}

// TransactWriteItems of one Put of "Tab".
Status TransactPut(Engine* db, const Scope& scope) {
  TransactWriteItemsRequest tx;
  tx.scope = scope;
  TransactWriteAction put;
  put.table_name = "Tab";
  put.item = SimpleItem("t", "1");
  tx.actions.push_back(put);
  return db->TransactWriteItems(tx).status();
}

void SetLag(Engine* db, const Scope& caller, const std::string& region, int64_t lag) {
  SetReplicationLagRequest req;
  req.scope = caller;
  req.table_name = "Tab";
  req.region_name = region;
  req.lag_micros = lag;
  ASSERT_OK(db->SetReplicationLag(req));
}

void Partition(Engine* db, const std::string& a, const std::string& b, bool heal = false) {
  PartitionRegionsRequest req;
  req.region_a = a;
  req.region_b = b;
  req.heal = heal;
  ASSERT_OK(db->PartitionRegions(req));
}

TEST(StrongReplicationTest, AWriteIsInEveryReplicaWhenItReturns) {
  TestEngine db(Options());
  CreateTab(db.engine.get());
  ASSERT_OK_AND_ASSIGN(TableDescription d, MakeStrong(db.engine.get(), {"us-east-2", "us-west-2"}));
  EXPECT_EQ(d.multi_region_consistency, MultiRegionConsistency::kStrong);
  EXPECT_EQ(d.replicas.size(), 2u);
  EXPECT_TRUE(d.global_table_witnesses.empty());
  EXPECT_EQ(Describe(db.engine.get(), kWest).multi_region_consistency,
            MultiRegionConsistency::kStrong);
  // "Streams are not enabled by default on MRSC replicas" (an MREC replica
  // would have enabled NEW_AND_OLD_IMAGES on a table without a stream).
  for (const Scope& scope : {kEast, kWest}) {
    EXPECT_FALSE(Describe(db.engine.get(), scope).stream_specification.has_value());
  }

  // No clock moves: the write is in every Region when PutItem returns.
  Put(db.engine.get(), kEast, "a", "one");
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "one");
  EXPECT_EQ(Get(db.engine.get(), kOhio, "a"), "one");
  ASSERT_OK_AND_ASSIGN(GetItemResult eventual, Read(db.engine.get(), kOhio, "a", false));
  ASSERT_TRUE(eventual.item.has_value());
  Put(db.engine.get(), kWest, "a", "two");
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "two");
  Delete(db.engine.get(), kOhio, "a");
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "");
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "");

  // A conditional write sees the latest version, wherever it was written.
  Put(db.engine.get(), kEast, "c", "east");
  PutItemRequest cond;
  cond.scope = kWest;
  cond.table_name = "Tab";
  cond.item = SimpleItem("c", "1", "west");
  cond.condition.condition_expression = "attribute_not_exists(pk)";
  EXPECT_EQ(db->PutItem(cond).status().code(), ErrorCode::kConditionalCheckFailed);

  // BatchWriteItem reaches every replica too.
  BatchWriteItemRequest batch;
  batch.scope = kOhio;
  WriteRequest w1, w2;
  w1.put_item = SimpleItem("b1", "1", "x1");
  w2.put_item = SimpleItem("b2", "1", "x2");
  batch.request_items.push_back({"Tab", {w1, w2}});
  ASSERT_OK(db->BatchWriteItem(batch).status());
  EXPECT_EQ(Get(db.engine.get(), kEast, "b1"), "x1");
  EXPECT_EQ(Get(db.engine.get(), kWest, "b2"), "x2");

  // Nothing waits in a replication log: the replicas hold it all.
  ASSERT_OK_AND_ASSIGN(ReplicationDescription rep, db->DescribeReplication(kEast, "Tab"));
  for (const auto& r : rep.replicas) EXPECT_EQ(r.pending_records, 0) << r.region_name;
}

TEST(StrongReplicationTest, EachReplicaIsChargedAndStreamsTheSameRecords) {
  TestEngine db(Options());
  CreateTab(db.engine.get(), /*lsi=*/false, /*stream=*/true);
  ASSERT_OK(MakeStrong(db.engine.get(), {"us-east-2", "us-west-2"}).status());
  Put(db.engine.get(), kEast, "a", "one");
  Put(db.engine.get(), kWest, "a", "two");
  Delete(db.engine.get(), kOhio, "a");
  // Every replica's own partitions paid for every write, wherever it was
  // made (3 writes of 1 unit each).
  for (const Scope& scope : {kEast, kOhio, kWest}) {
    ASSERT_OK_AND_ASSIGN(TableThroughputStats stats, db->DescribeCapacity(scope, "Tab"));
    EXPECT_DOUBLE_EQ(stats.table.total.consumed_write_units, 3) << scope.region;
  }
  // Each replica's stream holds the same changes in the same order.
  for (const Scope& scope : {kEast, kOhio, kWest}) {
    std::vector<StreamRecord> records = StreamRecords(db.engine.get(), scope);
    ASSERT_EQ(records.size(), 3u) << scope.region;
    EXPECT_EQ(records[0].event_name, StreamEventName::kInsert);
    EXPECT_EQ(records[1].event_name, StreamEventName::kModify);
    EXPECT_EQ(records[2].event_name, StreamEventName::kRemove);
  }
}

TEST(StrongReplicationTest, TwoReplicasAndAWitness) {
  TestEngine db(Options());
  CreateTab(db.engine.get());
  ASSERT_OK_AND_ASSIGN(TableDescription d,
                       MakeStrong(db.engine.get(), {"us-west-2"}, "us-east-2"));
  EXPECT_EQ(d.replicas.size(), 1u);
  ASSERT_EQ(d.global_table_witnesses.size(), 1u);
  EXPECT_EQ(d.global_table_witnesses[0].region_name, "us-east-2");
  EXPECT_EQ(d.global_table_witnesses[0].witness_status, "ACTIVE");
  Put(db.engine.get(), kWest, "a", "one");
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "one");
  // The witness holds no table a client can use.
  EXPECT_EQ(Read(db.engine.get(), kOhio, "a", true).status().code(),
            ErrorCode::kResourceNotFound);

  // A replica alone, or the witness alone, cannot be deleted; both can.
  UpdateTableRequest del;
  del.scope = kEast;
  del.table_name = "Tab";
  del.replica_updates = std::vector<ReplicationGroupUpdate>{Action(RAction::kDelete, "us-west-2")};
  EXPECT_EQ(db->UpdateTable(del).status().code(), ErrorCode::kValidation);
  UpdateTableRequest witness_only;
  witness_only.scope = kEast;
  witness_only.table_name = "Tab";
  witness_only.witness_updates =
      std::vector<WitnessUpdate>{Witness(WitnessUpdate::Action::kDelete, "us-east-2")};
  EXPECT_EQ(db->UpdateTable(witness_only).status().code(), ErrorCode::kValidation);
  del.witness_updates = witness_only.witness_updates;
  ASSERT_OK_AND_ASSIGN(TableDescription plain, db->UpdateTable(del));
  EXPECT_TRUE(plain.replicas.empty());
  EXPECT_FALSE(plain.multi_region_consistency.has_value());
  EXPECT_TRUE(plain.global_table_witnesses.empty());
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "one");
  // A plain table again: transactions are served.
  EXPECT_OK(TransactPut(db.engine.get(), kEast));
}

TEST(StrongReplicationTest, ThreeReplicasLeaveByTwo) {
  TestEngine db(Options());
  CreateTab(db.engine.get());
  ASSERT_OK(MakeStrong(db.engine.get(), {"us-east-2", "us-west-2"}).status());
  UpdateTableRequest del;
  del.scope = kEast;
  del.table_name = "Tab";
  del.replica_updates = std::vector<ReplicationGroupUpdate>{Action(RAction::kDelete, "us-west-2")};
  EXPECT_EQ(db->UpdateTable(del).status().code(), ErrorCode::kValidation);
  // Adding a replica to an MRSC global table is refused.
  UpdateTableRequest add = del;
  add.replica_updates = std::vector<ReplicationGroupUpdate>{Action(RAction::kCreate, "eu-west-1")};
  EXPECT_EQ(db->UpdateTable(add).status().code(), ErrorCode::kValidation);
  // DeleteTable of one replica would leave two Regions.
  DeleteTableRequest drop;
  drop.scope = kWest;
  drop.table_name = "Tab";
  EXPECT_EQ(db->DeleteTable(drop).status().code(), ErrorCode::kValidation);
  del.replica_updates->push_back(Action(RAction::kDelete, "us-east-2"));
  ASSERT_OK_AND_ASSIGN(TableDescription plain, db->UpdateTable(del));
  EXPECT_TRUE(plain.replicas.empty());
  EXPECT_FALSE(plain.multi_region_consistency.has_value());
  Put(db.engine.get(), kEast, "a", "one");
  EXPECT_EQ(Read(db.engine.get(), kWest, "a", true).status().code(),
            ErrorCode::kResourceNotFound);
}

TEST(StrongReplicationTest, RefusesWhatDynamoDbRefuses) {
  TestEngine db(Options());
  CreateTab(db.engine.get());
  Engine* e = db.engine.get();
  auto code = [](const Result<TableDescription>& r) { return r.status().code(); };
  // Exactly three Regions.
  EXPECT_EQ(code(MakeStrong(e, {"us-west-2"})), ErrorCode::kValidation);
  EXPECT_EQ(code(MakeStrong(e, {"us-west-2", "us-east-2"}, "eu-west-1")), ErrorCode::kValidation);
  // The witness in a Region of its own.
  EXPECT_EQ(code(MakeStrong(e, {"us-west-2"}, "us-west-2")), ErrorCode::kValidation);
  EXPECT_EQ(code(MakeStrong(e, {"us-west-2"}, "us-east-1")), ErrorCode::kValidation);
  // Only the Regions that offer MRSC.
  EXPECT_EQ(code(MakeStrong(e, {"us-west-2", "sa-east-1"})), ErrorCode::kValidation);
  // A witness without STRONG; STRONG without a Create.
  UpdateTableRequest w;
  w.scope = kEast;
  w.table_name = "Tab";
  w.witness_updates = std::vector<WitnessUpdate>{Witness(WitnessUpdate::Action::kCreate, "us-east-2")};
  w.replica_updates = std::vector<ReplicationGroupUpdate>{Action(RAction::kCreate, "us-west-2")};
  EXPECT_EQ(code(db->UpdateTable(w)), ErrorCode::kValidation);
  UpdateTableRequest strong_alone;
  strong_alone.scope = kEast;
  strong_alone.table_name = "Tab";
  strong_alone.multi_region_consistency = MultiRegionConsistency::kStrong;
  EXPECT_EQ(code(db->UpdateTable(strong_alone)), ErrorCode::kValidation);
  // The table must be empty.
  Put(e, kEast, "a", "one");
  EXPECT_EQ(code(MakeStrong(e, {"us-west-2", "us-east-2"})), ErrorCode::kValidation);
  Delete(e, kEast, "a");
  // Time to Live on the table.
  UpdateTimeToLiveRequest ttl;
  ttl.scope = kEast;
  ttl.table_name = "Tab";
  ttl.specification = TimeToLiveSpecification{true, "expires"};
  ASSERT_OK(db->UpdateTimeToLive(ttl).status());
  EXPECT_EQ(code(MakeStrong(e, {"us-west-2", "us-east-2"})), ErrorCode::kValidation);
  // None of it made a global table.
  EXPECT_TRUE(Describe(e, kEast).replicas.empty());
  EXPECT_EQ(Read(e, kWest, "a", true).status().code(), ErrorCode::kResourceNotFound);
}

TEST(StrongReplicationTest, RefusesLsisTransactionsTtlAndAModeChange) {
  {
    TestEngine db(Options());
    CreateTab(db.engine.get(), /*lsi=*/true);
    EXPECT_EQ(MakeStrong(db.engine.get(), {"us-west-2", "us-east-2"}).status().code(),
              ErrorCode::kValidation);
  }
  {
    // An MREC global table keeps its mode.
    TestEngine db(Options());
    MakeGlobal(db);
    EXPECT_EQ(MakeStrong(db.engine.get(), {"us-east-2"}, "eu-west-1").status().code(),
              ErrorCode::kValidation);
    EXPECT_EQ(Describe(db.engine.get(), kEast).multi_region_consistency,
              MultiRegionConsistency::kEventual);
  }
  TestEngine db(Options());
  CreateTab(db.engine.get());
  ASSERT_OK(MakeStrong(db.engine.get(), {"us-east-2", "us-west-2"}).status());
  EXPECT_EQ(TransactPut(db.engine.get(), kWest).code(), ErrorCode::kValidation);
  TransactGetItemsRequest tg;
  tg.scope = kEast;
  TransactGetAction get;
  get.table_name = "Tab";
  get.key = SimpleKey("t", "1");
  tg.actions.push_back(get);
  EXPECT_EQ(db->TransactGetItems(tg).status().code(), ErrorCode::kValidation);
  UpdateTimeToLiveRequest ttl;
  ttl.scope = kOhio;
  ttl.table_name = "Tab";
  ttl.specification = TimeToLiveSpecification{true, "expires"};
  EXPECT_EQ(db->UpdateTimeToLive(ttl).status().code(), ErrorCode::kValidation);
  EXPECT_EQ(Get(db.engine.get(), kEast, "t"), "");
}

TEST(StrongReplicationTest, AWriteInFlightFromAnotherRegionIsAConflict) {
  TestEngine db(Options());
  CreateTab(db.engine.get());
  ASSERT_OK(MakeStrong(db.engine.get(), {"us-east-2", "us-west-2"}).status());
  // Without a lag set, writes of one item from two Regions just follow
  // each other.
  Put(db.engine.get(), kEast, "a", "1");
  Put(db.engine.get(), kWest, "a", "2");
  // us-west-2 is 200 ms away: a write stays in flight that long.
  SetLag(db.engine.get(), kEast, "us-west-2", 200'000);
  Put(db.engine.get(), kEast, "a", "3");
  const Status conflict = PutStatus(db.engine.get(), kOhio, "a", "4");
  EXPECT_EQ(conflict.code(), ErrorCode::kReplicatedWriteConflict);
  EXPECT_EQ(ErrorCodeName(conflict.code()), "ReplicatedWriteConflictException");
  EXPECT_EQ(Get(db.engine.get(), kOhio, "a"), "3");  // nothing of it written
  // Its own Region writes on, and other items are free.
  EXPECT_OK(PutStatus(db.engine.get(), kEast, "a", "5"));
  EXPECT_OK(PutStatus(db.engine.get(), kOhio, "b", "x"));
  ASSERT_OK(db->AdvanceClock(150'000).status());
  EXPECT_EQ(PutStatus(db.engine.get(), kOhio, "a", "6").code(),
            ErrorCode::kReplicatedWriteConflict);
  // Once the write has reached every Region, a retry succeeds.
  ASSERT_OK(db->AdvanceClock(100'000).status());
  EXPECT_OK(PutStatus(db.engine.get(), kOhio, "a", "6"));
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "6");
  // A write from us-west-2 is in flight for the largest lag of the others:
  // none is set, so us-east-1 may write at once.
  EXPECT_OK(PutStatus(db.engine.get(), kWest, "c", "w"));
  EXPECT_OK(PutStatus(db.engine.get(), kEast, "c", "e"));
}

TEST(StrongReplicationTest, ARegionCutOffFromTheMajorityCannotWrite) {
  TestEngine db(Options());
  CreateTab(db.engine.get());
  ASSERT_OK(MakeStrong(db.engine.get(), {"us-west-2"}, "us-east-2").status());
  // Cut from the witness only: us-east-1 still reaches us-west-2.
  Partition(db.engine.get(), "us-east-1", "us-east-2");
  EXPECT_OK(PutStatus(db.engine.get(), kEast, "a", "1"));
  // Cut from both: us-east-1 is alone.
  Partition(db.engine.get(), "us-east-1", "us-west-2");
  EXPECT_EQ(PutStatus(db.engine.get(), kEast, "a", "2").code(), ErrorCode::kServiceUnavailable);
  EXPECT_EQ(Read(db.engine.get(), kEast, "a", true).status().code(),
            ErrorCode::kServiceUnavailable);
  ASSERT_OK_AND_ASSIGN(GetItemResult eventual, Read(db.engine.get(), kEast, "a", false));
  ASSERT_TRUE(eventual.item.has_value());
  // us-west-2 and the witness are the majority: they go on.
  EXPECT_OK(PutStatus(db.engine.get(), kWest, "a", "3"));
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "3");
  Partition(db.engine.get(), "us-east-1", "us-west-2", /*heal=*/true);
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "3");
  EXPECT_OK(PutStatus(db.engine.get(), kEast, "a", "4"));
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "4");
}

TEST(StrongReplicationTest, TheModeSurvivesARestart) {
  DiskDatabase disk("strong");
  EngineOptions& options = disk.options;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    CreateTab(db.get());
    ASSERT_OK(MakeStrong(db.get(), {"us-west-2"}, "eu-west-1").status());
    Put(db.get(), kEast, "a", "one");
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    TableDescription d = Describe(db.get(), kWest);
    EXPECT_EQ(d.multi_region_consistency, MultiRegionConsistency::kStrong);
    ASSERT_EQ(d.global_table_witnesses.size(), 1u);
    EXPECT_EQ(d.global_table_witnesses[0].region_name, "eu-west-1");
    EXPECT_EQ(Get(db.get(), kWest, "a"), "one");
    Put(db.get(), kWest, "b", "two");
    EXPECT_EQ(Get(db.get(), kEast, "b"), "two");  // still synchronous
    EXPECT_EQ(TransactPut(db.get(), kEast).code(), ErrorCode::kValidation);
  }
}

// A crash after the replicas were made, before their records: the next
// open makes them strong from the source's.
TEST(StrongReplicationTest, ACrashDuringTheCreationLeavesAStrongGlobalTable) {
  DiskDatabase disk("strong_crash");
  EngineOptions& options = disk.options;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    CreateTab(db.get());
    ArmCrashPoint("strong_replicas_created");
    EXPECT_THAT(MakeStrong(db.get(), {"us-east-2", "us-west-2"}).status(),
                StatusIs(ErrorCode::kInternal, "crash point strong_replicas_created"));
    DisarmCrashPoints();
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    for (const Scope& scope : {kEast, kOhio, kWest}) {
      EXPECT_EQ(Describe(db.get(), scope).multi_region_consistency,
                MultiRegionConsistency::kStrong) << scope.region;
    }
    Put(db.get(), kOhio, "a", "one");
    EXPECT_EQ(Get(db.get(), kEast, "a"), "one");  // synchronous, not replicated later
    EXPECT_EQ(Get(db.get(), kWest, "a"), "one");
  }
}

}  // namespace
}  // namespace dynarock
