// tools/simulate/hot_partition.cc

#include "tools/simulate/hot_partition.h"

#include <algorithm>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "api/metrics/cost_model.h"
#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/value/item_size.h"
#include "tools/simulate/svg_plot.h"

namespace dynarock::tools::simulate {
namespace {

constexpr int64_t kMicros = 1'000'000;

Result<HotScenario> RunScenario(Engine& engine, SimulatedClock& clock,
                                const HotPartitionOptions& o,
                                const std::string& table, int keys) {
  HotScenario sc;
  sc.table_name = table;
  sc.keys = keys;
  sc.name = keys == 1 ? "single-key" : "suffixed-" + std::to_string(keys);

  if (auto r = engine.CreateTable(HotTableRequest(o, table)); !r.ok()) return r.status();

  // Start on a whole second, after an idle minute.
  clock.Set((clock.NowMicros() / kMicros + 60) * kMicros);
  const int64_t start = clock.NowMicros();
  const int64_t total = o.rate * o.duration_seconds;
  std::vector<int> attempts(static_cast<size_t>(total), 0);
  ExponentialBackoff backoff(o.backoff, o.seed);
  std::map<uint32_t, PartitionHeat> heat;
  Status failure;

  EventLoop loop(&clock);
  loop.Schedule(start + kMicros - 1, 0);  // sampler: end of second 0
  for (int64_t i = 0; i < total; ++i) {
    loop.Schedule(start + i * kMicros / o.rate, static_cast<int>(i + 1));
  }
  loop.Run([&](int w) {
    const int64_t now = clock.NowMicros();
    if (w == 0) {
      const int64_t second = (now - start) / kMicros;
      Result<TableThroughputStats> stats =
          engine.DescribeCapacity(Scope{}, table, 0);
      if (!stats.ok()) {
        if (failure.ok()) failure = stats.status();
        return;
      }
      for (const PartitionStats& p : stats.value().table.partitions) {
        PartitionHeat& h = heat[p.id];
        h.partition_id = p.id;
        h.begin = p.begin;
        h.write_units.resize(static_cast<size_t>(second) + 1, 0);
        h.write_units[static_cast<size_t>(second)] =
            p.last_second.consumed_write_units;
      }
      if (second + 1 < o.duration_seconds || loop.pending() > 0) {
        loop.Schedule(now + kMicros, 0);
      }
      return;
    }
    const int64_t i = w - 1;
    PutItemRequest put;
    put.table_name = table;
    put.item = HotWriteItem(o, keys, i);
    Result<PutItemResult> r = engine.PutItem(put);
    ++sc.requests;
    if (!r.ok()) {
      if (!IsThrottle(r.status())) {
        if (failure.ok()) failure = r.status();
        return;
      }
      ++sc.throttled;
      int& a = attempts[static_cast<size_t>(i)];
      if (a >= o.max_retries) {
        ++sc.failed;
        return;
      }
      loop.Schedule(now + o.service.base_micros + backoff.DelayMicros(a++), w);
      return;
    }
    ++sc.writes;
    const double units = r.value().consumed_capacity.Total().write_units;
    sc.write_units += units;
    sc.last_write_micros =
        std::max(sc.last_write_micros,
                 now - start + o.service.base_micros +
                     o.service.micros_per_kb * static_cast<int64_t>(units));
  });
  if (!failure.ok()) return failure;
  Result<TableThroughputStats> stats = engine.DescribeCapacity(Scope{}, table, 10);
  if (!stats.ok()) return stats.status();
  sc.hot_keys = stats.value().table.hot_keys;
  size_t seconds = 0;
  for (const auto& [id, h] : heat) seconds = std::max(seconds, h.write_units.size());
  for (auto& [id, h] : heat) {
    h.write_units.resize(seconds, 0);
    sc.heat.push_back(h);
  }
  std::sort(sc.heat.begin(), sc.heat.end(),
            [](const PartitionHeat& a, const PartitionHeat& b) {
              return a.begin < b.begin;
            });
  return sc;
}

}  // namespace

CreateTableRequest HotTableRequest(const HotPartitionOptions& o, const std::string& table) {
  CreateTableRequest create;
  create.table_name = table;
  create.key_schema = {{"PK", KeyType::kHash}, {"SK", KeyType::kRange}};
  create.attribute_definitions = {{"PK", AttrType::kS}, {"SK", AttrType::kS}};
  if (o.capacity.provisioned) {
    create.billing_mode = BillingMode::kProvisioned;
    create.provisioned_throughput = ProvisionedThroughput{
        o.capacity.read_capacity_units, o.capacity.write_capacity_units};
  } else {
    create.billing_mode = BillingMode::kPayPerRequest;
  }
  return create;
}

nlohmann::json HotPartitionOptionsJson(const HotPartitionOptions& o) {
  return {{"rate", o.rate},
          {"item_bytes", o.item_bytes},
          {"duration_seconds", o.duration_seconds},
          {"suffixes", o.suffixes},
          {"max_retries", o.max_retries},
          {"seed", o.seed},
          {"capacity_mode", o.capacity.Describe()}};
}

Item HotWriteItem(const HotPartitionOptions& o, int keys, int64_t i) {
  Item item;
  item["PK"] = AttributeValue::S(
      keys == 1 ? "HOT"
                : "HOT#" + std::to_string(Mix64(o.seed * 7919 + static_cast<uint64_t>(i)) %
                                          static_cast<uint64_t>(keys)));
  item["SK"] = AttributeValue::S("W#" + std::to_string(i));
  item["Data"] = AttributeValue::S("");
  const int64_t size = ItemSize(item);
  if (size < o.item_bytes) {
    item["Data"] = AttributeValue::S(std::string(static_cast<size_t>(o.item_bytes - size), 'd'));
  }
  return item;
}

Result<HotPartitionReport> RunHotPartition(const HotPartitionOptions& o) {
  if (o.rate < 1 || o.rate > 1'000'000) {
    return Status::Validation("--rate must be within 1..1000000");
  }
  if (o.duration_seconds < 1 || o.rate * o.duration_seconds > 20'000'000) {
    return Status::Validation("--duration must be at least 1 and rate x duration at most 20M");
  }
  if (o.suffixes < 1) return Status::Validation("--suffixes must be at least 1");
  if (o.item_bytes < 1 || o.item_bytes > 400 * 1024) {
    return Status::Validation("--item-bytes must be within 1 B..400 KB");
  }
  SimulatedClock clock;
  Result<std::unique_ptr<Engine>> opened =
      OpenSimulationEngine(&clock, o.engine_capacity, /*throttling=*/true);
  if (!opened.ok()) return opened.status();
  HotPartitionReport report;
  report.options = o;
  for (auto [table, keys] : {std::pair<std::string, int>{"HotSingleKey", 1},
                             std::pair<std::string, int>{"HotSuffixed", o.suffixes}}) {
    Result<HotScenario> sc = RunScenario(*opened.value(), clock, o, table, keys);
    if (!sc.ok()) return sc.status();
    report.scenarios.push_back(std::move(sc).value());
  }
  return report;
}

TextTable HotPartitionTable(const HotPartitionReport& report) {
  TextTable t;
  t.header = {"scenario", "keys", "writes_ok", "requests", "throttled",
              "failed", "wcu", "partitions_used", "last_write_s",
              "peak_partition_wcu_s"};
  for (const HotScenario& s : report.scenarios) {
    int used = 0;
    double peak = 0;
    for (const PartitionHeat& h : s.heat) {
      double sum = 0;
      for (double v : h.write_units) {
        sum += v;
        peak = std::max(peak, v);
      }
      if (sum > 0) ++used;
    }
    t.rows.push_back({s.name, std::to_string(s.keys), std::to_string(s.writes),
                      std::to_string(s.requests), std::to_string(s.throttled),
                      std::to_string(s.failed), Fixed(s.write_units, 0),
                      std::to_string(used),
                      Fixed(static_cast<double>(s.last_write_micros) / 1e6, 3),
                      Fixed(peak, 0)});
  }
  return t;
}

HotScenarioCost CostOfScenario(const HotScenario& s, int duration_seconds) {
  double peak = 0;
  const size_t seconds = s.heat.empty() ? 0 : s.heat[0].write_units.size();
  for (size_t sec = 0; sec < seconds; ++sec) {
    double units = 0;
    for (const PartitionHeat& h : s.heat) units += h.write_units[sec];
    peak = std::max(peak, units);
  }
  api::metrics::TableUsage usage;
  usage.write_units = s.write_units;
  usage.period_hours = duration_seconds / 3600.0;
  usage.provisioned_wcu = api::metrics::ProvisionedForPeak(peak);
  usage.provisioned_rcu = api::metrics::ProvisionedForPeak(0);
  const api::metrics::TableCost cost =
      api::metrics::EstimateCost(usage, api::metrics::UsEast1StandardPrices());
  return {cost.on_demand_total(), cost.provisioned_total(), usage.provisioned_wcu};
}

std::string HotPartitionText(const HotPartitionReport& report) {
  const HotPartitionOptions& o = report.options;
  std::string out = "hot partition: " + std::to_string(o.rate) +
                    " writes/s of " + std::to_string(o.item_bytes) + " B for " +
                    std::to_string(o.duration_seconds) +
                    " simulated s; capacity mode: " + o.capacity.Describe() +
                    "\n\n";
  out += HotPartitionTable(report).Render();
  const api::metrics::PriceTable& prices = api::metrics::UsEast1StandardPrices();
  out += "\nwhat DynamoDB would bill for the run's writes (" + std::string(prices.region) +
         " list prices of " + std::string(prices.as_of) +
         "; provisioned: the busiest second's WCU and 1 RCU for the run's length; storage "
         "not counted):\n";
  for (const HotScenario& s : report.scenarios) {
    const HotScenarioCost c = CostOfScenario(s, report.options.duration_seconds);
    out += "  " + s.name + ": on-demand " + api::metrics::FormatDollars(c.on_demand) +
           ", provisioned " + api::metrics::FormatDollars(c.provisioned) + " (" +
           Fixed(c.provisioned_wcu, 0) + " WCU)\n";
  }
  for (const HotScenario& s : report.scenarios) {
    out += "\nhottest keys, " + s.name +
           " (as Contributor Insights ranks them: units consumed; throttled "
           "units beside):\n";
    TextTable t;
    t.header = {"key", "write_units", "throttled_units"};
    for (const HotKey& k : s.hot_keys) {
      t.rows.push_back({k.key, Fixed(k.write_units, 0), Fixed(k.throttled_units, 0)});
    }
    out += t.Render();
  }
  return out;
}

std::string HotPartitionJson(const HotPartitionReport& report) {
  const HotPartitionOptions& o = report.options;
  nlohmann::json j;
  j["experiment"] = "hot-partition";
  j["options"] = HotPartitionOptionsJson(o);
  nlohmann::json scenarios = nlohmann::json::array();
  for (const HotScenario& s : report.scenarios) {
    nlohmann::json heat = nlohmann::json::array();
    for (const PartitionHeat& h : s.heat) {
      heat.push_back({{"partition", h.partition_id},
                      {"begin", h.begin},
                      {"write_units_per_second", h.write_units}});
    }
    nlohmann::json keys = nlohmann::json::array();
    for (const HotKey& k : s.hot_keys) {
      keys.push_back({{"key", k.key},
                      {"write_units", k.write_units},
                      {"read_units", k.read_units},
                      {"throttled_units", k.throttled_units}});
    }
    scenarios.push_back({{"name", s.name},
                         {"table", s.table_name},
                         {"keys", s.keys},
                         {"writes", s.writes},
                         {"requests", s.requests},
                         {"throttled", s.throttled},
                         {"failed", s.failed},
                         {"write_units", s.write_units},
                         {"last_write_seconds",
                          static_cast<double>(s.last_write_micros) / 1e6},
                         {"partitions", heat},
                         {"hot_keys", keys}});
  }
  j["scenarios"] = std::move(scenarios);
  return j.dump(2) + "\n";
}

std::string HotPartitionSvg(const HotPartitionReport& report) {
  HeatMap map;
  map.title = "Consumed WCU per partition and second / 1,000 (" +
              report.options.capacity.Describe() + ")";
  map.x_label = "simulated second";
  map.y_label = "partition";
  map.value_label = "x 1,000 WCU/s";
  size_t columns = 0;
  for (const HotScenario& s : report.scenarios) {
    for (const PartitionHeat& h : s.heat) {
      map.row_labels.push_back(s.name + " p" + std::to_string(h.partition_id));
      std::vector<double> row;
      for (double v : h.write_units) row.push_back(v / 1000.0);
      columns = std::max(columns, row.size());
      map.values.push_back(std::move(row));
    }
  }
  for (size_t c = 0; c < columns; ++c) map.column_starts.push_back(static_cast<double>(c));
  map.full_scale = 1.0;
  return RenderHeatMap(map);
}

}  // namespace dynarock::tools::simulate
