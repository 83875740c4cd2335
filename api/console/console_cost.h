// api/console/console_cost.h
//
// The console's cost view: what a table's use since its creation would
// have cost on DynamoDB in on-demand and in provisioned mode, as JSON for
// the page (POST /console/api/cost). The same usage (api/metrics/cost_usage.h),
// arithmetic (cost_model.h) and dated price table (price_table.h) as
// `dynarock stats --cost`, so both show the same dollars. Pure function;
// thread-safe.

#ifndef DYNAROCK_API_CONSOLE_CONSOLE_COST_H_
#define DYNAROCK_API_CONSOLE_CONSOLE_COST_H_

#include "api/json_codec.h"
#include "api/metrics/price_table.h"

namespace dynarock::api::console {

// From the answers of DynamoRock_20251121.DescribeCapacity, DescribeTable
// and DynamoRock_20251121.DescribeClock (the server's clock, simulated or
// not): the period is from the table's CreationDateTime to the clock's Now.
// {"TableName", "PeriodHours", "Region", "TableClass", "PricesAsOf",
//  "PriceSource",
//  "Usage": {"ReadUnits", "WriteUnits", "GsiWriteUnits", "StorageBytes",
//            "ProvisionedReadCapacityUnits", "ProvisionedWriteCapacityUnits",
//            "ProvisionedFrom": "TABLE" (its own) | "PEAK" (its busiest second)},
//  "OnDemand" / "Provisioned": {"Reads", "Writes", "Storage", "Total"} (dollars),
//  "OnDemandText" / "ProvisionedText" (FormatDollars of the totals),
//  "Cheaper": "ON_DEMAND" | "PROVISIONED" | "NEITHER"}
Json CostView(const Json& describe_capacity, const Json& describe_table,
              const Json& describe_clock, const metrics::PriceTable& prices);

}  // namespace dynarock::api::console

#endif  // DYNAROCK_API_CONSOLE_CONSOLE_COST_H_
