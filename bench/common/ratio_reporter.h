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

// Console output as usual, plus the real time per operation (ns) of every
// benchmark: the median when it ran with repetitions, else the mean of its
// runs.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& reports) override {
    for (const Run& run : reports) {
      if (run.error_occurred) continue;
      const std::string& name = run.run_name.function_name;
      const double ns = run.GetAdjustedRealTime() *
                        1e9 / benchmark::GetTimeUnitMultiplier(run.time_unit);
      if (run.run_type == Run::RT_Aggregate) {
        if (run.aggregate_name == "median") median_ns_[name] = ns;
      } else {
        sum_ns_[name] += ns;
        ++count_[name];
      }
    }
    ConsoleReporter::ReportRuns(reports);
  }

  // Nanoseconds per operation of `name`; 0 if it did not run.
  double NsPerOp(const std::string& name) const {
    if (auto it = median_ns_.find(name); it != median_ns_.end()) {
      return it->second;
    }
    if (auto it = sum_ns_.find(name); it != sum_ns_.end()) {
      return it->second / count_.at(name);
    }
    return 0;
  }

  // Prints "label: subject ops/s / baseline ops/s = ratio (target >= t)"
  // when both ran. Returns false when a target was missed.
  bool PrintRatio(const std::string& label, const std::string& subject,
                  const std::string& baseline, double target) const {
    const double s = NsPerOp(subject), b = NsPerOp(baseline);
    if (s == 0 || b == 0) return true;
    const double ratio = b / s;  // throughput ratio = inverse time ratio
    std::printf("%-34s %10.0f ops/s / %10.0f ops/s = %5.2f", label.c_str(),
                1e9 / s, 1e9 / b, ratio);
    if (target > 0) {
      std::printf("  (target >= %.2f: %s)", target,
                  ratio >= target ? "met" : "NOT MET");
    }
    std::printf("\n");
    return target <= 0 || ratio >= target;
  }

 private:
  std::map<std::string, double> median_ns_;
  std::map<std::string, double> sum_ns_;
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
