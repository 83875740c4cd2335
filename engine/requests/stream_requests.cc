#include "engine/requests/stream_requests.h"

#include <string_view>

namespace dynarock {

std::string_view StreamEventNameOf(StreamEventName name) {
  switch (name) {
    case StreamEventName::kInsert:
      return "INSERT";
    case StreamEventName::kModify:
      return "MODIFY";
    case StreamEventName::kRemove:
      return "REMOVE";
  }
  return "";
}

std::string_view StreamStatusName(StreamStatus status) {
  switch (status) {
    case StreamStatus::kEnabling:
      return "ENABLING";
    case StreamStatus::kEnabled:
      return "ENABLED";
    case StreamStatus::kDisabling:
      return "DISABLING";
    case StreamStatus::kDisabled:
      return "DISABLED";
  }
  return "";
}

}  // namespace dynarock
