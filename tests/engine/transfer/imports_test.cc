// Import from S3 (engine/transfer/imports.cc), through the Engine with an
// in-memory TransferFiles handing out records: the new table's definition
// checked as CreateTable checks it, records that are not valid items
// counted in ErrorCount and left out, the last item of a key kept, the
// table built with its GSI (VerifyIndexes) and published when COMPLETED,
// failures, ClientToken, ListImports paging, and a restart.
#include "engine/transfer/imports.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <unistd.h>

#include "engine/requests/scope.h"
#include "tests/engine/backup/backup_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

// Bucket "bucket": each prefix holds a list of records; "missing": none.
class MemoryFiles final : public TransferFiles {
 public:
  Result<std::unique_ptr<ExportWriter>> NewExport(const ExportDescription&) override {
    return Status(ErrorCode::kInternal, "not in this test");
  }
  Result<int64_t> ReadImport(const ImportTableDescription& desc,
                             const ImportRecordVisitor& visit) override {
    if (desc.source.s3_bucket != "bucket") {
      return Status(ErrorCode::kResourceNotFound, "The specified bucket does not exist");
    }
    std::vector<Result<Item>> records;
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto it = records_.find(desc.source.s3_key_prefix.value_or(""));
      if (it == records_.end()) return Status::Validation("No objects found");
      records = it->second;
    }
    for (Result<Item>& r : records) DR_RETURN_IF_ERROR(visit(std::move(r)));
    return static_cast<int64_t>(records.size()) * 100;
  }
  void Set(const std::string& prefix, std::vector<Result<Item>> records) {
    std::lock_guard<std::mutex> lock(mu_);
    records_[prefix] = std::move(records);
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::vector<Result<Item>>> records_;
};

EngineOptions WithFiles(MemoryFiles* files) {
  EngineOptions options = TestEngine::Options();
  options.transfer_files = files;
  return options;
}

ImportTableRequest ImportOf(const std::string& table, const std::string& prefix) {
  ImportTableRequest req;
  req.source.s3_bucket = "bucket";
  req.source.s3_key_prefix = prefix;
  req.table = IndexedTable(table);
  req.table.local_secondary_indexes.clear();  // ImportTable has no LSIs
  req.table.attribute_definitions.pop_back();  // "l", the LSI's key
  return req;
}

ImportTableDescription Finished(TestEngine& db, const std::string& arn) {
  db->WaitUntilTransfersDone();
  auto d = db->DescribeImport(DescribeImportRequest{Scope(), arn});
  EXPECT_OK(d.status());
  return d.ok() ? *d : ImportTableDescription();
}

TEST(ImportsTest, BuildsTheTableFromTheValidRecords) {
  MemoryFiles files;
  TestEngine db(WithFiles(&files));
  std::vector<Result<Item>> records;
  for (int i = 0; i < 40; ++i) records.push_back(IndexedItem(i));
  records.push_back(IndexedItem(3, "last"));                       // replaces item 3
  records.push_back(Status::Validation("not JSON"));                // the reader's error
  Item no_key = IndexedItem(5);
  no_key.erase("sk");
  records.push_back(no_key);                                        // key missing
  Item bad_gsi_key = IndexedItem(6);
  bad_gsi_key["g"] = AttributeValue::N(Number::Parse("1").value());  // GSI key of the wrong type
  records.push_back(bad_gsi_key);
  files.Set("p/", records);

  ASSERT_OK_AND_ASSIGN(ImportTableDescription started,
                       db->ImportTable(ImportOf("Imported", "p/")));
  EXPECT_EQ(started.import_status, ImportStatus::kInProgress);
  EXPECT_THAT(started.import_arn, testing::StartsWith(started.table_arn + "/import/"));
  EXPECT_EQ(started.table.table_name, "Imported");
  const ImportTableDescription done = Finished(db, started.import_arn);
  // Refused records fail the import, as DynamoDB's; the valid ones are in
  // the table all the same.
  EXPECT_EQ(done.import_status, ImportStatus::kFailed);
  EXPECT_EQ(done.failure_code, "ItemValidationError");
  EXPECT_EQ(done.failure_message,
            "Some of the items failed validation checks and were not imported. Please check "
            "CloudWatch error logs for more details.");
  EXPECT_EQ(done.processed_item_count, 44);
  EXPECT_EQ(done.error_count, 3);
  EXPECT_EQ(done.imported_item_count, 40);
  EXPECT_EQ(done.processed_size_bytes, 4400);
  ASSERT_TRUE(done.end_micros.has_value());

  // The same items through PutItem give the same table and index.
  ASSERT_OK(db->CreateTable(ImportOf("Expected", "p/").table).status());
  db.clock.Advance(1'000'000);
  for (int i = 0; i < 40; ++i) {
    PutItemRequest put;
    put.table_name = "Expected";
    put.item = i == 3 ? IndexedItem(3, "last") : IndexedItem(i);
    ASSERT_OK(db->PutItem(put).status());
  }
  ASSERT_OK(db->WaitUntilIndexesCaughtUp());
  EXPECT_EQ(Contents(db.engine.get(), "Imported"), Contents(db.engine.get(), "Expected"));
  EXPECT_EQ(Contents(db.engine.get(), "Imported", "byG"),
            Contents(db.engine.get(), "Expected", "byG"));
  EXPECT_OK(db->VerifyIndexes(Scope(), "Imported"));
}

TEST(ImportsTest, ItemsBeyondTheSortBudgetGoThroughRunsInKeyOrderTheLastOfAKeyWinning) {
  // A 16 KiB budget: the 3,000 records go through many run files, and most
  // of the 600 keys are in several runs.
  MemoryFiles files;
  EngineOptions options = WithFiles(&files);
  options.import_sort_budget_bytes = size_t{16} << 10;
  TestEngine db(options);
  std::vector<Result<Item>> records;
  for (int round = 0; round < 5; ++round) {
    for (int i = 0; i < 600; ++i) {
      const int k = (i * 7 + round * 13) % 600;  // each round in another order
      records.push_back(IndexedItem(k, "round " + std::to_string(round)));
    }
  }
  files.Set("p/", records);
  ASSERT_OK_AND_ASSIGN(ImportTableDescription started,
                       db->ImportTable(ImportOf("Imported", "p/")));
  const ImportTableDescription done = Finished(db, started.import_arn);
  EXPECT_EQ(done.import_status, ImportStatus::kCompleted);
  EXPECT_EQ(done.processed_item_count, 3000);
  EXPECT_EQ(done.imported_item_count, 600);

  ASSERT_OK(db->CreateTable(ImportOf("Expected", "p/").table).status());
  db.clock.Advance(1'000'000);
  for (int i = 0; i < 600; ++i) {
    PutItemRequest put;
    put.table_name = "Expected";
    put.item = IndexedItem(i, "round 4");
    ASSERT_OK(db->PutItem(put).status());
  }
  ASSERT_OK(db->WaitUntilIndexesCaughtUp());
  EXPECT_EQ(Contents(db.engine.get(), "Imported"), Contents(db.engine.get(), "Expected"));
  EXPECT_EQ(Contents(db.engine.get(), "Imported", "byG"),
            Contents(db.engine.get(), "Expected", "byG"));
  EXPECT_OK(db->VerifyIndexes(Scope(), "Imported"));
}

// DynamoDB's imported table is ACTIVE when its import is COMPLETED: an
// import that finishes within a new table's create delay stays IN_PROGRESS
// (in DescribeImport and ListImports) until the table turns ACTIVE.
TEST(ImportsTest, CompletesWhenItsTableIsActive) {
  MemoryFiles files;
  EngineOptions options = WithFiles(&files);
  options.table_create_delay_micros = 50'000;
  TestEngine db(options);
  files.Set("p/", {IndexedItem(1)});
  ASSERT_OK_AND_ASSIGN(ImportTableDescription started,
                       db->ImportTable(ImportOf("Imported", "p/")));
  const ImportTableDescription pending = Finished(db, started.import_arn);
  EXPECT_EQ(pending.import_status, ImportStatus::kInProgress);
  EXPECT_FALSE(pending.end_micros.has_value());
  ASSERT_OK_AND_ASSIGN(ListImportsResult listed, db->ListImports(ListImportsRequest{}));
  ASSERT_EQ(listed.imports.size(), 1u);
  EXPECT_EQ(listed.imports[0].import_status, ImportStatus::kInProgress);
  ASSERT_OK_AND_ASSIGN(TableDescription creating,
                       db->DescribeTable(DescribeTableRequest{Scope(), "Imported"}));
  EXPECT_EQ(creating.table_status, TableStatus::kCreating);

  db.clock.Advance(50'000);
  const ImportTableDescription done = Finished(db, started.import_arn);
  EXPECT_EQ(done.import_status, ImportStatus::kCompleted);
  EXPECT_EQ(done.end_micros, started.start_micros + 50'000);
  ASSERT_OK_AND_ASSIGN(TableDescription active,
                       db->DescribeTable(DescribeTableRequest{Scope(), "Imported"}));
  EXPECT_EQ(active.table_status, TableStatus::kActive);
  ASSERT_OK_AND_ASSIGN(listed, db->ListImports(ListImportsRequest{}));
  EXPECT_EQ(listed.imports[0].import_status, ImportStatus::kCompleted);
}

TEST(ImportsTest, ErrorsAndFailures) {
  MemoryFiles files;
  TestEngine db(WithFiles(&files));
  files.Set("p/", {IndexedItem(1)});
  ImportTableRequest bad = ImportOf("Bad", "p/");
  bad.table.attribute_definitions.clear();
  EXPECT_THAT(db->ImportTable(bad).status(), StatusIs(ErrorCode::kValidation, testing::_));
  ASSERT_OK(db->CreateTable(SimpleTable("Exists")).status());
  ImportTableRequest exists = ImportOf("Exists", "p/");
  EXPECT_THAT(db->ImportTable(exists).status(),
              StatusIs(ErrorCode::kResourceInUse, "Table already exists: Exists"));
  const std::string unknown =
      "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
      ":table/T/import/01234567890123-abcdef01";
  EXPECT_THAT(db->DescribeImport(DescribeImportRequest{Scope(), unknown}).status(),
              StatusIs(ErrorCode::kImportNotFound, "Import not found: " + unknown));
  EXPECT_THAT(db
                  ->DescribeImport(DescribeImportRequest{
                      Scope(), "arn:aws:dynamodb:ddblocal:" +
                                   std::string(kDefaultAccountId) + ":table/T"})
                  .status(),
              StatusIs(ErrorCode::kValidation, "Invalid Import ARN"));

  ImportTableRequest token = ImportOf("Tok", "p/");
  token.client_token = "t";
  ASSERT_OK_AND_ASSIGN(ImportTableDescription first, db->ImportTable(token));
  ASSERT_OK_AND_ASSIGN(ImportTableDescription again, db->ImportTable(token));
  EXPECT_EQ(again.import_arn, first.import_arn);
  token.compression = InputCompression::kGzip;
  EXPECT_THAT(db->ImportTable(token).status(),
              StatusIs(ErrorCode::kImportConflict, testing::HasSubstr("token")));

  ImportTableRequest missing = ImportOf("NoBucket", "p/");
  missing.source.s3_bucket = "missing";
  ASSERT_OK_AND_ASSIGN(ImportTableDescription d, db->ImportTable(missing));
  d = Finished(db, d.import_arn);
  EXPECT_EQ(d.import_status, ImportStatus::kFailed);
  EXPECT_EQ(d.failure_code, "S3NoSuchBucket");
  DescribeTableRequest describe;
  describe.table_name = "NoBucket";
  EXPECT_THAT(db->DescribeTable(describe).status(),
              StatusIs(ErrorCode::kResourceNotFound, testing::_));
  ASSERT_OK_AND_ASSIGN(d, db->ImportTable(ImportOf("NoFiles", "none/")));
  d = Finished(db, d.import_arn);
  EXPECT_EQ(d.import_status, ImportStatus::kFailed);
  EXPECT_EQ(d.failure_code, "InvalidInput");
}

TEST(ImportsTest, ListsInStartOrderWithPages) {
  MemoryFiles files;
  TestEngine db(WithFiles(&files));
  files.Set("p/", {IndexedItem(1)});
  std::vector<std::string> arns;
  for (int i = 0; i < 5; ++i) {
    db.clock.Advance(1000);
    ASSERT_OK_AND_ASSIGN(ImportTableDescription d,
                         db->ImportTable(ImportOf("T" + std::to_string(i) + "xx", "p/")));
    arns.push_back(d.import_arn);
  }
  ListImportsRequest list;
  list.page_size = 2;
  std::vector<std::string> seen;
  for (int pages = 0;; ++pages) {
    ASSERT_LT(pages, 5);
    ASSERT_OK_AND_ASSIGN(ListImportsResult page, db->ListImports(list));
    for (const auto& d : page.imports) seen.push_back(d.import_arn);
    if (!page.next_token) break;
    list.next_token = page.next_token;
  }
  EXPECT_EQ(seen, std::vector<std::string>(arns.rbegin(), arns.rend()));  // newest first
}

TEST(ImportsTest, RecordsSurviveARestartAndUnfinishedOnesRunAgain) {
  const std::string dir = testing::TempDir() + "/imports_test_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  MemoryFiles files;
  std::vector<Result<Item>> records;
  for (int i = 0; i < 300; ++i) records.push_back(IndexedItem(i));
  files.Set("p/", records);
  EngineOptions options = WithFiles(&files);
  options.in_memory = false;
  options.path = dir;
  std::string arn;
  {
    TestEngine db(options);
    ASSERT_OK_AND_ASSIGN(ImportTableDescription d, db->ImportTable(ImportOf("Imp", "p/")));
    arn = d.import_arn;
  }
  TestEngine db(options);
  ImportTableDescription d = Finished(db, arn);
  EXPECT_EQ(d.import_status, ImportStatus::kCompleted)
      << d.failure_code.value_or("") << ": " << d.failure_message.value_or("");
  EXPECT_EQ(d.imported_item_count, 300);
  EXPECT_EQ(d.table.table_name, "Imp");
  EXPECT_EQ(Contents(db.engine.get(), "Imp").size(), 300u);
  db.engine.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock
