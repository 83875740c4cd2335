// tests/tools/simulate/seed_formula_test.cc

#include "tools/simulate/seed_formula.h"

#include <gtest/gtest.h>

namespace dynarock::tools::simulate {
namespace {

TEST(SeedFormulaTest, WorkedExampleGivesThirteen) {
  // 3M orders, 20 % OPEN, 250 B entities (100 B order + 3 x 50 B items).
  const ShardFormula f = ComputeShardFormula(600'000, 250);
  EXPECT_EQ(f.items_per_rcu, 16);
  EXPECT_EQ(f.partition_max_read_rate, 48'000);
  EXPECT_DOUBLE_EQ(f.n_exact, 12.5);
  EXPECT_EQ(f.n, 13);
}

TEST(SeedFormulaTest, EventuallyConsistentReadsDoubleTheRate) {
  const ShardFormula f = ComputeShardFormula(600'000, 250, true);
  EXPECT_EQ(f.items_per_rcu, 32);
  EXPECT_EQ(f.partition_max_read_rate, 96'000);
  EXPECT_EQ(f.n, 7);
  // GSI entries of 100 B: 81 per unit, 243K per partition and second.
  const ShardFormula g = ComputeShardFormula(600'000, 100, true);
  EXPECT_EQ(g.items_per_rcu, 81);
  EXPECT_EQ(g.n, 3);
}

TEST(SeedFormulaTest, ExactQuotientIsNotRoundedUpFurther) {
  EXPECT_EQ(ComputeShardFormula(96'000, 250).n, 2);
  EXPECT_EQ(ComputeShardFormula(1, 250).n, 1);
  EXPECT_EQ(ComputeShardFormula(1'000, 10'000).items_per_rcu, 1);
}

}  // namespace
}  // namespace dynarock::tools::simulate
