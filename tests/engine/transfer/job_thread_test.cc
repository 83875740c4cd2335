// JobThread (engine/transfer/job_thread.cc): jobs run one at a time in
// order, WaitIdle waits for them, and Stop drops what has not started.
#include "engine/transfer/job_thread.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <vector>

namespace dynarock {
namespace {

TEST(JobThreadTest, RunsJobsInOrderAndWaitsForThem) {
  JobThread jobs;
  std::mutex mu;
  std::vector<int> ran;
  for (int i = 0; i < 50; ++i) {
    jobs.Post([&, i] {
      std::lock_guard<std::mutex> lock(mu);
      ran.push_back(i);
    });
  }
  jobs.WaitIdle();
  std::lock_guard<std::mutex> lock(mu);
  ASSERT_EQ(ran.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(ran[static_cast<size_t>(i)], i);
}

TEST(JobThreadTest, StopEndsTheRunningJobAndDropsTheRest) {
  JobThread jobs;
  std::atomic<bool> started{false};
  std::atomic<int> later{0};
  jobs.Post([&] {
    started = true;
    while (!jobs.stopping()) {
    }
  });
  for (int i = 0; i < 5; ++i) jobs.Post([&] { ++later; });
  while (!started) {
  }
  jobs.Stop();
  EXPECT_TRUE(jobs.stopping());
  EXPECT_EQ(later.load(), 0);
  jobs.Post([&] { ++later; });  // after Stop: never runs
  jobs.WaitIdle();
  EXPECT_EQ(later.load(), 0);
}

TEST(JobThreadTest, IdleWithoutJobs) {
  JobThread jobs;
  jobs.WaitIdle();
  jobs.Stop();
  jobs.Stop();
}

}  // namespace
}  // namespace dynarock
