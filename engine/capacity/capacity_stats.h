// engine/capacity/capacity_stats.h
//
// The capacity statistics the engine reports (Engine::DescribeCapacity):
// what a table, each GSI and each of their partitions consumed and had
// throttled over time windows, bucket balances, partition ranges and sizes,
// and the hottest partition keys. Plain values, copied out of the
// ThroughputController; part of the engine's public surface.

#ifndef DYNAROCK_ENGINE_CAPACITY_CAPACITY_STATS_H_
#define DYNAROCK_ENGINE_CAPACITY_CAPACITY_STATS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/types.h"

namespace dynarock {

// Capacity units consumed and throttled, throttled requests, and the items
// Time to Live deleted (CloudWatch's TimeToLiveDeletedItemCount; they
// consume no capacity, but a user watches them beside it).
struct Usage {
  double consumed_read_units = 0;
  double consumed_write_units = 0;
  double throttled_read_units = 0;
  double throttled_write_units = 0;
  int64_t throttled_read_requests = 0;
  int64_t throttled_write_requests = 0;
  int64_t ttl_deleted_items = 0;

  Usage& operator+=(const Usage& o);
  bool operator==(const Usage&) const = default;
};

// One of the hottest partition keys of a table or GSI.
struct HotKey {
  uint64_t hash = 0;
  std::string key;
  // Units counted for this key, including `overestimate` (space-saving: a
  // key that replaced another inherits its count as a possible error).
  double units = 0;
  double read_units = 0;       // consumed, observed while tracked
  double write_units = 0;      // consumed, observed while tracked
  double throttled_units = 0;  // throttled, observed while tracked
  double overestimate = 0;
};

// Statistics of one partition.
struct PartitionStats {
  uint32_t id = 0;
  uint64_t begin = 0;
  uint64_t end = 0;  // exclusive; 0 = the end of the ring
  int64_t items = 0;
  int64_t bytes = 0;
  double read_balance = 0;   // units in its read bucket now (may be < 0)
  double write_balance = 0;
  Usage last_second;  // windows: see usage_stats.h
  Usage last_minute;
  Usage last_5_minutes;
  Usage total;  // since the partition was created (by a split, or not)
};

// Statistics of a table or one of its GSIs.
struct ResourceStats {
  uint32_t index_id = 0;  // 0 for the table
  std::string name;       // table or index name
  std::string arn;
  // The table-level rate now: provisioned RCU / WCU, or what an on-demand
  // table can serve at once.
  int64_t read_units_per_second = 0;
  int64_t write_units_per_second = 0;
  double read_balance = 0;
  double write_balance = 0;
  // Highest units consumed in one completed second of the peak window.
  double peak_read_units = 0;
  double peak_write_units = 0;
  Usage last_second;
  Usage last_minute;
  Usage last_5_minutes;
  Usage total;  // since registration
  std::vector<PartitionStats> partitions;  // in ring order
  std::vector<HotKey> hot_keys;            // hottest first
};

struct TableThroughputStats {
  uint32_t table_id = 0;
  BillingMode billing_mode = BillingMode::kProvisioned;
  ResourceStats table;
  std::vector<ResourceStats> global_secondary_indexes;  // in config order
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CAPACITY_CAPACITY_STATS_H_
