// tools/simulate/scale.cc

#include "tools/simulate/scale.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <memory>
#include <queue>

#include <nlohmann/json.hpp>

#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/value/item_size.h"

namespace dynarock::tools::simulate {
namespace {

constexpr int64_t kMicros = 1'000'000;
constexpr char kTable[] = "ScaleTable";

enum class Op { kGet, kPut, kQuery };

// What request `i` does: its operation and its item (key index, sort index).
struct Draw {
  Op op = Op::kGet;
  int64_t key = 0;
  int sort = 0;
};

Draw DrawRequest(const ScaleOptions& o, int64_t i) {
  const uint64_t a = Mix64(o.seed * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(i));
  const uint64_t b = Mix64(a);
  Draw d;
  const int pick = static_cast<int>(a % 100);
  d.op = pick < o.get_percent ? Op::kGet
         : pick < o.get_percent + o.put_percent ? Op::kPut
                                                : Op::kQuery;
  // The top 53 bits as a uniform double in [0, 1).
  const double u = static_cast<double>(b >> 11) * 0x1.0p-53;
  if (o.hot_keys > 0 && u < o.hot_share) {
    d.key = static_cast<int64_t>((b >> 3) % static_cast<uint64_t>(o.hot_keys));
  } else {
    d.key = static_cast<int64_t>(Mix64(b) % static_cast<uint64_t>(o.keys));
  }
  d.sort = static_cast<int>((a >> 40) % static_cast<uint64_t>(o.items_per_key));
  return d;
}

std::string PartitionKeyOf(int64_t key) { return "U#" + std::to_string(key); }
std::string SortKeyOf(int sort) { return "S#" + std::to_string(sort); }

Item ScaleItem(const ScaleOptions& o, int64_t key, int sort) {
  Item item;
  item["PK"] = AttributeValue::S(PartitionKeyOf(key));
  item["SK"] = AttributeValue::S(SortKeyOf(sort));
  item["Data"] = AttributeValue::S("");
  const int64_t size = ItemSize(item);
  if (size < o.item_bytes) {
    item["Data"] = AttributeValue::S(std::string(static_cast<size_t>(o.item_bytes - size), 'd'));
  }
  return item;
}

Status Validate(const ScaleOptions& o) {
  if (o.partitions < 2 || o.partitions > 100'000) {
    return Status::Validation("--partitions must be within 2..100000");
  }
  if (o.rate < 1 || o.rate > 10'000'000) {
    return Status::Validation("--rate must be within 1..10000000");
  }
  if (o.duration_seconds < 1 || o.duration_seconds > 86'400) {
    return Status::Validation("--duration must be within 1..86400 seconds");
  }
  if (o.keys < 1 || o.items_per_key < 1 || o.keys * o.items_per_key > 50'000'000) {
    return Status::Validation("--keys and --items-per-key must be at least 1, at most 50M items");
  }
  if (o.item_bytes < 1 || o.item_bytes > 400 * 1024) {
    return Status::Validation("--item-bytes must be within 1 B..400 KB");
  }
  if (o.get_percent < 0 || o.put_percent < 0 || o.get_percent + o.put_percent > 100) {
    return Status::Validation("--get-percent and --put-percent must be >= 0 and add up to at most 100");
  }
  if (o.hot_keys < 0 || o.hot_keys > o.keys || o.hot_share < 0 || o.hot_share > 1) {
    return Status::Validation("--hot-keys must be within 0..keys and --hot-share within 0..1");
  }
  if (o.max_retries < 0) return Status::Validation("--max-retries must not be negative");
  return Status::OK();
}

CreateTableRequest TableRequest(int64_t rcu, int64_t wcu) {
  CreateTableRequest create;
  create.table_name = kTable;
  create.key_schema = {{"PK", KeyType::kHash}, {"SK", KeyType::kRange}};
  create.attribute_definitions = {{"PK", AttrType::kS}, {"SK", AttrType::kS}};
  create.billing_mode = BillingMode::kProvisioned;
  create.provisioned_throughput = ProvisionedThroughput{rcu, wcu};
  return create;
}

// Loads every key's items, throttling off, in BatchWriteItems of 25.
Status Load(Engine& engine, const ScaleOptions& o, int64_t* loaded) {
  std::vector<WriteRequest> batch;
  auto flush = [&]() -> Status {
    BatchWriteItemRequest req;
    req.request_items.emplace_back(kTable, std::move(batch));
    batch.clear();
    for (int attempt = 0; attempt < 100; ++attempt) {
      Result<BatchWriteItemResult> r = engine.BatchWriteItem(req);
      if (!r.ok()) return r.status();
      if (r.value().unprocessed_items.empty()) return Status::OK();
      req.request_items = std::move(r.value().unprocessed_items);
    }
    return Status::Internal("BatchWriteItem kept returning UnprocessedItems");
  };
  for (int64_t k = 0; k < o.keys; ++k) {
    for (int s = 0; s < o.items_per_key; ++s) {
      WriteRequest w;
      w.put_item = ScaleItem(o, k, s);
      batch.push_back(std::move(w));
      ++*loaded;
      if (batch.size() == 25) DR_RETURN_IF_ERROR(flush());
    }
  }
  if (!batch.empty()) DR_RETURN_IF_ERROR(flush());
  return Status::OK();
}

Usage Minus(Usage a, const Usage& b) {
  a.consumed_read_units -= b.consumed_read_units;
  a.consumed_write_units -= b.consumed_write_units;
  a.throttled_read_units -= b.throttled_read_units;
  a.throttled_write_units -= b.throttled_write_units;
  a.throttled_read_requests -= b.throttled_read_requests;
  a.throttled_write_requests -= b.throttled_write_requests;
  a.ttl_deleted_items -= b.ttl_deleted_items;
  return a;
}

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// CPU time of the process (every thread's: RocksDB's flushes and
// compactions too) or of the calling thread (the simulation's loop and the
// engine calls it makes).
double CpuSeconds(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// A retry waiting for its time.
struct Retry {
  int64_t at;
  int64_t seq;  // ties: the order they were scheduled in
  int64_t request;
  int attempt;
  bool operator>(const Retry& o) const { return at != o.at ? at > o.at : seq > o.seq; }
};

// One call of the run: request `d` on the engine; its status.
Status Send(Engine& engine, const ScaleOptions& o, const Draw& d) {
  switch (d.op) {
    case Op::kGet: {
      GetItemRequest get;
      get.table_name = kTable;
      get.key["PK"] = AttributeValue::S(PartitionKeyOf(d.key));
      get.key["SK"] = AttributeValue::S(SortKeyOf(d.sort));
      get.encoded_item = true;
      return engine.GetItem(get).status();
    }
    case Op::kPut: {
      PutItemRequest put;
      put.table_name = kTable;
      put.item = ScaleItem(o, d.key, d.sort);
      return engine.PutItem(put).status();
    }
    case Op::kQuery: {
      QueryRequest q;
      q.table_name = kTable;
      q.key_condition_expression = "#p = :p";
      q.read.expression_attribute_names = ExpressionAttributeNames{{"#p", "PK"}};
      q.read.expression_attribute_values =
          ExpressionAttributeValues{{":p", AttributeValue::S(PartitionKeyOf(d.key))}};
      q.read.encoded_items = true;
      return engine.Query(q).status();
    }
  }
  return Status::Internal("unknown operation");
}

// What the run consumed, by the table and by each partition (against
// `before`, the table's stats at its start), and the hot keys.
Status Summarize(Engine& engine, const ResourceStats& before, ScaleReport* report) {
  Result<TableThroughputStats> after = engine.DescribeCapacity(Scope{}, kTable, 10);
  if (!after.ok()) return after.status();
  const ResourceStats& t = after.value().table;
  report->partitions_end = t.partitions.size();
  report->table_usage = Minus(t.total, before.total);
  std::map<uint32_t, Usage> at_start;
  for (const PartitionStats& p : before.partitions) at_start[p.id] = p.total;
  for (const PartitionStats& p : t.partitions) {
    auto it = at_start.find(p.id);
    report->partitions.push_back(
        {p.id, p.begin, it == at_start.end() ? p.total : Minus(p.total, it->second)});
  }
  report->hot_keys = t.hot_keys;
  return Status::OK();
}

}  // namespace

Result<ScaleReport> RunScale(const ScaleOptions& o) {
  DR_RETURN_IF_ERROR(Validate(o));
  ScaleReport report;
  report.options = o;
  // The partition rule ceil(RCU / read ceiling + WCU / write ceiling) gives
  // exactly `partitions`: half of them's worth of reads, the rest of writes.
  const PartitionCeilings& c = o.engine_capacity.partition_ceilings;
  report.read_capacity_units = o.capacity.provisioned
                                   ? o.capacity.read_capacity_units
                                   : c.read_units_per_second * (o.partitions / 2);
  report.write_capacity_units =
      o.capacity.provisioned ? o.capacity.write_capacity_units
                             : c.write_units_per_second * (o.partitions - o.partitions / 2);

  SimulatedClock clock;
  Result<std::unique_ptr<Engine>> opened =
      OpenSimulationEngine(&clock, o.engine_capacity, /*throttling=*/false, o.memtable_bytes);
  if (!opened.ok()) return opened.status();
  Engine& engine = *opened.value();
  if (auto r = engine.CreateTable(
          TableRequest(report.read_capacity_units, report.write_capacity_units));
      !r.ok()) {
    return r.status();
  }

  const auto load_start = std::chrono::steady_clock::now();
  DR_RETURN_IF_ERROR(Load(engine, o, &report.items_loaded));
  report.load_wall_seconds = Seconds(std::chrono::steady_clock::now() - load_start);

  // An idle minute (every bucket refills), then the run from a whole second.
  clock.Set((clock.NowMicros() / kMicros + 60) * kMicros);
  engine.SetThrottling(true);
  Result<TableThroughputStats> before = engine.DescribeCapacity(Scope{}, kTable, 0);
  if (!before.ok()) return before.status();
  report.partitions_start = before.value().table.partitions.size();

  const int64_t start = clock.NowMicros();
  const int64_t total = o.rate * o.duration_seconds;
  auto arrival = [&](int64_t i) { return start + i * kMicros / o.rate; };
  ExponentialBackoff backoff(o.backoff, o.seed);
  std::priority_queue<Retry, std::vector<Retry>, std::greater<Retry>> retries;
  int64_t retry_seq = 0;
  report.seconds.resize(static_cast<size_t>(o.duration_seconds));
  int64_t progress_second = 0;

  const auto run_start = std::chrono::steady_clock::now();
  const double run_cpu_start = CpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
  const double run_thread_start = CpuSeconds(CLOCK_THREAD_CPUTIME_ID);
  int64_t next = 0;
  while (next < total || !retries.empty()) {
    const bool fresh = next < total && (retries.empty() || arrival(next) <= retries.top().at);
    int64_t request;
    int attempt = 0;
    if (fresh) {
      request = next++;
      clock.Set(arrival(request));
    } else {
      const Retry r = retries.top();
      retries.pop();
      request = r.request;
      attempt = r.attempt;
      clock.Set(r.at);
    }
    const int64_t now = clock.NowMicros();
    const size_t second = static_cast<size_t>((now - start) / kMicros);
    if (second >= report.seconds.size()) report.seconds.resize(second + 1);
    if (o.on_progress && static_cast<int64_t>(second) > progress_second) {
      progress_second = static_cast<int64_t>(second);
      o.on_progress(std::min<int64_t>(progress_second, o.duration_seconds), o.duration_seconds);
    }

    const Draw d = DrawRequest(o, request);
    ScaleOpCounts& counts =
        d.op == Op::kGet ? report.get : d.op == Op::kPut ? report.put : report.query;
    if (attempt == 0) ++counts.issued;
    ++counts.calls;
    ++report.seconds[second].calls;
    const Status status = Send(engine, o, d);
    if (status.ok()) {
      ++counts.ok;
      ++report.seconds[second].ok;
      continue;
    }
    if (!IsThrottle(status)) return status;
    ++counts.throttled;
    ++report.seconds[second].throttled;
    if (attempt >= o.max_retries) {
      ++counts.failed;
      continue;
    }
    retries.push(Retry{now + o.service.base_micros + backoff.DelayMicros(attempt),
                       retry_seq++, request, attempt + 1});
  }
  report.run_wall_seconds = Seconds(std::chrono::steady_clock::now() - run_start);
  report.run_cpu_seconds = CpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - run_cpu_start;
  report.run_thread_cpu_seconds = CpuSeconds(CLOCK_THREAD_CPUTIME_ID) - run_thread_start;
  if (o.on_progress) o.on_progress(o.duration_seconds, o.duration_seconds);

  DR_RETURN_IF_ERROR(Summarize(engine, before.value().table, &report));
  return report;
}

namespace {

ScaleOpCounts Sum(const ScaleReport& r) {
  ScaleOpCounts s;
  for (const ScaleOpCounts* c : {&r.get, &r.put, &r.query}) {
    s.issued += c->issued;
    s.calls += c->calls;
    s.ok += c->ok;
    s.throttled += c->throttled;
    s.failed += c->failed;
  }
  return s;
}

int64_t ThrottledRequests(const Usage& u) {
  return u.throttled_read_requests + u.throttled_write_requests;
}

// The partitions that consumed the most units over the run (read units at
// a third of a write unit's weight: a partition serves 3,000 / 1,000), then
// those throttled the most; `n` of each at most, busiest first.
std::vector<const ScalePartition*> Busiest(const ScaleReport& r, size_t n) {
  std::vector<const ScalePartition*> all;
  for (const ScalePartition& p : r.partitions) all.push_back(&p);
  auto load = [](const ScalePartition* p) {
    return p->usage.consumed_read_units / 3 + p->usage.consumed_write_units;
  };
  std::stable_sort(all.begin(), all.end(), [&](const ScalePartition* a, const ScalePartition* b) {
    return load(a) > load(b);
  });
  if (all.size() > n) all.resize(n);
  return all;
}

}  // namespace

TextTable ScaleSeries(const ScaleReport& r) {
  TextTable t;
  t.header = {"second", "calls", "ok", "throttled"};
  for (size_t s = 0; s < r.seconds.size(); ++s) {
    const ScaleSecond& x = r.seconds[s];
    t.rows.push_back({std::to_string(s), std::to_string(x.calls), std::to_string(x.ok),
                      std::to_string(x.throttled)});
  }
  return t;
}

std::string ScaleText(const ScaleReport& r, bool with_timing) {
  const ScaleOptions& o = r.options;
  const int query_percent = 100 - o.get_percent - o.put_percent;
  std::string out = "scale: one provisioned table, " + std::to_string(r.read_capacity_units) +
                    " RCU / " + std::to_string(r.write_capacity_units) + " WCU: " +
                    std::to_string(r.partitions_start) + " partitions; " +
                    std::to_string(r.items_loaded) + " items of " +
                    std::to_string(o.item_bytes) + " B loaded (" + std::to_string(o.keys) +
                    " keys x " + std::to_string(o.items_per_key) + ")\n" +
                    std::to_string(o.rate) + " requests per simulated second for " +
                    std::to_string(o.duration_seconds) + " s: GetItem " +
                    std::to_string(o.get_percent) + " %, PutItem " +
                    std::to_string(o.put_percent) + " %, Query " +
                    std::to_string(query_percent) + " %; " + Fixed(o.hot_share * 100, 1) +
                    " % of them on " + std::to_string(o.hot_keys) + " hot keys\n\n";
  TextTable ops;
  ops.header = {"operation", "requests", "calls", "ok", "throttled", "failed"};
  auto row = [&](const std::string& name, const ScaleOpCounts& c) {
    ops.rows.push_back({name, std::to_string(c.issued), std::to_string(c.calls),
                        std::to_string(c.ok), std::to_string(c.throttled),
                        std::to_string(c.failed)});
  };
  row("GetItem", r.get);
  row("PutItem", r.put);
  row("Query", r.query);
  row("total", Sum(r));
  out += ops.Render();

  const Usage& u = r.table_usage;
  const double secs = o.duration_seconds;
  out += "\nconsumed over the run: " + Fixed(u.consumed_read_units, 1) + " RCU (" +
         Fixed(u.consumed_read_units / secs, 0) + "/s), " + Fixed(u.consumed_write_units, 1) +
         " WCU (" + Fixed(u.consumed_write_units / secs, 0) + "/s); throttled: " +
         std::to_string(u.throttled_read_requests) + " read, " +
         std::to_string(u.throttled_write_requests) + " write requests\n";
  size_t throttled_partitions = 0;
  for (const ScalePartition& p : r.partitions) {
    if (ThrottledRequests(p.usage) > 0) ++throttled_partitions;
  }
  out += "partitions: " + std::to_string(r.partitions_start) + " at the start, " +
         std::to_string(r.partitions_end) + " at the end; " +
         std::to_string(throttled_partitions) + " of them throttled requests\n\nbusiest partitions over the run (per-second means "
         "against the ceilings of " +
         std::to_string(o.engine_capacity.partition_ceilings.read_units_per_second) + " RCU / " +
         std::to_string(o.engine_capacity.partition_ceilings.write_units_per_second) +
         " WCU):\n";
  TextTable busy;
  busy.header = {"partition", "begin", "rcu_s", "wcu_s", "throttled_requests"};
  for (const ScalePartition* p : Busiest(r, 5)) {
    char begin[24];
    std::snprintf(begin, sizeof begin, "%016llx", static_cast<unsigned long long>(p->begin));
    busy.rows.push_back({std::to_string(p->id), begin,
                         Fixed(p->usage.consumed_read_units / secs, 1),
                         Fixed(p->usage.consumed_write_units / secs, 1),
                         std::to_string(ThrottledRequests(p->usage))});
  }
  out += busy.Render();
  out += "\nhottest keys (as Contributor Insights ranks them: units, consumed and "
         "throttled; throttled units beside):\n";
  TextTable keys;
  keys.header = {"key", "units", "throttled_units"};
  for (size_t i = 0; i < r.hot_keys.size() && i < 5; ++i) {
    const HotKey& k = r.hot_keys[i];
    keys.rows.push_back({k.key, Fixed(k.units, 1), Fixed(k.throttled_units, 1)});
  }
  out += keys.Render();
  if (with_timing) {
    const double sim_per_wall =
        r.run_wall_seconds > 0 ? secs / r.run_wall_seconds : 0;
    const double calls_per_wall =
        r.run_wall_seconds > 0 ? static_cast<double>(Sum(r).calls) / r.run_wall_seconds : 0;
    out += "\nwall time: load " + Fixed(r.load_wall_seconds, 2) + " s; run " +
           Fixed(r.run_wall_seconds, 2) + " s for " + std::to_string(o.duration_seconds) +
           " simulated s: " + Fixed(sim_per_wall, 2) + " simulated s per wall s (" +
           Fixed(calls_per_wall, 0) + " engine calls per wall s)\nCPU time of the run: " +
           Fixed(r.run_cpu_seconds, 2) + " s, the process (" +
           Fixed(r.run_cpu_seconds > 0 ? secs / r.run_cpu_seconds : 0, 2) +
           " simulated s per CPU s); " + Fixed(r.run_thread_cpu_seconds, 2) +
           " s, the loop's thread (" +
           Fixed(r.run_thread_cpu_seconds > 0 ? secs / r.run_thread_cpu_seconds : 0, 2) +
           " simulated s per CPU s: the wall rate on an idle core)\n";
  }
  return out;
}

std::string ScaleJson(const ScaleReport& r, bool with_timing) {
  const ScaleOptions& o = r.options;
  auto counts = [](const ScaleOpCounts& c) {
    return nlohmann::json{{"requests", c.issued}, {"calls", c.calls},   {"ok", c.ok},
                          {"throttled", c.throttled}, {"failed", c.failed}};
  };
  auto usage = [](const Usage& u) {
    return nlohmann::json{{"consumed_read_units", u.consumed_read_units},
                          {"consumed_write_units", u.consumed_write_units},
                          {"throttled_read_requests", u.throttled_read_requests},
                          {"throttled_write_requests", u.throttled_write_requests}};
  };
  nlohmann::json j;
  j["experiment"] = "scale";
  j["options"] = {{"partitions", o.partitions},       {"rate", o.rate},
                  {"duration_seconds", o.duration_seconds}, {"keys", o.keys},
                  {"items_per_key", o.items_per_key}, {"item_bytes", o.item_bytes},
                  {"get_percent", o.get_percent},     {"put_percent", o.put_percent},
                  {"hot_keys", o.hot_keys},           {"hot_share", o.hot_share},
                  {"max_retries", o.max_retries},     {"seed", o.seed}};
  j["read_capacity_units"] = r.read_capacity_units;
  j["write_capacity_units"] = r.write_capacity_units;
  j["items_loaded"] = r.items_loaded;
  j["partitions_start"] = r.partitions_start;
  j["partitions_end"] = r.partitions_end;
  j["operations"] = {{"GetItem", counts(r.get)}, {"PutItem", counts(r.put)},
                     {"Query", counts(r.query)}, {"total", counts(Sum(r))}};
  j["table_usage"] = usage(r.table_usage);
  nlohmann::json seconds = nlohmann::json::array();
  for (const ScaleSecond& s : r.seconds) {
    seconds.push_back({{"calls", s.calls}, {"ok", s.ok}, {"throttled", s.throttled}});
  }
  j["seconds"] = std::move(seconds);
  nlohmann::json parts = nlohmann::json::array();
  for (const ScalePartition& p : r.partitions) {
    nlohmann::json x = usage(p.usage);
    x["id"] = p.id;
    x["begin"] = p.begin;
    parts.push_back(std::move(x));
  }
  j["partitions"] = std::move(parts);
  nlohmann::json keys = nlohmann::json::array();
  for (const HotKey& k : r.hot_keys) {
    keys.push_back({{"key", k.key},
                    {"read_units", k.read_units},
                    {"write_units", k.write_units},
                    {"throttled_units", k.throttled_units}});
  }
  j["hot_keys"] = std::move(keys);
  if (with_timing) {
    j["wall"] = {{"load_seconds", r.load_wall_seconds},
                 {"run_seconds", r.run_wall_seconds},
                 {"run_cpu_seconds", r.run_cpu_seconds},
                 {"run_thread_cpu_seconds", r.run_thread_cpu_seconds},
                 {"simulated_seconds_per_wall_second",
                  r.run_wall_seconds > 0 ? o.duration_seconds / r.run_wall_seconds : 0.0}};
  }
  return j.dump(2) + "\n";
}

}  // namespace dynarock::tools::simulate
