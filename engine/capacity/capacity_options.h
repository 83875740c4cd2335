// engine/capacity/capacity_options.h
//
// Every parameter of the throughput model (ThroughputController), with
// DynamoDB's values as defaults. Tests shrink sizes and times.

#ifndef DYNAROCK_ENGINE_CAPACITY_CAPACITY_OPTIONS_H_
#define DYNAROCK_ENGINE_CAPACITY_CAPACITY_OPTIONS_H_

#include <cstddef>
#include <cstdint>

#include "engine/capacity/partition_map.h"

namespace dynarock {

struct CapacityOptions {
  // Per-partition ceilings: 3,000 RCU/s and 1,000 WCU/s (both modes).
  PartitionCeilings partition_ceilings;
  // A provisioned table or GSI retains up to this many seconds of unused
  // capacity (burst capacity).
  int64_t burst_seconds = 300;
  // A new on-demand table's warm throughput, units per second.
  int64_t on_demand_warm_read_units = 12000;
  int64_t on_demand_warm_write_units = 4000;
  // An on-demand table serves at once up to twice its peak of this window.
  int64_t on_demand_peak_window_seconds = 1800;
  // The per-table account quota (on-demand tables and their GSIs).
  int64_t table_read_quota = 40000;
  int64_t table_write_quota = 40000;
  // A partition splits in two when its bytes pass this size.
  int64_t split_size_bytes = int64_t{10} << 30;
  // Split for heat: a partition whose demand (consumed + throttled) stays at
  // least this fraction of a ceiling in every second for `heat_split_after`
  // splits between its hot keys.
  double heat_fraction = 0.8;
  int64_t heat_split_after_micros = int64_t{5} * 60 * 1'000'000;
  // Keys tracked per table or GSI for hot-key reports.
  size_t hot_keys_tracked = 64;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CAPACITY_CAPACITY_OPTIONS_H_
