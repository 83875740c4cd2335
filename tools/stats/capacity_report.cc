// tools/stats/capacity_report.cc

#include "tools/stats/capacity_report.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <iterator>
#include <string_view>

namespace dynarock::tools::stats {
namespace {

using api::Json;

// Members read leniently: the report must render whatever the server sent.
const Json& Member(const Json& object, std::string_view name) {
  static const Json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(name);
  return it == object.end() ? kNull : *it;
}

double Num(const Json& object, std::string_view name) {
  const Json& v = Member(object, name);
  return v.is_number() ? v.get<double>() : 0.0;
}

int64_t Int(const Json& object, std::string_view name) {
  const Json& v = Member(object, name);
  if (v.is_number_integer()) return v.get<int64_t>();
  return v.is_number() ? static_cast<int64_t>(v.get<double>()) : 0;
}

std::string Str(const Json& object, std::string_view name) {
  const Json& v = Member(object, name);
  return v.is_string() ? v.get<std::string>() : std::string();
}

const Json& List(const Json& object, std::string_view name) {
  static const Json kEmpty = Json::array();
  const Json& v = Member(object, name);
  return v.is_array() ? v : kEmpty;
}

void Appendf(std::string* out, const char* format, ...)
    __attribute__((format(printf, 2, 3)));
void Appendf(std::string* out, const char* format, ...) {
  char buf[512];
  va_list args;
  va_start(args, format);
  int n = std::vsnprintf(buf, sizeof buf, format, args);
  va_end(args);
  if (n > 0) out->append(buf, std::min<size_t>(n, sizeof buf - 1));
}

// Keys are at most ~64 bytes (engine/capacity/capacity_charge.h); the
// column is narrower.
std::string Clip(const std::string& s, size_t width) {
  if (s.size() <= width) return s;
  return s.substr(0, width - 3) + "...";
}

// The resource's summary lines: rates, balances, peak, last minute.
void AppendResource(std::string* out, const Json& r) {
  const Json& minute = Member(r, "LastMinute");
  Appendf(out,
          "  capacity     read %lld/s (balance %.1f)  write %lld/s (balance "
          "%.1f)  peak second: read %.1f  write %.1f\n",
          static_cast<long long>(Int(r, "ReadUnitsPerSecond")),
          Num(r, "ReadBalance"),
          static_cast<long long>(Int(r, "WriteUnitsPerSecond")),
          Num(r, "WriteBalance"), Num(r, "PeakReadUnits"),
          Num(r, "PeakWriteUnits"));
  Appendf(out,
          "  last minute  consumed read %.1f  write %.1f  throttled read %.1f "
          "(%lld requests)  write %.1f (%lld requests)\n",
          Num(minute, "ConsumedReadUnits"), Num(minute, "ConsumedWriteUnits"),
          Num(minute, "ThrottledReadUnits"),
          static_cast<long long>(Int(minute, "ThrottledReadRequests")),
          Num(minute, "ThrottledWriteUnits"),
          static_cast<long long>(Int(minute, "ThrottledWriteRequests")));

  const Json& partitions = List(r, "Partitions");
  Appendf(out,
          "\n  Partitions: %zu (consumed units, throttled requests: last "
          "minute)\n",
          partitions.size());
  Appendf(out, "  %4s  %-10s  %10s  %10s  %10s  %10s  %8s  %9s\n", "ID",
          "HASH RANGE", "ITEMS", "SIZE", "READ", "WRITE", "THR READ",
          "THR WRITE");
  for (const Json& p : partitions) {
    const Json& m = Member(p, "LastMinute");
    Appendf(out, "  %4lld  %-10s  %10lld  %10s  %10.1f  %10.1f  %8lld  %9lld\n",
            static_cast<long long>(Int(p, "Id")),
            ShortHashRange(Str(p, "HashBegin"), Str(p, "HashEnd")).c_str(),
            static_cast<long long>(Int(p, "ItemCount")),
            HumanBytes(Int(p, "SizeBytes")).c_str(),
            Num(m, "ConsumedReadUnits"), Num(m, "ConsumedWriteUnits"),
            static_cast<long long>(Int(m, "ThrottledReadRequests")),
            static_cast<long long>(Int(m, "ThrottledWriteRequests")));
  }

  const Json& hot = List(r, "HotKeys");
  Appendf(out, "\n  Hot keys: %zu (units since the table was created)\n",
          hot.size());
  if (hot.empty()) return;
  Appendf(out, "  %-24s  %-16s  %10s  %10s  %10s  %10s\n", "KEY", "HASH",
          "UNITS", "READ", "WRITE", "THROTTLED");
  for (const Json& k : hot) {
    Appendf(out, "  %-24s  %-16s  %10.1f  %10.1f  %10.1f  %10.1f\n",
            Clip(Str(k, "Key"), 24).c_str(), Str(k, "Hash").c_str(),
            Num(k, "Units"), Num(k, "ReadUnits"), Num(k, "WriteUnits"),
            Num(k, "ThrottledUnits"));
  }
}

}  // namespace

std::string HumanBytes(int64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  static constexpr const char* kUnits[] = {"KB", "MB", "GB", "TB"};
  double v = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (v >= 1024 && unit + 1 < std::size(kUnits)) {
    v /= 1024;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[unit]);
  return buf;
}

std::string ShortHashRange(const std::string& begin, const std::string& end) {
  const bool ring_end = end.empty() || end.find_first_not_of('0') == std::string::npos;
  return begin.substr(0, 4) + ".." + (ring_end ? "end" : end.substr(0, 4));
}

std::string FormatCapacityReport(const Json& describe_capacity) {
  std::string out;
  const Json& table = Member(describe_capacity, "Table");
  const std::string table_name = Str(table, "TableName");
  Appendf(&out, "Table %s  %s  %s\n", table_name.c_str(),
          Str(describe_capacity, "BillingMode").c_str(),
          Str(table, "Arn").c_str());
  AppendResource(&out, table);
  // Fault rules' failures (docs/testing.md), apart from the model's own.
  const Json& injected = Member(describe_capacity, "InjectedFaults");
  if (injected.is_object() && !injected.empty()) {
    out += "  injected by fault rules:";
    for (auto it = injected.begin(); it != injected.end(); ++it) {
      Appendf(&out, " %s %lld", it.key().c_str(),
              static_cast<long long>(it.value().is_number_integer() ? it.value().get<int64_t>() : 0));
    }
    out += "\n";
  }
  for (const Json& gsi : List(describe_capacity, "GlobalSecondaryIndexes")) {
    Appendf(&out, "\nIndex %s of %s  %s\n", Str(gsi, "IndexName").c_str(),
            table_name.c_str(), Str(gsi, "Arn").c_str());
    AppendResource(&out, gsi);
  }
  return out;
}

std::string FormatStreamReport(const Json& stats) {
  std::string out;
  const Json& streams = List(stats, "Streams");
  if (streams.empty()) return out;
  Appendf(&out, "\nStream storage: %s (every stream of the database)\n",
          HumanBytes(Int(stats, "StorageBytes")).c_str());
  for (const Json& s : streams) {
    const Json& shards = List(s, "Shards");
    Appendf(&out, "\nStream %s (%s): %lld records, %s, %zu shards\n",
            Str(s, "StreamArn").c_str(), Str(s, "StreamStatus").c_str(),
            static_cast<long long>(Int(s, "Records")),
            HumanBytes(Int(s, "Bytes")).c_str(), shards.size());
    Appendf(&out, "  %-38s  %-6s  %8s  %10s  %8s  %9s  %8s  %11s\n", "SHARD",
            "STATE", "RECORDS", "SIZE", "READS", "THROTTLED", "UNREAD",
            "OLDEST (s)");
    for (const Json& sh : shards) {
      const Json& open = Member(sh, "Open");
      Appendf(&out, "  %-38s  %-6s  %8lld  %10s  %8lld  %9lld  %8lld  %11.1f\n",
              Clip(Str(sh, "ShardId"), 38).c_str(),
              open.is_boolean() && open.get<bool>() ? "open" : "closed",
              static_cast<long long>(Int(sh, "Records")),
              HumanBytes(Int(sh, "Bytes")).c_str(),
              static_cast<long long>(Int(sh, "GetRecordsCalls")),
              static_cast<long long>(Int(sh, "ThrottledCalls")),
              static_cast<long long>(Int(sh, "UnreadRecords")),
              Num(sh, "OldestUnreadAgeSeconds"));
    }
  }
  return out;
}

}  // namespace dynarock::tools::stats
