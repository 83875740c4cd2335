// tools/simulate/scale.h
//
// `dynarock simulate scale`: the engine at DynamoDB scale. One provisioned
// table of `partitions` partitions (RCU = 3,000 x P/2, WCU = 1,000 x the
// other P/2: the DynamoDB partition rule ceil(RCU / 3,000 + WCU / 1,000)
// gives exactly P)
// is loaded with `keys` partition keys of `items_per_key` items each, then
// takes `rate` requests per simulated second for `duration_seconds`: a mix
// of GetItem (eventually consistent), PutItem (rewrites an item) and Query
// (one item collection), over keys spread uniformly across the hash ring,
// except `hot_share` of the requests, which go to `hot_keys` keys. Requests
// arrive open-loop at even intervals; a throttled one is retried with the
// SDK backoff, at most `max_retries` times, then counted as failed.
//
// The run is deterministic (the same options give the same report); its
// wall time is measured beside it, as simulated seconds per wall second: a
// simulation of a large table is useful only if it runs at least as fast as
// the real thing.
//
// Not thread-safe; each run opens its own engine.

#ifndef DYNAROCK_TOOLS_SIMULATE_SCALE_H_
#define DYNAROCK_TOOLS_SIMULATE_SCALE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/capacity/capacity_options.h"
#include "engine/capacity/capacity_stats.h"
#include "engine/status.h"
#include "tools/simulate/event_loop.h"
#include "tools/simulate/sim_support.h"
#include "tools/simulate/write_sharding.h"

namespace dynarock::tools::simulate {

struct ScaleOptions {
  int partitions = 1'000;        // the table's (>= 2), by its throughput
  int64_t rate = 100'000;        // requests per simulated second
  int duration_seconds = 10;     // simulated, after the load
  int64_t keys = 100'000;        // partition keys loaded
  int items_per_key = 4;         // items per partition key (the Query's page)
  int64_t item_bytes = 200;      // each item's size
  int get_percent = 60;          // GetItem share of the requests
  int put_percent = 30;          // PutItem share; the rest are Query
  int hot_keys = 2;              // keys that get `hot_share` of the requests
  double hot_share = 0.1;
  int max_retries = 10;
  uint64_t seed = 1;
  // The in-memory engine's memtable size (EngineOptions::memtable_bytes).
  // 256 MB holds the whole default key space (400,000 items, ~100 MB with
  // the skip list's overhead): a GetItem is one skip-list search instead of
  // one in each of the memtables and the levels' table files. The run's
  // engine thread needed 1.4x less CPU than at write-sharding's 16 MB
  // (bench/README.md, "simulate at DynamoDB scale"). No result changes.
  int64_t memtable_bytes = int64_t{256} << 20;
  // Provisioned RCU / WCU instead of the partitions' (when set).
  CapacityMode capacity;
  ServiceTime service;
  BackoffOptions backoff;
  CapacityOptions engine_capacity;
  // Called after each simulated second of the run (done, total seconds).
  std::function<void(int64_t done, int64_t total)> on_progress;
};

// The requests of one operation.
struct ScaleOpCounts {
  int64_t issued = 0;     // requests (first attempts)
  int64_t calls = 0;      // engine calls, retries included
  int64_t ok = 0;
  int64_t throttled = 0;  // throttled calls
  int64_t failed = 0;     // given up after max_retries
};

// One simulated second of the run.
struct ScaleSecond {
  int64_t calls = 0;
  int64_t ok = 0;
  int64_t throttled = 0;
};

// One partition over the run (the load's writes not counted).
struct ScalePartition {
  uint32_t id = 0;
  uint64_t begin = 0;
  Usage usage;
};

struct ScaleReport {
  ScaleOptions options;
  int64_t read_capacity_units = 0;   // the table's provisioned throughput
  int64_t write_capacity_units = 0;
  int64_t items_loaded = 0;
  size_t partitions_start = 0;
  size_t partitions_end = 0;
  ScaleOpCounts get, put, query;
  Usage table_usage;                        // over the run
  std::vector<ScaleSecond> seconds;         // index = second of the run
  std::vector<ScalePartition> partitions;   // over the run, in ring order
  std::vector<HotKey> hot_keys;             // hottest first
  // Wall time (not deterministic, kept apart from the rest).
  double load_wall_seconds = 0;
  double run_wall_seconds = 0;
  double run_cpu_seconds = 0;         // the process's, over the run
  double run_thread_cpu_seconds = 0;  // the simulation loop's thread's
};

// Errors: engine errors; kValidation for options out of range.
Result<ScaleReport> RunScale(const ScaleOptions& options);

// The report without wall times (deterministic), then the wall figures
// (simulated seconds per wall second) when `with_timing`.
std::string ScaleText(const ScaleReport& report, bool with_timing = true);
// One row per simulated second.
TextTable ScaleSeries(const ScaleReport& report);
std::string ScaleJson(const ScaleReport& report, bool with_timing = true);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_SCALE_H_
