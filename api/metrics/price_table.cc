// api/metrics/price_table.cc
//
// Figures gathered on 2026-12-01 (US East (N. Virginia), Standard table
// class) from stored copies of these pages:
//   https://aws.amazon.com/dynamodb/pricing/ : storage, "The first 25 GB
//     consumed per month is free, and prices start from $0.25 per GB-month
//     thereafter"; provisioned "$0.47 per write capacity unit-month" and
//     "$0.09 per read capacity unit-month" (= $0.00065 and $0.00013 per
//     unit-hour over 730 hours, rounded).
//   https://airbyte.com/data-engineering-resources/dynamodb-pricing (July
//     2025, after AWS's 50 % on-demand reduction of November 2024): "$0.625
//     per million write request units", "$0.125 per million read request
//     units" (US East).
//   https://zeonedge.com/en/blog/dynamodb-cost-optimization-on-demand-provisioned-dax-single-table
//     : "$0.00065/WCU/hr and $0.00013/RCU/hr".
// The on-demand figures come from a third party quoting AWS: check them on
// https://aws.amazon.com/dynamodb/pricing/on-demand/ when updating.

#include "api/metrics/price_table.h"

namespace dynarock::api::metrics {

const PriceTable& UsEast1StandardPrices() {
  static constexpr PriceTable kPrices{
      .region = "us-east-1",
      .table_class = "STANDARD",
      .as_of = "2026-12-01",
      .source_url = "https://aws.amazon.com/dynamodb/pricing/",
      .per_million_write_request_units = 0.625,
      .per_million_read_request_units = 0.125,
      .per_wcu_hour = 0.00065,
      .per_rcu_hour = 0.00013,
      .per_gb_month = 0.25,
      .hours_per_month = 730,
  };
  return kPrices;
}

}  // namespace dynarock::api::metrics
