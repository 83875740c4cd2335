// tools/load.cc

#include "tools/load.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "api/client.h"
#include "engine/engine.h"
#include "engine/options.h"
#include "tools/http/http_client.h"
#include "tools/load/loader.h"
#include "tools/load/model_file.h"
#include "tools/progress/progress_bar.h"

namespace dynarock::tools {
namespace {

std::string FromEnv(const char* name, const char* fallback_name,
                    const char* fallback) {
  for (const char* n : {name, fallback_name}) {
    if (n == nullptr) continue;
    const char* v = std::getenv(n);
    if (v != nullptr && *v != '\0') return v;
  }
  return fallback;
}

}  // namespace

int RunLoad(const LoadOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<load::LoadPlan> plans;
  for (const std::string& file : options.files) {
    Result<load::LoadPlan> plan = load::ReadModelFile(file);
    if (!plan.ok()) {
      std::fprintf(stderr, "dynarock load: %s\n", plan.status().message().c_str());
      return 1;
    }
    plans.push_back(std::move(plan).value());
  }

  api::CallerIdentity caller;
  caller.access_key_id = options.access_key_id.empty()
                             ? FromEnv("AWS_ACCESS_KEY_ID", nullptr, "dynarock")
                             : options.access_key_id;
  caller.region = options.region.empty()
                      ? FromEnv("AWS_REGION", "AWS_DEFAULT_REGION", "us-east-1")
                      : options.region;

  // The target: in process (tools/ -> api/ -> engine/) or over HTTP.
  std::unique_ptr<Engine> engine;
  std::unique_ptr<api::Client> client;
  std::unique_ptr<http::DynamoDbHttpClient> http_client;
  load::SendFn send;
  std::string target;
  if (options.in_memory || !options.db_path.empty()) {
    EngineOptions engine_options;
    engine_options.in_memory = options.in_memory;
    if (!options.in_memory) engine_options.path = options.db_path;
    Result<std::unique_ptr<Engine>> opened = Engine::Open(engine_options);
    if (!opened.ok()) {
      std::fprintf(stderr, "dynarock load: cannot open %s: %s\n",
                   options.in_memory ? "the in-memory database"
                                     : options.db_path.c_str(),
                   opened.status().message().c_str());
      return 1;
    }
    engine = std::move(opened).value();
    client = std::make_unique<api::Client>(engine.get());
    send = [&client, caller](std::string_view op, std::string_view body) {
      return client->Call(op, body, caller);
    };
    target = options.in_memory ? "memory" : options.db_path;
  } else {
    Result<http::Endpoint> endpoint = http::ParseEndpoint(options.endpoint);
    if (!endpoint.ok()) {
      std::fprintf(stderr, "dynarock load: %s\n",
                   endpoint.status().message().c_str());
      return 1;
    }
    http::HttpClientOptions http_options;
    http_options.access_key_id = caller.access_key_id;
    http_options.region = caller.region;
    http_client = std::make_unique<http::DynamoDbHttpClient>(
        std::move(endpoint).value(), http_options);
    send = [&http_client](std::string_view op, std::string_view body) {
      return http_client->Call(op, body);
    };
    target = options.endpoint;
  }

  load::LoaderOptions loader_options;
  loader_options.replace = options.replace;
  loader_options.skip_invalid = options.skip_invalid;
  if (options.progress || StderrIsTerminal()) {
    loader_options.on_progress = [](size_t done, size_t total) {
      DrawProgress(done, total);
    };
  }
  load::Loader loader(send, loader_options);
  load::LoadReport report;
  Status status = loader.Load(plans, &report);

  for (const load::InvalidItem& invalid : report.invalid) {
    std::fprintf(stderr, "invalid item: %s\n",
                 load::FormatInvalidItem(invalid).c_str());
  }
  if (!status.ok()) {
    std::fprintf(stderr, "dynarock load: %s\n", status.message().c_str());
    return 1;
  }
  const double seconds = std::chrono::duration<double>(
                             std::chrono::steady_clock::now() - start)
                             .count();
  std::printf("loaded %zu table(s), %zu item(s) into %s in %.2f s", report.tables,
              report.items, target.c_str(), seconds);
  if (!report.invalid.empty()) {
    std::printf(" (%zu invalid item(s) skipped)", report.invalid.size());
  }
  std::printf("\n");
  return 0;
}

}  // namespace dynarock::tools
