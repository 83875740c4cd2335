// tools/simulate/hot_partition.h
//
// `dynarock simulate hot-partition`: a write-heavy workload on one partition
// key against the same workload spread over K suffixed keys ("HOT#0" ..
// "HOT#K-1", a random suffix per write), each on a table of its own in one
// in-memory engine on a SimulatedClock, throttling on.
//
// Writes arrive open-loop at `rate` per simulated second for `duration`
// seconds (PutItem of a new item of `item_bytes` under the key); a
// throttled write is retried with exponential backoff and full jitter, at
// most `max_retries` times, then counted as failed. Each second the
// simulator samples DescribeCapacity: per-partition consumed write units
// (the heat map) and, at the end, the hottest keys (CloudWatch Contributor
// Insights' "most accessed / most throttled keys").
//
// Not thread-safe; each run opens its own engine.

#ifndef DYNAROCK_TOOLS_SIMULATE_HOT_PARTITION_H_
#define DYNAROCK_TOOLS_SIMULATE_HOT_PARTITION_H_

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/capacity/capacity_options.h"
#include "engine/capacity/capacity_stats.h"
#include "engine/requests/table_requests.h"
#include "engine/status.h"
#include "engine/types.h"
#include "tools/simulate/event_loop.h"
#include "tools/simulate/sim_support.h"
#include "tools/simulate/write_sharding.h"

namespace dynarock::tools::simulate {

struct HotPartitionOptions {
  int64_t rate = 2'000;        // writes per simulated second
  int64_t item_bytes = 500;    // each write's item size
  int duration_seconds = 60;   // simulated
  int suffixes = 10;           // K of the spread scenario
  int max_retries = 10;        // per write, as the SDKs' DynamoDB default
  uint64_t seed = 1;
  CapacityMode capacity;
  ServiceTime service;
  BackoffOptions backoff;
  CapacityOptions engine_capacity;
};

// One partition's consumed write units, second by second.
struct PartitionHeat {
  uint32_t partition_id = 0;
  uint64_t begin = 0;
  std::vector<double> write_units;  // index = second of the run
};

struct HotScenario {
  std::string name;  // "single-key" or "suffixed-K"
  std::string table_name;
  int keys = 1;
  int64_t writes = 0;      // writes that succeeded
  int64_t requests = 0;    // PutItem calls, retries included
  int64_t throttled = 0;   // throttled calls
  int64_t failed = 0;      // writes given up after max_retries
  double write_units = 0;  // consumed (ConsumedCapacity)
  int64_t last_write_micros = 0;  // when the last write completed, from start
  std::vector<PartitionHeat> heat;
  std::vector<HotKey> hot_keys;  // hottest first
};

struct HotPartitionReport {
  HotPartitionOptions options;
  std::vector<HotScenario> scenarios;
};

// Write `i` (from 0) of a scenario with `keys` keys: PK "HOT" (one key) or
// "HOT#<k>" (k a seeded hash of i mod keys), SK "W#<i>", Data padding the
// item to `item_bytes`. The simulation and the endpoint run
// (endpoint_hot_partition.h) send the same items.
Item HotWriteItem(const HotPartitionOptions& options, int keys, int64_t i);

// The CreateTable request of a scenario's table `table`: PK/SK strings, the
// capacity mode. The simulation and the endpoint run create the same.
CreateTableRequest HotTableRequest(const HotPartitionOptions& options, const std::string& table);

// The options as the JSON reports give them (the model's and the endpoint
// comparison's).
nlohmann::json HotPartitionOptionsJson(const HotPartitionOptions& options);

// Errors: engine errors; kValidation for options out of range.
Result<HotPartitionReport> RunHotPartition(const HotPartitionOptions& options);

// What DynamoDB would bill for a scenario's writes over the run
// (api/metrics/cost_model.h, us-east-1 list prices): on-demand by the write
// request units consumed; provisioned by the WCU that serves the busiest
// simulated second (and 1 RCU) for the run's length. Storage not counted.
struct HotScenarioCost {
  double on_demand = 0;
  double provisioned = 0;
  double provisioned_wcu = 0;
};
HotScenarioCost CostOfScenario(const HotScenario& scenario, int duration_seconds);

TextTable HotPartitionTable(const HotPartitionReport& report);
std::string HotPartitionText(const HotPartitionReport& report);
std::string HotPartitionJson(const HotPartitionReport& report);
// The heat map: one row per partition of each scenario, one column a second.
std::string HotPartitionSvg(const HotPartitionReport& report);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_HOT_PARTITION_H_
