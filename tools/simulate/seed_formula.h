// tools/simulate/seed_formula.h
//
// The write-sharding formula of the seed documents (000 zh / 003 ja,
// "Example of modeling relational data in DynamoDB"):
//   ItemsPerRCU          = 4 KB / AvgItemSize
//   PartitionMaxReadRate = 3K * ItemsPerRCU
//   N                    = MaxRequiredIO / PartitionMaxReadRate
// Worked example: 3M orders, 20 % OPEN, 250 B entities -> 16, 48K, 12.5 -> 13.
// ItemsPerRCU is rounded down (4096 / 250 = 16.4 -> 16) and N up, as the
// document does. Plain functions; thread-safe.

#ifndef DYNAROCK_TOOLS_SIMULATE_SEED_FORMULA_H_
#define DYNAROCK_TOOLS_SIMULATE_SEED_FORMULA_H_

#include <cstdint>

namespace dynarock::tools::simulate {

struct ShardFormula {
  double avg_item_bytes = 0;
  // Items of that size one read unit covers (x2 when eventually consistent).
  int64_t items_per_rcu = 0;
  int64_t partition_read_units = 3000;
  int64_t partition_max_read_rate = 0;  // items per second per partition
  int64_t max_required_io = 0;          // items per second wanted
  double n_exact = 0;                   // before rounding up
  int n = 0;                            // shards (logical partitions)
};

// The seed's formula. `eventually_consistent` applies the factor the seed
// leaves out: a GSI read costs half a unit per 4 KB, so each unit covers
// twice the items. REQUIRES: avg_item_bytes > 0.
ShardFormula ComputeShardFormula(int64_t max_required_io, double avg_item_bytes,
                                 bool eventually_consistent = false,
                                 int64_t partition_read_units = 3000);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_SEED_FORMULA_H_
