// engine/facade/due_work_timer.h
//
// DueWorkTimer calls `run` (the engine's due work) once at start, then every
// `period` of wall time until it is destroyed (EngineOptions::due_work_interval_micros), so
// that an idle engine sweeps expired items and trims streams; calls run the
// same work first. When `run` says more work is due at once (a bulk put
// job's next step: each step is a bounded slice), it calls again without
// waiting. The Engine destroys it before anything the work uses.

#ifndef DYNAROCK_ENGINE_FACADE_DUE_WORK_TIMER_H_
#define DYNAROCK_ENGINE_FACADE_DUE_WORK_TIMER_H_

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace dynarock {

class DueWorkTimer {
 public:
  // `run` returns true when more work is due at once.
  DueWorkTimer(std::function<bool()> run, std::chrono::microseconds period);
  // Stops the thread; a `run` in progress finishes first.
  ~DueWorkTimer();
  DueWorkTimer(const DueWorkTimer&) = delete;
  DueWorkTimer& operator=(const DueWorkTimer&) = delete;

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool stop_ = false;   // guarded by mu_
  std::thread thread_;  // last: starts after the members it uses
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_FACADE_DUE_WORK_TIMER_H_
