// tools/stats/cost_report.cc

#include "tools/stats/cost_report.h"

#include <cmath>
#include <cstdio>
#include <string_view>

#include "tools/stats/capacity_report.h"

namespace dynarock::tools::stats {
namespace {

std::string Units(double units) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.10g", units);
  return text;
}

}  // namespace

std::string FormatCostReport(const api::metrics::TableUsage& usage, bool own_capacity,
                             const api::metrics::PriceTable& prices) {
  using api::metrics::FormatDollars;
  const api::metrics::TableCost cost = api::metrics::EstimateCost(usage, prices);
  char hours[32];
  std::snprintf(hours, sizeof(hours), "%.4g h", usage.period_hours);
  std::string out = "Cost over " + std::string(hours) + " in " + std::string(prices.region) +
                    " (" + std::string(prices.table_class) + " list prices of " +
                    std::string(prices.as_of) + ", " + std::string(prices.source_url) + "):\n";
  const std::string storage = "storage " +
                              HumanBytes(static_cast<int64_t>(std::llround(usage.storage_bytes))) +
                              " " + FormatDollars(cost.storage);
  out += "  on-demand    " + FormatDollars(cost.on_demand_total()) + "  reads " +
         Units(usage.read_units) + " RRU " + FormatDollars(cost.on_demand_reads) + ", writes " +
         Units(usage.write_units) + " + " + Units(usage.gsi_write_units) + " GSI WRU " +
         FormatDollars(cost.on_demand_writes) + ", " + storage + "\n";
  out += "  provisioned  " + FormatDollars(cost.provisioned_total()) + "  " +
         Units(usage.provisioned_rcu) + " RCU " + FormatDollars(cost.provisioned_reads) + ", " +
         Units(usage.provisioned_wcu) + " WCU " + FormatDollars(cost.provisioned_writes) +
         (own_capacity ? " (the table's provisioned capacity)"
                       : " (sized to the busiest second)") +
         ", " + storage + "\n";
  const double difference = cost.provisioned_total() - cost.on_demand_total();
  if (difference > 0) {
    out += "  cheaper: on-demand by " + FormatDollars(difference) + "\n";
  } else if (difference < 0) {
    out += "  cheaper: provisioned by " + FormatDollars(-difference) + "\n";
  } else {
    out += "  cheaper: neither\n";
  }
  return out;
}

}  // namespace dynarock::tools::stats
