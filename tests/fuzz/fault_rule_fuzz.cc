// tests/fuzz/fault_rule_fuzz.cc
//
// libFuzzer target for fault rules (api/fault/, engine/fault/): the input
// is a rule, then requests the rule is applied to. The first byte picks how
// the rule is made: as the input's own bytes (any text, sent as
// {"Rule": <bytes>}), or from a recipe whose sizes reach past every bound:
// Operations lists of up to 20,000 names, Key maps of up to 20,000
// attributes, Key values nested up to 100,000 levels, Request members up to
// 20,000, ids and prefixes up to 70,000 bytes, and any number in every
// field. Each accepted rule then meets a PutItem, a BatchWriteItem of up to
// 25 entries, a TransactWriteItems and a GetItem on fresh keys.
//
// Invariants beyond "no crash, no sanitizer report, no stack overflow":
//   - every answer is 200, 400, 500 or 503 with a JSON object body;
//   - an injected failure takes no effect: a PutItem or TransactWriteItems
//     that failed wrote nothing, and a BatchWriteItem wrote exactly the
//     entries it did not return unprocessed;
//   - the extensions are never faulted (ListFaultRules / ClearFaultRules
//     answer 200 whatever the rule).
// Latency rules are reported, not waited out (ClientOptions).
//
// Build: clang, -DDYNAROCK_BUILD_FUZZERS=ON (see tests/fuzz/CMakeLists.txt).
// Run:   ./fault_rule_fuzz -max_total_time=60 corpus_dir ../tests/fuzz/corpus/fault_rule

#include <cstddef>
#include <cstdint>
#include <set>
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
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}]})";

constexpr int kRunsPerEngine = 3000;

// One byte per choice, two per size; zeros once the input runs out.
class Recipe {
 public:
  Recipe(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  size_t Size(size_t max) {
    const size_t v = (static_cast<size_t>(Byte()) << 8) | Byte();
    return v <= max ? v : v % (max + 1);
  }
  bool Coin() { return Byte() & 1; }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

constexpr const char* kOperations[] = {
    "PutItem", "GetItem", "BatchWriteItem", "BatchGetItem", "TransactWriteItems",
    "TransactGetItems", "Query", "Scan", "ListTables", "NoSuchOperation", ""};
constexpr const char* kErrors[] = {
    "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
    "LimitExceededException", "InternalServerError", "ServiceUnavailable",
    "TransactionConflictException", "TransactionCanceledException", "ValidationException", ""};
constexpr const char* kReasons[] = {"TableWriteKeyRangeThroughputExceeded",
                                    "IndexReadAccountLimitExceeded", "Nope",
                                    "TransactionConflict", "ConditionalCheckFailed", "None"};

template <size_t N>
const char* Pick(Recipe& r, const char* const (&names)[N]) {
  return names[r.Byte() % N];
}

// A number of any kind: small, huge, negative, fractional, not a number.
Json AnyNumber(Recipe& r) {
  switch (r.Byte() % 6) {
    case 0: return r.Byte();
    case 1: return -static_cast<int64_t>(r.Size(65535));
    case 2: return static_cast<double>(r.Size(65535)) / 997.0;
    case 3: return 1e308;
    case 4: return static_cast<uint64_t>(-1);
    default: return "7";
  }
}

// An attribute value, nested `depth` levels in maps (raw JSON nesting).
std::string NestedValue(size_t depth) {
  std::string out;
  for (size_t i = 0; i < depth; ++i) out += R"({"M":{"a":)";
  out += R"({"S":"deep"})";
  for (size_t i = 0; i < depth; ++i) out += "}}";
  return out;
}

std::string RecipeRule(Recipe& r) {
  Json match = Json::object();
  if (r.Coin()) {
    Json ops = Json::array();
    const size_t n = r.Size(20000);
    for (size_t i = 0; i < n; ++i) ops.push_back(Pick(r, kOperations));
    match["Operations"] = std::move(ops);
  }
  if (r.Coin()) match["TableName"] = r.Coin() ? "fuzz" : "other";
  if (r.Coin()) {
    Json key = Json::object();
    const size_t n = r.Size(20000);
    for (size_t i = 0; i < n; ++i) key[i == 0 ? "pk" : "a" + std::to_string(i)] = {{"S", "k"}};
    match["Key"] = std::move(key);
  }
  if (r.Coin()) {
    match["KeyPrefix"] = {{"AttributeName", r.Coin() ? "pk" : ""},
                          {"Prefix", std::string(r.Size(70000), 'k')}};
  }
  if (r.Coin()) {
    Json request = Json::object();
    const size_t n = r.Size(20000);
    for (size_t i = 0; i < n; ++i) request["m" + std::to_string(i)] = AnyNumber(r);
    match["Request"] = std::move(request);
  }
  Json effect = Json::object();
  switch (r.Byte() % 4) {
    case 0:
      effect["Error"] = Pick(r, kErrors);
      if (r.Coin()) effect["ThrottlingReason"] = Pick(r, kReasons);
      if (r.Coin()) effect["CancellationReason"] = Pick(r, kReasons);
      if (r.Coin()) {
        Json reasons = Json::array();
        const size_t n = r.Size(200);
        for (size_t i = 0; i < n; ++i) reasons.push_back(Pick(r, kReasons));
        effect["CancellationReasons"] = std::move(reasons);
      }
      if (r.Coin()) effect["Message"] = std::string(r.Size(70000), 'm');
      break;
    case 1:
      effect["Unprocessed"] = r.Coin();
      break;
    case 2:
      effect["LatencyMillis"] = AnyNumber(r);
      break;
    default:
      break;  // no effect: refused
  }
  Json when = Json::object();
  for (const char* field : {"Probability", "Seed", "EveryNth", "FirstN", "From", "To"}) {
    if (r.Coin()) when[field] = AnyNumber(r);
  }
  Json rule = {{"Match", std::move(match)}, {"Effect", std::move(effect)}};
  if (!when.empty()) rule["When"] = std::move(when);
  if (r.Coin()) rule["Id"] = std::string(r.Size(70000), 'i');
  std::string text = rule.dump();
  // A Key value nested past every limit, spliced in as raw JSON.
  if (r.Coin()) {
    const std::string deep = NestedValue(r.Size(100000));
    text = R"({"Match":{"Key":{"pk":)" + deep + R"(}},"Effect":{"LatencyMillis":1}})";
  }
  return text;
}

void Check(const std::string& request, const Response& r, std::string_view op) {
  if (r.http_status != 200 && r.http_status != 400 && r.http_status != 500 &&
      r.http_status != 503) {
    Fail("unexpected HTTP status", request, r, op);
  }
  ParseBody(request, r, op);
}

// Whether the table holds `pk`, read with no rule in force.
bool Exists(const Client& client, const std::string& pk) {
  const std::string get = Json{{"TableName", "fuzz"}, {"Key", {{"pk", {{"S", pk}}}}}}.dump();
  client.Call("DynamoRock_20251121.ClearFaultRules", "{}");
  Response r = client.Call("GetItem", get);
  if (r.http_status != 200) Fail("GetItem failed without rules", get, r, "GetItem");
  return ParseBody(get, r).contains("Item");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static FuzzWorld* world = [] {
    dynarock::api::ClientOptions options;
    options.wait_injected_latency = false;
    return new FuzzWorld(kCreateTable, kRunsPerEngine, options);
  }();
  static uint64_t run = 0;
  const Client& client = world->NextRun();
  ++run;
  Recipe r(data, size);
  std::string rule;
  if (size > 0 && (data[0] & 1) == 0) {
    rule = R"({"Rule":)" + std::string(reinterpret_cast<const char*>(data + 1), size - 1) + "}";
  } else {
    r.Byte();
    rule = R"({"Rule":)" + RecipeRule(r) + "}";
  }
  Response put = client.Call("DynamoRock_20251121.PutFaultRule", rule);
  Check(rule, put, "PutFaultRule");
  if (put.http_status != 200 && put.http_status != 400) Fail("PutFaultRule", rule, put);
  const std::string tag = "r" + std::to_string(run) + "-";

  // PutItem: a failure wrote nothing.
  const std::string put_item =
      Json{{"TableName", "fuzz"}, {"Item", {{"pk", {{"S", tag + "p"}}}}}}.dump();
  Response p = client.Call("PutItem", put_item);
  Check(put_item, p, "PutItem");
  const bool put_ok = p.http_status == 200;

  // BatchWriteItem: exactly the entries not returned unprocessed are written.
  Json batch = {{"RequestItems", {{"fuzz", Json::array()}}}};
  const size_t entries = 1 + r.Byte() % 25;
  for (size_t i = 0; i < entries; ++i) {
    batch["RequestItems"]["fuzz"].push_back(
        {{"PutRequest", {{"Item", {{"pk", {{"S", tag + "b" + std::to_string(i)}}}}}}}});
  }
  const std::string batch_text = batch.dump();
  Response b = client.Call("BatchWriteItem", batch_text);
  Check(batch_text, b, "BatchWriteItem");
  std::set<std::string> unprocessed;
  if (b.http_status == 200) {
    Json body = ParseBody(batch_text, b);
    if (body.contains("UnprocessedItems") && body["UnprocessedItems"].contains("fuzz")) {
      for (const Json& e : body["UnprocessedItems"]["fuzz"]) {
        unprocessed.insert(e["PutRequest"]["Item"]["pk"]["S"].get<std::string>());
      }
    }
  }

  // TransactWriteItems: all or nothing.
  const std::string txn = Json{{"TransactItems",
                                {{{"Put", {{"TableName", "fuzz"},
                                           {"Item", {{"pk", {{"S", tag + "t0"}}}}}}}},
                                 {{"Put", {{"TableName", "fuzz"},
                                           {"Item", {{"pk", {{"S", tag + "t1"}}}}}}}}}}}
                              .dump();
  Response t = client.Call("TransactWriteItems", txn);
  Check(txn, t, "TransactWriteItems");

  const std::string get = Json{{"TableName", "fuzz"}, {"Key", {{"pk", {{"S", tag + "p"}}}}}}.dump();
  Check(get, client.Call("GetItem", get), "GetItem");

  Response list = client.Call("DynamoRock_20251121.ListFaultRules", "{}");
  if (list.http_status != 200) Fail("ListFaultRules was faulted", rule, list);

  // Exists() clears the rules first, so the reads see the table as it is.
  if (Exists(client, tag + "p") != put_ok) Fail("PutItem's effect disagrees", put_item, p);
  for (size_t i = 0; i < entries; ++i) {
    const std::string pk = tag + "b" + std::to_string(i);
    const bool written = b.http_status == 200 && !unprocessed.count(pk);
    if (Exists(client, pk) != written) Fail("BatchWriteItem's effect disagrees", batch_text, b);
  }
  const bool t0 = Exists(client, tag + "t0");
  if (t0 != Exists(client, tag + "t1") || t0 != (t.http_status == 200)) {
    Fail("TransactWriteItems was not all or nothing", txn, t);
  }
  return 0;
}
