// tests/tools/simulate/event_loop_test.cc

#include "tools/simulate/event_loop.h"

#include <vector>

#include <gtest/gtest.h>

namespace dynarock::tools::simulate {
namespace {

TEST(EventLoopTest, HandlesEventsInTimeOrderTiesByWorker) {
  SimulatedClock clock(1'000'000);
  EventLoop loop(&clock);
  loop.Schedule(1'000'300, 2);
  loop.Schedule(1'000'100, 1);
  loop.Schedule(1'000'100, 0);
  std::vector<std::pair<int64_t, int>> seen;
  const int64_t last = loop.Run([&](int w) {
    seen.push_back({clock.NowMicros(), w});
    // Worker 0 comes back once, 50 µs later.
    if (w == 0 && seen.size() == 1) loop.Schedule(clock.NowMicros() + 50, 0);
  });
  const std::vector<std::pair<int64_t, int>> want = {
      {1'000'100, 0}, {1'000'100, 1}, {1'000'150, 0}, {1'000'300, 2}};
  EXPECT_EQ(seen, want);
  EXPECT_EQ(last, 1'000'300);
  EXPECT_EQ(clock.NowMicros(), 1'000'300);
  EXPECT_EQ(loop.pending(), 0u);
}

TEST(EventLoopTest, NothingToRunLeavesTheClock) {
  SimulatedClock clock(42);
  EventLoop loop(&clock);
  EXPECT_EQ(loop.Run([](int) {}), 42);
  EXPECT_EQ(clock.NowMicros(), 42);
}

TEST(ExponentialBackoffTest, CeilingDoublesUpToTheCap) {
  ExponentialBackoff b(BackoffOptions{50'000, 1'000'000}, 1);
  EXPECT_EQ(b.CeilingMicros(0), 50'000);
  EXPECT_EQ(b.CeilingMicros(1), 100'000);
  EXPECT_EQ(b.CeilingMicros(4), 800'000);
  EXPECT_EQ(b.CeilingMicros(5), 1'000'000);
  EXPECT_EQ(b.CeilingMicros(60), 1'000'000);
}

TEST(ExponentialBackoffTest, SameSeedSameDelaysWithinTheCeiling) {
  ExponentialBackoff a(BackoffOptions{}, 7), b(BackoffOptions{}, 7),
      c(BackoffOptions{}, 8);
  bool differs = false;
  for (int attempt = 0; attempt < 12; ++attempt) {
    const int64_t d = a.DelayMicros(attempt);
    EXPECT_EQ(d, b.DelayMicros(attempt));
    EXPECT_GE(d, 0);
    EXPECT_LE(d, a.CeilingMicros(attempt));
    if (d != c.DelayMicros(attempt)) differs = true;
  }
  EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace dynarock::tools::simulate
