#include "engine/capacity/usage_stats.h"

#include <algorithm>
#include <cassert>

namespace dynarock {

Usage& Usage::operator+=(const Usage& o) {
  consumed_read_units += o.consumed_read_units;
  consumed_write_units += o.consumed_write_units;
  throttled_read_units += o.throttled_read_units;
  throttled_write_units += o.throttled_write_units;
  throttled_read_requests += o.throttled_read_requests;
  throttled_write_requests += o.throttled_write_requests;
  ttl_deleted_items += o.ttl_deleted_items;
  return *this;
}

UsageRing::UsageRing(int seconds) : slots_(static_cast<size_t>(seconds)) {
  assert(seconds >= 1);
}

void UsageRing::Add(int64_t now_micros, const Usage& delta) {
  const int64_t second = SecondOf(now_micros);
  Slot& slot = slots_[static_cast<size_t>(second) % slots_.size()];
  if (slot.second != second) {
    slot.second = second;
    slot.usage = Usage();
  }
  slot.usage += delta;
  total_ += delta;
}

Usage UsageRing::AtSecond(int64_t second) const {
  const Slot& slot = slots_[static_cast<size_t>(second) % slots_.size()];
  return slot.second == second ? slot.usage : Usage();
}

Usage UsageRing::Window(int64_t now_micros, int seconds) const {
  const int64_t now_s = SecondOf(now_micros);
  const int64_t n =
      std::min<int64_t>(seconds, static_cast<int64_t>(slots_.size()));
  Usage sum;
  for (const Slot& slot : slots_) {
    if (slot.second <= now_s && slot.second > now_s - n) sum += slot.usage;
  }
  return sum;
}

void UsageRing::CompletedPeak(int64_t now_micros, int seconds, double* read,
                              double* write) const {
  const int64_t now_s = SecondOf(now_micros);
  *read = 0;
  *write = 0;
  for (const Slot& slot : slots_) {
    if (slot.second < now_s && slot.second >= now_s - seconds) {
      *read = std::max(*read, slot.usage.consumed_read_units);
      *write = std::max(*write, slot.usage.consumed_write_units);
    }
  }
}

HotKeys::HotKeys(size_t capacity) : capacity_(capacity) {
  hashes_.reserve(capacity);
  units_.reserve(capacity);
  entries_.reserve(capacity);
}

void HotKeys::Consumed(uint64_t hash, std::string_view key, double read_units,
                       double write_units) {
  if (capacity_ == 0) return;
  const double units = read_units + write_units;
  const size_t n = hashes_.size();
  size_t i = 0;
  while (i < n && hashes_[i] != hash) ++i;
  if (i < n) {
    units_[i] += units;
    entries_[i].read_units += read_units;
    entries_[i].write_units += write_units;
    return;
  }
  if (n < capacity_) {
    hashes_.push_back(hash);
    units_.push_back(units);
    entries_.push_back(
        HotKey{hash, std::string(key), 0, read_units, write_units, 0, 0});
    return;
  }
  // Replace the key with the fewest units; it passes its count on as the
  // newcomer's possible overestimate.
  size_t min = 0;
  for (size_t j = 1; j < n; ++j) {
    if (units_[j] < units_[min]) min = j;
  }
  HotKey& e = entries_[min];
  hashes_[min] = hash;
  e.hash = hash;
  e.key.assign(key);
  e.overestimate = units_[min];
  units_[min] += units;
  e.read_units = read_units;
  e.write_units = write_units;
  e.throttled_units = 0;
}

void HotKeys::Throttled(uint64_t hash, double units) {
  for (size_t i = 0; i < hashes_.size(); ++i) {
    if (hashes_[i] == hash) {
      entries_[i].throttled_units += units;
      return;
    }
  }
}

std::vector<HotKey> HotKeys::Top(size_t k) const {
  std::vector<HotKey> out = entries_;
  for (size_t i = 0; i < out.size(); ++i) out[i].units = units_[i];
  std::sort(out.begin(), out.end(), [](const HotKey& a, const HotKey& b) {
    return a.units != b.units ? a.units > b.units : a.hash < b.hash;
  });
  if (out.size() > k) out.resize(k);
  return out;
}

}  // namespace dynarock
