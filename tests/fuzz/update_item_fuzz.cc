// tests/fuzz/update_item_fuzz.cc
//
// libFuzzer target for the whole UpdateItem request path: every input is a
// request body sent as Client::Call("UpdateItem", body) to an in-memory
// engine that has a table "fuzz" (pk S, sk N) from the start, so the body
// goes through JSON parsing, shape validation, decoding, the engine's
// parameter checks, parsing, resolution, the condition, the update, item
// validation and the write.
//
// Invariants beyond "no crash, no sanitizer report":
//   - every response is 200 or 400 with a JSON object body (a 500 means an
//     exception or an internal error escaped);
//   - after a 200, GetItem of the same Key finds the item (unless it was
//     missing before: removals alone do not create it), and equals the
//     returned Attributes when ReturnValues was ALL_NEW;
//   - a 400 ConditionalCheckFailedException changed nothing.
//
// Build: clang, -DDYNAROCK_BUILD_FUZZERS=ON (see tests/fuzz/CMakeLists.txt).
// Run:   ./update_item_fuzz -max_total_time=60 -dict=../tests/fuzz/update_item.dict \
//            corpus_dir ../tests/fuzz/corpus/update_item

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
                           {"AttributeName": "sk", "AttributeType": "N"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"}]})";

// Items written accumulate; the engine is replaced now and then so that a
// long run stays within libFuzzer's memory limit.
constexpr int kRunsPerEngine = 20000;

// The stored item at `key` (null JSON when absent).
Json Stored(const Client& client, const Json& key, std::string_view request) {
  Json get = {{"TableName", "fuzz"}, {"Key", key}, {"ConsistentRead", true}};
  Response r = client.Call("GetItem", get.dump());
  if (!r.ok()) Fail("GetItem of an updated key failed", request, r);
  Json body = ParseBody(request, r);
  return body.contains("Item") ? body["Item"] : Json();
}

void Exercise(std::string_view request) {
  static FuzzWorld* world = new FuzzWorld(kCreateTable, kRunsPerEngine);
  const Client& client = world->NextRun();

  // The item before, when the request names a well-formed key of the table.
  Json parsed = Json::parse(request, nullptr, /*allow_exceptions=*/false);
  const Json* key = nullptr;
  if (parsed.is_object() && parsed.value("TableName", Json()) == "fuzz" &&
      parsed.contains("Key") && parsed["Key"].is_object()) {
    key = &parsed["Key"];
  }
  Json before;
  bool have_before = false;
  if (key != nullptr) {
    Json get = {{"TableName", "fuzz"}, {"Key", *key}, {"ConsistentRead", true}};
    Response r = client.Call("GetItem", get.dump());
    if (r.ok()) {
      Json body = ParseBody(request, r);
      before = body.contains("Item") ? body["Item"] : Json();
      have_before = true;
    }
  }

  Response r = client.Call("UpdateItem", request);
  if (r.http_status != 200 && r.http_status != 400) {
    Fail("unexpected HTTP status", request, r);
  }
  Json body = ParseBody(request, r);
  if (!have_before) return;

  if (r.ok()) {
    Json after = Stored(client, *key, request);
    // Only an update made of removals leaves a missing item missing.
    if (after.is_null() && !before.is_null()) {
      Fail("UpdateItem succeeded but the item is gone", request, r);
    }
    if (parsed.value("ReturnValues", Json()) == "ALL_NEW" &&
        body.value("Attributes", Json()) != after) {
      Fail("ALL_NEW differs from the stored item", request, r);
    }
  } else if (body.value("__type", Json()).is_string() &&
             body["__type"].get<std::string>().ends_with(
                 "#ConditionalCheckFailedException")) {
    if (Stored(client, *key, request) != before) {
      Fail("a failed condition changed the item", request, r);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Exercise(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
