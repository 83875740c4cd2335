#include "engine/transfer/bulk_puts.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <tuple>

#include "engine/clock.h"
#include "engine/index/index_entry.h"
#include "engine/keys/key_codec.h"
#include "engine/schema/schema.h"
#include "engine/plan/item_requests.h"
#include "engine/transfer/job_page.h"
#include "engine/transfer/job_records.h"
#include "engine/util/coding.h"
#include "engine/value/item_size.h"

namespace dynarock {

// What requests see (`desc`, under mu_) and what the step works on (the
// rest, under step_mu_; `work` is published to `desc` after each step).
struct BulkPuts::Job {
  std::string ns;
  std::string fingerprint;
  BulkOperationDescription desc;
  BulkOperationDescription work;
  bool listed = false;
  std::vector<BulkInputObject> objects;
  size_t object_index = 0;  // checkpointed
  size_t record_index = 0;  // in the current object; checkpointed
  bool object_loaded = false;
  // The put pass over the current object (null for an object that stopped)
  // and the record pulled from it, not yet put (it may wait for the budget
  // or its partition). What the job holds of an object is this, never the
  // object (see LoadObject).
  std::unique_ptr<BulkObjectReader> reader;
  std::optional<Result<BulkPutRecord>> record;
  double tokens = 0;
  int64_t refilled_micros = 0;
  int64_t retry_at_micros = 0;
  // The last step ended with its slice of wall time, not its budget: the
  // next one is due at once.
  bool slice_ended = false;
  int64_t checkpoint_micros = 0;
  int64_t report_part = 0;  // checkpointed
  std::vector<BulkReportEntry> report;
};

namespace {

// Meta column family: "U" ns "\0" operation arn -> operation record.
constexpr char kBulkPrefix = 'U';
// Version 1: see Encode.
constexpr uint8_t kRecordVersion = 1;
constexpr uint8_t kMaxStatus = static_cast<uint8_t>(BulkOperationStatus::kFailed);
constexpr int64_t kCheckpointMicros = 1'000'000;
// DynamoDB's smallest MaxWriteRequestUnits (API reference).
constexpr int64_t kMinWriteRequestUnits = 1024;

void PutInput(RecordWriter& w, const BulkInputSource& in) {
  w.String(in.s3_bucket);
  w.OptionalString(in.s3_bucket_owner);
  w.OptionalString(in.s3_key_prefix);
  w.Byte(in.input_format);
  w.Byte(in.compression);
}

void PutOutput(RecordWriter& w, const BulkOutputTarget& out) {
  w.OptionalString(out.s3_bucket);
  w.OptionalString(out.s3_bucket_owner);
  w.OptionalString(out.s3_key_prefix);
  w.OptionalString(out.s3_sse_algorithm);
  w.OptionalString(out.s3_sse_kms_key_id);
  w.Bool(out.report_errors);
  w.Bool(out.report_condition_failures);
}

void PutBytesMap(RecordWriter& w, const std::map<std::string, int64_t>& m) {
  w.Varint(m.size());
  for (const auto& [name, bytes] : m) {
    w.String(name);
    w.Signed(bytes);
  }
}

std::map<std::string, int64_t> ReadBytesMap(RecordReader& r) {
  std::map<std::string, int64_t> m;
  const uint64_t n = r.Varint();
  for (uint64_t i = 0; r.ok && i < n; ++i) {
    std::string name = r.String();
    m[std::move(name)] = r.Signed();
  }
  return m;
}

std::string Encode(const std::string& ns, const std::string& fingerprint,
                   const BulkOperationDescription& d, uint64_t object_index,
                   uint64_t record_index, int64_t report_part) {
  std::string out;
  RecordWriter w(&out);
  w.Byte(kRecordVersion);
  w.String(ns);
  w.String(fingerprint);
  w.String(d.bulk_operation_arn);
  w.Byte(d.status);
  w.String(d.table_name);
  w.String(d.table_id);
  w.String(d.client_token);
  PutInput(w, d.input);
  PutOutput(w, d.output);
  w.Signed(d.start_micros);
  w.OptionalSigned(d.end_micros);
  w.Signed(d.processed_item_count);
  w.Signed(d.processed_input_bytes);
  w.OptionalSigned(d.total_input_bytes);
  w.Signed(d.usage.bulk_put_bytes);
  w.Signed(d.usage.table_bulk_put_bytes);
  PutBytesMap(w, d.usage.global_secondary_indexes);
  PutBytesMap(w, d.usage.local_secondary_indexes);
  w.Signed(d.failed_item_count);
  w.Signed(d.condition_check_failure_count);
  w.OptionalString(d.failure_code);
  w.OptionalString(d.failure_message);
  w.Signed(d.max_write_request_units);
  w.Byte(d.performance_tier);
  w.Varint(object_index);
  w.Varint(record_index);
  w.Signed(report_part);
  return out;
}

struct Decoded {
  std::string ns;
  std::string fingerprint;
  BulkOperationDescription desc;
  uint64_t object_index = 0;
  uint64_t record_index = 0;
  int64_t report_part = 0;
};

Result<Decoded> Decode(std::string_view value) {
  RecordReader r(value);
  if (r.Byte() != kRecordVersion) return Status::Corruption("unknown bulk operation record version");
  Decoded out;
  out.ns = r.String();
  out.fingerprint = r.String();
  BulkOperationDescription& d = out.desc;
  d.bulk_operation_arn = r.String();
  const uint8_t status = r.Byte();
  d.table_name = r.String();
  d.table_id = r.String();
  d.client_token = r.String();
  d.input.s3_bucket = r.String();
  d.input.s3_bucket_owner = r.OptionalString();
  d.input.s3_key_prefix = r.OptionalString();
  const uint8_t format = r.Byte();
  const uint8_t compression = r.Byte();
  d.output.s3_bucket = r.OptionalString();
  d.output.s3_bucket_owner = r.OptionalString();
  d.output.s3_key_prefix = r.OptionalString();
  d.output.s3_sse_algorithm = r.OptionalString();
  d.output.s3_sse_kms_key_id = r.OptionalString();
  d.output.report_errors = r.Byte() != 0;
  d.output.report_condition_failures = r.Byte() != 0;
  d.start_micros = r.Signed();
  d.end_micros = r.OptionalSigned();
  d.processed_item_count = r.Signed();
  d.processed_input_bytes = r.Signed();
  d.total_input_bytes = r.OptionalSigned();
  d.usage.table_name = d.table_name;
  d.usage.bulk_put_bytes = r.Signed();
  d.usage.table_bulk_put_bytes = r.Signed();
  d.usage.global_secondary_indexes = ReadBytesMap(r);
  d.usage.local_secondary_indexes = ReadBytesMap(r);
  d.failed_item_count = r.Signed();
  d.condition_check_failure_count = r.Signed();
  d.failure_code = r.OptionalString();
  d.failure_message = r.OptionalString();
  d.max_write_request_units = r.Signed();
  const uint8_t tier = r.Byte();
  out.object_index = r.Varint();
  out.record_index = r.Varint();
  out.report_part = r.Signed();
  if (!r.ok || status > kMaxStatus || format > 1 || compression > 2 || tier > 1) {
    return Status::Corruption("bad bulk operation record");
  }
  d.status = static_cast<BulkOperationStatus>(status);
  d.input.input_format = static_cast<BulkInputFormat>(format);
  d.input.compression = static_cast<InputCompression>(compression);
  d.performance_tier = static_cast<BulkPerformanceTier>(tier);
  return out;
}

// The request's parameters but the token, for ClientToken idempotency.
std::string Fingerprint(const StartBulkPutItemsRequest& req) {
  std::string f;
  RecordWriter w(&f);
  PutInput(w, req.input);
  PutOutput(w, req.output);
  w.String(req.table_name);
  w.OptionalSigned(req.max_write_request_units);
  w.Byte(req.performance_tier);
  return f;
}

bool Running(BulkOperationStatus s) {
  return s == BulkOperationStatus::kInProgress || s == BulkOperationStatus::kCancelling;
}

bool Refused(ErrorCode code) {
  return code == ErrorCode::kProvisionedThroughputExceeded || code == ErrorCode::kThrottling ||
         code == ErrorCode::kRequestLimitExceeded || code == ErrorCode::kTransactionConflict;
}

std::string OperationIdOf(const std::string& arn) {
  const size_t slash = arn.rfind('/');
  return slash == std::string::npos ? arn : arn.substr(slash + 1);
}

}  // namespace

Status BulkOperationNotFound(const std::string& arn) {
  return Status::ResourceNotFound("Bulk operation not found: " + arn);
}

BulkPuts::BulkPuts(Store* store, const Clock* clock, TableLifecycle* tables, WritePath* writes,
                   TransferFiles* files, BulkPutOptions options)
    : store_(store),
      clock_(clock),
      tables_(tables),
      writes_(writes),
      files_(files),
      options_(options) {}

BulkPuts::~BulkPuts() = default;

Result<std::unique_ptr<BulkPuts>> BulkPuts::Open(Store* store, const Clock* clock,
                                                 TableLifecycle* tables, WritePath* writes,
                                                 TransferFiles* files, BulkPutOptions options) {
  std::unique_ptr<BulkPuts> bulk(new BulkPuts(store, clock, tables, writes, files, options));
  MutexLock lock(&bulk->mu_);
  auto it = store->NewIterator(Cf::kMeta, std::string(1, kBulkPrefix),
                               std::string(1, kBulkPrefix + 1));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    DR_ASSIGN_OR_RETURN(Decoded d, Decode(it->value()));
    auto job = std::make_unique<Job>();
    job->ns = d.ns;
    job->fingerprint = std::move(d.fingerprint);
    job->desc = d.desc;
    job->work = std::move(d.desc);
    job->object_index = d.object_index;
    job->record_index = d.record_index;
    job->report_part = d.report_part;
    if (Running(job->work.status)) bulk->active_.fetch_add(1, std::memory_order_acq_rel);
    const std::string arn = job->work.bulk_operation_arn;
    bulk->jobs_[Key{d.ns, arn}] = std::move(job);
  }
  DR_RETURN_IF_ERROR(it->status());
  return bulk;
}

Status BulkPuts::Persist(const Job& job) {
  WriteBatch batch;
  batch.Put(Cf::kMeta, JobRecordKey(kBulkPrefix, job.ns, job.work.bulk_operation_arn),
            Encode(job.ns, job.fingerprint, job.work, job.object_index, job.record_index,
                   job.report_part));
  return store_->Write(&batch);
}

Result<BulkOperationDescription> BulkPuts::Start(const StartBulkPutItemsRequest& req) {
  if (req.max_write_request_units && *req.max_write_request_units < kMinWriteRequestUnits) {
    return Status::Validation(
        "1 validation error detected: Value '" + std::to_string(*req.max_write_request_units) +
        "' at 'maxWriteRequestUnits' failed to satisfy constraint: Member must have value "
        "greater than or equal to 1024");
  }
  if (!req.output.report_errors && !req.output.report_condition_failures) {
    return Status::Validation("OutputType must contain at least one of ERROR, CONDITION_CHECK_FAILURE");
  }
  if (req.output.s3_sse_kms_key_id && req.output.s3_sse_algorithm != "KMS") {
    return Status::Validation("S3SseKmsKeyId can only be specified when S3SseAlgorithm is KMS");
  }
  const std::string fingerprint = Fingerprint(req);
  const int64_t now = clock_->NowMicros();
  MutexLock lock(&mu_);
  if (req.client_token) {
    for (const auto& [key, job] : jobs_) {
      if (key.first != req.scope.ns || job->desc.client_token != *req.client_token ||
          now - job->desc.start_micros > options_.client_token_micros) {
        continue;
      }
      if (job->fingerprint != fingerprint) {
        return Status(ErrorCode::kIdempotentParameterMismatch,
                      "Bulk operation with client token " + *req.client_token +
                          " already exists with different parameters");
      }
      return job->desc;
    }
  }
  // The table: ACTIVE (or UPDATING), and not creating an index (DynamoDB's
  // "Table state requirements" for bulk put items).
  DR_ASSIGN_OR_RETURN(std::shared_ptr<const TableInfo> table,
                      tables_->ForData(req.scope, req.table_name));
  for (const GlobalSecondaryIndexDescription& g : table->desc.global_secondary_indexes) {
    if (g.backfilling || g.index_status == TableStatus::kCreating) {
      return Status::ResourceInUse("Cannot start a bulk operation on table " + req.table_name +
                                   " while index " + g.def.index_name + " is being created");
    }
  }
  size_t active = 0, on_table = 0;
  for (const auto& [key, job] : jobs_) {
    if (key.first != req.scope.ns || !Running(job->desc.status)) continue;
    ++active;
    if (job->desc.table_id == table->desc.table_id) ++on_table;
  }
  if (active >= options_.max_active_operations) {
    return Status(ErrorCode::kLimitExceeded,
                  "Too many bulk operations in progress: at most " +
                      std::to_string(options_.max_active_operations) + " at a time");
  }
  if (on_table >= options_.max_active_per_table) {
    return Status(ErrorCode::kLimitExceeded,
                  "A bulk operation is already in progress on table " + req.table_name);
  }
  auto job = std::make_unique<Job>();
  job->ns = req.scope.ns;
  job->fingerprint = fingerprint;
  BulkOperationDescription& d = job->work;
  d.bulk_operation_arn = table->desc.table_arn + "/bulk-operation/" + NewJobId(now);
  d.status = BulkOperationStatus::kInProgress;
  d.table_name = table->desc.table_name;
  d.table_id = table->desc.table_id;
  d.client_token = req.client_token.value_or("");
  d.input = req.input;
  d.output = req.output;
  d.start_micros = now;
  d.usage.table_name = d.table_name;
  d.max_write_request_units = req.max_write_request_units.value_or(
      req.performance_tier == BulkPerformanceTier::kAccelerated
          ? options_.accelerated_write_units
          : options_.standard_write_units);
  d.performance_tier = req.performance_tier;
  job->desc = d;
  DR_RETURN_IF_ERROR(Persist(*job));
  BulkOperationDescription answer = d;
  jobs_[Key{job->ns, d.bulk_operation_arn}] = std::move(job);
  active_.fetch_add(1, std::memory_order_acq_rel);
  return answer;
}

Result<BulkOperationDescription> BulkPuts::Describe(const DescribeBulkOperationRequest& req) {
  MutexLock lock(&mu_);
  auto it = jobs_.find(Key{req.scope.ns, req.bulk_operation_arn});
  if (it == jobs_.end()) return BulkOperationNotFound(req.bulk_operation_arn);
  return it->second->desc;
}

Result<ListBulkOperationsResult> BulkPuts::List(const ListBulkOperationsRequest& req) {
  std::vector<BulkOperationDescription> all;
  {
    MutexLock lock(&mu_);
    for (const auto& [key, job] : jobs_) {
      if (key.first == req.scope.ns) all.push_back(job->desc);
    }
  }
  auto page = TakeJobPage(
      std::move(all), req.next_token,
      req.max_results ? static_cast<size_t>(*req.max_results) : kDefaultJobPage,
      [](const BulkOperationDescription& d) -> const std::string& { return d.bulk_operation_arn; });
  if (!page.ok()) return page.status();
  ListBulkOperationsResult result;
  result.operations = std::move(page->jobs);
  result.next_token = std::move(page->next_token);
  return result;
}

Result<BulkOperationDescription> BulkPuts::Cancel(const CancelBulkOperationRequest& req) {
  MutexLock step(&step_mu_);
  MutexLock lock(&mu_);
  auto it = jobs_.find(Key{req.scope.ns, req.bulk_operation_arn});
  if (it == jobs_.end()) return BulkOperationNotFound(req.bulk_operation_arn);
  Job& job = *it->second;
  if (job.work.status == BulkOperationStatus::kCancelling) return job.desc;
  if (job.work.status != BulkOperationStatus::kInProgress) {
    return Status::Validation("Bulk operation " + req.bulk_operation_arn +
                              " cannot be cancelled in status " +
                              std::string(BulkOperationStatusName(job.work.status)));
  }
  job.work.status = BulkOperationStatus::kCancelling;
  DR_RETURN_IF_ERROR(Persist(job));
  job.desc = job.work;
  return job.desc;
}

bool BulkPuts::RunDue() {
  if (!Busy() || !step_mu_.TryLock()) return false;
  const int64_t now = clock_->NowMicros();
  std::vector<Job*> running;
  {
    MutexLock lock(&mu_);
    for (auto& [key, job] : jobs_) {
      if (Running(job->work.status)) running.push_back(job.get());
    }
  }
  std::sort(running.begin(), running.end(), [](const Job* a, const Job* b) {
    return std::tie(a->work.start_micros, a->work.bulk_operation_arn) <
           std::tie(b->work.start_micros, b->work.bulk_operation_arn);
  });
  bool more = false;
  for (Job* job : running) {
    const bool progressed = Step(job, now);
    const bool ended = !Running(job->work.status);
    more = more || (job->slice_ended && !ended);
    if (ended || (progressed && now - job->checkpoint_micros >= kCheckpointMicros)) {
      FlushReport(job);
      // On failure the record keeps the previous checkpoint: a restart
      // goes on from there.
      if (Persist(*job).ok()) job->checkpoint_micros = now;
    }
    MutexLock lock(&mu_);
    job->desc = job->work;
  }
  step_mu_.Unlock();
  return more;
}

void BulkPuts::Finish(Job* job, BulkOperationStatus status, int64_t now,
                      std::optional<std::string> code, std::optional<std::string> message) {
  job->work.status = status;
  job->work.end_micros = now;
  job->work.failure_code = std::move(code);
  job->work.failure_message = std::move(message);
  job->reader.reset();
  job->record.reset();
  job->objects.clear();
  active_.fetch_sub(1, std::memory_order_acq_rel);
}

void BulkPuts::FlushReport(Job* job) {
  if (job->report.empty()) return;
  const BulkOutputTarget& out = job->work.output;
  if (out.s3_bucket && files_ != nullptr) {
    // A report that cannot be written is lost, not retried: the operation's
    // counters still say what happened (DynamoDB's report is best effort too).
    files_->WriteBulkReport(out, OperationIdOf(job->work.bulk_operation_arn),
                            job->report_part, job->report)
        .ok();
  }
  ++job->report_part;
  job->report.clear();
}

bool BulkPuts::Step(Job* job, int64_t now) {
  BulkOperationDescription& d = job->work;
  if (d.status == BulkOperationStatus::kCancelling) {
    Finish(job, BulkOperationStatus::kCancelled, now, "BulkOperationCancelled",
           "The bulk operation was cancelled at the customer's request");
    return true;
  }
  if (!job->listed) {
    if (files_ == nullptr) {
      Finish(job, BulkOperationStatus::kFailed, now, "S3NoSuchBucket",
             "The specified bucket does not exist");
      return true;
    }
    Result<std::vector<BulkInputObject>> objects = files_->ListBulkInput(d.input);
    if (!objects.ok()) {
      const bool no_bucket = objects.status().code() == ErrorCode::kResourceNotFound;
      Finish(job, BulkOperationStatus::kFailed, now, no_bucket ? "S3NoSuchBucket" : "S3Error",
             objects.status().message());
      return true;
    }
    if (objects->empty()) {
      Finish(job, BulkOperationStatus::kFailed, now, "InvalidInput",
             "No objects were found under the input S3 prefix");
      return true;
    }
    if (objects->size() > options_.max_input_objects) {
      Finish(job, BulkOperationStatus::kFailed, now, "InvalidInput",
             "The input has " + std::to_string(objects->size()) + " objects; at most " +
                 std::to_string(options_.max_input_objects) + " are allowed");
      return true;
    }
    int64_t total = 0;
    for (const BulkInputObject& o : *objects) {
      if (o.size_bytes > options_.max_object_bytes) {
        Finish(job, BulkOperationStatus::kFailed, now, "InvalidInput",
               "The input object " + o.key + " is larger than 5 GB");
        return true;
      }
      total += o.size_bytes;
    }
    d.total_input_bytes = total;
    job->objects = std::move(*objects);
    job->listed = true;
    job->tokens = 0;
    job->refilled_micros = now;
  }
  // The job's own budget: MaxWriteRequestUnits per second, at most one
  // second of it kept.
  const double rate = static_cast<double>(d.max_write_request_units);
  job->tokens = std::min(rate, job->tokens + rate * static_cast<double>(now - job->refilled_micros) /
                                                 1e6);
  job->refilled_micros = now;
  if (now < job->retry_at_micros) return false;
  bool progressed = false;
  // Wall time, not the engine's clock (which a simulation may hold still):
  // the slice bounds what a request waits.
  const auto slice_end = std::chrono::steady_clock::now() +
                         std::chrono::microseconds(options_.step_slice_micros);
  job->slice_ended = false;
  while (Running(d.status)) {
    if (progressed && std::chrono::steady_clock::now() >= slice_end) {
      job->slice_ended = true;
      break;
    }
    if (!job->object_loaded) {
      if (!LoadObject(job)) {
        Finish(job,
               d.failed_item_count > 0 ? BulkOperationStatus::kCompletedWithErrors
                                       : BulkOperationStatus::kCompleted,
               now);
        return true;
      }
      progressed = true;
      continue;
    }
    if (!job->record) {
      Result<BulkPutRecord> next = BulkPutRecord();
      if (job->reader == nullptr || !job->reader->Next(&next)) {
        // The object's end. An object the validation pass read whole that
        // stops now was changed meanwhile: it counts as an object that stops.
        if (job->reader != nullptr && !job->reader->status().ok()) {
          StopObject(job, job->reader->status());
        }
        d.processed_input_bytes += job->objects[job->object_index].size_bytes;
        ++job->object_index;
        job->record_index = 0;
        job->object_loaded = false;
        job->reader.reset();
        progressed = true;
        continue;
      }
      job->record = std::move(next);
    }
    if (!PutNext(job, now)) break;
    job->record.reset();  // put, or failed and counted
    progressed = true;
  }
  return progressed;
}

bool BulkPuts::LoadObject(Job* job) {
  BulkOperationDescription& d = job->work;
  if (job->object_index >= job->objects.size()) return false;
  const BulkInputObject& object = job->objects[job->object_index];
  job->reader.reset();
  job->record.reset();
  Status s = [&]() -> Status {
    // The validation pass: the whole object is read (decompressed, its
    // records found but not decoded) before any of its records is written,
    // so that an object that stops -- wherever its damage is -- writes
    // nothing. It keeps only the count of records.
    DR_ASSIGN_OR_RETURN(std::unique_ptr<BulkObjectReader> check,
                        files_->OpenBulkObject(d.input, object.key));
    size_t count = 0;
    while (check->Skip()) ++count;
    DR_RETURN_IF_ERROR(check->status());
    check.reset();
    // The put pass, from the checkpoint's record: the records already put
    // are skipped.
    DR_ASSIGN_OR_RETURN(std::unique_ptr<BulkObjectReader> reader,
                        files_->OpenBulkObject(d.input, object.key));
    job->record_index = std::min(job->record_index, count);
    for (size_t i = 0; i < job->record_index; ++i) {
      if (!reader->Skip()) break;  // changed meanwhile: the put pass finds out
    }
    job->reader = std::move(reader);
    return Status::OK();
  }();
  if (!s.ok()) {
    job->reader.reset();
    job->record_index = 0;
    StopObject(job, s);
  }
  job->object_loaded = true;
  return true;
}

void BulkPuts::StopObject(Job* job, const Status& why) {
  // "Validation errors that stop an object": the object counts as one
  // failed record, and is reported.
  BulkOperationDescription& d = job->work;
  ++d.failed_item_count;
  ++d.processed_item_count;
  if (!d.output.report_errors) return;
  BulkReportEntry e;
  e.kind = BulkReportEntry::Kind::kError;
  e.object_key = job->objects[job->object_index].key;
  e.error_code = std::string(ErrorCodeName(why.code()));
  e.error_message = why.message();
  job->report.push_back(std::move(e));
}

bool BulkPuts::PutNext(Job* job, int64_t now) {
  BulkOperationDescription& d = job->work;
  const std::string& object_key = job->objects[job->object_index].key;
  const int64_t record_number = static_cast<int64_t>(job->record_index) + 1;
  Result<BulkPutRecord>& record = *job->record;
  auto fail = [&](const Status& s, const Item* item) {
    ++d.failed_item_count;
    ++d.processed_item_count;
    ++job->record_index;
    if (!d.output.report_errors) return true;
    BulkReportEntry e;
    e.kind = BulkReportEntry::Kind::kError;
    e.object_key = object_key;
    e.record_number = record_number;
    e.error_code = std::string(ErrorCodeName(s.code()));
    e.error_message = s.message();
    if (item != nullptr) e.item = *item;
    job->report.push_back(std::move(e));
    return true;
  };
  if (!record.ok()) return fail(record.status(), nullptr);
  PutItemRequest& put = record->put;
  put.scope.ns = job->ns;
  put.table_name = d.table_name;
  Result<std::shared_ptr<const TableInfo>> table = tables_->ForData(put.scope, d.table_name);
  if (!table.ok() || (*table)->desc.table_id != d.table_id) {
    Finish(job, BulkOperationStatus::kFailed, now, "ResourceNotFoundException",
           "The table " + d.table_name + " was deleted during the bulk operation");
    return false;
  }
  Result<PreparedWrite> prepared = PreparePutItem(put);
  if (!prepared.ok()) return fail(prepared.status(), &put.item);
  Result<PrimaryKey> pk = KeyOfItem((*table)->key, put.item);
  if (!pk.ok()) return fail(pk.status(), &put.item);
  if (Status s = CheckIndexKeys(**table, put.item); !s.ok()) return fail(s, &put.item);
  // The budget: the table write's units must be there (a full budget admits
  // any single item).
  const int64_t size = ItemSize(put.item);
  const double units = WriteUnits(size);
  if (job->tokens < units && job->tokens < static_cast<double>(d.max_write_request_units)) {
    return false;
  }
  const std::string key = keys::ItemKey((*table)->id, *pk->hash, pk->range);
  std::optional<Item> existing;
  Metering metering;
  Result<std::optional<Item>> applied = writes_->Apply(
      **table, key,
      [&](const std::optional<Item>& stored) -> Result<ItemChange> {
        if (Status s = CheckCondition(*prepared, stored); !s.ok()) {
          existing = stored;
          return s;
        }
        return Result<ItemChange>(ItemChange::Borrowed(put.item));
      },
      &metering);
  if (!applied.ok() && Refused(applied.status().code())) {
    // The partition (or an ongoing transaction) refused it: the record waits
    // there, and so does the job behind it.
    job->retry_at_micros = now + options_.throttle_backoff_micros;
    return false;
  }
  job->tokens -= metering.consumed.Total().write_units;
  if (!applied.ok() && applied.status().code() == ErrorCode::kConditionalCheckFailed) {
    ++d.condition_check_failure_count;
    ++d.processed_item_count;
    ++job->record_index;
    if (d.output.report_condition_failures) {
      BulkReportEntry e;
      e.kind = BulkReportEntry::Kind::kConditionCheckFailure;
      e.object_key = object_key;
      e.record_number = record_number;
      e.error_code = "ConditionalCheckFailedException";
      e.error_message = applied.status().message();
      e.item = put.item;
      e.existing_item = std::move(existing);
      job->report.push_back(std::move(e));
    }
    return true;
  }
  if (!applied.ok()) return fail(applied.status(), &put.item);
  ++d.processed_item_count;
  ++job->record_index;
  d.usage.table_bulk_put_bytes += size;
  d.usage.bulk_put_bytes += size;
  for (const IndexInfo& index : (*table)->indexes) {
    if (!HasIndexKey(index, put.item)) continue;
    const int64_t bytes = ItemSize(ProjectForIndex(index, (*table)->key, put.item));
    (index.global ? d.usage.global_secondary_indexes : d.usage.local_secondary_indexes)
        [index.name] += bytes;
    d.usage.bulk_put_bytes += bytes;
  }
  return true;
}

}  // namespace dynarock
