#include "engine/data/item_locks.h"

namespace dynarock {

std::vector<size_t> ItemLocks::TryMark(const std::vector<std::string>& item_keys) {
  std::vector<size_t> held;
  std::vector<size_t> marked;
  // Counted before the keys are visible, so that IsMarked never misses one.
  marked_.fetch_add(static_cast<int64_t>(item_keys.size()),
                    std::memory_order_seq_cst);
  for (size_t i = 0; i < item_keys.size(); ++i) {
    MarkShard& shard = ShardOf(item_keys[i]);
    std::lock_guard<std::mutex> lock(shard.mu);
    if (shard.keys.insert(item_keys[i]).second) {
      marked.push_back(i);
    } else {
      held.push_back(i);
    }
  }
  if (!held.empty()) {
    for (size_t i : marked) {
      MarkShard& shard = ShardOf(item_keys[i]);
      std::lock_guard<std::mutex> lock(shard.mu);
      shard.keys.erase(item_keys[i]);
    }
  }
  const size_t kept = held.empty() ? item_keys.size() : 0;
  marked_.fetch_sub(static_cast<int64_t>(item_keys.size() - kept),
                    std::memory_order_seq_cst);
  return held;
}

void ItemLocks::Unmark(const std::vector<std::string>& item_keys) {
  for (const std::string& key : item_keys) {
    MarkShard& shard = ShardOf(key);
    std::lock_guard<std::mutex> lock(shard.mu);
    shard.keys.erase(key);
  }
  marked_.fetch_sub(static_cast<int64_t>(item_keys.size()),
                    std::memory_order_seq_cst);
}

bool ItemLocks::IsMarked(std::string_view item_key) const {
  if (marked_.load(std::memory_order_seq_cst) == 0) return false;
  MarkShard& shard = ShardOf(item_key);
  std::lock_guard<std::mutex> lock(shard.mu);
  return shard.keys.find(std::string(item_key)) != shard.keys.end();
}

}  // namespace dynarock
