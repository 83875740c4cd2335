// tools/simulate/shard_spread.cc

#include "tools/simulate/shard_spread.h"

#include <algorithm>
#include <cmath>


namespace dynarock::tools::simulate {
namespace {

// Beyond this much work (bins * balls * m per m) ExpectedMaxLoad uses the
// Poisson approximation.
constexpr double kExactWorkBound = 2e8;

std::vector<double> LogFactorials(int n) {
  std::vector<double> lf(static_cast<size_t>(n) + 1, 0.0);
  for (int i = 2; i <= n; ++i) lf[i] = lf[i - 1] + std::log(static_cast<double>(i));
  return lf;
}

double ProbMaxAtMostWith(int balls, int bins, int m, const std::vector<double>& lf) {
  if (m >= balls) return 1.0;
  if (static_cast<int64_t>(m) * bins < balls) return 0.0;
  // q[n] = P(max <= m | n balls into b bins), b growing from 1: the first
  // bin takes j ~ Binomial(n, 1/b), the other n - j go to b - 1 bins.
  std::vector<double> q(static_cast<size_t>(balls) + 1), next(q.size());
  for (int n = 0; n <= balls; ++n) q[n] = n <= m ? 1.0 : 0.0;
  for (int b = 2; b <= bins; ++b) {
    const double lp = std::log(1.0 / b), lq = std::log(1.0 - 1.0 / b);
    for (int n = 0; n <= balls; ++n) {
      double sum = 0;
      for (int j = 0; j <= std::min(m, n); ++j) {
        if (q[n - j] == 0) continue;
        const double lbinom = lf[n] - lf[j] - lf[n - j] + j * lp + (n - j) * lq;
        sum += std::exp(lbinom) * q[n - j];
      }
      next[n] = std::min(1.0, sum);
    }
    q.swap(next);
  }
  return q[balls];
}

// Each term in log space: exp(-lambda) underflows for large lambda.
double PoissonCdf(double lambda, int m) {
  double sum = 0;
  const double ll = std::log(lambda);
  for (int k = 0; k <= m; ++k) {
    sum += std::exp(-lambda + k * ll - std::lgamma(k + 1.0));
  }
  return std::min(1.0, sum);
}

}  // namespace

double ProbMaxLoadAtMost(int balls, int bins, int m) {
  return ProbMaxAtMostWith(balls, bins, m, LogFactorials(balls));
}

MaxLoad ExpectedMaxLoad(int balls, int bins) {
  MaxLoad out;
  if (balls <= 0) return out;
  if (bins == 1) {
    out.expected = balls;
    return out;
  }
  const int floor_m = (balls + bins - 1) / bins;  // max >= ceil(N/P) always
  const double b = static_cast<double>(balls);
  out.exact = static_cast<double>(bins) * b * b < kExactWorkBound;
  const std::vector<double> lf = out.exact ? LogFactorials(balls) : std::vector<double>{};
  double e = floor_m;
  for (int m = floor_m; m < balls; ++m) {
    const double f =
        out.exact ? ProbMaxAtMostWith(balls, bins, m, lf)
                  : std::pow(PoissonCdf(b / bins, m), static_cast<double>(bins));
    const double tail = 1.0 - f;
    if (tail < 1e-15) break;
    e += tail;
  }
  out.expected = e;
  return out;
}

std::vector<int> KeysPerPartition(
    const std::vector<uint64_t>& key_hashes,
    const std::vector<std::pair<uint64_t, uint64_t>>& ranges) {
  std::vector<int> counts(ranges.size(), 0);
  for (uint64_t h : key_hashes) {
    for (size_t i = 0; i < ranges.size(); ++i) {
      const auto [begin, end] = ranges[i];
      if (h >= begin && (end == 0 || h < end)) {
        ++counts[i];
        break;
      }
    }
  }
  return counts;
}

std::vector<std::pair<uint64_t, uint64_t>> EqualRanges(int count) {
  // As PartitionMap lays out a new map: [2^64 i / count, 2^64 (i+1) / count).
  using uint128 = unsigned __int128;
  constexpr uint128 kRing = uint128{1} << 64;
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (int i = 0; i < count; ++i) {
    out.emplace_back(static_cast<uint64_t>(kRing * static_cast<uint128>(i) / count),
                     static_cast<uint64_t>(kRing * static_cast<uint128>(i + 1) / count));
  }
  return out;
}

ShardSpread AnalyzeShardSpread(
    int shards, const std::vector<uint64_t>& key_hashes,
    const std::vector<std::pair<uint64_t, uint64_t>>& ranges, double rate,
    double items_per_rcu) {
  ShardSpread s;
  s.shards = shards;
  s.partitions = static_cast<int>(ranges.size());
  const MaxLoad e = ExpectedMaxLoad(shards, s.partitions);
  s.expected_max_keys = e.expected;
  s.expected_exact = e.exact;
  const std::vector<int> counts = KeysPerPartition(key_hashes, ranges);
  s.hashed_max_keys = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
  const double per_key_rcu = rate / shards / items_per_rcu;
  s.expected_hottest_rcu = per_key_rcu * s.expected_max_keys;
  s.hashed_hottest_rcu = per_key_rcu * s.hashed_max_keys;
  return s;
}

int SmallestSufficientShards(int partitions, double rate, double items_per_rcu,
                             double ceiling_rcu, int max_n) {
  // The hottest partition carries at least 1/P of the demand.
  if (rate / items_per_rcu > ceiling_rcu * partitions) return -1;
  for (int n = 1; n <= max_n; ++n) {
    const double hottest =
        rate / n / items_per_rcu * ExpectedMaxLoad(n, partitions).expected;
    if (hottest <= ceiling_rcu) return n;
  }
  return -1;
}

}  // namespace dynarock::tools::simulate
