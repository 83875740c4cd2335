// engine/ttl/ttl_sweeper.h
//
// TtlSweeper deletes expired items of the tables with Time to Live enabled,
// on the engine's clock (real or simulated). An item is expired when its
// TTL attribute is a Number of epoch seconds before now and not more than
// five years before now (DynamoDB ignores older values, and every other
// type); it is deleted once its expiry plus its own delay (a hash of its
// key in [0, deletion spread)) has passed.
//
// Deletes go through the write path (WritePath::ApplyAsService): the item,
// its LSI entries and GSI log records, the table's counters and partition
// sizes change in one batch, as for a DeleteItem, but no capacity is
// consumed and nothing is throttled. Each delete is counted in its
// partition's usage (ThroughputController::RecordTimeToLiveDeletion), the
// TimeToLiveDeletedItemCount that DescribeCapacity, /metrics and the
// console report. The expiry is checked again under the
// item's lock, so an item updated to a later expiry meanwhile is kept.
// Until deleted, an expired item is read like any other, as in DynamoDB.
//
// Sweeps are paced by the engine's due work: RunDue (every engine call)
// starts a sweep each interval and advances it by at most `chunk_items`
// items per call. Thread-safe: one caller sweeps at a time; the others
// return at once.

#ifndef DYNAROCK_ENGINE_TTL_TTL_SWEEPER_H_
#define DYNAROCK_ENGINE_TTL_TTL_SWEEPER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/capacity/throughput_controller.h"
#include "engine/requests/ttl_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/data/write_path.h"
#include "engine/types.h"
#include "engine/util/mutex.h"

namespace dynarock {

class Clock;

struct TtlSweeperOptions {
  int64_t interval_micros = 1'000'000;
  int64_t chunk_items = 1000;
  int64_t deletion_spread_micros = 0;
};

// DynamoDB ignores expiry times more than five years in the past.
inline constexpr int64_t kTtlMaxAgeMicros = int64_t{5} * 365 * 86'400 * 1'000'000;

// The expiry of `item` under TTL attribute `attribute`, in epoch micros
// (fractions of a microsecond dropped), when the attribute is a Number
// from 0 up to 10^12 seconds; nullopt otherwise (absent, another type,
// negative, or so far ahead it never expires).
std::optional<int64_t> ExpiryMicros(const Item& item, const std::string& attribute);

// Whether an item with this expiry is expired at `now`: before now, and
// not more than kTtlMaxAgeMicros before it.
bool IsExpired(int64_t expiry_micros, int64_t now_micros);

// The delay after expiry at which the item stored at `item_key` is
// deleted: a hash of the key in [0, spread_micros); 0 when spread is 0.
int64_t DeletionDelayMicros(const std::string& item_key, int64_t spread_micros);

class TtlSweeper {
 public:
  // None of the pointers is owned; all must outlive this. `throughput`
  // (which counts the deletions) may be null.
  TtlSweeper(const TtlSweeperOptions& options, Clock* clock, Catalog* catalog,
             Store* store, WritePath* write_path,
             ThroughputController* throughput = nullptr)
      : options_(options),
        clock_(clock),
        catalog_(catalog),
        store_(store),
        write_path_(write_path),
        throughput_(throughput) {}

  // The due-work step: starts a sweep of every TTL table when the interval
  // has passed since the last one ended, and advances the running sweep by
  // at most chunk_items items. A storage error ends the sweep early; the
  // next one retries.
  void RunDue();

  // Sweeps `tables` to the end now (those with TTL enabled), ignoring the
  // interval; the deletion spread still applies. Errors: storage errors.
  Result<TimeToLiveSweepResult> SweepNow(
      const std::vector<std::shared_ptr<const TableInfo>>& tables);

  // Called with each due item's key between the scan and its delete (not
  // under the item's lock), so a test can change the item in between.
  void TEST_SetBeforeDelete(std::function<void(const std::string&)> hook) {
    before_delete_ = std::move(hook);
  }

 private:
  // Where a sweep is: the tables still to sweep (front first) and the next
  // key of the front one.
  struct Cursor {
    std::vector<std::shared_ptr<const TableInfo>> tables;
    std::string next_key;
  };

  // Sweeps at most `budget` items from `cursor`, at `now`; moves the cursor.
  Status Step(Cursor* cursor, int64_t budget, int64_t now,
              TimeToLiveSweepResult* result);
  // RunDue's work once it holds mu_.
  void RunDueLocked(int64_t now) REQUIRES(mu_);
  // The table's current version when it still has TTL on (and is not being
  // deleted); null otherwise.
  std::shared_ptr<const TableInfo> Current(const TableInfo& table) const;
  // Deletes the item if it is still due at `now` (checked under its lock).
  Result<bool> DeleteIfDue(const TableInfo& table, const std::string& item_key,
                           int64_t now);

  const TtlSweeperOptions options_;
  Clock* const clock_;
  Catalog* const catalog_;
  Store* const store_;
  WritePath* const write_path_;
  ThroughputController* const throughput_;

  Mutex mu_;
  // When the next sweep may start; the minimum while one is running.
  std::atomic<int64_t> next_start_micros_{0};
  std::optional<Cursor> running_ GUARDED_BY(mu_);
  std::function<void(const std::string&)> before_delete_;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TTL_TTL_SWEEPER_H_
