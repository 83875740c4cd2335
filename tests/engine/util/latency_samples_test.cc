#include "engine/util/latency_samples.h"

#include <gtest/gtest.h>

namespace dynarock {
namespace {

TEST(LatencySamplesTest, NoSampleIsAllZero) {
  LatencySamples s(8);
  LatencyPercentiles p = s.Percentiles();
  EXPECT_EQ(p.samples, 0);
  EXPECT_EQ(p.p50, 0);
  EXPECT_EQ(p.p99, 0);
  EXPECT_EQ(p.max, 0);
}

TEST(LatencySamplesTest, PercentilesAreNearestRank) {
  LatencySamples s(1000);
  for (int64_t v = 100; v >= 1; --v) s.Add(v);  // out of order on purpose
  LatencyPercentiles p = s.Percentiles();
  EXPECT_EQ(p.samples, 100);
  EXPECT_EQ(p.p50, 51);  // rank round(0.5 * 99) = 50 (0-based) of 1..100
  EXPECT_EQ(p.p99, 99);  // rank round(0.99 * 99) = 98
  EXPECT_EQ(p.max, 100);
}

TEST(LatencySamplesTest, KeepsOnlyTheMostRecent) {
  LatencySamples s(4);
  for (int64_t v : {1000, 1000, 1000, 1000, 1, 2, 3, 4}) s.Add(v);
  LatencyPercentiles p = s.Percentiles();
  EXPECT_EQ(s.size(), 4u);
  EXPECT_EQ(p.samples, 4);
  EXPECT_EQ(p.max, 4);  // the four 1000s were replaced, oldest first
}

}  // namespace
}  // namespace dynarock
