#include "engine/capacity/usage_stats.h"

#include <gtest/gtest.h>

namespace dynarock {
namespace {

constexpr int64_t kSecond = 1'000'000;

Usage Writes(double units) {
  Usage u;
  u.consumed_write_units = units;
  return u;
}

TEST(UsageRingTest, WindowsCountTheCurrentSecondAndTheOnesBefore) {
  UsageRing ring(300);
  const int64_t t0 = 1000 * kSecond;
  ring.Add(t0, Writes(1));                   // second 1000
  ring.Add(t0 + 30 * kSecond, Writes(2));    // 1030
  ring.Add(t0 + 299 * kSecond, Writes(4));   // 1299
  ring.Add(t0 + 299 * kSecond + 5, Writes(8));
  const int64_t now = t0 + 299 * kSecond + 999'999;
  EXPECT_EQ(ring.Window(now, 1).consumed_write_units, 12);
  EXPECT_EQ(ring.Window(now, 60).consumed_write_units, 12);
  EXPECT_EQ(ring.Window(now, 270).consumed_write_units, 14);
  EXPECT_EQ(ring.Window(now, 300).consumed_write_units, 15);
  // One second later the first one leaves the 300 s window.
  EXPECT_EQ(ring.Window(now + 1, 300).consumed_write_units, 14);
  EXPECT_EQ(ring.total().consumed_write_units, 15);
}

TEST(UsageRingTest, OldSlotsAreReusedNotSummed) {
  UsageRing ring(2);
  ring.Add(10 * kSecond, Writes(1));
  ring.Add(12 * kSecond, Writes(5));  // same slot as second 10
  EXPECT_EQ(ring.AtSecond(12).consumed_write_units, 5);
  EXPECT_EQ(ring.AtSecond(10).consumed_write_units, 0);
  EXPECT_EQ(ring.Window(12 * kSecond, 2).consumed_write_units, 5);
  EXPECT_EQ(ring.total().consumed_write_units, 6);
}

TEST(UsageRingTest, CompletedPeakIgnoresTheCurrentSecond) {
  UsageRing ring(1800);
  ring.Add(100 * kSecond, Writes(300));
  ring.Add(101 * kSecond, Writes(700));
  Usage r;
  r.consumed_read_units = 50;
  ring.Add(102 * kSecond, r);
  ring.Add(103 * kSecond, Writes(9000));
  double read = 0, write = 0;
  ring.CompletedPeak(103 * kSecond, 1800, &read, &write);
  EXPECT_EQ(read, 50);
  EXPECT_EQ(write, 700);
  ring.CompletedPeak(104 * kSecond, 1800, &read, &write);
  EXPECT_EQ(write, 9000);
  ring.CompletedPeak(104 * kSecond, 1, &read, &write);  // only second 103
  EXPECT_EQ(read, 0);
}

TEST(HotKeysTest, TopKeysByConsumedUnits) {
  HotKeys hot(4);
  hot.Consumed(1, "a", 1, 0);
  hot.Consumed(2, "b", 0, 5);
  hot.Consumed(1, "a", 2, 0);
  hot.Consumed(3, "c", 0.5, 0);
  hot.Throttled(2, 7);
  hot.Throttled(99, 1);  // untracked: ignored
  std::vector<HotKey> top = hot.Top(2);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(top[0].key, "b");
  EXPECT_EQ(top[0].write_units, 5);
  EXPECT_EQ(top[0].throttled_units, 7);
  EXPECT_EQ(top[1].key, "a");
  EXPECT_EQ(top[1].units, 3);
  EXPECT_EQ(top[1].read_units, 3);
}

TEST(HotKeysTest, ANewKeyReplacesTheColdestAndInheritsItsCount) {
  HotKeys hot(2);
  hot.Consumed(1, "a", 10, 0);
  hot.Consumed(2, "b", 1, 0);
  hot.Consumed(3, "c", 0, 4);  // replaces b
  std::vector<HotKey> top = hot.Top(10);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(top[0].key, "a");
  EXPECT_EQ(top[1].key, "c");
  EXPECT_EQ(top[1].hash, 3u);
  EXPECT_EQ(top[1].units, 5);
  EXPECT_EQ(top[1].overestimate, 1);
  EXPECT_EQ(top[1].write_units, 4);
  EXPECT_EQ(top[1].read_units, 0);
}

}  // namespace
}  // namespace dynarock
