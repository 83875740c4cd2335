// engine/requests/ttl_requests.h
//
// UpdateTimeToLive and DescribeTimeToLive (engine/ttl/ttl_settings.h), and
// the sweep run on demand (a dynarock extension, engine/ttl/ttl_sweeper.h).

#ifndef DYNAROCK_ENGINE_REQUESTS_TTL_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_TTL_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/requests/scope.h"

namespace dynarock {

// UpdateTimeToLive's TimeToLiveSpecification, which its answer echoes.
struct TimeToLiveSpecification {
  bool enabled = false;
  std::string attribute_name;
};

struct UpdateTimeToLiveRequest {
  Scope scope;
  std::string table_name;
  TimeToLiveSpecification specification;
};

struct DescribeTimeToLiveRequest {
  Scope scope;
  std::string table_name;
};

// DescribeTimeToLive's TimeToLiveDescription: ENABLING / DISABLING (with
// the attribute) for EngineOptions::ttl_status_delay_micros after a change,
// then ENABLED (with the attribute) or DISABLED (without one).
enum class TimeToLiveStatus { kEnabled, kDisabled, kEnabling, kDisabling };
std::string_view TimeToLiveStatusName(TimeToLiveStatus status);
struct TimeToLiveDescription {
  TimeToLiveStatus status = TimeToLiveStatus::kDisabled;
  std::optional<std::string> attribute_name;
};

// A Time to Live sweep run now (dynarock extension): one table, or every
// table of the scope with TTL enabled when `table_name` is unset.
struct TimeToLiveSweepRequest {
  Scope scope;
  std::optional<std::string> table_name;
};

struct TimeToLiveSweepResult {
  int64_t scanned_items = 0;  // items read
  int64_t deleted_items = 0;  // expired items deleted
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_TTL_REQUESTS_H_
