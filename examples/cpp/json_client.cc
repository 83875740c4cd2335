// examples/cpp/json_client.cc
//
// The in-process DynamoDB client: requests and responses are DynamoDB JSON,
// exactly the bodies the HTTP server exchanges, with no server and no HTTP.
// Opens an in-memory engine on the real clock, creates a table, writes and
// reads an item, and shows an error answer. Exits non-zero if any answer is
// not the expected one.
//
// Built against the installed package (examples/cpp/CMakeLists.txt).

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "api/client.h"
#include "engine/engine.h"
#include "engine/options.h"

namespace {

bool Show(const dynarock::api::Client& client, std::string_view op,
          std::string_view body, int expected_status) {
  const dynarock::api::Response r = client.Call(op, body);
  std::printf("%.*s -> %d %s\n", static_cast<int>(op.size()), op.data(),
              r.http_status, r.body.c_str());
  return r.http_status == expected_status;
}

}  // namespace

int main() {
  dynarock::EngineOptions options;
  options.in_memory = true;
  // A new table is ACTIVE at once instead of after 50 ms of CREATING.
  options.table_create_delay_micros = 0;
  auto engine = dynarock::Engine::Open(options);
  if (!engine.ok()) {
    std::fprintf(stderr, "json_client: %s\n", engine.status().ToString().c_str());
    return 1;
  }
  // Does not own the engine, which outlives it.
  const dynarock::api::Client client(engine.value().get());

  bool ok = true;
  ok &= Show(client, "CreateTable", R"({
      "TableName": "Music", "BillingMode": "PAY_PER_REQUEST",
      "KeySchema": [{"AttributeName": "Artist", "KeyType": "HASH"}],
      "AttributeDefinitions": [{"AttributeName": "Artist", "AttributeType": "S"}]})",
             200);
  ok &= Show(client, "PutItem", R"({"TableName": "Music",
      "Item": {"Artist": {"S": "No One You Know"}, "Plays": {"N": "3"}},
      "ReturnConsumedCapacity": "TOTAL"})",
             200);
  ok &= Show(client, "GetItem",
             R"({"TableName": "Music", "Key": {"Artist": {"S": "No One You Know"}}})", 200);
  ok &= Show(client, "GetItem",
             R"({"TableName": "Nope", "Key": {"Artist": {"S": "x"}}})", 400);
  return ok ? 0 : 1;
}
