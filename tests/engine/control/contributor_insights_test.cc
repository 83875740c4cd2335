// Contributor insights (engine/control/contributor_insights.cc), through the
// Engine: the setting per table and GSI, DynamoDB's statuses and rule names,
// listing with pages, kept over a restart and gone with the table.
#include "engine/control/contributor_insights.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <optional>

#include "engine/engine.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using ::testing::ElementsAre;

// A table with a sort key, a GSI (hash only) and an LSI.
CreateTableRequest TableWithIndexes(const std::string& name) {
  CreateTableRequest req = SimpleTable(name);
  req.attribute_definitions.push_back({"g", AttrType::kS});
  req.attribute_definitions.push_back({"l", AttrType::kS});
  GlobalSecondaryIndexDef gsi;
  gsi.index_name = "ByG";
  gsi.key_schema = {{"g", KeyType::kHash}};
  gsi.projection = {ProjectionType::kKeysOnly, {}};
  req.global_secondary_indexes = {gsi};
  LocalSecondaryIndexDef lsi;
  lsi.index_name = "ByL";
  lsi.key_schema = {{"pk", KeyType::kHash}, {"l", KeyType::kRange}};
  lsi.projection = {ProjectionType::kKeysOnly, {}};
  req.local_secondary_indexes = {lsi};
  return req;
}

Result<ContributorInsightsDescription> Update(
    Engine* db, const std::string& table, const std::string& index, bool on,
    std::optional<ContributorInsightsMode> mode = std::nullopt) {
  UpdateContributorInsightsRequest req;
  req.table_name = table;
  req.index_name = index;
  req.enable = on;
  req.mode = mode;
  return db->UpdateContributorInsights(req);
}

TEST(ContributorInsightsTest, EnableDescribeDisable) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(TableWithIndexes("Tab")).status());
  ASSERT_OK_AND_ASSIGN(auto before, db->DescribeContributorInsights({}, "Tab", ""));
  EXPECT_EQ(before.status, ContributorInsightsStatus::kDisabled);
  EXPECT_FALSE(before.last_update_micros.has_value());

  db.clock.Advance(1'576'629'651'520'000);
  ASSERT_OK_AND_ASSIGN(auto enabling, Update(db.engine.get(), "Tab", "", true));
  EXPECT_EQ(enabling.status, ContributorInsightsStatus::kEnabling);
  EXPECT_EQ(enabling.mode, ContributorInsightsMode::kAccessedAndThrottledKeys);
  ASSERT_OK_AND_ASSIGN(auto on, db->DescribeContributorInsights({}, "Tab", ""));
  EXPECT_EQ(on.status, ContributorInsightsStatus::kEnabled);
  EXPECT_EQ(on.mode, ContributorInsightsMode::kAccessedAndThrottledKeys);
  const std::string ms = std::to_string(db.clock.NowMicros() / 1000);
  EXPECT_THAT(on.rule_list, ElementsAre("DynamoDBContributorInsights-PKC-Tab-" + ms,
                                        "DynamoDBContributorInsights-SKC-Tab-" + ms,
                                        "DynamoDBContributorInsights-PKT-Tab-" + ms,
                                        "DynamoDBContributorInsights-SKT-Tab-" + ms));
  // The GSI is separate, and has no sort key: partition-key rules only.
  ASSERT_OK_AND_ASSIGN(auto gsi_off, db->DescribeContributorInsights({}, "Tab", "ByG"));
  EXPECT_EQ(gsi_off.status, ContributorInsightsStatus::kDisabled);
  ASSERT_OK(Update(db.engine.get(), "Tab", "ByG", true).status());
  ASSERT_OK_AND_ASSIGN(auto gsi_on, db->DescribeContributorInsights({}, "Tab", "ByG"));
  EXPECT_EQ(gsi_on.rule_list.size(), 2u);

  ASSERT_OK_AND_ASSIGN(auto disabling, Update(db.engine.get(), "Tab", "", false));
  EXPECT_EQ(disabling.status, ContributorInsightsStatus::kDisabling);
  ASSERT_OK_AND_ASSIGN(auto off, db->DescribeContributorInsights({}, "Tab", ""));
  EXPECT_EQ(off.status, ContributorInsightsStatus::kDisabled);
  EXPECT_TRUE(off.rule_list.empty());
  EXPECT_TRUE(off.last_update_micros.has_value());
  EXPECT_FALSE(off.mode.has_value());
  EXPECT_FALSE(disabling.mode.has_value());
}

// THROTTLED_KEYS: only the "most throttled" rules, in Describe and List; the
// mode of an enabled resource can be switched; an ENABLE without a mode is
// ACCESSED_AND_THROTTLED_KEYS, DynamoDB's default.
TEST(ContributorInsightsTest, ThrottledKeysModeHasOnlyTheThrottledRules) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(TableWithIndexes("Tab")).status());
  db.clock.Advance(1'700'000'000'000'000);
  ASSERT_OK_AND_ASSIGN(auto enabling, Update(db.engine.get(), "Tab", "", true,
                                             ContributorInsightsMode::kThrottledKeys));
  EXPECT_EQ(enabling.mode, ContributorInsightsMode::kThrottledKeys);
  ASSERT_OK_AND_ASSIGN(auto on, db->DescribeContributorInsights({}, "Tab", ""));
  EXPECT_EQ(on.mode, ContributorInsightsMode::kThrottledKeys);
  const std::string ms = std::to_string(db.clock.NowMicros() / 1000);
  EXPECT_THAT(on.rule_list, ElementsAre("DynamoDBContributorInsights-PKT-Tab-" + ms,
                                        "DynamoDBContributorInsights-SKT-Tab-" + ms));
  ListContributorInsightsRequest list;
  ASSERT_OK_AND_ASSIGN(auto listed, db->ListContributorInsights(list));
  ASSERT_EQ(listed.summaries.size(), 1u);
  EXPECT_EQ(listed.summaries[0].mode, ContributorInsightsMode::kThrottledKeys);
  // Switching the mode of an enabled resource.
  ASSERT_OK(Update(db.engine.get(), "Tab", "", true,
                   ContributorInsightsMode::kAccessedAndThrottledKeys).status());
  ASSERT_OK_AND_ASSIGN(auto both, db->DescribeContributorInsights({}, "Tab", ""));
  EXPECT_EQ(both.rule_list.size(), 4u);
  // Off, then on again without a mode: the default.
  ASSERT_OK(Update(db.engine.get(), "Tab", "", true,
                   ContributorInsightsMode::kThrottledKeys).status());
  ASSERT_OK(Update(db.engine.get(), "Tab", "", false).status());
  ASSERT_OK_AND_ASSIGN(auto again, Update(db.engine.get(), "Tab", "", true));
  EXPECT_EQ(again.mode, ContributorInsightsMode::kAccessedAndThrottledKeys);
}

TEST(ContributorInsightsTest, UnknownTableOrIndex) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(TableWithIndexes("Tab")).status());
  EXPECT_THAT(Update(db.engine.get(), "Nope", "", true).status(),
              StatusIs(ErrorCode::kResourceNotFound, ::testing::HasSubstr("Nope")));
  // Only GSIs have contributor insights of their own.
  for (const char* index : {"Missing", "ByL"}) {
    EXPECT_THAT(Update(db.engine.get(), "Tab", index, true).status(),
                StatusIs(ErrorCode::kResourceNotFound,
                         ::testing::Eq(std::string("Requested resource not found: Index: ") +
                                       index + " not found for table: Tab")));
    EXPECT_EQ(db->DescribeContributorInsights({}, "Tab", index).status().code(),
              ErrorCode::kResourceNotFound);
  }
}

TEST(ContributorInsightsTest, ListsWhatWasSetInPages) {
  TestEngine db;
  for (const char* name : {"Aaa", "Bbb", "Ccc"}) {
    ASSERT_OK(db->CreateTable(TableWithIndexes(name)).status());
  }
  ASSERT_OK(Update(db.engine.get(), "Bbb", "", true).status());
  ASSERT_OK(Update(db.engine.get(), "Bbb", "ByG", true).status());
  ASSERT_OK(Update(db.engine.get(), "Ccc", "", false).status());
  ListContributorInsightsRequest req;
  req.max_results = 2;
  ASSERT_OK_AND_ASSIGN(auto first, db->ListContributorInsights(req));
  ASSERT_EQ(first.summaries.size(), 2u);
  EXPECT_EQ(first.summaries[0].table_name, "Bbb");
  EXPECT_EQ(first.summaries[0].index_name, "");
  EXPECT_EQ(first.summaries[1].index_name, "ByG");
  EXPECT_EQ(first.summaries[1].status, ContributorInsightsStatus::kEnabled);
  ASSERT_TRUE(first.next_token.has_value());
  req.next_token = first.next_token;
  ASSERT_OK_AND_ASSIGN(auto second, db->ListContributorInsights(req));
  ASSERT_EQ(second.summaries.size(), 1u);
  EXPECT_EQ(second.summaries[0].table_name, "Ccc");
  EXPECT_EQ(second.summaries[0].status, ContributorInsightsStatus::kDisabled);
  EXPECT_FALSE(second.next_token.has_value());
  ListContributorInsightsRequest one;
  one.table_name = "Bbb";
  ASSERT_OK_AND_ASSIGN(auto of_bbb, db->ListContributorInsights(one));
  EXPECT_EQ(of_bbb.summaries.size(), 2u);
  one.table_name = "Nope";
  EXPECT_EQ(db->ListContributorInsights(one).status().code(), ErrorCode::kResourceNotFound);
}

TEST(ContributorInsightsTest, SettingsSurviveRestartAndGoWithTheTable) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("dynarock_contributor_insights_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  SimulatedClock clock;
  EngineOptions options = TestEngine::Options();
  options.in_memory = false;
  options.path = dir.string();
  options.clock = &clock;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ASSERT_OK(db->CreateTable(TableWithIndexes("Tab")).status());
    ASSERT_OK(Update(db.get(), "Tab", "ByG", true).status());
    ASSERT_OK(Update(db.get(), "Tab", "", true, ContributorInsightsMode::kThrottledKeys)
                  .status());
    UpdateTableRequest up;  // a table change keeps the setting
    up.table_name = "Tab";
    up.deletion_protection_enabled = true;
    ASSERT_OK(db->UpdateTable(up).status());
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ASSERT_OK_AND_ASSIGN(auto gsi, db->DescribeContributorInsights({}, "Tab", "ByG"));
    EXPECT_EQ(gsi.status, ContributorInsightsStatus::kEnabled);
    EXPECT_EQ(gsi.mode, ContributorInsightsMode::kAccessedAndThrottledKeys);
    ASSERT_OK_AND_ASSIGN(auto table, db->DescribeContributorInsights({}, "Tab", ""));
    EXPECT_EQ(table.status, ContributorInsightsStatus::kEnabled);
    EXPECT_EQ(table.mode, ContributorInsightsMode::kThrottledKeys);
    UpdateTableRequest up;
    up.table_name = "Tab";
    up.deletion_protection_enabled = false;
    ASSERT_OK(db->UpdateTable(up).status());
    DeleteTableRequest del;
    del.table_name = "Tab";
    ASSERT_OK(db->DeleteTable(del).status());
    ASSERT_OK(db->CreateTable(TableWithIndexes("Tab")).status());
    ASSERT_OK_AND_ASSIGN(auto fresh, db->DescribeContributorInsights({}, "Tab", "ByG"));
    EXPECT_EQ(fresh.status, ContributorInsightsStatus::kDisabled);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock
