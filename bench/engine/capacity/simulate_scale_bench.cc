// bench/engine/capacity/simulate_scale_bench.cc
//
// The request mix of `dynarock simulate scale` (tools/simulate/scale.h):
// GetItem 60 %, PutItem 30 %, Query 10 % over 100,000 partition keys of 4
// items of 200 B each, on a provisioned table of 1,000 partitions, in an
// in-memory engine on a SimulatedClock with throttling on, the clock moving
// 10 us a request (100,000 requests per simulated second). Two engines,
// the same in everything but their memtable size, in the same run:
//
//   16 MB   what the other simulations use: the items spread over the
//           memtables, level 0 and the levels' table files
//   256 MB  what `simulate scale` uses: the whole key space in one memtable
//
// After the run it prints the 256 MB / 16 MB throughput ratio.
//
//   build/bench/simulate_scale_bench                     # 5 repetitions
//   build/bench/simulate_scale_bench --benchmark_repetitions=3

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/common/bench_main.h"
#include "bench/common/ratio_reporter.h"
#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/options.h"

namespace dynarock::bench {
namespace {

constexpr int64_t kKeys = 100'000;
constexpr int kItemsPerKey = 4;
constexpr int kPartitions = 1'000;
constexpr char kTable[] = "ScaleTable";

uint64_t Mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

Item MakeItem(int64_t key, int sort) {
  Item item;
  item["PK"] = AttributeValue::S("U#" + std::to_string(key));
  item["SK"] = AttributeValue::S("S#" + std::to_string(sort));
  item["Data"] = AttributeValue::S(std::string(170, 'd'));
  return item;
}

// An engine of the given memtable size with the table loaded.
struct World {
  SimulatedClock clock;
  std::unique_ptr<Engine> engine;
  int64_t next = 0;  // the next request's number

  explicit World(int64_t memtable_bytes) {
    EngineOptions options;
    options.in_memory = true;
    options.clock = &clock;
    options.table_create_delay_micros = 0;
    options.table_delete_delay_micros = 0;
    options.gsi_propagation = GsiPropagation::kDeterministic;
    options.memtable_bytes = memtable_bytes;
    options.throttling = false;
    engine = Engine::Open(options).value();
    CreateTableRequest create;
    create.table_name = kTable;
    create.key_schema = {{"PK", KeyType::kHash}, {"SK", KeyType::kRange}};
    create.attribute_definitions = {{"PK", AttrType::kS}, {"SK", AttrType::kS}};
    create.billing_mode = BillingMode::kProvisioned;
    create.provisioned_throughput =
        ProvisionedThroughput{3'000 * kPartitions / 2, 1'000 * kPartitions / 2};
    if (!engine->CreateTable(create).ok()) std::abort();
    BatchWriteItemRequest batch;
    for (int64_t k = 0; k < kKeys; ++k) {
      for (int s = 0; s < kItemsPerKey; ++s) {
        if (batch.request_items.empty()) batch.request_items.emplace_back(kTable, std::vector<WriteRequest>());
        WriteRequest w;
        w.put_item = MakeItem(k, s);
        batch.request_items[0].second.push_back(std::move(w));
        if (batch.request_items[0].second.size() == 25) {
          if (!engine->BatchWriteItem(batch).ok()) std::abort();
          batch.request_items.clear();
        }
      }
    }
    clock.Advance(int64_t{60} * 1'000'000);
    engine->SetThrottling(true);
  }

  // One request of the mix; the clock moves 10 us.
  void Request() {
    const uint64_t a = Mix(static_cast<uint64_t>(next++));
    const int64_t key = static_cast<int64_t>(Mix(a) % kKeys);
    const int sort = static_cast<int>((a >> 40) % kItemsPerKey);
    const int pick = static_cast<int>(a % 100);
    clock.Advance(10);
    if (pick < 60) {
      GetItemRequest get;
      get.table_name = kTable;
      get.key["PK"] = AttributeValue::S("U#" + std::to_string(key));
      get.key["SK"] = AttributeValue::S("S#" + std::to_string(sort));
      get.encoded_item = true;
      benchmark::DoNotOptimize(engine->GetItem(get));
    } else if (pick < 90) {
      PutItemRequest put;
      put.table_name = kTable;
      put.item = MakeItem(key, sort);
      benchmark::DoNotOptimize(engine->PutItem(put));
    } else {
      QueryRequest q;
      q.table_name = kTable;
      q.key_condition_expression = "#p = :p";
      q.read.expression_attribute_names = ExpressionAttributeNames{{"#p", "PK"}};
      q.read.expression_attribute_values =
          ExpressionAttributeValues{{":p", AttributeValue::S("U#" + std::to_string(key))}};
      q.read.encoded_items = true;
      benchmark::DoNotOptimize(engine->Query(q));
    }
  }
};

std::map<int64_t, std::unique_ptr<World>>& Worlds() {
  static auto* worlds = new std::map<int64_t, std::unique_ptr<World>>();
  return *worlds;
}

void RunMix(benchmark::State& state, int64_t memtable_bytes) {
  World& w = *Worlds().at(memtable_bytes);
  for (auto _ : state) w.Request();
  state.SetItemsProcessed(state.iterations());
}

constexpr int64_t kSmall = int64_t{16} << 20;
constexpr int64_t kLarge = int64_t{256} << 20;

void Register() {
  for (int64_t m : {kSmall, kLarge}) {
    Worlds()[m] = std::make_unique<World>(m);
    benchmark::RegisterBenchmark(("scale_mix/memtable_" + std::to_string(m >> 20) + "MB").c_str(),
                                 [m](benchmark::State& s) { RunMix(s, m); });
  }
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  RatioReporter reporter;
  RunBenchmarks(argc, argv, reporter, Register, UnknownFlags::kIgnore);
  const RatioReporter::Times small = reporter.PerOp("scale_mix/memtable_16MB");
  const RatioReporter::Times large = reporter.PerOp("scale_mix/memtable_256MB");
  if (small.cpu_ns > 0 && large.cpu_ns > 0) {
    std::printf("\nrequests per CPU second, 256 MB / 16 MB memtable: %.2f "
                "(%.2f us vs %.2f us a request; 100,000 a simulated second "
                "run faster than real time below 10 us)\n",
                small.cpu_ns / large.cpu_ns, large.cpu_ns / 1000, small.cpu_ns / 1000);
  }
  return 0;
}
