// A global table's settings across its replicas, through the Engine
// (engine/replication/replica_settings.cc): a replica's read overrides
// (ReplicaUpdates' ProvisionedThroughputOverride, OnDemandThroughputOverride,
// GlobalSecondaryIndexes) enforced by its own table and listed in Replicas;
// the settings DynamoDB synchronizes (write capacity, GSIs, Time to Live,
// ...) reaching every replica from an UpdateTable / UpdateTimeToLive of
// any of them, on the simulated clock, with the replica UPDATING while its
// change settles; overrides kept across a restart.
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

using namespace global_table_test;  // NOLINT: the fixture's vocabulary

// A provisioned "Tab" (pk S, sk N) in us-east-1 with `rcu` read and 5
// write units, and GSI "ByPayload" (payload S) with 10 / 5.
void CreateProvisioned(Engine* db, int64_t rcu) {
  ASSERT_OK(db->AdvanceClock(10 * kLag).status());
  CreateTableRequest create = SimpleTable("Tab");
  create.scope = kEast;
  create.billing_mode = BillingMode::kProvisioned;
  create.provisioned_throughput = ProvisionedThroughput{rcu, 5};
  create.attribute_definitions.push_back({"payload", AttrType::kS});
  GlobalSecondaryIndexDef gsi;
  gsi.index_name = "ByPayload";
  gsi.key_schema = {{"payload", KeyType::kHash}};
  gsi.provisioned_throughput = ProvisionedThroughput{10, 5};
  create.global_secondary_indexes.push_back(gsi);
  ASSERT_OK(db->CreateTable(create).status());
}

ReplicationGroupUpdate CreateWest() {
  return Action(ReplicationGroupUpdate::Action::kCreate, "us-west-2");
}

const GlobalSecondaryIndexDescription* Gsi(const TableDescription& d, const std::string& name) {
  for (const auto& g : d.global_secondary_indexes) {
    if (g.def.index_name == name) return &g;
  }
  return nullptr;
}

// Strongly consistent GetItems of one item in `scope` until one is
// throttled, at most `limit`: how many were served.
int ReadsUntilThrottled(Engine* db, const Scope& scope, int limit) {
  GetItemRequest req;
  req.scope = scope;
  req.table_name = "Tab";
  req.key = SimpleKey("a", "1");
  req.consistent_read = true;
  for (int i = 0; i < limit; ++i) {
    Result<GetItemResult> got = db->GetItem(req);
    if (!got.ok()) {
      EXPECT_EQ(got.status().code(), ErrorCode::kProvisionedThroughputExceeded);
      return i;
    }
  }
  return limit;
}

EngineOptions Throttled() {
  EngineOptions o = Options();
  o.throttling = true;
  return o;
}

TEST(ReplicaSettingsTest, ReadCapacityOverrideThrottlesOnlyItsReplica) {
  TestEngine db(Throttled());
  CreateProvisioned(db.engine.get(), 1000);
  Put(db.engine.get(), kEast, "a", "p");
  ReplicationGroupUpdate create = CreateWest();
  create.read_override.read_capacity_units = 1;
  ASSERT_OK(Replicas(db.engine.get(), kEast, {create}).status());
  ASSERT_OK(db->AdvanceClock(kLag).status());
  ASSERT_EQ(Get(db.engine.get(), kWest, "a"), "p");

  // The replica's own table has the override's read units and the
  // synchronized write units; Replicas lists the override.
  TableDescription west = Describe(db.engine.get(), kWest);
  EXPECT_EQ(west.provisioned_throughput.read_capacity_units, 1);
  EXPECT_EQ(west.provisioned_throughput.write_capacity_units, 5);
  ASSERT_NE(Gsi(west, "ByPayload"), nullptr);
  EXPECT_EQ(Gsi(west, "ByPayload")->provisioned_throughput.read_capacity_units, 10);
  TableDescription east = Describe(db.engine.get(), kEast);
  ASSERT_EQ(east.replicas.size(), 1u);
  EXPECT_EQ(east.replicas[0].read_override.read_capacity_units, std::optional<int64_t>(1));
  EXPECT_TRUE(east.replicas[0].global_secondary_indexes.empty());
  // us-east-1 has no override of its own.
  ASSERT_EQ(west.replicas.size(), 1u);
  EXPECT_TRUE(west.replicas[0].read_override.empty());

  // One read unit a second (a bucket of 300 s) throttles the replica's
  // reads; the source's 1,000 serve the same reads.
  const int served_west = ReadsUntilThrottled(db.engine.get(), kWest, 1000);
  EXPECT_GE(served_west, 290);
  EXPECT_LE(served_west, 310);
  EXPECT_EQ(ReadsUntilThrottled(db.engine.get(), kEast, 1000), 1000);
}

TEST(ReplicaSettingsTest, IndexAndOnDemandOverrides) {
  TestEngine db(Options());
  CreateProvisioned(db.engine.get(), 20);
  ReplicationGroupUpdate create = CreateWest();
  create.global_secondary_indexes.push_back(ReplicaIndexOverride{"ByPayload", {3, std::nullopt}});
  ASSERT_OK(Replicas(db.engine.get(), kEast, {create}).status());
  EXPECT_EQ(Gsi(Describe(db.engine.get(), kWest), "ByPayload")
                ->provisioned_throughput.read_capacity_units, 3);
  TableDescription east = Describe(db.engine.get(), kEast);
  ASSERT_EQ(east.replicas.size(), 1u);
  ASSERT_EQ(east.replicas[0].global_secondary_indexes.size(), 1u);
  EXPECT_EQ(east.replicas[0].global_secondary_indexes[0].index_name, "ByPayload");
  EXPECT_EQ(east.replicas[0].global_secondary_indexes[0].read.read_capacity_units,
            std::optional<int64_t>(3));

  // Update: the table's read units and the index's again, in one call.
  ReplicationGroupUpdate update = Action(ReplicationGroupUpdate::Action::kUpdate, "us-west-2");
  update.read_override.read_capacity_units = 7;
  update.global_secondary_indexes.push_back(ReplicaIndexOverride{"ByPayload", {4, std::nullopt}});
  ASSERT_OK(Replicas(db.engine.get(), kEast, {update}).status());
  TableDescription west = Describe(db.engine.get(), kWest);
  EXPECT_EQ(west.provisioned_throughput.read_capacity_units, 7);
  EXPECT_EQ(west.provisioned_throughput.write_capacity_units, 5);
  EXPECT_EQ(Gsi(west, "ByPayload")->provisioned_throughput.read_capacity_units, 4);
  EXPECT_EQ(Gsi(west, "ByPayload")->provisioned_throughput.write_capacity_units, 5);
  EXPECT_EQ(Describe(db.engine.get(), kEast).provisioned_throughput.read_capacity_units, 20);

  // Refusals: an unknown index, an on-demand override of a provisioned table.
  ReplicationGroupUpdate unknown = Action(ReplicationGroupUpdate::Action::kUpdate, "us-west-2");
  unknown.global_secondary_indexes.push_back(ReplicaIndexOverride{"Nope", {2, std::nullopt}});
  EXPECT_EQ(Replicas(db.engine.get(), kEast, {unknown}).status().code(),
            ErrorCode::kResourceNotFound);
  ReplicationGroupUpdate on_demand = Action(ReplicationGroupUpdate::Action::kUpdate, "us-west-2");
  on_demand.read_override.max_read_request_units = 100;
  Status refused = Replicas(db.engine.get(), kEast, {on_demand}).status();
  EXPECT_EQ(refused.code(), ErrorCode::kValidation);
  EXPECT_NE(refused.message().find("OnDemandThroughputOverride"), std::string::npos);
}

TEST(ReplicaSettingsTest, OnDemandMaxReadOverride) {
  TestEngine db(Options());
  ASSERT_OK(db->AdvanceClock(10 * kLag).status());
  CreateTableRequest create = SimpleTable("Tab");
  create.scope = kEast;
  create.on_demand_throughput = OnDemandThroughput{50, 40};
  ASSERT_OK(db->CreateTable(create).status());
  ReplicationGroupUpdate provisioned_override = CreateWest();
  provisioned_override.read_override.read_capacity_units = 5;
  EXPECT_EQ(Replicas(db.engine.get(), kEast, {provisioned_override}).status().code(),
            ErrorCode::kValidation);
  ReplicationGroupUpdate replica = CreateWest();
  replica.read_override.max_read_request_units = 10;
  ASSERT_OK(Replicas(db.engine.get(), kEast, {replica}).status());
  TableDescription west = Describe(db.engine.get(), kWest);
  EXPECT_EQ(west.settings.max_read_request_units, 10);
  EXPECT_EQ(west.settings.max_write_request_units, 40);  // synchronized
  EXPECT_EQ(Describe(db.engine.get(), kEast).replicas[0].read_override.max_read_request_units,
            std::optional<int64_t>(10));
  // A maximum write throughput set on the replica reaches the source.
  UpdateTableRequest u;
  u.scope = kWest;
  u.table_name = "Tab";
  u.on_demand_throughput = OnDemandThroughput{std::nullopt, 30};
  ASSERT_OK(db->UpdateTable(u).status());
  TableDescription east = Describe(db.engine.get(), kEast);
  EXPECT_EQ(east.settings.max_write_request_units, 30);
  EXPECT_EQ(east.settings.max_read_request_units, 50);
  EXPECT_EQ(Describe(db.engine.get(), kWest).settings.max_read_request_units, 10);
}

TEST(ReplicaSettingsTest, WriteCapacityReachesEveryReplicaAndReadCapacityEndsOverrides) {
  EngineOptions options = Options();
  options.table_create_delay_micros = 50'000;  // UPDATING for 50 ms
  TestEngine db(options);
  CreateProvisioned(db.engine.get(), 20);
  ASSERT_OK(db->AdvanceClock(50'000).status());
  ReplicationGroupUpdate create = CreateWest();
  create.read_override.read_capacity_units = 2;
  ASSERT_OK(Replicas(db.engine.get(), kEast, {create}).status());
  ASSERT_OK(db->AdvanceClock(kLag).status());

  // Write units changed in us-west-2 reach us-east-1; each keeps its reads.
  UpdateTableRequest u;
  u.scope = kWest;
  u.table_name = "Tab";
  u.provisioned_throughput = ProvisionedThroughput{2, 9};
  ASSERT_OK(db->UpdateTable(u).status());
  TableDescription east = Describe(db.engine.get(), kEast);
  EXPECT_EQ(east.provisioned_throughput.write_capacity_units, 9);
  EXPECT_EQ(east.provisioned_throughput.read_capacity_units, 20);
  EXPECT_EQ(east.table_status, TableStatus::kUpdating);
  // Each lists the other UPDATING while the change settles, then ACTIVE.
  ASSERT_EQ(east.replicas.size(), 1u);
  EXPECT_EQ(east.replicas[0].replica_status, ReplicaStatus::kUpdating);
  EXPECT_EQ(Describe(db.engine.get(), kWest).replicas[0].replica_status, ReplicaStatus::kUpdating);
  // Another change of a synchronized setting waits for every replica.
  UpdateTableRequest busy = u;
  busy.scope = kEast;
  busy.provisioned_throughput = ProvisionedThroughput{20, 10};
  EXPECT_EQ(db->UpdateTable(busy).status().code(), ErrorCode::kResourceInUse);
  ASSERT_OK(db->AdvanceClock(50'000).status());
  east = Describe(db.engine.get(), kEast);
  EXPECT_EQ(east.table_status, TableStatus::kActive);
  EXPECT_EQ(east.replicas[0].replica_status, ReplicaStatus::kActive);
  EXPECT_EQ(east.replicas[0].read_override.read_capacity_units, std::optional<int64_t>(2));

  // Read units changed in us-east-1 reach us-west-2 and end its override
  // (the developer guide's example: 100 RCU overridden, 300 set elsewhere).
  busy.provisioned_throughput = ProvisionedThroughput{30, 9};
  ASSERT_OK(db->UpdateTable(busy).status());
  TableDescription west = Describe(db.engine.get(), kWest);
  EXPECT_EQ(west.provisioned_throughput.read_capacity_units, 30);
  EXPECT_EQ(west.provisioned_throughput.write_capacity_units, 9);
  EXPECT_TRUE(Describe(db.engine.get(), kEast).replicas[0].read_override.empty());
}

TEST(ReplicaSettingsTest, BillingModeTableClassAndEncryptionReachEveryReplica) {
  TestEngine db(Options());
  CreateProvisioned(db.engine.get(), 20);
  ReplicationGroupUpdate create = CreateWest();
  create.read_override.read_capacity_units = 2;
  ASSERT_OK(Replicas(db.engine.get(), kEast, {create}).status());

  // On demand, from us-west-2: both tables and their GSIs; no read
  // capacity left to override.
  UpdateTableRequest u;
  u.scope = kWest;
  u.table_name = "Tab";
  u.billing_mode = BillingMode::kPayPerRequest;
  ASSERT_OK(db->UpdateTable(u).status());
  TableDescription east = Describe(db.engine.get(), kEast);
  EXPECT_EQ(east.billing_mode, BillingMode::kPayPerRequest);
  EXPECT_TRUE(east.replicas[0].read_override.empty());
  // Back to provisioned, from us-east-1, with the GSI's units.
  u.scope = kEast;
  u.billing_mode = BillingMode::kProvisioned;
  u.provisioned_throughput = ProvisionedThroughput{6, 7};
  GlobalSecondaryIndexUpdate gsi;
  gsi.update = GlobalSecondaryIndexUpdate::UpdateAction{.index_name = "ByPayload"};
  gsi.update->provisioned_throughput = ProvisionedThroughput{4, 3};
  u.global_secondary_index_updates = std::vector<GlobalSecondaryIndexUpdate>{gsi};
  ASSERT_OK(db->UpdateTable(u).status());
  TableDescription west = Describe(db.engine.get(), kWest);
  EXPECT_EQ(west.billing_mode, BillingMode::kProvisioned);
  EXPECT_EQ(west.provisioned_throughput.read_capacity_units, 6);
  EXPECT_EQ(west.provisioned_throughput.write_capacity_units, 7);
  EXPECT_EQ(Gsi(west, "ByPayload")->provisioned_throughput.read_capacity_units, 4);
  EXPECT_EQ(Gsi(west, "ByPayload")->provisioned_throughput.write_capacity_units, 3);

  // The table class (overridable, changed here) and the SSE type.
  UpdateTableRequest table_class;
  table_class.scope = kWest;
  table_class.table_name = "Tab";
  table_class.table_class = TableClass::kStandardInfrequentAccess;
  ASSERT_OK(db->UpdateTable(table_class).status());
  ASSERT_TRUE(Describe(db.engine.get(), kEast).table_class_summary.has_value());
  EXPECT_EQ(Describe(db.engine.get(), kEast).table_class_summary->table_class,
            TableClass::kStandardInfrequentAccess);
  UpdateTableRequest sse;
  sse.scope = kEast;
  sse.table_name = "Tab";
  sse.sse_specification = SseSpecification{true, std::nullopt};
  ASSERT_OK(db->UpdateTable(sse).status());
  ASSERT_TRUE(Describe(db.engine.get(), kWest).sse_description.has_value());
  EXPECT_NE(Describe(db.engine.get(), kWest).sse_description->kms_master_key_arn.find(
                "us-west-2"), std::string::npos);
}

TEST(ReplicaSettingsTest, IndexCreatedOnOneReplicaAppearsOnEvery) {
  TestEngine db(Options());
  MakeGlobal(db);
  Put(db.engine.get(), kEast, "a", "p1");
  ASSERT_OK(db->AdvanceClock(kLag).status());
  ASSERT_EQ(Get(db.engine.get(), kWest, "a"), "p1");

  UpdateTableRequest u;
  u.scope = kWest;
  u.table_name = "Tab";
  u.attribute_definitions = {{"payload", AttrType::kS}};
  GlobalSecondaryIndexUpdate add;
  add.create = GlobalSecondaryIndexDef{};
  add.create->index_name = "ByPayload";
  add.create->key_schema = {{"payload", KeyType::kHash}};
  u.global_secondary_index_updates = std::vector<GlobalSecondaryIndexUpdate>{add};
  ASSERT_OK(db->UpdateTable(u).status());
  ASSERT_OK(db->AdvanceClock(kLag).status());

  // us-east-1 has the index, filled from its own items.
  ASSERT_NE(Gsi(Describe(db.engine.get(), kEast), "ByPayload"), nullptr);
  QueryRequest q;
  q.scope = kEast;
  q.table_name = "Tab";
  q.read.index_name = "ByPayload";
  q.key_condition_expression = "payload = :p";
  q.read.expression_attribute_values = ExpressionAttributeValues{{":p", AttributeValue::S("p1")}};
  ASSERT_OK_AND_ASSIGN(QueryResult found, db->Query(q));
  EXPECT_EQ(found.items.size(), 1u);

  // Deleted on us-east-1: gone from both.
  UpdateTableRequest drop;
  drop.scope = kEast;
  drop.table_name = "Tab";
  GlobalSecondaryIndexUpdate del;
  del.del = GlobalSecondaryIndexUpdate::DeleteAction{"ByPayload"};
  drop.global_secondary_index_updates = std::vector<GlobalSecondaryIndexUpdate>{del};
  ASSERT_OK(db->UpdateTable(drop).status());
  ASSERT_OK(db->AdvanceClock(kLag).status());
  EXPECT_EQ(Gsi(Describe(db.engine.get(), kWest), "ByPayload"), nullptr);
  EXPECT_EQ(Gsi(Describe(db.engine.get(), kEast), "ByPayload"), nullptr);
}

TEST(ReplicaSettingsTest, TimeToLiveReachesEveryReplica) {
  TestEngine db(Options());
  MakeGlobal(db);
  UpdateTimeToLiveRequest ttl;
  ttl.scope = kWest;
  ttl.table_name = "Tab";
  ttl.specification = TimeToLiveSpecification{true, "expires"};
  ASSERT_OK(db->UpdateTimeToLive(ttl).status());
  DescribeTimeToLiveRequest d;
  d.scope = kEast;
  d.table_name = "Tab";
  ASSERT_OK_AND_ASSIGN(TimeToLiveDescription east, db->DescribeTimeToLive(d));
  EXPECT_EQ(east.status, TimeToLiveStatus::kEnabled);
  EXPECT_EQ(east.attribute_name, std::optional<std::string>("expires"));

  // A replica added later takes it with its creation.
  ASSERT_OK(Replicas(db.engine.get(), kEast,
                     {Action(ReplicationGroupUpdate::Action::kCreate, "eu-west-1")})
                .status());
  d.scope = In("eu-west-1");
  ASSERT_OK_AND_ASSIGN(TimeToLiveDescription eu, db->DescribeTimeToLive(d));
  EXPECT_EQ(eu.status, TimeToLiveStatus::kEnabled);

  // Disabled in us-east-1: disabled everywhere.
  ttl.scope = kEast;
  ttl.specification.enabled = false;
  ASSERT_OK(db->UpdateTimeToLive(ttl).status());
  for (const Scope& s : {kWest, In("eu-west-1")}) {
    d.scope = s;
    ASSERT_OK_AND_ASSIGN(TimeToLiveDescription off, db->DescribeTimeToLive(d));
    EXPECT_EQ(off.status, TimeToLiveStatus::kDisabled) << s.region;
  }
}

TEST(ReplicaSettingsTest, OverridesSurviveARestart) {
  DiskDatabase disk("replica_settings_restart");
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(disk.options));
    CreateProvisioned(db.get(), 20);
    ReplicationGroupUpdate create = CreateWest();
    create.read_override.read_capacity_units = 4;
    create.global_secondary_indexes.push_back(
        ReplicaIndexOverride{"ByPayload", {6, std::nullopt}});
    ASSERT_OK(Replicas(db.get(), kEast, {create}).status());
  }
  ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(disk.options));
  TableDescription east = Describe(db.get(), kEast);
  ASSERT_EQ(east.replicas.size(), 1u);
  EXPECT_EQ(east.replicas[0].read_override.read_capacity_units, std::optional<int64_t>(4));
  ASSERT_EQ(east.replicas[0].global_secondary_indexes.size(), 1u);
  EXPECT_EQ(east.replicas[0].global_secondary_indexes[0].read.read_capacity_units,
            std::optional<int64_t>(6));
}

// A replica whose creation a crash cut short after its table was made is
// joined at the next open with the overrides its Create asked for.
TEST(ReplicaSettingsTest, AJoinFinishedAtOpenKeepsItsOverrides) {
  DiskDatabase disk("replica_settings_join");
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(disk.options));
    CreateProvisioned(db.get(), 20);
    ReplicationGroupUpdate create = CreateWest();
    create.read_override.read_capacity_units = 4;
    ArmCrashPoint("global_tables.replica_table_created");
    EXPECT_EQ(Replicas(db.get(), kEast, {create}).status().code(), ErrorCode::kInternal);
    DisarmCrashPoints();
  }
  ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(disk.options));
  TableDescription east = Describe(db.get(), kEast);
  ASSERT_EQ(east.replicas.size(), 1u);
  EXPECT_EQ(east.replicas[0].read_override.read_capacity_units, std::optional<int64_t>(4));
  EXPECT_EQ(Describe(db.get(), kWest).provisioned_throughput.read_capacity_units, 4);
}

}  // namespace
}  // namespace dynarock
