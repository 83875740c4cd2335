// tools/stats/cost_report.h
//
// The dollar part of `dynarock stats --cost` and of the simulate reports:
// what a table's consumed units, storage and GSI writes would cost on
// DynamoDB in on-demand and in provisioned mode over a period
// (api/metrics/cost_model.h, with the dated us-east-1 price table).
// api/metrics/cost_usage.h reads the usage from a DescribeCapacity and a
// DescribeTable response; FormatCostReport prints it. Pure functions of the JSON, lenient
// as FormatCapacityReport (missing members read as 0); thread-safe.

#ifndef DYNAROCK_TOOLS_STATS_COST_REPORT_H_
#define DYNAROCK_TOOLS_STATS_COST_REPORT_H_

#include <string>

#include "api/metrics/cost_model.h"

namespace dynarock::tools::stats {

// The report, lines ending in '\n':
//   Cost over 2 h in us-east-1 (STANDARD list prices of 2026-12-01, <url>):
//     on-demand    $0.0016  reads 1200 RRU $0.00015, writes 2000 + 0 GSI WRU $0.00125, storage 1.5 KB $...
//     provisioned  $0.0038  12 RCU $0.0031, 1 WCU $0.0013 (sized to the busiest second), storage ...
//     cheaper: on-demand by $0.0022
std::string FormatCostReport(const api::metrics::TableUsage& usage, bool own_capacity,
                             const api::metrics::PriceTable& prices);

}  // namespace dynarock::tools::stats

#endif  // DYNAROCK_TOOLS_STATS_COST_REPORT_H_
