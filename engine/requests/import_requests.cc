#include "engine/requests/import_requests.h"

#include <string_view>

namespace dynarock {

std::string_view ImportStatusName(ImportStatus status) {
  switch (status) {
    case ImportStatus::kInProgress:
      return "IN_PROGRESS";
    case ImportStatus::kCompleted:
      return "COMPLETED";
    case ImportStatus::kCancelling:
      return "CANCELLING";
    case ImportStatus::kCancelled:
      return "CANCELLED";
    case ImportStatus::kFailed:
      return "FAILED";
  }
  return "";
}

std::string_view InputFormatName(InputFormat format) {
  switch (format) {
    case InputFormat::kDynamoDbJson:
      return "DYNAMODB_JSON";
    case InputFormat::kIon:
      return "ION";
    case InputFormat::kCsv:
      return "CSV";
  }
  return "";
}

std::string_view InputCompressionName(InputCompression compression) {
  switch (compression) {
    case InputCompression::kNone:
      return "NONE";
    case InputCompression::kGzip:
      return "GZIP";
    case InputCompression::kZstd:
      return "ZSTD";
  }
  return "";
}

}  // namespace dynarock
