// engine/data/item_size_cache.h
//
// What the write path last knew of an item, kept so that a write that needs
// nothing of the old item but its existence and size (an unconditional
// PutItem on a table without indexes or a stream: billing is
// WriteUnits(max(old, new)) and the table's counters move by the
// difference) need not read it from the store.
//
// Entries are remembered by WritePath under the item's stripe lock
// (engine/data/item_locks.h): the state it read, or the state it wrote once
// the write committed. Since every item write goes through that lock, an
// entry stays the item's state until the next write of it, which replaces
// it. What bypasses the lock is a bulk change of the items column family (a
// range deletion or an ingestion: table deletion, restores, snapshots):
// Store::ItemsBulkGeneration moves after each, and every entry is tagged
// with the generation read BEFORE the read or write it records, so that
// entries older than a bulk change are never answered.
//
// Keys are kept as 96-bit fingerprints (XXH3-128) of the item's storage key:
// with a million entries the chance that two items share one is about
// 10^-17. Bounded: `max_entries` rounded up to a power of two per shard (less
// than twice as many), 16 bytes each; beyond it a new entry replaces an old
// one. Thread-safe.

#ifndef DYNAROCK_ENGINE_DATA_ITEM_SIZE_CACHE_H_
#define DYNAROCK_ENGINE_DATA_ITEM_SIZE_CACHE_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/util/mutex.h"

namespace dynarock {

class ItemSizeCache {
 public:
  // An item's state: absent, or present with its DynamoDB size in bytes.
  struct Known {
    bool exists = false;
    int64_t size = 0;
    bool operator==(const Known& o) const {
      return exists == o.exists && size == o.size;
    }
  };

  // `max_entries` 0 turns the cache off (Find always misses).
  explicit ItemSizeCache(size_t max_entries);
  ItemSizeCache(const ItemSizeCache&) = delete;
  ItemSizeCache& operator=(const ItemSizeCache&) = delete;

  // The state remembered for `item_key` under `generation` (the store's
  // ItemsBulkGeneration, read now); nullopt when none is.
  std::optional<Known> Find(std::string_view item_key, uint64_t generation);
  // Remembers `known` as the state of `item_key`, observed by a read or a
  // write that began after `generation` was read. Entries of an older
  // generation are dropped; a `generation` older than the newest seen is
  // not remembered. REQUIRES: the item's stripe lock is held.
  void Remember(std::string_view item_key, Known known, uint64_t generation);
  // Drops what is remembered for `item_key`.
  void Forget(std::string_view item_key);

  // Entries held now (for tests and memory accounting).
  size_t size() const;

 private:
  // One slot: the fingerprint's 96 bits and the state. `size` -1 is an
  // absent item. Fingerprints {0, 0} (an empty slot) and {0, 1} (a
  // forgotten entry) are reserved: an item's is nudged off them.
  struct Slot {
    uint64_t lo = 0;
    uint32_t hi = 0;
    int32_t size = 0;
  };
  static_assert(sizeof(Slot) == 16);
  struct Shard {
    mutable Mutex mu;
    uint64_t generation GUARDED_BY(mu) = 0;
    std::vector<Slot> slots GUARDED_BY(mu);  // empty or a power of two
    size_t used GUARDED_BY(mu) = 0;          // slots not empty
  };
  static constexpr size_t kShards = 64;
  // A slot lives at most this far (linearly) from its home position.
  static constexpr size_t kProbes = 16;

  struct Fingerprint {
    uint64_t lo;
    uint32_t hi;
    size_t shard;
  };
  static Fingerprint FingerprintOf(std::string_view item_key);
  // Drops every entry when `generation` is newer than the shard's; returns
  // whether the shard is now at `generation`.
  static bool Sync(Shard& s, uint64_t generation) REQUIRES(s.mu);
  // The slot holding `f` within kProbes of its home, or null.
  static Slot* Locate(std::vector<Slot>& slots, const Fingerprint& f);
  // Places `slot` into `slots` (its home from `slot.lo`): replaces the slot
  // with its fingerprint or takes a free one within kProbes; false when
  // neither exists.
  static bool Place(std::vector<Slot>& slots, const Slot& slot, size_t* used);
  // Doubles the shard's slots (or makes its first ones, at most
  // `max_slots`).
  static void Grow(Shard& s, size_t max_slots) REQUIRES(s.mu);

  const size_t max_slots_per_shard_;
  std::array<Shard, kShards> shards_;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_DATA_ITEM_SIZE_CACHE_H_
