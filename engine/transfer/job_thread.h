// engine/transfer/job_thread.h
//
// JobThread runs export and import jobs one at a time, in the order they
// were queued, on a thread of its own: a request that starts a job returns
// at once (IN_PROGRESS) and no request ever waits for one. Stop() ends the
// thread; the job running then sees stopping() turn true and gives up
// (its record stays IN_PROGRESS, and the next Open queues it again).
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_TRANSFER_JOB_THREAD_H_
#define DYNAROCK_ENGINE_TRANSFER_JOB_THREAD_H_

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <thread>

#include "engine/util/mutex.h"

namespace dynarock {

class JobThread {
 public:
  JobThread() = default;
  ~JobThread() { Stop(); }
  JobThread(const JobThread&) = delete;
  JobThread& operator=(const JobThread&) = delete;

  // Queues `job` (the thread starts with the first one).
  void Post(std::function<void()> job);
  // Returns once every job queued before the call has run.
  void WaitIdle();
  // Stops and joins the thread; queued jobs that did not start are
  // dropped. Idempotent.
  void Stop();
  // True once Stop() was called: a long job checks it between items.
  bool stopping() const { return stop_.load(std::memory_order_relaxed); }

 private:
  void Loop();

  Mutex mu_;
  std::condition_variable_any wake_;
  std::deque<std::function<void()>> queue_ GUARDED_BY(mu_);
  bool running_ GUARDED_BY(mu_) = false;  // a job is running
  std::atomic<bool> stop_{false};
  std::thread thread_;  // started by the first Post, under mu_
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TRANSFER_JOB_THREAD_H_
