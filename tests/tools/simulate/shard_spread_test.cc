// tests/tools/simulate/shard_spread_test.cc

#include "tools/simulate/shard_spread.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace dynarock::tools::simulate {
namespace {

// Every one of the bins^balls placements, equally likely: E[max load] and
// P(max <= m) by counting.
struct Enumerated {
  double expected_max = 0;
  std::vector<double> prob_at_most;  // index m
};

Enumerated Enumerate(int balls, int bins) {
  Enumerated out;
  out.prob_at_most.assign(static_cast<size_t>(balls) + 1, 0.0);
  int64_t total = 1;
  for (int i = 0; i < balls; ++i) total *= bins;
  std::vector<int> load(static_cast<size_t>(bins));
  double max_sum = 0;
  for (int64_t code = 0; code < total; ++code) {
    std::fill(load.begin(), load.end(), 0);
    int64_t c = code;
    for (int i = 0; i < balls; ++i) {
      ++load[c % bins];
      c /= bins;
    }
    const int max = balls == 0 ? 0 : *std::max_element(load.begin(), load.end());
    max_sum += max;
    for (int m = max; m <= balls; ++m) out.prob_at_most[m] += 1;
  }
  out.expected_max = max_sum / static_cast<double>(total);
  for (double& p : out.prob_at_most) p /= static_cast<double>(total);
  return out;
}

TEST(ShardSpreadTest, ExpectedMaxLoadMatchesEnumeration) {
  for (int bins = 1; bins <= 5; ++bins) {
    for (int balls = 0; balls <= 8; ++balls) {
      if (std::pow(bins, balls) > 400'000) continue;
      const Enumerated e = Enumerate(balls, bins);
      const MaxLoad got = ExpectedMaxLoad(balls, bins);
      EXPECT_TRUE(got.exact);
      EXPECT_NEAR(got.expected, e.expected_max, 1e-9)
          << balls << " balls, " << bins << " bins";
      for (int m = 0; m <= balls; ++m) {
        EXPECT_NEAR(ProbMaxLoadAtMost(balls, bins, m), e.prob_at_most[m], 1e-9)
            << balls << " balls, " << bins << " bins, m " << m;
      }
    }
  }
}

TEST(ShardSpreadTest, HandValues) {
  EXPECT_DOUBLE_EQ(ExpectedMaxLoad(2, 2).expected, 1.5);
  // 27 placements: 6 with max 1, 18 with max 2, 3 with max 3.
  EXPECT_NEAR(ExpectedMaxLoad(3, 3).expected, 51.0 / 27.0, 1e-12);
  EXPECT_DOUBLE_EQ(ExpectedMaxLoad(7, 1).expected, 7);
  EXPECT_DOUBLE_EQ(ExpectedMaxLoad(0, 4).expected, 0);
  // The seed's 13 keys over a new on-demand GSI's 4 partitions: one
  // partition expects about 5.5 of them, not 13 / 4 = 3.25.
  const double e13 = ExpectedMaxLoad(13, 4).expected;
  EXPECT_GT(e13, 5.0);
  EXPECT_LT(e13, 6.0);
}

TEST(ShardSpreadTest, LargeInputsUseThePoissonApproximationClose) {
  const MaxLoad exact = ExpectedMaxLoad(300, 8);
  ASSERT_TRUE(exact.exact);
  const MaxLoad approx = ExpectedMaxLoad(10'000, 8);
  EXPECT_FALSE(approx.exact);
  EXPECT_GT(approx.expected, 1250);  // at least N / P
  EXPECT_LT(approx.expected, 1400);
  EXPECT_GT(exact.expected, 300.0 / 8);
}

TEST(ShardSpreadTest, EqualRangesCoverTheRing) {
  const auto r = EqualRanges(4);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].first, 0u);
  EXPECT_EQ(r[1].first, uint64_t{1} << 62);
  EXPECT_EQ(r[3].second, 0u);  // the ring's end
  for (size_t i = 1; i < r.size(); ++i) EXPECT_EQ(r[i - 1].second, r[i].first);
  EXPECT_EQ(EqualRanges(1)[0], std::make_pair(uint64_t{0}, uint64_t{0}));
}

TEST(ShardSpreadTest, KeysPerPartitionAndAnalysis) {
  const auto ranges = EqualRanges(4);
  const uint64_t q = uint64_t{1} << 62;
  const std::vector<uint64_t> hashes = {1, 2, q + 5, 3 * q + 9, 3};
  EXPECT_EQ(KeysPerPartition(hashes, ranges), (std::vector<int>{3, 1, 0, 1}));
  const ShardSpread s = AnalyzeShardSpread(5, hashes, ranges, 600'000, 80);
  EXPECT_EQ(s.partitions, 4);
  EXPECT_EQ(s.hashed_max_keys, 3);
  // 600,000 items/s over 5 keys at 80 items per unit: 1,500 RCU per key.
  EXPECT_DOUBLE_EQ(s.hashed_hottest_rcu, 4'500);
  EXPECT_NEAR(s.expected_hottest_rcu, 1'500 * ExpectedMaxLoad(5, 4).expected, 1e-9);
}

TEST(ShardSpreadTest, SmallestSufficientShards) {
  // One partition: the whole rate, whatever N.
  EXPECT_EQ(SmallestSufficientShards(1, 300'000, 100, 3'000, 20), 1);
  EXPECT_EQ(SmallestSufficientShards(1, 400'000, 100, 3'000, 20), -1);
  // 4 partitions, 7,400 RCU/s of demand: N = 1 puts it all on one; the
  // expected max load needs enough keys that max/N <= 3000/7400.
  const int n = SmallestSufficientShards(4, 600'000, 81, 3'000, 64);
  EXPECT_GT(n, 3);
  const double hottest = 600'000.0 / n / 81 * ExpectedMaxLoad(n, 4).expected;
  EXPECT_LE(hottest, 3'000);
  const double before = 600'000.0 / (n - 1) / 81 * ExpectedMaxLoad(n - 1, 4).expected;
  EXPECT_GT(before, 3'000);
}

}  // namespace
}  // namespace dynarock::tools::simulate
