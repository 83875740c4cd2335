#include "engine/status.h"

#include "engine/types.h"

namespace dynarock {

std::string_view ErrorCodeName(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk:
      return "OK";
    case ErrorCode::kValidation:
      return "ValidationException";
    case ErrorCode::kSerialization:
      return "SerializationException";
    case ErrorCode::kUnknownOperation:
      return "UnknownOperationException";
    case ErrorCode::kMissingAuthenticationToken:
      return "MissingAuthenticationTokenException";
    case ErrorCode::kIncompleteSignature:
      return "IncompleteSignatureException";
    case ErrorCode::kInvalidSignature:
      return "InvalidSignatureException";
    case ErrorCode::kUnrecognizedClient:
      return "UnrecognizedClientException";
    case ErrorCode::kConditionalCheckFailed:
      return "ConditionalCheckFailedException";
    case ErrorCode::kProvisionedThroughputExceeded:
      return "ProvisionedThroughputExceededException";
    case ErrorCode::kThrottling:
      return "ThrottlingException";
    case ErrorCode::kResourceNotFound:
      return "ResourceNotFoundException";
    case ErrorCode::kResourceInUse:
      return "ResourceInUseException";
    case ErrorCode::kTransactionCanceled:
      return "TransactionCanceledException";
    case ErrorCode::kTransactionConflict:
      return "TransactionConflictException";
    case ErrorCode::kReplicatedWriteConflict:
      return "ReplicatedWriteConflictException";
    case ErrorCode::kIdempotentParameterMismatch:
      return "IdempotentParameterMismatchException";
    case ErrorCode::kTransactionInProgress:
      return "TransactionInProgressException";
    case ErrorCode::kItemCollectionSizeLimitExceeded:
      return "ItemCollectionSizeLimitExceededException";
    case ErrorCode::kLimitExceeded:
      return "LimitExceededException";
    case ErrorCode::kRequestLimitExceeded:
      return "RequestLimitExceeded";
    case ErrorCode::kExpiredIterator:
      return "ExpiredIteratorException";
    case ErrorCode::kTrimmedDataAccess:
      return "TrimmedDataAccessException";
    case ErrorCode::kTableNotFound:
      return "TableNotFoundException";
    case ErrorCode::kBackupNotFound:
      return "BackupNotFoundException";
    case ErrorCode::kTableAlreadyExists:
      return "TableAlreadyExistsException";
    case ErrorCode::kBackupInUse:
      return "BackupInUseException";
    case ErrorCode::kTableInUse:
      return "TableInUseException";
    case ErrorCode::kSourceTableNotFound:
      return "SourceTableNotFoundException";
    case ErrorCode::kGlobalTableAlreadyExists:
      return "GlobalTableAlreadyExistsException";
    case ErrorCode::kGlobalTableNotFound:
      return "GlobalTableNotFoundException";
    case ErrorCode::kReplicaAlreadyExists:
      return "ReplicaAlreadyExistsException";
    case ErrorCode::kReplicaNotFound:
      return "ReplicaNotFoundException";
    case ErrorCode::kIndexNotFound:
      return "IndexNotFoundException";
    case ErrorCode::kPointInTimeRecoveryUnavailable:
      return "PointInTimeRecoveryUnavailableException";
    case ErrorCode::kInvalidRestoreTime:
      return "InvalidRestoreTimeException";
    case ErrorCode::kInvalidExportTime:
      return "InvalidExportTimeException";
    case ErrorCode::kExportNotFound:
      return "ExportNotFoundException";
    case ErrorCode::kExportConflict:
      return "ExportConflictException";
    case ErrorCode::kImportNotFound:
      return "ImportNotFoundException";
    case ErrorCode::kImportConflict:
      return "ImportConflictException";
    case ErrorCode::kDuplicateItem:
      return "DuplicateItemException";
    case ErrorCode::kAccessDenied:
      return "AccessDeniedException";
    case ErrorCode::kPolicyNotFound:
      return "PolicyNotFoundException";
    case ErrorCode::kServiceUnavailable:
      return "ServiceUnavailable";
    case ErrorCode::kCorruption:
    case ErrorCode::kIOError:
    case ErrorCode::kInternal:
      return "InternalServerError";
  }
  return "InternalServerError";
}

Status::Status(ErrorCode code, std::string message) {
  if (code != ErrorCode::kOk) {
    rep_ = std::make_shared<const Rep>(Rep{code, std::move(message), nullptr, {}, {}});
  }
}

Status Status::ConditionalCheckFailed(std::shared_ptr<const Item> old_item) {
  Status s;
  s.rep_ = std::make_shared<const Rep>(Rep{ErrorCode::kConditionalCheckFailed,
                                           "The conditional request failed",
                                           std::move(old_item),
                                           {},
                                           {}});
  return s;
}

Status Status::Throttled(ErrorCode code, std::string message,
                         std::vector<ThrottlingReason> reasons) {
  assert(code != ErrorCode::kOk);
  Status s;
  s.rep_ = std::make_shared<const Rep>(
      Rep{code, std::move(message), nullptr, std::move(reasons), {}});
  return s;
}

Status Status::TransactionCanceled(std::vector<CancellationReason> reasons) {
  std::string message =
      "Transaction cancelled, please refer cancellation reasons for specific "
      "reasons [";
  for (size_t i = 0; i < reasons.size(); ++i) {
    if (i > 0) message += ", ";
    message += reasons[i].code;
  }
  message += "]";
  Status s;
  s.rep_ = std::make_shared<const Rep>(Rep{ErrorCode::kTransactionCanceled,
                                           std::move(message), nullptr, {},
                                           std::move(reasons)});
  return s;
}

const std::vector<CancellationReason>& Status::cancellation_reasons() const {
  static const std::vector<CancellationReason> kNone;
  return rep_ ? rep_->cancellation_reasons : kNone;
}

const std::vector<ThrottlingReason>& Status::throttling_reasons() const {
  static const std::vector<ThrottlingReason> kNone;
  return rep_ ? rep_->throttling_reasons : kNone;
}

const std::string& Status::message() const {
  static const std::string kEmpty;
  return rep_ ? rep_->message : kEmpty;
}

std::string Status::ToString() const {
  if (ok()) return "OK";
  std::string out(ErrorCodeName(rep_->code));
  out += ": ";
  out += rep_->message;
  return out;
}

}  // namespace dynarock
