// tools/simulate/write_sharding_report.cc

#include "tools/simulate/write_sharding_report.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "tools/simulate/svg_plot.h"

namespace dynarock::tools::simulate {
namespace {

double Seconds(int64_t micros) { return static_cast<double>(micros) / 1e6; }

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

TextTable WriteShardingTable(const WriteShardingReport& report) {
  TextTable t;
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

std::string WriteShardingText(const WriteShardingReport& report) {
  const WriteShardingOptions& o = report.options;
  const ShardFormula& f = report.seed_formula;
  const ShardFormula& a = report.adjusted_formula;
  std::string out;
  out += "write sharding of GSI2 (seed 000/003, access pattern 5)\n";
  out += "capacity mode: " + o.capacity.Describe() + "\n";
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
  out += WriteShardingTable(report).Render();
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
  int partitions = 0;
  for (const ReadRun& r : report.runs) partitions = std::max(partitions, r.index_partitions);
  out += "why they differ: GSI reads are eventually consistent (a unit reads 8 KB, "
         "twice the formula's rate); GSI2 holds the Orders, not the whole entities; "
         "the shard keys hash onto the partitions each GSI has (up to " +
         std::to_string(partitions) +
         " here), so past that N adds client parallelism and collisions "
         "(docs/simulate.md)\n";
  for (const auto& [variant, n] : report.simulated_n) {
    const std::vector<int>& swept =
        variant == "hash" ? o.hash_shards : o.shards;
    std::string list;
    for (int x : swept) list += (list.empty() ? "" : ",") + std::to_string(x);
    out += "simulated N (" + variant + ", of N = " + list + "): " +
           std::to_string(n) +
           " (the smallest N within " + Fixed(o.plateau_fraction * 100, 0) +
           " % of the best read time)";
    auto it = report.unthrottled_n.find(variant);
    out += it == report.unthrottled_n.end()
               ? "; throttled up to the largest N\n"
               : "; no throttle from N = " + std::to_string(it->second) + " on\n";
  }
  return out;
}

std::string WriteShardingJson(const WriteShardingReport& report) {
  const WriteShardingOptions& o = report.options;
  nlohmann::json j;
  j["experiment"] = "write-sharding";
  j["options"] = {{"orders", o.orders},
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
                  {"required_items_per_second", o.required_items_per_second}};
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
  }
  j["runs"] = std::move(runs);
  return j.dump(2) + "\n";
}

std::string WriteShardingSvg(const WriteShardingReport& report) {
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
