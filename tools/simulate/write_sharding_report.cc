// tools/simulate/write_sharding_report.cc

#include "tools/simulate/write_sharding_report.h"

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "api/metrics/cost_model.h"
#include "api/metrics/price_table.h"
#include "tools/simulate/svg_plot.h"

namespace dynarock::tools::simulate {
namespace {

double Seconds(int64_t micros) { return static_cast<double>(micros) / 1e6; }

// The text report's window for the rate over time.
constexpr size_t kWindow = 5;

nlohmann::json FormulaJson(const ShardFormula& f) {
  return {{"avg_item_bytes", f.avg_item_bytes},
          {"items_per_rcu", f.items_per_rcu},
          {"partition_read_units", f.partition_read_units},
          {"partition_max_read_rate", f.partition_max_read_rate},
          {"max_required_io", f.max_required_io},
          {"n_exact", f.n_exact},
          {"n", f.n}};
}

}  // namespace

namespace {

// "start->end" partitions and the seconds whose end saw a split.
std::string SplitsCell(const ReadRun& r) {
  if (r.split_seconds.empty()) return "-";
  std::string out;
  for (int sec : r.split_seconds) out += (out.empty() ? "" : ",") + std::to_string(sec);
  return out;
}

int64_t MinItemsPerSecond(const ReadRun& r) {
  int64_t lo = -1;
  for (const SecondSample& sec : r.seconds) lo = lo < 0 ? sec.items : std::min(lo, sec.items);
  return std::max<int64_t>(lo, 0);
}

}  // namespace

TextTable WriteShardingTable(const WriteShardingReport& report) {
  TextTable t;
  if (report.options.mode == ReadMode::kSustained) {
    t.header = {"variant", "N", "index", "items_s", "of_rate", "min_items_s",
                "requests", "throttled", "hot_rcu_peak", "hot_rcu_mean",
                "partitions", "splits_at_s", "max_tries", "P_start",
                "E_max_keys", "hashed_max_keys", "pred_hot_rcu_s"};
    const double rate = static_cast<double>(report.options.required_items_per_second);
    for (const ReadRun& r : report.runs) {
      const int start = static_cast<int>(r.start_ranges.size());
      t.rows.push_back({std::string(ShardingKindName(r.kind)),
                        std::to_string(r.shards), r.index_name,
                        Fixed(r.achieved_items_per_second, 0),
                        Fixed(100 * r.achieved_items_per_second / rate, 1) + "%",
                        std::to_string(MinItemsPerSecond(r)),
                        std::to_string(r.requests), std::to_string(r.throttled),
                        Fixed(r.hottest_partition_peak, 1),
                        Fixed(r.hottest_partition_mean, 1),
                        std::to_string(start) + "->" + std::to_string(r.index_partitions),
                        SplitsCell(r), std::to_string(r.max_attempts),
                        std::to_string(r.spread.partitions),
                        Fixed(r.spread.expected_max_keys, 2),
                        std::to_string(r.spread.hashed_max_keys),
                        Fixed(r.spread.hashed_hottest_rcu, 0)});
    }
    return t;
  }
  t.header = {"variant", "N", "index", "read_s", "requests", "throttled",
              "rcu", "items", "partitions_touched", "index_partitions",
              "max_tries", "P_start", "E_max_keys", "hashed_max_keys",
              "pred_hot_rcu_s"};
  for (const ReadRun& r : report.runs) {
    t.rows.push_back({std::string(ShardingKindName(r.kind)),
                      std::to_string(r.shards), r.index_name,
                      Fixed(Seconds(r.read_micros), 3),
                      std::to_string(r.requests), std::to_string(r.throttled),
                      Fixed(r.read_units, 1), std::to_string(r.items),
                      std::to_string(r.partitions_touched),
                      std::to_string(r.index_partitions),
                      std::to_string(r.max_attempts),
                      std::to_string(r.spread.partitions),
                      Fixed(r.spread.expected_max_keys, 2),
                      std::to_string(r.spread.hashed_max_keys),
                      Fixed(r.spread.hashed_hottest_rcu, 0)});
  }
  return t;
}

TextTable WriteShardingSeries(const WriteShardingReport& report) {
  TextTable t;
  t.header = {"variant", "N", "second", "items", "requests", "throttled",
              "rcu", "hottest_partition_rcu", "partitions"};
  for (const ReadRun& r : report.runs) {
    for (size_t i = 0; i < r.seconds.size(); ++i) {
      const SecondSample& sec = r.seconds[i];
      t.rows.push_back({std::string(ShardingKindName(r.kind)),
                        std::to_string(r.shards), std::to_string(i),
                        std::to_string(sec.items), std::to_string(sec.requests),
                        std::to_string(sec.throttled), Fixed(sec.read_units, 1),
                        Fixed(sec.hottest_partition_units, 1),
                        std::to_string(sec.partitions)});
    }
  }
  return t;
}

namespace {

// What ran: the mode, the orders, the tables, the wall and simulated times.
std::string RunText(const WriteShardingReport& report) {
  const WriteShardingOptions& o = report.options;
  std::string out;
  out += "write sharding of GSI2 (seed 000/003, access pattern 5)\n";
  out += "capacity mode: " + o.capacity.Describe() + "\n";
  if (o.mode == ReadMode::kSustained) {
    out += "read mode: sustained: every OPEN order in the date range, over and "
           "over, at " + std::to_string(o.required_items_per_second) +
           " items/s (--rate) for " + std::to_string(o.duration_seconds) +
           " simulated seconds (--duration) per variant and N; hot_rcu: the "
           "hottest GSI partition's read units per second against its " +
           std::to_string(o.engine_capacity.partition_ceilings.read_units_per_second) +
           " RCU/s ceiling (the first second may take a full bucket more)\n";
  } else {
    out += "read mode: single-read: every OPEN order once, as fast as the "
           "clients can (--mode single-read)\n";
  }
  out += "orders: " + std::to_string(o.orders) + " (" +
         std::to_string(report.open_orders) + " OPEN, " +
         std::to_string(report.open_orders_in_range) +
         " in the read's date range); written per table: " +
         std::to_string(report.orders_loaded) + " orders" +
         (o.with_closed_orders ? "" : " (the OPEN ones; --with-closed-orders)") +
         ", " + std::to_string(report.order_items_loaded) + " OrderItems" +
         (o.with_order_items ? "" : " (counted, not loaded: --with-order-items)") +
         "; avg Order " + Fixed(report.avg_order_bytes, 1) +
         " B, entity " + Fixed(report.avg_entity_bytes, 1) + " B\n";
  for (const std::string& t : report.tables) out += "  table " + t + "\n";
  out += "wall time: " + Fixed(report.total_wall_seconds, 1) + " s (" +
         std::to_string(report.tables.size()) + " table(s) on " +
         std::to_string(o.threads) + " thread(s)); slowest table's load: " +
         Fixed(report.load_wall_seconds, 1) + " s wall, " +
         std::to_string(report.load_simulated_seconds) +
         " s simulated (throttling off); read: " +
         Fixed(report.read_wall_seconds, 1) + " s wall (throttling on)\n\n";
  return out;
}

// Sustained mode: each run's achieved items/s per window of seconds.
std::string SustainedSeriesText(const WriteShardingReport& report) {
  const WriteShardingOptions& o = report.options;
  std::string out;
  if (o.mode == ReadMode::kSustained) {
    out += "\nachieved items/s over time (thousands; the mean of each " +
           std::to_string(kWindow) + " simulated seconds, from second 0):\n";
    for (const ReadRun& r : report.runs) {
      std::string line = std::string(ShardingKindName(r.kind)) + " " +
                         std::to_string(r.shards) + ":";
      line.resize(std::max<size_t>(line.size(), 14), ' ');
      for (size_t i = 0; i < r.seconds.size(); i += kWindow) {
        int64_t sum = 0;
        size_t count = 0;
        for (size_t j = i; j < std::min(r.seconds.size(), i + kWindow); ++j, ++count) {
          sum += r.seconds[j].items;
        }
        line += " " + Fixed(static_cast<double>(sum) / static_cast<double>(count) / 1000, 0);
      }
      out += line + "\n";
    }
  }
  return out;
}

// The seed's formula, with the simulation's inputs, at the required rate,
// and the balls-into-bins N.
std::string FormulaText(const WriteShardingReport& report) {
  const ShardFormula& f = report.seed_formula;
  const ShardFormula& a = report.adjusted_formula;
  std::string out;
  out += "\nseed formula: ItemsPerRCU = 4 KB / " + Fixed(f.avg_item_bytes, 0) +
         " B = " + std::to_string(f.items_per_rcu) +
         "; PartitionMaxReadRate = 3000 * " + std::to_string(f.items_per_rcu) +
         " = " + std::to_string(f.partition_max_read_rate) + "; N = " +
         std::to_string(f.max_required_io) + " / " +
         std::to_string(f.partition_max_read_rate) + " = " +
         Fixed(f.n_exact, 2) + " -> " + std::to_string(f.n) + "\n";
  out += "with what the simulation reads (GSI entries of " +
         Fixed(a.avg_item_bytes, 0) +
         " B, eventually consistent: 8 KB per unit): ItemsPerRCU = " +
         std::to_string(a.items_per_rcu) + ", PartitionMaxReadRate = " +
         std::to_string(a.partition_max_read_rate) + ", N = " +
         Fixed(a.n_exact, 2) + " -> " + std::to_string(a.n) + "\n";
  const ShardFormula& rf = report.rate_formula;
  out += "at the required rate (" + std::to_string(rf.max_required_io) +
         " items/s, --rate): N = " + std::to_string(rf.max_required_io) +
         " / " + std::to_string(rf.partition_max_read_rate) + " = " +
         Fixed(rf.n_exact, 2) + " -> " + std::to_string(rf.n) +
         " if the keys spread evenly; the demand is " +
         Fixed(static_cast<double>(rf.max_required_io) /
                   static_cast<double>(rf.items_per_rcu), 0) +
         " RCU/s against " + std::to_string(rf.partition_read_units) +
         " per partition\n";
  out += "balls into bins: N shard keys hash onto the P_start partitions the GSI "
         "has when the read starts; E_max_keys is the expected most keys on one "
         "partition for random placement (exact), hashed_max_keys what the "
         "keys 0..N-1 actually got, pred_hot_rcu_s = rate / N * hashed_max_keys / "
         "ItemsPerRCU the hottest partition's share of the rate. ";
  out += report.balls_into_bins_n > 0
             ? "Smallest N whose expected hottest partition fits " +
                   std::to_string(rf.partition_read_units) + " RCU/s over " +
                   std::to_string(report.index_partitions_at_start) +
                   " partitions: " + std::to_string(report.balls_into_bins_n) + "\n"
             : "No N up to 200 fits the expected hottest partition within its "
               "ceiling over " +
                   std::to_string(report.index_partitions_at_start) +
                   " partitions\n";
  return out;
}

// The seed's N to the simulation's, step by step: the formula's inputs,
// then the hashing of the keys onto the partitions.
std::string SeedToSimulationText(const WriteShardingReport& report) {
  const ShardFormula& f = report.seed_formula;
  const ShardFormula& rf = report.rate_formula;
  std::string out;
  std::set<int> fit, overflow;
  for (const ReadRun& r : report.runs) {
    if (r.kind == ShardingKind::kUnsharded || r.spread.partitions == 0) continue;
    (r.spread.hashed_hottest_rcu <= static_cast<double>(rf.partition_read_units)
         ? fit
         : overflow)
        .insert(r.shards);
  }
  auto list = [](const std::set<int>& ns) {
    std::string out;
    for (int n : ns) out += (out.empty() ? "" : ", ") + std::to_string(n);
    return out.empty() ? std::string("none") : out;
  };
  out += "from the seed's N to the simulation's: the formula with the seed's inputs "
         "says " + std::to_string(f.n) + "; with GSI entries read eventually "
         "consistently, " + std::to_string(rf.n) +
         " (the formula's inputs), if the keys spread evenly; hashed onto " +
         std::to_string(report.index_partitions_at_start) +
         " partitions, the expected hottest partition needs N = " +
         (report.balls_into_bins_n > 0 ? std::to_string(report.balls_into_bins_n)
                                       : std::string("more than 200")) +
         " (the hashing); these keys 0..N-1 fit the ceiling at N = " + list(fit) +
         " of the sweep and overflow it at N = " + list(overflow) +
         " (pred_hot_rcu_s)\n";
  int partitions = 0;
  for (const ReadRun& r : report.runs) partitions = std::max(partitions, r.index_partitions);
  out += "why they differ: GSI reads are eventually consistent (a unit reads 8 KB, "
         "twice the formula's rate); GSI2 holds the Orders, not the whole entities; "
         "the shard keys hash onto the partitions each GSI has (up to " +
         std::to_string(partitions) +
         " here), so past that N adds client parallelism and collisions "
         "(docs/simulate.md)\n";
  return out;
}

// Per variant, the N the simulation found and where throttling stopped.
std::string SimulatedNText(const WriteShardingReport& report) {
  const WriteShardingOptions& o = report.options;
  std::string out;
  const bool sustained = o.mode == ReadMode::kSustained;
  for (const char* variant : {"hash", "random"}) {
    const std::vector<int>& swept =
        std::string(variant) == "hash" ? o.hash_shards : o.shards;
    bool ran = false;
    for (const ReadRun& r : report.runs) {
      ran = ran || ShardingKindName(r.kind) == variant;
    }
    if (!ran) continue;
    std::string list;
    for (int x : swept) list += (list.empty() ? "" : ",") + std::to_string(x);
    auto sim = report.simulated_n.find(variant);
    out += "simulated N (" + std::string(variant) + ", of N = " + list + "): ";
    if (sustained) {
      out += sim == report.simulated_n.end()
                 ? "none (no N reached " + Fixed(o.sustained_fraction * 100, 0) +
                       " % of the required rate)"
                 : std::to_string(sim->second) + " (the smallest N reaching " +
                       Fixed(o.sustained_fraction * 100, 0) +
                       " % of the required rate)";
    } else {
      out += std::to_string(sim == report.simulated_n.end() ? 0 : sim->second) +
             " (the smallest N within " + Fixed(o.plateau_fraction * 100, 0) +
             " % of the best read time)";
    }
    auto it = report.unthrottled_n.find(variant);
    out += it == report.unthrottled_n.end()
               ? "; throttled up to the largest N\n"
               : "; no throttle from N = " + std::to_string(it->second) + " on\n";
  }
  return out;
}

std::string CostText(const WriteShardingReport& report) {
  const api::metrics::PriceTable& prices = api::metrics::UsEast1StandardPrices();
  std::string out = "\nwhat DynamoDB would bill for each run's reads (" +
                    std::string(prices.region) + " list prices of " + std::string(prices.as_of) +
                    "; provisioned: the busiest second's RCU and 1 WCU for the read's length; "
                    "storage not counted):\n";
  for (const ReadRun& r : report.runs) {
    const ReadRunCost c = CostOfRead(r);
    out += "  " + std::string(ShardingKindName(r.kind)) + " N=" + std::to_string(r.shards) +
           ": on-demand " + api::metrics::FormatDollars(c.on_demand) + ", provisioned " +
           api::metrics::FormatDollars(c.provisioned) + " (" + Fixed(c.provisioned_rcu, 0) +
           " RCU)\n";
  }
  return out;
}

}  // namespace

ReadRunCost CostOfRead(const ReadRun& run) {
  const double seconds = Seconds(run.read_micros);
  double peak = 0;
  for (const SecondSample& sec : run.seconds) peak = std::max(peak, sec.read_units);
  if (run.seconds.empty() && seconds > 0) peak = run.read_units / seconds;
  api::metrics::TableUsage usage;
  usage.read_units = run.read_units;
  usage.period_hours = seconds / 3600;
  usage.provisioned_rcu = api::metrics::ProvisionedForPeak(peak);
  usage.provisioned_wcu = api::metrics::ProvisionedForPeak(0);
  const api::metrics::TableCost cost =
      api::metrics::EstimateCost(usage, api::metrics::UsEast1StandardPrices());
  return {cost.on_demand_total(), cost.provisioned_total(), usage.provisioned_rcu};
}

std::string WriteShardingText(const WriteShardingReport& report) {
  std::string out = RunText(report);
  out += WriteShardingTable(report).Render();
  out += SustainedSeriesText(report);
  out += FormulaText(report);
  out += SeedToSimulationText(report);
  out += SimulatedNText(report);
  out += CostText(report);
  return out;
}

nlohmann::json WriteShardingOptionsJson(const WriteShardingOptions& o) {
  return {{"orders", o.orders},
          {"open_fraction", o.open_fraction},
          {"order_bytes", o.order_bytes},
          {"order_item_bytes", o.order_item_bytes},
          {"items_per_order", o.items_per_order},
          {"with_order_items", o.with_order_items},
          {"days", o.days},
          {"shards", o.shards},
          {"hash_shards", o.hash_shards},
          {"seed", o.seed},
          {"capacity_mode", o.capacity.Describe()},
          {"load_orders_per_second", o.load_orders_per_second},
          {"service_base_micros", o.service.base_micros},
          {"service_micros_per_kb", o.service.micros_per_kb},
          {"backoff_base_micros", o.backoff.base_micros},
          {"backoff_cap_micros", o.backoff.cap_micros},
          {"plateau_fraction", o.plateau_fraction},
          {"required_items_per_second", o.required_items_per_second},
          {"mode", ReadModeName(o.mode)},
          {"duration_seconds", o.duration_seconds},
          {"max_lag_micros", o.max_lag_micros},
          {"sustained_fraction", o.sustained_fraction}};
}

std::string WriteShardingJson(const WriteShardingReport& report) {
  const WriteShardingOptions& o = report.options;
  nlohmann::json j;
  j["experiment"] = "write-sharding";
  j["options"] = WriteShardingOptionsJson(o);
  j["loaded"] = {{"orders_per_table", report.orders_loaded},
                 {"with_closed_orders", o.with_closed_orders},
                 {"total_wall_seconds", report.total_wall_seconds},
                 {"threads", o.threads},
                 {"open_orders", report.open_orders},
                 {"open_orders_in_range", report.open_orders_in_range},
                 {"order_items", report.order_items_loaded},
                 {"avg_order_bytes", report.avg_order_bytes},
                 {"avg_entity_bytes", report.avg_entity_bytes},
                 {"tables", report.tables},
                 {"load_wall_seconds", report.load_wall_seconds},
                 {"load_simulated_seconds", report.load_simulated_seconds},
                 {"read_wall_seconds", report.read_wall_seconds}};
  j["seed_formula"] = FormulaJson(report.seed_formula);
  j["adjusted_formula"] = FormulaJson(report.adjusted_formula);
  j["rate_formula"] = FormulaJson(report.rate_formula);
  j["balls_into_bins_n"] = report.balls_into_bins_n;
  j["index_partitions_at_start"] = report.index_partitions_at_start;
  j["simulated_n"] = report.simulated_n;
  j["unthrottled_n"] = report.unthrottled_n;
  nlohmann::json runs = nlohmann::json::array();
  for (const ReadRun& r : report.runs) {
    runs.push_back({{"variant", ShardingKindName(r.kind)},
                    {"shards", r.shards},
                    {"table", r.table_name},
                    {"index", r.index_name},
                    {"read_seconds", Seconds(r.read_micros)},
                    {"requests", r.requests},
                    {"throttled", r.throttled},
                    {"read_units", r.read_units},
                    {"items", r.items},
                    {"partitions_touched", r.partitions_touched},
                    {"index_partitions", r.index_partitions},
                    {"max_tries", r.max_attempts},
                    {"partitions_at_start", r.spread.partitions},
                    {"expected_max_keys", r.spread.expected_max_keys},
                    {"expected_max_keys_exact", r.spread.expected_exact},
                    {"hashed_max_keys", r.spread.hashed_max_keys},
                    {"expected_hottest_rcu", r.spread.expected_hottest_rcu},
                    {"hashed_hottest_rcu", r.spread.hashed_hottest_rcu}});
    if (o.mode == ReadMode::kSustained) {
      nlohmann::json& run = runs.back();
      run["achieved_items_per_second"] = r.achieved_items_per_second;
      run["hottest_partition_rcu_peak"] = r.hottest_partition_peak;
      run["hottest_partition_rcu_mean"] = r.hottest_partition_mean;
      run["max_ceiling_excess"] = r.max_ceiling_excess;
      run["max_page_units"] = r.max_page_units;
      run["split_seconds"] = r.split_seconds;
      nlohmann::json secs = nlohmann::json::array();
      for (const SecondSample& sec : r.seconds) {
        secs.push_back({{"items", sec.items},
                        {"requests", sec.requests},
                        {"throttled", sec.throttled},
                        {"read_units", sec.read_units},
                        {"hottest_partition_rcu", sec.hottest_partition_units},
                        {"partitions", sec.partitions}});
      }
      run["seconds"] = std::move(secs);
    }
  }
  j["runs"] = std::move(runs);
  return j.dump(2) + "\n";
}

namespace {

// Sustained: the achieved rate per simulated second of the unsharded run
// and of up to five sharded ones, against the required rate.
std::string SustainedSvg(const WriteShardingReport& report) {
  const WriteShardingOptions& o = report.options;
  const double rate = static_cast<double>(o.required_items_per_second);
  LinePlot plot;
  plot.title = "Items read per second, " + Fixed(rate / 1000, 0) +
               "K/s required: unsharded vs N shard keys (" +
               (o.capacity.provisioned ? "provisioned" : "on-demand") + ")";
  plot.x_label = "simulated second";
  plot.y_label = "thousand items read per second";
  std::vector<const ReadRun*> chosen;
  std::vector<const ReadRun*> random, hash;
  for (const ReadRun& r : report.runs) {
    if (r.kind == ShardingKind::kUnsharded) chosen.push_back(&r);
    if (r.kind == ShardingKind::kRandom) random.push_back(&r);
    if (r.kind == ShardingKind::kHash) hash.push_back(&r);
  }
  // At most five sharded lines: every random N when there are that few,
  // else five spread over the sweep; a hash line if room is left.
  constexpr size_t kMaxSharded = 5;
  if (random.size() <= kMaxSharded) {
    chosen.insert(chosen.end(), random.begin(), random.end());
  } else {
    for (size_t i = 0; i < kMaxSharded; ++i) {
      chosen.push_back(random[i * (random.size() - 1) / (kMaxSharded - 1)]);
    }
  }
  for (const ReadRun* r : hash) {
    if (chosen.size() < kMaxSharded + 1) chosen.push_back(r);
  }
  for (const ReadRun* r : chosen) {
    PlotSeries s;
    s.name = r->kind == ShardingKind::kUnsharded
                 ? std::string("unsharded")
                 : std::string(ShardingKindName(r->kind)) + " N = " +
                       std::to_string(r->shards);
    s.name += ": " + Fixed(100 * r->achieved_items_per_second / rate, 0) + " %" +
              (r->throttled > 0 ? ", throttled" : "");
    for (size_t i = 0; i < r->seconds.size(); ++i) {
      s.x.push_back(static_cast<double>(i));
      s.y.push_back(static_cast<double>(r->seconds[i].items) / 1000);
    }
    plot.series.push_back(std::move(s));
  }
  PlotSeries target;
  target.name = "required rate";
  target.reference = true;
  target.x = {0, static_cast<double>(std::max(1, o.duration_seconds - 1))};
  target.y = {rate / 1000, rate / 1000};
  plot.series.push_back(std::move(target));
  return RenderLinePlot(plot);
}

}  // namespace

std::string WriteShardingSvg(const WriteShardingReport& report) {
  if (report.options.mode == ReadMode::kSustained) return SustainedSvg(report);
  LinePlot plot;
  plot.title = "Time to read every OPEN order vs shards (" +
               report.options.capacity.Describe() + ")";
  plot.x_label = "N (shard keys = parallel queries)";
  plot.y_label = "simulated seconds";
  double unsharded = -1;
  for (const ReadRun& r : report.runs) {
    if (r.kind == ShardingKind::kUnsharded) unsharded = Seconds(r.read_micros);
  }
  for (ShardingKind kind : {ShardingKind::kRandom, ShardingKind::kHash}) {
    PlotSeries s;
    s.name = std::string(ShardingKindName(kind)) + " suffix";
    for (const ReadRun& r : report.runs) {
      if (r.kind != kind) continue;
      s.x.push_back(r.shards);
      s.y.push_back(Seconds(r.read_micros));
    }
    if (!s.x.empty()) plot.series.push_back(std::move(s));
  }
  int lo = 0, hi = 0;
  for (const ReadRun& r : report.runs) {
    if (r.kind == ShardingKind::kUnsharded) continue;
    lo = lo == 0 ? r.shards : std::min(lo, r.shards);
    hi = std::max(hi, r.shards);
  }
  if (unsharded >= 0 && hi > 0) {
    PlotSeries s;
    s.name = "unsharded";
    s.x = {static_cast<double>(lo), static_cast<double>(hi)};
    s.y = {unsharded, unsharded};
    plot.series.push_back(std::move(s));
  }
  plot.x_markers.push_back({static_cast<double>(report.seed_formula.n),
                            "seed N = " + std::to_string(report.seed_formula.n)});
  for (const auto& [variant, n] : report.simulated_n) {
    plot.x_markers.push_back(
        {static_cast<double>(n), "sim N (" + variant + ") = " + std::to_string(n)});
  }
  return RenderLinePlot(plot);
}

}  // namespace dynarock::tools::simulate
