// engine/requests/import_requests.h
//
// ImportTable, DescribeImport and ListImports (engine/transfer/imports.h,
// docs/export.md).

#ifndef DYNAROCK_ENGINE_REQUESTS_IMPORT_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_IMPORT_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/requests/scope.h"
#include "engine/requests/table_requests.h"
#include "engine/types.h"

namespace dynarock {

// Values are written to disk (the import record); never renumber.
enum class ImportStatus : uint8_t {
  kInProgress = 0,
  kCompleted = 1,
  kCancelling = 2,
  kCancelled = 3,
  kFailed = 4,
};
enum class InputFormat : uint8_t { kDynamoDbJson = 0, kIon = 1, kCsv = 2 };
enum class InputCompression : uint8_t { kNone = 0, kGzip = 1, kZstd = 2 };
std::string_view ImportStatusName(ImportStatus status);
std::string_view InputFormatName(InputFormat format);
std::string_view InputCompressionName(InputCompression compression);

// Where an import reads: every object of the bucket whose key starts with
// the prefix, in key order.
struct S3BucketSource {
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_key_prefix;
};

// InputFormatOptions.Csv.
struct CsvOptions {
  std::optional<std::string> delimiter;  // one character; unset: ","
  // The column names; unset: the first line of each file is the header.
  std::optional<std::vector<std::string>> header_list;
};

struct ImportTableRequest {
  Scope scope;
  std::optional<std::string> client_token;
  S3BucketSource source;
  InputFormat input_format = InputFormat::kDynamoDbJson;
  CsvOptions csv;
  InputCompression compression = InputCompression::kNone;
  // TableCreationParameters: the table to create (no stream, tags, LSIs).
  CreateTableRequest table;
};

// DescribeImport's ImportTableDescription (ListImports shows a summary).
struct ImportTableDescription {
  std::string import_arn;
  ImportStatus import_status = ImportStatus::kInProgress;
  std::string table_arn;
  std::string table_id;
  std::string client_token;
  S3BucketSource source;
  int64_t error_count = 0;
  InputFormat input_format = InputFormat::kDynamoDbJson;
  CsvOptions csv;
  InputCompression compression = InputCompression::kNone;
  // The table as it will be created (TableCreationParameters).
  TableDescription table;
  int64_t start_micros = 0;
  std::optional<int64_t> end_micros;
  int64_t processed_size_bytes = 0;
  int64_t processed_item_count = 0;
  int64_t imported_item_count = 0;
  std::optional<std::string> failure_code;
  std::optional<std::string> failure_message;
};

struct DescribeImportRequest {
  Scope scope;
  std::string import_arn;
};

struct ListImportsRequest {
  Scope scope;
  std::optional<std::string> table_arn;
  std::optional<int64_t> page_size;  // 1..25; unset: 25
  std::optional<std::string> next_token;
};

struct ListImportsResult {
  std::vector<ImportTableDescription> imports;  // in start order
  std::optional<std::string> next_token;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_IMPORT_REQUESTS_H_
