// tools/stats.cc

#include "tools/stats.h"

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "api/json_codec.h"
#include "tools/http/http_client.h"
#include "api/metrics/price_table.h"
#include "tools/stats/capacity_report.h"
#include "api/metrics/cost_usage.h"
#include "tools/stats/cost_report.h"

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

// The answer of `operation`, or null when it failed.
api::Json CallJson(http::DynamoDbHttpClient& client, std::string_view operation,
                   const api::Json& request) {
  api::Response r = client.Call(operation, request.dump());
  if (r.http_status != 200) return api::Json();
  api::Json body = api::Json::parse(r.body, nullptr, /*allow_exceptions=*/false);
  return body.is_discarded() ? api::Json() : body;
}

// The cost report of the table (text, or JSON members added to `stats`).
std::string CostOf(http::DynamoDbHttpClient& client, const StatsOptions& options,
                   api::Json* stats) {
  const api::Json table = CallJson(client, "DescribeTable", {{"TableName", options.table}});
  double hours = options.period_hours;
  if (hours <= 0 && table.is_object()) {
    // Since creation, on the server's clock (a simulated one too).
    const api::Json clock = CallJson(client, "DynamoRock_20251121.DescribeClock", api::Json::object());
    const double now = clock.is_object() ? clock.value("Now", 0.0) : 0.0;
    const double created = table.contains("Table") && table["Table"].is_object()
                               ? table["Table"].value("CreationDateTime", 0.0)
                               : 0.0;
    hours = now > created ? (now - created) / 3600 : 0;
  }
  const api::metrics::TableUsage usage = api::metrics::CostUsageOf(*stats, table, hours);
  const bool own = api::metrics::UsesOwnProvisionedCapacity(*stats);
  const api::metrics::PriceTable& prices = api::metrics::UsEast1StandardPrices();
  if (options.json) {
    const api::metrics::TableCost cost = api::metrics::EstimateCost(usage, prices);
    (*stats)["Cost"] = {{"PeriodHours", hours},
                        {"Region", prices.region},
                        {"PricesAsOf", prices.as_of},
                        {"PriceSource", prices.source_url},
                        {"OnDemand", cost.on_demand_total()},
                        {"Provisioned", cost.provisioned_total()},
                        {"Storage", cost.storage}};
    return "";
  }
  return stats::FormatCostReport(usage, own, prices);
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
  const std::string cost = options.cost ? CostOf(client, options, &stats) : "";
  const std::string text =
      options.json ? stats.dump(2) + "\n"
                   : stats::FormatCapacityReport(stats) +
                         stats::FormatStreamReport(stream_stats) + cost;
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

}  // namespace dynarock::tools
