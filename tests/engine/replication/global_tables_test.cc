// Global tables through the Engine (engine/replication/global_tables.cc and
// the replicator it feeds): replicas in another Region's namespace of the
// same access key, the items a replica is created over, replication after
// the lag on the simulated clock, last-writer-wins between Regions
// (deletes included), replica deletion (DELETING until the table is gone),
// DynamoDB's refusals, a restart in the middle of replication, and a crash
// in the middle of a replica's creation.
#include "engine/replication/global_tables.h"

#include <gtest/gtest.h>


#include "engine/engine.h"
#include "engine/util/crash_points.h"
#include "tests/testutil/global_table.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using namespace global_table_test;  // NOLINT: the fixture's vocabulary

TEST(GlobalTablesTest, ReplicaCopiesExistingItemsThenTurnsActive) {
  TestEngine db(Options());
  ASSERT_OK(db->AdvanceClock(10 * kLag).status());
  CreateTableRequest create = SimpleTable("Tab");
  create.scope = kEast;
  ASSERT_OK(db->CreateTable(create).status());
  for (const char* pk : {"a", "b", "c"}) Put(db.engine.get(), kEast, pk, std::string("v-") + pk);
  Delete(db.engine.get(), kEast, "c");  // not global yet: no tombstone to copy

  ASSERT_OK_AND_ASSIGN(
      TableDescription updated,
      Replicas(db.engine.get(), kEast, {Action(ReplicationGroupUpdate::Action::kCreate, "us-west-2")}));
  EXPECT_EQ(updated.global_table_version, "2019.11.21");
  ASSERT_EQ(updated.replicas.size(), 1u);
  EXPECT_EQ(updated.replicas[0].region_name, "us-west-2");
  EXPECT_EQ(updated.replicas[0].replica_status, ReplicaStatus::kCreating);

  // The next call's due work copies the items (stamped before the lag).
  TableDescription east = Describe(db.engine.get(), kEast);
  ASSERT_EQ(east.replicas.size(), 1u);
  EXPECT_EQ(east.replicas[0].replica_status, ReplicaStatus::kActive);
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "v-a");
  EXPECT_EQ(Get(db.engine.get(), kWest, "b"), "v-b");
  EXPECT_EQ(Get(db.engine.get(), kWest, "c"), "");
  // The replica describes its source as its replica, in its own Region.
  TableDescription west = Describe(db.engine.get(), kWest);
  EXPECT_EQ(west.item_count, 2);
  EXPECT_EQ(west.table_arn.find("arn:aws:dynamodb:us-west-2:"), 0u);
  ASSERT_EQ(west.replicas.size(), 1u);
  EXPECT_EQ(west.replicas[0].region_name, "us-east-1");
  EXPECT_EQ(west.global_table_version, "2019.11.21");
}

TEST(GlobalTablesTest, WritesReachTheOtherRegionAfterTheLag) {
  TestEngine db(Options());
  MakeGlobal(db);
  Put(db.engine.get(), kEast, "a", "from-east");
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "");
  ASSERT_OK(db->AdvanceClock(kLag - 1).status());
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "");
  ASSERT_OK(db->AdvanceClock(1).status());
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "from-east");
  // Both ways, deletes too.
  Delete(db.engine.get(), kWest, "a");
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "from-east");
  ASSERT_OK(db->AdvanceClock(kLag).status());
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "");
  // A replicated write is not replicated back (only its Region fans out).
  ASSERT_OK(db->AdvanceClock(10 * kLag).status());
  EXPECT_EQ(Describe(db.engine.get(), kEast).item_count, 0);
  EXPECT_EQ(Describe(db.engine.get(), kWest).item_count, 0);
}

TEST(GlobalTablesTest, ConcurrentWritesConvergeOnTheLastWriter) {
  TestEngine db(Options());
  MakeGlobal(db);
  // The later write wins in both Regions, whichever arrives first.
  Put(db.engine.get(), kWest, "a", "west-first");
  ASSERT_OK(db->AdvanceClock(10).status());
  Put(db.engine.get(), kEast, "a", "east-later");
  // The same microsecond: the greater Region name wins.
  Put(db.engine.get(), kEast, "b", "east-same");
  Put(db.engine.get(), kWest, "b", "west-same");
  ASSERT_OK(db->AdvanceClock(kLag + 10).status());
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "east-later");
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "east-later");
  EXPECT_EQ(Get(db.engine.get(), kEast, "b"), "west-same");
  EXPECT_EQ(Get(db.engine.get(), kWest, "b"), "west-same");
}

TEST(GlobalTablesTest, DeleteRacingAPutFollowsLastWriterWins) {
  TestEngine db(Options());
  MakeGlobal(db);
  Put(db.engine.get(), kEast, "a", "v0");
  Put(db.engine.get(), kEast, "b", "v0");
  ASSERT_OK(db->AdvanceClock(kLag).status());
  ASSERT_EQ(Get(db.engine.get(), kWest, "a"), "v0");
  // a: a put, then a later delete in the other Region: the delete wins.
  Put(db.engine.get(), kEast, "a", "v1");
  // b: a delete, then a later put in the other Region: the put wins.
  Delete(db.engine.get(), kWest, "b");
  ASSERT_OK(db->AdvanceClock(5).status());
  Delete(db.engine.get(), kWest, "a");
  Put(db.engine.get(), kEast, "b", "v2");
  ASSERT_OK(db->AdvanceClock(kLag + 5).status());
  for (const Scope* s : {&kEast, &kWest}) {
    EXPECT_EQ(Get(db.engine.get(), *s, "a"), "") << s->region;
    EXPECT_EQ(Get(db.engine.get(), *s, "b"), "v2") << s->region;
  }
  // The tombstone holds: an older put arriving late does not bring a back.
  EXPECT_EQ(Describe(db.engine.get(), kWest).item_count, 1);
}

TEST(GlobalTablesTest, DeletingTheReplicaEndsReplication) {
  TestEngine db(Options());
  MakeGlobal(db);
  ASSERT_OK_AND_ASSIGN(
      TableDescription d,
      Replicas(db.engine.get(), kEast, {Action(ReplicationGroupUpdate::Action::kDelete, "us-west-2")}));
  EXPECT_TRUE(d.replicas.empty());
  EXPECT_EQ(d.global_table_version, "");
  ASSERT_OK(db->AdvanceClock(1).status());
  DescribeTableRequest west;
  west.scope = kWest;
  west.table_name = "Tab";
  EXPECT_EQ(db->DescribeTable(west).status().code(), ErrorCode::kResourceNotFound);
  Put(db.engine.get(), kEast, "a", "alone");
  ASSERT_OK(db->AdvanceClock(kLag).status());
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "alone");
  // A replica can be created again.
  ASSERT_OK(Replicas(db.engine.get(), kEast,
                     {Action(ReplicationGroupUpdate::Action::kCreate, "us-west-2")})
                .status());
  ASSERT_OK(db->AdvanceClock(1).status());
  EXPECT_EQ(Get(db.engine.get(), kWest, "a"), "alone");
}

// A replica being deleted shows DELETING in the other Regions until its
// table is gone (the delete delay, on the clock), as a new one shows
// CREATING; nothing replicates to it meanwhile, and the changes that were
// on their way to it are dropped.
TEST(GlobalTablesTest, ADeletedReplicaShowsDeletingUntilItIsGone) {
  EngineOptions options = Options();
  options.table_delete_delay_micros = 5 * kLag;
  TestEngine db(options);
  MakeGlobal(db);
  ASSERT_OK(db->AdvanceClock(kLag).status());
  Put(db.engine.get(), kEast, "a", "on-its-way");
  ASSERT_OK_AND_ASSIGN(ReplicationDescription before, db->DescribeReplication(kEast, "Tab"));
  ASSERT_EQ(before.replicas.size(), 2u);
  EXPECT_EQ(before.replicas[1].pending_records, 1);

  ASSERT_OK_AND_ASSIGN(
      TableDescription d,
      Replicas(db.engine.get(), kEast, {Action(ReplicationGroupUpdate::Action::kDelete, "us-west-2")}));
  ASSERT_EQ(d.replicas.size(), 1u);
  EXPECT_EQ(d.replicas[0].region_name, "us-west-2");
  EXPECT_EQ(d.replicas[0].replica_status, ReplicaStatus::kDeleting);
  EXPECT_EQ(d.global_table_version, "2019.11.21");
  // Its pending change went with it: the east is alone in the group.
  ASSERT_OK_AND_ASSIGN(ReplicationDescription after, db->DescribeReplication(kEast, "Tab"));
  ASSERT_EQ(after.replicas.size(), 1u);
  EXPECT_EQ(after.replicas[0].region_name, "us-east-1");
  EXPECT_EQ(after.replicas[0].pending_records, 0);
  // Still DELETING while the delay runs; no item reaches the west table.
  ASSERT_OK(db->AdvanceClock(2 * kLag).status());
  TableDescription east = Describe(db.engine.get(), kEast);
  ASSERT_EQ(east.replicas.size(), 1u);
  EXPECT_EQ(east.replicas[0].replica_status, ReplicaStatus::kDeleting);
  // A Delete of it again is refused: it is no replica any more.
  EXPECT_THAT(
      Replicas(db.engine.get(), kEast, {Action(ReplicationGroupUpdate::Action::kDelete, "us-west-2")})
          .status(),
      StatusIs(ErrorCode::kValidation, ::testing::HasSubstr("does not exist")));
  // Gone: the east table is a plain table again.
  ASSERT_OK(db->AdvanceClock(3 * kLag).status());
  east = Describe(db.engine.get(), kEast);
  EXPECT_TRUE(east.replicas.empty());
  EXPECT_EQ(east.global_table_version, "");
  Put(db.engine.get(), kEast, "b", "alone");
  EXPECT_EQ(Get(db.engine.get(), kEast, "b"), "alone");
}

TEST(GlobalTablesTest, ADeletingReplicaStaysDeletingAcrossARestart) {
  DiskDatabase disk("deleting");
  EngineOptions& options = disk.options;
  options.table_delete_delay_micros = 5 * kLag;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ASSERT_OK(db->AdvanceClock(10 * kLag).status());
    CreateTableRequest create = SimpleTable("Tab");
    create.scope = kEast;
    ASSERT_OK(db->CreateTable(create).status());
    ASSERT_OK(Replicas(db.get(), kEast, {Action(ReplicationGroupUpdate::Action::kCreate, "us-west-2")})
                  .status());
    ASSERT_OK(Replicas(db.get(), kEast, {Action(ReplicationGroupUpdate::Action::kDelete, "us-west-2")})
                  .status());
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    TableDescription east = Describe(db.get(), kEast);
    ASSERT_EQ(east.replicas.size(), 1u);
    EXPECT_EQ(east.replicas[0].replica_status, ReplicaStatus::kDeleting);
    ASSERT_OK(db->AdvanceClock(5 * kLag).status());
    EXPECT_TRUE(Describe(db.get(), kEast).replicas.empty());
  }
  {
    // The records are gone too: the east is a plain table after a restart.
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    TableDescription east = Describe(db.get(), kEast);
    EXPECT_TRUE(east.replicas.empty());
    EXPECT_EQ(east.global_table_version, "");
  }
}

TEST(GlobalTablesTest, DeleteTableOfAReplicaLeavesTheOthers) {
  TestEngine db(Options());
  MakeGlobal(db);
  DeleteTableRequest del;
  del.scope = kWest;
  del.table_name = "Tab";
  ASSERT_OK(db->DeleteTable(del).status());
  TableDescription east = Describe(db.engine.get(), kEast);
  EXPECT_TRUE(east.replicas.empty());
  Put(db.engine.get(), kEast, "a", "alone");
  EXPECT_EQ(Get(db.engine.get(), kEast, "a"), "alone");
}

TEST(GlobalTablesTest, RefusesWhatDynamoDbRefuses) {
  TestEngine db(Options());
  MakeGlobal(db);
  using A = ReplicationGroupUpdate::Action;
  EXPECT_THAT(Replicas(db.engine.get(), kEast, {Action(A::kCreate, "us-east-1")}).status(),
              StatusIs(ErrorCode::kValidation,
                       "Cannot add, delete, or update the local region through ReplicaUpdates. "
                       "Use CreateTable, DeleteTable, or UpdateTable as required."));
  EXPECT_THAT(Replicas(db.engine.get(), kEast, {Action(A::kCreate, "moon-1")}).status(),
              StatusIs(ErrorCode::kValidation, testing::HasSubstr("moon-1")));
  EXPECT_THAT(Replicas(db.engine.get(), kEast, {Action(A::kCreate, "us-west-2")}).status(),
              StatusIs(ErrorCode::kValidation, testing::HasSubstr("already existed")));
  EXPECT_THAT(Replicas(db.engine.get(), kEast, {Action(A::kDelete, "eu-west-1")}).status(),
              StatusIs(ErrorCode::kValidation, testing::HasSubstr("eu-west-1")));
  // A table of the name already in the other Region.
  CreateTableRequest other = SimpleTable("Tab");
  other.scope = In("eu-west-1");
  ASSERT_OK(db->CreateTable(other).status());
  EXPECT_THAT(Replicas(db.engine.get(), kEast, {Action(A::kCreate, "eu-west-1")}).status(),
              StatusIs(ErrorCode::kValidation, testing::HasSubstr("already existed")));
  // No table.
  UpdateTableRequest missing;
  missing.scope = kEast;
  missing.table_name = "Nope";
  missing.replica_updates = {Action(A::kCreate, "eu-west-2")};
  EXPECT_EQ(db->UpdateTable(missing).status().code(), ErrorCode::kResourceNotFound);
  // The shared namespace has no Regions of its own.
  CreateTableRequest shared = SimpleTable("Tab");
  ASSERT_OK(db->CreateTable(shared).status());
  UpdateTableRequest in_shared;
  in_shared.table_name = "Tab";
  in_shared.replica_updates = {Action(A::kCreate, "eu-west-2")};
  EXPECT_EQ(db->UpdateTable(in_shared).status().code(), ErrorCode::kValidation);
}

TEST(GlobalTablesTest, ARestartMidReplicationLosesNothingAndAppliesNothingTwice) {
  DiskDatabase disk("global");
  EngineOptions& options = disk.options;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ASSERT_OK(db->AdvanceClock(10 * kLag).status());
    CreateTableRequest create = SimpleTable("Tab");
    create.scope = kEast;
    create.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
    ASSERT_OK(db->CreateTable(create).status());
    ASSERT_OK(Replicas(db.get(), kEast,
                       {Action(ReplicationGroupUpdate::Action::kCreate, "us-west-2")})
                  .status());
    Put(db.get(), kEast, "a", "one");
    ASSERT_OK(db->AdvanceClock(kLag).status());  // a reaches the west
    Put(db.get(), kEast, "b", "two");             // b does not, before the restart
    ASSERT_EQ(Get(db.get(), kWest, "b"), "");
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    EXPECT_EQ(Describe(db.get(), kEast).replicas.size(), 1u);
    EXPECT_EQ(Get(db.get(), kWest, "b"), "");
    ASSERT_OK(db->AdvanceClock(kLag).status());
    EXPECT_EQ(Get(db.get(), kWest, "a"), "one");
    EXPECT_EQ(Get(db.get(), kWest, "b"), "two");
    ASSERT_OK(db->AdvanceClock(10 * kLag).status());
    // The replica's stream holds each replicated change once.
    std::vector<StreamRecord> records = StreamRecords(db.get(), kWest);
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].event_name, StreamEventName::kInsert);
    EXPECT_EQ(records[1].event_name, StreamEventName::kInsert);
    // Replication goes on after the restart, both ways.
    Put(db.get(), kWest, "c", "three");
    ASSERT_OK(db->AdvanceClock(kLag).status());
    EXPECT_EQ(Get(db.get(), kEast, "c"), "three");
  }
}


// Creating a replica is several writes (the intent to join, the table, the
// copy and the membership). A crash between them (a crash point: the call
// stops there, as a killed process would, and the database is opened
// again) is finished at the next open when the table was made, and
// forgotten when it was not; either way no table is left outside its group.
class ReplicaCreationCrashTest : public ::testing::Test {
 protected:
  void TearDown() override { DisarmCrashPoints(); }
  // Opens the database, makes "Tab" in us-east-1 with two items, and
  // creates its us-west-2 replica with `point` armed: the call fails there.
  void CrashWhileCreatingTheReplica(const char* point) {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options_));
    ASSERT_OK(db->AdvanceClock(10 * kLag).status());
    CreateTableRequest create = SimpleTable("Tab");
    create.scope = kEast;
    ASSERT_OK(db->CreateTable(create).status());
    Put(db.get(), kEast, "a", "v-a");
    Put(db.get(), kEast, "b", "v-b");
    ArmCrashPoint(point);
    EXPECT_THAT(Replicas(db.get(), kEast,
                         {Action(ReplicationGroupUpdate::Action::kCreate, "us-west-2")})
                    .status(),
                StatusIs(ErrorCode::kInternal, std::string("crash point ") + point));
    DisarmCrashPoints();
  }
  // After the reopen: the west replica is a member with the east's items,
  // and replication goes both ways.
  void ExpectAWholeReplica(Engine* db) {
    TableDescription east = Describe(db, kEast);
    ASSERT_EQ(east.replicas.size(), 1u);
    EXPECT_EQ(east.replicas[0].region_name, "us-west-2");
    ASSERT_OK(db->AdvanceClock(kLag).status());
    EXPECT_EQ(Describe(db, kEast).replicas[0].replica_status, ReplicaStatus::kActive);
    EXPECT_EQ(Get(db, kWest, "a"), "v-a");
    EXPECT_EQ(Get(db, kWest, "b"), "v-b");
    Put(db, kWest, "c", "from-west");
    Put(db, kEast, "d", "from-east");
    ASSERT_OK(db->AdvanceClock(kLag).status());
    EXPECT_EQ(Get(db, kEast, "c"), "from-west");
    EXPECT_EQ(Get(db, kWest, "d"), "from-east");
  }
  DiskDatabase disk_{"join_crash"};
  EngineOptions& options_ = disk_.options;
};

TEST_F(ReplicaCreationCrashTest, AReplicaTableMadeButNotJoinedJoinsAtOpen) {
  CrashWhileCreatingTheReplica("global_tables.replica_table_created");
  ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options_));
  ExpectAWholeReplica(db.get());
}

TEST_F(ReplicaCreationCrashTest, AReplicaWhoseCopyWasCutShortIsCopiedAgainAtOpen) {
  CrashWhileCreatingTheReplica("global_tables.replica_items_copied");
  ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options_));
  ExpectAWholeReplica(db.get());
}

TEST_F(ReplicaCreationCrashTest, AJoinWhoseTableWasNotMadeIsForgottenAtOpen) {
  CrashWhileCreatingTheReplica("global_tables.replica_join_recorded");
  ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options_));
  // No table in the west, and the east is a plain table.
  TableDescription east = Describe(db.get(), kEast);
  EXPECT_TRUE(east.replicas.empty());
  EXPECT_EQ(east.global_table_version, "");
  DescribeTableRequest west;
  west.scope = kWest;
  west.table_name = "Tab";
  EXPECT_EQ(db->DescribeTable(west).status().code(), ErrorCode::kResourceNotFound);
  // The creation can be made again.
  ASSERT_OK(Replicas(db.get(), kEast, {Action(ReplicationGroupUpdate::Action::kCreate, "us-west-2")})
                .status());
  ExpectAWholeReplica(db.get());
}

}  // namespace
}  // namespace dynarock
