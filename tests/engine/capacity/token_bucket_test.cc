#include "engine/capacity/token_bucket.h"

#include <gtest/gtest.h>

#include "engine/clock.h"

namespace dynarock {
namespace {

constexpr int64_t kMs = 1000;
constexpr int64_t kSecond = 1'000'000;

TEST(TokenBucketTest, StartsFullAndAdmitsExactlyItsCapacityInOneInstant) {
  SimulatedClock clock;
  TokenBucket b(1000, 1000, clock.NowMicros());
  int admitted = 0;
  while (b.CanAdmit(clock.NowMicros())) {
    b.Charge(1, clock.NowMicros());
    ++admitted;
  }
  EXPECT_EQ(admitted, 1000);
  EXPECT_EQ(b.Balance(clock.NowMicros()), 0);
}

TEST(TokenBucketTest, OneMillisecondRefillsExactlyOneUnitAtOneThousandPerSecond) {
  SimulatedClock clock;
  TokenBucket b(1000, 1000, clock.NowMicros());
  b.Charge(1000, clock.NowMicros());
  EXPECT_FALSE(b.CanAdmit(clock.NowMicros()));
  clock.Advance(1 * kMs);
  EXPECT_EQ(b.Balance(clock.NowMicros()), 1);
  ASSERT_TRUE(b.CanAdmit(clock.NowMicros()));
  b.Charge(1, clock.NowMicros());
  EXPECT_FALSE(b.CanAdmit(clock.NowMicros()));
  clock.Advance(1);  // one microsecond: one thousandth of a unit
  EXPECT_EQ(b.Balance(clock.NowMicros()), 0.001);
  EXPECT_TRUE(b.CanAdmit(clock.NowMicros()));
}

TEST(TokenBucketTest, AdmitsWhenPositiveThenChargesTheFullCostIntoDebt) {
  SimulatedClock clock;
  TokenBucket b(10, 10, clock.NowMicros());
  b.Charge(9.5, clock.NowMicros());
  ASSERT_TRUE(b.CanAdmit(clock.NowMicros()));  // 0.5 left: positive
  b.Charge(20, clock.NowMicros());             // a 20-unit read, known after
  EXPECT_EQ(b.Balance(clock.NowMicros()), -19.5);
  // The debt is waited out: 1.95 s at 10 units/s brings it back to 0,
  // which is still not positive.
  clock.Advance(1950 * kMs);
  EXPECT_EQ(b.Balance(clock.NowMicros()), 0);
  EXPECT_FALSE(b.CanAdmit(clock.NowMicros()));
  clock.Advance(1);
  EXPECT_TRUE(b.CanAdmit(clock.NowMicros()));
}

TEST(TokenBucketTest, RefillStopsAtCapacityEvenAfterALongIdleTime) {
  SimulatedClock clock;
  TokenBucket b(5, 1500, clock.NowMicros());
  b.Charge(1500, clock.NowMicros());
  clock.Advance(100 * kSecond);
  EXPECT_EQ(b.Balance(clock.NowMicros()), 500);
  clock.Advance(int64_t{10} * 365 * 24 * 3600 * kSecond);  // ten years
  EXPECT_EQ(b.Balance(clock.NowMicros()), 1500);
}

TEST(TokenBucketTest, SetRateKeepsTheBalanceCappedAtTheNewCapacity) {
  SimulatedClock clock;
  TokenBucket b(100, 30000, clock.NowMicros());
  b.Charge(10000, clock.NowMicros());
  b.SetRate(200, 60000, clock.NowMicros());
  EXPECT_EQ(b.Balance(clock.NowMicros()), 20000);  // kept, not refilled
  clock.Advance(1 * kSecond);
  EXPECT_EQ(b.Balance(clock.NowMicros()), 20200);  // new rate
  b.SetRate(10, 3000, clock.NowMicros());
  EXPECT_EQ(b.Balance(clock.NowMicros()), 3000);  // capped
  EXPECT_EQ(b.rate(), 10);
  EXPECT_EQ(b.capacity(), 3000);
}

TEST(TokenBucketTest, GrowMakesTheAddedCapacityAvailableAtOnce) {
  SimulatedClock clock;
  TokenBucket b(4000, 4000, clock.NowMicros());
  b.Charge(4000, clock.NowMicros());
  b.Grow(8000, 8000, clock.NowMicros());
  EXPECT_EQ(b.Balance(clock.NowMicros()), 4000);
}

TEST(TokenBucketTest, RefundGivesUnitsBackUpToCapacity) {
  SimulatedClock clock;
  TokenBucket b(1, 10, clock.NowMicros());
  b.Charge(4, clock.NowMicros());
  b.Refund(2.5, clock.NowMicros());
  EXPECT_EQ(b.Balance(clock.NowMicros()), 8.5);
  b.Refund(100, clock.NowMicros());
  EXPECT_EQ(b.Balance(clock.NowMicros()), 10);
}

TEST(TokenBucketTest, ADefaultBucketNeverAdmits) {
  TokenBucket b;
  EXPECT_FALSE(b.CanAdmit(123));
}

}  // namespace
}  // namespace dynarock
