// tests/fuzz/transact_write_fuzz.cc
//
// libFuzzer target for the whole TransactWriteItems request path: every
// input is a request body sent as Client::Call("TransactWriteItems", body)
// to an in-memory engine with a table "fuzz" (pk S, sk N, an LSI on l and
// a GSI on g), so the body goes through JSON parsing, shape validation,
// decoding, the coordinator's checks, idempotency, marks, every action's
// condition and update, index changes and the one WriteBatch.
//
// Invariants beyond "no crash, no sanitizer report":
//   - every response is 200 or 400 with a JSON object body;
//   - a 400 changed nothing: the table's items are exactly as before;
//   - a TransactionCanceledException lists one reason per action;
//   - after a 200, the indexes and counters agree with the items
//     (DynamoRock_20251121.VerifyIndexes after WaitForIndexes).
//
// Build: clang, -DDYNAROCK_BUILD_FUZZERS=ON (see tests/fuzz/CMakeLists.txt).
// Run:   ./transact_write_fuzz -max_total_time=60 -dict=../tests/fuzz/transact_write.dict \
//            corpus_dir ../tests/fuzz/corpus/transact_write

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "api/client.h"
#include "tests/fuzz/fuzz_world.h"

namespace {

using dynarock::fuzz::Fail;
using dynarock::fuzz::FuzzWorld;
using dynarock::fuzz::ParseBody;
using dynarock::api::Client;
using dynarock::api::Response;
using Json = nlohmann::json;

constexpr char kCreateTable[] = R"({
  "TableName": "fuzz", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                           {"AttributeName": "sk", "AttributeType": "N"},
                           {"AttributeName": "l", "AttributeType": "S"},
                           {"AttributeName": "g", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"}],
  "LocalSecondaryIndexes": [{"IndexName": "lsi",
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                  {"AttributeName": "l", "KeyType": "RANGE"}],
    "Projection": {"ProjectionType": "ALL"}}],
  "GlobalSecondaryIndexes": [{"IndexName": "gsi",
    "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
    "Projection": {"ProjectionType": "KEYS_ONLY"}}]})";

// The table is scanned around every run: keep it small by starting over.
constexpr int kRunsPerEngine = 2000;

// Every item of the table, in scan order.
Json Items(const Client& client, std::string_view request) {
  Json items = Json::array();
  Json scan = {{"TableName", "fuzz"}, {"ConsistentRead", true}};
  for (;;) {
    Response r = client.Call("Scan", scan.dump());
    if (!r.ok()) Fail("Scan failed", request, r);
    Json body = ParseBody(request, r);
    for (Json& item : body["Items"]) items.push_back(std::move(item));
    if (!body.contains("LastEvaluatedKey")) return items;
    scan["ExclusiveStartKey"] = body["LastEvaluatedKey"];
  }
}

void Exercise(std::string_view request) {
  static FuzzWorld* world = new FuzzWorld(kCreateTable, kRunsPerEngine);
  const Client& client = world->NextRun();

  const Json before = Items(client, request);
  Response r = client.Call("TransactWriteItems", request);
  if (r.http_status != 200 && r.http_status != 400) {
    Fail("unexpected HTTP status", request, r);
  }
  Json body = ParseBody(request, r);
  if (!r.ok()) {
    if (Items(client, request) != before) Fail("a refused transaction wrote", request, r);
    const Json type = body.value("__type", Json());
    if (type.is_string() &&
        type.get<std::string>().ends_with("#TransactionCanceledException")) {
      Json parsed = Json::parse(request, nullptr, /*allow_exceptions=*/false);
      const size_t actions = parsed.is_object() && parsed.contains("TransactItems") &&
                                     parsed["TransactItems"].is_array()
                                 ? parsed["TransactItems"].size()
                                 : 0;
      if (!body.contains("CancellationReasons") ||
          body["CancellationReasons"].size() != actions) {
        Fail("CancellationReasons do not match the actions", request, r);
      }
    }
    return;
  }
  if (!client.Call("DynamoRock_20251121.WaitForIndexes", "{}").ok()) {
    Fail("WaitForIndexes failed", request, r);
  }
  Response verified =
      client.Call("DynamoRock_20251121.VerifyIndexes", R"({"TableName": "fuzz"})");
  if (!verified.ok()) Fail("indexes or counters differ after a transaction", request, verified);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Exercise(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
