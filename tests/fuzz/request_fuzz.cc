// tests/fuzz/request_fuzz.cc
//
// Structure-aware libFuzzer target for every item operation: the input is
// not a request but a recipe. A small decoder reads it byte by byte to
// choose an operation and build its body as JSON text, with sizes that
// reach past DynamoDB's limits: documents nested up to 40 levels, raw JSON
// up to 100,000 levels, maps and lists of up to 20,000 members, sets of up
// to 5,000, Expected / QueryFilter / ScanFilter maps of up to 70,000
// conditions, expressions with up to 2,000 parentheses, NOTs, ANDs and
// nested function calls, document paths of up to 40 elements, attribute
// names up to 70,000 bytes, numbers of up to 10,000 digits. Each request is
// sent through Client::Call on a thread with an 8 MB stack (a server
// worker's; ASan's frames are larger, so the margin is smaller than in a
// Release server; tests/api/client_test.cc checks 2 MB in Release), to an
// in-memory engine with a table "fuzz" (pk S, sk N), a GSI on g and a
// multi-attribute GSI (HASH g, sk; RANGE a1, pk) that operation 10 queries,
// and a vector index (vector "vec" of 3 dimensions, HASH g, INLINE_FILTER
// a1) that operation 11 writes and searches (SearchVectors).
//
// Invariants beyond "no crash, no sanitizer report, no stack overflow":
// every response is 200 or 400 with a JSON object body (a 500 means an
// exception or an internal error escaped).
//
// The committed seeds (tests/fuzz/corpus/request) are recipes that reach
// each limit and pass it by one; tests/fuzz/make_request_seeds.py writes them.
//
// Build: clang, -DDYNAROCK_BUILD_FUZZERS=ON (see tests/fuzz/CMakeLists.txt).
// Run:   ./request_fuzz -max_total_time=60 corpus_dir ../tests/fuzz/corpus/request

#include <pthread.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "api/client.h"
#include "tests/fuzz/fuzz_world.h"

namespace {

using dynarock::fuzz::Fail;
using dynarock::fuzz::FuzzWorld;
using dynarock::fuzz::ParseBody;
using dynarock::api::Client;
using dynarock::api::Response;

constexpr char kCreateTable[] = R"({
  "TableName": "fuzz", "BillingMode": "PAY_PER_REQUEST",
  "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"},
                           {"AttributeName": "sk", "AttributeType": "N"},
                           {"AttributeName": "g", "AttributeType": "S"},
                           {"AttributeName": "a1", "AttributeType": "S"}],
  "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"},
                {"AttributeName": "sk", "KeyType": "RANGE"}],
  "GlobalSecondaryIndexes": [{"IndexName": "byG",
      "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"}],
      "Projection": {"ProjectionType": "ALL"}},
     {"IndexName": "byMulti",
      "KeySchema": [{"AttributeName": "g", "KeyType": "HASH"},
                    {"AttributeName": "sk", "KeyType": "HASH"},
                    {"AttributeName": "a1", "KeyType": "RANGE"},
                    {"AttributeName": "pk", "KeyType": "RANGE"}],
      "Projection": {"ProjectionType": "KEYS_ONLY"}}],
  "VectorIndexes": [{"IndexName": "byVec", "VectorAttribute": {"AttributeName": "vec"},
      "Dimensions": 3, "DistanceFunction": "COSINE",
      "SearchSchema": [{"AttributeName": "g", "SearchSchemaElementType": "HASH"},
                       {"AttributeName": "a1", "SearchSchemaElementType": "INLINE_FILTER"}],
      "Projection": {"ProjectionType": "ALL"}}]})";

constexpr int kRunsPerEngine = 5000;
// A server worker's stack (8 MB), here with ASan's larger frames.
constexpr size_t kStackBytes = 8 << 20;

// Reads the recipe: one byte per choice, two per size; zeros once it runs
// out, so every input is a complete recipe.
class Recipe {
 public:
  Recipe(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  // 0 .. n-1.
  int Pick(int n) { return Byte() % n; }
  bool Flip() { return (Byte() & 1) != 0; }
  // 0 .. max; the two bytes 0xFFFF give max itself, 0xFFFE max - 1, so a
  // seed can name a limit and one past it exactly.
  int Size(int max) {
    const int hi = Byte();
    const int v = hi * 256 + Byte();
    if (v >= 0xFFF0) return std::max(0, max - (0xFFFF - v));
    return static_cast<int>(static_cast<int64_t>(v) * max / 0xFFF0);
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// Appends JSON text; builds documents iteratively where they can be deep.
class Builder {
 public:
  explicit Builder(Recipe* r) : r_(r) {}

  static std::string Quote(std::string_view s) {
    return nlohmann::json(std::string(s)).dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
  }

  std::string Name() {
    switch (r_->Pick(6)) {
      case 0:
        return "a" + std::to_string(r_->Pick(8));
      case 1:
        return "pk";
      case 2:
        return "g";
      case 3:
        return std::string(static_cast<size_t>(r_->Size(70000)), 'n');
      case 4:
        return "";
      default:
        return "sk";
    }
  }

  std::string Scalar() {
    switch (r_->Pick(9)) {
      case 0:
        return R"({"S":)" +
               Quote(std::string(static_cast<size_t>(r_->Size(500000)), 's')) +
               "}";
      case 1:
        return R"({"N":")" +
               std::string(static_cast<size_t>(r_->Size(10000)) + 1, '9') +
               "\"}";
      case 2: {
        static const char* kNumbers[] = {"1e125", "1e126", "-1e-130", "1e-131",
                                         "0.0", "-0", "1E+2", "NaN", "", " 1"};
        return R"({"N":")" + std::string(kNumbers[r_->Pick(10)]) + "\"}";
      }
      case 3:
        return R"({"B":")" +
               std::string(static_cast<size_t>(r_->Size(1000)) * 4, 'Q') +
               "\"}";
      case 4:
        return R"({"BOOL":true})";
      case 5:
        return R"({"NULL":true})";
      case 6: {
        const int n = r_->Size(5000);
        std::string out = r_->Flip() ? R"({"NS":[)" : R"({"SS":[)";
        const bool dup = r_->Flip();
        for (int i = 0; i < n; ++i) {
          if (i > 0) out += ',';
          out += '"' + std::to_string(dup ? i / 2 : i) + '"';
        }
        return out + "]}";
      }
      case 7:
        return R"({"S":"v"})";
      default:
        return R"({"N":")" + std::to_string(r_->Byte()) + "\"}";
    }
  }

  // A value nested `depth` levels (1 = a scalar), with `width` members at
  // the outermost level.
  std::string Value() {
    const int depth = 1 + r_->Size(40);
    const int width = r_->Size(20000);
    std::string leaf = Scalar();
    std::string open, close;
    for (int i = 1; i < depth; ++i) {
      if (r_->Flip()) {
        open += R"({"L":[)";
        close = "]}" + close;
      } else {
        open += R"({"M":{"m":)";
        close = "}}" + close;
      }
    }
    std::string v = open + leaf + close;
    if (width == 0) return v;
    std::string wide = r_->Flip() ? R"({"L":[)" : R"({"M":{)";
    const bool list = wide[2] == 'L';
    for (int i = 0; i < width; ++i) {
      if (i > 0) wide += ',';
      if (!list) wide += "\"m" + std::to_string(i) + "\":";
      wide += i == 0 ? v : R"({"N":"1"})";
    }
    return wide + (list ? "]}" : "}}");
  }

  // Raw JSON nested `levels` deep: no attribute value at all.
  std::string RawDeep() {
    const int levels = r_->Size(100000);
    const bool arrays = r_->Flip();
    std::string out;
    out.reserve(static_cast<size_t>(levels) * 6 + 8);
    for (int i = 0; i < levels; ++i) out += arrays ? "[" : R"({"a":)";
    out += "1";
    if (r_->Flip()) {  // balanced or not
      for (int i = 0; i < levels; ++i) out += arrays ? "]" : "}";
    }
    return out;
  }

  std::string Item() {
    std::string out = KeyMembers();
    const int n = r_->Pick(4);
    for (int i = 0; i < n; ++i) {
      // One statement per call: the recipe is read in a fixed order.
      out += "," + Quote(Name());
      out += ":" + Value();
    }
    if (r_->Flip()) out += R"(,"g":{"S":"g"})";
    return out + "}";
  }

  std::string Key() { return KeyMembers() + "}"; }

  // {"pk":...,"sk":... without the closing brace.
  std::string KeyMembers() {
    std::string out = R"({"pk":{"S":"k)" + std::to_string(r_->Pick(4));
    out += R"("},"sk":{"N":")" + std::to_string(r_->Pick(4)) + "\"}";
    return out;
  }

  std::string Path() {
    const int elements = 1 + r_->Size(40);
    std::string out = r_->Flip() ? "#n" : "a0";
    for (int i = 1; i < elements; ++i) {
      out += r_->Flip() ? ".m" : "[" + std::to_string(r_->Pick(3)) + "]";
    }
    return out;
  }

  std::string Condition() {
    switch (r_->Pick(10)) {
      case 0: {  // a chain of comparisons
        const int n = 1 + r_->Size(400);
        const char* join = r_->Flip() ? " AND " : " OR ";
        std::string out;
        for (int i = 0; i < n; ++i) {
          if (i > 0) out += join;
          out += "a" + std::to_string(i % 8) + " = :v";
        }
        return out;
      }
      case 1:  // NOT NOT ... NOT
      {
        std::string out;
        const int n = r_->Size(2000);
        for (int i = 0; i < n; ++i) out += "NOT ";
        return out + "a0 = :v";
      }
      case 2: {  // parentheses around a condition
        const int n = r_->Size(2100);
        return std::string(static_cast<size_t>(n), '(') + "a0 = :v" +
               std::string(static_cast<size_t>(n), ')');
      }
      case 3: {  // parentheses around an operand
        const int n = r_->Size(2100);
        return std::string(static_cast<size_t>(n), '(') + "a0" +
               std::string(static_cast<size_t>(n), ')') + " = :v";
      }
      case 4: {  // nested conditions: a = :v AND (a = :v AND (...))
        const int n = r_->Size(200);
        std::string out;
        for (int i = 0; i < n; ++i) out += "a0 = :v AND (";
        return out + "a1 = :v" + std::string(static_cast<size_t>(n), ')');
      }
      case 5: {  // nested function calls
        const int n = 1 + r_->Size(700);
        std::string out;
        for (int i = 0; i < n; ++i) out += "size(";
        return out + "a0" + std::string(static_cast<size_t>(n), ')') + " = :v";
      }
      case 6: {  // IN lists
        const int n = 1 + r_->Size(150);
        std::string out = "a0 IN (";
        for (int i = 0; i < n; ++i) out += i > 0 ? ", :v" : ":v";
        return out + ")";
      }
      case 7:
        return "attribute_exists(" + Path() + ")";
      case 8:
        return Path() + " = :v";
      default:
        return "a0 BETWEEN :v AND :v";
    }
  }

  std::string Update() {
    switch (r_->Pick(5)) {
      case 0: {  // many actions
        const int n = 1 + r_->Size(600);
        std::string out = "SET ";
        for (int i = 0; i < n; ++i) {
          if (i > 0) out += ", ";
          out += "a" + std::to_string(i) + " = :v";
        }
        return out;
      }
      case 1:
        return "SET " + Path() + " = :v";
      case 2: {
        const int n = r_->Size(2100);
        return "SET a0 = " + std::string(static_cast<size_t>(n), '(') + ":v" +
               std::string(static_cast<size_t>(n), ')');
      }
      case 3: {
        const int n = 1 + r_->Size(400);
        std::string out = "SET a0 = ";
        for (int i = 0; i < n; ++i) out += "if_not_exists(a0, ";
        return out + ":v" + std::string(static_cast<size_t>(n), ')');
      }
      default:
        return "REMOVE " + Path();
    }
  }

  std::string Projection() {
    if (r_->Flip()) return Path();
    const int n = 1 + r_->Size(1000);
    std::string out;
    for (int i = 0; i < n; ++i) out += (i > 0 ? ", a" : "a") + std::to_string(i);
    return out;
  }

  // A legacy condition map (Expected, or a filter's Condition map).
  std::string Conditions(bool expected) {
    const int n = r_->Size(70000);
    const int form = r_->Pick(4);
    std::string out = "{";
    for (int i = 0; i < n; ++i) {
      if (i > 0) out += ',';
      out += "\"c" + std::to_string(i) + "\":";
      if (expected && form == 0) {
        out += R"({"Exists":false})";
      } else if (expected && form == 1) {
        out += R"({"Value":{"N":"1"}})";
      } else if (form == 2) {
        out += R"({"ComparisonOperator":"NULL"})";
      } else {
        out += R"({"ComparisonOperator":"IN","AttributeValueList":[{"N":"1"},{"N":"2"}]})";
      }
    }
    out += "}";
    if (r_->Flip()) {
      out += std::string(R"(,"ConditionalOperator":")") +
             (r_->Flip() ? "OR" : "AND") + "\"";
    }
    return out;
  }

  // The common tail: expression values and names.
  std::string Placeholders() {
    std::string out = R"(,"ExpressionAttributeValues":{":v":)";
    out += Value() + "}";
    out += R"(,"ExpressionAttributeNames":{"#n":)";
    out += Quote(Name()) + "}";
    return out;
  }

 private:
  Recipe* r_;
};

// Returns {operation, body}.
std::pair<std::string, std::string> BuildRequest(Recipe& r) {
  Builder b(&r);
  const std::string table = R"({"TableName":"fuzz")";
  switch (r.Pick(12)) {
    case 0: {
      std::string body = table + R"(,"Item":)" + b.Item();
      switch (r.Pick(3)) {
        case 0:
          body += R"(,"Expected":)" + b.Conditions(true);
          break;
        case 1:
          body += R"(,"ConditionExpression":)" + b.Quote(b.Condition());
          body += b.Placeholders();
          break;
        default:
          break;
      }
      return {"PutItem", body + "}"};
    }
    case 1: {
      std::string body = table + R"(,"Key":)" + b.Key();
      if (r.Flip()) {
        body += R"(,"UpdateExpression":)" + b.Quote(b.Update());
        if (r.Flip()) body += R"(,"ConditionExpression":)" + b.Quote(b.Condition());
        body += b.Placeholders();
      } else {
        body += R"(,"AttributeUpdates":{"a0":{"Action":"PUT","Value":)" +
                b.Value() + "}}";
        if (r.Flip()) body += R"(,"Expected":)" + b.Conditions(true);
      }
      if (r.Flip()) body += R"(,"ReturnValues":"ALL_NEW")";
      return {"UpdateItem", body + "}"};
    }
    case 2: {
      std::string body = table + R"(,"Key":)" + b.Key();
      if (r.Flip()) body += R"(,"Expected":)" + b.Conditions(true);
      return {"DeleteItem", body + "}"};
    }
    case 3: {
      std::string body = table + R"(,"Key":)" + b.Key();
      body += R"(,"ProjectionExpression":)" + b.Quote(b.Projection());
      body += b.Placeholders();
      return {"GetItem", body + "}"};
    }
    case 4: {
      std::string body = table;
      if (r.Flip()) {
        body += R"(,"ScanFilter":)" + b.Conditions(false);
      } else {
        body += R"(,"FilterExpression":)" + b.Quote(b.Condition());
        body += b.Placeholders();
      }
      return {"Scan", body + "}"};
    }
    case 5: {
      std::string body =
          table + R"(,"KeyConditionExpression":"pk = :k","ExpressionAttributeValues":{":k":{"S":"k0"},":v":{"N":"1"}})";
      if (r.Flip()) {
        body = table +
               R"(,"KeyConditions":{"pk":{"ComparisonOperator":"EQ","AttributeValueList":[{"S":"k0"}]}})" +
               R"(,"QueryFilter":)" + b.Conditions(false);
      } else {
        body += R"(,"FilterExpression":)" + b.Quote(b.Condition());
      }
      return {"Query", body + "}"};
    }
    case 6: {
      const int n = 1 + r.Size(30);
      std::string body = R"({"RequestItems":{"fuzz":[)";
      for (int i = 0; i < n; ++i) {
        if (i > 0) body += ',';
        body += R"({"PutRequest":{"Item":)" + b.Item() + "}}";
      }
      return {"BatchWriteItem", body + "]}}"};
    }
    case 7: {
      std::string body = table + R"(,"Item":{"pk":{"S":"k"},"sk":{"N":"1"},"d":)" +
                         b.RawDeep() + "}}";
      return {"PutItem", body};
    }
    case 8: {
      const int n = 1 + r.Size(120);
      std::string body = R"({"TransactItems":[)";
      for (int i = 0; i < n; ++i) {
        if (i > 0) body += ',';
        body += R"({"Put":{"TableName":"fuzz","Item":)" + b.Item() + "}}";
      }
      return {"TransactWriteItems", body + "]}"};
    }
    case 10: {
      // Query of the multi-attribute GSI: key conditions right and wrong
      // (a missing partition-key attribute, a skipped sort-key attribute,
      // a condition after a range), a filter, paging.
      static const char* kConditions[] = {
          "g = :g AND sk = :n",
          "g = :g AND sk = :n AND a1 = :s AND pk > :s",
          "g = :g AND sk = :n AND begins_with(a1, :s)",
          "g = :g AND sk = :n AND a1 BETWEEN :s AND :t",
          "g = :g AND sk = :n AND pk = :s",
          "g = :g AND a1 = :s",
          "g = :g AND sk = :n AND a1 > :s AND pk = :s",
          "sk = :n AND g = :g AND pk = :s AND a1 = :s"};
      std::string body = table + R"(,"IndexName":"byMulti","KeyConditionExpression":)" +
                         b.Quote(kConditions[r.Pick(8)]) +
                         R"(,"ExpressionAttributeValues":{":g":{"S":"g"},":n":{"N":"1"},)"
                         R"(":s":{"S":"k1"},":t":{"S":"v"},":v":{"N":"1"}})";
      if (r.Flip()) body += R"(,"FilterExpression":)" + b.Quote(b.Condition());
      if (r.Flip()) body += R"(,"Limit":1,"ScanIndexForward":false)";
      return {"Query", body + "}"};
    }
    case 11: {
      // The vector index: a write or a search whose vector is a generated
      // value (deep, wide, of any type; a list of up to 20,000 members),
      // with numbers at float's edges, TopK past its range, conditions
      // right and wrong.
      static const char* kVectors[] = {
          R"([{"N":"1"},{"N":"0"},{"N":"-1"}])",
          R"([{"N":"3.5e38"},{"N":"1"},{"N":"1"}])",
          R"([{"N":"1e-130"},{"N":"-9.99e125"},{"N":"0"}])",
          R"([{"N":"0"},{"N":"0"},{"N":"0"}])",
          R"([{"S":"1"},{"N":"1"},{"N":"1"}])",
          R"([])"};
      std::string vector = r.Flip() ? kVectors[r.Pick(6)] : "[" + b.Value() + "]";
      if (r.Flip()) {
        std::string body = table + R"(,"Item":)" + b.KeyMembers() +
                           R"(,"g":{"S":"g"},"a1":{"S":"x"},"vec":{"L":)" + vector + "}}";
        return {"PutItem", body + "}"};
      }
      static const char* kConditions[] = {
          "g = :g", "g = :g AND a1 = :s", ":g = g", "g = :g AND a1 > :s",
          "g = :g OR a1 = :s", "a1 = :s", "g = :g AND a2 = :s", "g.x = :g"};
      static const char* kTopK[] = {"1", "10", "100", "101", "0", "-1",
                                    "99999999999999999999", "1.5"};
      std::string body = table + R"(,"IndexName":"byVec","SearchVector":)" + vector +
                         R"(,"TopK":)" + kTopK[r.Pick(8)];
      if (r.Flip()) {
        body += R"(,"SearchConditionExpression":)" + b.Quote(kConditions[r.Pick(8)]);
      } else {
        body += R"(,"SearchConditionExpression":)" + b.Quote(b.Condition());
      }
      body += R"(,"ExpressionAttributeValues":{":g":{"S":"g"},":s":{"S":"x"},":v":{"N":"1"}})";
      if (r.Flip()) body += R"(,"ProjectionExpression":)" + b.Quote(b.Projection());
      if (r.Flip()) body += R"(,"ReturnConsumedCapacity":"TOTAL")";
      return {"SearchVectors", body + "}"};
    }
    default: {
      std::string body = table + R"(,"Item":{"pk":{"S":"k"},"sk":{"N":"1"},)";
      body += b.Quote(b.Name());
      body += ":" + b.Value() + "}}";
      return {"PutItem", body};
    }
  }
}

struct Call {
  const Client* client;
  const std::string* operation;
  const std::string* body;
  Response response;
};

void* RunCall(void* arg) {
  auto* call = static_cast<Call*>(arg);
  call->response = call->client->Call(*call->operation, *call->body);
  return nullptr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static FuzzWorld* world = new FuzzWorld(kCreateTable, kRunsPerEngine);
  const Client& client = world->NextRun();
  Recipe recipe(data, size);
  auto [operation, body] = BuildRequest(recipe);

  Call call{&client, &operation, &body, {}};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kStackBytes);
  pthread_t thread;
  if (pthread_create(&thread, &attr, RunCall, &call) != 0) std::abort();
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);

  const Response& r = call.response;
  if (r.http_status != 200 && r.http_status != 400) {
    Fail("unexpected HTTP status", body, r, operation);
  }
  ParseBody(body, r, operation);
  return 0;
}
