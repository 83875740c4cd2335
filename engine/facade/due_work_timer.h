// engine/facade/due_work_timer.h
//
// DueWorkTimer calls Engine::RunDueWork every `period` of wall time until it
// is destroyed (EngineOptions::due_work_interval_micros), so that an idle
// engine sweeps expired items and trims streams; calls run the same work
// first. The Engine destroys it before anything the work uses.

#ifndef DYNAROCK_ENGINE_FACADE_DUE_WORK_TIMER_H_
#define DYNAROCK_ENGINE_FACADE_DUE_WORK_TIMER_H_

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "engine/engine.h"

namespace dynarock {

class DueWorkTimer {
 public:
  DueWorkTimer(Engine* engine, std::chrono::microseconds period);
  // Stops the thread; a RunDueWork in progress finishes first.
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
