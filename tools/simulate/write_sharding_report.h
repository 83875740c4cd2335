// tools/simulate/write_sharding_report.h
//
// The write-sharding report in its four forms: a text summary with a table
// for the terminal, CSV (one row per variant and N), JSON (the options, the
// formulas, every run) and an SVG plot of time-to-read against N.
// Plain functions; thread-safe.

#ifndef DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_REPORT_H_
#define DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_REPORT_H_

#include <string>

#include "tools/simulate/sim_support.h"
#include "tools/simulate/write_sharding.h"

namespace dynarock::tools::simulate {

TextTable WriteShardingTable(const WriteShardingReport& report);
std::string WriteShardingText(const WriteShardingReport& report);
std::string WriteShardingJson(const WriteShardingReport& report);
std::string WriteShardingSvg(const WriteShardingReport& report);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_REPORT_H_
