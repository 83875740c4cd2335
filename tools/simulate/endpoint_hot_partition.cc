// tools/simulate/endpoint_hot_partition.cc

#include "tools/simulate/endpoint_hot_partition.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <queue>
#include <thread>

#include <nlohmann/json.hpp>

#include "api/json_codec.h"
#include "engine/value/item_size.h"
#include "tools/load/loader.h"

namespace dynarock::tools::simulate {
namespace {

constexpr int64_t kMicros = 1'000'000;

struct Scenario {
  const char* table;
  int keys;
};

std::vector<Scenario> Scenarios(const HotPartitionOptions& o) {
  return {{"HotSingleKey", 1}, {"HotSuffixed", o.suffixes}};
}

std::string ScenarioName(int keys) {
  return keys == 1 ? "single-key" : "suffixed-" + std::to_string(keys);
}

api::Json CreateRequest(const HotPartitionOptions& o) {
  api::Json create = {
      {"AttributeDefinitions",
       {{{"AttributeName", "PK"}, {"AttributeType", "S"}},
        {{"AttributeName", "SK"}, {"AttributeType", "S"}}}},
      {"KeySchema",
       {{{"AttributeName", "PK"}, {"KeyType", "HASH"}},
        {{"AttributeName", "SK"}, {"KeyType", "RANGE"}}}}};
  if (o.capacity.provisioned) {
    create["BillingMode"] = "PROVISIONED";
    create["ProvisionedThroughput"] = {{"ReadCapacityUnits", o.capacity.read_capacity_units},
                                       {"WriteCapacityUnits", o.capacity.write_capacity_units}};
  } else {
    create["BillingMode"] = "PAY_PER_REQUEST";
  }
  return create;
}

double Percentile(std::vector<int64_t>& v, double p) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return static_cast<double>(v[k]) / 1000.0;
}

bool IsThrottleType(const std::string& type) {
  return type == "ProvisionedThroughputExceededException" || type == "ThrottlingException" ||
         type == "RequestLimitExceeded";
}

// One scenario's schedule on `table`, run by several client threads that
// share this state: the next scheduled write, the throttled writes due for
// a retry, and the counts. Each thread loops: take the next write due
// (NextWrite), send it without the lock, count its answer (Count).
class ScenarioRun {
 public:
  ScenarioRun(EndpointSession& session, const HotPartitionOptions& o, const std::string& table,
              int keys, const std::function<void(int64_t)>& on_done)
      : session_(session),
        o_(o),
        table_(table),
        keys_(keys),
        on_done_(on_done),
        backoff_(o.backoff, o.seed),
        t0_(std::chrono::steady_clock::now()) {
    sc_.name = ScenarioName(keys);
    sc_.table_name = table;
    sc_.keys = keys;
    sc_.scheduled = o.rate * o.duration_seconds;
  }

  // One client's loop, until the schedule and its retries are done, the
  // run is interrupted, or a write failed in a way no retry mends.
  void Client() {
    std::unique_ptr<http::DynamoDbHttpClient> client = session_.NewClient();
    std::unique_lock<std::mutex> lock(mu_);
    Write w;
    while (NextWrite(lock, &w)) {
      ++in_flight_;
      lock.unlock();
      api::Json put = {{"TableName", table_},
                       {"Item", api::EncodeItem(HotWriteItem(o_, keys_, w.i))},
                       {"ReturnConsumedCapacity", "TOTAL"}};
      const int64_t sent = NowMicros();
      api::Response r = session_.Call(*client, "PutItem", put.dump());
      const int64_t done = NowMicros();
      lock.lock();
      --in_flight_;
      cv_.notify_all();
      Count(w, r, sent, done);
    }
    cv_.notify_all();
  }

  Result<EndpointScenario> Finish() {
    if (!failure_.ok()) return failure_;
    sc_.latency_p50_ms = Percentile(latencies_, 0.50);
    sc_.latency_p99_ms = Percentile(latencies_, 0.99);
    sc_.send_lag_p99_ms = Percentile(lags_, 0.99);
    sc_.last_write_seconds = static_cast<double>(last_write_) / 1e6;
    return sc_;
  }

 private:
  // A write of the schedule (its index `i`) due at `due` micros from the
  // start, on its attempt-th retry.
  struct Write {
    int64_t due = 0;
    int64_t i = 0;
    int attempt = 0;
    bool operator>(const Write& w) const { return due > w.due; }
  };

  int64_t NowMicros() const {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now() - t0_)
        .count();
  }

  // Waits (with `lock` held) until a write is due, the earlier of the next
  // scheduled one and the first retry, and takes it into `w`; false when
  // the run is over for this client.
  bool NextWrite(std::unique_lock<std::mutex>& lock, Write* w) {
    const int64_t total = sc_.scheduled;
    while (true) {
      if (session_.interrupted() || !failure_.ok()) {
        sc_.interrupted = sc_.interrupted || session_.interrupted();
        return false;
      }
      if (retries_.empty() && next_ >= total) {
        if (in_flight_ == 0) return false;
        cv_.wait_for(lock, std::chrono::milliseconds(50));
        continue;
      }
      const int64_t scheduled_due =
          next_ < total ? next_ * kMicros / o_.rate : std::numeric_limits<int64_t>::max();
      const bool take_retry = !retries_.empty() && retries_.top().due <= scheduled_due;
      const int64_t due = take_retry ? retries_.top().due : scheduled_due;
      const int64_t now = NowMicros();
      if (now < due) {
        cv_.wait_for(lock, std::chrono::microseconds(std::min<int64_t>(due - now, 50'000)));
        continue;
      }
      if (take_retry) {
        *w = retries_.top();
        retries_.pop();
      } else {
        *w = Write{due, next_++, 0};
      }
      lags_.push_back(now - due);
      return true;
    }
  }

  // Counts the answer `r` to write `w` (sent and answered at those micros):
  // a success with its consumed units, a throttle (retried after a backoff
  // until max_retries), an error the session already retried, or a failure
  // that ends the run.
  void Count(const Write& w, const api::Response& r, int64_t sent, int64_t done) {
    if (r.http_status != 0) {
      latencies_.push_back(done - sent);
      ++sc_.requests;
    }
    if (r.ok()) {
      ++sc_.writes;
      last_write_ = std::max(last_write_, done);
      CountConsumed(r);
      Done();
      return;
    }
    const std::string type = load::ErrorTypeOf(r);
    if (IsThrottleType(type)) {
      CountThrottle(type, r);
      if (w.attempt >= o_.max_retries) {
        ++sc_.failed;
        Done();
      } else {
        retries_.push(Write{done + backoff_.DelayMicros(w.attempt), w.i, w.attempt + 1});
      }
      return;
    }
    if (r.http_status == 0 || r.http_status >= 500) {
      ++sc_.errors;  // the session retried it already
      Done();
      return;
    }
    if (failure_.ok()) failure_ = Status::Validation(session_.Describe("PutItem " + table_, r));
  }

  void CountConsumed(const api::Response& r) {
    api::Json body = api::Json::parse(r.body, nullptr, false);
    if (!body.is_object() || !body.contains("ConsumedCapacity")) return;
    const api::Json& c = body["ConsumedCapacity"];
    double units = c.value("CapacityUnits", 0.0);
    if (units == 0) units = c.value("WriteCapacityUnits", 0.0);
    sc_.consumed_units += units;
    ++sc_.responses_with_capacity;
  }

  void CountThrottle(const std::string& type, const api::Response& r) {
    ++sc_.throttled;
    ++sc_.throttled_by_exception[type];
    api::Json body = api::Json::parse(r.body, nullptr, false);
    if (!body.is_object() || !body.contains("ThrottlingReasons") ||
        !body["ThrottlingReasons"].is_array()) {
      return;
    }
    for (const api::Json& reason : body["ThrottlingReasons"]) {
      if (reason.is_object()) ++sc_.throttling_reasons[reason.value("reason", "?")];
    }
  }

  // A write reached its end (written, given up or failed): progress.
  void Done() {
    if (on_done_) on_done_(sc_.writes + sc_.failed + sc_.errors);
  }

  EndpointSession& session_;
  const HotPartitionOptions& o_;
  const std::string table_;
  const int keys_;
  const std::function<void(int64_t)>& on_done_;
  ExponentialBackoff backoff_;
  const std::chrono::steady_clock::time_point t0_;

  std::mutex mu_;
  std::condition_variable cv_;
  // Everything below is guarded by mu_.
  EndpointScenario sc_;
  std::priority_queue<Write, std::vector<Write>, std::greater<Write>> retries_;
  int64_t next_ = 0;  // the next scheduled write not yet sent
  int in_flight_ = 0;
  Status failure_;
  std::vector<int64_t> latencies_;
  std::vector<int64_t> lags_;
  int64_t last_write_ = 0;
};

// One scenario's schedule on `table`, by `clients` threads.
Result<EndpointScenario> RunScenario(EndpointSession& session, const HotPartitionOptions& o,
                                     const std::string& table, int keys, int clients,
                                     const std::function<void(int64_t)>& on_done) {
  ScenarioRun run(session, o, table, keys, on_done);
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) threads.emplace_back([&run] { run.Client(); });
  for (std::thread& t : threads) t.join();
  return run.Finish();
}

std::string Ratio(double endpoint, double model) {
  if (model == 0) return endpoint == 0 ? "1.00" : "-";
  return Fixed(endpoint / model, 2);
}

const HotScenario* ModelScenario(const HotEndpointReport& report, const std::string& name) {
  for (const HotScenario& s : report.model.scenarios) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string JoinCounts(const std::map<std::string, int64_t>& counts) {
  std::string out;
  for (const auto& [k, v] : counts) {
    if (!out.empty()) out += "; ";
    out += k + " " + std::to_string(v);
  }
  return out.empty() ? "-" : out;
}

}  // namespace

double AchievedItemsPerSecond(int64_t writes, double last_write_seconds, int duration) {
  const double seconds = std::max(static_cast<double>(duration), last_write_seconds);
  return seconds > 0 ? static_cast<double>(writes) / seconds : 0;
}

RunPlan PlanHotPartition(const HotPartitionOptions& o, const std::string& region,
                         const std::string& prefix) {
  RunPlan plan;
  plan.experiment = "hot-partition";
  plan.region = region;
  const int64_t per_scenario = o.rate * o.duration_seconds;
  // Every write is one item of item_bytes (HotWriteItem pads to it, or is
  // larger when the keys alone exceed it): a unit per KB started.
  const int64_t bytes = ItemSize(HotWriteItem(o, o.suffixes, per_scenario));
  const double units = std::ceil(static_cast<double>(bytes) / 1024.0);
  for (const Scenario& s : Scenarios(o)) {
    plan.tables.push_back(prefix + s.table);
    plan.steps.push_back("CreateTable " + prefix + s.table + " (" + o.capacity.Describe() +
                         "), then " + std::to_string(per_scenario) + " PutItem of " +
                         std::to_string(bytes) + " B on " + std::to_string(s.keys) +
                         " key(s) at " + std::to_string(o.rate) + "/s for " +
                         std::to_string(o.duration_seconds) +
                         " s; throttled writes retried up to " +
                         std::to_string(o.max_retries) + " times");
    plan.write_requests += per_scenario;
    plan.write_request_units += units * static_cast<double>(per_scenario);
    plan.stored_bytes += static_cast<double>(bytes * per_scenario);
  }
  plan.steps.push_back("DeleteTable of every table created (also on Ctrl-C)");
  plan.run_seconds = 2.0 * o.duration_seconds;
  plan.provisioned = o.capacity.provisioned;
  plan.rcu_per_table = o.capacity.read_capacity_units;
  plan.wcu_per_table = o.capacity.write_capacity_units;
  return plan;
}

Result<std::vector<EndpointScenario>> RunHotPartitionAtEndpoint(
    EndpointSession& session, const HotPartitionOptions& o, int clients,
    const std::function<void(int64_t, int64_t)>& on_progress) {
  std::vector<std::string> tables;
  for (const Scenario& s : Scenarios(o)) {
    Result<std::string> t = session.CreateTable(s.table, CreateRequest(o));
    if (!t.ok()) return t.status();
    tables.push_back(std::move(t).value());
  }
  std::vector<EndpointScenario> out;
  const int64_t total = 2 * o.rate * o.duration_seconds;
  int64_t before = 0;
  const std::vector<Scenario> scenarios = Scenarios(o);
  for (size_t k = 0; k < scenarios.size() && !session.interrupted(); ++k) {
    Result<EndpointScenario> sc = RunScenario(
        session, o, tables[k], scenarios[k].keys, clients, [&](int64_t done) {
          if (on_progress) on_progress(before + done, total);
        });
    if (!sc.ok()) return sc.status();
    before += sc.value().scheduled;
    out.push_back(std::move(sc).value());
  }
  return out;
}

TextTable HotComparisonTable(const HotEndpointReport& report) {
  TextTable t;
  t.header = {"scenario", "keys", "measure", "endpoint", "model", "endpoint/model"};
  const int duration = report.options.duration_seconds;
  for (const EndpointScenario& e : report.endpoint) {
    const HotScenario* m = ModelScenario(report, e.name);
    auto row = [&](const std::string& measure, double ev, double mv, int decimals) {
      t.rows.push_back({e.name, std::to_string(e.keys), measure, Fixed(ev, decimals),
                        m ? Fixed(mv, decimals) : "-", m ? Ratio(ev, mv) : "-"});
    };
    const double model_ips =
        m ? AchievedItemsPerSecond(m->writes, static_cast<double>(m->last_write_micros) / 1e6,
                                   duration)
          : 0;
    row("items_per_s", AchievedItemsPerSecond(e.writes, e.last_write_seconds, duration),
        model_ips, 1);
    row("writes_ok", static_cast<double>(e.writes), m ? static_cast<double>(m->writes) : 0, 0);
    row("requests", static_cast<double>(e.requests), m ? static_cast<double>(m->requests) : 0,
        0);
    row("throttled", static_cast<double>(e.throttled),
        m ? static_cast<double>(m->throttled) : 0, 0);
    row("failed", static_cast<double>(e.failed + e.errors),
        m ? static_cast<double>(m->failed) : 0, 0);
    row("consumed_wcu", e.consumed_units, m ? m->write_units : 0, 0);
    t.rows.push_back({e.name, std::to_string(e.keys), "latency_p50_ms",
                      Fixed(e.latency_p50_ms, 1), "-", "-"});
    t.rows.push_back({e.name, std::to_string(e.keys), "latency_p99_ms",
                      Fixed(e.latency_p99_ms, 1), "-", "-"});
  }
  return t;
}

std::string HotComparisonText(const HotEndpointReport& report) {
  const HotPartitionOptions& o = report.options;
  std::string out = "hot partition at " + report.url + " (Region " + report.region +
                    ", credentials: " + report.credentials_source + ", " +
                    std::to_string(report.clients) + " clients) beside the model: " +
                    std::to_string(o.rate) + " writes/s of " + std::to_string(o.item_bytes) +
                    " B for " + std::to_string(o.duration_seconds) +
                    " s per scenario; capacity mode: " + o.capacity.Describe() + "\n";
  if (report.interrupted) out += "INTERRUPTED: the figures cover the run until Ctrl-C\n";
  out += "\n" + HotComparisonTable(report).Render();
  bool throttled = false;
  for (const EndpointScenario& e : report.endpoint) {
    throttled = throttled || e.throttled > 0;
    out += "\n" + e.name + ": throttled by exception: " + JoinCounts(e.throttled_by_exception) +
           "; by ThrottlingReasons: " + JoinCounts(e.throttling_reasons) +
           "; sends behind schedule p99 " + Fixed(e.send_lag_p99_ms, 1) + " ms";
    if (e.responses_with_capacity < e.writes) {
      out += "; ConsumedCapacity missing from " +
             std::to_string(e.writes - e.responses_with_capacity) + " responses";
    }
  }
  out += "\n";
  if (!throttled && !report.endpoint.empty()) {
    out += "\nthe endpoint never throttled (DynamoDB Local and `dynarock serve "
           "--throttling off` do not model throughput): compare the model's "
           "throttles with caution\n";
  }
  const ErrorCounts& errors = report.errors;
  if (!errors.retried.empty() || !errors.gave_up.empty()) {
    out += "\nendpoint errors retried with backoff: " + JoinCounts(errors.retried) +
           "; given up: " + JoinCounts(errors.gave_up) + "\n";
  }
  if (!report.cleanup.empty()) {
    out += "\n";
    for (const std::string& line : report.cleanup) out += line + "\n";
  }
  return out;
}

std::string HotComparisonJson(const HotEndpointReport& report) {
  const HotPartitionOptions& o = report.options;
  nlohmann::json j;
  j["experiment"] = "hot-partition";
  j["endpoint"] = {{"url", report.url},
                   {"region", report.region},
                   {"credentials", report.credentials_source},
                   {"table_prefix", report.table_prefix},
                   {"clients", report.clients},
                   {"interrupted", report.interrupted}};
  j["options"] = {{"rate", o.rate},
                  {"item_bytes", o.item_bytes},
                  {"duration_seconds", o.duration_seconds},
                  {"suffixes", o.suffixes},
                  {"max_retries", o.max_retries},
                  {"seed", o.seed},
                  {"capacity_mode", o.capacity.Describe()}};
  nlohmann::json scenarios = nlohmann::json::array();
  for (const EndpointScenario& e : report.endpoint) {
    const HotScenario* m = ModelScenario(report, e.name);
    nlohmann::json s = {
        {"name", e.name},
        {"table", e.table_name},
        {"keys", e.keys},
        {"endpoint",
         {{"scheduled", e.scheduled},
          {"writes", e.writes},
          {"requests", e.requests},
          {"throttled", e.throttled},
          {"failed", e.failed},
          {"errors", e.errors},
          {"items_per_second",
           AchievedItemsPerSecond(e.writes, e.last_write_seconds, o.duration_seconds)},
          {"throttled_by_exception", e.throttled_by_exception},
          {"throttling_reasons", e.throttling_reasons},
          {"consumed_write_units", e.consumed_units},
          {"latency_p50_ms", e.latency_p50_ms},
          {"latency_p99_ms", e.latency_p99_ms},
          {"last_write_seconds", e.last_write_seconds},
          {"send_lag_p99_ms", e.send_lag_p99_ms}}}};
    if (m != nullptr) {
      const double mips = AchievedItemsPerSecond(
          m->writes, static_cast<double>(m->last_write_micros) / 1e6, o.duration_seconds);
      s["model"] = {{"writes", m->writes},
                    {"requests", m->requests},
                    {"throttled", m->throttled},
                    {"failed", m->failed},
                    {"items_per_second", mips},
                    {"consumed_write_units", m->write_units},
                    {"last_write_seconds", static_cast<double>(m->last_write_micros) / 1e6}};
      auto ratio = [](double a, double b) -> nlohmann::json {
        if (b == 0) return a == 0 ? nlohmann::json(1.0) : nlohmann::json(nullptr);
        return a / b;
      };
      s["ratio"] = {
          {"items_per_second",
           ratio(AchievedItemsPerSecond(e.writes, e.last_write_seconds, o.duration_seconds),
                 mips)},
          {"throttled", ratio(static_cast<double>(e.throttled), static_cast<double>(m->throttled))},
          {"consumed_write_units", ratio(e.consumed_units, m->write_units)}};
    }
    scenarios.push_back(std::move(s));
  }
  j["scenarios"] = std::move(scenarios);
  j["errors"] = {{"retried", report.errors.retried}, {"gave_up", report.errors.gave_up}};
  j["cleanup"] = report.cleanup;
  return j.dump(2) + "\n";
}

}  // namespace dynarock::tools::simulate
