// tools/simulate/event_loop.cc

#include "tools/simulate/event_loop.h"

#include <algorithm>

namespace dynarock::tools::simulate {

void EventLoop::Schedule(int64_t at_micros, int worker) {
  queue_.push(Event{at_micros, worker});
}

int64_t EventLoop::Run(const std::function<void(int worker)>& handler) {
  int64_t last = clock_->NowMicros();
  while (!queue_.empty()) {
    Event e = queue_.top();
    queue_.pop();
    if (e.at > clock_->NowMicros()) clock_->Set(e.at);
    last = clock_->NowMicros();
    handler(e.worker);
  }
  return last;
}

int64_t ExponentialBackoff::CeilingMicros(int attempt) const {
  int64_t ceiling = options_.base_micros;
  for (int i = 0; i < attempt && ceiling < options_.cap_micros; ++i) {
    ceiling *= 2;
  }
  return std::min(ceiling, options_.cap_micros);
}

int64_t ExponentialBackoff::DelayMicros(int attempt) {
  // Full jitter; the distribution is written out (not
  // std::uniform_int_distribution) so that every standard library draws the
  // same delays from the same seed.
  const uint64_t bound = static_cast<uint64_t>(CeilingMicros(attempt)) + 1;
  return static_cast<int64_t>(rng_() % bound);
}

}  // namespace dynarock::tools::simulate
