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

#include "bench/common/bench_main.h"
#include "bench/common/bench_world.h"
#include "bench/common/orders_table.h"
#include "bench/common/ratio_reporter.h"
#include "bench/common/ratio_table.h"
#include "bench/common/world_benchmarks.h"

namespace dynarock::bench {
namespace {

constexpr int64_t kHuge = int64_t{1} << 40;

class ThrottlingWorld {
 public:
  ThrottlingWorld() {
    EngineOptions options = BenchEngineOptions();
    options.throttling = true;
    options.capacity.partition_ceilings.read_units_per_second = kHuge;
    options.capacity.partition_ceilings.write_units_per_second = kHuge;
    options.capacity.on_demand_warm_read_units = 4 * kHuge;
    options.capacity.on_demand_warm_write_units = 4 * kHuge;
    options.capacity.table_read_quota = 4 * kHuge;
    options.capacity.table_write_quota = 4 * kHuge;
    engine_ = OpenOrdersEngine(options);
    PreloadData(*engine_);
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
  GetItemLoop(state, engine);
}

void PutItem(benchmark::State& state, bool throttling) {
  Engine& engine = TheWorld().engine();
  engine.SetThrottling(throttling);
  PutItemLoop(state, engine);
}

void Register() {
  for (auto [name, fn] : {std::pair{"GetItem/", &GetItem}, {"PutItem/", &PutItem}}) {
    for (bool on : {false, true}) {
      RegisterWallClockNs(std::string(name) + (on ? "on" : "off"), fn, on);
    }
  }
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  RatioReporter reporter;
  const auto setup = [] {
    TheWorld();  // preload outside the timed runs
    Register();
  };
  if (!RunBenchmarks(argc, argv, reporter, setup)) return 1;
  std::printf("\nThroughput ratios, throttling on / off (same engine, same "
              "run; %lld items preloaded, random keys; target >= 0.90):\n",
              static_cast<long long>(kPreloadItems));
  const bool met = PrintRatios(
      reporter, {{"GetItem on / off", "GetItem/on", "GetItem/off", 0.9},
                 {"PutItem on / off", "PutItem/on", "PutItem/off", 0.9}});
  return met ? 0 : 2;
}
