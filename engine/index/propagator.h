// engine/index/propagator.h
//
// The Propagator applies the GSI log (gsi_log.h) to the indexes column
// family and runs GSI backfills (backfill.h).
//
// Log records of one index are applied in sequence order, each once the
// index's lag has passed since its write (time_micros + lag <= clock now),
// in batches that write the index entries AND delete the applied records:
// after a crash the remaining records are exactly the unapplied ones
// (Recover), so an index never loses nor duplicates an entry.
//
// Two ways to run:
//   - background (Start): a thread applies records as they fall due, waking
//     when writers commit records (Notify) or when the next record is due;
//   - deterministic (no thread): nothing moves until the owner calls
//     RunDue(), which applies exactly what is due at the clock's now and
//     runs one step of each backfill. On a SimulatedClock a run is then
//     reproducible.
// CatchUp() applies everything committed so far, ignoring the lag, and
// finishes every backfill (both modes).
//
// An I/O error while applying (a full disk) leaves the log untouched and is
// retried: by the background thread after a pause, in deterministic mode by
// the next RunDue. Any other failure (corruption) is sticky, like leveldb's
// bg_error_: propagation stops and status() returns it from then on.
//
// Lock order: the apply lock (PauseApply) before IndexWriter::ExcludeWriters
// before the catalog's lock. Thread-safe.

#ifndef DYNAROCK_ENGINE_INDEX_PROPAGATOR_H_
#define DYNAROCK_ENGINE_INDEX_PROPAGATOR_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "engine/index/gsi_log.h"
#include "engine/requests/index_lag_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/util/latency_samples.h"
#include "engine/util/mutex.h"
#include "engine/vector/vector_graphs.h"

namespace dynarock {

class Clock;

// The meta-column-family key of a backfill's resume point.
std::string BackfillCursorKey(uint32_t index_id);

struct PropagatorOptions {
  // Lag of every GSI unless SetLag says otherwise; 0 = as fast as possible.
  int64_t default_lag_micros = 0;
  // Records applied per WriteBatch.
  int64_t apply_batch_records = 512;
  // Items a backfill reads per step (and per WriteBatch).
  int64_t backfill_chunk_items = 1000;
  // How long the background thread, woken from idle by a write, lets more
  // records come before it applies them (real time, not the engine clock):
  // it then applies several per pass instead of one per wake-up. Adds up to
  // this much to a record's propagation lag when writes are sparse.
  int64_t gather_micros = 250;
};

// A GSI being filled from its table's existing items.
struct BackfillTask {
  uint32_t table_id = 0;
  KeyDef table_key;
  IndexInfo index;
};

// Observed propagation delays (time applied - time written) of records
// applied when due (CatchUp's forced applications are not counted), over
// the most recent records.
using PropagationStats = IndexPropagationStats;

class Propagator {
 public:
  Propagator(Store* store, Clock* clock, PropagatorOptions options);
  // Stops the background thread, if any.
  ~Propagator();
  Propagator(const Propagator&) = delete;
  Propagator& operator=(const Propagator&) = delete;

  // Reads the log left by a previous run: the next sequence number and
  // which indexes have pending records. Call once, before any write.
  // Errors: kCorruption, kIOError.
  Status Recover();
  // Starts the background thread. REQUIRES: not started.
  void Start();
  // Stops and joins the background thread (idempotent).
  void Stop();

  SequenceTracker* sequences() { return &sequences_; }
  // Writers committed records for these indexes.
  void Notify(const std::vector<uint32_t>& index_ids);

  // Sets one index's lag (runtime only; not persisted); negative = the
  // default again.
  void SetLag(uint32_t index_id, int64_t lag_micros);
  int64_t LagOf(uint32_t index_id) const;

  // Holds the apply lock: no record is applied and no backfill step runs
  // while the caller keeps it.
  std::unique_lock<std::mutex> PauseApply();
  // Starts filling an index from its table's items, or resumes a backfill
  // that a previous run left unfinished (its cursor is in the meta column
  // family, see BackfillCursorKey). The index's log records are held (not
  // applied) until the backfill is done; they then apply on top of what it
  // wrote. REQUIRES: `paused` from PauseApply().
  void StartBackfill(const std::unique_lock<std::mutex>& paused,
                     BackfillTask task);
  // Forgets an index: its backfill, lag and pending state. The caller
  // deletes its entries and records in the same pause. REQUIRES: `paused`.
  void ForgetIndex(const std::unique_lock<std::mutex>& paused,
                   uint32_t index_id);
  // Whether `index_id` is being backfilled: true from StartBackfill until
  // the backfill's last chunk is written. One atomic read while none runs.
  bool Backfilling(uint32_t index_id) const;

  // Deterministic mode: applies every record due at the clock's now and
  // runs one step of every backfill. Returns the sticky error, if any.
  Status RunDue();
  // Applies every committed record now (ignoring lags) and finishes every
  // backfill. Returns the sticky error, if any.
  Status CatchUp();

  // The sticky background error (OK when none).
  Status status() const;
  PropagationStats Stats() const;

  // The graphs of vector indexes (not owned; may stay null): every entry
  // of a vector index the propagator writes (a log record applied, a
  // backfill chunk) is fed to them once its batch is written. Set before
  // Start.
  void SetVectorGraphs(vector::VectorGraphs* graphs) { vectors_ = graphs; }

  // Test hooks.
  // Every later apply write fails with `s` (OK clears it).
  void TEST_FailWrites(Status s);
  // Records in the log, counted by reading it.
  Result<int64_t> TEST_LogRecords() const;

 private:
  // kDone: nothing left; kWaiting: records not due yet; kMore: the batch
  // budget ran out; kLater: records newer than CatchUp's start remain.
  enum class Outcome { kDone, kWaiting, kMore, kLater };
  struct Backfill {
    BackfillTask task;
    std::string cursor;  // next item key to read
    // The index held no entry when the backfill began. Nothing else writes
    // its entries until the backfill is done (its records are held), and
    // each item has one entry, so every entry the backfill writes is new:
    // counting them needs no lookup of what was there.
    bool fresh = false;
  };

  // What a pass leaves behind.
  struct PassResult {
    bool more_records = false;  // records due now remain (batch budget)
    bool backfills_left = false;
    std::optional<int64_t> next_due;  // earliest due time of waiting records
  };
  // One pass over the indexes with pending records, and one step of every
  // backfill when `backfill_step`. `force`: ignore lags. REQUIRES: apply_mu_.
  // `force_below`: with `force`, records numbered from it on are left for
  // later (CatchUp applies what was committed before it was called, so
  // that it ends under a sustained write load).
  Status Pass(bool force, uint64_t force_below, bool backfill_step,
              PassResult* result);
  Outcome ApplyIndex(uint32_t index_id, int64_t now, bool force,
                     uint64_t force_below, std::optional<int64_t>* due,
                     Status* status);
  Status BackfillStep(Backfill* backfill, bool* done);
  Status WriteBatchChecked(WriteBatch* batch);
  // Records a failed pass: puts `work` back in dirty_ and, unless `s` is an
  // I/O error, makes it sticky. Returns `s`.
  Status Failed(const Status& s, const std::set<uint32_t>& work);
  void Run();

  // One applied record of a vector index, kept until its batch is written.
  struct VectorChange {
    std::optional<std::string> delete_key;
    std::optional<std::string> put_key;
    std::string put_value;
  };

  Store* const store_;
  Clock* const clock_;
  const PropagatorOptions options_;
  vector::VectorGraphs* vectors_ = nullptr;
  SequenceTracker sequences_;

  // Held while applying; guards the members below it. A plain std::mutex,
  // not annotated: it is held across calls through the std::unique_lock
  // that PauseApply hands out, which the analysis cannot follow.
  mutable std::mutex apply_mu_;
  std::map<uint32_t, uint64_t> floors_;     // scan start per index
  std::map<uint32_t, Backfill> backfills_;  // by index id
  std::set<uint32_t> waiting_;              // records not yet due

  // Guards the members below it; never held while taking apply_mu_.
  mutable Mutex state_mu_;
  std::condition_variable_any wake_;
  std::set<uint32_t> dirty_ GUARDED_BY(state_mu_);  // records may be pending
  std::map<uint32_t, int64_t> lags_ GUARDED_BY(state_mu_);
  std::set<uint32_t> backfilling_ GUARDED_BY(state_mu_);
  // backfilling_.size(), readable without state_mu_. Raised under the
  // writers' exclusion (IndexWriter::ExcludeWriters) when a backfill
  // starts, so a writer never misses one; lowered after its last chunk is
  // written, so a writer that reads 0 stages after every backfill ended.
  std::atomic<int> backfill_count_{0};
  Status bg_error_ GUARDED_BY(state_mu_);
  Status fail_writes_ GUARDED_BY(state_mu_);
  bool stop_ GUARDED_BY(state_mu_) = false;
  bool signaled_ GUARDED_BY(state_mu_) = false;
  // The background thread waits on wake_.
  bool thread_idle_ GUARDED_BY(state_mu_) = false;
  // No work before this time unless signaled (RunDue's quick exit).
  int64_t idle_until_ GUARDED_BY(state_mu_) = 0;
  bool idle_known_ GUARDED_BY(state_mu_) = false;
  int64_t applied_ GUARDED_BY(state_mu_) = 0;
  // Records notified, for pending_records.
  int64_t committed_hint_ GUARDED_BY(state_mu_) = 0;
  // The lags of the most recent records applied when due.
  LatencySamples lag_samples_ GUARDED_BY(state_mu_){1 << 16};

  std::thread thread_;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_INDEX_PROPAGATOR_H_
