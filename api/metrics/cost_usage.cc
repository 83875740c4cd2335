// api/metrics/cost_usage.cc

#include "api/metrics/cost_usage.h"

#include <initializer_list>
#include <string_view>

namespace dynarock::api::metrics {
namespace {

double NumberAt(const Json& object, std::initializer_list<const char*> path) {
  const Json* at = &object;
  for (const char* name : path) {
    if (!at->is_object()) return 0;
    auto it = at->find(name);
    if (it == at->end()) return 0;
    at = &*it;
  }
  return at->is_number() ? at->get<double>() : 0;
}

const Json& ArrayAt(const Json& object, const char* name) {
  static const Json kEmpty = Json::array();
  if (!object.is_object()) return kEmpty;
  auto it = object.find(name);
  return it != object.end() && it->is_array() ? *it : kEmpty;
}

}  // namespace

bool UsesOwnProvisionedCapacity(const Json& describe_capacity) {
  return describe_capacity.is_object() && describe_capacity.value("BillingMode", "") == "PROVISIONED";
}

TableUsage CostUsageOf(const Json& describe_capacity,
                                     const Json& describe_table, double period_hours) {
  TableUsage u;
  u.period_hours = period_hours;
  const bool own = UsesOwnProvisionedCapacity(describe_capacity);
  const Json& table = describe_table.is_object() && describe_table.contains("Table")
                               ? describe_table["Table"]
                               : describe_table;
  u.read_units = NumberAt(describe_capacity, {"Table", "Total", "ConsumedReadUnits"});
  u.write_units = NumberAt(describe_capacity, {"Table", "Total", "ConsumedWriteUnits"});
  if (own) {
    u.provisioned_rcu = NumberAt(table, {"ProvisionedThroughput", "ReadCapacityUnits"});
    u.provisioned_wcu = NumberAt(table, {"ProvisionedThroughput", "WriteCapacityUnits"});
  } else {
    u.provisioned_rcu = ProvisionedForPeak(
        NumberAt(describe_capacity, {"Table", "PeakReadUnits"}));
    u.provisioned_wcu = ProvisionedForPeak(
        NumberAt(describe_capacity, {"Table", "PeakWriteUnits"}));
  }
  for (const Json& gsi : ArrayAt(describe_capacity, "GlobalSecondaryIndexes")) {
    u.read_units += NumberAt(gsi, {"Total", "ConsumedReadUnits"});
    u.gsi_write_units += NumberAt(gsi, {"Total", "ConsumedWriteUnits"});
    if (!own) {
      u.provisioned_rcu += ProvisionedForPeak(NumberAt(gsi, {"PeakReadUnits"}));
      u.provisioned_wcu += ProvisionedForPeak(NumberAt(gsi, {"PeakWriteUnits"}));
    }
  }
  u.storage_bytes = NumberAt(table, {"TableSizeBytes"});
  for (const char* kind : {"GlobalSecondaryIndexes", "LocalSecondaryIndexes"}) {
    for (const Json& index : ArrayAt(table, kind)) {
      u.storage_bytes += NumberAt(index, {"IndexSizeBytes"});
      if (own && std::string_view(kind) == "GlobalSecondaryIndexes") {
        u.provisioned_rcu += NumberAt(index, {"ProvisionedThroughput", "ReadCapacityUnits"});
        u.provisioned_wcu += NumberAt(index, {"ProvisionedThroughput", "WriteCapacityUnits"});
      }
    }
  }
  return u;
}

}  // namespace dynarock::api::metrics
