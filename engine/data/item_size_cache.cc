#include "engine/data/item_size_cache.h"

#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cstdint>

namespace dynarock {
namespace {

constexpr size_t kFirstSlots = 64;

// Two fingerprints are reserved: an empty slot and a forgotten one.
bool Empty(const uint64_t lo, const uint32_t hi) { return lo == 0 && hi == 0; }
bool Forgotten(const uint64_t lo, const uint32_t hi) { return lo == 0 && hi == 1; }

}  // namespace

ItemSizeCache::ItemSizeCache(size_t max_entries)
    : max_slots_per_shard_(
          max_entries == 0 ? 0 : std::bit_ceil((max_entries + kShards - 1) / kShards)) {}

ItemSizeCache::Fingerprint ItemSizeCache::FingerprintOf(std::string_view item_key) {
  const XXH128_hash_t h = XXH3_128bits(item_key.data(), item_key.size());
  Fingerprint f;
  f.lo = h.low64;
  f.hi = static_cast<uint32_t>(h.high64);
  if (f.lo == 0 && f.hi <= 1) f.hi = 2;
  // The shard from bits the slot position (the low bits of lo) does not use.
  f.shard = static_cast<size_t>(h.high64 >> 58) % kShards;
  return f;
}

bool ItemSizeCache::Sync(Shard& s, uint64_t generation) {
  if (generation < s.generation) return false;
  if (generation > s.generation) {
    s.generation = generation;
    std::fill(s.slots.begin(), s.slots.end(), Slot());
    s.used = 0;
  }
  return true;
}

ItemSizeCache::Slot* ItemSizeCache::Locate(std::vector<Slot>& slots,
                                           const Fingerprint& f) {
  const size_t mask = slots.size() - 1;
  for (size_t i = 0; i < kProbes && i < slots.size(); ++i) {
    Slot& at = slots[(f.lo + i) & mask];
    if (at.lo == f.lo && at.hi == f.hi) return &at;
    if (Empty(at.lo, at.hi)) return nullptr;
  }
  return nullptr;
}

bool ItemSizeCache::Place(std::vector<Slot>& slots, const Slot& slot,
                          size_t* used) {
  const size_t mask = slots.size() - 1;
  for (size_t i = 0; i < kProbes && i < slots.size(); ++i) {
    Slot& at = slots[(slot.lo + i) & mask];
    if (at.lo == slot.lo && at.hi == slot.hi) {
      at.size = slot.size;
      return true;
    }
    if (Empty(at.lo, at.hi)) {
      at = slot;
      ++*used;
      return true;
    }
  }
  return false;
}

void ItemSizeCache::Grow(Shard& s, size_t max_slots) {
  std::vector<Slot> bigger(s.slots.empty() ? std::min(kFirstSlots, max_slots)
                                           : s.slots.size() * 2);
  size_t used = 0;
  // An entry that finds no room within kProbes of its new home is dropped:
  // it is a cache.
  for (const Slot& slot : s.slots) {
    if (!Empty(slot.lo, slot.hi) && !Forgotten(slot.lo, slot.hi)) {
      Place(bigger, slot, &used);
    }
  }
  s.slots.swap(bigger);
  s.used = used;
}

std::optional<ItemSizeCache::Known> ItemSizeCache::Find(std::string_view item_key,
                                                        uint64_t generation) {
  if (max_slots_per_shard_ == 0) return std::nullopt;
  const Fingerprint f = FingerprintOf(item_key);
  Shard& s = shards_[f.shard];
  MutexLock lock(&s.mu);
  if (!Sync(s, generation)) return std::nullopt;
  const Slot* at = Locate(s.slots, f);
  if (at == nullptr) return std::nullopt;
  return at->size < 0 ? Known{false, 0} : Known{true, at->size};
}

void ItemSizeCache::Remember(std::string_view item_key, Known known,
                             uint64_t generation) {
  if (max_slots_per_shard_ == 0) return;
  if (known.exists && (known.size < 0 || known.size > INT32_MAX)) {
    // Not a DynamoDB item's size (at most 400 KB): not kept.
    Forget(item_key);
    return;
  }
  const Fingerprint f = FingerprintOf(item_key);
  const Slot slot{f.lo, f.hi, known.exists ? static_cast<int32_t>(known.size) : -1};
  Shard& s = shards_[f.shard];
  MutexLock lock(&s.mu);
  if (!Sync(s, generation)) return;
  if (s.slots.size() < max_slots_per_shard_ &&
      (s.used + 1) * 4 > s.slots.size() * 3) {
    Grow(s, max_slots_per_shard_);
  }
  while (!Place(s.slots, slot, &s.used)) {
    if (s.slots.size() < max_slots_per_shard_) {
      Grow(s, max_slots_per_shard_);
      continue;
    }
    // Full around its home: the entry there gives way. Its neighbours stay
    // reachable (no slot in the run becomes empty).
    s.slots[f.lo & (s.slots.size() - 1)] = slot;
    return;
  }
}

void ItemSizeCache::Forget(std::string_view item_key) {
  if (max_slots_per_shard_ == 0) return;
  const Fingerprint f = FingerprintOf(item_key);
  Shard& s = shards_[f.shard];
  MutexLock lock(&s.mu);
  if (Slot* at = Locate(s.slots, f); at != nullptr) {
    // Not emptied (that would cut the runs of the entries after it): it
    // keeps its place but can no longer match any item.
    *at = Slot{0, 1, -1};
  }
}

size_t ItemSizeCache::size() const {
  size_t n = 0;
  for (const Shard& s : shards_) {
    MutexLock lock(&s.mu);
    n += s.used;
  }
  return n;
}

}  // namespace dynarock
