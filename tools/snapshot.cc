#include "tools/snapshot.h"

#include <cstdio>
#include <string>
#include <utility>

#include "api/client.h"
#include "api/json_codec.h"
#include "engine/engine.h"
#include "tools/http/http_client.h"

namespace dynarock::tools {
namespace {

std::string OperationOf(const std::string& action) {
  if (action == "create") return "CreateSnapshot";
  if (action == "restore") return "RestoreSnapshot";
  if (action == "list") return "ListSnapshots";
  return "DeleteSnapshot";
}

}  // namespace

int RunSnapshot(const SnapshotOptions& options) {
  if (options.action != "list" && options.name.empty()) {
    std::fprintf(stderr, "dynarock snapshot %s: a snapshot name is required\n",
                 options.action.c_str());
    return 1;
  }
  const std::string body =
      options.action == "list" ? "{}" : api::Json{{"SnapshotName", options.name}}.dump();
  const std::string operation = "DynamoRock_20251121." + OperationOf(options.action);
  api::Response r;
  if (!options.db_path.empty()) {
    EngineOptions engine_options;
    engine_options.path = options.db_path;
    Result<std::unique_ptr<Engine>> engine = Engine::Open(engine_options);
    if (!engine.ok()) {
      std::fprintf(stderr, "dynarock snapshot: cannot open %s: %s\n", options.db_path.c_str(),
                   engine.status().ToString().c_str());
      return 1;
    }
    api::Client client(engine->get());
    r = client.Call(operation, body);
  } else {
    Result<http::Endpoint> endpoint = http::ParseEndpoint(options.endpoint);
    if (!endpoint.ok()) {
      std::fprintf(stderr, "dynarock snapshot: %s\n", endpoint.status().message().c_str());
      return 1;
    }
    http::DynamoDbHttpClient client(std::move(endpoint).value(), http::HttpClientOptions());
    r = client.Call(operation, body);
    if (r.http_status == 0) {
      std::fprintf(stderr, "dynarock snapshot: cannot reach %s: %s\n",
                   options.endpoint.c_str(), r.body.c_str());
      return 1;
    }
  }
  api::Json answer = api::Json::parse(r.body, nullptr, /*allow_exceptions=*/false);
  if (r.http_status != 200) {
    std::string type = answer.is_object() ? answer.value("__type", "") : "";
    type = type.substr(type.find('#') + 1);
    const std::string message = answer.is_object() ? answer.value("message", r.body) : r.body;
    std::fprintf(stderr, "dynarock snapshot: %s: %s\n", type.c_str(), message.c_str());
    return 1;
  }
  const std::string text = (answer.is_discarded() ? api::Json(r.body) : answer).dump(2) + "\n";
  std::fwrite(text.data(), 1, text.size(), stdout);
  return 0;
}

}  // namespace dynarock::tools
