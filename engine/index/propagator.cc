#include "engine/index/propagator.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <limits>
#include <string_view>
#include <unordered_map>

#include "engine/clock.h"
#include "engine/index/index_entry.h"
#include "engine/keys/key_codec.h"
#include "engine/util/coding.h"
#include "engine/value/encoded_item.h"
#include "engine/value/item_codec.h"

namespace dynarock {
namespace {

// The background thread re-reads the clock at least this often while
// records wait, so that a simulated clock driving it is noticed too.
constexpr int64_t kMaxWaitMicros = 10'000;
// How long the background thread waits before retrying after an I/O error.
constexpr int64_t kIoRetryMicros = 250'000;

std::string JustAfter(std::string_view key) {
  std::string next(key);
  next.push_back('\0');
  return next;
}

}  // namespace

std::string BackfillCursorKey(uint32_t index_id) {
  std::string key(1, 'x');
  PutFixed32BE(&key, index_id);
  return key;
}

Propagator::Propagator(Store* store, Clock* clock, PropagatorOptions options)
    : store_(store), clock_(clock), options_(options) {}

Propagator::~Propagator() { Stop(); }

Status Propagator::Recover() {
  auto it =
      store_->NewIterator(Cf::kGsiLog, std::string(), std::string(12, '\xff'));
  uint64_t last_seq = 0;
  int64_t records = 0;
  std::set<uint32_t> pending;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    uint32_t id;
    uint64_t seq;
    DR_RETURN_IF_ERROR(ParseGsiLogKey(it->key(), &id, &seq));
    last_seq = std::max(last_seq, seq);
    pending.insert(id);
    ++records;
  }
  DR_RETURN_IF_ERROR(it->status());
  sequences_.Reset(last_seq);
  MutexLock lock(&state_mu_);
  dirty_.insert(pending.begin(), pending.end());
  committed_hint_ += records;
  return Status::OK();
}

void Propagator::Start() {
  thread_ = std::thread([this] { Run(); });
}

void Propagator::Stop() {
  {
    MutexLock lock(&state_mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void Propagator::Notify(const std::vector<uint32_t>& index_ids) {
  if (index_ids.empty()) return;
  bool wake;
  {
    MutexLock lock(&state_mu_);
    dirty_.insert(index_ids.begin(), index_ids.end());
    committed_hint_ += static_cast<int64_t>(index_ids.size());
    signaled_ = true;
    // A busy thread sees signaled_ before it waits again: no wake-up
    // (a futex call per write) needed.
    wake = thread_idle_;
  }
  if (wake) wake_.notify_one();
}

void Propagator::SetLag(uint32_t index_id, int64_t lag_micros) {
  {
    MutexLock lock(&state_mu_);
    if (lag_micros < 0) {
      lags_.erase(index_id);
    } else {
      lags_[index_id] = lag_micros;
    }
    // Waiting records may be due now (or later): look again.
    dirty_.insert(index_id);
    signaled_ = true;
    idle_known_ = false;
  }
  wake_.notify_one();
}

int64_t Propagator::LagOf(uint32_t index_id) const {
  MutexLock lock(&state_mu_);
  auto it = lags_.find(index_id);
  return it == lags_.end() ? options_.default_lag_micros : it->second;
}

std::unique_lock<std::mutex> Propagator::PauseApply() {
  return std::unique_lock<std::mutex>(apply_mu_);
}

void Propagator::StartBackfill(const std::unique_lock<std::mutex>& paused,
                               BackfillTask task) {
  assert(paused.owns_lock() && paused.mutex() == &apply_mu_);
  (void)paused;
  const uint32_t id = task.index.id;
  Backfill b;
  b.task = std::move(task);
  // Resume where a previous run stopped (the cursor is committed with the
  // entries it covers); an unreadable cursor only means starting over.
  auto cursor = store_->Get(Cf::kMeta, BackfillCursorKey(id));
  if (cursor.ok() && cursor->has_value()) b.cursor = **cursor;
  if (b.cursor.empty()) {
    // A restart may find entries of a backfill that had not yet written its
    // cursor: only an empty index is fresh.
    auto entries = store_->NewIterator(Cf::kIndexes, keys::TablePrefix(id),
                                       keys::TableEnd(id));
    entries->SeekToFirst();
    b.fresh = !entries->Valid() && entries->status().ok();
  }
  backfills_[id] = std::move(b);
  MutexLock lock(&state_mu_);
  if (backfilling_.insert(id).second) backfill_count_.fetch_add(1);
  signaled_ = true;
  idle_known_ = false;
  wake_.notify_one();
}

void Propagator::ForgetIndex(const std::unique_lock<std::mutex>& paused,
                             uint32_t index_id) {
  assert(paused.owns_lock() && paused.mutex() == &apply_mu_);
  (void)paused;
  floors_.erase(index_id);
  backfills_.erase(index_id);
  waiting_.erase(index_id);
  MutexLock lock(&state_mu_);
  dirty_.erase(index_id);
  lags_.erase(index_id);
  if (backfilling_.erase(index_id) != 0) backfill_count_.fetch_sub(1);
}

bool Propagator::Backfilling(uint32_t index_id) const {
  // Every write asks (IndexWriter::Stage): most often no backfill runs.
  if (backfill_count_.load() == 0) return false;
  MutexLock lock(&state_mu_);
  return backfilling_.count(index_id) != 0;
}

Status Propagator::status() const {
  MutexLock lock(&state_mu_);
  return bg_error_;
}

Status Propagator::Failed(const Status& s, const std::set<uint32_t>& work) {
  MutexLock lock(&state_mu_);
  // An I/O error (most often a full disk) leaves the log as it was: the
  // pass is tried again later. Anything else (corruption) stops
  // propagation for good.
  if (s.code() != ErrorCode::kIOError && bg_error_.ok()) bg_error_ = s;
  dirty_.insert(work.begin(), work.end());
  return s;
}

void Propagator::TEST_FailWrites(Status s) {
  MutexLock lock(&state_mu_);
  fail_writes_ = std::move(s);
}

Status Propagator::WriteBatchChecked(WriteBatch* batch) {
  {
    MutexLock lock(&state_mu_);
    if (!fail_writes_.ok()) return fail_writes_;
  }
  return store_->Write(batch);
}

Result<int64_t> Propagator::TEST_LogRecords() const {
  auto it =
      store_->NewIterator(Cf::kGsiLog, std::string(), std::string(12, '\xff'));
  int64_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  DR_RETURN_IF_ERROR(it->status());
  return n;
}

PropagationStats Propagator::Stats() const {
  MutexLock lock(&state_mu_);
  PropagationStats s;
  s.applied_records = applied_;
  s.pending_records = std::max<int64_t>(0, committed_hint_ - applied_);
  const LatencyPercentiles lags = lag_samples_.Percentiles();
  s.samples = lags.samples;
  s.lag_p50_micros = lags.p50;
  s.lag_p99_micros = lags.p99;
  s.lag_max_micros = lags.max;
  return s;
}

namespace {

// What a batch of writes to one index does to its counters (item count and
// IndexSizeBytes, Catalog::IndexStats): each put or delete is compared with
// the entry its key holds: as an earlier write of the same batch set it, else
// as the record that asks for the write knew it (GsiLogRecord::sizes_known),
// else as read from the store. Exact whatever the records do: a backfill
// that rewrites an entry after a restart, or held records that delete
// entries the backfill never wrote (their writers did not know), count for
// what they change.
class EntryCounter {
 public:
  explicit EntryCounter(Store* store) : store_(store) {}

  // `known`: the size of the entry at `key` (-1: none) when the caller
  // knows it.
  Status Delete(const std::string& key, std::optional<int64_t> known) {
    DR_ASSIGN_OR_RETURN(int64_t old, SizeAt(key, known));
    if (old >= 0) {
      --items_;
      bytes_ -= old;
    }
    pending_[key] = -1;
    return Status::OK();
  }

  // A put of `entry` at a key that holds no entry and was not written
  // before by this counter's batch (a fresh backfill's,
  // Propagator::Backfill::fresh).
  void PutNew(const IndexEntry& entry) {
    ++items_;
    bytes_ += entry.size;
  }

  Status Put(const std::string& key, std::string_view value,
             std::optional<int64_t> known) {
    DR_ASSIGN_OR_RETURN(int64_t old, SizeAt(key, known));
    DR_ASSIGN_OR_RETURN(int64_t size, EncodedItemSize(value));
    size += kIndexEntryOverheadBytes;
    if (old >= 0) {
      bytes_ += size - old;
    } else {
      ++items_;
      bytes_ += size;
    }
    pending_[key] = size;
    return Status::OK();
  }

  // Adds the counter changes to `batch` (the batch of the writes counted).
  void AddTo(uint32_t index_id, WriteBatch* batch) const {
    Catalog::AddStats(index_id, items_, bytes_, batch);
  }

 private:
  // The size of the entry at `key`, -1 when there is none.
  Result<int64_t> SizeAt(const std::string& key, std::optional<int64_t> known) {
    auto it = pending_.find(key);
    if (it != pending_.end()) return it->second;
    if (known) return *known;
    DR_ASSIGN_OR_RETURN(std::optional<std::string> value, store_->Get(Cf::kIndexes, key));
    if (!value) return int64_t{-1};
    DR_ASSIGN_OR_RETURN(int64_t size, EncodedItemSize(*value));
    return size + kIndexEntryOverheadBytes;
  }

  Store* store_;
  std::unordered_map<std::string, int64_t> pending_;
  int64_t items_ = 0;
  int64_t bytes_ = 0;
};

}  // namespace

Propagator::Outcome Propagator::ApplyIndex(uint32_t index_id, int64_t now,
                                           bool force, uint64_t force_below,
                                           std::optional<int64_t>* due,
                                           Status* status) {
  const int64_t lag = LagOf(index_id);
  // Every sequence number below the watermark has committed or given up, so
  // its records are visible to the iterator created after this read.
  const uint64_t watermark = sequences_.Watermark();
  const uint64_t floor = floors_[index_id];
  auto it = store_->NewIterator(Cf::kGsiLog, GsiLogKey(index_id, floor),
                                keys::TableEnd(index_id));
  WriteBatch batch;
  EntryCounter counter(store_);
  int64_t applied = 0;
  std::vector<int64_t> lags;
  // A vector index's graphs follow its entries once they are written.
  std::optional<std::vector<VectorChange>> vector_records;
  if (vectors_ != nullptr && vectors_->Has(index_id)) vector_records.emplace();
  Outcome outcome = Outcome::kDone;
  std::optional<uint64_t> stop_seq;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    uint32_t id;
    uint64_t seq;
    if (Status s = ParseGsiLogKey(it->key(), &id, &seq); !s.ok()) {
      *status = s;
      return outcome;
    }
    Result<GsiLogRecord> record = DecodeGsiLogRecord(it->value());
    if (!record.ok()) {
      *status = record.status();
      return outcome;
    }
    if (force && seq >= force_below) {
      outcome = Outcome::kLater;  // written after CatchUp began
      stop_seq = seq;
      break;
    }
    if (!force && record->time_micros + lag > now) {
      outcome = Outcome::kWaiting;
      *due = record->time_micros + lag;
      stop_seq = seq;
      break;
    }
    if (applied == options_.apply_batch_records) {
      outcome = Outcome::kMore;
      stop_seq = seq;
      break;
    }
    Status counted = Status::OK();
    auto known = [&](int64_t size) {
      return record->sizes_known ? std::optional<int64_t>(size) : std::nullopt;
    };
    if (record->delete_key) {
      counted = counter.Delete(*record->delete_key, known(record->deleted_size));
      batch.Delete(Cf::kIndexes, *record->delete_key);
    }
    if (record->put_key && counted.ok()) {
      counted = counter.Put(*record->put_key, record->put_value,
                            known(record->overwritten_size));
      batch.Put(Cf::kIndexes, *record->put_key, record->put_value);
    }
    if (!counted.ok()) {
      *status = counted;
      return outcome;
    }
    if (vector_records) {
      vector_records->push_back(VectorChange{record->delete_key, record->put_key,
                                             std::move(record->put_value)});
    }
    batch.Delete(Cf::kGsiLog, it->key());
    ++applied;
    if (!force) lags.push_back(now - record->time_micros);
  }
  if (Status s = it->status(); !s.ok()) {
    *status = s;
    return outcome;
  }
  if (applied > 0) {
    counter.AddTo(index_id, &batch);
    if (Status s = WriteBatchChecked(&batch); !s.ok()) {
      *status = s;
      return outcome;
    }
    if (vector_records) {
      for (const VectorChange& c : *vector_records) {
        if (Status s = vectors_->Apply(index_id, c.delete_key ? &*c.delete_key : nullptr,
                                       c.put_key ? &*c.put_key : nullptr, c.put_value);
            !s.ok()) {
          *status = s;
          return outcome;
        }
      }
    }
  }
  floors_[index_id] = stop_seq ? std::min(*stop_seq, watermark) : watermark;
  MutexLock lock(&state_mu_);
  applied_ += applied;
  for (int64_t l : lags) lag_samples_.Add(l);
  return outcome;
}

Status Propagator::BackfillStep(Backfill* b, bool* done) {
  const uint32_t table_id = b->task.table_id;
  const IndexInfo& index = b->task.index;
  const std::string lower =
      b->cursor.empty() ? keys::TablePrefix(table_id) : b->cursor;
  auto it = store_->NewIterator(Cf::kItems, lower, keys::TableEnd(table_id));
  WriteBatch batch;
  EntryCounter counter(store_);
  int64_t read = 0;
  std::string last;
  std::vector<IndexEntry> entries;
  for (it->SeekToFirst(); it->Valid() && read < options_.backfill_chunk_items;
       it->Next()) {
    DR_ASSIGN_OR_RETURN(Item item, DecodeItem(it->value()));
    ++read;
    last.assign(it->key());
    // Items written before the index existed may hold a key attribute of
    // another type (or an empty string): DynamoDB leaves them out of the
    // index (a backfill "violation"), and so do we.
    if (!CheckIndexKeysOf(index, item).ok()) continue;
    if (std::optional<IndexEntry> entry =
            EntryOf(index, b->task.table_key, item)) {
      entries.push_back(std::move(*entry));
    }
  }
  DR_RETURN_IF_ERROR(it->status());
  // In index-key order: the memtable inserts then follow each other
  // instead of landing all over the index.
  std::sort(entries.begin(), entries.end(),
            [](const IndexEntry& a, const IndexEntry& b) { return a.key < b.key; });
  for (const IndexEntry& entry : entries) {
    if (b->fresh) {
      counter.PutNew(entry);
    } else {
      DR_RETURN_IF_ERROR(counter.Put(entry.key, entry.value, std::nullopt));
    }
    batch.Put(Cf::kIndexes, entry.key, entry.value);
  }
  counter.AddTo(index.id, &batch);
  const bool finished = !it->Valid();
  std::string next_cursor;
  if (finished) {
    batch.Delete(Cf::kMeta, BackfillCursorKey(index.id));
  } else {
    next_cursor = JustAfter(last);
    batch.Put(Cf::kMeta, BackfillCursorKey(index.id), next_cursor);
  }
  // The cursor moves only once the chunk is written: a failed write (a full
  // disk) is retried from the same place.
  DR_RETURN_IF_ERROR(WriteBatchChecked(&batch));
  if (vectors_ != nullptr && index.vector) {
    for (const IndexEntry& entry : entries) {
      DR_RETURN_IF_ERROR(vectors_->Apply(index.id, nullptr, &entry.key, entry.value));
    }
  }
  *done = finished;
  if (!finished) b->cursor = std::move(next_cursor);
  return Status::OK();
}

Status Propagator::Pass(bool force, uint64_t force_below, bool backfill_step,
                        PassResult* result) {
  std::set<uint32_t> work;
  {
    MutexLock lock(&state_mu_);
    work.swap(dirty_);
    idle_known_ = false;
  }
  work.insert(waiting_.begin(), waiting_.end());
  const int64_t now = clock_->NowMicros();
  std::vector<uint32_t> again;
  for (uint32_t id : work) {
    // A backfilling index's records wait for the backfill (backfill.h);
    // they are looked at again when it is done.
    if (backfills_.count(id)) {
      waiting_.erase(id);
      continue;
    }
    std::optional<int64_t> due;
    Status s;
    const Outcome outcome = ApplyIndex(id, now, force, force_below, &due, &s);
    if (!s.ok()) return Failed(s, work);
    switch (outcome) {
      case Outcome::kDone:
        waiting_.erase(id);
        break;
      case Outcome::kWaiting:
        waiting_.insert(id);
        if (!result->next_due || *due < *result->next_due)
          result->next_due = due;
        break;
      case Outcome::kMore:
        waiting_.erase(id);
        again.push_back(id);
        result->more_records = true;
        break;
      case Outcome::kLater:
        waiting_.erase(id);
        again.push_back(id);  // for the next pass, not this CatchUp
        break;
    }
  }
  if (backfill_step) {
    for (auto it = backfills_.begin(); it != backfills_.end();) {
      bool done = false;
      Status s = BackfillStep(&it->second, &done);
      if (!s.ok()) return Failed(s, work);
      if (!done) {
        ++it;
        continue;
      }
      // The held records now apply, on top of what the backfill wrote.
      const uint32_t id = it->first;
      it = backfills_.erase(it);
      MutexLock lock(&state_mu_);
      if (backfilling_.erase(id) != 0) backfill_count_.fetch_sub(1);
      again.push_back(id);
      result->more_records = true;
    }
  }
  result->backfills_left = !backfills_.empty();
  MutexLock lock(&state_mu_);
  dirty_.insert(again.begin(), again.end());
  if (dirty_.empty() && !result->backfills_left) {
    idle_known_ = true;
    idle_until_ =
        result->next_due.value_or(std::numeric_limits<int64_t>::max());
  }
  return Status::OK();
}

Status Propagator::RunDue() {
  {
    MutexLock lock(&state_mu_);
    if (!bg_error_.ok()) return bg_error_;
    // Nothing was written, no lag changed and nothing falls due yet.
    if (idle_known_ && dirty_.empty() && clock_->NowMicros() < idle_until_) {
      return Status::OK();
    }
  }
  std::lock_guard<std::mutex> apply(apply_mu_);
  bool backfill_step = true;
  PassResult result;
  do {
    result = PassResult();
    DR_RETURN_IF_ERROR(Pass(/*force=*/false, 0, backfill_step, &result));
    backfill_step = false;
  } while (result.more_records);
  return Status::OK();
}

Status Propagator::CatchUp() {
  DR_RETURN_IF_ERROR(status());
  std::lock_guard<std::mutex> apply(apply_mu_);
  const uint64_t below = sequences_.Next();
  PassResult result;
  do {
    result = PassResult();
    DR_RETURN_IF_ERROR(
        Pass(/*force=*/true, below, /*backfill_step=*/true, &result));
  } while (result.more_records || result.backfills_left);
  return Status::OK();
}

void Propagator::Run() {
  PassResult last;
  bool busy = true;  // look at the log once at start
  while (true) {
    {
      MutexLock lock(&state_mu_);
      if (!busy && !signaled_ && !stop_) {
        thread_idle_ = true;
        // Explicit loops rather than wait predicates: a predicate lambda is
        // a function of its own to the thread-safety analysis, which could
        // not see state_mu_ held there.
        if (last.next_due) {
          const int64_t wait = std::clamp<int64_t>(
              *last.next_due - clock_->NowMicros(), 0, kMaxWaitMicros);
          const auto deadline = std::chrono::steady_clock::now() +
                                std::chrono::microseconds(wait);
          while (!stop_ && !signaled_ &&
                 wake_.wait_until(state_mu_, deadline) !=
                     std::cv_status::timeout) {
          }
        } else {
          while (!stop_ && !signaled_) wake_.wait(state_mu_);
        }
        thread_idle_ = false;
        // Woken by a write: let the next ones gather before applying. A
        // pass per write costs a wake-up (a futex call in the writer), an
        // iterator and a WriteBatch for one record, more than applying it
        // does; writers do not wake a thread that is not idle.
        if (signaled_ && options_.gather_micros > 0) {
          const auto deadline = std::chrono::steady_clock::now() +
                                std::chrono::microseconds(options_.gather_micros);
          while (!stop_ && wake_.wait_until(state_mu_, deadline) !=
                               std::cv_status::timeout) {
          }
        }
      }
      if (stop_) return;
      signaled_ = false;
      if (!bg_error_.ok()) return;
    }
    Status s;
    {
      std::lock_guard<std::mutex> apply(apply_mu_);
      last = PassResult();
      s = Pass(/*force=*/false, 0, /*backfill_step=*/true, &last);
    }
    if (!s.ok()) {
      if (s.code() != ErrorCode::kIOError) return;  // sticky (Failed)
      // Wait out a full disk or a failing device before trying again.
      MutexLock lock(&state_mu_);
      const auto deadline =
          std::chrono::steady_clock::now() + std::chrono::microseconds(kIoRetryMicros);
      while (!stop_ && wake_.wait_until(state_mu_, deadline) != std::cv_status::timeout) {
      }
      busy = true;
      continue;
    }
    busy = last.more_records || last.backfills_left;
  }
}

}  // namespace dynarock
