// engine/data/item_locks.h
//
// Per-item concurrency control for writes.
//
// Stripes: mutexes keyed by an item's storage key. Writers of the same item
// serialize, so read-old / compute-new / write is atomic per item, while
// writers of different items rarely contend. Held only for the few
// microseconds of one write.
//
// Marks: the items a TransactWriteItems is working on, held for the whole
// transaction (from before its first read to after its commit). Marking
// never waits: TryMark refuses an item another transaction holds, and a
// single-item write finding its item marked is refused (DynamoDB's
// TransactionConflict), as DynamoDB refuses them rather than queue them.
// Unmarked items cost a write one atomic load.
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_DATA_ITEM_LOCKS_H_
#define DYNAROCK_ENGINE_DATA_ITEM_LOCKS_H_

#include <xxhash.h>

#include <array>
#include <atomic>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace dynarock {

class ItemLocks {
 public:
  static constexpr size_t kStripes = 1024;

  std::mutex& For(std::string_view item_key) {
    return stripes_[XXH3_64bits(item_key.data(), item_key.size()) % kStripes];
  }
  // Stripe `i` (< kStripes). Locking every stripe in index order (the
  // address order multi-item writers lock in) stops all writes for a moment:
  // global tables' replica creation (engine/replication/global_tables.h).
  std::mutex& Stripe(size_t i) { return stripes_[i]; }

  // Marks every key of `item_keys` for one transaction, or none: returns
  // the positions (in `item_keys`) of the keys another transaction holds,
  // empty on success. REQUIRES: the keys are distinct.
  std::vector<size_t> TryMark(const std::vector<std::string>& item_keys);
  // Releases marks taken by a successful TryMark.
  void Unmark(const std::vector<std::string>& item_keys);
  // Whether a transaction holds `item_key` now.
  bool IsMarked(std::string_view item_key) const;

 private:
  static constexpr size_t kMarkShards = 64;
  struct MarkShard {
    mutable std::mutex mu;
    std::unordered_set<std::string> keys;  // guarded by mu
  };
  MarkShard& ShardOf(std::string_view item_key) const {
    return mark_shards_[XXH3_64bits(item_key.data(), item_key.size()) %
                        kMarkShards];
  }

  std::array<std::mutex, kStripes> stripes_;
  // How many keys are marked: lets IsMarked skip the shards when none is.
  std::atomic<int64_t> marked_{0};
  mutable std::array<MarkShard, kMarkShards> mark_shards_;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_DATA_ITEM_LOCKS_H_
