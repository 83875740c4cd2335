#include "engine/capacity/consumed_capacity.h"

namespace dynarock {

namespace {

int64_t RoundedUnits(int64_t bytes, int64_t unit_bytes) {
  if (bytes <= 0) return 1;
  return (bytes + unit_bytes - 1) / unit_bytes;
}

}  // namespace

double ReadUnits(int64_t bytes, bool consistent_read) {
  const double units = static_cast<double>(RoundedUnits(bytes, kReadUnitBytes));
  return consistent_read ? units : units / 2;
}

double WriteUnits(int64_t bytes) {
  return static_cast<double>(RoundedUnits(bytes, kWriteUnitBytes));
}

Capacity ConsumedCapacity::Total() const {
  Capacity total = table;
  for (const auto& [name, c] : global_secondary_indexes) total += c;
  for (const auto& [name, c] : local_secondary_indexes) total += c;
  return total;
}

void ConsumedCapacity::Merge(const ConsumedCapacity& other) {
  table += other.table;
  for (const auto& [name, c] : other.global_secondary_indexes) {
    global_secondary_indexes[name] += c;
  }
  for (const auto& [name, c] : other.local_secondary_indexes) {
    local_secondary_indexes[name] += c;
  }
  for (const auto& [name, bytes] : other.vector_indexes) {
    vector_indexes[name] += bytes;
  }
}

}  // namespace dynarock
