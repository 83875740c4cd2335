// tests/tools/simulate/write_sharding_report_test.cc

#include "tools/simulate/write_sharding_report.h"

#include <gtest/gtest.h>

namespace dynarock::tools::simulate {
namespace {

// By hand at us-east-1's list prices of 2026-12-01 ($0.125 per million
// RRU, $0.00013 per RCU-hour, $0.00065 per WCU-hour).
TEST(WriteShardingReportTest, ASustainedReadIsBilledByItsUnitsAndItsBusiestSecond) {
  ReadRun run;
  run.read_units = 6000.5;
  run.read_micros = 3'000'000;
  for (double units : {1000.0, 3000.5, 2000.0}) {
    SecondSample s;
    s.read_units = units;
    run.seconds.push_back(s);
  }
  const ReadRunCost c = CostOfRead(run);
  EXPECT_NEAR(c.on_demand, 6000.5 * 0.125 / 1e6, 1e-15);
  EXPECT_EQ(c.provisioned_rcu, 3001);  // the busiest second, rounded up
  EXPECT_NEAR(c.provisioned, (3001 * 0.00013 + 1 * 0.00065) * 3.0 / 3600, 1e-15);
}

TEST(WriteShardingReportTest, ASingleReadIsProvisionedForItsMeanRate) {
  ReadRun run;
  run.read_units = 500;
  run.read_micros = 500'000;  // 1,000 RCU/s
  const ReadRunCost c = CostOfRead(run);
  EXPECT_EQ(c.provisioned_rcu, 1000);
  EXPECT_NEAR(c.on_demand, 500 * 0.125 / 1e6, 1e-15);
  EXPECT_NEAR(c.provisioned, (1000 * 0.00013 + 0.00065) * 0.5 / 3600, 1e-15);
}

}  // namespace
}  // namespace dynarock::tools::simulate
