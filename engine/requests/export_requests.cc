#include "engine/requests/export_requests.h"

#include <string>
#include <string_view>

namespace dynarock {

std::string_view ExportStatusName(ExportStatus status) {
  switch (status) {
    case ExportStatus::kInProgress:
      return "IN_PROGRESS";
    case ExportStatus::kCompleted:
      return "COMPLETED";
    case ExportStatus::kFailed:
      return "FAILED";
  }
  return "";
}

std::string_view ExportFormatName(ExportFormat format) {
  return format == ExportFormat::kIon ? "ION" : "DYNAMODB_JSON";
}

std::string_view ExportTypeName(ExportType type) {
  return type == ExportType::kIncrementalExport ? "INCREMENTAL_EXPORT" : "FULL_EXPORT";
}

std::string ExportDescription::ExportId() const {
  const size_t slash = export_arn.rfind('/');
  return slash == std::string::npos ? export_arn : export_arn.substr(slash + 1);
}

}  // namespace dynarock
