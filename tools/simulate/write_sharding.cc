// tools/simulate/write_sharding.cc

#include "tools/simulate/write_sharding.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>

#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/value/item_size.h"
#include "tools/simulate/sim_support.h"
#include "tools/simulate/write_sharding_reads.h"
#include "tools/simulate/write_sharding_tables.h"

namespace dynarock::tools::simulate {
namespace {

constexpr int kBatchSize = 25;
constexpr int64_t kMicros = kMicrosPerSecond;

Item LineItem(int64_t id, int line, int64_t bytes) {
  Item item;
  item["PK"] = AttributeValue::S(OrderKey(id));
  item["SK"] = AttributeValue::S("I#" + std::to_string(line));
  item["Product"] = AttributeValue::S("");
  const int64_t size = ItemSize(item);
  if (size < bytes) {
    item["Product"] = AttributeValue::S(std::string(bytes - size, 'p'));
  }
  return item;
}

// Writes `requests` whole: throttling is off while loading, but
// UnprocessedItems are retried all the same.
Status WriteBatch(Engine& engine, const std::string& table,
                  std::vector<WriteRequest>* requests) {
  BatchWriteItemRequest req;
  req.request_items.emplace_back(table, std::move(*requests));
  requests->clear();
  for (int attempt = 0; attempt < 100; ++attempt) {
    Result<BatchWriteItemResult> r = engine.BatchWriteItem(req);
    if (!r.ok()) return r.status();
    if (r.value().unprocessed_items.empty()) return Status::OK();
    req.request_items = std::move(r.value().unprocessed_items);
  }
  return Status::Internal("BatchWriteItem kept returning UnprocessedItems");
}

Status ValidateOptions(const WriteShardingOptions& o) {
  if (o.orders < 1) return Status::Validation("--orders must be at least 1");
  if (o.open_fraction < 0 || o.open_fraction > 1) {
    return Status::Validation("--open-fraction must be within 0..1");
  }
  if (o.order_bytes < 1 || o.order_item_bytes < 1 ||
      o.order_bytes > 400 * 1024 || o.order_item_bytes > 400 * 1024) {
    return Status::Validation("item sizes must be within 1 B..400 KB");
  }
  if (o.items_per_order < 0) {
    return Status::Validation("--items-per-order must not be negative");
  }
  if (o.days < 1) return Status::Validation("--days must be at least 1");
  for (const std::vector<int>* list : {&o.shards, &o.hash_shards}) {
    for (int n : *list) {
      if (n < 1 || n > 10'000) {
        return Status::Validation("shard counts must be within 1..10000");
      }
    }
  }
  if (o.duration_seconds < 1 || o.duration_seconds > 3'600) {
    return Status::Validation("--duration must be within 1..3600 seconds");
  }
  if (o.max_lag_micros < 0) return Status::Validation("--max-lag must not be negative");
  if (o.required_items_per_second < 1) {
    return Status::Validation("--rate must be at least 1");
  }
  if (o.load_orders_per_second < 1) {
    return Status::Validation("--load-rate must be at least 1");
  }
  if (o.capacity.provisioned && (o.capacity.read_capacity_units < 1 ||
                                 o.capacity.write_capacity_units < 1)) {
    return Status::Validation("--provisioned needs RCU,WCU of at least 1");
  }
  return Status::OK();
}

}  // namespace

std::string CapacityMode::Describe() const {
  if (!provisioned) return "on-demand (PAY_PER_REQUEST, table and GSIs)";
  return "provisioned " + std::to_string(read_capacity_units) + " RCU / " +
         std::to_string(write_capacity_units) + " WCU (table and each GSI)";
}

std::string_view ShardingKindName(ShardingKind kind) {
  switch (kind) {
    case ShardingKind::kUnsharded: return "unsharded";
    case ShardingKind::kRandom: return "random";
    case ShardingKind::kHash: return "hash";
  }
  return "?";
}

std::string_view ReadModeName(ReadMode mode) {
  return mode == ReadMode::kSustained ? "sustained" : "single-read";
}

std::vector<int> DefaultShards() {
  return {2, 3, 4, 6, 8, 10, 13, 15, 16, 17, 20};
}

std::vector<int> DefaultHashShards() { return {4, 13, 16}; }

std::vector<int> DefaultSustainedShards() { return {2, 4, 8, 13, 16}; }

std::vector<int> DefaultSustainedHashShards() { return {13}; }

int ZeroFrom(const std::vector<int>& xs, const std::vector<int64_t>& ys) {
  int from = -1;
  for (size_t i = xs.size(); i-- > 0;) {
    if (i >= ys.size() || ys[i] != 0) break;
    from = xs[i];
  }
  return from;
}

int PlateauStart(const std::vector<int>& xs, const std::vector<double>& ys,
                 double fraction) {
  if (xs.empty() || xs.size() != ys.size()) return 0;
  const double best = *std::min_element(ys.begin(), ys.end());
  for (size_t i = 0; i < xs.size(); ++i) {
    if (ys[i] <= best * (1 + fraction)) return xs[i];
  }
  return xs.back();
}

namespace {

// Serializes progress reports from the table threads.
class Progress {
 public:
  Progress(const WriteShardingOptions& o, int64_t load_total, int64_t read_total)
      : fn_(o.on_progress), load_total_(load_total), read_total_(read_total) {}
  void Loaded(int64_t n) {
    if (!fn_) return;
    std::lock_guard<std::mutex> lock(mu_);
    const int64_t before = load_done_;
    load_done_ += n;
    if (load_done_ / 20'000 != before / 20'000 || load_done_ == load_total_) {
      fn_("load", load_done_, load_total_);
    }
  }
  void Read() {
    if (!fn_) return;
    std::lock_guard<std::mutex> lock(mu_);
    fn_("read", ++read_done_, read_total_);
  }

 private:
  std::function<void(std::string_view, int64_t, int64_t)> fn_;
  std::mutex mu_;
  int64_t load_total_, read_total_;
  int64_t load_done_ = 0, read_done_ = 0;
};

// What one table (one engine, one clock) produced.
struct TableOutcome {
  Status status;
  std::vector<ReadRun> runs;
  int64_t order_items_loaded = 0;
  int64_t load_simulated_seconds = 0;
  double load_wall_seconds = 0;
  double read_wall_seconds = 0;
};

// Writes the table's orders, then (backfill_indexes) creates its GSIs one
// by one; progress counts the orders written and, per GSI backfilled, its
// `open_orders` entries.
Status LoadTable(Engine& engine, SimulatedClock& clock, const TableSpec& t,
                 const WriteShardingOptions& o, int64_t open_orders,
                 Progress& progress, TableOutcome* out) {
  CreateTableRequest create = OrdersTableRequest(t, o.capacity);
  std::vector<GlobalSecondaryIndexDef> later;
  std::vector<AttributeDefinition> definitions = create.attribute_definitions;
  if (o.backfill_indexes) {
    later.swap(create.global_secondary_indexes);
    create.attribute_definitions.resize(2);  // PK and SK
  }
  Result<TableDescription> created = engine.CreateTable(create);
  if (!created.ok()) return created.status();
  std::vector<WriteRequest> batch;
  int64_t batch_orders = 0;
  auto flush = [&]() -> Status {
    if (batch.empty()) return Status::OK();
    Status s = WriteBatch(engine, t.name, &batch);
    // Pace the load on the simulated clock.
    clock.Advance(batch_orders * kMicros / o.load_orders_per_second);
    progress.Loaded(batch_orders);
    batch_orders = 0;
    return s;
  };
  for (int64_t id = 0; id < o.orders; ++id) {
    std::optional<Item> order = OrderToLoad(o, t, id);
    if (!order) continue;
    batch.push_back(WriteRequest{std::move(*order), std::nullopt});
    ++batch_orders;
    if (t.first && o.with_order_items) {
      for (int line = 0; line < o.items_per_order; ++line) {
        if (batch.size() == static_cast<size_t>(kBatchSize)) {
          if (Status s = flush(); !s.ok()) return s;
        }
        batch.push_back(
            WriteRequest{LineItem(id, line, o.order_item_bytes), std::nullopt});
        ++out->order_items_loaded;
      }
    }
    if (batch.size() == static_cast<size_t>(kBatchSize)) {
      if (Status s = flush(); !s.ok()) return s;
    }
  }
  if (Status s = flush(); !s.ok()) return s;
  if (Status s = engine.WaitUntilIndexesCaughtUp(); !s.ok()) return s;
  // Backfill: one GSI per UpdateTable, as DynamoDB allows, each finished
  // before the next is asked for.
  for (GlobalSecondaryIndexDef& gsi : later) {
    UpdateTableRequest update;
    update.table_name = t.name;
    for (const KeySchemaElement& k : gsi.key_schema) {
      for (const AttributeDefinition& d : definitions) {
        if (d.attribute_name == k.attribute_name) {
          update.attribute_definitions.push_back(d);
        }
      }
    }
    GlobalSecondaryIndexUpdate add;
    add.create = std::move(gsi);
    update.global_secondary_index_updates =
        std::vector<GlobalSecondaryIndexUpdate>{std::move(add)};
    Result<TableDescription> updated = engine.UpdateTable(update);
    if (!updated.ok()) return updated.status();
    if (Status s = engine.WaitUntilIndexesCaughtUp(); !s.ok()) return s;
    clock.Advance(kMicros);
    progress.Loaded(open_orders);
  }
  return Status::OK();
}

// Loads one table into an engine of its own and reads every GSI of it.
TableOutcome RunTable(const TableSpec& t, const WriteShardingOptions& o,
                      int from_day, int to_day, int64_t open_orders,
                      Progress& progress) {
  TableOutcome out;
  SimulatedClock clock;
  Result<std::unique_ptr<Engine>> opened =
      OpenSimulationEngine(&clock, o.engine_capacity, /*throttling=*/false);
  if (!opened.ok()) {
    out.status = opened.status();
    return out;
  }
  Engine& engine = *opened.value();
  const auto load_start = std::chrono::steady_clock::now();
  const int64_t start_micros = clock.NowMicros();
  out.status = LoadTable(engine, clock, t, o, open_orders, progress, &out);
  if (out.status.ok() && o.verify_indexes) {
    out.status = engine.VerifyIndexes(Scope{}, t.name);
  }
  if (!out.status.ok()) return out;
  out.load_simulated_seconds = (clock.NowMicros() - start_micros) / kMicros;
  out.load_wall_seconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - load_start)
                              .count();
  // An idle hour: buckets full again, the load's peak out of the window.
  clock.Advance(3600 * kMicros);
  const auto read_start = std::chrono::steady_clock::now();
  engine.SetThrottling(true);
  for (const IndexSpec& index : t.indexes) {
    clock.Advance(600 * kMicros);  // idle: every bucket full
    Result<ReadRun> run =
        o.mode == ReadMode::kSustained
            ? ReadSustained(engine, clock, t, index, o, from_day, to_day)
            : ReadAllOpen(engine, clock, t, index, o, from_day, to_day);
    if (!run.ok()) {
      out.status = run.status();
      return out;
    }
    out.runs.push_back(std::move(run).value());
    progress.Read();
  }
  out.read_wall_seconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - read_start)
                              .count();
  return out;
}

// Fills in the shard lists `o` leaves empty (the mode's defaults, or the
// other list), sorted and without repeats.
void FillShardLists(WriteShardingOptions* o) {
  if (o->shards.empty() && o->hash_shards.empty()) {
    const bool sustained = o->mode == ReadMode::kSustained;
    o->shards = sustained ? DefaultSustainedShards() : DefaultShards();
    o->hash_shards = sustained ? DefaultSustainedHashShards() : DefaultHashShards();
  } else if (o->hash_shards.empty()) {
    o->hash_shards = o->shards;
  } else if (o->shards.empty()) {
    o->shards = o->hash_shards;
  }
  for (std::vector<int>* list : {&o->shards, &o->hash_shards}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
}

// Counts the open orders (in the date range too) into `report`; returns the
// sum of every order's size.
double CountOrders(const WriteShardingOptions& o, int from_day, int to_day,
                   WriteShardingReport* report) {
  double order_bytes_sum = 0;
  // An Order's size depends on its status and its key's length only (the
  // date and customer are fixed-width): one ItemSize per kind, not 3M.
  std::map<std::pair<bool, int>, int64_t> order_bytes_of;
  for (int64_t id = 0; id < o.orders; ++id) {
    const OrderFacts f = FactsOf(o.seed, id, o);
    int digits = 8;  // OrderKey's "%08lld"
    for (int64_t v = id / 100'000'000; v > 0; v /= 10) ++digits;
    auto [it, fresh] = order_bytes_of.try_emplace({f.open, digits}, 0);
    if (fresh) it->second = ItemSize(OrderItem(id, f, o.order_bytes));
    order_bytes_sum += static_cast<double>(it->second);
    if (!f.open) continue;
    ++report->open_orders;
    if (f.day >= from_day && f.day <= to_day) ++report->open_orders_in_range;
  }
  return order_bytes_sum;
}

// One engine per table; tables run on up to `threads` threads. Each table
// has its own clock, so results do not depend on the thread count.
std::vector<TableOutcome> RunTables(const std::vector<TableSpec>& tables,
                                    const WriteShardingOptions& o, int from_day,
                                    int to_day, int64_t open_orders,
                                    Progress& progress) {
  std::vector<TableOutcome> outcomes(tables.size());
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < tables.size(); i = next++) {
      outcomes[i] = RunTable(tables[i], o, from_day, to_day, open_orders, progress);
    }
  };
  std::vector<std::thread> threads;
  for (int i = 1; i < std::min<int>(o.threads, static_cast<int>(tables.size())); ++i) {
    threads.emplace_back(worker);
  }
  worker();
  for (std::thread& t : threads) t.join();
  return outcomes;
}

// The runs of every table into `report`: unsharded first, then by N:
// random, hash.
Status GatherRuns(std::vector<TableOutcome>& outcomes, WriteShardingReport* report) {
  for (TableOutcome& out : outcomes) {
    if (!out.status.ok()) return out.status;
    report->order_items_loaded += out.order_items_loaded;
    report->load_simulated_seconds =
        std::max(report->load_simulated_seconds, out.load_simulated_seconds);
    report->load_wall_seconds = std::max(report->load_wall_seconds, out.load_wall_seconds);
    report->read_wall_seconds = std::max(report->read_wall_seconds, out.read_wall_seconds);
    for (ReadRun& run : out.runs) report->runs.push_back(std::move(run));
  }
  std::stable_sort(report->runs.begin(), report->runs.end(),
                   [](const ReadRun& a, const ReadRun& b) {
                     return std::pair(a.shards, a.kind) < std::pair(b.shards, b.kind);
                   });
  return Status::OK();
}

// The seed's formula and its adjustments, and each run's balls-into-bins
// spread over the GSI's partitions at the start.
void ComputeFormulas(const WriteShardingOptions& o, WriteShardingReport* report) {
  // The entity as the seed sizes it: the order and its OrderItems, loaded
  // or not.
  report->avg_entity_bytes =
      report->avg_order_bytes +
      static_cast<double>(o.items_per_order) *
          static_cast<double>(ItemSize(LineItem(0, 0, o.order_item_bytes)));
  report->seed_formula =
      ComputeShardFormula(report->open_orders_in_range, report->avg_entity_bytes);
  report->adjusted_formula = ComputeShardFormula(
      report->open_orders_in_range, report->avg_order_bytes,
      /*eventually_consistent=*/true,
      o.engine_capacity.partition_ceilings.read_units_per_second);
  report->rate_formula = ComputeShardFormula(
      o.required_items_per_second, report->avg_order_bytes,
      /*eventually_consistent=*/true,
      o.engine_capacity.partition_ceilings.read_units_per_second);
  const double items_per_rcu =
      static_cast<double>(report->rate_formula.items_per_rcu);
  const double ceiling = static_cast<double>(
      o.engine_capacity.partition_ceilings.read_units_per_second);
  for (ReadRun& run : report->runs) {
    if (run.start_ranges.empty()) continue;
    run.spread = AnalyzeShardSpread(
        run.shards, run.key_hashes, run.start_ranges,
        static_cast<double>(o.required_items_per_second), items_per_rcu);
    report->index_partitions_at_start =
        std::max(report->index_partitions_at_start, run.spread.partitions);
  }
  if (report->index_partitions_at_start > 0) {
    report->balls_into_bins_n = SmallestSufficientShards(
        report->index_partitions_at_start,
        static_cast<double>(o.required_items_per_second), items_per_rcu,
        ceiling, 200);
  }
}

// Per sharding kind, the N the simulation found sufficient (where the read
// time plateaus, or the first N to sustain the rate) and the first N from
// which no read was throttled.
void FindSimulatedShards(const WriteShardingOptions& o, WriteShardingReport* report) {
  for (ShardingKind kind : {ShardingKind::kRandom, ShardingKind::kHash}) {
    std::vector<int> xs;
    std::vector<double> ys;
    std::vector<int64_t> throttles;
    for (const ReadRun& run : report->runs) {
      if (run.kind != kind) continue;
      xs.push_back(run.shards);
      ys.push_back(static_cast<double>(run.read_micros));
      throttles.push_back(run.throttled);
    }
    if (xs.empty()) continue;
    const std::string name(ShardingKindName(kind));
    if (o.mode == ReadMode::kSingleRead) {
      report->simulated_n[name] = PlateauStart(xs, ys, o.plateau_fraction);
    } else {
      for (const ReadRun& run : report->runs) {
        if (run.kind == kind &&
            run.achieved_items_per_second >=
                o.sustained_fraction * static_cast<double>(o.required_items_per_second)) {
          report->simulated_n[name] = run.shards;
          break;
        }
      }
    }
    const int from = ZeroFrom(xs, throttles);
    if (from > 0) report->unthrottled_n[name] = from;
  }
}

}  // namespace

Status PrepareWriteShardingOptions(WriteShardingOptions* o) {
  FillShardLists(o);
  return ValidateOptions(*o);
}

Result<WriteShardingReport> RunWriteSharding(WriteShardingOptions o) {
  if (Status s = PrepareWriteShardingOptions(&o); !s.ok()) return s;
  const auto [from_day, to_day] = ReadDayRange(o);
  const auto wall_start = std::chrono::steady_clock::now();

  WriteShardingReport report;
  const std::vector<TableSpec> tables = PlanTables(o);
  const double order_bytes_sum = CountOrders(o, from_day, to_day, &report);
  const int64_t loaded_per_table =
      o.with_closed_orders ? o.orders : report.open_orders;
  int64_t read_total = 0;
  for (const TableSpec& t : tables) {
    read_total += static_cast<int64_t>(t.indexes.size());
    std::string names;
    for (const IndexSpec& index : t.indexes) {
      names += (names.empty() ? "" : ", ") + index.index_name;
    }
    report.tables.push_back(t.name + ": " + (names.empty() ? "no GSI" : names));
  }
  // Progress: the orders written and, backfilling, the GSI entries.
  int64_t load_total = 0;
  for (const TableSpec& t : tables) {
    load_total += loaded_per_table;
    if (o.backfill_indexes) {
      load_total += report.open_orders * static_cast<int64_t>(t.indexes.size());
    }
  }
  Progress progress(o, load_total, read_total);
  std::vector<TableOutcome> outcomes =
      RunTables(tables, o, from_day, to_day, report.open_orders, progress);
  if (Status s = GatherRuns(outcomes, &report); !s.ok()) return s;
  report.orders_loaded = loaded_per_table;
  report.avg_order_bytes = order_bytes_sum / static_cast<double>(o.orders);
  ComputeFormulas(o, &report);
  FindSimulatedShards(o, &report);
  report.total_wall_seconds = std::chrono::duration<double>(
                                  std::chrono::steady_clock::now() - wall_start)
                                  .count();
  report.options = std::move(o);
  report.options.on_progress = nullptr;
  return report;
}

}  // namespace dynarock::tools::simulate
