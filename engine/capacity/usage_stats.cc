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
  entries_.reserve(capacity);
}

void HotKeys::Consumed(uint64_t hash, std::string_view key, double read_units,
                       double write_units) {
  if (capacity_ == 0) return;
  const double units = read_units + write_units;
  HotKey* min = nullptr;
  for (HotKey& e : entries_) {
    if (e.hash == hash) {
      e.units += units;
      e.read_units += read_units;
      e.write_units += write_units;
      return;
    }
    if (min == nullptr || e.units < min->units) min = &e;
  }
  if (entries_.size() < capacity_) {
    entries_.push_back(HotKey{hash, std::string(key), units, read_units,
                              write_units, 0, 0});
    return;
  }
  // Replace the key with the fewest units; it passes its count on as the
  // newcomer's possible overestimate.
  min->hash = hash;
  min->key.assign(key);
  min->overestimate = min->units;
  min->units += units;
  min->read_units = read_units;
  min->write_units = write_units;
  min->throttled_units = 0;
}

void HotKeys::Throttled(uint64_t hash, double units) {
  for (HotKey& e : entries_) {
    if (e.hash == hash) {
      e.throttled_units += units;
      return;
    }
  }
}

std::vector<HotKey> HotKeys::Top(size_t k) const {
  std::vector<HotKey> out = entries_;
  std::sort(out.begin(), out.end(), [](const HotKey& a, const HotKey& b) {
    return a.units != b.units ? a.units > b.units : a.hash < b.hash;
  });
  if (out.size() > k) out.resize(k);
  return out;
}

}  // namespace dynarock
