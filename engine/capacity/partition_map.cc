#include "engine/capacity/partition_map.h"

#include <algorithm>
#include <cassert>

namespace dynarock {

namespace {

using uint128 = unsigned __int128;

constexpr uint128 kRing = uint128{1} << 64;

uint128 EndOf(uint64_t end) { return end == 0 ? kRing : uint128{end}; }

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

Partition::Partition(uint32_t id, uint64_t begin, uint64_t end,
                     const PartitionCeilings& ceilings, int64_t now_micros)
    : id(id),
      begin(begin),
      end(end),
      read(ceilings.read_units_per_second, ceilings.read_units_per_second,
           now_micros),
      write(ceilings.write_units_per_second, ceilings.write_units_per_second,
            now_micros) {}

uint64_t Partition::Midpoint() const {
  return static_cast<uint64_t>(begin + (EndOf(end) - begin) / 2);
}

PartitionMap::PartitionMap(int count, const PartitionCeilings& ceilings,
                           int64_t now_micros)
    : ceilings_(ceilings), next_id_(static_cast<uint32_t>(count)) {
  assert(count >= 1);
  partitions_.reserve(static_cast<size_t>(count));
  begins_.reserve(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    const auto begin = static_cast<uint64_t>(kRing * i / count);
    const auto end = static_cast<uint64_t>(kRing * (i + 1) / count);  // 2^64 -> 0
    partitions_.push_back(std::make_unique<Partition>(
        static_cast<uint32_t>(i), begin, end, ceilings, now_micros));
    begins_.push_back(begin);
  }
}

size_t PartitionMap::IndexOf(uint64_t hash) const {
  // The last partition whose begin <= hash; begins_[0] == 0.
  auto it = std::upper_bound(begins_.begin(), begins_.end(), hash);
  return static_cast<size_t>(it - begins_.begin()) - 1;
}

bool PartitionMap::Split(size_t i, uint64_t at, int64_t left_items,
                         int64_t left_bytes, int64_t right_items,
                         int64_t right_bytes, int64_t now_micros) {
  Partition& p = *partitions_[i];
  if (at <= p.begin || uint128{at} >= EndOf(p.end)) return false;
  auto left = std::make_unique<Partition>(next_id_++, p.begin, at, ceilings_,
                                          now_micros);
  auto right = std::make_unique<Partition>(next_id_++, at, p.end, ceilings_,
                                           now_micros);
  left->items = left_items;
  left->bytes = left_bytes;
  right->items = right_items;
  right->bytes = right_bytes;
  partitions_[i] = std::move(left);
  partitions_.insert(partitions_.begin() + static_cast<ptrdiff_t>(i) + 1,
                     std::move(right));
  begins_.insert(begins_.begin() + static_cast<ptrdiff_t>(i) + 1, at);
  return true;
}

void PartitionMap::SetCeilings(const PartitionCeilings& ceilings,
                               int64_t now_micros) {
  ceilings_ = ceilings;
  for (auto& p : partitions_) {
    p->read.SetRate(ceilings.read_units_per_second,
                    ceilings.read_units_per_second, now_micros);
    p->write.SetRate(ceilings.write_units_per_second,
                     ceilings.write_units_per_second, now_micros);
  }
}

int InitialPartitionCount(int64_t read_capacity_units,
                          int64_t write_capacity_units,
                          const PartitionCeilings& ceilings) {
  const int64_t r = ceilings.read_units_per_second;
  const int64_t w = ceilings.write_units_per_second;
  // ceil(rcu / r + wcu / w) in integers: ceil((rcu * w + wcu * r) / (r * w)).
  const int64_t n = CeilDiv(read_capacity_units * w + write_capacity_units * r,
                            r * w);
  return static_cast<int>(std::max<int64_t>(1, n));
}

int PartitionsToServe(int64_t read_units, int64_t write_units,
                      const PartitionCeilings& ceilings) {
  const int64_t n =
      std::max(CeilDiv(read_units, ceilings.read_units_per_second),
               CeilDiv(write_units, ceilings.write_units_per_second));
  return static_cast<int>(std::max<int64_t>(1, n));
}

}  // namespace dynarock
