// bench/engine/engine_bench.cc
//
// PutItem and GetItem of 250-byte Order items through the Engine API, beside
// raw RocksDB Put and Get of the same keys (keys::ItemKey) and the same value
// bytes (EncodeItem) on a database opened with the same options as
// engine/storage/store.cc, in the same process and run. After the run it
// prints engine / raw throughput ratios; the targets are >= 0.50.
//
// Two configurations, each for both sides:
//   mem   RocksDB on an in-memory Env; the preloaded items stay in the
//         memtable.
//   disk  RocksDB in a temporary directory; the preloaded items are flushed
//         to SST files (the engine by reopening, raw RocksDB by Flush).
//
// Every variant starts from kPreloadItems items; GetItem and Put pick keys
// at random from them (Put overwrites, with the same bytes).
//
//   build-bench/bench/engine_bench                          # all, 5 repetitions
//   build-bench/bench/engine_bench --benchmark_filter=mem   # one config

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "bench/common/bench_world.h"
#include "bench/common/ratio_reporter.h"

namespace dynarock::bench {
namespace {

// --- the benchmarks ---------------------------------------------------------

void EngineGetItem(benchmark::State& state, bool in_memory) {
  Engine& engine = WorldFor(in_memory).engine();
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems);
  for (auto _ : state) {
    auto result = engine.GetItem(data.gets[keys.Next()]);
    if (!result.ok() || !result->item) state.SkipWithError("GetItem failed");
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations());
}

void RawGet(benchmark::State& state, bool in_memory) {
  RawDb& raw = WorldFor(in_memory).raw();
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems);
  for (auto _ : state) {
    std::string value;
    if (!raw.Get(data.raw_keys[keys.Next()], &value)) state.SkipWithError("Get missed");
    benchmark::DoNotOptimize(value);
  }
  state.SetItemsProcessed(state.iterations());
}

void EnginePutItem(benchmark::State& state, bool in_memory) {
  Engine& engine = WorldFor(in_memory).engine();
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems, 7);
  for (auto _ : state) {
    auto result = engine.PutItem(data.puts[keys.Next()]);
    if (!result.ok()) state.SkipWithError("PutItem failed");
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations());
}

void RawPut(benchmark::State& state, bool in_memory) {
  RawDb& raw = WorldFor(in_memory).raw();
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems, 7);
  for (auto _ : state) {
    const int64_t i = keys.Next();
    raw.Put(data.raw_keys[i], data.raw_values[i]);
  }
  state.SetItemsProcessed(state.iterations());
}

// What PutItem does to RocksDB: read the old value (for the table's item
// count and size, and later for index maintenance), then write the new one.
// Not a target baseline; it separates the cost of read-before-write from the
// engine's own overhead.
void RawGetPut(benchmark::State& state, bool in_memory) {
  RawDb& raw = WorldFor(in_memory).raw();
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems, 7);
  for (auto _ : state) {
    const int64_t i = keys.Next();
    std::string old_value;
    raw.Get(data.raw_keys[i], &old_value);
    benchmark::DoNotOptimize(old_value);
    raw.Put(data.raw_keys[i], data.raw_values[i]);
  }
  state.SetItemsProcessed(state.iterations());
}

void Register() {
  for (bool in_memory : {true, false}) {
    const std::string cfg = in_memory ? "mem" : "disk";
    for (auto [name, fn] :
         {std::pair{"engine/GetItem/", &EngineGetItem}, {"raw/Get/", &RawGet},
          {"engine/PutItem/", &EnginePutItem}, {"raw/Put/", &RawPut},
          {"raw/GetPut/", &RawGetPut}}) {
      benchmark::RegisterBenchmark((name + cfg).c_str(), fn, in_memory)
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
  Register();
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  std::printf("\nThroughput ratios, engine / raw RocksDB (same run; %lld items "
              "of %lld bytes preloaded, random keys):\n",
              static_cast<long long>(kPreloadItems),
              static_cast<long long>(kOrderItemBytes));
  bool met = true;
  for (const char* cfg : {"mem", "disk"}) {
    const std::string c = cfg;
    met &= reporter.PrintRatio("GetItem / Get (" + c + ")", "engine/GetItem/" + c,
                               "raw/Get/" + c, 0.5);
    met &= reporter.PrintRatio("PutItem / Put (" + c + ")", "engine/PutItem/" + c,
                               "raw/Put/" + c, 0.5);
  }
  std::printf("Read-before-write share (no target): engine PutItem / raw Get+Put:\n");
  for (const char* cfg : {"mem", "disk"}) {
    const std::string c = cfg;
    reporter.PrintRatio("PutItem / Get+Put (" + c + ")", "engine/PutItem/" + c,
                        "raw/GetPut/" + c, 0);
  }
  WorldSlot(true).reset();
  WorldSlot(false).reset();
  // A missed target is reported above, not as a failure exit.
  (void)met;
  return 0;
}
