#include "engine/transfer/exports.h"

#include <algorithm>
#include <optional>
#include <tuple>
#include <vector>

#include "engine/clock.h"
#include "engine/schema/arns.h"
#include "engine/transfer/job_page.h"
#include "engine/transfer/job_records.h"
#include "engine/util/coding.h"
#include "engine/value/encoded_item.h"

namespace dynarock {
namespace {

// Meta column family: "E" ns "\0" export arn -> export record.
constexpr char kExportPrefix = 'E';
// Version 1: see Encode.
constexpr uint8_t kRecordVersion = 1;

std::string Encode(const std::string& ns, uint32_t table_id, const std::string& fingerprint,
                   const ExportDescription& d) {
  std::string out;
  RecordWriter w(&out);
  w.Byte(kRecordVersion);
  w.String(ns);
  w.Varint(table_id);
  w.String(fingerprint);
  w.String(d.export_arn);
  w.Byte(d.export_status);
  w.Signed(d.start_micros);
  w.OptionalSigned(d.end_micros);
  w.String(d.export_manifest);
  w.String(d.table_arn);
  w.String(d.table_id);
  w.Signed(d.export_micros);
  w.String(d.client_token);
  w.String(d.s3_bucket);
  w.OptionalString(d.s3_bucket_owner);
  w.OptionalString(d.s3_prefix);
  w.String(d.s3_sse_algorithm);
  w.OptionalString(d.s3_sse_kms_key_id);
  w.OptionalString(d.failure_code);
  w.OptionalString(d.failure_message);
  w.Byte(d.export_format);
  w.Signed(d.billed_size_bytes);
  w.Signed(d.item_count);
  w.Byte(d.export_type);
  w.OptionalSigned(d.incremental_from_micros);
  w.OptionalSigned(d.incremental_to_micros);
  w.Bool(d.incremental_old_images);
  return out;
}

struct Decoded {
  std::string ns;
  uint32_t table_id = 0;
  std::string fingerprint;
  ExportDescription desc;
};

Result<Decoded> Decode(std::string_view value) {
  RecordReader r(value);
  if (r.Byte() != kRecordVersion) return Status::Corruption("unknown export record version");
  Decoded out;
  out.ns = r.String();
  out.table_id = static_cast<uint32_t>(r.Varint());
  out.fingerprint = r.String();
  ExportDescription& d = out.desc;
  d.export_arn = r.String();
  const uint8_t status = r.Byte();
  d.start_micros = r.Signed();
  d.end_micros = r.OptionalSigned();
  d.export_manifest = r.String();
  d.table_arn = r.String();
  d.table_id = r.String();
  d.export_micros = r.Signed();
  d.client_token = r.String();
  d.s3_bucket = r.String();
  d.s3_bucket_owner = r.OptionalString();
  d.s3_prefix = r.OptionalString();
  d.s3_sse_algorithm = r.String();
  d.s3_sse_kms_key_id = r.OptionalString();
  d.failure_code = r.OptionalString();
  d.failure_message = r.OptionalString();
  const uint8_t format = r.Byte();
  d.billed_size_bytes = r.Signed();
  d.item_count = r.Signed();
  const uint8_t type = r.Byte();
  d.incremental_from_micros = r.OptionalSigned();
  d.incremental_to_micros = r.OptionalSigned();
  d.incremental_old_images = r.Byte() != 0;
  if (!r.ok || status > 2 || format > 1 || type > 1) {
    return Status::Corruption("bad export record");
  }
  d.export_status = static_cast<ExportStatus>(status);
  d.export_format = static_cast<ExportFormat>(format);
  d.export_type = static_cast<ExportType>(type);
  return out;
}

// What makes two requests with one ClientToken the same request.
std::string Fingerprint(const ExportTableToPointInTimeRequest& req) {
  std::string f;
  RecordWriter w(&f);
  w.String(req.table_arn);
  w.OptionalSigned(req.export_micros);
  w.String(req.s3_bucket);
  w.OptionalString(req.s3_bucket_owner);
  w.OptionalString(req.s3_prefix);
  w.OptionalString(req.s3_sse_algorithm);
  w.OptionalString(req.s3_sse_kms_key_id);
  w.Byte(req.export_format);
  w.Byte(req.export_type);
  w.OptionalSigned(req.incremental_from_micros);
  w.OptionalSigned(req.incremental_to_micros);
  w.Bool(req.incremental_old_images);
  return f;
}

// The table name of a table's own ARN; empty for any other string.
std::string TableOfArn(const std::string& arn) {
  std::optional<DynamoDbArn> parsed = ParseArn(arn);
  return parsed && parsed->sub_type.empty() ? parsed->table : "";
}

Status TableNotFound(const std::string& arn) {
  return Status(ErrorCode::kTableNotFound, "Table not found: " + arn);
}

// Thrown through the item visitor when the engine shuts down mid-export.
constexpr std::string_view kStopping = "export interrupted by shutdown";

}  // namespace

Status ExportNotFound(const std::string& arn) {
  return Status(ErrorCode::kExportNotFound, "Export not found: " + arn);
}

Result<std::unique_ptr<Exports>> Exports::Open(Store* store, const Clock* clock,
                                               TableLifecycle* tables,
                                               const ContinuousBackups* pitr,
                                               TransferFiles* files) {
  std::unique_ptr<Exports> e(new Exports(store, clock, tables, pitr, files));
  std::vector<Record> unfinished;
  {
    MutexLock lock(&e->mu_);
    auto it = store->NewIterator(Cf::kMeta, std::string(1, kExportPrefix),
                                 std::string(1, kExportPrefix + 1));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      DR_ASSIGN_OR_RETURN(Decoded d, Decode(it->value()));
      Record record{d.ns, d.table_id, std::move(d.fingerprint), std::move(d.desc)};
      if (record.desc.export_status == ExportStatus::kInProgress) unfinished.push_back(record);
      e->exports_[Key{record.ns, record.desc.export_arn}] = std::move(record);
    }
    DR_RETURN_IF_ERROR(it->status());
  }
  std::sort(unfinished.begin(), unfinished.end(), [](const Record& a, const Record& b) {
    return a.desc.start_micros < b.desc.start_micros;
  });
  for (Record& r : unfinished) e->Start(std::move(r), nullptr);
  return e;
}

Exports::~Exports() { jobs_.Stop(); }

Status Exports::Persist(const Record& record) {
  WriteBatch batch;
  batch.Put(Cf::kMeta, JobRecordKey(kExportPrefix, record.ns, record.desc.export_arn),
            Encode(record.ns, record.table_id, record.fingerprint, record.desc));
  return store_->Write(&batch);
}

Result<ExportDescription> Exports::Export(const ExportTableToPointInTimeRequest& req) {
  // DynamoDB's texts here and below as recorded in October 2026 by the AWS
  // controllers' API-quirks lab.
  if (req.table_arn.compare(0, 4, "arn:") != 0) {
    return Status::Validation(
        "One or more parameter values were invalid: tableArn is not a valid ARN");
  }
  const std::string name = TableOfArn(req.table_arn);
  TableStatus status;
  std::shared_ptr<const TableInfo> table =
      name.empty() ? nullptr : tables_->Find(req.scope, name, &status);
  if (!table || status == TableStatus::kDeleting ||
      TableArn(req.scope, name) != req.table_arn) {
    return TableNotFound(req.table_arn);
  }
  const std::string fingerprint = Fingerprint(req);
  if (req.client_token) {
    MutexLock lock(&mu_);
    for (const auto& [key, r] : exports_) {
      if (key.first != req.scope.ns || r.desc.client_token != *req.client_token) continue;
      if (r.fingerprint != fingerprint) {
        return Status(ErrorCode::kExportConflict,
                      "Export with client token " + *req.client_token +
                          " already exists with different parameters");
      }
      return r.desc;
    }
  }
  const ContinuousBackupsDescription window = pitr_->WindowOf(table->id);
  if (!window.point_in_time_recovery_enabled) {
    return Status(ErrorCode::kPointInTimeRecoveryUnavailable,
                  "Point in time recovery is not enabled for table '" + name + "'");
  }
  if (req.export_type == ExportType::kIncrementalExport) {
    return Status::Validation("Incremental exports are not supported by dynarock");
  }
  const int64_t now = clock_->NowMicros();
  const int64_t at = req.export_micros.value_or(now);
  // (The window's end is its own reading of the clock, taken before `now`.)
  if (at < *window.earliest_restorable_micros ||
      at > std::max(now, *window.latest_restorable_micros)) {
    return Status(ErrorCode::kInvalidExportTime, "Export Time is invalid");
  }
  // Fixed now: the log as of this request (writes go on).
  std::shared_ptr<const StoreSnapshot> snapshot = store_->NewSnapshot();

  Record record;
  record.ns = req.scope.ns;
  record.table_id = table->id;
  record.fingerprint = fingerprint;
  ExportDescription& d = record.desc;
  const std::string id = NewJobId(now);
  d.export_arn = req.table_arn + "/export/" + id;
  d.export_status = ExportStatus::kInProgress;
  d.start_micros = now;
  std::string prefix = req.s3_prefix.value_or("");
  if (!prefix.empty() && prefix.back() != '/') prefix.push_back('/');
  d.export_manifest = prefix + "AWSDynamoDB/" + id + "/manifest-summary.json";
  d.table_arn = req.table_arn;
  d.table_id = table->desc.table_id;
  d.export_micros = at;
  d.client_token = req.client_token.value_or("");
  d.s3_bucket = req.s3_bucket;
  d.s3_bucket_owner = req.s3_bucket_owner;
  d.s3_prefix = req.s3_prefix;
  d.s3_sse_algorithm = req.s3_sse_algorithm.value_or("AES256");
  d.s3_sse_kms_key_id = req.s3_sse_kms_key_id;
  d.export_format = req.export_format;
  d.export_type = req.export_type;
  d.billed_size_bytes = 0;
  d.item_count = 0;
  DR_RETURN_IF_ERROR(Persist(record));
  {
    MutexLock lock(&mu_);
    exports_[Key{record.ns, d.export_arn}] = record;
  }
  ExportDescription answer = d;
  Start(std::move(record), std::move(snapshot));
  return answer;
}

void Exports::Start(Record record, std::shared_ptr<const StoreSnapshot> snapshot) {
  jobs_.Post([this, record = std::move(record), snapshot = std::move(snapshot)]() mutable {
    Status s = Run(&record, std::move(snapshot));
    if (jobs_.stopping()) return;  // stays IN_PROGRESS; the next Open resumes it
    ExportDescription& d = record.desc;
    if (!s.ok()) {  // (Run set the status and end time of a finished export)
      d.export_status = ExportStatus::kFailed;
      d.end_micros = clock_->NowMicros();
      d.item_count = 0;
      d.billed_size_bytes = 0;
      d.failure_code =
          s.code() == ErrorCode::kResourceNotFound ? "S3NoSuchBucket" : "UNKNOWN";
      d.failure_message = s.message();
    }
    // A failed write of the record leaves it IN_PROGRESS on disk: the
    // export runs again after a restart.
    Persist(record).ok();
    MutexLock lock(&mu_);
    exports_[Key{record.ns, d.export_arn}] = std::move(record);
  });
}

Status Exports::Run(Record* record, std::shared_ptr<const StoreSnapshot> snapshot) {
  ExportDescription& d = record->desc;
  if (files_ == nullptr) {
    return Status(ErrorCode::kResourceNotFound, "The specified bucket does not exist");
  }
  DR_ASSIGN_OR_RETURN(RestoreItemSource items,
                      pitr_->ItemsAtTime(record->table_id, d.export_micros, std::move(snapshot)));
  DR_ASSIGN_OR_RETURN(std::unique_ptr<ExportWriter> writer, files_->NewExport(d));
  int64_t count = 0, bytes = 0;
  DR_RETURN_IF_ERROR(items([&](std::string_view, std::string_view value) -> Status {
    if (jobs_.stopping()) return Status(ErrorCode::kInternal, std::string(kStopping));
    DR_ASSIGN_OR_RETURN(int64_t size, EncodedItemSize(value));
    DR_RETURN_IF_ERROR(writer->Add(value));
    ++count;
    bytes += size;
    return Status::OK();
  }));
  d.item_count = count;
  d.billed_size_bytes = bytes;
  d.export_status = ExportStatus::kCompleted;
  d.end_micros = clock_->NowMicros();
  return writer->Finish(d);
}

Result<ExportDescription> Exports::Describe(const DescribeExportRequest& req) {
  MutexLock lock(&mu_);
  auto it = exports_.find(Key{req.scope.ns, req.export_arn});
  if (it == exports_.end()) return ExportNotFound(req.export_arn);
  return it->second.desc;
}

Result<ListExportsResult> Exports::List(const ListExportsRequest& req) {
  std::vector<ExportDescription> all;
  {
    MutexLock lock(&mu_);
    for (const auto& [key, r] : exports_) {
      if (key.first != req.scope.ns) continue;
      if (req.table_arn && r.desc.table_arn != *req.table_arn) continue;
      all.push_back(r.desc);
    }
  }
  auto page = TakeJobPage(std::move(all), req.next_token,
                          req.max_results ? static_cast<size_t>(*req.max_results) : kDefaultJobPage,
                          [](const ExportDescription& d) -> const std::string& { return d.export_arn; });
  if (!page.ok()) return page.status();
  ListExportsResult result;
  result.exports = std::move(page->jobs);
  result.next_token = std::move(page->next_token);
  return result;
}

}  // namespace dynarock
