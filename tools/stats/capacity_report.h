// tools/stats/capacity_report.h
//
// The readable form of a DescribeCapacity response (api/ops/capacity_ops.cc):
// the table's line (billing mode, rates, bucket balances, consumed and
// throttled in the last minute), its partitions, then each GSI likewise,
// each followed by its hot keys. A pure function of the JSON, so that its
// layout is tested without a server. Thread-safe.

#ifndef DYNAROCK_TOOLS_STATS_CAPACITY_REPORT_H_
#define DYNAROCK_TOOLS_STATS_CAPACITY_REPORT_H_

#include <cstdint>
#include <string>

#include "api/json_codec.h"

namespace dynarock::tools::stats {

// The report, lines ending in '\n'. Missing or mistyped members read as 0 or
// empty, so a partial response still renders (never throws).
std::string FormatCapacityReport(const api::Json& describe_capacity);

// The stream part of `dynarock stats`, from a DescribeStreamStats response
// (api/ops/stream_ops.cc): the stream storage size, then per stream its
// shards with retained records and bytes, GetRecords calls (refused ones
// too), and the lag: records not yet read by the furthest reader and the
// age of the oldest of them. Empty when the table has no stream. Lenient
// as FormatCapacityReport.
std::string FormatStreamReport(const api::Json& describe_stream_stats);

// 1536 -> "1.5 KB"; 1024-based, as DynamoDB's item sizes; under 1 KB in bytes
// ("512 B").
std::string HumanBytes(int64_t bytes);

// A partition's hash range from its 16-hex-digit bounds, shortened to four
// digits each: "0000..8000"; an end of "0000000000000000" (the end of the
// ring) shows as "end": "8000..end".
std::string ShortHashRange(const std::string& begin, const std::string& end);

}  // namespace dynarock::tools::stats

#endif  // DYNAROCK_TOOLS_STATS_CAPACITY_REPORT_H_
