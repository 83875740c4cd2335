// tools/stats.h
//
// `dynarock stats TABLE`: asks a running `dynarock serve` for a table's
// capacity statistics (the DynamoRock_20251121.DescribeCapacity extension)
// and prints them as JSON or as a readable report
// (tools/stats/capacity_report.h).

#ifndef DYNAROCK_TOOLS_STATS_H_
#define DYNAROCK_TOOLS_STATS_H_

#include <string>

namespace dynarock::tools {

struct StatsOptions {
  std::string table;
  std::string endpoint = "http://127.0.0.1:8000";
  bool json = false;  // print the DescribeCapacity response, indented
  int hot_keys = 10;  // per table and GSI, 0..100
  // Also print what the table's use would cost on DynamoDB, on-demand and
  // provisioned (tools/stats/cost_report.h), over `period_hours`; 0: since
  // the table was created, on the server's clock.
  bool cost = false;
  double period_hours = 0;
  // The caller's identity, sent in the Authorization header: `dynarock
  // serve` keeps one set of tables per access key id + region unless
  // --shared-db. Empty: $AWS_ACCESS_KEY_ID, else "dynarock";
  // $AWS_REGION or $AWS_DEFAULT_REGION, else "us-east-1" (as `load`).
  std::string access_key_id;
  std::string region;
};

// Prints the statistics to stdout; returns the exit code: 0, or 1 when the
// endpoint cannot be reached or answers an error (printed to stderr, e.g.
// "dynarock stats: ResourceNotFoundException: Requested resource not found").
int RunStats(const StatsOptions& options);

}  // namespace dynarock::tools

#endif  // DYNAROCK_TOOLS_STATS_H_
