// Export to S3 (engine/transfer/exports.cc), through the Engine on a
// simulated clock with an in-memory TransferFiles: the items are the table
// as it was at ExportTime (PITR's base image and log), writes after the
// request are left out, the job runs IN_PROGRESS -> COMPLETED (or FAILED
// with the writer's error), DynamoDB's errors, ClientToken idempotency,
// ListExports paging, and the records over a restart.
#include "engine/transfer/exports.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <mutex>

#include "engine/value/item_codec.h"
#include "tests/engine/backup/backup_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

// Keeps each export's items (encoded) and final description in memory.
class MemoryFiles final : public TransferFiles {
 public:
  struct Output {
    std::vector<std::string> items;
    std::optional<ExportDescription> finished;
  };

  Result<std::unique_ptr<ExportWriter>> NewExport(const ExportDescription& desc) override {
    if (desc.s3_bucket == "missing") {
      return Status(ErrorCode::kResourceNotFound, "The specified bucket does not exist");
    }
    std::lock_guard<std::mutex> lock(mu_);
    outputs_[desc.export_arn] = Output();
    return std::unique_ptr<ExportWriter>(new Writer(this, desc.export_arn));
  }

  Result<int64_t> ReadImport(const ImportTableDescription&,
                             const ImportRecordVisitor&) override {
    return Status(ErrorCode::kInternal, "not in this test");
  }

  Output Get(const std::string& arn) {
    std::lock_guard<std::mutex> lock(mu_);
    return outputs_[arn];
  }

 private:
  class Writer final : public ExportWriter {
   public:
    Writer(MemoryFiles* files, std::string arn) : files_(files), arn_(std::move(arn)) {}
    Status Add(std::string_view encoded) override {
      std::lock_guard<std::mutex> lock(files_->mu_);
      files_->outputs_[arn_].items.emplace_back(encoded);
      return Status::OK();
    }
    Status Finish(const ExportDescription& done) override {
      std::lock_guard<std::mutex> lock(files_->mu_);
      files_->outputs_[arn_].finished = done;
      return Status::OK();
    }

   private:
    MemoryFiles* const files_;
    const std::string arn_;
  };

  std::mutex mu_;
  std::map<std::string, Output> outputs_;
};

EngineOptions WithFiles(MemoryFiles* files) {
  EngineOptions options = TestEngine::Options();
  options.transfer_files = files;
  return options;
}

std::string ArnOf(Engine* db, const std::string& table) {
  DescribeTableRequest req;
  req.table_name = table;
  return db->DescribeTable(req).value().table_arn;
}

void EnablePitr(Engine* db, const std::string& table) {
  UpdateContinuousBackupsRequest req;
  req.table_name = table;
  req.point_in_time_recovery_enabled = true;
  ASSERT_OK(db->UpdateContinuousBackups(req).status());
}

void Put(Engine* db, const std::string& table, const Item& item) {
  PutItemRequest put;
  put.table_name = table;
  put.item = item;
  ASSERT_OK(db->PutItem(put).status());
}

ExportTableToPointInTimeRequest ExportOf(Engine* db, const std::string& table,
                                         std::string bucket = "bucket") {
  ExportTableToPointInTimeRequest req;
  req.table_arn = ArnOf(db, table);
  req.s3_bucket = std::move(bucket);
  return req;
}

std::vector<std::string> Sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(ExportsTest, ExportsTheTableAsItWasAtTheExportTime) {
  MemoryFiles files;
  TestEngine db(WithFiles(&files));
  ASSERT_OK(db->CreateTable(IndexedTable("Tab")).status());
  for (int i = 0; i < 30; ++i) Put(db.engine.get(), "Tab", IndexedItem(i));  // in the base
  EnablePitr(db.engine.get(), "Tab");
  db.clock.Advance(1000);
  Put(db.engine.get(), "Tab", IndexedItem(100));                              // in the log
  Put(db.engine.get(), "Tab", IndexedItem(3, "v2"));
  db.clock.Advance(1000);
  const int64_t t1 = db.clock.NowMicros();
  const std::vector<std::string> at_t1 = Contents(db.engine.get(), "Tab");
  db.clock.Advance(1000);
  Put(db.engine.get(), "Tab", IndexedItem(3, "v3"));
  Put(db.engine.get(), "Tab", IndexedItem(101));

  ExportTableToPointInTimeRequest req = ExportOf(db.engine.get(), "Tab");
  req.export_micros = t1;
  req.s3_prefix = "some/prefix";
  ASSERT_OK_AND_ASSIGN(ExportDescription started, db->ExportTableToPointInTime(req));
  EXPECT_EQ(started.export_status, ExportStatus::kInProgress);
  EXPECT_THAT(started.export_arn, testing::StartsWith(req.table_arn + "/export/"));
  EXPECT_EQ(started.export_manifest,
            "some/prefix/AWSDynamoDB/" + started.ExportId() + "/manifest-summary.json");
  EXPECT_EQ(started.export_micros, t1);
  EXPECT_FALSE(started.end_micros.has_value());

  db->WaitUntilTransfersDone();
  DescribeExportRequest describe{Scope(), started.export_arn};
  ASSERT_OK_AND_ASSIGN(ExportDescription done, db->DescribeExport(describe));
  EXPECT_EQ(done.export_status, ExportStatus::kCompleted);
  EXPECT_EQ(done.item_count, static_cast<int64_t>(at_t1.size()));
  EXPECT_GT(done.billed_size_bytes, 0);
  ASSERT_TRUE(done.end_micros.has_value());
  MemoryFiles::Output out = files.Get(started.export_arn);
  ASSERT_TRUE(out.finished.has_value());
  EXPECT_EQ(out.finished->item_count, done.item_count);
  EXPECT_EQ(Sorted(out.items), at_t1);
}

TEST(ExportsTest, DefaultTimeIsTheRequestAndLaterWritesAreLeftOut) {
  MemoryFiles files;
  TestEngine db(WithFiles(&files));
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  EnablePitr(db.engine.get(), "Tab");
  Put(db.engine.get(), "Tab", SimpleItem("a", "1"));
  const std::vector<std::string> before = Contents(db.engine.get(), "Tab");
  ASSERT_OK_AND_ASSIGN(ExportDescription started,
                       db->ExportTableToPointInTime(ExportOf(db.engine.get(), "Tab")));
  EXPECT_EQ(started.export_micros, db.clock.NowMicros());
  // Same clock reading, after the request: not in the export.
  Put(db.engine.get(), "Tab", SimpleItem("b", "1"));
  db->WaitUntilTransfersDone();
  EXPECT_EQ(Sorted(files.Get(started.export_arn).items), before);
}

TEST(ExportsTest, ErrorsAsDynamoDb) {
  MemoryFiles files;
  TestEngine db(WithFiles(&files));
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  ExportTableToPointInTimeRequest req = ExportOf(db.engine.get(), "Tab");
  EXPECT_THAT(db->ExportTableToPointInTime(req).status(),
              StatusIs(ErrorCode::kPointInTimeRecoveryUnavailable, testing::HasSubstr("Tab")));
  ExportTableToPointInTimeRequest missing = req;
  missing.table_arn += "x";
  EXPECT_THAT(db->ExportTableToPointInTime(missing).status(),
              StatusIs(ErrorCode::kTableNotFound, "Table not found: " + missing.table_arn));
  ExportTableToPointInTimeRequest bare = req;
  bare.table_arn = "Tab";
  EXPECT_THAT(db->ExportTableToPointInTime(bare).status(),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: tableArn is not a valid ARN"));
  EnablePitr(db.engine.get(), "Tab");
  db.clock.Advance(1'000'000);
  ExportTableToPointInTimeRequest early = req;
  early.export_micros = db.clock.NowMicros() - 2'000'000;
  EXPECT_THAT(db->ExportTableToPointInTime(early).status(),
              StatusIs(ErrorCode::kInvalidExportTime, "Export Time is invalid"));
  ExportTableToPointInTimeRequest late = req;
  late.export_micros = db.clock.NowMicros() + 1;
  EXPECT_THAT(db->ExportTableToPointInTime(late).status(),
              StatusIs(ErrorCode::kInvalidExportTime, "Export Time is invalid"));
  DescribeExportRequest unknown{Scope(), req.table_arn + "/export/01234567890123-abcdef01"};
  EXPECT_THAT(db->DescribeExport(unknown).status(),
              StatusIs(ErrorCode::kExportNotFound, "Export not found: " + unknown.export_arn));

  // A ClientToken names one request: the same again answers the same export.
  req.client_token = "token";
  ASSERT_OK_AND_ASSIGN(ExportDescription first, db->ExportTableToPointInTime(req));
  db.clock.Advance(1000);
  ASSERT_OK_AND_ASSIGN(ExportDescription again, db->ExportTableToPointInTime(req));
  EXPECT_EQ(again.export_arn, first.export_arn);
  ExportTableToPointInTimeRequest other = req;
  other.s3_prefix = "elsewhere";
  EXPECT_THAT(db->ExportTableToPointInTime(other).status(),
              StatusIs(ErrorCode::kExportConflict, testing::HasSubstr("token")));

  // A bucket that does not exist fails the export, not the request.
  ASSERT_OK_AND_ASSIGN(ExportDescription bad,
                       db->ExportTableToPointInTime(ExportOf(db.engine.get(), "Tab", "missing")));
  db->WaitUntilTransfersDone();
  ASSERT_OK_AND_ASSIGN(bad, db->DescribeExport(DescribeExportRequest{Scope(), bad.export_arn}));
  EXPECT_EQ(bad.export_status, ExportStatus::kFailed);
  EXPECT_EQ(bad.failure_code, "S3NoSuchBucket");
  EXPECT_EQ(bad.failure_message, "The specified bucket does not exist");
  EXPECT_EQ(bad.item_count, 0);
}

TEST(ExportsTest, ListsInStartOrderWithPages) {
  MemoryFiles files;
  TestEngine db(WithFiles(&files));
  ASSERT_OK(db->CreateTable(SimpleTable("TabA")).status());
  ASSERT_OK(db->CreateTable(SimpleTable("TabB")).status());
  EnablePitr(db.engine.get(), "TabA");
  EnablePitr(db.engine.get(), "TabB");
  std::vector<std::string> of_a;
  for (int i = 0; i < 5; ++i) {
    db.clock.Advance(1000);
    ASSERT_OK_AND_ASSIGN(ExportDescription d,
                         db->ExportTableToPointInTime(ExportOf(db.engine.get(), "TabA")));
    of_a.push_back(d.export_arn);
    ASSERT_OK(db->ExportTableToPointInTime(ExportOf(db.engine.get(), "TabB")).status());
  }
  ListExportsRequest list;
  list.table_arn = ArnOf(db.engine.get(), "TabA");
  list.max_results = 2;
  std::vector<std::string> seen;
  for (int pages = 0;; ++pages) {
    ASSERT_LT(pages, 5);
    ASSERT_OK_AND_ASSIGN(ListExportsResult page, db->ListExports(list));
    EXPECT_LE(page.exports.size(), 2u);
    for (const auto& d : page.exports) seen.push_back(d.export_arn);
    if (!page.next_token) break;
    list.next_token = page.next_token;
  }
  // Newest first.
  EXPECT_EQ(seen, std::vector<std::string>(of_a.rbegin(), of_a.rend()));
  // DynamoDB's default page is 10.
  ASSERT_OK_AND_ASSIGN(ListExportsResult all, db->ListExports(ListExportsRequest{}));
  EXPECT_EQ(all.exports.size(), 10u);
  EXPECT_FALSE(all.next_token.has_value());
  ASSERT_OK(db->ExportTableToPointInTime(ExportOf(db.engine.get(), "TabB")).status());
  ASSERT_OK_AND_ASSIGN(all, db->ListExports(ListExportsRequest{}));
  EXPECT_EQ(all.exports.size(), 10u);
  EXPECT_TRUE(all.next_token.has_value());
  list.next_token = "not a token";
  EXPECT_THAT(db->ListExports(list).status(), StatusIs(ErrorCode::kValidation, testing::_));
}

TEST(ExportsTest, RecordsSurviveARestartAndUnfinishedOnesRunAgain) {
  const std::string dir = testing::TempDir() + "/exports_test_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  MemoryFiles files;
  EngineOptions options = WithFiles(&files);
  options.in_memory = false;
  options.path = dir;
  std::string arn;
  std::vector<std::string> expected;
  {
    TestEngine db(options);
    ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
    EnablePitr(db.engine.get(), "Tab");
    for (int i = 0; i < 200; ++i) {
      Put(db.engine.get(), "Tab", SimpleItem("p" + std::to_string(i), "1"));
    }
    expected = Contents(db.engine.get(), "Tab");
    ASSERT_OK_AND_ASSIGN(ExportDescription d,
                         db->ExportTableToPointInTime(ExportOf(db.engine.get(), "Tab")));
    arn = d.export_arn;
    // Closed at once: the export is done, running (stopped, IN_PROGRESS)
    // or queued.
  }
  TestEngine db(options);
  ASSERT_OK_AND_ASSIGN(ExportDescription d,
                       db->DescribeExport(DescribeExportRequest{Scope(), arn}));
  EXPECT_NE(d.export_status, ExportStatus::kFailed);
  db->WaitUntilTransfersDone();
  ASSERT_OK_AND_ASSIGN(d, db->DescribeExport(DescribeExportRequest{Scope(), arn}));
  EXPECT_EQ(d.export_status, ExportStatus::kCompleted);
  EXPECT_EQ(d.item_count, 200);
  EXPECT_EQ(Sorted(files.Get(arn).items), expected);
  db.engine.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock
