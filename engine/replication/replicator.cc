#include "engine/replication/replicator.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "engine/clock.h"
#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"

namespace dynarock {

void Replicator::SetLag(uint32_t target_id, int64_t lag_micros) {
  MutexLock lock(&mu_);
  lags_[target_id] = std::max<int64_t>(0, lag_micros);
}

int64_t Replicator::Lag(uint32_t target_id) const {
  MutexLock lock(&mu_);
  auto it = lags_.find(target_id);
  return it == lags_.end() ? default_lag_ : it->second;
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

Status Replicator::RunDue(int64_t max_records) {
  if (!run_mu_.TryLock()) return Status::OK();
  Status first;
  int64_t budget = max_records;
  for (const ReplicationTarget& target : log_->AllTargets()) {
    if (budget <= 0) break;
    Status s = Drain(target, &budget);
    if (!s.ok() && first.ok()) first = std::move(s);
  }
  run_mu_.Unlock();
  return first;
}

Status Replicator::Drain(const ReplicationTarget& target, int64_t* budget) {
  std::shared_ptr<const TableInfo> table = catalog_->Find(target.ns, target.table_name);
  if (!table || table->id != target.table_id || table->deleting_since_micros) {
    return Status::OK();
  }
  const int64_t now = clock_->NowMicros();
  const int64_t due = now - Lag(target.table_id);
  if (due < 0) return Status::OK();
  // Read a chunk, then apply it: the iterator is not held across writes.
  std::vector<std::pair<std::string, std::string>> chunk;
  {
    auto it = store_->NewIterator(Cf::kMeta, ReplicationLog::LogBegin(target.table_id),
                                  ReplicationLog::LogEnd(target.table_id, due));
    for (it->SeekToFirst(); it->Valid() && static_cast<int64_t>(chunk.size()) < *budget;
         it->Next()) {
      chunk.emplace_back(std::string(it->key()), std::string(it->value()));
    }
    DR_RETURN_IF_ERROR(it->status());
  }
  const std::string prefix = keys::TablePrefix(table->id);
  for (const auto& [key, value] : chunk) {
    --*budget;
    DR_ASSIGN_OR_RETURN(ReplicationLog::Record record,
                        ReplicationLog::ParseRecord(key, value));
    ReplicatedChange change{record.stamp_micros, std::string(record.origin), key};
    const std::string item_key = prefix + std::string(record.suffix);
    const std::string version_key = ReplicationLog::VersionKey(table->id, record.suffix);
    bool superseded = false;
    const ItemVersion incoming{change.stamp_micros, change.origin_region};
    auto mutation = [&](const std::optional<Item>&) -> Result<ItemChange> {
      // Under the item's lock: the stored version is the item's latest.
      DR_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                          store_->Get(Cf::kMeta, version_key));
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
    Result<std::optional<Item>> applied =
        writes_->ApplyReplicated(*table, item_key, mutation, change);
    MutexLock lock(&mu_);
    if (!applied.ok()) {
      const ErrorCode code = applied.status().code();
      if (code == ErrorCode::kProvisionedThroughputExceeded ||
          code == ErrorCode::kRequestLimitExceeded || code == ErrorCode::kThrottling ||
          code == ErrorCode::kTransactionConflict) {
        // The replica is out of capacity (or the item is in a transaction):
        // the record stays and is retried at a later due work.
        ++stats_.throttled;
        return Status::OK();
      }
      return applied.status();
    }
    ++(superseded ? stats_.superseded : stats_.applied);
    const int64_t latency = std::max<int64_t>(0, now - change.stamp_micros);
    stats_.latency_sum_micros += latency;
    stats_.latency_max_micros = std::max(stats_.latency_max_micros, latency);
  }
  return Status::OK();
}

}  // namespace dynarock
