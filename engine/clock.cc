#include "engine/clock.h"

#include <chrono>

namespace dynarock {

int64_t RealClock::NowMicros() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

RealClock* RealClock::Default() {
  static RealClock* clock = new RealClock();
  return clock;
}

}  // namespace dynarock
