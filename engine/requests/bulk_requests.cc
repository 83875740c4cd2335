#include "engine/requests/bulk_requests.h"

#include <string_view>

namespace dynarock {

std::string_view BulkOperationStatusName(BulkOperationStatus status) {
  switch (status) {
    case BulkOperationStatus::kInProgress:
      return "IN_PROGRESS";
    case BulkOperationStatus::kCompleted:
      return "COMPLETED";
    case BulkOperationStatus::kCompletedWithErrors:
      return "COMPLETED_WITH_ERRORS";
    case BulkOperationStatus::kCancelling:
      return "CANCELLING";
    case BulkOperationStatus::kCancelled:
      return "CANCELLED";
    case BulkOperationStatus::kFailed:
      return "FAILED";
  }
  return "";
}

std::string_view BulkInputFormatName(BulkInputFormat format) {
  return format == BulkInputFormat::kIon ? "ION" : "DYNAMODB_JSON";
}

std::string_view BulkPerformanceTierName(BulkPerformanceTier tier) {
  return tier == BulkPerformanceTier::kAccelerated ? "ACCELERATED" : "STANDARD";
}

}  // namespace dynarock
