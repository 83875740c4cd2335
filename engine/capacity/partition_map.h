// engine/capacity/partition_map.h
//
// The partitions of one table or one GSI: contiguous ranges [begin, end) of
// the 64-bit partition-hash ring (keys::PartitionHash) that together cover
// it, found by hash in O(log n). Each partition carries its size (items,
// bytes), its read and write buckets at the per-partition ceilings (DynamoDB:
// 3,000 RCU/s and 1,000 WCU/s; capacity one second of the rate), its usage
// per second and a small sample of recently charged hashes (for split for
// heat). Partitions split in two; they never merge.
//
// `end` == 0 stands for 2^64, the end of the ring (only the last partition's).
//
// Not thread-safe; the ThroughputController serializes access per table.
// A Partition& stays valid until the next Split.

#ifndef DYNAROCK_ENGINE_CAPACITY_PARTITION_MAP_H_
#define DYNAROCK_ENGINE_CAPACITY_PARTITION_MAP_H_

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/capacity/token_bucket.h"
#include "engine/capacity/usage_stats.h"

namespace dynarock {

// Per-partition throughput ceilings, units per second.
struct PartitionCeilings {
  int64_t read_units_per_second = 3000;
  int64_t write_units_per_second = 1000;
};

// How many seconds of per-second usage a partition keeps (the longest window).
inline constexpr int kPartitionUsageSeconds = 300;
// How many recently charged hashes a partition remembers for split for heat.
inline constexpr size_t kRecentHashes = 32;

struct Partition {
  Partition(uint32_t id, uint64_t begin, uint64_t end,
            const PartitionCeilings& ceilings, int64_t now_micros);

  uint32_t id;
  uint64_t begin;
  uint64_t end;  // exclusive; 0 = the end of the ring
  int64_t items = 0;
  int64_t bytes = 0;
  TokenBucket read;
  TokenBucket write;
  UsageRing usage{kPartitionUsageSeconds};

  // Split for heat: the clock time since which every completed second used
  // at least the heat fraction of a ceiling (-1: not hot), and the second
  // last examined.
  int64_t hot_since_micros = -1;
  int64_t heat_checked_second = -1;
  // A ring of the hashes most recently charged here.
  std::array<uint64_t, kRecentHashes> recent_hashes{};
  uint32_t recent_count = 0;  // total ever noted; ring index = count % size

  bool Contains(uint64_t hash) const {
    return hash >= begin && (end == 0 || hash < end);
  }
  void NoteHash(uint64_t hash) {
    recent_hashes[recent_count++ % kRecentHashes] = hash;
  }
  // The hash halfway through [begin, end).
  uint64_t Midpoint() const;
};

class PartitionMap {
 public:
  // `count` partitions of equal width covering the ring, ids 0..count-1.
  // REQUIRES: count >= 1
  PartitionMap(int count, const PartitionCeilings& ceilings,
               int64_t now_micros);

  size_t size() const { return partitions_.size(); }
  // The partition holding `hash`, and its position (partitions are in ring
  // order).
  size_t IndexOf(uint64_t hash) const;
  Partition& Find(uint64_t hash) { return *partitions_[IndexOf(hash)]; }
  Partition& at(size_t i) { return *partitions_[i]; }
  const Partition& at(size_t i) const { return *partitions_[i]; }

  // Splits partition `i` at `at` into [begin, at) and [at, end), two new
  // partitions with new ids, fresh full buckets and fresh usage, sized as
  // the caller says. Returns false (and changes nothing) unless `at` lies
  // strictly inside the partition's range.
  bool Split(size_t i, uint64_t at, int64_t left_items, int64_t left_bytes,
             int64_t right_items, int64_t right_bytes, int64_t now_micros);

  // Re-rates every partition's buckets (keeping their balances, capped).
  void SetCeilings(const PartitionCeilings& ceilings, int64_t now_micros);
  const PartitionCeilings& ceilings() const { return ceilings_; }

 private:
  PartitionCeilings ceilings_;
  uint32_t next_id_;
  std::vector<std::unique_ptr<Partition>> partitions_;  // ring order
  std::vector<uint64_t> begins_;  // begins_[i] == partitions_[i]->begin
};

// The partitions a provisioned table (or GSI) starts with:
// ceil(rcu / read ceiling + wcu / write ceiling), at least 1.
int InitialPartitionCount(int64_t read_capacity_units,
                          int64_t write_capacity_units,
                          const PartitionCeilings& ceilings);

// The partitions needed to serve `read` and `write` units per second at
// once (each partition serves both ceilings): the larger of the two
// quotients, rounded up, at least 1. An on-demand table's count.
int PartitionsToServe(int64_t read_units, int64_t write_units,
                      const PartitionCeilings& ceilings);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CAPACITY_PARTITION_MAP_H_
