// Bulk put items (engine/transfer/bulk_puts.cc), through the Engine with an
// in-memory TransferFiles handing out objects of records, on a simulated
// clock with throttling on: every record put through the write path, the
// failed and condition-failed records counted and reported, the pacing by
// MaxWriteRequestUnits and by partitions (sorted input makes a rolling hot
// partition that DescribeCapacity shows), the request checks, cancelling,
// failures, and a restart that resumes without counting a record twice.
#include "engine/transfer/bulk_puts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>

#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

// An object's records, pulled one at a time; `stop`, when not OK, is how
// the object ends after its records (a damaged end). Counts what it decodes.
class MemoryObject final : public BulkObjectReader {
 public:
  MemoryObject(std::vector<Result<BulkPutRecord>> records, Status stop, std::atomic<int64_t>* decoded)
      : records_(std::move(records)), stop_(std::move(stop)), decoded_(decoded) {}
  bool Next(Result<BulkPutRecord>* record) override {
    if (next_ >= records_.size()) return End();
    *record = records_[next_++];
    decoded_->fetch_add(1);
    return true;
  }
  bool Skip() override {
    if (next_ >= records_.size()) return End();
    ++next_;
    return true;
  }
  Status status() const override { return status_; }

 private:
  bool End() {
    status_ = stop_;
    return false;
  }
  const std::vector<Result<BulkPutRecord>> records_;
  const Status stop_;
  std::atomic<int64_t>* const decoded_;
  size_t next_ = 0;
  Status status_;
};

// Bucket "bucket": objects by key, each a list of records; "broken/..."
// objects do not decompress at their end, after their records. Reports
// are kept by part.
class MemoryFiles final : public TransferFiles {
 public:
  Result<std::unique_ptr<ExportWriter>> NewExport(const ExportDescription&) override {
    return Status(ErrorCode::kInternal, "not in this test");
  }
  Result<int64_t> ReadImport(const ImportTableDescription&, const ImportRecordVisitor&) override {
    return Status(ErrorCode::kInternal, "not in this test");
  }
  Result<std::vector<BulkInputObject>> ListBulkInput(const BulkInputSource& input) override {
    if (input.s3_bucket != "bucket") {
      return Status(ErrorCode::kResourceNotFound, "The specified bucket does not exist");
    }
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<BulkInputObject> out;
    for (const auto& [key, records] : objects_) {
      if (key.rfind(input.s3_key_prefix.value_or(""), 0) == 0) {
        out.push_back(BulkInputObject{key, static_cast<int64_t>(records.size()) * 100});
      }
    }
    return out;
  }
  Result<std::unique_ptr<BulkObjectReader>> OpenBulkObject(const BulkInputSource&,
                                                          const std::string& key) override {
    Status stop;
    if (key.rfind("broken/", 0) == 0) {
      stop = Status::Validation("The file " + key + " is not valid GZIP");
    }
    std::lock_guard<std::mutex> lock(mu_);
    return std::unique_ptr<BulkObjectReader>(
        new MemoryObject(objects_.at(key), std::move(stop), &decoded_));
  }
  // Records handed out decoded (BulkObjectReader::Next), all objects.
  int64_t decoded() const { return decoded_.load(); }
  Status WriteBulkReport(const BulkOutputTarget&, const std::string&, int64_t,
                         const std::vector<BulkReportEntry>& entries) override {
    std::lock_guard<std::mutex> lock(mu_);
    report_.insert(report_.end(), entries.begin(), entries.end());
    return Status::OK();
  }

  void Set(const std::string& key, std::vector<Result<BulkPutRecord>> records) {
    std::lock_guard<std::mutex> lock(mu_);
    objects_[key] = std::move(records);
  }
  std::vector<BulkReportEntry> report() {
    std::lock_guard<std::mutex> lock(mu_);
    return report_;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::vector<Result<BulkPutRecord>>> objects_;
  std::vector<BulkReportEntry> report_;
  std::atomic<int64_t> decoded_{0};
};

EngineOptions Options(MemoryFiles* files) {
  EngineOptions options = TestEngine::Options();
  options.transfer_files = files;
  options.throttling = true;
  return options;
}

BulkPutRecord Record(Item item) {
  BulkPutRecord r;
  r.put.item = std::move(item);
  return r;
}

// An item of about 900 bytes: one write unit.
Item UnitItem(const std::string& pk, int sk) {
  return SimpleItem(pk, std::to_string(sk).c_str(), std::string(900, 'x'));
}

StartBulkPutItemsRequest StartOf(const std::string& table, const std::string& prefix) {
  StartBulkPutItemsRequest req;
  req.table_name = table;
  req.input.s3_bucket = "bucket";
  req.input.s3_key_prefix = prefix;
  req.output.s3_bucket = "reports";
  req.output.report_errors = true;
  req.output.report_condition_failures = true;
  return req;
}

BulkOperationDescription Describe(TestEngine& db, const std::string& arn) {
  auto d = db->DescribeBulkOperation(DescribeBulkOperationRequest{Scope(), arn});
  EXPECT_OK(d.status());
  return d.ok() ? *d : BulkOperationDescription();
}

// Steps the clock by 100 ms until the operation ends; the simulated time
// it took, in microseconds.
int64_t RunToEnd(TestEngine& db, const std::string& arn) {
  const int64_t start = db.clock.NowMicros();
  for (int i = 0; i < 100'000; ++i) {
    db.engine->RunDueWork();
    const BulkOperationStatus s = Describe(db, arn).status;
    if (s != BulkOperationStatus::kInProgress && s != BulkOperationStatus::kCancelling) break;
    db.clock.Advance(100'000);
  }
  return db.clock.NowMicros() - start;
}

TEST(BulkPutsTest, PutsEveryValidRecordAndCountsAndReportsTheOthers) {
  MemoryFiles files;
  TestEngine db(Options(&files));
  ASSERT_OK(db->CreateTable(SimpleTable("Bulk")).status());
  PutItemRequest existing;
  existing.table_name = "Bulk";
  existing.item = SimpleItem("a", "1", "old");
  ASSERT_OK(db->PutItem(existing).status());

  std::vector<Result<BulkPutRecord>> records;
  for (int i = 2; i <= 21; ++i) records.push_back(Record(SimpleItem("a", std::to_string(i).c_str())));
  records.push_back(Status::Validation("The line has no \"Item\" map"));  // the reader's error
  Item no_key = SimpleItem("a", "30");
  no_key.erase("sk");
  records.push_back(Record(no_key));  // key missing
  BulkPutRecord conditional = Record(SimpleItem("a", "1", "new"));
  conditional.put.condition.condition_expression = "attribute_not_exists(pk)";
  records.push_back(conditional);  // the item exists: its condition is false
  BulkPutRecord fresh = Record(SimpleItem("a", "40", "new"));
  fresh.put.condition.condition_expression = "attribute_not_exists(pk)";
  records.push_back(fresh);  // no item: written
  records.push_back(Record(SimpleItem("a", "50", std::string(410 * 1024, 'y'))));  // too large
  files.Set("in/part-1", records);
  // Broken at its end: none of its records is written.
  files.Set("broken/part-2", {Record(SimpleItem("b", "1")), Record(SimpleItem("b", "2")),
                              Record(SimpleItem("b", "3"))});

  StartBulkPutItemsRequest req = StartOf("Bulk", "");
  ASSERT_OK_AND_ASSIGN(BulkOperationDescription started, db->StartBulkPutItems(req));
  EXPECT_EQ(started.status, BulkOperationStatus::kInProgress);
  EXPECT_THAT(started.bulk_operation_arn,
              testing::MatchesRegex(".*:table/Bulk/bulk-operation/[0-9]+-[0-9a-f]+"));
  EXPECT_EQ(started.max_write_request_units, 10'000);  // the STANDARD tier's rate
  EXPECT_FALSE(started.total_input_bytes.has_value());
  RunToEnd(db, started.bulk_operation_arn);

  const BulkOperationDescription done = Describe(db, started.bulk_operation_arn);
  EXPECT_EQ(done.status, BulkOperationStatus::kCompletedWithErrors);
  EXPECT_EQ(done.processed_item_count, 26);  // 25 records and the broken object
  EXPECT_EQ(done.failed_item_count, 4);      // not an item, no key, too large, broken object
  EXPECT_EQ(done.condition_check_failure_count, 1);
  EXPECT_EQ(done.total_input_bytes, 2800);
  EXPECT_EQ(done.processed_input_bytes, 2800);
  EXPECT_TRUE(done.end_micros.has_value());
  EXPECT_FALSE(done.failure_code.has_value());
  EXPECT_GT(done.usage.table_bulk_put_bytes, 0);
  EXPECT_EQ(done.usage.bulk_put_bytes, done.usage.table_bulk_put_bytes);

  // 21 new items beside the old one, which the false condition kept.
  ScanRequest scan;
  scan.table_name = "Bulk";
  ASSERT_OK_AND_ASSIGN(ScanResult all, db->Scan(scan));
  EXPECT_EQ(all.items.size(), 22u);
  GetItemRequest get;
  get.table_name = "Bulk";
  get.key = SimpleKey("a", "1");
  ASSERT_OK_AND_ASSIGN(GetItemResult old, db->GetItem(get));
  EXPECT_EQ(old.item->at("payload").s(), "old");

  const std::vector<BulkReportEntry> report = files.report();
  ASSERT_EQ(report.size(), 5u);
  int errors = 0, conditions = 0;
  for (const BulkReportEntry& e : report) {
    if (e.kind == BulkReportEntry::Kind::kConditionCheckFailure) {
      ++conditions;
      EXPECT_EQ(e.object_key, "in/part-1");
      EXPECT_EQ(e.record_number, 23);
      EXPECT_EQ(e.error_code, "ConditionalCheckFailedException");
      ASSERT_TRUE(e.existing_item.has_value());
      EXPECT_EQ(e.existing_item->at("payload").s(), "old");
    } else {
      ++errors;
    }
  }
  EXPECT_EQ(errors, 4);
  EXPECT_EQ(conditions, 1);
}

TEST(BulkPutsTest, WithADueWorkTimerClientCallsNeverRunAStep) {
  // A step can take seconds (an object read and parsed, a second of
  // writes): under `dynarock serve` it must not hold a client's call.
  MemoryFiles files;
  EngineOptions options = Options(&files);
  options.due_work_interval_micros = int64_t{3600} * 1'000'000;  // not in this test
  TestEngine db(options);
  ASSERT_OK(db->CreateTable(SimpleTable("Bulk")).status());
  std::vector<Result<BulkPutRecord>> records;
  for (int i = 1; i <= 10; ++i) records.push_back(Record(SimpleItem("a", std::to_string(i).c_str())));
  files.Set("in/part-1", records);
  ASSERT_OK_AND_ASSIGN(BulkOperationDescription started, db->StartBulkPutItems(StartOf("Bulk", "")));
  for (int i = 0; i < 5; ++i) {
    db.clock.Advance(1'000'000);
    const BulkOperationDescription d = Describe(db, started.bulk_operation_arn);  // a client call
    EXPECT_EQ(d.status, BulkOperationStatus::kInProgress);
    EXPECT_EQ(d.processed_item_count, 0);
  }
  db->RunDueWork();  // what the timer runs: lists the input
  db.clock.Advance(1'000'000);
  db->RunDueWork();  // writes what a second of the job's budget allows
  EXPECT_EQ(Describe(db, started.bulk_operation_arn).processed_item_count, 10);
}

TEST(BulkPutsTest, AnUnpacedJobMovesInBoundedStepsAndPutsEveryItem) {
  // A step returns after its slice of wall time with the job still in
  // progress (the slice 0 here: one record a step), and the next due work
  // goes on from there.
  MemoryFiles files;
  EngineOptions options = Options(&files);
  options.throttling = false;
  options.due_work_step_slice_micros = 0;
  options.due_work_interval_micros = int64_t{3600} * 1'000'000;  // only this test's steps
  TestEngine db(options);
  ASSERT_OK(db->CreateTable(SimpleTable("Bulk")).status());
  std::vector<Result<BulkPutRecord>> records;
  for (int i = 1; i <= 10; ++i) records.push_back(Record(SimpleItem("a", std::to_string(i).c_str())));
  files.Set("in/part-1", records);
  StartBulkPutItemsRequest req = StartOf("Bulk", "");
  req.max_write_request_units = int64_t{1} << 40;  // unpaced
  ASSERT_OK_AND_ASSIGN(BulkOperationDescription started, db->StartBulkPutItems(req));
  db->RunDueWork();  // lists the input and reads the object
  db.clock.Advance(1'000'000);  // a second of the budget: more than all the records need
  db->RunDueWork();  // one record
  BulkOperationDescription d = Describe(db, started.bulk_operation_arn);
  EXPECT_EQ(d.status, BulkOperationStatus::kInProgress);
  EXPECT_EQ(d.processed_item_count, 1);
  int steps = 2;
  while (Describe(db, started.bulk_operation_arn).status == BulkOperationStatus::kInProgress &&
         steps < 100) {
    db->RunDueWork();
    ++steps;
  }
  d = Describe(db, started.bulk_operation_arn);
  EXPECT_EQ(d.status, BulkOperationStatus::kCompleted);
  EXPECT_EQ(d.processed_item_count, 10);
  EXPECT_GE(steps, 11);
  ScanRequest scan;
  scan.table_name = "Bulk";
  ASSERT_OK_AND_ASSIGN(ScanResult all, db->Scan(scan));
  EXPECT_EQ(all.items.size(), 10u);
}

TEST(BulkPutsTest, AJobHoldsOneRecordOfItsObjectAtATime) {
  // The object is read record by record as they are put (a job that read
  // its object whole, as it once did, decodes all 1,000 in its first step).
  MemoryFiles files;
  EngineOptions options = Options(&files);
  options.throttling = false;
  options.due_work_step_slice_micros = 0;  // one record a step
  options.due_work_interval_micros = int64_t{3600} * 1'000'000;  // only this test's steps
  TestEngine db(options);
  ASSERT_OK(db->CreateTable(SimpleTable("Bulk")).status());
  std::vector<Result<BulkPutRecord>> records;
  for (int i = 1; i <= 1000; ++i) records.push_back(Record(SimpleItem("a", std::to_string(i).c_str())));
  files.Set("in/part-1", records);
  StartBulkPutItemsRequest req = StartOf("Bulk", "");
  req.max_write_request_units = int64_t{1} << 40;  // unpaced
  ASSERT_OK_AND_ASSIGN(BulkOperationDescription started, db->StartBulkPutItems(req));
  db->RunDueWork();  // lists the input: the job's budget starts now
  db.clock.Advance(1'000'000);  // a second of it: more than all the records need
  int64_t most_ahead = 0;
  for (int step = 0; step < 1100; ++step) {
    db->RunDueWork();
    const BulkOperationDescription d = Describe(db, started.bulk_operation_arn);
    most_ahead = std::max(most_ahead, files.decoded() - d.processed_item_count);
    if (d.status != BulkOperationStatus::kInProgress) break;
  }
  const BulkOperationDescription done = Describe(db, started.bulk_operation_arn);
  EXPECT_EQ(done.status, BulkOperationStatus::kCompleted);
  EXPECT_EQ(done.processed_item_count, 1000);
  EXPECT_EQ(files.decoded(), 1000);  // each record decoded once
  EXPECT_LE(most_ahead, 1);
}

TEST(BulkPutsTest, AnObjectDamagedAtItsEndWritesNoneOfItsRecords) {
  // "Validation errors that stop an object" are found by the validation
  // pass, which reads the object to its end before any record is put.
  MemoryFiles files;
  TestEngine db(Options(&files));
  ASSERT_OK(db->CreateTable(SimpleTable("Bulk")).status());
  std::vector<Result<BulkPutRecord>> records;
  for (int i = 1; i <= 500; ++i) records.push_back(Record(SimpleItem("a", std::to_string(i).c_str())));
  files.Set("broken/part-1", records);
  files.Set("ok/part-2", {Record(SimpleItem("b", "1"))});
  ASSERT_OK_AND_ASSIGN(BulkOperationDescription started, db->StartBulkPutItems(StartOf("Bulk", "")));
  RunToEnd(db, started.bulk_operation_arn);
  const BulkOperationDescription done = Describe(db, started.bulk_operation_arn);
  EXPECT_EQ(done.status, BulkOperationStatus::kCompletedWithErrors);
  EXPECT_EQ(done.processed_item_count, 2);  // the broken object and the good record
  EXPECT_EQ(done.failed_item_count, 1);
  EXPECT_EQ(files.decoded(), 1);  // the broken object's records were never decoded
  ScanRequest scan;
  scan.table_name = "Bulk";
  ASSERT_OK_AND_ASSIGN(ScanResult all, db->Scan(scan));
  ASSERT_EQ(all.items.size(), 1u);
  EXPECT_EQ(all.items[0].at("pk").s(), "b");
  const std::vector<BulkReportEntry> report = files.report();
  ASSERT_EQ(report.size(), 1u);
  EXPECT_EQ(report[0].object_key, "broken/part-1");
  EXPECT_EQ(report[0].error_message, "The file broken/part-1 is not valid GZIP");
}

TEST(BulkPutsTest, ConditionFailuresAloneCompleteTheOperation) {
  MemoryFiles files;
  TestEngine db(Options(&files));
  ASSERT_OK(db->CreateTable(SimpleTable("Bulk")).status());
  std::vector<Result<BulkPutRecord>> records;
  for (int i = 0; i < 2; ++i) {
    BulkPutRecord r = Record(SimpleItem("a", "1"));
    r.put.condition.condition_expression = "attribute_not_exists(pk)";
    records.push_back(r);  // the second finds the first
  }
  files.Set("in/1", records);
  ASSERT_OK_AND_ASSIGN(BulkOperationDescription started,
                       db->StartBulkPutItems(StartOf("Bulk", "in/")));
  RunToEnd(db, started.bulk_operation_arn);
  const BulkOperationDescription done = Describe(db, started.bulk_operation_arn);
  EXPECT_EQ(done.status, BulkOperationStatus::kCompleted);
  EXPECT_EQ(done.processed_item_count, 2);
  EXPECT_EQ(done.failed_item_count, 0);
  EXPECT_EQ(done.condition_check_failure_count, 1);
}

// `keys` partition keys of `per_key` one-unit items each: sorted by key,
// consecutive writes go to one partition (at most 1,000 units a second once
// its one-second bucket is spent); shuffled, they spread over the table's
// partitions and the job's own budget is the limit.
std::vector<Result<BulkPutRecord>> KeyedRecords(bool sorted, int keys = 10, int per_key = 300) {
  std::vector<Result<BulkPutRecord>> records;
  for (int k = 0; k < keys; ++k) {
    for (int i = 0; i < per_key; ++i) {
      records.push_back(Record(UnitItem("key" + std::to_string(k), i)));
    }
  }
  if (!sorted) std::shuffle(records.begin(), records.end(), std::mt19937(7));
  return records;
}

int64_t LoadTime(bool sorted, TableThroughputStats* stats) {
  MemoryFiles files;
  TestEngine db(Options(&files));
  CreateTableRequest table = SimpleTable("Bulk");
  EXPECT_OK(db->CreateTable(table).status());
  files.Set("in/1", KeyedRecords(sorted, 4, 3000));
  StartBulkPutItemsRequest req = StartOf("Bulk", "in/");
  req.max_write_request_units = 2048;
  auto started = db->StartBulkPutItems(req);
  EXPECT_OK(started.status());
  if (!started.ok()) return 0;
  const int64_t took = RunToEnd(db, started->bulk_operation_arn);
  const BulkOperationDescription done = Describe(db, started->bulk_operation_arn);
  EXPECT_EQ(done.status, BulkOperationStatus::kCompleted);
  EXPECT_EQ(done.processed_item_count, 12000);
  auto s = db->DescribeCapacity(Scope(), "Bulk");
  EXPECT_OK(s.status());
  if (s.ok()) *stats = *s;
  return took;
}

TEST(BulkPutsTest, SortedInputMakesARollingHotPartition) {
  TableThroughputStats sorted_stats, shuffled_stats;
  const int64_t sorted = LoadTime(true, &sorted_stats);
  const int64_t shuffled = LoadTime(false, &shuffled_stats);
  // Shuffled: 12,000 units at 2,048 a second, about 6 s; the job's budget
  // is the limit.
  EXPECT_GE(shuffled, 5'500'000);
  EXPECT_LE(shuffled, 8'000'000);
  EXPECT_EQ(shuffled_stats.table.total.throttled_write_requests, 0);
  // Sorted: each key's 3,000 units go to one partition at a time, at most
  // 1,000 a second once its bucket is spent: about 9 s, with throttles on
  // the hot keys (deterministic on the simulated clock: 9.1 s against 5.9).
  EXPECT_GT(sorted, shuffled * 14 / 10);
  EXPECT_GT(sorted_stats.table.total.throttled_write_requests, 0);
  ASSERT_FALSE(sorted_stats.table.hot_keys.empty());
  EXPECT_THAT(sorted_stats.table.hot_keys[0].key, testing::HasSubstr("key"));
  EXPECT_GT(sorted_stats.table.hot_keys[0].throttled_units, 0);
}

TEST(BulkPutsTest, ChecksTheRequestAndTheTable) {
  MemoryFiles files;
  TestEngine db(Options(&files));
  StartBulkPutItemsRequest req = StartOf("Missing", "in/");
  EXPECT_THAT(db->StartBulkPutItems(req).status(), StatusIs(ErrorCode::kResourceNotFound, testing::_));
  ASSERT_OK(db->CreateTable(SimpleTable("Bulk")).status());
  req = StartOf("Bulk", "in/");
  req.max_write_request_units = 1023;
  EXPECT_THAT(db->StartBulkPutItems(req).status(), StatusIs(ErrorCode::kValidation, testing::_));
  req = StartOf("Bulk", "in/");
  req.output.report_errors = req.output.report_condition_failures = false;
  EXPECT_THAT(db->StartBulkPutItems(req).status(), StatusIs(ErrorCode::kValidation, testing::_));

  files.Set("in/1", KeyedRecords(false));
  req = StartOf("Bulk", "in/");
  req.client_token = "token-1";
  ASSERT_OK_AND_ASSIGN(BulkOperationDescription first, db->StartBulkPutItems(req));
  // The same token and parameters: the same operation.
  ASSERT_OK_AND_ASSIGN(BulkOperationDescription again, db->StartBulkPutItems(req));
  EXPECT_EQ(again.bulk_operation_arn, first.bulk_operation_arn);
  req.performance_tier = BulkPerformanceTier::kAccelerated;
  EXPECT_THAT(db->StartBulkPutItems(req).status(),
              StatusIs(ErrorCode::kIdempotentParameterMismatch, testing::_));
  // One operation at a time on a table.
  req.client_token.reset();
  EXPECT_THAT(db->StartBulkPutItems(req).status(), StatusIs(ErrorCode::kLimitExceeded, testing::_));

  EXPECT_THAT(db->DescribeBulkOperation(
                    DescribeBulkOperationRequest{Scope(), first.bulk_operation_arn + "x"})
                  .status(),
              StatusIs(ErrorCode::kResourceNotFound, testing::_));
}

TEST(BulkPutsTest, CancelStopsTheJobAndKeepsWhatWasWritten) {
  MemoryFiles files;
  TestEngine db(Options(&files));
  ASSERT_OK(db->CreateTable(SimpleTable("Bulk")).status());
  files.Set("in/1", KeyedRecords(false));
  StartBulkPutItemsRequest req = StartOf("Bulk", "in/");
  req.max_write_request_units = 1024;
  ASSERT_OK_AND_ASSIGN(BulkOperationDescription started, db->StartBulkPutItems(req));
  db.engine->RunDueWork();
  db.clock.Advance(1'000'000);
  db.engine->RunDueWork();
  ASSERT_OK_AND_ASSIGN(BulkOperationDescription cancelling,
                       db->CancelBulkOperation(
                           CancelBulkOperationRequest{Scope(), started.bulk_operation_arn}));
  EXPECT_EQ(cancelling.status, BulkOperationStatus::kCancelling);
  RunToEnd(db, started.bulk_operation_arn);
  const BulkOperationDescription done = Describe(db, started.bulk_operation_arn);
  EXPECT_EQ(done.status, BulkOperationStatus::kCancelled);
  EXPECT_TRUE(done.failure_code.has_value());
  EXPECT_GT(done.processed_item_count, 0);
  EXPECT_LT(done.processed_item_count, 3000);
  ScanRequest scan;
  scan.table_name = "Bulk";
  ASSERT_OK_AND_ASSIGN(ScanResult all, db->Scan(scan));
  EXPECT_EQ(static_cast<int64_t>(all.items.size()), done.processed_item_count);
  EXPECT_THAT(
      db->CancelBulkOperation(CancelBulkOperationRequest{Scope(), started.bulk_operation_arn})
          .status(),
      StatusIs(ErrorCode::kValidation, testing::_));
}

TEST(BulkPutsTest, AMissingBucketOrAnEmptyPrefixFailsTheOperation) {
  MemoryFiles files;
  TestEngine db(Options(&files));
  ASSERT_OK(db->CreateTable(SimpleTable("Bulk")).status());
  StartBulkPutItemsRequest req = StartOf("Bulk", "nothing/");
  ASSERT_OK_AND_ASSIGN(BulkOperationDescription empty, db->StartBulkPutItems(req));
  RunToEnd(db, empty.bulk_operation_arn);
  BulkOperationDescription d = Describe(db, empty.bulk_operation_arn);
  EXPECT_EQ(d.status, BulkOperationStatus::kFailed);
  EXPECT_EQ(d.failure_code, "InvalidInput");
  req.input.s3_bucket = "missing";
  db.clock.Advance(1000);  // newest first: by start time
  ASSERT_OK_AND_ASSIGN(BulkOperationDescription missing, db->StartBulkPutItems(req));
  RunToEnd(db, missing.bulk_operation_arn);
  d = Describe(db, missing.bulk_operation_arn);
  EXPECT_EQ(d.status, BulkOperationStatus::kFailed);
  EXPECT_EQ(d.failure_code, "S3NoSuchBucket");
  ASSERT_OK_AND_ASSIGN(ListBulkOperationsResult list,
                       db->ListBulkOperations(ListBulkOperationsRequest{Scope(), 1, {}}));
  ASSERT_EQ(list.operations.size(), 1u);
  EXPECT_EQ(list.operations[0].bulk_operation_arn, missing.bulk_operation_arn);  // newest first
  ASSERT_TRUE(list.next_token.has_value());
}

TEST(BulkPutsTest, ARestartResumesFromTheCheckpointWithoutCountingTwice) {
  const std::string dir = testing::TempDir() + "/bulk_puts_test_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  MemoryFiles files;
  files.Set("in/1", KeyedRecords(false));
  EngineOptions options = Options(&files);
  options.in_memory = false;
  options.path = dir;
  std::string arn;
  int64_t before = 0;
  {
    TestEngine db(options);
    ASSERT_OK(db->CreateTable(SimpleTable("Bulk")).status());
    StartBulkPutItemsRequest req = StartOf("Bulk", "in/");
    req.max_write_request_units = 1024;
    ASSERT_OK_AND_ASSIGN(BulkOperationDescription started, db->StartBulkPutItems(req));
    arn = started.bulk_operation_arn;
    for (int i = 0; i < 15; ++i) {
      db.engine->RunDueWork();
      db.clock.Advance(100'000);
    }
    before = Describe(db, arn).processed_item_count;
    EXPECT_GT(before, 0);
    EXPECT_LT(before, 3000);
  }
  TestEngine db(options);
  EXPECT_EQ(Describe(db, arn).status, BulkOperationStatus::kInProgress);
  EXPECT_LE(Describe(db, arn).processed_item_count, before);  // the last checkpoint
  RunToEnd(db, arn);
  const BulkOperationDescription done = Describe(db, arn);
  EXPECT_EQ(done.status, BulkOperationStatus::kCompleted);
  EXPECT_EQ(done.processed_item_count, 3000);
  EXPECT_EQ(done.failed_item_count, 0);
  ASSERT_OK_AND_ASSIGN(TableDescription table,
                       db->DescribeTable(DescribeTableRequest{Scope(), "Bulk"}));
  EXPECT_EQ(table.item_count, 3000);
  db.engine.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock
