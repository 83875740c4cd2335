// tools/simulate/shard_spread.h
//
// The balls-into-bins analysis behind write sharding: N shard keys land on
// an index's P partitions by the hash of the key, so one partition gets
// more than N/P of them, and with the read spread evenly over the keys the
// hottest partition serves (its keys / N) of the rate.
//
//   ExpectedMaxLoad(N, P)  E[max keys on one partition] when each key lands
//                          on a partition uniformly at random: exact (a
//                          recurrence over the partitions; the Poisson
//                          approximation only past a cost bound, said so)
//   KeysPerPartition       the actual count for actual key hashes over the
//                          actual partition ranges (what the engine did
//                          with shard keys 0..N-1)
//   ShardSpread            both for one N, with what they mean for the
//                          hottest partition's read units at a rate
// Plain functions; thread-safe.

#ifndef DYNAROCK_TOOLS_SIMULATE_SHARD_SPREAD_H_
#define DYNAROCK_TOOLS_SIMULATE_SHARD_SPREAD_H_

#include <cstdint>
#include <utility>
#include <vector>

namespace dynarock::tools::simulate {

// P(max load <= m) for `balls` thrown uniformly into `bins`. Exact (up to
// floating point). REQUIRES: balls >= 0, bins >= 1, m >= 0.
double ProbMaxLoadAtMost(int balls, int bins, int m);

struct MaxLoad {
  double expected = 0;
  bool exact = true;  // false: the Poisson approximation (large inputs)
};

// E[max load] of `balls` uniform into `bins` = sum over m >= 0 of
// (1 - P(max <= m)). Exact while balls^2 * bins stays under ~2e8 work;
// beyond, P(max <= m) ~ P(Poisson(balls/bins) <= m)^bins.
// REQUIRES: balls >= 0, bins >= 1.
MaxLoad ExpectedMaxLoad(int balls, int bins);

// How many of `key_hashes` fall into each partition; `ranges` are the
// partitions' [begin, end) on the 64-bit hash ring (end 0 = the ring's end),
// in any order. A hash outside every range is not counted.
std::vector<int> KeysPerPartition(
    const std::vector<uint64_t>& key_hashes,
    const std::vector<std::pair<uint64_t, uint64_t>>& ranges);

// `count` ranges of equal width covering the ring (a new partition map's).
std::vector<std::pair<uint64_t, uint64_t>> EqualRanges(int count);

// The analysis of one N over P partitions at `rate` items per second.
struct ShardSpread {
  int shards = 1;
  int partitions = 1;
  double expected_max_keys = 0;  // random placement (balls into bins)
  bool expected_exact = true;
  int hashed_max_keys = 0;       // the actual keys 0..N-1 on the ranges
  // The hottest partition's read units per second, reading `rate` items/s
  // spread evenly over the keys at `items_per_rcu`:
  // rate * keys / N / items_per_rcu.
  double expected_hottest_rcu = 0;
  double hashed_hottest_rcu = 0;
};

// `key_hashes`: the partition hashes of the N shard keys, as the engine's
// capacity charges report them. REQUIRES: shards >= 1, items_per_rcu > 0.
ShardSpread AnalyzeShardSpread(
    int shards, const std::vector<uint64_t>& key_hashes,
    const std::vector<std::pair<uint64_t, uint64_t>>& ranges, double rate,
    double items_per_rcu);

// The smallest N in 1..max_n whose expected hottest partition (random
// placement over `partitions`) stays within `ceiling_rcu`; -1 if none.
int SmallestSufficientShards(int partitions, double rate, double items_per_rcu,
                             double ceiling_rcu, int max_n);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_SHARD_SPREAD_H_
