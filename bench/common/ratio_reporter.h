// bench/common/ratio_reporter.h
//
// Google Benchmark helpers shared by the *_bench.cc mains: default flags
// that make same-run comparisons fair on a noisy machine (repetitions,
// random interleaving, medians), and a console reporter that remembers each
// benchmark's time per operation so that main() can print throughput ratios
// (engine / raw RocksDB, client / engine) after the run.
//
// Header-only. Not thread-safe (Google Benchmark reports from one thread).

#ifndef DYNAROCK_BENCH_COMMON_RATIO_REPORTER_H_
#define DYNAROCK_BENCH_COMMON_RATIO_REPORTER_H_

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

namespace dynarock::bench {

// Console output as usual, plus the real and CPU time per operation (ns)
// of every benchmark: the median when it ran with repetitions, else the
// mean of its runs.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& reports) override {
    for (const Run& run : reports) {
      if (run.error_occurred) continue;
      const std::string& name = run.run_name.function_name;
      const double to_ns = 1e9 / benchmark::GetTimeUnitMultiplier(run.time_unit);
      const Times t{run.GetAdjustedRealTime() * to_ns,
                    run.GetAdjustedCPUTime() * to_ns};
      if (run.run_type == Run::RT_Aggregate) {
        if (run.aggregate_name == "median") median_[name] = t;
      } else {
        Times& sum = sum_[name];
        sum.real_ns += t.real_ns;
        sum.cpu_ns += t.cpu_ns;
        ++count_[name];
      }
    }
    ConsoleReporter::ReportRuns(reports);
  }

  struct Times {
    double real_ns = 0;
    double cpu_ns = 0;
  };

  // Time per operation of `name`; zeros if it did not run.
  Times PerOp(const std::string& name) const {
    if (auto it = median_.find(name); it != median_.end()) return it->second;
    if (auto it = sum_.find(name); it != sum_.end()) {
      const int n = count_.at(name);
      return {it->second.real_ns / n, it->second.cpu_ns / n};
    }
    return {};
  }

  // Prints, when both ran,
  //   label  subject ops/s / baseline ops/s = ratio  [cpu: ratio]  (target)
  // where ops/s and the first ratio are by wall-clock time (what a caller
  // sees) and the cpu ratio by the benchmark thread's CPU time (steadier
  // when other processes share the cores). The target applies to the
  // wall-clock ratio. Returns false when it was missed.
  bool PrintRatio(const std::string& label, const std::string& subject,
                  const std::string& baseline, double target) const {
    const Times s = PerOp(subject), b = PerOp(baseline);
    if (s.real_ns == 0 || b.real_ns == 0) return true;
    const double ratio = b.real_ns / s.real_ns;  // throughput ratio
    const double cpu_ratio = s.cpu_ns > 0 ? b.cpu_ns / s.cpu_ns : 0;
    std::printf("%-30s %8.0f ops/s / %8.0f ops/s = %5.2f  [cpu: %5.2f]",
                label.c_str(), 1e9 / s.real_ns, 1e9 / b.real_ns, ratio,
                cpu_ratio);
    if (target > 0) {
      std::printf("  (target >= %.2f: %s)", target,
                  ratio >= target ? "met" : "NOT MET");
    }
    std::printf("\n");
    return target <= 0 || ratio >= target;
  }

 private:
  std::map<std::string, Times> median_;
  std::map<std::string, Times> sum_;
  std::map<std::string, int> count_;
};

// argv with our defaults in front of the user's flags (later flags win):
// 5 repetitions, randomly interleaved, reported as aggregates.
inline std::vector<char*> ArgsWithDefaults(int argc, char** argv) {
  static char repetitions[] = "--benchmark_repetitions=5";
  static char interleave[] = "--benchmark_enable_random_interleaving=true";
  static char aggregates[] = "--benchmark_report_aggregates_only=true";
  std::vector<char*> args = {argv[0], repetitions, interleave, aggregates};
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  args.push_back(nullptr);
  return args;
}

}  // namespace dynarock::bench

#endif  // DYNAROCK_BENCH_COMMON_RATIO_REPORTER_H_
