#include "engine/facade/due_work_timer.h"

namespace dynarock {

DueWorkTimer::DueWorkTimer(Engine* engine, std::chrono::microseconds period)
    : thread_([this, engine, period] {
        std::unique_lock lock(mu_);
        while (!stop_) {
          if (cv_.wait_for(lock, period, [this] { return stop_; })) break;
          lock.unlock();
          engine->RunDueWork();
          lock.lock();
        }
      }) {}

DueWorkTimer::~DueWorkTimer() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

}  // namespace dynarock
