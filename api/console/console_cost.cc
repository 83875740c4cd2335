// api/console/console_cost.cc

#include "api/console/console_cost.h"

#include <string>

#include "api/metrics/cost_model.h"
#include "api/metrics/cost_usage.h"

namespace dynarock::api::console {
namespace {

double NumberOr0(const Json& object, const char* name) {
  if (!object.is_object()) return 0;
  auto it = object.find(name);
  return it != object.end() && it->is_number() ? it->get<double>() : 0;
}

}  // namespace

Json CostView(const Json& describe_capacity, const Json& describe_table,
              const Json& describe_clock, const metrics::PriceTable& prices) {
  const Json& table = describe_table.is_object() && describe_table.contains("Table")
                          ? describe_table["Table"]
                          : describe_table;
  const double now = NumberOr0(describe_clock, "Now");
  const double created = NumberOr0(table, "CreationDateTime");
  const double hours = now > created ? (now - created) / 3600 : 0;
  const metrics::TableUsage usage =
      metrics::CostUsageOf(describe_capacity, describe_table, hours);
  const metrics::TableCost cost = metrics::EstimateCost(usage, prices);
  const bool own = metrics::UsesOwnProvisionedCapacity(describe_capacity);
  const double difference = cost.provisioned_total() - cost.on_demand_total();
  return Json{
      {"TableName", table.is_object() ? table.value("TableName", "") : ""},
      {"PeriodHours", hours},
      {"Region", std::string(prices.region)},
      {"TableClass", std::string(prices.table_class)},
      {"PricesAsOf", std::string(prices.as_of)},
      {"PriceSource", std::string(prices.source_url)},
      {"Usage",
       {{"ReadUnits", usage.read_units},
        {"WriteUnits", usage.write_units},
        {"GsiWriteUnits", usage.gsi_write_units},
        {"StorageBytes", usage.storage_bytes},
        {"ProvisionedReadCapacityUnits", usage.provisioned_rcu},
        {"ProvisionedWriteCapacityUnits", usage.provisioned_wcu},
        {"ProvisionedFrom", own ? "TABLE" : "PEAK"}}},
      {"OnDemand",
       {{"Reads", cost.on_demand_reads},
        {"Writes", cost.on_demand_writes},
        {"Storage", cost.storage},
        {"Total", cost.on_demand_total()}}},
      {"Provisioned",
       {{"Reads", cost.provisioned_reads},
        {"Writes", cost.provisioned_writes},
        {"Storage", cost.storage},
        {"Total", cost.provisioned_total()}}},
      {"OnDemandText", metrics::FormatDollars(cost.on_demand_total())},
      {"ProvisionedText", metrics::FormatDollars(cost.provisioned_total())},
      {"Cheaper", difference > 0 ? "ON_DEMAND" : difference < 0 ? "PROVISIONED" : "NEITHER"},
  };
}

}  // namespace dynarock::api::console
