#include "engine/util/latency_samples.h"

#include <algorithm>

namespace dynarock {

void LatencySamples::Add(int64_t value) {
  if (samples_.size() < capacity_) {
    samples_.push_back(value);
    return;
  }
  samples_[next_] = value;
  next_ = (next_ + 1) % capacity_;
}

LatencyPercentiles LatencySamples::Percentiles() const {
  LatencyPercentiles p;
  if (samples_.empty()) return p;
  std::vector<int64_t> sorted = samples_;
  std::sort(sorted.begin(), sorted.end());
  auto at = [&](double q) {
    size_t i = static_cast<size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
    return sorted[std::min(i, sorted.size() - 1)];
  };
  p.samples = static_cast<int64_t>(sorted.size());
  p.p50 = at(0.50);
  p.p99 = at(0.99);
  p.max = sorted.back();
  return p;
}

}  // namespace dynarock
