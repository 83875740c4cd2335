#include "engine/transfer/job_thread.h"

#include <utility>

namespace dynarock {

void JobThread::Post(std::function<void()> job) {
  {
    MutexLock lock(&mu_);
    if (stop_.load()) return;
    queue_.push_back(std::move(job));
    if (!thread_.joinable()) thread_ = std::thread([this] { Loop(); });
  }
  wake_.notify_all();
}

void JobThread::WaitIdle() {
  MutexLock lock(&mu_);
  while (!stop_.load() && (running_ || !queue_.empty())) wake_.wait(mu_);
}

void JobThread::Stop() {
  std::thread thread;
  {
    MutexLock lock(&mu_);
    stop_.store(true);
    queue_.clear();
    thread = std::move(thread_);
  }
  wake_.notify_all();
  if (thread.joinable()) thread.join();
}

void JobThread::Loop() {
  for (;;) {
    std::function<void()> job;
    {
      MutexLock lock(&mu_);
      while (!stop_.load() && queue_.empty()) wake_.wait(mu_);
      if (stop_.load()) return;
      job = std::move(queue_.front());
      queue_.pop_front();
      running_ = true;
    }
    job();
    {
      MutexLock lock(&mu_);
      running_ = false;
    }
    wake_.notify_all();
  }
}

}  // namespace dynarock
