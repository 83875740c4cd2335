// tools/simulate/endpoint_cost.cc

#include "tools/simulate/endpoint_cost.h"

#include <cmath>

#include "api/metrics/price_table.h"
#include "tools/simulate/sim_support.h"

namespace dynarock::tools::simulate {

PlanCost PricePlan(const RunPlan& plan) {
  const api::metrics::PriceTable& prices = api::metrics::UsEast1StandardPrices();
  api::metrics::TableUsage usage;
  usage.read_units = plan.read_request_units;
  usage.write_units = plan.write_request_units;
  usage.storage_bytes = plan.stored_bytes;
  // Provisioned capacity is billed by the started hour.
  usage.period_hours = plan.provisioned ? std::max(1.0, std::ceil(plan.run_seconds / 3600.0))
                                        : plan.run_seconds / 3600.0;
  // Each GSI of a provisioned table has its own throughput, billed alike.
  const double holders = static_cast<double>(plan.tables.size()) + plan.gsis;
  usage.provisioned_rcu = static_cast<double>(plan.rcu_per_table) * holders;
  usage.provisioned_wcu = static_cast<double>(plan.wcu_per_table) * holders;
  const api::metrics::TableCost cost = api::metrics::EstimateCost(usage, prices);
  PlanCost out;
  out.dollars = plan.provisioned ? cost.provisioned_total() : cost.on_demand_total();
  out.prices = std::string(prices.region) + (plan.provisioned ? " provisioned" : " on-demand") +
               " list prices of " + std::string(prices.as_of) + " (" +
               std::string(prices.source_url) + ")";
  if (plan.region != prices.region) {
    out.prices += "; no price table for " + plan.region + ": priced as " +
                  std::string(prices.region) + ", which is among the cheapest Regions";
  }
  if (plan.provisioned) {
    out.detail = Fixed(usage.provisioned_wcu, 0) + " WCU and " +
                 Fixed(usage.provisioned_rcu, 0) + " RCU for " + Fixed(usage.period_hours, 0) +
                 " started hour(s) = " + api::metrics::FormatDollars(cost.provisioned_writes) +
                 " + " + api::metrics::FormatDollars(cost.provisioned_reads);
  } else {
    out.detail = Fixed(plan.write_request_units, 0) + " WRU x $" +
                 Fixed(prices.per_million_write_request_units, 3) + "/M + " +
                 Fixed(plan.read_request_units, 0) + " RRU x $" +
                 Fixed(prices.per_million_read_request_units, 3) + "/M = " +
                 api::metrics::FormatDollars(cost.on_demand_writes + cost.on_demand_reads);
  }
  out.detail += ", storage " + api::metrics::FormatDollars(cost.storage);
  return out;
}

std::string PlanText(const RunPlan& plan, const PlanCost& cost, double max_cost_usd) {
  std::string out = "plan: " + plan.experiment + " against the endpoint, Region " +
                    plan.region + "\n";
  for (const std::string& step : plan.steps) out += "  " + step + "\n";
  out += "  tables (deleted at the end):";
  for (const std::string& t : plan.tables) out += " " + t;
  out += "\n  expected: " + std::to_string(plan.write_requests) + " writes (" +
         Fixed(plan.write_request_units, 0) + " WRU), " +
         std::to_string(plan.read_requests) + " reads (" +
         Fixed(plan.read_request_units, 0) + " RRU) over " + Fixed(plan.run_seconds, 0) +
         " s, retries not billed\n";
  out += "  cost on DynamoDB: about " + api::metrics::FormatDollars(cost.dollars) + " (" +
         cost.detail + "; " + cost.prices + ")\n";
  out += "  limit (--max-cost-usd): " + api::metrics::FormatDollars(max_cost_usd) +
         (cost.dollars <= max_cost_usd ? ": within\n" : ": ABOVE, the run would refuse\n");
  return out;
}

Status CheckCostLimit(const PlanCost& cost, double max_cost_usd) {
  if (cost.dollars <= max_cost_usd) return Status::OK();
  return Status::Validation("the run would cost about " +
                            api::metrics::FormatDollars(cost.dollars) + " on DynamoDB (" +
                            cost.detail + "), above --max-cost-usd " +
                            api::metrics::FormatDollars(max_cost_usd) +
                            "; raise it or shorten the run (--dry-run shows the plan)");
}

}  // namespace dynarock::tools::simulate
