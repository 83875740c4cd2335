// tools/simulate/endpoint_pacing.h
//
// A schedule of requests run in real time against an endpoint by a bounded
// number of client threads (`simulate ... --endpoint --clients K`). Tasks
// are due at a time (micros from the run's start): `count` scheduled ones,
// task i due at due_of(i), and those the run pushes as it goes (a throttled
// request's retry after its backoff, a reader's next page). Each client
// takes the task due earliest once it is due, sends it without the lock,
// and hands the answer back under the lock, so that the endpoint sees the
// schedule as far as K connections can keep it; how late the sends ran is
// measured (SendLagMs). The run ends when no task is left, none is in
// flight and no more are scheduled, or when the session is interrupted or
// the run stopped.
//
// Thread-safe as described: `prepare` runs without the lock and may read
// only the state of its own task (a task is in one client's hands at a
// time, and the lock orders its hand-overs); `answer` runs under the lock
// and may Push and Stop.

#ifndef DYNAROCK_TOOLS_SIMULATE_ENDPOINT_PACING_H_
#define DYNAROCK_TOOLS_SIMULATE_ENDPOINT_PACING_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <queue>
#include <string>
#include <string_view>
#include <vector>

#include "api/client.h"
#include "tools/simulate/endpoint_session.h"

namespace dynarock::tools::simulate {

struct DueTask {
  int64_t due = 0;  // micros from the run's start
  int64_t id = 0;
  int attempt = 0;  // retries so far
  bool operator>(const DueTask& t) const { return due > t.due; }
};

class PacedRun {
 public:
  // `due_of` must not decrease with i.
  PacedRun(EndpointSession& session, int64_t count, std::function<int64_t(int64_t)> due_of);

  // Runs `clients` threads, each with a connection of its own, sending
  // `operation` with the body prepare(task), until the run ends; then
  // returns. answer(task, response, sent, done) gets each answer (micros
  // from the start).
  void Run(int clients, std::string_view operation,
           const std::function<std::string(const DueTask&)>& prepare,
           const std::function<void(const DueTask&, const api::Response&, int64_t sent,
                                    int64_t done)>& answer);

  // From `answer`: another task (a retry, a next page).
  void Push(DueTask task);
  // From `answer`: take no further task.
  void Stop() { stopped_ = true; }

  int64_t NowMicros() const;
  // Latency of the answered requests (HTTP answers; transport failures
  // excluded) and how late sends ran against their due times, ms.
  double LatencyMs(double p);
  double SendLagMs(double p);
  bool interrupted() const { return interrupted_; }

 private:
  bool Take(std::unique_lock<std::mutex>& lock, DueTask* task);

  EndpointSession& session_;
  const int64_t count_;
  const std::function<int64_t(int64_t)> due_of_;
  const std::chrono::steady_clock::time_point t0_;
  std::mutex mu_;
  std::condition_variable cv_;
  // Guarded by mu_.
  std::priority_queue<DueTask, std::vector<DueTask>, std::greater<DueTask>> pushed_;
  int64_t next_ = 0;  // the next scheduled task not yet taken
  int in_flight_ = 0;
  bool stopped_ = false;
  bool interrupted_ = false;
  std::vector<int64_t> latencies_;
  std::vector<int64_t> lags_;
};

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_ENDPOINT_PACING_H_
