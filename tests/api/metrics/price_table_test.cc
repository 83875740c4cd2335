#include "api/metrics/price_table.h"

#include <gtest/gtest.h>

namespace dynarock::api::metrics {
namespace {

TEST(PriceTableTest, UsEast1IsDatedAndSourced) {
  const PriceTable& p = UsEast1StandardPrices();
  EXPECT_EQ(p.region, "us-east-1");
  EXPECT_EQ(p.table_class, "STANDARD");
  EXPECT_EQ(p.as_of.size(), 10u);  // YYYY-MM-DD
  EXPECT_EQ(p.source_url.substr(0, 8), "https://");
  // A write request unit costs five read request units; a WCU-hour five
  // RCU-hours.
  EXPECT_DOUBLE_EQ(p.per_million_write_request_units, 5 * p.per_million_read_request_units);
  EXPECT_DOUBLE_EQ(p.per_wcu_hour, 5 * p.per_rcu_hour);
  EXPECT_EQ(p.hours_per_month, 730);
}

}  // namespace
}  // namespace dynarock::api::metrics
