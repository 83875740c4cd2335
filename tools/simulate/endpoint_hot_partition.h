// tools/simulate/endpoint_hot_partition.h
//
// `dynarock simulate hot-partition --endpoint URL`: the hot-partition
// experiment's schedule (hot_partition.h) run in real time against a
// DynamoDB endpoint, beside the in-process model run on the same inputs.
//
// The same writes (HotWriteItem: keys, items, sizes) arrive open-loop at
// `rate` per second for `duration` seconds, one table per scenario
// (<prefix>HotSingleKey, <prefix>HotSuffixed), sent by at most `clients`
// connections at once: a PacedRun (endpoint_pacing.h) orders the scheduled
// writes and the retries of throttled ones (exponential backoff with full jitter, the
// model's, at most `max_retries`, then failed), so that the endpoint sees
// the model's schedule as far as `clients` connections can keep it (the
// report gives how late the sends ran). 5xx and transport failures are
// retried by the session (endpoint_session.h) and counted apart. Per
// scenario the run measures what the endpoint did: writes that succeeded,
// items/s, throttled requests by exception and by ThrottlingReasons,
// latency percentiles and the ConsumedCapacity the endpoint reported.
//
// Not thread-safe; one run at a time (it starts its own client threads).

#ifndef DYNAROCK_TOOLS_SIMULATE_ENDPOINT_HOT_PARTITION_H_
#define DYNAROCK_TOOLS_SIMULATE_ENDPOINT_HOT_PARTITION_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "engine/status.h"
#include "tools/simulate/endpoint_cost.h"
#include "tools/simulate/endpoint_report.h"
#include "tools/simulate/endpoint_session.h"
#include "tools/simulate/hot_partition.h"
#include "tools/simulate/sim_support.h"

namespace dynarock::tools::simulate {

// What the endpoint did in one scenario.
struct EndpointScenario {
  std::string name;  // "single-key", "suffixed-K" (the model's names)
  std::string table_name;
  int keys = 1;
  int64_t scheduled = 0;  // writes in the schedule
  int64_t writes = 0;     // succeeded
  int64_t requests = 0;   // PutItem calls answered, retries included
  int64_t failed = 0;     // given up after max_retries throttles
  int64_t errors = 0;     // failed otherwise (5xx or transport after retries)
  EndpointCounts counts;  // throttles, consumed WCU
  double latency_p50_ms = 0;
  double latency_p99_ms = 0;
  double last_write_seconds = 0;  // when the last write succeeded, from start
  double send_lag_p99_ms = 0;     // how late sends ran against the schedule
  bool interrupted = false;
};

// Items per second a scenario achieved: its successful writes over the
// schedule's duration, or until its last write when that was later. The
// same formula for the endpoint and the model.
double AchievedItemsPerSecond(int64_t writes, double last_write_seconds, int duration);

struct HotEndpointReport {
  HotPartitionOptions options;
  EndpointRunInfo info;
  std::vector<EndpointScenario> endpoint;
  HotPartitionReport model;  // the in-process run of the same inputs
};

// The tables, requests and units of the run, for the cost guard.
RunPlan PlanHotPartition(const HotPartitionOptions& options, const std::string& region,
                         const std::string& table_prefix);

// Creates the scenario tables and runs the schedule on them. The tables are
// the session's to clean up (they are not deleted here). Errors: the
// session's (CreateTable refused, endpoint unreachable) and a write the
// endpoint refused with a client error other than throttling.
Result<std::vector<EndpointScenario>> RunHotPartitionAtEndpoint(
    EndpointSession& session, const HotPartitionOptions& options, int clients,
    const std::function<void(int64_t done, int64_t total)>& on_progress);

// Per scenario and measure: endpoint, model, endpoint / model.
TextTable HotComparisonTable(const HotEndpointReport& report);
std::string HotComparisonText(const HotEndpointReport& report);
std::string HotComparisonJson(const HotEndpointReport& report);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_ENDPOINT_HOT_PARTITION_H_
