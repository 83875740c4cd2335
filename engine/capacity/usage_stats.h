// engine/capacity/usage_stats.h
//
// What a partition, a table or a GSI consumed and had throttled, counted per
// clock second in a ring (UsageRing) so that windows (the last 1 s, 60 s,
// 300 s) and per-second peaks are cheap to read; and the hottest partition
// keys (HotKeys), a bounded space-saving top-k.
//
// A window of N seconds is the seconds (now_s - N, now_s], where now_s is the
// clock second containing `now`: the current, partial, second included.
//
// Not thread-safe; the ThroughputController serializes access per table.

#ifndef DYNAROCK_ENGINE_CAPACITY_USAGE_STATS_H_
#define DYNAROCK_ENGINE_CAPACITY_USAGE_STATS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/capacity/capacity_stats.h"

namespace dynarock {

// The clock second containing `now_micros`.
inline int64_t SecondOf(int64_t now_micros) { return now_micros / 1'000'000; }

class UsageRing {
 public:
  // Keeps the last `seconds` seconds. REQUIRES: seconds >= 1
  explicit UsageRing(int seconds);

  void Add(int64_t now_micros, const Usage& delta);
  // The sum over the last `seconds` seconds (at most the ring's length).
  Usage Window(int64_t now_micros, int seconds) const;
  // What was counted in clock second `second` (zero if out of the ring).
  Usage AtSecond(int64_t second) const;
  // Everything ever added.
  const Usage& total() const { return total_; }
  // The largest consumed read and write units of one COMPLETED second among
  // the last `seconds` seconds before the one containing `now`.
  void CompletedPeak(int64_t now_micros, int seconds, double* read,
                     double* write) const;

 private:
  struct Slot {
    int64_t second = INT64_MIN;
    Usage usage;
  };
  std::vector<Slot> slots_;
  Usage total_;
};

// Space-saving top-k by consumed units (Metwally et al.): at most `capacity`
// keys are tracked; an untracked key replaces the one with the fewest units.
// Counts are since creation (no decay). Updates allocate nothing once the
// entries exist, except to grow a replaced key's string.
class HotKeys {
 public:
  explicit HotKeys(size_t capacity);

  void Consumed(uint64_t hash, std::string_view key, double read_units,
                double write_units);
  // Counted only when the key is tracked; never evicts.
  void Throttled(uint64_t hash, double units);
  // The `k` keys with the most units, most first (ties: smaller hash first).
  std::vector<HotKey> Top(size_t k) const;

 private:
  size_t capacity_;
  // Parallel arrays: the scans on every update read only the compact
  // hashes_ (and units_ on a miss), not the entries.
  std::vector<uint64_t> hashes_;
  std::vector<double> units_;
  std::vector<HotKey> entries_;  // units kept in units_ until Top()
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CAPACITY_USAGE_STATS_H_
