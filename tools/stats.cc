// tools/stats.cc

#include "tools/stats.h"

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "api/json_codec.h"
#include "tools/http/http_client.h"
#include "tools/stats/capacity_report.h"

namespace dynarock::tools {
namespace {

// The first of the environment variables that is set and not empty, else
// `fallback` (the same defaults as `dynarock load`).
std::string FromEnv(std::initializer_list<const char*> names,
                    const char* fallback) {
  for (const char* n : names) {
    const char* v = std::getenv(n);
    if (v != nullptr && *v != '\0') return v;
  }
  return fallback;
}

}  // namespace

int RunStats(const StatsOptions& options) {
  Result<http::Endpoint> endpoint = http::ParseEndpoint(options.endpoint);
  if (!endpoint.ok()) {
    std::fprintf(stderr, "dynarock stats: %s\n",
                 endpoint.status().message().c_str());
    return 1;
  }
  http::HttpClientOptions http_options;
  http_options.access_key_id =
      options.access_key_id.empty() ? FromEnv({"AWS_ACCESS_KEY_ID"}, "dynarock")
                                    : options.access_key_id;
  http_options.region =
      options.region.empty()
          ? FromEnv({"AWS_REGION", "AWS_DEFAULT_REGION"}, "us-east-1")
          : options.region;
  http::DynamoDbHttpClient client(std::move(endpoint).value(), http_options);

  const api::Json request = {{"TableName", options.table},
                             {"HotKeys", options.hot_keys}};
  api::Response r =
      client.Call("DynamoRock_20251121.DescribeCapacity", request.dump());
  if (r.http_status == 0) {
    std::fprintf(stderr, "dynarock stats: cannot reach %s: %s\n",
                 options.endpoint.c_str(), r.body.c_str());
    return 1;
  }
  if (r.http_status != 200) {
    std::fprintf(stderr, "dynarock stats: %s\n", http::DescribeErrorResponse(r).c_str());
    return 1;
  }
  api::Json stats = api::Json::parse(r.body, nullptr, /*allow_exceptions=*/false);
  if (stats.is_discarded()) {
    std::fprintf(stderr, "dynarock stats: the answer is not JSON: %s\n",
                 r.body.c_str());
    return 1;
  }
  // The table's streams (none: an empty list); a server without the
  // extension leaves them out.
  const api::Json stream_request = {{"TableName", options.table}};
  api::Response sr =
      client.Call("DynamoRock_20251121.DescribeStreamStats", stream_request.dump());
  api::Json stream_stats =
      sr.http_status == 200
          ? api::Json::parse(sr.body, nullptr, /*allow_exceptions=*/false)
          : api::Json();
  if (stream_stats.is_discarded()) stream_stats = api::Json();
  if (options.json && stream_stats.is_object()) stats["StreamStats"] = stream_stats;
  const std::string text =
      options.json ? stats.dump(2) + "\n"
                   : stats::FormatCapacityReport(stats) +
                         stats::FormatStreamReport(stream_stats);
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

}  // namespace dynarock::tools
