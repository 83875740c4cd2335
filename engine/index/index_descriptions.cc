#include "engine/index/index_descriptions.h"

#include <utility>

#include "engine/capacity/throughput_settings.h"
#include "engine/schema/arns.h"

namespace dynarock {

ProvisionedThroughputDescription ThroughputDescriptionOf(
    const std::optional<ProvisionedThroughput>& t) {
  ProvisionedThroughputDescription d;
  if (t) {
    d.read_capacity_units = t->read_capacity_units;
    d.write_capacity_units = t->write_capacity_units;
  }
  return d;
}

Result<GlobalSecondaryIndexDescription> NewGsiDescription(
    const std::string& table_arn, const GlobalSecondaryIndexDef& def,
    BillingMode billing, const CapacityOptions& capacity, std::string_view region) {
  GlobalSecondaryIndexDescription g;
  g.def = def;
  g.index_arn = IndexArn(table_arn, def.index_name);
  g.index_status = TableStatus::kActive;  // CREATING comes from the backfill
  g.provisioned_throughput = ThroughputDescriptionOf(def.provisioned_throughput);
  DR_ASSIGN_OR_RETURN(
      g.settings,
      NewThroughputSettings(def.index_name, billing, def.provisioned_throughput,
                            def.on_demand_throughput, def.warm_throughput, capacity,
                            region));
  return g;
}

LocalSecondaryIndexDescription NewLsiDescription(const std::string& table_arn,
                                                 const LocalSecondaryIndexDef& def) {
  LocalSecondaryIndexDescription l;
  l.def = def;
  l.index_arn = IndexArn(table_arn, def.index_name);
  return l;
}

}  // namespace dynarock
