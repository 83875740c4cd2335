// bench/common/world_benchmarks.h
//
// The timed loops that several benchmarks run against the preloaded
// databases of bench_world.h: GetItem and PutItem of random preloaded Order
// items on an Engine, and raw RocksDB Get and Put of the same keys and
// value bytes. Every variant picks keys with KeyChooser (reads with the
// default seed, writes with seed 7), so that all visit the same sequence.
// Also how they are registered: timed in ns by wall clock, once per
// configuration ("mem", "disk").
//
// Header-only.

#ifndef DYNAROCK_BENCH_COMMON_WORLD_BENCHMARKS_H_
#define DYNAROCK_BENCH_COMMON_WORLD_BENCHMARKS_H_

#include <benchmark/benchmark.h>

#include <string>
#include <utility>
#include <vector>

#include "bench/common/bench_world.h"

namespace dynarock::bench {

// GetItem of random preloaded items on `engine`.
inline void GetItemLoop(benchmark::State& state, Engine& engine) {
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems);
  for (auto _ : state) {
    auto result = engine.GetItem(data.gets[keys.Next()]);
    if (!result.ok() || !result->item) state.SkipWithError("GetItem failed");
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations());
}

// PutItem of random preloaded items on `engine` (overwrites, same item).
inline void PutItemLoop(benchmark::State& state, Engine& engine) {
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems, 7);
  for (auto _ : state) {
    auto result = engine.PutItem(data.puts[keys.Next()]);
    if (!result.ok()) state.SkipWithError("PutItem failed");
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations());
}

// The same on the World of a configuration, in the form RegisterBenchmark
// takes (the bool is in_memory).
inline void EngineGetItem(benchmark::State& state, bool in_memory) {
  GetItemLoop(state, WorldFor(in_memory).engine());
}

inline void EnginePutItem(benchmark::State& state, bool in_memory) {
  PutItemLoop(state, WorldFor(in_memory).engine());
}

inline void RawGet(benchmark::State& state, bool in_memory) {
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

inline void RawPut(benchmark::State& state, bool in_memory) {
  RawDb& raw = WorldFor(in_memory).raw();
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems, 7);
  for (auto _ : state) {
    const int64_t i = keys.Next();
    raw.Put(data.raw_keys[i], data.raw_values[i]);
  }
  state.SetItemsProcessed(state.iterations());
}

// RegisterBenchmark(name, fn, args...), timed in ns by wall clock (what a
// caller sees; other processes share the cores).
template <class Fn, class... Args>
benchmark::internal::Benchmark* RegisterWallClockNs(const std::string& name,
                                                    Fn&& fn, Args&&... args) {
  return benchmark::RegisterBenchmark(name.c_str(), std::forward<Fn>(fn),
                                      std::forward<Args>(args)...)
      ->Unit(benchmark::kNanosecond)
      ->UseRealTime();
}

// A benchmark of one configuration of bench_world.h (the bool is
// in_memory), such as the four above.
using WorldBenchmark = void (*)(benchmark::State&, bool in_memory);

// Registers every (name prefix, benchmark) for "mem", then for "disk", as
// "<prefix>mem" and "<prefix>disk", timed in ns by wall clock.
inline void RegisterPerConfig(
    const std::vector<std::pair<std::string, WorldBenchmark>>& benchmarks) {
  for (bool in_memory : {true, false}) {
    const std::string cfg = in_memory ? "mem" : "disk";
    for (const auto& [prefix, fn] : benchmarks) {
      RegisterWallClockNs(prefix + cfg, fn, in_memory);
    }
  }
}

}  // namespace dynarock::bench

#endif  // DYNAROCK_BENCH_COMMON_WORLD_BENCHMARKS_H_
