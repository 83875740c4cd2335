// tools/stats/cost_report.cc

#include "tools/stats/cost_report.h"

#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string_view>

#include "tools/stats/capacity_report.h"

namespace dynarock::tools::stats {
namespace {

double NumberAt(const api::Json& object, std::initializer_list<const char*> path) {
  const api::Json* at = &object;
  for (const char* name : path) {
    if (!at->is_object()) return 0;
    auto it = at->find(name);
    if (it == at->end()) return 0;
    at = &*it;
  }
  return at->is_number() ? at->get<double>() : 0;
}

const api::Json& ArrayAt(const api::Json& object, const char* name) {
  static const api::Json kEmpty = api::Json::array();
  if (!object.is_object()) return kEmpty;
  auto it = object.find(name);
  return it != object.end() && it->is_array() ? *it : kEmpty;
}

std::string Units(double units) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.10g", units);
  return text;
}

}  // namespace

bool UsesOwnProvisionedCapacity(const api::Json& describe_capacity) {
  return describe_capacity.is_object() && describe_capacity.value("BillingMode", "") == "PROVISIONED";
}

api::metrics::TableUsage CostUsageOf(const api::Json& describe_capacity,
                                     const api::Json& describe_table, double period_hours) {
  api::metrics::TableUsage u;
  u.period_hours = period_hours;
  const bool own = UsesOwnProvisionedCapacity(describe_capacity);
  const api::Json& table = describe_table.is_object() && describe_table.contains("Table")
                               ? describe_table["Table"]
                               : describe_table;
  u.read_units = NumberAt(describe_capacity, {"Table", "Total", "ConsumedReadUnits"});
  u.write_units = NumberAt(describe_capacity, {"Table", "Total", "ConsumedWriteUnits"});
  if (own) {
    u.provisioned_rcu = NumberAt(table, {"ProvisionedThroughput", "ReadCapacityUnits"});
    u.provisioned_wcu = NumberAt(table, {"ProvisionedThroughput", "WriteCapacityUnits"});
  } else {
    u.provisioned_rcu = api::metrics::ProvisionedForPeak(
        NumberAt(describe_capacity, {"Table", "PeakReadUnits"}));
    u.provisioned_wcu = api::metrics::ProvisionedForPeak(
        NumberAt(describe_capacity, {"Table", "PeakWriteUnits"}));
  }
  for (const api::Json& gsi : ArrayAt(describe_capacity, "GlobalSecondaryIndexes")) {
    u.read_units += NumberAt(gsi, {"Total", "ConsumedReadUnits"});
    u.gsi_write_units += NumberAt(gsi, {"Total", "ConsumedWriteUnits"});
    if (!own) {
      u.provisioned_rcu += api::metrics::ProvisionedForPeak(NumberAt(gsi, {"PeakReadUnits"}));
      u.provisioned_wcu += api::metrics::ProvisionedForPeak(NumberAt(gsi, {"PeakWriteUnits"}));
    }
  }
  u.storage_bytes = NumberAt(table, {"TableSizeBytes"});
  for (const char* kind : {"GlobalSecondaryIndexes", "LocalSecondaryIndexes"}) {
    for (const api::Json& index : ArrayAt(table, kind)) {
      u.storage_bytes += NumberAt(index, {"IndexSizeBytes"});
      if (own && std::string_view(kind) == "GlobalSecondaryIndexes") {
        u.provisioned_rcu += NumberAt(index, {"ProvisionedThroughput", "ReadCapacityUnits"});
        u.provisioned_wcu += NumberAt(index, {"ProvisionedThroughput", "WriteCapacityUnits"});
      }
    }
  }
  return u;
}

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
