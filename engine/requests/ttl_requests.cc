#include "engine/requests/ttl_requests.h"

#include <string_view>

namespace dynarock {

std::string_view TimeToLiveStatusName(TimeToLiveStatus status) {
  switch (status) {
    case TimeToLiveStatus::kEnabled:
      return "ENABLED";
    case TimeToLiveStatus::kEnabling:
      return "ENABLING";
    case TimeToLiveStatus::kDisabling:
      return "DISABLING";
    case TimeToLiveStatus::kDisabled:
      break;
  }
  return "DISABLED";
}

}  // namespace dynarock
