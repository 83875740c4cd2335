// tools/clock.cc

#include "tools/clock.h"

#include <cstdio>

#include "api/json_codec.h"
#include "tools/http/http_client.h"

namespace dynarock::tools {

int RunClock(const ClockOptions& options) {
  Result<http::Endpoint> endpoint = http::ParseEndpoint(options.endpoint);
  if (!endpoint.ok()) {
    std::fprintf(stderr, "dynarock clock: %s\n", endpoint.status().message().c_str());
    return 1;
  }
  // The clock is the server's, not a namespace's: any caller will do.
  http::DynamoDbHttpClient client(std::move(endpoint).value(), http::HttpClientOptions{});
  api::Response r;
  if (options.action == "advance") {
    r = client.Call("DynamoRock_20251121.AdvanceClock",
                    api::Json{{"Seconds", options.seconds}}.dump());
  } else if (options.action == "set") {
    r = client.Call("DynamoRock_20251121.SetClock", api::Json{{"Now", options.seconds}}.dump());
  } else {
    r = client.Call("DynamoRock_20251121.DescribeClock", "{}");
  }
  if (r.http_status == 0) {
    std::fprintf(stderr, "dynarock clock: cannot reach %s: %s\n", options.endpoint.c_str(),
                 r.body.c_str());
    return 1;
  }
  if (r.http_status != 200) {
    std::fprintf(stderr, "dynarock clock: %s\n", http::DescribeErrorResponse(r).c_str());
    return 1;
  }
  api::Json clock = api::Json::parse(r.body, nullptr, /*allow_exceptions=*/false);
  if (!clock.is_object() || !clock.contains("Now") || !clock["Now"].is_number()) {
    std::fprintf(stderr, "dynarock clock: unexpected answer: %s\n", r.body.c_str());
    return 1;
  }
  std::printf("%s %.6f\n", clock.value("Mode", std::string("?")).c_str(),
              clock["Now"].get<double>());
  return 0;
}

}  // namespace dynarock::tools
