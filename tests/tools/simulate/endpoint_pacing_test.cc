// tests/tools/simulate/endpoint_pacing_test.cc
//
// PacedRun against a real HTTP endpoint in this process (api::http::Server
// on a free port, with a Handler that records what arrived): every
// scheduled task sent once, never before it is due, in due order with the
// tasks pushed from answers; at most `clients` requests in flight; Stop and
// an interruption end the run. The Handler stands in for DynamoDB because
// the pacing does not depend on what the endpoint answers, only on when it
// answers; the experiments' requests are run against `dynarock serve` by
// tests/e2e/test_simulate_endpoint.py.

#include "tools/simulate/endpoint_pacing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "api/http/server.h"

namespace dynarock::tools::simulate {
namespace {

using namespace std::chrono_literals;

// Bodies are "<id>/<attempt>".
std::string BodyOf(const DueTask& t) {
  return std::to_string(t.id) + "/" + std::to_string(t.attempt);
}

class EndpointPacingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent", 1);
    ::setenv("AWS_CONFIG_FILE", "/nonexistent", 1);
    api::http::ServerOptions options;
    options.host = "127.0.0.1";
    options.port = 0;
    options.threads = 8;  // more than any test's clients: the server never limits them
    auto server = api::http::Server::Start(
        [this](std::string_view op, std::string_view body, const api::CallerIdentity&) {
          return Handle(op, body);
        },
        options);
    ASSERT_TRUE(server.ok()) << server.status().ToString();
    server_ = std::move(server).value();
    EndpointOptions e;
    e.url = "http://127.0.0.1:" + std::to_string(server_->port());
    e.interrupted = &interrupted_;
    e.max_error_retries = 0;
    Result<ResolvedEndpoint> resolved = ResolveEndpoint(e);
    ASSERT_TRUE(resolved.ok()) << resolved.status().ToString();
    session_ = std::make_unique<EndpointSession>(std::move(resolved).value(), e);
  }

  void TearDown() override {
    session_.reset();
    if (server_) server_->Shutdown();
  }

  // Records the body, and holds requests while the gate is closed: the
  // first requests wait (up to 10 s) until `gate_at` are in flight at once,
  // so that a run with that many clients reaches it whatever the machine's
  // load, and one with fewer clients shows it.
  api::Response Handle(std::string_view op, std::string_view body) {
    std::unique_lock<std::mutex> lock(mu_);
    received_.emplace_back(body);
    ops_.emplace_back(op);
    ++in_flight_;
    max_in_flight_ = std::max(max_in_flight_, in_flight_);
    if (in_flight_ >= gate_at_) gate_open_ = true;
    cv_.notify_all();
    cv_.wait_for(lock, 10s, [this] { return gate_open_; });
    lock.unlock();
    std::this_thread::sleep_for(hold_);
    lock.lock();
    --in_flight_;
    api::Response r;
    r.body = "{}";
    return r;
  }

  std::vector<std::string> Received() {
    std::lock_guard<std::mutex> lock(mu_);
    return received_;
  }
  int MaxInFlight() {
    std::lock_guard<std::mutex> lock(mu_);
    return max_in_flight_;
  }
  std::vector<std::string> Operations() {
    std::lock_guard<std::mutex> lock(mu_);
    return ops_;
  }

  std::atomic<bool> interrupted_{false};
  std::unique_ptr<api::http::Server> server_;
  std::unique_ptr<EndpointSession> session_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> received_;
  std::vector<std::string> ops_;
  int in_flight_ = 0;
  int max_in_flight_ = 0;
  int gate_at_ = 1;
  bool gate_open_ = false;
  std::chrono::milliseconds hold_{0};
};

// Twelve tasks all due at once over 3 clients: each sent once, and never
// more than 3 in flight (the gate holds the first ones until 3 are in, so
// the 3 are reached; more clients would pass it while the requests are
// held).
TEST_F(EndpointPacingTest, DueTasksSpreadOverAtMostTheClients) {
  gate_at_ = 3;
  hold_ = 5ms;
  PacedRun run(*session_, 12, [](int64_t) { return 0; });
  std::map<int64_t, int> answered;
  std::vector<std::string> answer_ops;
  run.Run(
      3, "Query", BodyOf,
      [&](const DueTask& t, const api::Response& r, int64_t sent, int64_t done) {
        EXPECT_TRUE(r.ok()) << r.body;
        EXPECT_LE(sent, done);
        ++answered[t.id];
      });
  EXPECT_EQ(MaxInFlight(), 3);
  ASSERT_EQ(answered.size(), 12u);
  for (const auto& [id, n] : answered) EXPECT_EQ(n, 1) << "task " << id;
  std::vector<std::string> got = Received();
  std::sort(got.begin(), got.end());
  std::vector<std::string> want;
  for (int i = 0; i < 12; ++i) want.push_back(std::to_string(i) + "/0");
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  for (const std::string& op : Operations()) EXPECT_EQ(op, "Query");
  EXPECT_FALSE(run.interrupted());
  // The handler held each request 5 ms.
  EXPECT_GE(run.LatencyMs(0.0), 5.0);
}

// One client: the scheduled tasks in due order, a pushed task already due
// before the next scheduled one, a pushed task due after every scheduled
// one last; no send before its due time; the run ends once the last
// pushed task is answered.
TEST_F(EndpointPacingTest, PushedTasksTakeTheirPlaceInDueOrder) {
  PacedRun run(*session_, 5, [](int64_t i) { return i * 2'000; });
  std::vector<std::string> order;
  run.Run(1, "BatchWriteItem", BodyOf,
          [&](const DueTask& t, const api::Response&, int64_t sent, int64_t) {
            EXPECT_GE(sent, t.due) << BodyOf(t) << " sent before it was due";
            order.push_back(BodyOf(t));
            if (t.id == 1 && t.attempt == 0) run.Push({0, 1, 1});  // retry, due now
            if (t.id == 2 && t.attempt == 0) run.Push({50'000, 2, 1});  // due last
            if (t.id == 2 && t.attempt == 1) run.Push({60'000, 2, 2});  // and again
          });
  EXPECT_EQ(order, (std::vector<std::string>{"0/0", "1/0", "1/1", "2/0", "3/0", "4/0", "2/1",
                                             "2/2"}));
  EXPECT_EQ(Received(), order);
  EXPECT_GE(run.SendLagMs(1.0), 0.0);
}

// Stop from an answer: no further task is taken.
TEST_F(EndpointPacingTest, StopEndsTheRun) {
  PacedRun run(*session_, 100, [](int64_t i) { return i * 100; });
  std::vector<int64_t> ids;
  run.Run(1, "Query", BodyOf, [&](const DueTask& t, const api::Response&, int64_t, int64_t) {
    ids.push_back(t.id);
    if (t.id == 3) run.Stop();
  });
  EXPECT_EQ(ids, (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(Received().size(), 4u);
  EXPECT_FALSE(run.interrupted());
}

// The session's interruption (Ctrl-C) stops the run before anything is
// sent, and the run says it was interrupted.
TEST_F(EndpointPacingTest, InterruptionSendsNothing) {
  interrupted_ = true;
  PacedRun run(*session_, 10, [](int64_t) { return 0; });
  int answers = 0;
  run.Run(4, "Query", BodyOf,
          [&](const DueTask&, const api::Response&, int64_t, int64_t) { ++answers; });
  EXPECT_EQ(answers, 0);
  EXPECT_TRUE(Received().empty());
  EXPECT_TRUE(run.interrupted());
}

}  // namespace
}  // namespace dynarock::tools::simulate
