// Global tables version 2017.11.29 through the Engine
// (engine/replication/legacy_global_tables.cc): CreateGlobalTable of empty
// tables in each Region, replication as 2019.11.21 tables replicate, the
// version DescribeTable then reports, ListGlobalTables' filter and pages,
// UpdateGlobalTable's Create and Delete, the settings applied to each
// Region's table, and DynamoDB's refusals.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/engine.h"
#include "tests/testutil/global_table.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using namespace global_table_test;  // NOLINT: the fixture's vocabulary

const Scope kEurope = In("eu-west-1");

// "Tab" in `scope`'s Region, with a NEW_AND_OLD_IMAGES stream unless told.
void CreateTab(Engine* db, const Scope& scope, bool stream = true, const char* name = "Tab") {
  CreateTableRequest create = SimpleTable(name);
  create.scope = scope;
  if (stream) {
    create.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
  }
  ASSERT_OK(db->CreateTable(create).status());
}

Result<GlobalTableDescription> CreateGlobal(Engine* db, const Scope& scope,
                                            std::vector<std::string> regions,
                                            const std::string& name = "Tab") {
  CreateGlobalTableRequest req;
  req.scope = scope;
  req.global_table_name = name;
  req.replication_group = std::move(regions);
  return db->CreateGlobalTable(req);
}

Result<GlobalTableDescription> UpdateGlobal(Engine* db, const Scope& scope, bool create,
                                            const std::string& region) {
  UpdateGlobalTableRequest req;
  req.scope = scope;
  req.global_table_name = "Tab";
  req.replica_updates.push_back({create, region});
  return db->UpdateGlobalTable(req);
}

class LegacyGlobalTablesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(db_->AdvanceClock(10 * kLag).status());
    CreateTab(db(), kEast);
    CreateTab(db(), kWest);
  }
  Engine* db() { return db_.engine.get(); }
  static EngineOptions LegacyOptions() {
    EngineOptions o = Options();
    o.legacy_global_tables = true;
    return o;
  }
  TestEngine db_{LegacyOptions()};
};

// DynamoDB today: no new legacy global table, so none to describe, update
// or list.
TEST(LegacyGlobalTablesOffTest, CreateGlobalTableIsRefusedAsDynamoDBRefusesIt) {
  TestEngine db(Options());
  CreateTab(db.engine.get(), kEast);
  CreateTab(db.engine.get(), kWest);
  Result<GlobalTableDescription> created =
      CreateGlobal(db.engine.get(), kEast, {"us-east-1", "us-west-2"});
  EXPECT_THAT(created.status(),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: DynamoDB global tables "
                       "version 2017.11.29 is not supported. We recommend using DynamoDB "
                       "global tables version 2019.11.21, instead of version 2017.11.29 "
                       "(Legacy)."));
  DescribeGlobalTableRequest describe;
  describe.scope = kEast;
  describe.global_table_name = "Tab";
  EXPECT_EQ(db->DescribeGlobalTable(describe).status().code(), ErrorCode::kGlobalTableNotFound);
  ListGlobalTablesRequest list;
  list.scope = kEast;
  ASSERT_OK_AND_ASSIGN(ListGlobalTablesResult listed, db->ListGlobalTables(list));
  EXPECT_TRUE(listed.global_tables.empty());
  TableDescription east = Describe(db.engine.get(), kEast);
  EXPECT_TRUE(east.global_table_version.empty());
}

TEST_F(LegacyGlobalTablesTest, CreateGlobalTableJoinsTheRegionsTablesAndTheyReplicate) {
  ASSERT_OK_AND_ASSIGN(GlobalTableDescription d,
                       CreateGlobal(db(), kEast, {"us-west-2", "us-east-1"}));
  EXPECT_EQ(d.global_table_name, "Tab");
  EXPECT_EQ(d.global_table_arn, "arn:aws:dynamodb::" + kEast.account + ":global-table/Tab");
  EXPECT_EQ(d.replication_group, (std::vector<std::string>{"us-east-1", "us-west-2"}));
  EXPECT_GT(d.creation_date_time_micros, 0);

  // Each table reports the legacy version and the other Region.
  TableDescription west = Describe(db(), kWest);
  EXPECT_EQ(west.global_table_version, "2017.11.29");
  ASSERT_EQ(west.replicas.size(), 1u);
  EXPECT_EQ(west.replicas[0].region_name, "us-east-1");

  // Replication is the 2019.11.21 one: after the lag, both ways, last
  // writer wins.
  Put(db(), kEast, "a", "from-east");
  EXPECT_EQ(Get(db(), kWest, "a"), "");
  ASSERT_OK(db_->AdvanceClock(kLag).status());
  EXPECT_EQ(Get(db(), kWest, "a"), "from-east");
  Put(db(), kWest, "a", "from-west");
  ASSERT_OK(db_->AdvanceClock(kLag).status());
  EXPECT_EQ(Get(db(), kEast, "a"), "from-west");

  // Described from either Region (the name is the access key's).
  ASSERT_OK_AND_ASSIGN(GlobalTableDescription again,
                       db_->DescribeGlobalTable({kWest, "Tab"}));
  EXPECT_EQ(again.replication_group, d.replication_group);
  EXPECT_EQ(again.global_table_status, GlobalTableStatus::kActive);
}

TEST_F(LegacyGlobalTablesTest, DescribeGlobalTableDoesNotFindA2019Table) {
  DeleteTableRequest del;
  del.scope = kWest;
  del.table_name = "Tab";
  ASSERT_OK(db_->DeleteTable(del).status());
  ASSERT_OK(db_->AdvanceClock(1).status());
  ASSERT_OK(Replicas(db(), kEast, {Action(ReplicationGroupUpdate::Action::kCreate, "us-west-2")})
                .status());
  EXPECT_THAT(db_->DescribeGlobalTable({kEast, "Tab"}).status(),
              StatusIs(ErrorCode::kGlobalTableNotFound,
                       "Global table not found: Global table with name: 'Tab' does not exist."));
  EXPECT_THAT(db_->DescribeGlobalTableSettings({kEast, "Tab"}).status(),
              StatusIs(ErrorCode::kGlobalTableNotFound, ::testing::_));
  // Nor may CreateGlobalTable take a 2019.11.21 replica.
  EXPECT_THAT(CreateGlobal(db(), kEast, {"us-east-1"}).status(),
              StatusIs(ErrorCode::kValidation, ::testing::HasSubstr("2019.11.21")));
}

TEST_F(LegacyGlobalTablesTest, CreateRefusesWhatDynamoDbRefuses) {
  EXPECT_THAT(CreateGlobal(db(), kEast, {"us-east-1", "eu-west-1"}).status(),
              StatusIs(ErrorCode::kTableNotFound,
                       "Table not found: Table: 'Tab' not found in region: 'eu-west-1'."));
  CreateTab(db(), kEurope, /*stream=*/false);
  EXPECT_THAT(CreateGlobal(db(), kEast, {"us-east-1", "eu-west-1"}).status(),
              StatusIs(ErrorCode::kValidation, ::testing::HasSubstr("NEW_AND_OLD_IMAGES")));
  Put(db(), kWest, "a", "x");
  EXPECT_THAT(CreateGlobal(db(), kEast, {"us-east-1", "us-west-2"}).status(),
              StatusIs(ErrorCode::kValidation, ::testing::HasSubstr("must contain no items")));
  EXPECT_THAT(CreateGlobal(db(), kEast, {"us-west-2"}).status(),
              StatusIs(ErrorCode::kValidation, ::testing::HasSubstr("Region of the call")));
  EXPECT_THAT(CreateGlobal(db(), kEast, {"us-east-1", "us-east-1"}).status(),
              StatusIs(ErrorCode::kValidation, ::testing::HasSubstr("more than once")));
  EXPECT_THAT(CreateGlobal(db(), kEast, {"us-east-1", "xx-nowhere-1"}).status(),
              StatusIs(ErrorCode::kValidation, ::testing::HasSubstr("not a valid AWS region")));
  // A refused create joined nothing.
  EXPECT_EQ(Describe(db(), kEast).global_table_version, "");
  ASSERT_OK(CreateGlobal(db(), kEast, {"us-east-1"}).status());
  EXPECT_THAT(CreateGlobal(db(), kEast, {"us-east-1"}).status(),
              StatusIs(ErrorCode::kGlobalTableAlreadyExists, ::testing::_));
  // A legacy table's replicas change through UpdateGlobalTable only.
  EXPECT_THAT(Replicas(db(), kEast, {Action(ReplicationGroupUpdate::Action::kCreate, "eu-west-2")})
                  .status(),
              StatusIs(ErrorCode::kValidation, ::testing::HasSubstr("UpdateGlobalTable")));
}

TEST_F(LegacyGlobalTablesTest, UpdateGlobalTableAddsAndRemovesRegions) {
  ASSERT_OK(CreateGlobal(db(), kEast, {"us-east-1"}).status());
  // A group of one Region is still a global table (a 2019.11.21 one is not).
  EXPECT_EQ(Describe(db(), kEast).global_table_version, "2017.11.29");
  EXPECT_THAT(UpdateGlobal(db(), kEast, true, "us-east-1").status(),
              StatusIs(ErrorCode::kReplicaAlreadyExists, ::testing::_));
  EXPECT_THAT(UpdateGlobal(db(), kEast, false, "us-west-2").status(),
              StatusIs(ErrorCode::kReplicaNotFound, ::testing::_));
  EXPECT_THAT(UpdateGlobal(db(), kEast, true, "eu-west-1").status(),
              StatusIs(ErrorCode::kTableNotFound, ::testing::_));
  ASSERT_OK_AND_ASSIGN(GlobalTableDescription d, UpdateGlobal(db(), kEast, true, "us-west-2"));
  EXPECT_EQ(d.replication_group, (std::vector<std::string>{"us-east-1", "us-west-2"}));
  Put(db(), kEast, "a", "one");
  ASSERT_OK(db_->AdvanceClock(kLag).status());
  EXPECT_EQ(Get(db(), kWest, "a"), "one");

  // Removing a Region keeps its table, no longer global, and ends
  // replication to it.
  ASSERT_OK_AND_ASSIGN(d, UpdateGlobal(db(), kWest, false, "us-west-2"));
  EXPECT_EQ(d.replication_group, (std::vector<std::string>{"us-east-1"}));
  EXPECT_EQ(Describe(db(), kWest).global_table_version, "");
  EXPECT_EQ(Get(db(), kWest, "a"), "one");
  Put(db(), kEast, "b", "two");
  ASSERT_OK(db_->AdvanceClock(kLag).status());
  EXPECT_EQ(Get(db(), kWest, "b"), "");
  // The removed table has an item now: it may not join again.
  EXPECT_THAT(UpdateGlobal(db(), kEast, true, "us-west-2").status(),
              StatusIs(ErrorCode::kValidation, ::testing::HasSubstr("must contain no items")));
}

TEST_F(LegacyGlobalTablesTest, ListGlobalTablesFiltersByRegionAndPages) {
  for (const char* name : {"Alpha", "Beta", "Gamma"}) {
    CreateTab(db(), kEast, true, name);
    ASSERT_OK(CreateGlobal(db(), kEast, {"us-east-1"}, name).status());
  }
  ASSERT_OK(CreateGlobal(db(), kEast, {"us-east-1", "us-west-2"}).status());
  ListGlobalTablesRequest req;
  req.scope = kEast;
  ASSERT_OK_AND_ASSIGN(ListGlobalTablesResult all, db_->ListGlobalTables(req));
  ASSERT_EQ(all.global_tables.size(), 4u);
  EXPECT_EQ(all.global_tables[0].global_table_name, "Alpha");
  EXPECT_EQ(all.global_tables[3].global_table_name, "Tab");
  EXPECT_EQ(all.global_tables[3].replication_group,
            (std::vector<std::string>{"us-east-1", "us-west-2"}));
  EXPECT_FALSE(all.last_evaluated_global_table_name);

  req.region_name = "us-west-2";
  ASSERT_OK_AND_ASSIGN(ListGlobalTablesResult west, db_->ListGlobalTables(req));
  ASSERT_EQ(west.global_tables.size(), 1u);
  EXPECT_EQ(west.global_tables[0].global_table_name, "Tab");

  req.region_name.reset();
  req.limit = 2;
  ASSERT_OK_AND_ASSIGN(ListGlobalTablesResult page, db_->ListGlobalTables(req));
  ASSERT_EQ(page.global_tables.size(), 2u);
  ASSERT_EQ(page.last_evaluated_global_table_name, "Beta");
  req.exclusive_start_global_table_name = page.last_evaluated_global_table_name;
  ASSERT_OK_AND_ASSIGN(page, db_->ListGlobalTables(req));
  ASSERT_EQ(page.global_tables.size(), 2u);
  EXPECT_EQ(page.global_tables[0].global_table_name, "Gamma");
  // Another access key sees none of them.
  req = ListGlobalTablesRequest();
  req.scope = kEast;
  req.scope.access_key = "OTHER";
  req.scope.ns = NamespaceFor("OTHER", "us-east-1");
  ASSERT_OK_AND_ASSIGN(ListGlobalTablesResult other, db_->ListGlobalTables(req));
  EXPECT_TRUE(other.global_tables.empty());
}

TEST_F(LegacyGlobalTablesTest, SettingsAreAppliedToEachRegionsTable) {
  // Provisioned tables with a GSI, in both Regions.
  for (const Scope* s : {&kEast, &kWest}) {
    CreateTableRequest create = SimpleTable("Prov");
    create.scope = *s;
    create.billing_mode = BillingMode::kProvisioned;
    create.provisioned_throughput = ProvisionedThroughput{5, 5};
    create.attribute_definitions.push_back({"payload", AttrType::kS});
    GlobalSecondaryIndexDef gsi;
    gsi.index_name = "ByPayload";
    gsi.key_schema = {{"payload", KeyType::kHash}};
    gsi.provisioned_throughput = ProvisionedThroughput{5, 5};
    create.global_secondary_indexes.push_back(gsi);
    create.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
    ASSERT_OK(db_->CreateTable(create).status());
  }
  ASSERT_OK(CreateGlobal(db(), kEast, {"us-east-1", "us-west-2"}, "Prov").status());
  UpdateGlobalTableSettingsRequest req;
  req.scope = kEast;
  req.global_table_name = "Prov";
  req.write_capacity_units = 20;
  req.index_write_capacity_units.push_back({"ByPayload", 15});
  UpdateGlobalTableSettingsRequest::Replica west;
  west.region_name = "us-west-2";
  west.read_capacity_units = 30;
  west.index_read_capacity_units.push_back({"ByPayload", 25});
  req.replicas.push_back(west);
  ASSERT_OK_AND_ASSIGN(GlobalTableSettings s, db_->UpdateGlobalTableSettings(req));
  ASSERT_EQ(s.replica_settings.size(), 2u);
  EXPECT_EQ(s.replica_settings[0].region_name, "us-east-1");
  // UpdateTable's path: the tables really changed, and are UPDATING.
  DescribeTableRequest d;
  d.table_name = "Prov";
  d.scope = kEast;
  ASSERT_OK_AND_ASSIGN(TableDescription east_table, db_->DescribeTable(d));
  EXPECT_EQ(east_table.provisioned_throughput.read_capacity_units, 5);
  EXPECT_EQ(east_table.provisioned_throughput.write_capacity_units, 20);
  EXPECT_EQ(east_table.global_secondary_indexes[0].provisioned_throughput.write_capacity_units, 15);
  EXPECT_EQ(east_table.global_secondary_indexes[0].provisioned_throughput.read_capacity_units, 5);
  d.scope = kWest;
  ASSERT_OK_AND_ASSIGN(TableDescription west_table, db_->DescribeTable(d));
  EXPECT_EQ(west_table.provisioned_throughput.read_capacity_units, 30);
  EXPECT_EQ(west_table.provisioned_throughput.write_capacity_units, 20);
  EXPECT_EQ(west_table.global_secondary_indexes[0].provisioned_throughput.read_capacity_units, 25);
  EXPECT_EQ(s.replica_settings[1].table.provisioned_throughput.read_capacity_units, 30);

  ASSERT_OK(db_->AdvanceClock(kLag).status());
  UpdateGlobalTableSettingsRequest bad = req;
  bad.replicas[0].region_name = "eu-west-1";
  EXPECT_THAT(db_->UpdateGlobalTableSettings(bad).status(),
              StatusIs(ErrorCode::kReplicaNotFound, ::testing::_));
  bad = req;
  bad.index_write_capacity_units[0].index_name = "Nope";
  EXPECT_THAT(db_->UpdateGlobalTableSettings(bad).status(), StatusIs(ErrorCode::kIndexNotFound, ::testing::_));
  // On-demand for every Region.
  UpdateGlobalTableSettingsRequest on_demand;
  on_demand.scope = kWest;
  on_demand.global_table_name = "Prov";
  on_demand.billing_mode = BillingMode::kPayPerRequest;
  ASSERT_OK_AND_ASSIGN(s, db_->UpdateGlobalTableSettings(on_demand));
  for (const ReplicaSettings& r : s.replica_settings) {
    EXPECT_EQ(r.table.billing_mode, BillingMode::kPayPerRequest) << r.region_name;
  }
}

}  // namespace
}  // namespace dynarock
