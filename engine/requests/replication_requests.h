// engine/requests/replication_requests.h
//
// The global-tables extensions (dynarock only): how far each replica lags,
// Regions cut off from each other for a while, and how replication into
// each replica is doing (engine/replication/replicator.h).

#ifndef DYNAROCK_ENGINE_REQUESTS_REPLICATION_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_REPLICATION_REQUESTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/requests/scope.h"

namespace dynarock {

// Sets how long after a write its change reaches the replica of
// `table_name` in `region_name` (0: at the next due work; negative: back to
// EngineOptions::replication_lag_micros). Runtime only, not persisted.
struct SetReplicationLagRequest {
  Scope scope;
  std::string table_name;
  std::string region_name;
  int64_t lag_micros = 0;
};

// Stops replication both ways between two Regions (every global table
// with replicas in both) for `duration_micros` on the engine's clock (0:
// until healed); `heal` ends the pair's partition instead. Runtime only.
struct PartitionRegionsRequest {
  std::string region_a;
  std::string region_b;
  int64_t duration_micros = 0;
  bool heal = false;
};

// Two Regions partitioned until `until_micros` on the clock (0: until
// healed).
struct RegionPartitionDescription {
  std::string region_a;
  std::string region_b;
  int64_t until_micros = 0;
};

// Replication into one replica of a global table.
struct ReplicaReplicationDescription {
  std::string region_name;
  int64_t lag_micros = 0;        // the configured lag
  bool default_lag = true;       // not set by SetReplicationLag
  int64_t pending_records = 0;   // changes on their way, due or not
  int64_t applied = 0;           // changes written since the engine opened
  int64_t superseded = 0;        // changes a newer version outran (last writer wins)
  int64_t throttled = 0;         // applies the replica's capacity refused (retried)
  int64_t tombstones_collected = 0;  // versions of deleted items it no longer needs
  // Write-to-apply delay of its most recent changes, on the engine's clock.
  int64_t latency_samples = 0;
  int64_t latency_p50_micros = 0;
  int64_t latency_p99_micros = 0;
  int64_t latency_max_micros = 0;
  // Regions it receives nothing from now (PartitionRegions).
  std::vector<std::string> partitioned_from;
};

// A global table's replication, each member (the table asked about first).
struct ReplicationDescription {
  std::vector<ReplicaReplicationDescription> replicas;
  std::vector<RegionPartitionDescription> partitions;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_REPLICATION_REQUESTS_H_
