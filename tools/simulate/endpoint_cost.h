// tools/simulate/endpoint_cost.h
//
// What a run against an endpoint is expected to cost on Amazon DynamoDB,
// priced before its first request, and the guard that refuses a run above
// the user's limit (`--max-cost-usd`). The plan counts the request units
// the schedule will consume (throttled requests are not billed, so retries
// add nothing) and, for provisioned tables, the capacity-unit hours they
// hold (DynamoDB bills provisioned capacity by the hour: a run of minutes
// pays for whole hours), plus the storage of the items written, held for
// the run. Prices: the dated price table of api/metrics/price_table.h, the
// same the console's cost view and `dynarock stats --cost` use; it has
// us-east-1 only, so another Region is priced at us-east-1's list prices,
// and the plan says so.
//
// Pure functions; thread-safe.

#ifndef DYNAROCK_TOOLS_SIMULATE_ENDPOINT_COST_H_
#define DYNAROCK_TOOLS_SIMULATE_ENDPOINT_COST_H_

#include <cstdint>
#include <string>
#include <vector>

#include "api/metrics/cost_model.h"
#include "engine/status.h"

namespace dynarock::tools::simulate {

// The tables and requests of a planned run.
struct RunPlan {
  std::string experiment;  // "hot-partition"
  std::string region;
  std::vector<std::string> tables;  // full names, prefix included
  // Requests and units of the schedule as planned, without retries.
  int64_t write_requests = 0;
  int64_t read_requests = 0;
  double write_request_units = 0;
  double read_request_units = 0;
  double stored_bytes = 0;  // at the end of the run
  double run_seconds = 0;   // the schedule's length
  // Provisioned: per table, and each of the `gsis` GSIs (over all the
  // tables) as much.
  bool provisioned = false;
  int gsis = 0;
  int64_t rcu_per_table = 0;
  int64_t wcu_per_table = 0;
  std::vector<std::string> steps;  // what the run does, one line each
};

struct PlanCost {
  double dollars = 0;
  std::string prices;  // "us-east-1 on-demand list prices of 2026-12-01 (...)"
  std::string detail;  // "15,680 WRU x $0.625/M = ..."
};

// Dollars of `plan` at the Region's list prices.
PlanCost PricePlan(const RunPlan& plan);

// The plan and its cost as lines for the terminal (`--dry-run`), ending
// with the limit and whether the run may start.
std::string PlanText(const RunPlan& plan, const PlanCost& cost, double max_cost_usd);

// OK when cost <= limit; otherwise kValidation "the run would cost about
// $X on DynamoDB (...), above --max-cost-usd $Y; raise it or shorten the
// run (--dry-run shows the plan)".
Status CheckCostLimit(const PlanCost& cost, double max_cost_usd);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_ENDPOINT_COST_H_
