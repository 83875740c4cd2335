// bench/common/bench_main.h
//
// The body every *_bench.cc main() shares: Google Benchmark initialised
// with ratio_reporter.h's default flags (ArgsWithDefaults) in front of the
// user's, the registered benchmarks run through a RatioReporter, and
// Google Benchmark shut down, so that main() is left with its own
// registrations and the ratios it prints from the reporter afterwards.
//
// Header-only; call once, from main().

#ifndef DYNAROCK_BENCH_COMMON_BENCH_MAIN_H_
#define DYNAROCK_BENCH_COMMON_BENCH_MAIN_H_

#include <benchmark/benchmark.h>

#include <functional>
#include <vector>

#include "bench/common/ratio_reporter.h"

namespace dynarock::bench {

// What to do with flags Google Benchmark does not know.
enum class UnknownFlags {
  kReject,  // report them and run nothing
  kIgnore,  // run anyway
};

// Initialises Google Benchmark from argv (with the defaults), calls
// `setup` (registrations, preloads to keep out of the timed runs), runs
// every registered benchmark through `reporter` and shuts Google Benchmark
// down. Returns false, having run nothing, when argv holds unknown flags
// and `unknown` is kReject; true otherwise.
inline bool RunBenchmarks(int argc, char** argv, RatioReporter& reporter,
                          const std::function<void()>& setup = {},
                          UnknownFlags unknown = UnknownFlags::kReject) {
  std::vector<char*> args = ArgsWithDefaults(argc, argv);
  int n = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&n, args.data());
  if (unknown == UnknownFlags::kReject &&
      benchmark::ReportUnrecognizedArguments(n, args.data())) {
    return false;
  }
  if (setup) setup();
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return true;
}

}  // namespace dynarock::bench

#endif  // DYNAROCK_BENCH_COMMON_BENCH_MAIN_H_
