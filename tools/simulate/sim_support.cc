// tools/simulate/sim_support.cc

#include "tools/simulate/sim_support.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/options.h"

namespace dynarock::tools::simulate {

Result<std::unique_ptr<Engine>> OpenSimulationEngine(SimulatedClock* clock,
                                                     const CapacityOptions& capacity,
                                                     bool throttling,
                                                     int64_t memtable_bytes) {
  EngineOptions options;
  options.in_memory = true;
  options.clock = clock;
  options.table_create_delay_micros = 0;
  options.table_delete_delay_micros = 0;
  options.gsi_propagation = GsiPropagation::kDeterministic;
  // Backfills run inside WaitUntilIndexesCaughtUp, with the clock still:
  // the chunk size changes no result, and large sorted chunks make the
  // index's memtable inserts follow each other.
  options.gsi_backfill_chunk_items = 100'000;
  // Memtables of 16 MB by default instead of 64: two in-memory engines
  // hold less.
  options.memtable_bytes = memtable_bytes;
  options.throttling = throttling;
  options.capacity = capacity;
  return Engine::Open(options);
}

bool IsThrottle(const Status& s) {
  return s.code() == ErrorCode::kProvisionedThroughputExceeded ||
         s.code() == ErrorCode::kThrottling ||
         s.code() == ErrorCode::kRequestLimitExceeded;
}

uint64_t Mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return x ^ (x >> 31);
}

uint64_t Fnv1a64(std::string_view bytes) {
  uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001B3ULL;
  }
  return h;
}

std::string DateOf(int day) {
  // Days since 1970-01-01 -> civil date (H. Hinnant's algorithm).
  int64_t z = 19723 + day + 719468;  // 19723 = 2024-01-01
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t d = doy - (153 * mp + 2) / 5 + 1;
  const int64_t m = mp < 10 ? mp + 3 : mp - 9;
  const int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", static_cast<int>(y),
                static_cast<int>(m), static_cast<int>(d));
  return buf;
}

Number IntNumber(int64_t v) {
  return Number::Parse(std::to_string(v)).value();
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

namespace {

bool LooksNumeric(const std::string& s) {
  if (s.empty()) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '%';
  });
}

}  // namespace

std::string TextTable::Render() const {
  std::vector<size_t> widths(header.size(), 0);
  for (size_t c = 0; c < header.size(); ++c) widths[c] = header[c].size();
  for (const auto& row : rows) {
    for (size_t c = 0; c < row.size() && c < widths.size(); ++c) {
      widths[c] = std::max(widths[c], row[c].size());
    }
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < widths.size(); ++c) {
      const std::string cell = c < cells.size() ? cells[c] : "";
      const std::string pad(widths[c] - std::min(widths[c], cell.size()), ' ');
      if (c > 0) out += "  ";
      out += LooksNumeric(cell) ? pad + cell : cell + pad;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header);
  std::string rule;
  for (size_t c = 0; c < widths.size(); ++c) {
    if (c > 0) rule += "  ";
    rule += std::string(widths[c], '-');
  }
  out += rule + "\n";
  for (const auto& row : rows) out += line(row);
  return out;
}

std::string TextTable::Csv() const {
  auto cell = [](const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) {
      if (c == '"') q += '"';
      q += c;
    }
    return q + "\"";
  };
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) out += ',';
      out += cell(cells[c]);
    }
    return out + "\n";
  };
  std::string out = line(header);
  for (const auto& row : rows) out += line(row);
  return out;
}

Status WriteTextFile(const std::string& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return Status::IOError("cannot write " + path);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) return Status::IOError("cannot write " + path);
  return Status::OK();
}

}  // namespace dynarock::tools::simulate
