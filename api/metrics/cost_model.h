// api/metrics/cost_model.h
//
// What a table's use would cost on DynamoDB, in on-demand and in
// provisioned mode, over a period: request units and capacity-unit hours
// times a PriceTable (price_table.h), plus storage. Pure arithmetic, no
// engine: `dynarock stats --cost` and the simulate reports feed it what the
// capacity model counted.
//
// Pure functions; thread-safe.

#ifndef DYNAROCK_API_METRICS_COST_MODEL_H_
#define DYNAROCK_API_METRICS_COST_MODEL_H_

#include <string>

#include "api/metrics/price_table.h"

namespace dynarock::api::metrics {

// A table's use over a period.
struct TableUsage {
  // Units consumed over the period: reads of the table and its indexes,
  // writes to the table, and the writes its GSIs took (each GSI pays for
  // its own copy of a write).
  double read_units = 0;
  double write_units = 0;
  double gsi_write_units = 0;
  // Bytes stored (table and indexes), held over the whole period.
  double storage_bytes = 0;
  double period_hours = 0;
  // Capacity provisioned over the period (table and GSIs together): a
  // provisioned table's own, or what would serve an on-demand table's peak
  // (ProvisionedForPeak).
  double provisioned_rcu = 0;
  double provisioned_wcu = 0;
};

struct TableCost {
  // On-demand: request units.
  double on_demand_reads = 0;
  double on_demand_writes = 0;  // table and GSI writes
  // Provisioned: capacity-unit hours.
  double provisioned_reads = 0;
  double provisioned_writes = 0;
  // The same in both modes.
  double storage = 0;

  double on_demand_total() const { return on_demand_reads + on_demand_writes + storage; }
  double provisioned_total() const {
    return provisioned_reads + provisioned_writes + storage;
  }
};

// Dollars, per PriceTable. Negative inputs count as 0.
TableCost EstimateCost(const TableUsage& usage, const PriceTable& prices);

// The capacity units to provision to serve `peak_units_per_second` without
// throttling: the peak rounded up, at least 1 (DynamoDB's minimum).
double ProvisionedForPeak(double peak_units_per_second);

// "$12.35", rounded to the cent with a half cent up ($1.625 -> "$1.63");
// amounts under a cent to a millionth of a dollar ("$0.003125").
std::string FormatDollars(double dollars);

}  // namespace dynarock::api::metrics

#endif  // DYNAROCK_API_METRICS_COST_MODEL_H_
