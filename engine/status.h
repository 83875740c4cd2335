// engine/status.h
//
// Status is how every fallible engine function reports failure: a DynamoDB
// error type (ErrorCode) plus the exact message a client would see. Result<T>
// is a value or a Status. No exception crosses a public engine or api
// function; errors are values.
//
// Status is cheap to copy when OK (no allocation). Thread-compatible.

#ifndef DYNAROCK_ENGINE_STATUS_H_
#define DYNAROCK_ENGINE_STATUS_H_

#include <cassert>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dynarock {

class AttributeValue;
struct Item;

// Why DynamoDB throttled a request (API_ThrottlingReason). `reason` is
// ResourceType + OperationType + LimitType, e.g.
// "TableWriteKeyRangeThroughputExceeded"; `resource` is the ARN of the
// throttled table or index ("<table arn>/index/<name>").
struct ThrottlingReason {
  std::string reason;
  std::string resource;
  bool operator==(const ThrottlingReason&) const = default;
};

// One action's entry in a TransactionCanceledException's
// CancellationReasons: `code` is "None", "ConditionalCheckFailed",
// "ValidationError", "TransactionConflict", "ProvisionedThroughputExceeded",
// "ThrottlingError" or "ItemCollectionSizeLimitExceeded"; `message` is empty
// for "None"; `item` is the item as stored, for a ConditionalCheckFailed
// whose action asked for ReturnValuesOnConditionCheckFailure = ALL_OLD.
struct CancellationReason {
  std::string code = "None";
  std::string message;
  std::shared_ptr<const Item> item;
};

// DynamoDB's error vocabulary. api/error.cc maps each code to its wire type
// ("com.amazonaws.dynamodb.v20120810#<Type>") and HTTP status.
enum class ErrorCode {
  kOk = 0,
  // The request is invalid: bad parameter, limit exceeded by the request
  // itself, wrong types. The most common error.
  kValidation,
  // The request body is not the JSON it must be (malformed, wrong JSON type).
  kSerialization,
  // The operation named in X-Amz-Target does not exist.
  kUnknownOperation,
  // The request carries no usable authentication.
  kMissingAuthenticationToken,
  // A SigV4 Authorization header lacks a part it needs (Credential,
  // Signature, SignedHeaders, a date), or has one in the wrong form.
  kIncompleteSignature,
  // A SigV4 signature does not verify: wrong secret, wrong scope, or
  // signed too long ago (strict authentication, `serve --auth-file`).
  kInvalidSignature,
  // The access key id is not one the server knows (strict authentication).
  kUnrecognizedClient,
  // A ConditionExpression (or Expected) evaluated to false. May carry the
  // old item (ReturnValuesOnConditionCheckFailure = ALL_OLD).
  kConditionalCheckFailed,
  // A provisioned table, index or partition could not pay for the request.
  kProvisionedThroughputExceeded,
  // An on-demand or account-level throughput limit was exceeded.
  kThrottling,
  // The table or index does not exist (or is not ACTIVE for data calls).
  kResourceNotFound,
  // The table already exists, or is in a state that forbids the call.
  kResourceInUse,
  // A transaction was cancelled; carries cancellation reasons.
  kTransactionCanceled,
  // Another transaction holds an item this request needs (a single-item
  // write on an item a TransactWriteItems is writing).
  kTransactionConflict,
  // Multi-Region strong consistency: the item is being modified by a write
  // in another Region (ReplicatedWriteConflictException, retryable).
  kReplicatedWriteConflict,
  // A ClientRequestToken was reused within its window with a different
  // request.
  kIdempotentParameterMismatch,
  // A ClientRequestToken's first request is still running.
  kTransactionInProgress,
  // An item collection of a table with LSIs would pass its size limit.
  kItemCollectionSizeLimitExceeded,
  // Too many concurrent control-plane operations, or an account limit.
  kLimitExceeded,
  // The account's request rate is too high.
  kRequestLimitExceeded,
  // DynamoDB Streams: a shard iterator older than 15 minutes.
  kExpiredIterator,
  // DynamoDB Streams: a position before the shard's trim horizon (records
  // past the 24-hour retention are gone).
  kTrimmedDataAccess,
  // Backups (engine/backup/): the table a backup operation names does not
  // exist ("Table not found: <name>").
  kTableNotFound,
  // No backup has the ARN ("Backup not found: <arn>").
  kBackupNotFound,
  // A restore's target table exists.
  kTableAlreadyExists,
  // The backup is being created (or deleted) and cannot be used yet.
  kBackupInUse,
  // The table is being created, updated or deleted.
  kTableInUse,
  // RestoreTableToPointInTime's source table does not exist.
  kSourceTableNotFound,
  // Global tables version 2017.11.29: CreateGlobalTable of a name that is
  // one already; a global table that does not exist; UpdateGlobalTable's
  // Create of a Region that has the replica, Delete (or settings) of one
  // that has none; UpdateGlobalTableSettings of an index the tables lack.
  kGlobalTableAlreadyExists,
  kGlobalTableNotFound,
  kReplicaAlreadyExists,
  kReplicaNotFound,
  kIndexNotFound,
  // RestoreTableToPointInTime on a table without point-in-time recovery.
  kPointInTimeRecoveryUnavailable,
  // A restore time outside the table's restore window.
  kInvalidRestoreTime,
  // ExportTableToPointInTime: an ExportTime outside the PITR window.
  kInvalidExportTime,
  // No export has the ARN.
  kExportNotFound,
  // An export's ClientToken was used for another request (or the bucket's
  // directory is taken).
  kExportConflict,
  // No import has the ARN.
  kImportNotFound,
  // An import's ClientToken was used for another request.
  kImportConflict,
  // PartiQL INSERT of an item whose primary key exists.
  kDuplicateItem,
  // The caller may not act on the resource: a table ARN of another account
  // (only the Scope's account exists locally, and no resource-based policy
  // grants another account anything).
  kAccessDenied,
  // No resource-based policy is attached to the resource, or not the
  // revision a request expected (engine/control/resource_policies.h).
  kPolicyNotFound,
  // DynamoDB cannot serve the request for now (HTTP 503); SDKs retry it.
  // Fault injection (engine/fault/), the HTTP server's own limits and a
  // multi-Region strongly consistent table in a Region cut off from the
  // majority of its Regions answer it.
  kServiceUnavailable,
  // Internal failures: all become InternalServerError (HTTP 500).
  kCorruption,
  kIOError,
  kInternal,
};

// The DynamoDB wire name of a code ("ValidationException"); for logs and the
// api's error formatter.
std::string_view ErrorCodeName(ErrorCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // OK
  Status(ErrorCode code, std::string message);

  static Status OK() { return Status(); }
  static Status Validation(std::string message) {
    return Status(ErrorCode::kValidation, std::move(message));
  }
  static Status Serialization(std::string message) {
    return Status(ErrorCode::kSerialization, std::move(message));
  }
  static Status ResourceNotFound(std::string message) {
    return Status(ErrorCode::kResourceNotFound, std::move(message));
  }
  static Status ResourceInUse(std::string message) {
    return Status(ErrorCode::kResourceInUse, std::move(message));
  }
  static Status Internal(std::string message) {
    return Status(ErrorCode::kInternal, std::move(message));
  }
  static Status IOError(std::string message) {
    return Status(ErrorCode::kIOError, std::move(message));
  }
  static Status Corruption(std::string message) {
    return Status(ErrorCode::kCorruption, std::move(message));
  }
  // "The conditional request failed"; `old_item` is returned to the client
  // when it asked for ReturnValuesOnConditionCheckFailure = ALL_OLD.
  static Status ConditionalCheckFailed(std::shared_ptr<const Item> old_item);
  // A throttled request: `code` is kProvisionedThroughputExceeded (provisioned,
  // key-range and on-demand limits), kRequestLimitExceeded (account limits)
  // or kThrottling; `reasons` say what was throttled and why.
  static Status Throttled(ErrorCode code, std::string message,
                          std::vector<ThrottlingReason> reasons);

  // TransactionCanceledException: "Transaction cancelled, please refer
  // cancellation reasons for specific reasons [None, ConditionalCheckFailed]"
  // (the codes in action order), carrying `reasons`, one per action.
  static Status TransactionCanceled(std::vector<CancellationReason> reasons);

  bool ok() const { return rep_ == nullptr; }
  ErrorCode code() const { return rep_ ? rep_->code : ErrorCode::kOk; }
  const std::string& message() const;
  // The item attached to a ConditionalCheckFailed status, or null.
  const Item* item() const { return rep_ ? rep_->item.get() : nullptr; }
  // The reasons attached by Status::Throttled; empty for any other status.
  const std::vector<ThrottlingReason>& throttling_reasons() const;
  // The reasons attached by Status::TransactionCanceled; empty otherwise.
  const std::vector<CancellationReason>& cancellation_reasons() const;

  // "ValidationException: message", for logs and test failures.
  std::string ToString() const;

 private:
  struct Rep {
    ErrorCode code;
    std::string message;
    std::shared_ptr<const Item> item;
    std::vector<ThrottlingReason> throttling_reasons;
    std::vector<CancellationReason> cancellation_reasons;
  };
  std::shared_ptr<const Rep> rep_;
};

// A value of type T, or the Status that explains why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {  // NOLINT
    assert(!status_.ok());
  }

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }

  // REQUIRES: ok()
  T& value() & {
    assert(ok());
    return *value_;
  }
  const T& value() const& {
    assert(ok());
    return *value_;
  }
  T&& value() && {
    assert(ok());
    return std::move(*value_);
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  Status status_;
  std::optional<T> value_;
};

#define DR_STATUS_CONCAT_INNER_(a, b) a##b
#define DR_STATUS_CONCAT_(a, b) DR_STATUS_CONCAT_INNER_(a, b)

// Returns the Status of `expr` from the enclosing function if it is not OK.
#define DR_RETURN_IF_ERROR(expr)                 \
  do {                                           \
    ::dynarock::Status dr_status_ = (expr);      \
    if (!dr_status_.ok()) return dr_status_;     \
  } while (0)

// `lhs = value of expr`, or returns its Status from the enclosing function.
#define DR_ASSIGN_OR_RETURN(lhs, expr)                                    \
  DR_ASSIGN_OR_RETURN_IMPL_(DR_STATUS_CONCAT_(dr_result_, __LINE__), lhs, \
                            expr)
#define DR_ASSIGN_OR_RETURN_IMPL_(result, lhs, expr) \
  auto result = (expr);                              \
  if (!result.ok()) return result.status();          \
  lhs = std::move(result).value()

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_STATUS_H_
