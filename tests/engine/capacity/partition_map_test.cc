#include "engine/capacity/partition_map.h"

#include <gtest/gtest.h>

#include <limits>

#include "engine/clock.h"

namespace dynarock {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

TEST(PartitionMapTest, InitialCountFromProvisionedThroughput) {
  PartitionCeilings c;
  EXPECT_EQ(InitialPartitionCount(1, 1, c), 1);
  EXPECT_EQ(InitialPartitionCount(3000, 0, c), 1);
  EXPECT_EQ(InitialPartitionCount(3000, 1000, c), 2);
  EXPECT_EQ(InitialPartitionCount(3001, 1000, c), 3);
  EXPECT_EQ(InitialPartitionCount(0, 2000, c), 2);
  EXPECT_EQ(InitialPartitionCount(40000, 40000, c), 54);  // 13.33 + 40
}

TEST(PartitionMapTest, PartitionsToServeAnOnDemandTable) {
  PartitionCeilings c;
  EXPECT_EQ(PartitionsToServe(12000, 4000, c), 4);
  EXPECT_EQ(PartitionsToServe(12000, 8000, c), 8);
  EXPECT_EQ(PartitionsToServe(0, 0, c), 1);
}

TEST(PartitionMapTest, EqualRangesCoverTheRing) {
  SimulatedClock clock;
  PartitionMap m(4, PartitionCeilings{}, clock.NowMicros());
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m.at(0).begin, 0u);
  EXPECT_EQ(m.at(1).begin, uint64_t{1} << 62);
  EXPECT_EQ(m.at(2).begin, uint64_t{1} << 63);
  EXPECT_EQ(m.at(3).end, 0u);  // the end of the ring
  for (size_t i = 0; i + 1 < m.size(); ++i) {
    EXPECT_EQ(m.at(i).end, m.at(i + 1).begin);
    EXPECT_EQ(m.at(i).id, i);
  }
  EXPECT_EQ(m.IndexOf(0), 0u);
  EXPECT_EQ(m.IndexOf((uint64_t{1} << 62) - 1), 0u);
  EXPECT_EQ(m.IndexOf(uint64_t{1} << 62), 1u);
  EXPECT_EQ(m.IndexOf(kMax), 3u);
  EXPECT_TRUE(m.Find(kMax).Contains(kMax));
}

TEST(PartitionMapTest, OnePartitionHoldsEveryHash) {
  PartitionMap m(1, PartitionCeilings{}, 0);
  EXPECT_EQ(m.IndexOf(0), 0u);
  EXPECT_EQ(m.IndexOf(kMax), 0u);
  EXPECT_EQ(m.at(0).Midpoint(), uint64_t{1} << 63);
}

TEST(PartitionMapTest, BucketsStartFullAtTheCeilings) {
  SimulatedClock clock;
  PartitionMap m(1, PartitionCeilings{}, clock.NowMicros());
  EXPECT_EQ(m.at(0).read.Balance(clock.NowMicros()), 3000);
  EXPECT_EQ(m.at(0).write.Balance(clock.NowMicros()), 1000);
  EXPECT_EQ(m.at(0).write.rate(), 1000);
}

TEST(PartitionMapTest, SplitMakesTwoChildrenWithFreshBucketsAndGivenSizes) {
  SimulatedClock clock;
  PartitionMap m(2, PartitionCeilings{}, clock.NowMicros());
  m.at(1).write.Charge(1000, clock.NowMicros());
  const uint64_t mid = m.at(1).Midpoint();
  EXPECT_EQ(mid, (uint64_t{1} << 63) + (uint64_t{1} << 62));
  ASSERT_TRUE(m.Split(1, mid, 3, 300, 5, 500, clock.NowMicros()));
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m.at(1).begin, uint64_t{1} << 63);
  EXPECT_EQ(m.at(1).end, mid);
  EXPECT_EQ(m.at(2).begin, mid);
  EXPECT_EQ(m.at(2).end, 0u);
  EXPECT_EQ(m.at(1).id, 2u);  // new ids
  EXPECT_EQ(m.at(2).id, 3u);
  EXPECT_EQ(m.at(1).items, 3);
  EXPECT_EQ(m.at(2).bytes, 500);
  EXPECT_EQ(m.at(1).write.Balance(clock.NowMicros()), 1000);
  EXPECT_EQ(m.IndexOf(mid - 1), 1u);
  EXPECT_EQ(m.IndexOf(mid), 2u);
}

TEST(PartitionMapTest, SplitOutsideTheRangeChangesNothing) {
  PartitionMap m(2, PartitionCeilings{}, 0);
  EXPECT_FALSE(m.Split(0, 0, 0, 0, 0, 0, 0));               // at begin
  EXPECT_FALSE(m.Split(0, uint64_t{1} << 63, 0, 0, 0, 0, 0));  // at end
  EXPECT_FALSE(m.Split(1, 5, 0, 0, 0, 0, 0));
  EXPECT_TRUE(m.Split(1, kMax, 0, 0, 0, 0, 0));  // last hash of the ring
  EXPECT_EQ(m.size(), 3u);
}

TEST(PartitionMapTest, SetCeilingsReRatesEveryPartition) {
  PartitionMap m(2, PartitionCeilings{}, 0);
  m.SetCeilings(PartitionCeilings{30, 10}, 0);
  EXPECT_EQ(m.at(1).write.Balance(0), 10);
  EXPECT_EQ(m.at(1).read.rate(), 30);
}

}  // namespace
}  // namespace dynarock
