// EngineOptions::due_work_interval_micros (engine/facade/due_work_timer.h):
// an idle engine's own thread runs the due work, so GSI changes reach their
// index without any further call; without the option they wait for a call.
#include "engine/facade/due_work_timer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "tests/engine/backup/backup_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

// On a simulated clock GSI changes are applied only by the due work
// (deterministic propagation), so pending records show whether it ran.
int64_t PendingAfterOnePut(TestEngine& db) {
  EXPECT_OK(db->CreateTable(IndexedTable("Tab")).status());
  PutItemRequest put;
  put.table_name = "Tab";
  put.item = IndexedItem(1);
  EXPECT_OK(db->PutItem(put).status());
  return db->GetIndexPropagationStats().pending_records;
}

TEST(DueWorkTimerTest, AnIdleEngineAppliesDueWorkByItself) {
  EngineOptions options = TestEngine::Options();
  options.due_work_interval_micros = 1000;
  TestEngine db(options);
  PendingAfterOnePut(db);
  // No engine call from here on but the stats, which run no due work.
  for (int i = 0; i < 10'000 && db->GetIndexPropagationStats().pending_records > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(db->GetIndexPropagationStats().pending_records, 0);
  EXPECT_GT(db->GetIndexPropagationStats().applied_records, 0);
}

TEST(DueWorkTimerTest, WithoutItTheWorkWaitsForACall) {
  TestEngine db;
  EXPECT_GT(PendingAfterOnePut(db), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_GT(db->GetIndexPropagationStats().pending_records, 0);
  db->RunDueWork();
  EXPECT_EQ(db->GetIndexPropagationStats().pending_records, 0);
}

TEST(DueWorkTimerTest, WorkDueAtOnceRunsAgainWithoutWaitingForThePeriod) {
  // A bulk put job's steps are slices: while a run says more is due, the
  // timer runs the next at once instead of after its period (an hour here).
  std::atomic<int> runs{0};
  DueWorkTimer timer([&] { return ++runs < 5; }, std::chrono::hours(1));
  for (int i = 0; i < 10'000 && runs < 5; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(runs, 5);  // once at start, four more at once, then the period
}

TEST(DueWorkTimerTest, ClosingTheEngineStopsTheTimer) {
  EngineOptions options = TestEngine::Options();
  options.due_work_interval_micros = 1;  // as often as it can
  for (int i = 0; i < 20; ++i) {
    TestEngine db(options);
    PendingAfterOnePut(db);
  }  // each engine closes with its timer running: no hang, no use after free
}

}  // namespace
}  // namespace dynarock
