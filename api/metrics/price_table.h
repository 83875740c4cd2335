// api/metrics/price_table.h
//
// DynamoDB's list prices for one Region and table class, dated and with
// their source, so that the cost model (cost_model.h) turns units and bytes
// into dollars. Kept in the repository: prices change, and a figure without
// its date and source cannot be checked. docs/metrics.md says how to update
// them.
//
// Immutable data; thread-safe.

#ifndef DYNAROCK_API_METRICS_PRICE_TABLE_H_
#define DYNAROCK_API_METRICS_PRICE_TABLE_H_

#include <string_view>

namespace dynarock::api::metrics {

struct PriceTable {
  std::string_view region;       // "us-east-1"
  std::string_view table_class;  // "STANDARD"
  std::string_view as_of;        // the date the figures were checked, YYYY-MM-DD
  std::string_view source_url;
  // On-demand: dollars per million request units.
  double per_million_write_request_units = 0;
  double per_million_read_request_units = 0;
  // Provisioned: dollars per capacity unit per hour.
  double per_wcu_hour = 0;
  double per_rcu_hour = 0;
  // Storage: dollars per GB-month (GB = 2^30 bytes), the first 25 GB of
  // the account's free tier not deducted.
  double per_gb_month = 0;
  // AWS bills a month as 730 hours.
  double hours_per_month = 730;
};

// US East (N. Virginia), DynamoDB Standard table class, list prices without
// the free tier or reserved capacity.
const PriceTable& UsEast1StandardPrices();

}  // namespace dynarock::api::metrics

#endif  // DYNAROCK_API_METRICS_PRICE_TABLE_H_
