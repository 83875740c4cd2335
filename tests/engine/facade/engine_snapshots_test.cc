// The database-snapshot extension (engine/facade/engine_snapshots.cc): a snapshot
// holds every table, item, index and setting at one point; restoring it
// resets the whole database (tables created later vanish, deleted ones come
// back), in memory and on disk, keeps on-demand backups as they are, and a
// snapshot can be restored again and again.
#include "engine/engine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "engine/value/item_size.h"
#include "tests/engine/backup/backup_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

void Put(Engine* db, const std::string& table, const Item& item) {
  PutItemRequest put;
  put.table_name = table;
  put.item = item;
  ASSERT_OK(db->PutItem(put).status());
}

std::vector<std::string> Tables(Engine* db) {
  auto r = db->ListTables(ListTablesRequest());
  EXPECT_OK(r.status());
  return r.ok() ? r->table_names : std::vector<std::string>{};
}

void ResetsTheWholeDatabase(Engine* db) {
  ASSERT_OK(db->CreateTable(IndexedTable("Keep")).status());
  for (int i = 0; i < 100; ++i) Put(db, "Keep", IndexedItem(i));
  ASSERT_OK(db->WaitUntilIndexesCaughtUp());
  const auto items = Contents(db, "Keep");
  const auto by_g = Contents(db, "Keep", "byG");
  ASSERT_OK_AND_ASSIGN(SnapshotInfo info, db->CreateSnapshot("base"));
  EXPECT_EQ(info.name, "base");
  EXPECT_GT(info.size_bytes, 0);
  EXPECT_THAT(db->CreateSnapshot("base").status(),
              StatusIs(ErrorCode::kResourceInUse, "Snapshot already exists: base"));

  for (int round = 0; round < 2; ++round) {
    Put(db, "Keep", IndexedItem(1000, "new"));
    Put(db, "Keep", IndexedItem(5, "changed"));
    ASSERT_OK(db->CreateTable(SimpleTable("Later")).status());
    DeleteTableRequest del;
    del.table_name = "Keep";
    ASSERT_OK(db->DeleteTable(del).status());

    ASSERT_OK(db->RestoreSnapshot("base"));
    EXPECT_EQ(Tables(db), std::vector<std::string>{"Keep"});
    EXPECT_EQ(Contents(db, "Keep"), items);
    EXPECT_EQ(Contents(db, "Keep", "byG"), by_g);
    DescribeTableRequest d;
    d.table_name = "Keep";
    ASSERT_OK_AND_ASSIGN(TableDescription desc, db->DescribeTable(d));
    EXPECT_EQ(desc.item_count, 100);
    EXPECT_OK(db->VerifyIndexes(Scope(), "Keep"));
  }
  ASSERT_OK_AND_ASSIGN(std::vector<SnapshotInfo> all, db->ListSnapshots());
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(all[0].name, "base");
  ASSERT_OK(db->DeleteSnapshot("base"));
  EXPECT_THAT(db->RestoreSnapshot("base"),
              StatusIs(ErrorCode::kResourceNotFound, "Snapshot not found: base"));
  ASSERT_OK_AND_ASSIGN(all, db->ListSnapshots());
  EXPECT_TRUE(all.empty());
}

TEST(SnapshotEngineTest, ResetsTheWholeDatabaseInMemory) {
  TestEngine db;
  ResetsTheWholeDatabase(db.engine.get());
}

TEST(SnapshotEngineTest, ResetsTheWholeDatabaseOnDiskAndSurvivesRestart) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("dynarock_snapshots_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  SimulatedClock clock;
  EngineOptions options = TestEngine::Options();
  options.in_memory = false;
  options.path = dir.string();
  options.clock = &clock;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ResetsTheWholeDatabase(db.get());
    ASSERT_OK(db->CreateSnapshot("kept").status());
    Put(db.get(), "Keep", IndexedItem(2000));
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    EXPECT_EQ(Contents(db.get(), "Keep").size(), 101u);
    ASSERT_OK(db->RestoreSnapshot("kept"));
    EXPECT_EQ(Contents(db.get(), "Keep").size(), 100u);
  }
  std::filesystem::remove_all(dir);
}

// A restore replaces items without writing them one by one: a PutItem after
// it is billed, and counted, on the item the snapshot brought back, not on
// the one the write path last wrote (engine/data/item_size_cache.h; the
// restore reopens the engine on the store and range-deletes and ingests the
// items, either of which is enough).
TEST(SnapshotEngineTest, APutAfterARestoreIsBilledOnTheRestoredItem) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  PutItemRequest big;
  big.table_name = "Tab";
  big.item = SimpleItem("a", "1", std::string(5000, 'x'));
  ASSERT_OK(db->PutItem(big).status());
  ASSERT_OK(db->CreateSnapshot("big").status());
  PutItemRequest small = big;
  small.item = SimpleItem("a", "1");
  ASSERT_OK(db->PutItem(small).status());
  PutItemRequest other = big;
  other.item = SimpleItem("b", "1");
  ASSERT_OK(db->PutItem(other).status());
  ASSERT_OK_AND_ASSIGN(PutItemResult after_small, db->PutItem(small));
  EXPECT_EQ(after_small.consumed_capacity.table.write_units, 1);

  ASSERT_OK(db->RestoreSnapshot("big"));
  ASSERT_OK_AND_ASSIGN(PutItemResult r, db->PutItem(small));
  EXPECT_EQ(r.consumed_capacity.table.write_units, 5);  // 5 KB were there
  ASSERT_OK(db->PutItem(other).status());  // "b" was not in the snapshot
  DescribeTableRequest d;
  d.table_name = "Tab";
  ASSERT_OK_AND_ASSIGN(TableDescription desc, db->DescribeTable(d));
  EXPECT_EQ(desc.item_count, 2);
  EXPECT_EQ(desc.table_size_bytes,
            ItemSize(SimpleItem("a", "1")) + ItemSize(SimpleItem("b", "1")));
}

TEST(SnapshotEngineTest, BackupsAreNotPartOfASnapshot) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  ASSERT_OK(db->CreateSnapshot("empty").status());
  CreateBackupRequest backup;
  backup.table_name = "Tab";
  backup.backup_name = "after";
  ASSERT_OK_AND_ASSIGN(BackupDescription b, db->CreateBackup(backup));
  ASSERT_OK(db->RestoreSnapshot("empty"));
  ASSERT_OK_AND_ASSIGN(ListBackupsResult listed, db->ListBackups(ListBackupsRequest()));
  ASSERT_EQ(listed.backups.size(), 1u);
  EXPECT_EQ(listed.backups[0].backup_arn, b.backup_arn);
}

TEST(SnapshotEngineTest, ThrottlingSettingOutlivesAReset) {
  TestEngine db;
  db->SetThrottling(false);
  ASSERT_OK(db->CreateSnapshot("s").status());
  ASSERT_OK(db->RestoreSnapshot("s"));
  EXPECT_FALSE(db->throttling());
}

}  // namespace
}  // namespace dynarock
