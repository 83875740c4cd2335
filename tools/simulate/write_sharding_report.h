// tools/simulate/write_sharding_report.h
//
// The write-sharding report in its forms: a text summary with a table for
// the terminal, CSV (one row per variant and N; sustained: also one row per
// simulated second), JSON (the options, the formulas, every run and its
// seconds) and an SVG plot (single read: time to read against N;
// sustained: achieved rate over time).
// Plain functions; thread-safe.

#ifndef DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_REPORT_H_
#define DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_REPORT_H_

#include <string>

#include <nlohmann/json.hpp>

#include "tools/simulate/sim_support.h"
#include "tools/simulate/write_sharding.h"

namespace dynarock::tools::simulate {

// One row per variant and N (single read or sustained columns).
TextTable WriteShardingTable(const WriteShardingReport& report);
// Sustained: one row per variant, N and simulated second (empty for a
// single read).
TextTable WriteShardingSeries(const WriteShardingReport& report);
// What DynamoDB would bill for one run's reads (api/metrics/cost_model.h,
// us-east-1 list prices, as `simulate hot-partition` and `stats --cost`):
// on-demand by the read request units consumed; provisioned by the RCU that
// serve the busiest simulated second (a single read: its mean rate) and
// 1 WCU, for the read's length. Storage not counted.
struct ReadRunCost {
  double on_demand = 0;
  double provisioned = 0;
  double provisioned_rcu = 0;
};
ReadRunCost CostOfRead(const ReadRun& run);

// The text report; it ends with each run's ReadRunCost.
std::string WriteShardingText(const WriteShardingReport& report);
std::string WriteShardingJson(const WriteShardingReport& report);
// The options as the JSON reports give them (the model's and the endpoint
// comparison's).
nlohmann::json WriteShardingOptionsJson(const WriteShardingOptions& options);
std::string WriteShardingSvg(const WriteShardingReport& report);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_REPORT_H_
