// Point-in-time recovery (engine/backup/continuous_backups.cc), through the
// Engine on a simulated clock: the restore window, a restore to a time
// between changes (puts, updates, deletes, before and after the base
// image), DynamoDB's errors, retention (the log folded into a new base
// image once past the recovery period), and the setting over a restart.
#include "engine/backup/continuous_backups.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "tests/engine/backup/backup_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

constexpr int64_t kDay = int64_t{86400} * 1'000'000;

Result<ContinuousBackupsDescription> Pitr(Engine* db, const std::string& table, bool on,
                                          std::optional<int64_t> days = std::nullopt) {
  UpdateContinuousBackupsRequest req;
  req.table_name = table;
  req.point_in_time_recovery_enabled = on;
  req.recovery_period_in_days = days;
  return db->UpdateContinuousBackups(req);
}

ContinuousBackupsDescription Describe(Engine* db, const std::string& table) {
  DescribeContinuousBackupsRequest req;
  req.table_name = table;
  auto d = db->DescribeContinuousBackups(req);
  EXPECT_OK(d.status());
  return d.ok() ? *d : ContinuousBackupsDescription();
}

Result<TableDescription> RestoreAt(Engine* db, const std::string& source,
                                   const std::string& target, std::optional<int64_t> at) {
  RestoreTableToPointInTimeRequest req;
  req.source_table_name = source;
  req.target_table_name = target;
  req.restore_micros = at;
  req.use_latest_restorable_time = !at.has_value();
  return db->RestoreTableToPointInTime(req);
}

void Put(Engine* db, const std::string& table, const Item& item) {
  PutItemRequest put;
  put.table_name = table;
  put.item = item;
  ASSERT_OK(db->PutItem(put).status());
}

void Delete(Engine* db, const std::string& table, const Item& key) {
  DeleteItemRequest del;
  del.table_name = table;
  del.key = key;
  ASSERT_OK(db->DeleteItem(del).status());
}

TEST(ContinuousBackupsTest, OffUntilEnabledWithTheWindowOnTheClock) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  ContinuousBackupsDescription d = Describe(db.engine.get(), "Tab");
  EXPECT_FALSE(d.point_in_time_recovery_enabled);
  EXPECT_FALSE(d.earliest_restorable_micros.has_value());
  EXPECT_THAT(RestoreAt(db.engine.get(), "Tab", "R", std::nullopt).status(),
              StatusIs(ErrorCode::kPointInTimeRecoveryUnavailable, testing::HasSubstr("Tab")));

  const int64_t enabled_at = db.clock.NowMicros();
  ASSERT_OK_AND_ASSIGN(d, Pitr(db.engine.get(), "Tab", true));
  EXPECT_TRUE(d.point_in_time_recovery_enabled);
  EXPECT_EQ(d.recovery_period_in_days, 35);
  EXPECT_EQ(d.earliest_restorable_micros, enabled_at);
  db.clock.Advance(5'000'000);
  d = Describe(db.engine.get(), "Tab");
  EXPECT_EQ(d.earliest_restorable_micros, enabled_at);
  EXPECT_EQ(d.latest_restorable_micros, db.clock.NowMicros());
  ASSERT_OK_AND_ASSIGN(d, Pitr(db.engine.get(), "Tab", true, 3));
  EXPECT_EQ(d.recovery_period_in_days, 3);
  ASSERT_OK_AND_ASSIGN(d, Pitr(db.engine.get(), "Tab", false));
  EXPECT_FALSE(d.point_in_time_recovery_enabled);

  EXPECT_THAT(Pitr(db.engine.get(), "Missing", true).status(),
              StatusIs(ErrorCode::kTableNotFound, "Table not found: Missing"));
  EXPECT_THAT(RestoreAt(db.engine.get(), "Missing", "R", std::nullopt).status(),
              StatusIs(ErrorCode::kSourceTableNotFound, "Source table not found: Missing"));
}

TEST(ContinuousBackupsTest, RestoresTheTableAsItWasAtTheTime) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(IndexedTable("Tab")).status());
  for (int i = 0; i < 20; ++i) Put(db.engine.get(), "Tab", IndexedItem(i));  // in the base
  ASSERT_OK(Pitr(db.engine.get(), "Tab", true).status());
  db.clock.Advance(1000);
  Put(db.engine.get(), "Tab", IndexedItem(100));
  Put(db.engine.get(), "Tab", IndexedItem(3, "v2"));
  db.clock.Advance(1000);
  ASSERT_OK(db->WaitUntilIndexesCaughtUp());
  const int64_t t1 = db.clock.NowMicros();
  const std::vector<std::string> at_t1 = Contents(db.engine.get(), "Tab");
  const std::vector<std::string> at_t1_g = Contents(db.engine.get(), "Tab", "byG");
  db.clock.Advance(1000);
  Delete(db.engine.get(), "Tab", [] {
    Item k = IndexedItem(4);
    return Item{{"pk", k.at("pk")}, {"sk", k.at("sk")}};
  }());
  Put(db.engine.get(), "Tab", IndexedItem(3, "v3"));
  Put(db.engine.get(), "Tab", IndexedItem(101));
  db.clock.Advance(1000);
  ASSERT_OK(db->WaitUntilIndexesCaughtUp());

  ASSERT_OK(RestoreAt(db.engine.get(), "Tab", "AtT1", t1).status());
  EXPECT_EQ(Contents(db.engine.get(), "AtT1"), at_t1);
  EXPECT_EQ(Contents(db.engine.get(), "AtT1", "byG"), at_t1_g);
  EXPECT_OK(db->VerifyIndexes(Scope(), "AtT1"));

  ASSERT_OK(RestoreAt(db.engine.get(), "Tab", "Latest", std::nullopt).status());
  EXPECT_EQ(Contents(db.engine.get(), "Latest"), Contents(db.engine.get(), "Tab"));
  EXPECT_EQ(Contents(db.engine.get(), "Latest", "byL"), Contents(db.engine.get(), "Tab", "byL"));

  EXPECT_THAT(RestoreAt(db.engine.get(), "Tab", "Early", t1 - 1'000'000).status(),
              StatusIs(ErrorCode::kInvalidRestoreTime, testing::HasSubstr("RestoreDateTime")));
  EXPECT_THAT(RestoreAt(db.engine.get(), "Tab", "Late", db.clock.NowMicros() + 1).status(),
              StatusIs(ErrorCode::kInvalidRestoreTime, testing::_));
  EXPECT_THAT(RestoreAt(db.engine.get(), "Tab", "AtT1", t1).status(),
              StatusIs(ErrorCode::kTableAlreadyExists, "Table already exists: AtT1"));
}

TEST(ContinuousBackupsTest, RetentionFoldsTheLogIntoANewBase) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  ASSERT_OK(Pitr(db.engine.get(), "Tab", true, 1).status());
  Put(db.engine.get(), "Tab", SimpleItem("a", "1", "day0"));
  db.clock.Advance(kDay / 2);
  Put(db.engine.get(), "Tab", SimpleItem("b", "1", "day0.5"));
  db.clock.Advance(2 * kDay + kDay / 2);  // day 3: the window starts at day 2
  Put(db.engine.get(), "Tab", SimpleItem("a", "1", "day3"));
  ContinuousBackupsDescription d = Describe(db.engine.get(), "Tab");
  // Maintenance ran in the calls above: the base is the window's start.
  EXPECT_EQ(*d.earliest_restorable_micros, db.clock.NowMicros() - kDay);
  // Only one change is left in the log (day 3); the rest is in the base.
  const int64_t start = *d.earliest_restorable_micros;
  ASSERT_OK(RestoreAt(db.engine.get(), "Tab", "AtStart", start).status());
  GetItemRequest get;
  get.table_name = "AtStart";
  get.key = SimpleKey("a", "1");
  ASSERT_OK_AND_ASSIGN(GetItemResult got, db->GetItem(get));
  EXPECT_EQ(got.item->at("payload").s(), "day0");
  EXPECT_EQ(Contents(db.engine.get(), "AtStart").size(), 2u);
  ASSERT_OK(RestoreAt(db.engine.get(), "Tab", "Now", std::nullopt).status());
  get.table_name = "Now";
  ASSERT_OK_AND_ASSIGN(got, db->GetItem(get));
  EXPECT_EQ(got.item->at("payload").s(), "day3");
}

TEST(ContinuousBackupsTest, WritesAreNotLoggedWhileOffAndTheLogGoesWithTheTable) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  ASSERT_OK(Pitr(db.engine.get(), "Tab", true).status());
  ASSERT_OK(Pitr(db.engine.get(), "Tab", false).status());
  Put(db.engine.get(), "Tab", SimpleItem("a", "1"));
  // On again: a fresh base, which holds the item.
  ASSERT_OK(Pitr(db.engine.get(), "Tab", true).status());
  ASSERT_OK(RestoreAt(db.engine.get(), "Tab", "R", std::nullopt).status());
  EXPECT_EQ(Contents(db.engine.get(), "R").size(), 1u);
  DeleteTableRequest del;
  del.table_name = "Tab";
  ASSERT_OK(db->DeleteTable(del).status());
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  EXPECT_FALSE(Describe(db.engine.get(), "Tab").point_in_time_recovery_enabled);
}

TEST(ContinuousBackupsTest, SettingAndLogSurviveRestart) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("dynarock_pitr_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  SimulatedClock clock;
  EngineOptions options = TestEngine::Options();
  options.in_memory = false;
  options.path = dir.string();
  options.clock = &clock;
  int64_t t1 = 0;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
    Put(db.get(), "Tab", SimpleItem("a", "1", "one"));
    ASSERT_OK(Pitr(db.get(), "Tab", true, 10).status());
    clock.Advance(1000);
    Put(db.get(), "Tab", SimpleItem("a", "1", "two"));
    clock.Advance(1000);
    t1 = clock.NowMicros();
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ContinuousBackupsDescription d = Describe(db.get(), "Tab");
    EXPECT_TRUE(d.point_in_time_recovery_enabled);
    EXPECT_EQ(d.recovery_period_in_days, 10);
    clock.Advance(1000);
    Put(db.get(), "Tab", SimpleItem("a", "1", "three"));  // logged after the restart
    ASSERT_OK(RestoreAt(db.get(), "Tab", "AtT1", t1).status());
    ASSERT_OK(RestoreAt(db.get(), "Tab", "Now", std::nullopt).status());
    GetItemRequest get;
    get.key = SimpleKey("a", "1");
    get.table_name = "AtT1";
    ASSERT_OK_AND_ASSIGN(GetItemResult got, db->GetItem(get));
    EXPECT_EQ(got.item->at("payload").s(), "two");
    get.table_name = "Now";
    ASSERT_OK_AND_ASSIGN(got, db->GetItem(get));
    EXPECT_EQ(got.item->at("payload").s(), "three");
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock
