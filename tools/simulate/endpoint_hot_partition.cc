// tools/simulate/endpoint_hot_partition.cc

#include "tools/simulate/endpoint_hot_partition.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "api/json_codec.h"
#include "engine/value/item_size.h"
#include "tools/load/loader.h"
#include "tools/simulate/endpoint_pacing.h"
#include "tools/simulate/endpoint_report.h"

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

// One scenario's schedule on `table`: the writes at `rate` per second, a
// throttled one retried after the model's backoff (at most max_retries,
// then failed), by `clients` connections (endpoint_pacing.h).
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
        paced_(session, o.rate * o.duration_seconds,
               [rate = o.rate](int64_t i) { return i * kMicros / rate; }) {
    sc_.name = ScenarioName(keys);
    sc_.table_name = table;
    sc_.keys = keys;
    sc_.scheduled = o.rate * o.duration_seconds;
  }

  Result<EndpointScenario> Run(int clients) {
    paced_.Run(
        clients, "PutItem",
        [this](const DueTask& w) {
          return api::Json{{"TableName", table_},
                           {"Item", api::EncodeItem(HotWriteItem(o_, keys_, w.id))},
                           {"ReturnConsumedCapacity", "TOTAL"}}
              .dump();
        },
        [this](const DueTask& w, const api::Response& r, int64_t, int64_t done) {
          Count(w, r, done);
        });
    if (!failure_.ok()) return failure_;
    sc_.interrupted = paced_.interrupted();
    sc_.latency_p50_ms = paced_.LatencyMs(0.50);
    sc_.latency_p99_ms = paced_.LatencyMs(0.99);
    sc_.send_lag_p99_ms = paced_.SendLagMs(0.99);
    sc_.last_write_seconds = static_cast<double>(last_write_) / 1e6;
    return sc_;
  }

 private:
  // Counts the answer `r` to write `w` (answered at `done` micros): a
  // success with its consumed units, a throttle (retried after a backoff
  // until max_retries), an error the session already retried, or a failure
  // that ends the run.
  void Count(const DueTask& w, const api::Response& r, int64_t done) {
    if (r.http_status != 0) ++sc_.requests;
    if (r.ok()) {
      ++sc_.writes;
      last_write_ = std::max(last_write_, done);
      CountConsumed(r, &sc_.counts);
      Done();
      return;
    }
    const std::string type = load::ErrorTypeOf(r);
    if (IsThrottleType(type)) {
      CountThrottle(type, r, &sc_.counts);
      if (w.attempt >= o_.max_retries) {
        ++sc_.failed;
        Done();
      } else {
        paced_.Push(DueTask{done + backoff_.DelayMicros(w.attempt), w.id, w.attempt + 1});
      }
      return;
    }
    if (r.http_status == 0 || r.http_status >= 500) {
      ++sc_.errors;  // the session retried it already
      Done();
      return;
    }
    if (failure_.ok()) failure_ = Status::Validation(session_.Describe("PutItem " + table_, r));
    paced_.Stop();
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
  ExponentialBackoff backoff_;  // guarded by paced_'s lock, as below
  PacedRun paced_;
  // Changed only in Count, under paced_'s lock.
  EndpointScenario sc_;
  Status failure_;
  int64_t last_write_ = 0;
};

const HotScenario* ModelScenario(const HotEndpointReport& report, const std::string& name) {
  for (const HotScenario& s : report.model.scenarios) {
    if (s.name == name) return &s;
  }
  return nullptr;
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
    Result<std::string> t =
        session.CreateTable(s.table, CreateTableJson(HotTableRequest(o, s.table)));
    if (!t.ok()) return t.status();
    tables.push_back(std::move(t).value());
  }
  std::vector<EndpointScenario> out;
  const int64_t total = 2 * o.rate * o.duration_seconds;
  int64_t before = 0;
  const std::vector<Scenario> scenarios = Scenarios(o);
  for (size_t k = 0; k < scenarios.size() && !session.interrupted(); ++k) {
    const std::function<void(int64_t)> on_done = [&](int64_t done) {
      if (on_progress) on_progress(before + done, total);
    };
    Result<EndpointScenario> sc =
        ScenarioRun(session, o, tables[k], scenarios[k].keys, on_done).Run(clients);
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
                        m ? Fixed(mv, decimals) : "-", m ? RatioText(ev, mv) : "-"});
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
    row("throttled", static_cast<double>(e.counts.throttled),
        m ? static_cast<double>(m->throttled) : 0, 0);
    row("failed", static_cast<double>(e.failed + e.errors),
        m ? static_cast<double>(m->failed) : 0, 0);
    row("consumed_wcu", e.counts.consumed_units, m ? m->write_units : 0, 0);
    t.rows.push_back({e.name, std::to_string(e.keys), "latency_p50_ms",
                      Fixed(e.latency_p50_ms, 1), "-", "-"});
    t.rows.push_back({e.name, std::to_string(e.keys), "latency_p99_ms",
                      Fixed(e.latency_p99_ms, 1), "-", "-"});
  }
  return t;
}

std::string HotComparisonText(const HotEndpointReport& report) {
  const HotPartitionOptions& o = report.options;
  std::string out = "hot partition " + EndpointLine(report.info) + " beside the model: " +
                    std::to_string(o.rate) + " writes/s of " + std::to_string(o.item_bytes) +
                    " B for " + std::to_string(o.duration_seconds) +
                    " s per scenario; capacity mode: " + o.capacity.Describe() + "\n";
  if (report.info.interrupted) out += "INTERRUPTED: the figures cover the run until Ctrl-C\n";
  out += "\n" + HotComparisonTable(report).Render();
  bool throttled = report.endpoint.empty();
  for (const EndpointScenario& e : report.endpoint) {
    throttled = throttled || e.counts.throttled > 0;
    out += "\n" + e.name + ": throttled by exception: " +
           JoinCounts(e.counts.throttled_by_exception) + "; by ThrottlingReasons: " +
           JoinCounts(e.counts.throttling_reasons) + "; sends behind schedule p99 " +
           Fixed(e.send_lag_p99_ms, 1) + " ms";
    if (e.counts.responses_with_capacity < e.writes) {
      out += "; ConsumedCapacity missing from " +
             std::to_string(e.writes - e.counts.responses_with_capacity) + " responses";
    }
  }
  out += "\n";
  return out + EndpointFooterText(report.info, throttled);
}

std::string HotComparisonJson(const HotEndpointReport& report) {
  const HotPartitionOptions& o = report.options;
  nlohmann::json j;
  j["experiment"] = "hot-partition";
  j["endpoint"] = EndpointJson(report.info);
  j["options"] = HotPartitionOptionsJson(o);
  nlohmann::json scenarios = nlohmann::json::array();
  for (const EndpointScenario& e : report.endpoint) {
    const HotScenario* m = ModelScenario(report, e.name);
    const double ips = AchievedItemsPerSecond(e.writes, e.last_write_seconds, o.duration_seconds);
    nlohmann::json endpoint = {{"scheduled", e.scheduled},
                               {"writes", e.writes},
                               {"requests", e.requests},
                               {"throttled", e.counts.throttled},
                               {"failed", e.failed},
                               {"errors", e.errors},
                               {"items_per_second", ips},
                               {"consumed_write_units", e.counts.consumed_units},
                               {"latency_p50_ms", e.latency_p50_ms},
                               {"latency_p99_ms", e.latency_p99_ms},
                               {"last_write_seconds", e.last_write_seconds},
                               {"send_lag_p99_ms", e.send_lag_p99_ms}};
    AddCountsJson(e.counts, &endpoint);
    nlohmann::json s = {
        {"name", e.name}, {"table", e.table_name}, {"keys", e.keys}, {"endpoint", endpoint}};
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
      s["ratio"] = {{"items_per_second", RatioJson(ips, mips)},
                    {"throttled", RatioJson(static_cast<double>(e.counts.throttled),
                                            static_cast<double>(m->throttled))},
                    {"consumed_write_units", RatioJson(e.counts.consumed_units, m->write_units)}};
    }
    scenarios.push_back(std::move(s));
  }
  j["scenarios"] = std::move(scenarios);
  j["errors"] = ErrorsJson(report.info.errors);
  j["cleanup"] = report.info.cleanup;
  return j.dump(2) + "\n";
}

}  // namespace dynarock::tools::simulate
