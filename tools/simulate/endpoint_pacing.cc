// tools/simulate/endpoint_pacing.cc

#include "tools/simulate/endpoint_pacing.h"

#include <algorithm>
#include <limits>
#include <thread>

#include "tools/simulate/endpoint_report.h"

namespace dynarock::tools::simulate {

PacedRun::PacedRun(EndpointSession& session, int64_t count,
                   std::function<int64_t(int64_t)> due_of)
    : session_(session),
      count_(count),
      due_of_(std::move(due_of)),
      t0_(std::chrono::steady_clock::now()) {}

int64_t PacedRun::NowMicros() const {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::steady_clock::now() - t0_)
      .count();
}

void PacedRun::Push(DueTask task) {
  pushed_.push(task);
  cv_.notify_all();
}

// Waits (with `lock` held) until a task is due, the earlier of the next
// scheduled one and the first pushed, and takes it; false when the run is
// over for this client.
bool PacedRun::Take(std::unique_lock<std::mutex>& lock, DueTask* task) {
  while (true) {
    if (session_.interrupted()) interrupted_ = true;
    if (interrupted_ || stopped_) return false;
    if (pushed_.empty() && next_ >= count_) {
      if (in_flight_ == 0) return false;
      cv_.wait_for(lock, std::chrono::milliseconds(50));
      continue;
    }
    const int64_t scheduled_due =
        next_ < count_ ? due_of_(next_) : std::numeric_limits<int64_t>::max();
    const bool take_pushed = !pushed_.empty() && pushed_.top().due <= scheduled_due;
    const int64_t due = take_pushed ? pushed_.top().due : scheduled_due;
    const int64_t now = NowMicros();
    if (now < due) {
      cv_.wait_for(lock, std::chrono::microseconds(std::min<int64_t>(due - now, 50'000)));
      continue;
    }
    if (take_pushed) {
      *task = pushed_.top();
      pushed_.pop();
    } else {
      *task = DueTask{due, next_++, 0};
    }
    lags_.push_back(now - due);
    return true;
  }
}

void PacedRun::Run(int clients, std::string_view operation,
                   const std::function<std::string(const DueTask&)>& prepare,
                   const std::function<void(const DueTask&, const api::Response&, int64_t,
                                            int64_t)>& answer) {
  auto client_loop = [&] {
    std::unique_ptr<http::DynamoDbHttpClient> client = session_.NewClient();
    std::unique_lock<std::mutex> lock(mu_);
    DueTask task;
    while (Take(lock, &task)) {
      ++in_flight_;
      lock.unlock();
      const std::string body = prepare(task);
      const int64_t sent = NowMicros();
      api::Response r = session_.Call(*client, operation, body);
      const int64_t done = NowMicros();
      lock.lock();
      --in_flight_;
      if (r.http_status != 0) latencies_.push_back(done - sent);
      answer(task, r, sent, done);
      cv_.notify_all();
    }
    cv_.notify_all();
  };
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) threads.emplace_back(client_loop);
  for (std::thread& t : threads) t.join();
}

double PacedRun::LatencyMs(double p) {
  std::lock_guard<std::mutex> lock(mu_);
  return PercentileMs(latencies_, p);
}

double PacedRun::SendLagMs(double p) {
  std::lock_guard<std::mutex> lock(mu_);
  return PercentileMs(lags_, p);
}

}  // namespace dynarock::tools::simulate
