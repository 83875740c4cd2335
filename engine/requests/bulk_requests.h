// engine/requests/bulk_requests.h
//
// Bulk put items: StartBulkPutItems, DescribeBulkOperation,
// ListBulkOperations and CancelBulkOperation (engine/transfer/bulk_puts.h,
// docs/bulk-put-items.md).

#ifndef DYNAROCK_ENGINE_REQUESTS_BULK_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_BULK_REQUESTS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/requests/import_requests.h"
#include "engine/requests/item_requests.h"
#include "engine/requests/scope.h"
#include "engine/types.h"

namespace dynarock {

// Values are written to disk (the operation record); never renumber.
enum class BulkOperationStatus : uint8_t {
  kInProgress = 0,
  kCompleted = 1,
  kCompletedWithErrors = 2,
  kCancelling = 3,
  kCancelled = 4,
  kFailed = 5,
};
enum class BulkInputFormat : uint8_t { kDynamoDbJson = 0, kIon = 1 };
enum class BulkPerformanceTier : uint8_t { kStandard = 0, kAccelerated = 1 };
std::string_view BulkOperationStatusName(BulkOperationStatus status);
std::string_view BulkInputFormatName(BulkInputFormat format);
std::string_view BulkPerformanceTierName(BulkPerformanceTier tier);

// InputS3Configuration: every object of the bucket whose key starts with
// the prefix, in key order.
struct BulkInputSource {
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_key_prefix;
  BulkInputFormat input_format = BulkInputFormat::kDynamoDbJson;
  // InputCompressionType; "NONE" when not given.
  InputCompression compression = InputCompression::kNone;
};

// OutputS3Configuration: where the reports of the records that failed go.
struct BulkOutputTarget {
  std::optional<std::string> s3_bucket;  // unset: no report is written
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_key_prefix;
  std::optional<std::string> s3_sse_algorithm;  // AES256 or KMS (recorded)
  std::optional<std::string> s3_sse_kms_key_id;
  bool report_errors = false;              // OutputType ERROR
  bool report_condition_failures = false;  // OutputType CONDITION_CHECK_FAILURE
};

struct StartBulkPutItemsRequest {
  Scope scope;
  std::optional<std::string> client_token;
  BulkInputSource input;
  BulkOutputTarget output;
  std::string table_name;
  // Write request units per second the job may use (at least 1,024);
  // unset: the performance tier's rate.
  std::optional<int64_t> max_write_request_units;
  BulkPerformanceTier performance_tier = BulkPerformanceTier::kStandard;
};

// BulkOperationUsage: the bytes written, for the table and each index.
struct BulkOperationUsage {
  std::string table_name;
  int64_t bulk_put_bytes = 0;        // the table and every index
  int64_t table_bulk_put_bytes = 0;  // the table alone
  std::map<std::string, int64_t> global_secondary_indexes;
  std::map<std::string, int64_t> local_secondary_indexes;
};

struct BulkOperationDescription {
  std::string bulk_operation_arn;
  BulkOperationStatus status = BulkOperationStatus::kInProgress;
  std::string table_name;
  std::string table_id;
  std::string client_token;
  BulkInputSource input;
  BulkOutputTarget output;
  int64_t start_micros = 0;
  std::optional<int64_t> end_micros;
  int64_t processed_item_count = 0;
  int64_t processed_input_bytes = 0;
  // Unset until the input was listed (DynamoDB omits it until then).
  std::optional<int64_t> total_input_bytes;
  BulkOperationUsage usage;
  int64_t failed_item_count = 0;
  // Records whose condition was false (not failures: the operation still
  // COMPLETES; reported when OutputType has CONDITION_CHECK_FAILURE).
  int64_t condition_check_failure_count = 0;
  std::optional<std::string> failure_code;
  std::optional<std::string> failure_message;
  int64_t max_write_request_units = 0;  // in force (the tier's when not given)
  BulkPerformanceTier performance_tier = BulkPerformanceTier::kStandard;
};

struct DescribeBulkOperationRequest {
  Scope scope;
  std::string bulk_operation_arn;
};

struct ListBulkOperationsRequest {
  Scope scope;
  std::optional<int64_t> max_results;  // unset: 10
  std::optional<std::string> next_token;
};

struct ListBulkOperationsResult {
  std::vector<BulkOperationDescription> operations;  // newest first
  std::optional<std::string> next_token;
};

struct CancelBulkOperationRequest {
  Scope scope;
  std::string bulk_operation_arn;
};

// One record of a bulk input object: the item and its optional condition,
// as a PutItem of the target table (table name and scope filled in by the
// job), or why the record is not one (counted in FailedItemCount).
struct BulkPutRecord {
  PutItemRequest put;
};

// One line of a bulk operation's report (OutputS3Configuration).
struct BulkReportEntry {
  enum class Kind : uint8_t { kError, kConditionCheckFailure };
  Kind kind = Kind::kError;
  std::string object_key;
  int64_t record_number = 0;  // 1-based, within the object
  std::string error_code;     // kError: ValidationException, ...
  std::string error_message;
  std::optional<Item> item;           // the attempted item, when it parsed
  std::optional<Item> existing_item;  // kConditionCheckFailure: the stored item
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_BULK_REQUESTS_H_
