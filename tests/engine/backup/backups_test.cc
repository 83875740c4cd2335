// On-demand backups (engine/backup/backups.cc), through the Engine:
// CreateBackup / DescribeBackup / ListBackups / DeleteBackup /
// RestoreTableFromBackup with DynamoDB's rules and messages, a backup's
// contents fixed at its snapshot, CREATING -> AVAILABLE on the clock, and
// backups surviving a restart and their table's deletion.
#include "engine/backup/backups.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

#include "engine/requests/scope.h"
#include "tests/engine/backup/backup_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using testing::HasSubstr;
using testing::MatchesRegex;

Result<BackupDescription> Create(Engine* db, const std::string& table,
                                 const std::string& name = "bk") {
  CreateBackupRequest req;
  req.table_name = table;
  req.backup_name = name;
  return db->CreateBackup(req);
}

void Put(Engine* db, const std::string& table, const Item& item) {
  PutItemRequest put;
  put.table_name = table;
  put.item = item;
  ASSERT_OK(db->PutItem(put).status());
}

Result<TableDescription> Restore(Engine* db, const std::string& arn,
                                 const std::string& target) {
  RestoreTableFromBackupRequest req;
  req.backup_arn = arn;
  req.target_table_name = target;
  return db->RestoreTableFromBackup(req);
}

std::vector<std::string> Arns(const ListBackupsResult& r) {
  std::vector<std::string> out;
  for (const BackupDescription& d : r.backups) out.push_back(d.backup_arn);
  return out;
}

TEST(BackupsTest, CreateDescribesTheBackupAndItsSource) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(IndexedTable("Tab")).status());
  for (int i = 0; i < 10; ++i) Put(db.engine.get(), "Tab", IndexedItem(i));
  ASSERT_OK_AND_ASSIGN(BackupDescription b, Create(db.engine.get(), "Tab", "first"));
  EXPECT_THAT(b.backup_arn, MatchesRegex("arn:aws:dynamodb:ddblocal:" +
                                         std::string(kDefaultAccountId) +
                                         ":table/Tab/backup/"
                                         "[0-9]{13}-[0-9a-f]{8}"));
  EXPECT_EQ(b.backup_name, "first");
  EXPECT_EQ(b.backup_status, BackupStatus::kAvailable);  // no creation delay here
  EXPECT_EQ(b.source.table_name, "Tab");
  EXPECT_EQ(b.source.item_count, 10);
  EXPECT_GT(b.backup_size_bytes, 0);
  EXPECT_EQ(b.backup_size_bytes, b.source.table_size_bytes);
  EXPECT_EQ(b.source.global_secondary_indexes.size(), 2u);

  DescribeBackupRequest describe;
  describe.backup_arn = b.backup_arn;
  ASSERT_OK_AND_ASSIGN(BackupDescription d, db->DescribeBackup(describe));
  EXPECT_EQ(d.backup_arn, b.backup_arn);
  EXPECT_EQ(d.source.item_count, 10);
  EXPECT_EQ(d.creation_micros, db.clock.NowMicros());
}

TEST(BackupsTest, BackupHoldsTheItemsAtItsSnapshotOnly) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  Put(db.engine.get(), "Tab", SimpleItem("a", "1", "before"));
  ASSERT_OK_AND_ASSIGN(BackupDescription b, Create(db.engine.get(), "Tab"));
  Put(db.engine.get(), "Tab", SimpleItem("a", "1", "after"));
  Put(db.engine.get(), "Tab", SimpleItem("b", "1"));
  ASSERT_OK(Restore(db.engine.get(), b.backup_arn, "Old").status());
  GetItemRequest get;
  get.table_name = "Old";
  get.key = SimpleKey("a", "1");
  ASSERT_OK_AND_ASSIGN(GetItemResult got, db->GetItem(get));
  ASSERT_TRUE(got.item.has_value());
  EXPECT_EQ(got.item->at("payload").s(), "before");
  EXPECT_EQ(Contents(db.engine.get(), "Old").size(), 1u);
}

TEST(BackupsTest, ErrorsAsDynamoDb) {
  TestEngine db;
  EXPECT_THAT(Create(db.engine.get(), "Missing").status(),
              StatusIs(ErrorCode::kTableNotFound, "Table not found: Missing"));
  const std::string arn =
      "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
      ":table/T/backup/0000000000000-00000000";
  DescribeBackupRequest describe;
  describe.backup_arn = arn;
  EXPECT_THAT(db->DescribeBackup(describe).status(),
              StatusIs(ErrorCode::kBackupNotFound, "Backup not found: " + arn));
  EXPECT_THAT(db->DeleteBackup(describe).status(),
              StatusIs(ErrorCode::kBackupNotFound, "Backup not found: " + arn));
  EXPECT_THAT(Restore(db.engine.get(), arn, "X").status(),
              StatusIs(ErrorCode::kBackupNotFound, "Backup not found: " + arn));

  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  ASSERT_OK_AND_ASSIGN(BackupDescription b, Create(db.engine.get(), "Tab"));
  EXPECT_THAT(Restore(db.engine.get(), b.backup_arn, "Tab").status(),
              StatusIs(ErrorCode::kTableAlreadyExists, "Table already exists: Tab"));
  // A table's ARN, or no ARN at all, is not a backup's.
  for (const std::string& not_backup :
       {std::string("arn:aws:dynamodb:ddblocal:" +
                    std::string(kDefaultAccountId) + ":table/Tab"),
        std::string(48, 'x')}) {
    DescribeBackupRequest bad;
    bad.backup_arn = not_backup;
    EXPECT_THAT(db->DescribeBackup(bad).status(),
                StatusIs(ErrorCode::kValidation, "Invalid Backup ARN"));
  }
  // Another namespace sees none of it.
  DescribeBackupRequest other;
  other.scope.ns = "other";
  other.backup_arn = b.backup_arn;
  EXPECT_THAT(db->DescribeBackup(other).status(),
              StatusIs(ErrorCode::kBackupNotFound, testing::_));
}

TEST(BackupsTest, CreatingOnTheClockThenAvailable) {
  EngineOptions options = TestEngine::Options();
  options.table_create_delay_micros = 1'000'000;
  TestEngine db(options);
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  // The table itself is CREATING: no backup yet, answered as for a missing
  // table.
  EXPECT_THAT(Create(db.engine.get(), "Tab").status(),
              StatusIs(ErrorCode::kTableNotFound, "Table not found: Tab"));
  db.clock.Advance(1'000'000);
  ASSERT_OK_AND_ASSIGN(BackupDescription b, Create(db.engine.get(), "Tab"));
  EXPECT_EQ(b.backup_status, BackupStatus::kCreating);
  EXPECT_THAT(Restore(db.engine.get(), b.backup_arn, "R").status(),
              StatusIs(ErrorCode::kBackupInUse, HasSubstr("being created")));
  DeleteBackupRequest del;
  del.backup_arn = b.backup_arn;
  EXPECT_THAT(db->DeleteBackup(del).status(), StatusIs(ErrorCode::kBackupInUse, testing::_));
  db.clock.Advance(1'000'000);
  DescribeBackupRequest describe;
  describe.backup_arn = b.backup_arn;
  ASSERT_OK_AND_ASSIGN(BackupDescription d, db->DescribeBackup(describe));
  EXPECT_EQ(d.backup_status, BackupStatus::kAvailable);
  ASSERT_OK_AND_ASSIGN(TableDescription restored, Restore(db.engine.get(), b.backup_arn, "R"));
  EXPECT_EQ(restored.table_status, TableStatus::kCreating);
  // A restore's target being created is in use.
  EXPECT_THAT(Restore(db.engine.get(), b.backup_arn, "R").status(),
              StatusIs(ErrorCode::kTableInUse, "Table is being created: R"));
}

TEST(BackupsTest, ListFiltersAndPages) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("TabA")).status());
  ASSERT_OK(db->CreateTable(SimpleTable("TabB")).status());
  std::vector<std::string> arns;
  for (const char* t : {"TabA", "TabB", "TabA"}) {
    ASSERT_OK_AND_ASSIGN(BackupDescription b, Create(db.engine.get(), t));
    arns.push_back(b.backup_arn);
    db.clock.Advance(1000);
  }
  ListBackupsRequest all;
  ASSERT_OK_AND_ASSIGN(ListBackupsResult r, db->ListBackups(all));
  EXPECT_EQ(Arns(r), arns);
  EXPECT_FALSE(r.last_evaluated_backup_arn.has_value());

  ListBackupsRequest of_a;
  of_a.table_name = "TabA";
  ASSERT_OK_AND_ASSIGN(r, db->ListBackups(of_a));
  EXPECT_EQ(Arns(r), (std::vector<std::string>{arns[0], arns[2]}));

  ListBackupsRequest page;
  page.limit = 2;
  ASSERT_OK_AND_ASSIGN(r, db->ListBackups(page));
  EXPECT_EQ(Arns(r), (std::vector<std::string>{arns[0], arns[1]}));
  ASSERT_EQ(r.last_evaluated_backup_arn, arns[1]);
  page.exclusive_start_backup_arn = r.last_evaluated_backup_arn;
  ASSERT_OK_AND_ASSIGN(r, db->ListBackups(page));
  EXPECT_EQ(Arns(r), (std::vector<std::string>{arns[2]}));
  EXPECT_FALSE(r.last_evaluated_backup_arn.has_value());

  const int64_t start = db.clock.NowMicros() - 3000;
  ListBackupsRequest range;
  range.time_range_lower_micros = start + 1000;  // inclusive
  range.time_range_upper_micros = start + 2000;  // exclusive
  ASSERT_OK_AND_ASSIGN(r, db->ListBackups(range));
  EXPECT_EQ(Arns(r), (std::vector<std::string>{arns[1]}));

  ListBackupsRequest inverted;
  inverted.time_range_lower_micros = start + 2000;
  inverted.time_range_upper_micros = start + 1000;
  EXPECT_THAT(db->ListBackups(inverted).status(),
              StatusIs(ErrorCode::kValidation,
                       "Time range lower bound must be less than or equal to upper bound"));

  ListBackupsRequest system;
  system.backup_type = "SYSTEM";
  ASSERT_OK_AND_ASSIGN(r, db->ListBackups(system));
  EXPECT_TRUE(r.backups.empty());
  system.backup_type = "ALL";
  ASSERT_OK_AND_ASSIGN(r, db->ListBackups(system));
  EXPECT_EQ(r.backups.size(), 3u);

  DeleteBackupRequest del;
  del.backup_arn = arns[1];
  ASSERT_OK_AND_ASSIGN(BackupDescription gone, db->DeleteBackup(del));
  EXPECT_EQ(gone.backup_status, BackupStatus::kDeleted);
  ASSERT_OK_AND_ASSIGN(r, db->ListBackups(all));
  EXPECT_EQ(Arns(r), (std::vector<std::string>{arns[0], arns[2]}));
  // The deleted backup's ARN is still a position to resume after.
  ListBackupsRequest after_deleted;
  after_deleted.exclusive_start_backup_arn = arns[1];
  ASSERT_OK_AND_ASSIGN(r, db->ListBackups(after_deleted));
  EXPECT_EQ(Arns(r), (std::vector<std::string>{arns[2]}));
}

TEST(BackupsTest, BackupsOfOneMillisecondListInTheOrderTheyWereMade) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  std::vector<std::string> arns;
  for (int64_t step : {0, 0, 1, 0, 998, 1}) {  // one millisecond, then the next
    db.clock.Advance(step);
    ASSERT_OK_AND_ASSIGN(BackupDescription b, Create(db.engine.get(), "Tab"));
    arns.push_back(b.backup_arn);
  }
  ListBackupsRequest all;
  ASSERT_OK_AND_ASSIGN(ListBackupsResult r, db->ListBackups(all));
  EXPECT_EQ(Arns(r), arns);
}

TEST(BackupsTest, ATableBeingDeletedAnswersAsMissing) {
  EngineOptions options = TestEngine::Options();
  options.table_delete_delay_micros = 1'000'000;
  TestEngine db(options);
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  DeleteTableRequest del;
  del.table_name = "Tab";
  ASSERT_OK(db->DeleteTable(del).status());
  EXPECT_THAT(Create(db.engine.get(), "Tab").status(),
              StatusIs(ErrorCode::kTableNotFound, "Table not found: Tab"));
}

TEST(BackupsTest, SurviveRestartAndTheirTablesDeletion) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("dynarock_backups_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  SimulatedClock clock;
  EngineOptions options = TestEngine::Options();
  options.in_memory = false;
  options.path = dir.string();
  options.clock = &clock;
  std::string arn;
  std::vector<std::string> items, by_g;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ASSERT_OK(db->CreateTable(IndexedTable("Tab")).status());
    for (int i = 0; i < 50; ++i) Put(db.get(), "Tab", IndexedItem(i));
    ASSERT_OK(db->WaitUntilIndexesCaughtUp());
    items = Contents(db.get(), "Tab");
    by_g = Contents(db.get(), "Tab", "byG");
    ASSERT_OK_AND_ASSIGN(BackupDescription b, Create(db.get(), "Tab", "kept"));
    arn = b.backup_arn;
    DeleteTableRequest del;
    del.table_name = "Tab";
    ASSERT_OK(db->DeleteTable(del).status());
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ASSERT_OK_AND_ASSIGN(ListBackupsResult r, db->ListBackups(ListBackupsRequest()));
    ASSERT_EQ(Arns(r), std::vector<std::string>{arn});
    EXPECT_EQ(r.backups[0].backup_name, "kept");
    EXPECT_EQ(r.backups[0].source.item_count, 50);
    EXPECT_EQ(r.backups[0].source.global_secondary_indexes.size(), 2u);
    ASSERT_OK(Restore(db.get(), arn, "Tab").status());
    EXPECT_EQ(Contents(db.get(), "Tab"), items);
    EXPECT_EQ(Contents(db.get(), "Tab", "byG"), by_g);
    EXPECT_OK(db->VerifyIndexes(Scope(), "Tab"));
  }
  {
    // The restored table itself survives a restart.
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    EXPECT_EQ(Contents(db.get(), "Tab"), items);
    EXPECT_OK(db->VerifyIndexes(Scope(), "Tab"));
    DeleteBackupRequest del;
    del.backup_arn = arn;
    ASSERT_OK(db->DeleteBackup(del).status());
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ASSERT_OK_AND_ASSIGN(ListBackupsResult r, db->ListBackups(ListBackupsRequest()));
    EXPECT_TRUE(r.backups.empty());
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir / "backups"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock
