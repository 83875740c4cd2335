// bench/engine/capacity/throttling_bench.cc
//
// What throttling costs a request: GetItem and PutItem of 250-byte Order
// items through the Engine with throttling on (every read checked before
// and charged after, every write admitted before it commits) and off
// (charged only, as metering and statistics always are), on the same
// in-memory engine and the same kPreloadItems items, in the same run
// (Engine::SetThrottling switches between the variants). After the run it
// prints off / on time ratios; the target is overhead under 10%.
//
// The on-demand table is given a warm throughput, quota and partition
// ceilings far above what the benchmark reaches (4 partitions, as a new
// on-demand table has), so that nothing is ever throttled: the figures are
// the cost of the checks, not of refusals.
//
//   build-int/bench/throttling_bench
//   build-int/bench/throttling_bench --benchmark_filter=GetItem

#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/common/bench_world.h"
#include "bench/common/ratio_reporter.h"

namespace dynarock::bench {
namespace {

constexpr int64_t kHuge = int64_t{1} << 40;

class ThrottlingWorld {
 public:
  ThrottlingWorld() {
    EngineOptions options;
    options.in_memory = true;
    options.table_create_delay_micros = 0;
    options.throttling = true;
    options.capacity.partition_ceilings.read_units_per_second = kHuge;
    options.capacity.partition_ceilings.write_units_per_second = kHuge;
    options.capacity.on_demand_warm_read_units = 4 * kHuge;
    options.capacity.on_demand_warm_write_units = 4 * kHuge;
    options.capacity.table_read_quota = 4 * kHuge;
    options.capacity.table_write_quota = 4 * kHuge;
    auto engine = Engine::Open(options);
    Check(engine.status(), "Engine::Open");
    engine_ = std::move(*engine);
    CreateTableRequest create;
    create.table_name = kTableName;
    create.attribute_definitions = {{"PK", AttrType::kS}, {"SK", AttrType::kS}};
    create.key_schema = {{"PK", KeyType::kHash}, {"SK", KeyType::kRange}};
    create.billing_mode = BillingMode::kPayPerRequest;
    Check(engine_->CreateTable(create).status(), "CreateTable");
    for (const PutItemRequest& put : Data().puts) {
      Check(engine_->PutItem(put).status(), "preload PutItem");
    }
  }
  Engine& engine() { return *engine_; }

 private:
  std::unique_ptr<Engine> engine_;
};

ThrottlingWorld& TheWorld() {
  static ThrottlingWorld* world = new ThrottlingWorld;
  return *world;
}

void GetItem(benchmark::State& state, bool throttling) {
  Engine& engine = TheWorld().engine();
  engine.SetThrottling(throttling);
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems);
  for (auto _ : state) {
    auto result = engine.GetItem(data.gets[keys.Next()]);
    if (!result.ok() || !result->item) state.SkipWithError("GetItem failed");
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations());
}

void PutItem(benchmark::State& state, bool throttling) {
  Engine& engine = TheWorld().engine();
  engine.SetThrottling(throttling);
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems, 7);
  for (auto _ : state) {
    auto result = engine.PutItem(data.puts[keys.Next()]);
    if (!result.ok()) state.SkipWithError("PutItem failed");
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations());
}

void Register() {
  for (auto [name, fn] : {std::pair{"GetItem/", &GetItem}, {"PutItem/", &PutItem}}) {
    for (bool on : {false, true}) {
      benchmark::RegisterBenchmark((std::string(name) + (on ? "on" : "off")).c_str(),
                                   fn, on)
          ->Unit(benchmark::kNanosecond)
          ->UseRealTime();
    }
  }
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  std::vector<char*> args = ArgsWithDefaults(argc, argv);
  int n = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
  TheWorld();  // preload outside the timed runs
  Register();
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  std::printf("\nThroughput ratios, throttling on / off (same engine, same "
              "run; %lld items preloaded, random keys; target >= 0.90):\n",
              static_cast<long long>(kPreloadItems));
  bool met = true;
  met &= reporter.PrintRatio("GetItem on / off", "GetItem/on", "GetItem/off", 0.9);
  met &= reporter.PrintRatio("PutItem on / off", "PutItem/on", "PutItem/off", 0.9);
  return met ? 0 : 2;
}
