// bench/common/ratio_table.h
//
// The ratio lines a benchmark prints after its run, as data: each row is a
// RatioReporter::PrintRatio call (label, subject and baseline benchmark
// names, target; 0 = no target). PrintRatios prints rows in order;
// PrintRatiosPerConfig prints them once per configuration of
// bench_world.h ("mem", then "disk"), the configuration appended to the
// names ("engine/GetItem/" -> "engine/GetItem/mem") and to the label
// ("GetItem / Get" -> "GetItem / Get (mem)").
//
// Header-only.

#ifndef DYNAROCK_BENCH_COMMON_RATIO_TABLE_H_
#define DYNAROCK_BENCH_COMMON_RATIO_TABLE_H_

#include <string>
#include <vector>

#include "bench/common/ratio_reporter.h"

namespace dynarock::bench {

struct RatioRow {
  std::string label;
  std::string subject;
  std::string baseline;
  double target = 0;
};

// Prints every row; returns false when any target was missed.
inline bool PrintRatios(const RatioReporter& reporter,
                        const std::vector<RatioRow>& rows) {
  bool met = true;
  for (const RatioRow& row : rows) {
    met &= reporter.PrintRatio(row.label, row.subject, row.baseline, row.target);
  }
  return met;
}

// Prints every row for "mem", then every row for "disk"; returns false when
// any target was missed.
inline bool PrintRatiosPerConfig(const RatioReporter& reporter,
                                 const std::vector<RatioRow>& rows) {
  bool met = true;
  for (const std::string cfg : {"mem", "disk"}) {
    for (const RatioRow& row : rows) {
      met &= reporter.PrintRatio(row.label + " (" + cfg + ")", row.subject + cfg,
                                 row.baseline + cfg, row.target);
    }
  }
  return met;
}

}  // namespace dynarock::bench

#endif  // DYNAROCK_BENCH_COMMON_RATIO_TABLE_H_
