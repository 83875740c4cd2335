// engine/requests/index_lag_requests.h
//
// The secondary-index extensions (dynarock only): how long a GSI lags its
// table, and how propagation is doing (engine/index/propagator.h).

#ifndef DYNAROCK_ENGINE_REQUESTS_INDEX_LAG_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_INDEX_LAG_REQUESTS_H_

#include <cstdint>
#include <string>

#include "engine/requests/scope.h"

namespace dynarock {

// Sets how long after a write its changes reach one GSI (0: as fast as
// possible; negative: back to EngineOptions::gsi_lag_micros). Runtime only,
// not persisted.
struct SetIndexLagRequest {
  Scope scope;
  std::string table_name;
  std::string index_name;
  int64_t lag_micros = 0;
};

// How GSI propagation is doing, over the most recent records applied when
// due (records forced by WaitUntilIndexesCaughtUp are not counted).
struct IndexPropagationStats {
  int64_t applied_records = 0;
  int64_t pending_records = 0;
  int64_t lag_p50_micros = 0;
  int64_t lag_p99_micros = 0;
  int64_t lag_max_micros = 0;
  int64_t samples = 0;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_INDEX_LAG_REQUESTS_H_
