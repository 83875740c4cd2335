// engine/clock.h
//
// Clock is the one source of time for everything time-dependent in the
// engine: table status delays, creation timestamps, and later token-bucket
// refill and GSI lag. RealClock reads the system clock; SimulatedClock only
// moves when its owner advances it, so simulations are deterministic and
// tests never sleep.
//
// Both implementations are thread-safe.

#ifndef DYNAROCK_ENGINE_CLOCK_H_
#define DYNAROCK_ENGINE_CLOCK_H_

#include <atomic>
#include <cstdint>

namespace dynarock {

// What Engine::DescribeClock answers.
struct ClockState {
  bool simulated = false;
  int64_t now_micros = 0;  // since the Unix epoch
};

class Clock {
 public:
  virtual ~Clock() = default;
  // Microseconds since the Unix epoch.
  virtual int64_t NowMicros() const = 0;
};

// Wall-clock time.
class RealClock final : public Clock {
 public:
  int64_t NowMicros() const override;
  // A process-wide instance; never destroyed.
  static RealClock* Default();
};

// Time that only moves when Advance() or Set() is called: a simulator's
// clock, owned by the program. Move it forward only. Engines read it in each
// call; the background work that falls due (GSI lag, TTL sweeps, stream
// upkeep) runs in the next engine call or Engine::RunDueWork, not when the
// clock moves. docs/embedding.md has the rules of a simulation on it.
class SimulatedClock final : public Clock {
 public:
  explicit SimulatedClock(int64_t start_micros = 1'700'000'000'000'000)
      : now_(start_micros) {}
  int64_t NowMicros() const override {
    return now_.load(std::memory_order_acquire);
  }
  // REQUIRES: micros >= 0
  void Advance(int64_t micros) {
    now_.fetch_add(micros, std::memory_order_acq_rel);
  }
  void Set(int64_t micros) { now_.store(micros, std::memory_order_release); }

 private:
  std::atomic<int64_t> now_;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CLOCK_H_
