// tools/simulate/sim_support.h
//
// Small helpers the simulations share: deterministic mixing and hashing
// (the same numbers on every platform), dates, integer Numbers, and a text
// table rendered for the terminal or as CSV. Plain functions; thread-safe.

#ifndef DYNAROCK_TOOLS_SIMULATE_SIM_SUPPORT_H_
#define DYNAROCK_TOOLS_SIMULATE_SIM_SUPPORT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <memory>

#include "engine/capacity/capacity_options.h"
#include "engine/status.h"
#include "engine/value/number.h"

namespace dynarock {
class Engine;
class SimulatedClock;
}  // namespace dynarock

namespace dynarock::tools::simulate {

// An in-memory engine on `clock` (not owned; must outlive it), tables ACTIVE
// at once, deterministic GSI propagation (backfills in chunks of 100,000
// items), the given throughput model and throttling, memtables of
// `memtable_bytes`. Errors: Engine::Open's.
Result<std::unique_ptr<Engine>> OpenSimulationEngine(SimulatedClock* clock,
                                                     const CapacityOptions& capacity,
                                                     bool throttling,
                                                     int64_t memtable_bytes = int64_t{16} << 20);

// True for the errors an SDK retries as throttling:
// ProvisionedThroughputExceeded, Throttling, RequestLimitExceeded.
bool IsThrottle(const Status& status);

// SplitMix64's finalizer: a well-mixed 64-bit function of `x`.
uint64_t Mix64(uint64_t x);
// FNV-1a, 64 bits.
uint64_t Fnv1a64(std::string_view bytes);
// "2024-01-01" plus `day` days, as YYYY-MM-DD.
std::string DateOf(int day);
// The Number holding `v`.
Number IntNumber(int64_t v);

// Rows of cells under a header: aligned columns for the terminal (numbers
// right-aligned), or RFC 4180 CSV.
struct TextTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  std::string Render() const;
  std::string Csv() const;
};

// "%.*f" of v.
std::string Fixed(double v, int decimals);

// Writes `text` to `path`. Errors: kIOError naming the file.
Status WriteTextFile(const std::string& path, std::string_view text);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_SIM_SUPPORT_H_
