// engine/util/latency_samples.h
//
// LatencySamples keeps the most recent `capacity` durations of something
// (GSI propagation lag, replication latency) and answers their percentiles,
// so that a distribution is reported from one bounded buffer rather than
// from a running sum. Not thread-safe: its owner's lock guards it.

#ifndef DYNAROCK_ENGINE_UTIL_LATENCY_SAMPLES_H_
#define DYNAROCK_ENGINE_UTIL_LATENCY_SAMPLES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dynarock {

// Percentiles of a set of samples (all 0 when there is none).
struct LatencyPercentiles {
  int64_t samples = 0;
  int64_t p50 = 0;
  int64_t p99 = 0;
  int64_t max = 0;
};

class LatencySamples {
 public:
  explicit LatencySamples(size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

  // Keeps `value`, replacing the oldest sample once `capacity` are kept.
  void Add(int64_t value);
  // The nearest-rank percentiles of the kept samples (sorts a copy).
  LatencyPercentiles Percentiles() const;
  size_t size() const { return samples_.size(); }

 private:
  size_t capacity_;
  std::vector<int64_t> samples_;
  size_t next_ = 0;  // the oldest sample once the buffer is full
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_UTIL_LATENCY_SAMPLES_H_
