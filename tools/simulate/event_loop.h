// tools/simulate/event_loop.h
//
// The simulator's notion of concurrency: a tiny discrete-event loop over a
// SimulatedClock. Each worker (a simulated client thread) has at most one
// pending event, "ready at time t"; the loop pops the earliest (ties: the
// lower worker id), sets the clock to its time and calls the handler, which
// issues one engine request and schedules the worker's next event (when the
// response arrives, plus any retry backoff). The engine's token buckets see
// the requests in simulated-time order, so a run is fully deterministic.
//
// ExponentialBackoff is the SDK retry delay: full jitter, uniform in
// [0, min(cap, base * 2^attempt)], drawn from a seeded generator.
//
// Not thread-safe; one loop per simulation.

#ifndef DYNAROCK_TOOLS_SIMULATE_EVENT_LOOP_H_
#define DYNAROCK_TOOLS_SIMULATE_EVENT_LOOP_H_

#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <vector>

#include "engine/clock.h"

namespace dynarock::tools::simulate {

class EventLoop {
 public:
  // REQUIRES: clock outlives the loop.
  explicit EventLoop(SimulatedClock* clock) : clock_(clock) {}

  // Makes `worker` ready at `at_micros` (clock time). REQUIRES: at_micros is
  // not before the time of the event being handled.
  void Schedule(int64_t at_micros, int worker);

  // Handles events in time order until none is left; returns the time of the
  // last one handled (the clock's time at start when there were none). The
  // clock ends at that time.
  int64_t Run(const std::function<void(int worker)>& handler);

  size_t pending() const { return queue_.size(); }

 private:
  struct Event {
    int64_t at;
    int worker;
    bool operator>(const Event& o) const {
      return at != o.at ? at > o.at : worker > o.worker;
    }
  };
  SimulatedClock* clock_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> queue_;
};

struct BackoffOptions {
  // botocore's legacy retry mode for DynamoDB: 50 ms base (some SDKs, e.g.
  // the Java SDK v1, use 25 ms).
  int64_t base_micros = 50'000;
  int64_t cap_micros = 20'000'000;
};

class ExponentialBackoff {
 public:
  ExponentialBackoff(BackoffOptions options, uint64_t seed)
      : options_(options), rng_(seed) {}

  // The delay before retry `attempt` (0 for the first retry).
  int64_t DelayMicros(int attempt);
  // The bound the delay is drawn under.
  int64_t CeilingMicros(int attempt) const;

 private:
  BackoffOptions options_;
  std::mt19937_64 rng_;
};

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_EVENT_LOOP_H_
