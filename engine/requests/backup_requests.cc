#include "engine/requests/backup_requests.h"

#include <string_view>

namespace dynarock {

std::string_view BackupStatusName(BackupStatus status) {
  switch (status) {
    case BackupStatus::kCreating:
      return "CREATING";
    case BackupStatus::kDeleted:
      return "DELETED";
    case BackupStatus::kAvailable:
      return "AVAILABLE";
  }
  return "";
}

}  // namespace dynarock
