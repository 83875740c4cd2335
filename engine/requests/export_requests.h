// engine/requests/export_requests.h
//
// ExportTableToPointInTime, DescribeExport and ListExports
// (engine/transfer/exports.h, docs/export.md). The "bucket" is a directory of
// the file system; what writes the files is the TransferFiles the engine was
// opened with (engine/transfer/transfer_files.h).

#ifndef DYNAROCK_ENGINE_REQUESTS_EXPORT_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_EXPORT_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/requests/scope.h"

namespace dynarock {

// Values are written to disk (the export record); never renumber.
enum class ExportStatus : uint8_t { kInProgress = 0, kCompleted = 1, kFailed = 2 };
enum class ExportFormat : uint8_t { kDynamoDbJson = 0, kIon = 1 };
enum class ExportType : uint8_t { kFullExport = 0, kIncrementalExport = 1 };
std::string_view ExportStatusName(ExportStatus status);
std::string_view ExportFormatName(ExportFormat format);
std::string_view ExportTypeName(ExportType type);

struct ExportTableToPointInTimeRequest {
  Scope scope;
  std::string table_arn;
  // Unset: now.
  std::optional<int64_t> export_micros;
  std::optional<std::string> client_token;
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_prefix;
  std::optional<std::string> s3_sse_algorithm;  // "AES256" or "KMS"
  std::optional<std::string> s3_sse_kms_key_id;
  ExportFormat export_format = ExportFormat::kDynamoDbJson;
  ExportType export_type = ExportType::kFullExport;
  // INCREMENTAL_EXPORT: the changes in (from, to]; `to` unset: now.
  std::optional<int64_t> incremental_from_micros;
  std::optional<int64_t> incremental_to_micros;
  // INCREMENTAL_EXPORT's ExportViewType: true NEW_AND_OLD_IMAGES, false NEW_IMAGE.
  bool incremental_old_images = true;
};

// DescribeExport's ExportDescription (ListExports shows arn, status, type).
struct ExportDescription {
  std::string export_arn;
  ExportStatus export_status = ExportStatus::kInProgress;
  int64_t start_micros = 0;
  std::optional<int64_t> end_micros;  // set once COMPLETED or FAILED
  // The key of manifest-summary.json in the bucket (S3Prefix included).
  std::string export_manifest;
  std::string table_arn;
  std::string table_id;
  int64_t export_micros = 0;
  std::string client_token;
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_prefix;
  std::string s3_sse_algorithm = "AES256";
  std::optional<std::string> s3_sse_kms_key_id;
  std::optional<std::string> failure_code;
  std::optional<std::string> failure_message;
  ExportFormat export_format = ExportFormat::kDynamoDbJson;
  int64_t billed_size_bytes = 0;
  int64_t item_count = 0;
  ExportType export_type = ExportType::kFullExport;
  std::optional<int64_t> incremental_from_micros;
  std::optional<int64_t> incremental_to_micros;
  bool incremental_old_images = true;

  // "<ExportTime ms>-<8 hex>", the last part of the ARN: the export's
  // directory under <prefix>/AWSDynamoDB/.
  std::string ExportId() const;
};

struct DescribeExportRequest {
  Scope scope;
  std::string export_arn;
};

struct ListExportsRequest {
  Scope scope;
  std::optional<std::string> table_arn;
  std::optional<int64_t> max_results;  // 1..25; unset: 25
  std::optional<std::string> next_token;
};

struct ListExportsResult {
  std::vector<ExportDescription> exports;  // in start order
  std::optional<std::string> next_token;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_EXPORT_REQUESTS_H_
