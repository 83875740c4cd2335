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

#include "bench/common/bench_main.h"
#include "bench/common/bench_world.h"
#include "bench/common/ratio_reporter.h"
#include "bench/common/ratio_table.h"
#include "bench/common/world_benchmarks.h"

namespace dynarock::bench {
namespace {

// --- the benchmarks ---------------------------------------------------------

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
  RegisterPerConfig({{"engine/GetItem/", &EngineGetItem},
                     {"raw/Get/", &RawGet},
                     {"engine/PutItem/", &EnginePutItem},
                     {"raw/Put/", &RawPut},
                     {"raw/GetPut/", &RawGetPut}});
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  RatioReporter reporter;
  if (!RunBenchmarks(argc, argv, reporter, Register)) return 1;

  PrintRatiosHeading("Throughput ratios, engine / raw RocksDB");
  // A missed target is reported here, not as a failure exit.
  PrintRatiosPerConfig(reporter,
                       {{"GetItem / Get", "engine/GetItem/", "raw/Get/", 0.5},
                        {"PutItem / Put", "engine/PutItem/", "raw/Put/", 0.5}});
  std::printf("Read-before-write share (no target): engine PutItem / raw Get+Put:\n");
  PrintRatiosPerConfig(reporter,
                       {{"PutItem / Get+Put", "engine/PutItem/", "raw/GetPut/"}});
  ReleaseWorlds();
  return 0;
}
