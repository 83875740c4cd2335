#include "engine/capacity/consumed_capacity.h"

#include <gtest/gtest.h>

namespace dynarock {
namespace {

constexpr int64_t kKB = 1024;

TEST(ConsumedCapacityTest, ReadUnitsRoundUpTo4KB) {
  EXPECT_EQ(ReadUnits(4096, true), 1);
  EXPECT_EQ(ReadUnits(4097, true), 2);
  EXPECT_EQ(ReadUnits(1, true), 1);
}

TEST(ConsumedCapacityTest, ReadUnitsAreHalvedWhenEventuallyConsistent) {
  EXPECT_EQ(ReadUnits(4096, false), 0.5);
  EXPECT_EQ(ReadUnits(4097, false), 1);
}

TEST(ConsumedCapacityTest, NothingReadStillCostsOneRead) {
  EXPECT_EQ(ReadUnits(0, true), 1);
  EXPECT_EQ(ReadUnits(0, false), 0.5);
}

// The developer guide's Query example: 40.8 KB read, rounded once to 44 KB.
TEST(ConsumedCapacityTest, QueryOf40Point8KBIs11Units) {
  const int64_t bytes = 40 * kKB + 8 * kKB / 10;  // 41779
  EXPECT_EQ(ReadUnits(bytes, true), 11);
  EXPECT_EQ(ReadUnits(bytes, false), 5.5);
}

// BatchGetItem rounds each item: 1.5 KB + 6.5 KB = 4 KB + 8 KB = 3 units.
TEST(ConsumedCapacityTest, BatchGetItemRoundsEachItem) {
  EXPECT_EQ(ReadUnits(1536, true) + ReadUnits(6656, true), 3);
  EXPECT_EQ(ReadUnits(1536 + 6656, true), 2);  // what one rounding would give
}

TEST(ConsumedCapacityTest, WriteUnitsRoundUpTo1KB) {
  EXPECT_EQ(WriteUnits(3 * kKB), 3);  // the guide's 3 KB item
  EXPECT_EQ(WriteUnits(300), 1);      // its 300 B part
  EXPECT_EQ(WriteUnits(1024), 1);
  EXPECT_EQ(WriteUnits(1025), 2);
  EXPECT_EQ(WriteUnits(0), 1);  // a delete of a missing item
}

TEST(ConsumedCapacityTest, TotalSumsTableAndIndexes) {
  ConsumedCapacity c;
  c.table = {1, 2};
  c.global_secondary_indexes["g"] = {0.5, 1};
  c.local_secondary_indexes["l"] = {0, 3};
  EXPECT_EQ(c.Total(), (Capacity{1.5, 6}));
  EXPECT_EQ(c.Total().units(), 7.5);
}

TEST(ConsumedCapacityTest, MergeAddsByIndexName) {
  ConsumedCapacity a;
  a.table_name = "T";
  a.table = {1, 0};
  a.global_secondary_indexes["g"] = {0, 1};
  ConsumedCapacity b;
  b.table = {0, 2};
  b.global_secondary_indexes["g"] = {0, 2};
  b.global_secondary_indexes["h"] = {0, 1};
  a.Merge(b);
  EXPECT_EQ(a.table_name, "T");
  EXPECT_EQ(a.table, (Capacity{1, 2}));
  EXPECT_EQ(a.global_secondary_indexes["g"], (Capacity{0, 3}));
  EXPECT_EQ(a.global_secondary_indexes["h"], (Capacity{0, 1}));
  EXPECT_TRUE(a.local_secondary_indexes.empty());
}

}  // namespace
}  // namespace dynarock
