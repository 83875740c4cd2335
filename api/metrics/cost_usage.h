// api/metrics/cost_usage.h
//
// A table's use over a period (cost_model.h's TableUsage) read from the
// answers of DynamoRock_20251121.DescribeCapacity and DescribeTable: the
// units the table and its GSIs consumed, the bytes stored, and the capacity
// to provision. `dynarock stats --cost` and the console's cost view
// (api/console/console_cost.h) both price what this returns, so the two
// show the same dollars. Pure functions of the JSON, lenient (missing
// members read as 0); thread-safe.

#ifndef DYNAROCK_API_METRICS_COST_USAGE_H_
#define DYNAROCK_API_METRICS_COST_USAGE_H_

#include "api/json_codec.h"
#include "api/metrics/cost_model.h"

namespace dynarock::api::metrics {

// The usage over `period_hours`: units consumed by the table and its GSIs
// (DescribeCapacity's Total), bytes of the table and its indexes
// (DescribeTable), and the capacity to provision: a provisioned table's own
// (table and GSIs), else what serves each one's busiest second
// (PeakReadUnits / PeakWriteUnits, ProvisionedForPeak).
TableUsage CostUsageOf(const Json& describe_capacity, const Json& describe_table,
                       double period_hours);

// Whether the provisioned figures are the table's own capacity (true) or
// sized to its observed peak (an on-demand table).
bool UsesOwnProvisionedCapacity(const Json& describe_capacity);

}  // namespace dynarock::api::metrics

#endif  // DYNAROCK_API_METRICS_COST_USAGE_H_
