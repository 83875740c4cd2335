// bench/engine/index/gsi_bench.cc
//
// What global secondary indexes cost, in one run on in-memory engines:
//
// 1. PutItem throughput on a table with 0, 1, 2 and 5 GSIs (Order items,
//    bench/common/order_items.h). Every put overwrites one of 4,096 items
//    and changes the key attributes of every GSI, so each GSI gets a log
//    record with a delete and a put (the worst case for the write path).
//      gsi/PutItem/<n>            the writer's throughput; the propagator
//                                 applies the log on its own thread
//      gsi/PutItemPropagated/<n>  the same, waiting for the propagator every
//                                 256 puts (WaitUntilIndexesCaughtUp): the
//                                 throughput with the index work included
//    Prints each as a ratio to 0 GSIs (same run).
//
// 2. Propagation lag under a sustained write load: one writer at a fixed
//    rate (and one unpaced) for a few seconds on a table with 2 GSIs, real
//    clock, lag 0; p50 / p99 / max of (time applied - time written) from
//    Engine::GetIndexPropagationStats.
//
//   build-bench/bench/gsi_bench
//   build-bench/bench/gsi_bench --benchmark_filter=PutItem/   # part 1 only
//   LAG_SECONDS=5 build-bench/bench/gsi_bench                 # longer part 2

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench/common/bench_main.h"
#include "bench/common/check.h"
#include "bench/common/gsi_key_puts.h"
#include "bench/common/order_items.h"
#include "bench/common/orders_table.h"
#include "bench/common/ratio_reporter.h"
#include "bench/common/ratio_table.h"
#include "engine/engine.h"

namespace dynarock::bench {
namespace {

const int kGsiCounts[] = {0, 1, 2, 5};

// The GSIs, in the order they are added: each keyed on attributes that the
// benchmark changes on every put.
std::vector<GlobalSecondaryIndexDef> Gsis(int n) {
  struct Def {
    const char* name;
    const char* hash;
    const char* range;
  };
  static const Def kDefs[] = {{"ByRep", "Rep", "OrderDate"},
                              {"ByStatus", "Status", "OrderDate"},
                              {"ByDate", "OrderDate", nullptr},
                              {"ByAmount", "Amount", nullptr},
                              {"ByQuantity", "Quantity", "Amount"}};
  std::vector<GlobalSecondaryIndexDef> out;
  for (int i = 0; i < n; ++i) {
    GlobalSecondaryIndexDef g;
    g.index_name = kDefs[i].name;
    g.key_schema = {{kDefs[i].hash, KeyType::kHash}};
    if (kDefs[i].range)
      g.key_schema.push_back({kDefs[i].range, KeyType::kRange});
    g.projection.type = ProjectionType::kAll;
    out.push_back(std::move(g));
  }
  return out;
}

std::unique_ptr<Engine> OpenEngine(int gsis) {
  EngineOptions o = BenchEngineOptions();
  o.gsi_propagation = GsiPropagation::kBackground;
  std::unique_ptr<Engine> engine = OpenBenchEngine(o);
  CreateTableRequest req = OrdersTableRequest();
  req.global_secondary_indexes = Gsis(gsis);
  // CreateTable wants exactly the attributes some key uses: PK, SK and
  // those of the GSIs.
  for (const AttributeDefinition& a : std::vector<AttributeDefinition>{
           {"Rep", AttrType::kS},       {"Status", AttrType::kS},
           {"OrderDate", AttrType::kS}, {"Amount", AttrType::kN},
           {"Quantity", AttrType::kN}}) {
    bool key = false;
    for (const auto& g : req.global_secondary_indexes) {
      for (const auto& e : g.key_schema)
        key = key || e.attribute_name == a.attribute_name;
    }
    if (key) req.attribute_definitions.push_back(a);
  }
  CreateOrdersTable(*engine, req);
  return engine;
}

std::map<int, std::unique_ptr<Engine>>& Engines() {
  static auto* engines = new std::map<int, std::unique_ptr<Engine>>;
  return *engines;
}

Engine& EngineWith(int gsis) {
  auto& slot = Engines()[gsis];
  if (!slot) {
    slot = OpenEngine(gsis);
    PreloadGsiKeyPool(*slot);
  }
  return *slot;
}

void PutItemBench(benchmark::State& state, int gsis, bool propagated) {
  GsiKeyPutLoop(state, EngineWith(gsis), propagated);
}

void Register() {
  for (int n : kGsiCounts) {
    benchmark::RegisterBenchmark(("gsi/PutItem/" + std::to_string(n)).c_str(),
                                 PutItemBench, n, false);
    benchmark::RegisterBenchmark(
        ("gsi/PutItemPropagated/" + std::to_string(n)).c_str(), PutItemBench, n,
        true);
  }
}

// --- Part 2: propagation lag ------------------------------------------------

struct LagResult {
  double rate = 0;  // puts per second achieved
  IndexPropagationStats stats;
};

LagResult RunLag(int gsis, double target_rate, double seconds) {
  std::unique_ptr<Engine> engine = OpenEngine(gsis);
  std::vector<PutItemRequest> pool = TheGsiKeyPuts().puts;
  const auto start = std::chrono::steady_clock::now();
  const auto end = start + std::chrono::duration<double>(seconds);
  int64_t k = 0;
  while (true) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= end) break;
    if (target_rate > 0) {
      const auto due = start + std::chrono::duration<double>(k / target_rate);
      if (due > now) std::this_thread::sleep_until(due);
    }
    Check(engine->PutItem(SetUpGsiKeyPut(k++, &pool)).status(), "PutItem");
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  Check(engine->WaitUntilIndexesCaughtUp(), "wait");
  LagResult r;
  r.rate = static_cast<double>(k) / elapsed;
  r.stats = engine->GetIndexPropagationStats();
  return r;
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  RatioReporter reporter;
  if (!RunBenchmarks(argc, argv, reporter, Register)) return 1;

  std::printf(
      "\nPutItem throughput with GSIs / without (same run; %d items of %lld "
      "bytes overwritten, every GSI key changed by every put):\n",
      kGsiKeyPool, static_cast<long long>(kOrderItemBytes));
  std::vector<RatioRow> rows;
  for (int g : kGsiCounts) {
    if (g == 0) continue;
    const std::string s = std::to_string(g);
    rows.push_back({s + " GSI(s), writer", "gsi/PutItem/" + s, "gsi/PutItem/0"});
    rows.push_back({s + " GSI(s), propagated", "gsi/PutItemPropagated/" + s,
                    "gsi/PutItemPropagated/0"});
  }
  PrintRatios(reporter, rows);
  Engines().clear();

  const char* env = std::getenv("LAG_SECONDS");
  const double seconds = env ? std::atof(env) : 3.0;
  if (seconds <= 0) return 0;
  std::printf(
      "\nPropagation lag, 2 GSIs (ALL), lag 0, one writer, %.0f s per row "
      "(time applied - time written):\n",
      seconds);
  std::printf("%-16s %10s %10s %10s %10s %10s\n", "target puts/s", "achieved",
              "p50 us", "p99 us", "max us", "samples");
  for (double rate : {1000.0, 5000.0, 0.0}) {
    LagResult r = RunLag(2, rate, seconds);
    std::printf(
        "%-16s %10.0f %10lld %10lld %10lld %10lld\n",
        rate > 0 ? std::to_string(static_cast<int>(rate)).c_str() : "unpaced",
        r.rate, static_cast<long long>(r.stats.lag_p50_micros),
        static_cast<long long>(r.stats.lag_p99_micros),
        static_cast<long long>(r.stats.lag_max_micros),
        static_cast<long long>(r.stats.samples));
  }
  return 0;
}
