#include "tools/stats/cost_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace dynarock::tools::stats {
namespace {

using ::testing::HasSubstr;

TEST(CostReportTest, ReportsBothModesAndTheCheaper) {
  api::metrics::PriceTable p;
  p.region = "r-1";
  p.table_class = "STANDARD";
  p.as_of = "2026-12-01";
  p.source_url = "https://example";
  p.per_million_read_request_units = 1;
  p.per_million_write_request_units = 1;
  p.per_rcu_hour = 0.01;
  p.per_wcu_hour = 0.01;
  p.per_gb_month = 1;
  api::metrics::TableUsage u;
  u.read_units = 1'000'000;  // $1
  u.write_units = 2'000'000; // $2
  u.period_hours = 730;      // storage 1 GB: $1
  u.storage_bytes = 1073741824;
  u.provisioned_rcu = 1;     // $7.30
  u.provisioned_wcu = 1;     // $7.30
  const std::string text = FormatCostReport(u, false, p);
  EXPECT_THAT(text, HasSubstr("Cost over 730 h in r-1 (STANDARD list prices of 2026-12-01, https://example):\n"));
  EXPECT_THAT(text, HasSubstr("  on-demand    $4.00  reads 1000000 RRU $1.00, writes 2000000 + 0 GSI WRU $2.00, storage 1.0 GB $1.00\n"));
  EXPECT_THAT(text, HasSubstr("  provisioned  $15.60  1 RCU $7.30, 1 WCU $7.30 (sized to the busiest second), storage 1.0 GB $1.00\n"));
  EXPECT_THAT(text, HasSubstr("  cheaper: on-demand by $11.60\n"));
}

}  // namespace
}  // namespace dynarock::tools::stats
