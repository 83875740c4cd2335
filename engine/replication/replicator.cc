#include "engine/replication/replicator.h"

#include <algorithm>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "engine/clock.h"
#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"

namespace dynarock {

void Replicator::SetLag(uint32_t target_id, int64_t lag_micros) {
  MutexLock lock(&mu_);
  if (lag_micros < 0) {
    lags_.erase(target_id);
  } else {
    lags_[target_id] = lag_micros;
  }
}

namespace {

// The pair in the order RegionPartition keeps it.
std::pair<std::string, std::string> Ordered(const std::string& x, const std::string& y) {
  return x < y ? std::make_pair(x, y) : std::make_pair(y, x);
}

}  // namespace

void Replicator::PartitionRegions(const std::string& a, const std::string& b,
                                  int64_t until_micros) {
  auto [lo, hi] = Ordered(a, b);
  MutexLock lock(&mu_);
  for (RegionPartition& p : partitions_) {
    if (p.a == lo && p.b == hi) {
      p.until_micros = until_micros;
      return;
    }
  }
  partitions_.push_back(RegionPartition{std::move(lo), std::move(hi), until_micros});
}

bool Replicator::HealRegions(const std::string& a, const std::string& b) {
  // Not a structured binding: clang refuses one captured by the lambda.
  const std::pair<std::string, std::string> pair = Ordered(a, b);
  const std::string& lo = pair.first;
  const std::string& hi = pair.second;
  MutexLock lock(&mu_);
  ExpirePartitions(clock_->NowMicros());
  const size_t before = partitions_.size();
  std::erase_if(partitions_,
                [&](const RegionPartition& p) { return p.a == lo && p.b == hi; });
  // The records it held are behind the cursors now.
  if (partitions_.size() != before) cursors_.clear();
  return partitions_.size() != before;
}

std::vector<RegionPartition> Replicator::Partitions() const {
  const int64_t now = clock_->NowMicros();
  MutexLock lock(&mu_);
  std::vector<RegionPartition> out;
  for (const RegionPartition& p : partitions_) {
    if (p.until_micros == 0 || p.until_micros > now) out.push_back(p);
  }
  return out;
}

bool Replicator::Partitioned(const std::string& x, const std::string& y, int64_t now) const {
  if (partitions_.empty() || x == y) return false;
  const std::string& lo = x < y ? x : y;
  const std::string& hi = x < y ? y : x;
  for (const RegionPartition& p : partitions_) {
    if (p.a == lo && p.b == hi) return p.until_micros == 0 || p.until_micros > now;
  }
  return false;
}

void Replicator::ExpirePartitions(int64_t now) {
  const size_t expired = std::erase_if(partitions_, [&](const RegionPartition& p) {
    return p.until_micros != 0 && p.until_micros <= now;
  });
  // The records they held are behind the cursors now.
  if (expired > 0) cursors_.clear();
}

Result<ReplicaReplicationState> Replicator::Describe(uint32_t target_id) const {
  ReplicaReplicationState s;
  DR_ASSIGN_OR_RETURN(s.pending_records, Pending(target_id));
  MutexLock lock(&mu_);
  auto lag = lags_.find(target_id);
  s.default_lag = lag == lags_.end();
  s.lag_micros = s.default_lag ? default_lag_ : lag->second;
  auto it = target_stats_.find(target_id);
  if (it != target_stats_.end()) {
    s.applied = it->second.applied;
    s.superseded = it->second.superseded;
    s.throttled = it->second.throttled;
    s.tombstones_collected = it->second.tombstones_collected;
    s.latency = it->second.latency.Percentiles();
  }
  return s;
}

int64_t Replicator::Lag(uint32_t target_id) const {
  MutexLock lock(&mu_);
  auto it = lags_.find(target_id);
  return it == lags_.end() ? default_lag_ : it->second;
}

std::optional<int64_t> Replicator::SetLagOf(uint32_t target_id) const {
  MutexLock lock(&mu_);
  auto it = lags_.find(target_id);
  if (it == lags_.end()) return std::nullopt;
  return it->second;
}

ReplicationStats Replicator::stats() const {
  MutexLock lock(&mu_);
  return stats_;
}

Result<bool> Replicator::HasPendingUpTo(uint32_t target_id, int64_t stamp) const {
  auto it = store_->NewIterator(Cf::kMeta, ReplicationLog::LogBegin(target_id),
                                ReplicationLog::LogEnd(target_id, stamp));
  it->SeekToFirst();
  DR_RETURN_IF_ERROR(it->status());
  return it->Valid();
}

Result<int64_t> Replicator::Pending(uint32_t target_id) const {
  auto it = store_->NewIterator(Cf::kMeta, ReplicationLog::LogBegin(target_id),
                                ReplicationLog::LogBegin(target_id + 1));
  int64_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
  DR_RETURN_IF_ERROR(it->status());
  return n;
}

Result<bool> Replicator::RunDue(int64_t max_records, int64_t slice_micros, bool from_cursor) {
  if (!run_mu_.TryLock()) return false;
  Status first;
  bool more = false;
  int64_t budget = max_records;
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (slice_micros > 0) {
    deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(slice_micros);
  }
  const std::vector<ReplicationTarget> targets = log_->AllTargets();
  for (const ReplicationTarget& target : targets) {
    if (budget <= 0 || (deadline && std::chrono::steady_clock::now() >= *deadline)) {
      more = true;
      break;
    }
    Result<bool> drained = Drain(target, &budget, deadline, from_cursor);
    if (!drained.ok() && first.ok()) first = drained.status();
    more = more || (drained.ok() && *drained);
  }
  // A tenth as many versions: a sweep is background work, the records are
  // what clients wait for.
  int64_t sweep_budget = from_cursor ? 0 : std::max<int64_t>(1, max_records / 10);
  const int64_t now = clock_->NowMicros();
  for (const ReplicationTarget& target : targets) {
    if (sweep_budget <= 0) break;
    Status s = CollectTombstones(target, now, &sweep_budget);
    if (!s.ok() && first.ok()) first = std::move(s);
  }
  // Forget the sweeps and cursors of tables that left.
  auto left = [&](uint32_t id) {
    return std::none_of(targets.begin(), targets.end(),
                        [&](const ReplicationTarget& t) { return t.table_id == id; });
  };
  std::erase_if(sweeps_, [&](const auto& entry) { return left(entry.first); });
  {
    MutexLock lock(&mu_);
    std::erase_if(cursors_, [&](const auto& entry) { return left(entry.first); });
  }
  run_mu_.Unlock();
  if (!first.ok()) return first;
  return more;
}

Status Replicator::CollectTombstones(const ReplicationTarget& target, int64_t now,
                                     int64_t* budget) {
  std::shared_ptr<const TableInfo> table = catalog_->Find(target.ns, target.table_name);
  if (!table || table->id != target.table_id || table->deleting_since_micros) {
    return Status::OK();
  }
  Sweep& sweep = sweeps_[target.table_id];
  if (sweep.next.empty()) {
    // A pass at most once per retention: a table without tombstones is
    // not read over and over.
    if (sweep.pass_started_micros && now - *sweep.pass_started_micros < retention_) {
      return Status::OK();
    }
    sweep.pass_started_micros = now;
    sweep.next = ReplicationLog::VersionsBegin(target.table_id);
  }
  // What may go: older than the retention and than every record waiting.
  int64_t horizon = now - retention_;
  {
    auto it = store_->NewIterator(Cf::kMeta, ReplicationLog::LogBegin(target.table_id),
                                  ReplicationLog::LogBegin(target.table_id + 1));
    it->SeekToFirst();
    DR_RETURN_IF_ERROR(it->status());
    if (it->Valid()) {
      DR_ASSIGN_OR_RETURN(ReplicationLog::Record first,
                          ReplicationLog::ParseRecord(it->key(), it->value()));
      horizon = std::min(horizon, first.stamp_micros);
    }
  }
  // Read a chunk of candidates, then drop them: the iterator is not held
  // across writes.
  struct Candidate {
    std::string version_key;
    std::string item_key;
    std::string version;
  };
  std::vector<Candidate> candidates;
  const std::string end = ReplicationLog::VersionsEnd(target.table_id);
  const size_t prefix_size = ReplicationLog::VersionsBegin(target.table_id).size();
  const std::string items_prefix = keys::TablePrefix(table->id);
  {
    auto it = store_->NewIterator(Cf::kMeta, sweep.next, end);
    it->SeekToFirst();
    for (; it->Valid() && *budget > 0; it->Next()) {
      --*budget;
      DR_ASSIGN_OR_RETURN(ItemVersion v, ReplicationLog::DecodeVersion(it->value()));
      if (v.stamp_micros >= horizon) continue;
      std::string item_key = items_prefix + std::string(it->key().substr(prefix_size));
      DR_ASSIGN_OR_RETURN(std::optional<std::string> item, store_->Get(Cf::kItems, item_key));
      if (item) continue;
      candidates.push_back(
          Candidate{std::string(it->key()), std::move(item_key), std::string(it->value())});
    }
    DR_RETURN_IF_ERROR(it->status());
    // Where the next chunk starts (just after this one's last key), or the
    // pass is over.
    sweep.next = it->Valid() ? std::string(it->key()) : std::string();
  }
  int64_t dropped = 0;
  for (const Candidate& c : candidates) {
    DR_ASSIGN_OR_RETURN(bool gone, DropTombstone(c.version_key, c.item_key, c.version));
    dropped += gone ? 1 : 0;
  }
  if (dropped > 0) {
    MutexLock lock(&mu_);
    stats_.tombstones_collected += dropped;
    target_stats_[target.table_id].tombstones_collected += dropped;
  }
  return Status::OK();
}

Result<bool> Replicator::DropTombstone(const std::string& version_key,
                                       const std::string& item_key, const std::string& seen) {
  // The lock every write of the item takes: neither a local write nor a
  // replicated apply can come between the check and the delete.
  std::lock_guard<std::mutex> lock(locks_->For(item_key));
  DR_ASSIGN_OR_RETURN(std::optional<std::string> version, store_->Get(Cf::kMeta, version_key));
  if (!version || *version != seen) return false;
  DR_ASSIGN_OR_RETURN(std::optional<std::string> item, store_->Get(Cf::kItems, item_key));
  if (item) return false;
  WriteBatch batch;
  batch.Delete(Cf::kMeta, version_key);
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  return true;
}

Result<bool> Replicator::Drain(const ReplicationTarget& target, int64_t* budget,
                               std::optional<std::chrono::steady_clock::time_point> deadline,
                               bool from_cursor) {
  std::shared_ptr<const TableInfo> table = catalog_->Find(target.ns, target.table_name);
  if (!table || table->id != target.table_id || table->deleting_since_micros) {
    return false;
  }
  const int64_t now = clock_->NowMicros();
  const int64_t due = now - Lag(target.table_id);
  if (due < 0) return false;
  // The Regions it is cut off from now, decided once for the drain (the
  // records are then checked without the lock).
  std::vector<std::string> cut_from;
  std::string start = ReplicationLog::LogBegin(target.table_id);
  {
    const std::vector<std::string> origins = log_->OriginRegions(target.table_id);
    MutexLock lock(&mu_);
    ExpirePartitions(now);
    for (const std::string& o : origins) {
      if (Partitioned(o, target.region, now)) cut_from.push_back(o);
    }
    // Cut off from every Region that replicates to it: nothing to read.
    if (!origins.empty() && cut_from.size() == origins.size()) return false;
    auto cursor = cursors_.find(target.table_id);
    if (from_cursor && cursor != cursors_.end()) {
      start = ReplicationLog::LogKey(target.table_id, cursor->second, "", "");
    }
  }
  const std::string end = ReplicationLog::LogEnd(target.table_id, due);
  const std::string prefix = keys::TablePrefix(table->id);
  // Chunks of records, each read and then applied (the iterator is not held
  // across writes); the next starts after the last one read (a deleted key:
  // seeking to it skips only itself). Stopped by the deadline or the
  // budget, it says more is due: a run from the log's start may have spent
  // its slice stepping over deletions.
  constexpr int64_t kChunk = 256;
  std::vector<std::pair<std::string, std::string>> chunk;
  // A run from the start may spend its slice stepping over deletions: it
  // applies one chunk anyway, or what a cursor missed could wait forever.
  int64_t before_deadline = from_cursor ? 0 : kChunk;
  while (*budget > 0) {
    chunk.clear();
    {
      auto it = store_->NewIterator(Cf::kMeta, start, end);
      for (it->SeekToFirst(); it->Valid() && static_cast<int64_t>(chunk.size()) <
                                                 std::min(kChunk, *budget);
           it->Next()) {
        if (it->key() == start) continue;
        chunk.emplace_back(std::string(it->key()), std::string(it->value()));
      }
      DR_RETURN_IF_ERROR(it->status());
    }
    if (chunk.empty()) return false;
    for (const auto& [key, value] : chunk) {
      if (deadline && --before_deadline < 0 && std::chrono::steady_clock::now() >= *deadline) {
        return true;
      }
      --*budget;
      DR_ASSIGN_OR_RETURN(ReplicationLog::Record record,
                          ReplicationLog::ParseRecord(key, value));
      const bool passed = !cut_from.empty() && std::find(cut_from.begin(), cut_from.end(),
                                                         record.origin) != cut_from.end();
      if (!passed) {
        DR_ASSIGN_OR_RETURN(bool applied, Apply(target, *table, prefix, record, key, now));
        if (!applied) return false;  // throttled: the rest wait
      }
      MutexLock lock(&mu_);
      int64_t& cursor = cursors_[target.table_id];
      cursor = std::max(cursor, record.stamp_micros);
    }
    start = chunk.back().first;
    if (static_cast<int64_t>(chunk.size()) < kChunk) return false;
  }
  return true;  // out of budget, with records perhaps left
}

Result<bool> Replicator::Apply(const ReplicationTarget& target, const TableInfo& table,
                               const std::string& prefix, const ReplicationLog::Record& record,
                               const std::string& log_key, int64_t now) {
  ReplicatedChange change{record.stamp_micros, std::string(record.origin), log_key};
  const std::string item_key = prefix + std::string(record.suffix);
  const std::string version_key = ReplicationLog::VersionKey(table.id, record.suffix);
  bool superseded = false;
  const ItemVersion incoming{change.stamp_micros, change.origin_region};
  auto mutation = [&](const std::optional<Item>&) -> Result<ItemChange> {
    // Under the item's lock: the stored version is the item's latest.
    DR_ASSIGN_OR_RETURN(std::optional<std::string> stored, store_->Get(Cf::kMeta, version_key));
    ItemChange c;
    if (stored) {
      DR_ASSIGN_OR_RETURN(ItemVersion seen, ReplicationLog::DecodeVersion(*stored));
      if (!Newer(incoming, seen)) {
        superseded = true;
        c.unchanged = true;
        return c;
      }
    }
    if (record.item) {
      DR_ASSIGN_OR_RETURN(Item item, DecodeItem(*record.item));
      c.new_item = std::move(item);
    }
    return c;
  };
  Result<std::optional<Item>> applied = writes_->ApplyReplicated(table, item_key, mutation, change);
  MutexLock lock(&mu_);
  TargetStats& mine = target_stats_[target.table_id];
  if (!applied.ok()) {
    const ErrorCode code = applied.status().code();
    if (code == ErrorCode::kProvisionedThroughputExceeded ||
        code == ErrorCode::kRequestLimitExceeded || code == ErrorCode::kThrottling ||
        code == ErrorCode::kTransactionConflict) {
      // The replica is out of capacity (or the item is in a transaction):
      // the record stays and is retried at a later due work.
      ++stats_.throttled;
      ++mine.throttled;
      return false;
    }
    return applied.status();
  }
  ++(superseded ? stats_.superseded : stats_.applied);
  ++(superseded ? mine.superseded : mine.applied);
  const int64_t latency = std::max<int64_t>(0, now - change.stamp_micros);
  stats_.latency_sum_micros += latency;
  stats_.latency_max_micros = std::max(stats_.latency_max_micros, latency);
  mine.latency.Add(latency);
  return true;
}

}  // namespace dynarock
