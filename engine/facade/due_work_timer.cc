#include "engine/facade/due_work_timer.h"

namespace dynarock {

DueWorkTimer::DueWorkTimer(std::function<bool()> run, std::chrono::microseconds period)
    : thread_([this, run = std::move(run), period] {
        std::unique_lock lock(mu_);
        bool more = true;  // at once when started (a restart's due work)
        while (!stop_) {
          if (!more && cv_.wait_for(lock, period, [this] { return stop_; })) break;
          lock.unlock();
          more = run();
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
