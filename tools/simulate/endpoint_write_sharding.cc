// tools/simulate/endpoint_write_sharding.cc

#include "tools/simulate/endpoint_write_sharding.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "api/json_codec.h"
#include "engine/value/item_size.h"
#include "tools/load/loader.h"
#include "tools/simulate/endpoint_pacing.h"
#include "tools/simulate/write_sharding_report.h"

namespace dynarock::tools::simulate {
namespace {

constexpr int64_t kMicros = kMicrosPerSecond;
constexpr int kBatchSize = 25;
// A load batch throttled or left unprocessed this often fails the run.
constexpr int kMaxLoadRetries = 30;
// How long the GSIs may take to hold every loaded order.
constexpr std::chrono::seconds kIndexWait{120};
// A Query page reads up to 1 MB.
constexpr double kPageBytes = 1024.0 * 1024.0;

using Progress = std::function<void(std::string_view, int64_t, int64_t)>;

// The ids of the orders the run loads (the same in every table).
std::vector<int64_t> LoadedIds(const WriteShardingOptions& o) {
  std::vector<int64_t> ids;
  for (int64_t id = 0; id < o.orders; ++id) {
    if (o.with_closed_orders || FactsOf(o.seed, id, o).open) ids.push_back(id);
  }
  return ids;
}

// Open orders in the read's date range: what every GSI's readers find.
int64_t OpenInRange(const WriteShardingOptions& o) {
  const auto [from_day, to_day] = ReadDayRange(o);
  int64_t n = 0;
  for (int64_t id = 0; id < o.orders; ++id) {
    const OrderFacts f = FactsOf(o.seed, id, o);
    if (f.open && f.day >= from_day && f.day <= to_day) ++n;
  }
  return n;
}

// The size of an open order as loaded into `t` (its shard keys included).
int64_t OpenOrderBytes(const WriteShardingOptions& o, const TableSpec& t) {
  for (int64_t id = 0; id < o.orders; ++id) {
    if (!FactsOf(o.seed, id, o).open) continue;
    std::optional<Item> item = OrderToLoad(o, t, id);
    if (item) return ItemSize(*item);
  }
  return o.order_bytes;
}

// The Query body of reader `key` of `index` on `table`, counted.
api::Json QueryBody(const std::string& table, const IndexSpec& index, const ShardQuerySpec& q,
                    size_t key) {
  return {{"TableName", table},
          {"IndexName", index.index_name},
          {"Select", "COUNT"},
          {"KeyConditionExpression", "#p = :p AND #s BETWEEN :a AND :b"},
          {"ExpressionAttributeNames",
           {{"#p", q.partition_attribute}, {"#s", q.sort_attribute}}},
          {"ExpressionAttributeValues",
           {{":p", api::EncodeAttributeValue(q.partition_keys[key])},
            {":a", api::EncodeAttributeValue(q.lo)},
            {":b", api::EncodeAttributeValue(q.hi)}}},
          {"ReturnConsumedCapacity", "TOTAL"}};
}

// The entries `index` holds in the date range, counted with Query pages
// over every shard key; nullopt when a page failed.
std::optional<int64_t> CountIndex(EndpointSession& session, http::DynamoDbHttpClient& client,
                                  const std::string& table, const IndexSpec& index,
                                  const ShardQuerySpec& q) {
  int64_t total = 0;
  for (size_t k = 0; k < q.partition_keys.size(); ++k) {
    api::Json body = QueryBody(table, index, q, k);
    while (true) {
      api::Response r = session.Call(client, "Query", body.dump());
      if (!r.ok()) return std::nullopt;
      api::Json page = api::Json::parse(r.body, nullptr, false);
      if (!page.is_object()) return std::nullopt;
      total += page.value("Count", int64_t{0});
      if (!page.contains("LastEvaluatedKey")) break;
      body["ExclusiveStartKey"] = page["LastEvaluatedKey"];
    }
  }
  return total;
}

// Waits until every GSI of `tables` holds `expected` entries in the range.
Status WaitForIndexes(EndpointSession& session, const std::vector<TableSpec>& tables,
                      const std::vector<std::string>& names, const WriteShardingOptions& o,
                      int64_t expected) {
  std::unique_ptr<http::DynamoDbHttpClient> client = session.NewClient();
  const auto [from_day, to_day] = ReadDayRange(o);
  const auto deadline = std::chrono::steady_clock::now() + kIndexWait;
  for (size_t t = 0; t < tables.size(); ++t) {
    for (const IndexSpec& index : tables[t].indexes) {
      const ShardQuerySpec q = ShardQueryOf(index, from_day, to_day);
      std::optional<int64_t> count;
      while (!session.interrupted()) {
        count = CountIndex(session, *client, names[t], index, q);
        if (count && *count >= expected) break;
        if (std::chrono::steady_clock::now() > deadline) {
          return Status::Validation(
              "GSI " + index.index_name + " of " + names[t] + " held " +
              (count ? std::to_string(*count) : std::string("?")) + " of " +
              std::to_string(expected) + " open orders " +
              std::to_string(kIndexWait.count()) + " s after the load");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
      }
    }
  }
  return Status::OK();
}

// The load: batch b of every table in turn, batch b due when the schedule
// of `load_orders_per_second` has reached it.
class LoadRun {
 public:
  LoadRun(EndpointSession& session, const WriteShardingOptions& o,
          const std::vector<TableSpec>& tables, const std::vector<std::string>& names,
          const Progress& on_progress)
      : session_(session),
        o_(o),
        tables_(tables),
        names_(names),
        on_progress_(on_progress),
        ids_(LoadedIds(o)),
        batches_per_table_((static_cast<int64_t>(ids_.size()) + kBatchSize - 1) / kBatchSize),
        total_(batches_per_table_ * static_cast<int64_t>(tables.size())),
        backoff_(o.backoff, Mix64(o.seed ^ 0x10ad)) {}

  Result<EndpointLoad> Run(int clients) {
    const int64_t n_tables = static_cast<int64_t>(tables_.size());
    const int64_t rate = o_.load_orders_per_second;
    PacedRun paced(session_, total_, [n_tables, rate](int64_t id) {
      return id / n_tables * kBatchSize * kMicros / rate;
    });
    paced_ = &paced;
    paced.Run(
        clients, "BatchWriteItem", [this](const DueTask& task) { return Body(task); },
        [this](const DueTask& task, const api::Response& r, int64_t, int64_t done) {
          Answer(task, r, done);
        });
    if (!failure_.ok()) return failure_;
    if (paced.interrupted()) return Status::Validation("interrupted while loading");
    return load_;
  }

 private:
  size_t TableOf(int64_t task) const {
    return static_cast<size_t>(task % static_cast<int64_t>(tables_.size()));
  }
  int64_t BatchOf(int64_t task) const { return task / static_cast<int64_t>(tables_.size()); }
  int64_t BatchSize(int64_t task) const {
    const int64_t first = BatchOf(task) * kBatchSize;
    return std::min<int64_t>(kBatchSize, static_cast<int64_t>(ids_.size()) - first);
  }

  // The batch's items, or what the endpoint left unprocessed of them.
  std::string Body(const DueTask& task) {
    {
      std::lock_guard<std::mutex> lock(retry_mu_);
      auto it = retry_bodies_.find(task.id);
      if (it != retry_bodies_.end()) return it->second;
    }
    const TableSpec& t = tables_[TableOf(task.id)];
    api::Json puts = api::Json::array();
    const int64_t first = BatchOf(task.id) * kBatchSize;
    for (int64_t k = first; k < first + BatchSize(task.id); ++k) {
      std::optional<Item> item = OrderToLoad(o_, t, ids_[static_cast<size_t>(k)]);
      if (item) puts.push_back({{"PutRequest", {{"Item", api::EncodeItem(*item)}}}});
    }
    return api::Json{{"RequestItems", {{names_[TableOf(task.id)], std::move(puts)}}}}.dump();
  }

  void Retry(const DueTask& task, int64_t done, std::optional<std::string> body) {
    if (task.attempt >= kMaxLoadRetries) {
      Fail(Status::Validation("BatchWriteItem on " + names_[TableOf(task.id)] +
                              " still throttled or unprocessed after " +
                              std::to_string(kMaxLoadRetries) + " retries"));
      return;
    }
    if (body) {
      std::lock_guard<std::mutex> lock(retry_mu_);
      retry_bodies_[task.id] = std::move(*body);
    }
    paced_->Push(DueTask{done + backoff_.DelayMicros(task.attempt), task.id, task.attempt + 1});
  }

  void Answer(const DueTask& task, const api::Response& r, int64_t done) {
    if (r.http_status != 0) ++load_.batches;
    if (r.ok()) {
      api::Json body = api::Json::parse(r.body, nullptr, false);
      const api::Json* unprocessed = nullptr;
      if (body.is_object() && body.contains("UnprocessedItems") &&
          body["UnprocessedItems"].is_object() && !body["UnprocessedItems"].empty()) {
        unprocessed = &body["UnprocessedItems"];
      }
      if (unprocessed != nullptr) {
        for (const auto& [table, requests] : unprocessed->items()) {
          load_.unprocessed_items += static_cast<int64_t>(requests.size());
        }
        Retry(task, done, api::Json{{"RequestItems", *unprocessed}}.dump());
        return;
      }
      load_.orders += BatchSize(task.id);
      if (on_progress_) on_progress_("load", ++finished_, total_);
      return;
    }
    const std::string type = load::ErrorTypeOf(r);
    if (IsThrottleType(type)) {
      ++load_.throttled;
      Retry(task, done, std::nullopt);
      return;
    }
    Fail(Status::Validation(session_.Describe("BatchWriteItem " + names_[TableOf(task.id)], r)));
  }

  void Fail(Status s) {
    if (failure_.ok()) failure_ = std::move(s);
    paced_->Stop();
  }

  EndpointSession& session_;
  const WriteShardingOptions& o_;
  const std::vector<TableSpec>& tables_;
  const std::vector<std::string>& names_;
  const Progress& on_progress_;
  const std::vector<int64_t> ids_;
  const int64_t batches_per_table_;
  const int64_t total_;
  PacedRun* paced_ = nullptr;
  // Under paced_'s lock (Answer):
  ExponentialBackoff backoff_;
  EndpointLoad load_;
  int64_t finished_ = 0;
  Status failure_;
  // Body reads it without paced_'s lock.
  std::mutex retry_mu_;
  std::map<int64_t, std::string> retry_bodies_;
};

// One variant at one N: every reader's pages, paced as the model paces
// them (write_sharding_reads.cc, SustainedRead), in real time.
class SustainedEndpointRead {
 public:
  SustainedEndpointRead(EndpointSession& session, const WriteShardingOptions& o,
                        const std::string& table, const IndexSpec& index,
                        const std::function<void(int64_t done_micros)>& on_progress)
      : session_(session),
        o_(o),
        table_(table),
        index_(index),
        on_progress_(on_progress),
        query_(ShardQueryOf(index, ReadDayRange(o).first, ReadDayRange(o).second)),
        n_(query_.partition_keys.size()),
        micros_per_item_(static_cast<double>(kMicros) * static_cast<double>(n_) /
                         static_cast<double>(o.required_items_per_second)),
        run_end_(static_cast<int64_t>(o.duration_seconds) * kMicros),
        readers_(n_),
        backoff_(o.backoff, Mix64(o.seed ^ Fnv1a64(index.index_name))) {
    run_.kind = index.kind;
    run_.shards = index.shards;
    run_.table_name = table;
    run_.index_name = index.index_name;
    run_.seconds.assign(static_cast<size_t>(o.duration_seconds), SecondSample{});
  }

  Result<EndpointRead> Run(int clients) {
    PacedRun paced(session_, static_cast<int64_t>(n_), [](int64_t) { return int64_t{0}; });
    paced_ = &paced;
    paced.Run(
        clients, "Query",
        [this](const DueTask& task) {
          const Reader& reader = readers_[static_cast<size_t>(task.id)];
          api::Json body = QueryBody(table_, index_, query_, static_cast<size_t>(task.id));
          if (!reader.start_key.is_null()) body["ExclusiveStartKey"] = reader.start_key;
          return body.dump();
        },
        [this](const DueTask& task, const api::Response& r, int64_t sent, int64_t done) {
          Answer(task, r, sent, done);
        });
    if (!failure_.ok()) return failure_;
    run_.interrupted = paced.interrupted();
    run_.latency_p50_ms = paced.LatencyMs(0.50);
    run_.latency_p99_ms = paced.LatencyMs(0.99);
    run_.send_lag_p99_ms = paced.SendLagMs(0.99);
    run_.achieved_items_per_second =
        static_cast<double>(run_.items) / static_cast<double>(o_.duration_seconds);
    return run_;
  }

 private:
  struct Reader {
    api::Json start_key;  // null: the shard from its start
    double due = 0;       // when its next page is due, micros from the start
  };

  SecondSample& SecondOf(int64_t t) {
    const int64_t s = std::clamp<int64_t>(t / kMicros, 0, o_.duration_seconds - 1);
    return run_.seconds[static_cast<size_t>(s)];
  }

  void Schedule(int64_t at, const DueTask& task, int attempt) {
    if (at < run_end_) paced_->Push(DueTask{at, task.id, attempt});
  }

  void Answer(const DueTask& task, const api::Response& r, int64_t sent, int64_t done) {
    if (on_progress_) on_progress_(std::min(done, run_end_));
    SecondSample& sec = SecondOf(sent);
    if (r.http_status != 0) {
      ++run_.requests;
      ++sec.requests;
    }
    if (r.ok()) {
      TakePage(task, r, sec, done);
      return;
    }
    const std::string type = load::ErrorTypeOf(r);
    if (IsThrottleType(type)) {
      CountThrottle(type, r, &run_.counts);
      ++sec.throttled;
      Schedule(done + backoff_.DelayMicros(task.attempt), task, task.attempt + 1);
      return;
    }
    if (r.http_status == 0 || r.http_status >= 500) {
      ++run_.errors;  // the session retried it already; the reader goes on
      Schedule(done + backoff_.DelayMicros(task.attempt), task, task.attempt + 1);
      return;
    }
    if (failure_.ok()) {
      failure_ = Status::Validation(session_.Describe("Query " + table_ + " " +
                                                      index_.index_name, r));
    }
    paced_->Stop();
  }

  // Counts a page and schedules the reader's next one: its share of the
  // rate after the items it read, no earlier than the answer, no further
  // behind than max_lag.
  void TakePage(const DueTask& task, const api::Response& r, SecondSample& sec, int64_t done) {
    Reader& reader = readers_[static_cast<size_t>(task.id)];
    api::Json page = api::Json::parse(r.body, nullptr, false);
    if (!page.is_object()) return;
    const double before = run_.counts.consumed_units;
    CountConsumed(r, &run_.counts);
    sec.read_units += run_.counts.consumed_units - before;
    const int64_t scanned = page.value("ScannedCount", page.value("Count", int64_t{0}));
    if (done < run_end_) {
      run_.items += scanned;
      SecondOf(done).items += scanned;
    }
    reader.start_key =
        page.contains("LastEvaluatedKey") ? page["LastEvaluatedKey"] : api::Json();
    reader.due += static_cast<double>(scanned) * micros_per_item_;
    const double floor = static_cast<double>(done - o_.max_lag_micros);
    if (reader.due < floor) reader.due = floor;
    Schedule(std::max(done, static_cast<int64_t>(std::ceil(reader.due))), task, 0);
  }

  EndpointSession& session_;
  const WriteShardingOptions& o_;
  const std::string table_;
  const IndexSpec& index_;
  const std::function<void(int64_t)>& on_progress_;
  const ShardQuerySpec query_;
  const size_t n_;
  const double micros_per_item_;
  const int64_t run_end_;
  PacedRun* paced_ = nullptr;
  // Under paced_'s lock (Answer); a reader's start_key is read by the
  // client that holds its task.
  std::vector<Reader> readers_;
  ExponentialBackoff backoff_;
  EndpointRead run_;
  Status failure_;
};

// Full names of `tables` under the session's prefix.
std::vector<std::string> FullNames(const EndpointSession& session,
                                   const std::vector<TableSpec>& tables) {
  std::vector<std::string> names;
  for (const TableSpec& t : tables) names.push_back(session.table_prefix() + t.name);
  return names;
}

const ReadRun* ModelRun(const WriteShardingReport& model, const EndpointRead& e) {
  for (const ReadRun& r : model.runs) {
    if (r.kind == e.kind && r.shards == e.shards) return &r;
  }
  return nullptr;
}

std::string VariantName(const EndpointRead& e) {
  return std::string(ShardingKindName(e.kind));
}

}  // namespace

std::vector<TableSpec> EndpointTables(const WriteShardingOptions& options) {
  WriteShardingOptions one = options;
  one.threads = 1;  // the fewest tables: at most 20 GSIs each
  return PlanTables(one);
}

RunPlan PlanWriteSharding(const WriteShardingOptions& o, const std::string& region,
                          const std::string& prefix) {
  RunPlan plan;
  plan.experiment = "write-sharding";
  plan.region = region;
  const std::vector<TableSpec> tables = EndpointTables(o);
  const int64_t loaded = static_cast<int64_t>(LoadedIds(o).size());
  const int64_t in_range = OpenInRange(o);
  double load_seconds = 0;
  for (const TableSpec& t : tables) {
    const int64_t bytes = OpenOrderBytes(o, t);
    const double units = std::ceil(static_cast<double>(bytes) / 1024.0);
    const int64_t gsis = static_cast<int64_t>(t.indexes.size());
    plan.tables.push_back(prefix + t.name);
    plan.gsis += static_cast<int>(gsis);
    // An open order writes the table and each GSI (closed ones: the table,
    // and the unsharded GSI when there is one; counted as open: an upper
    // bound).
    plan.write_requests += (loaded + kBatchSize - 1) / kBatchSize;
    plan.write_request_units += units * static_cast<double>(loaded * (1 + gsis));
    plan.stored_bytes += static_cast<double>(bytes * loaded * (1 + gsis));
    const double seconds =
        static_cast<double>(loaded) / static_cast<double>(o.load_orders_per_second);
    load_seconds += seconds;
    plan.steps.push_back(
        "CreateTable " + prefix + t.name + " with " + std::to_string(gsis) + " GSI(s) (" +
        o.capacity.Describe() + "), then " + std::to_string(loaded) + " orders of " +
        std::to_string(bytes) + " B by BatchWriteItem at " +
        std::to_string(o.load_orders_per_second) + " orders/s (" + Fixed(seconds, 0) + " s)");
    // Per GSI: one count of its entries once loaded (repeated while it
    // lags), then the sustained read.
    const double entry_bytes = static_cast<double>(bytes);
    const double items_per_page = std::max(1.0, std::floor(kPageBytes / entry_bytes));
    for (const IndexSpec& index : t.indexes) {
      const double read_items =
          static_cast<double>(o.required_items_per_second) * o.duration_seconds;
      const double items = read_items + static_cast<double>(in_range);
      const double pages = std::ceil(items / items_per_page) +
                           static_cast<double>(index.shards);
      plan.read_requests += static_cast<int64_t>(pages);
      // Eventually consistent: half a unit per 4 KB started, per page.
      plan.read_request_units +=
          0.5 * std::ceil(items * entry_bytes / 4096.0) + 0.5 * pages;
      plan.steps.push_back(
          "GSI " + index.index_name + ": count its " + std::to_string(in_range) +
          " entries once the load is in, then " + std::to_string(index.shards) +
          " reader(s) Query it at " + std::to_string(o.required_items_per_second) +
          " items/s for " + std::to_string(o.duration_seconds) +
          " s; throttled pages retried with backoff");
    }
  }
  plan.steps.push_back("DeleteTable of every table created (also on Ctrl-C)");
  plan.run_seconds = load_seconds + static_cast<double>(o.duration_seconds) * plan.gsis;
  plan.provisioned = o.capacity.provisioned;
  plan.rcu_per_table = o.capacity.read_capacity_units;
  plan.wcu_per_table = o.capacity.write_capacity_units;
  return plan;
}

Result<EndpointLoad> LoadWriteShardingAtEndpoint(EndpointSession& session,
                                                 const WriteShardingOptions& o, int clients,
                                                 const Progress& on_progress) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<TableSpec> tables = EndpointTables(o);
  for (const TableSpec& t : tables) {
    Result<std::string> created =
        session.CreateTable(t.name, CreateTableJson(OrdersTableRequest(t, o.capacity)));
    if (!created.ok()) return created.status();
  }
  const std::vector<std::string> names = FullNames(session, tables);
  Result<EndpointLoad> load = LoadRun(session, o, tables, names, on_progress).Run(clients);
  if (!load.ok()) return load;
  if (Status s = WaitForIndexes(session, tables, names, o, OpenInRange(o)); !s.ok()) return s;
  if (session.interrupted()) return Status::Validation("interrupted while loading");
  load.value().wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return load;
}

Result<std::vector<EndpointRead>> ReadWriteShardingAtEndpoint(EndpointSession& session,
                                                              const WriteShardingOptions& o,
                                                              int clients,
                                                              const Progress& on_progress) {
  const std::vector<TableSpec> tables = EndpointTables(o);
  const std::vector<std::string> names = FullNames(session, tables);
  int64_t total_indexes = 0;
  for (const TableSpec& t : tables) total_indexes += static_cast<int64_t>(t.indexes.size());
  const int64_t per_index = static_cast<int64_t>(o.duration_seconds) * 1000;
  std::vector<EndpointRead> out;
  int64_t finished = 0;
  for (size_t t = 0; t < tables.size() && !session.interrupted(); ++t) {
    for (const IndexSpec& index : tables[t].indexes) {
      if (session.interrupted()) break;
      const std::function<void(int64_t)> progress = [&](int64_t done_micros) {
        if (on_progress) {
          on_progress("read", finished * per_index + done_micros / 1000,
                      total_indexes * per_index);
        }
      };
      Result<EndpointRead> run =
          SustainedEndpointRead(session, o, names[t], index, progress).Run(clients);
      if (!run.ok()) return run.status();
      out.push_back(std::move(run).value());
      ++finished;
    }
  }
  std::stable_sort(out.begin(), out.end(), [](const EndpointRead& a, const EndpointRead& b) {
    return std::pair(a.shards, a.kind) < std::pair(b.shards, b.kind);
  });
  return out;
}

TextTable WriteShardingComparisonTable(const WriteShardingEndpointReport& report) {
  TextTable t;
  t.header = {"variant", "N", "measure", "endpoint", "model", "endpoint/model"};
  for (const EndpointRead& e : report.endpoint) {
    const ReadRun* m = ModelRun(report.model, e);
    auto row = [&](const std::string& measure, double ev, double mv, int decimals) {
      t.rows.push_back({VariantName(e), std::to_string(e.shards), measure, Fixed(ev, decimals),
                        m ? Fixed(mv, decimals) : "-", m ? RatioText(ev, mv) : "-"});
    };
    row("items_per_s", e.achieved_items_per_second, m ? m->achieved_items_per_second : 0, 0);
    row("requests", static_cast<double>(e.requests), m ? static_cast<double>(m->requests) : 0,
        0);
    row("throttled", static_cast<double>(e.counts.throttled),
        m ? static_cast<double>(m->throttled) : 0, 0);
    row("consumed_rcu", e.counts.consumed_units, m ? m->read_units : 0, 0);
    t.rows.push_back({VariantName(e), std::to_string(e.shards), "latency_p50_ms",
                      Fixed(e.latency_p50_ms, 1), "-", "-"});
    t.rows.push_back({VariantName(e), std::to_string(e.shards), "latency_p99_ms",
                      Fixed(e.latency_p99_ms, 1), "-", "-"});
  }
  return t;
}

std::string WriteShardingComparisonText(const WriteShardingEndpointReport& report) {
  const WriteShardingOptions& o = report.model.options;
  std::string out =
      "write sharding of GSI2 (sustained reads) " + EndpointLine(report.info) +
      " beside the model: " + std::to_string(report.model.orders_loaded) + " orders loaded (" +
      std::to_string(report.model.open_orders_in_range) + " OPEN in the read's range), " +
      std::to_string(o.required_items_per_second) + " items/s for " +
      std::to_string(o.duration_seconds) + " s per variant and N; capacity mode: " +
      o.capacity.Describe() + "\n";
  if (report.info.interrupted) out += "INTERRUPTED: the figures cover the run until Ctrl-C\n";
  const EndpointLoad& l = report.load;
  out += "load: " + std::to_string(l.orders) + " items in " + std::to_string(l.batches) +
         " BatchWriteItem calls (" + std::to_string(l.throttled) + " throttled, " +
         std::to_string(l.unprocessed_items) + " unprocessed items retried), GSIs caught up " +
         Fixed(l.wall_seconds, 1) + " s after the start\n";
  out += "\n" + WriteShardingComparisonTable(report).Render();
  bool throttled = report.endpoint.empty();
  for (const EndpointRead& e : report.endpoint) {
    throttled = throttled || e.counts.throttled > 0;
    out += "\n" + VariantName(e) + " N=" + std::to_string(e.shards) +
           ": throttled by exception: " + JoinCounts(e.counts.throttled_by_exception) +
           "; by ThrottlingReasons: " + JoinCounts(e.counts.throttling_reasons) +
           "; sends behind schedule p99 " + Fixed(e.send_lag_p99_ms, 1) + " ms";
    if (e.errors > 0) out += "; pages failed after retries " + std::to_string(e.errors);
  }
  out += "\n";
  return out + EndpointFooterText(report.info, throttled);
}

std::string WriteShardingComparisonJson(const WriteShardingEndpointReport& report) {
  nlohmann::json j;
  j["experiment"] = "write-sharding";
  j["endpoint"] = EndpointJson(report.info);
  j["options"] = WriteShardingOptionsJson(report.model.options);
  j["load"] = {{"orders", report.load.orders},
               {"batches", report.load.batches},
               {"throttled", report.load.throttled},
               {"unprocessed_items", report.load.unprocessed_items},
               {"wall_seconds", report.load.wall_seconds}};
  nlohmann::json runs = nlohmann::json::array();
  for (const EndpointRead& e : report.endpoint) {
    nlohmann::json seconds = nlohmann::json::array();
    for (const SecondSample& s : e.seconds) {
      seconds.push_back({{"items", s.items},
                         {"requests", s.requests},
                         {"throttled", s.throttled},
                         {"read_units", s.read_units}});
    }
    nlohmann::json endpoint = {{"requests", e.requests},
                               {"items", e.items},
                               {"items_per_second", e.achieved_items_per_second},
                               {"throttled", e.counts.throttled},
                               {"consumed_read_units", e.counts.consumed_units},
                               {"errors", e.errors},
                               {"latency_p50_ms", e.latency_p50_ms},
                               {"latency_p99_ms", e.latency_p99_ms},
                               {"send_lag_p99_ms", e.send_lag_p99_ms},
                               {"seconds", std::move(seconds)}};
    AddCountsJson(e.counts, &endpoint);
    nlohmann::json run = {{"variant", VariantName(e)},
                          {"shards", e.shards},
                          {"table", e.table_name},
                          {"index", e.index_name},
                          {"endpoint", std::move(endpoint)}};
    if (const ReadRun* m = ModelRun(report.model, e); m != nullptr) {
      run["model"] = {{"requests", m->requests},
                      {"items", m->items},
                      {"items_per_second", m->achieved_items_per_second},
                      {"throttled", m->throttled},
                      {"read_units", m->read_units}};
      run["ratio"] = {
          {"items_per_second", RatioJson(e.achieved_items_per_second,
                                         m->achieved_items_per_second)},
          {"throttled", RatioJson(static_cast<double>(e.counts.throttled),
                                  static_cast<double>(m->throttled))},
          {"consumed_read_units", RatioJson(e.counts.consumed_units, m->read_units)}};
    }
    runs.push_back(std::move(run));
  }
  j["runs"] = std::move(runs);
  j["errors"] = ErrorsJson(report.info.errors);
  j["cleanup"] = report.info.cleanup;
  return j.dump(2) + "\n";
}

}  // namespace dynarock::tools::simulate
