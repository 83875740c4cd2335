// The one-pass GetItem / PutItem reader: what it accepts and refuses, and a
// differential test: the same bodies (hand-written edge cases, random
// requests, random byte mutations of them) through a Client with the
// reader and a Client without it, each on its own engine holding the same
// tables and receiving the same calls; every response must match byte for
// byte (status and body).

#include "api/ops/item_request_reader.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "api/client.h"
#include "tests/testutil/test_engine.h"

namespace dynarock::api::ops {
namespace {

constexpr const char* kTableBody =
    R"({"TableName":"Orders","BillingMode":"PAY_PER_REQUEST",)"
    R"("AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},)"
    R"({"AttributeName":"SK","AttributeType":"S"}],)"
    R"("KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},)"
    R"({"AttributeName":"SK","KeyType":"RANGE"}]})";
constexpr const char* kNumTableBody =
    R"({"TableName":"Num","BillingMode":"PAY_PER_REQUEST",)"
    R"("AttributeDefinitions":[{"AttributeName":"id","AttributeType":"N"}],)"
    R"("KeySchema":[{"AttributeName":"id","KeyType":"HASH"}]})";

TEST(ItemRequestReaderTest, ReadsThePutItemOfAnSdk) {
  std::optional<PutItemRequest> req = ReadPutItemRequest(
      R"( {"TableName":"Orders","Item":{"PK":{"S":"a\"\u00e9"},"N":{"N":"01.50"},)"
      R"("B":{"B":"AAE="},"T":{"BOOL":false},"Z":{"NULL":true}},)"
      R"("ReturnValues":"NONE","ReturnConsumedCapacity":"NONE"} )");
  ASSERT_TRUE(req.has_value());
  EXPECT_EQ(req->table_name, "Orders");
  Item want;
  want.emplace("PK", AttributeValue::S("a\"\xc3\xa9"));
  want.emplace("N", AttributeValue::N(Number::Parse("1.5").value()));
  want.emplace("B", AttributeValue::B(std::string("\0\1", 2)));
  want.emplace("T", AttributeValue::Bool(false));
  want.emplace("Z", AttributeValue::Null());
  EXPECT_EQ(req->item, want);
  EXPECT_EQ(req->return_values, ReturnValues::kNone);
  EXPECT_FALSE(req->condition.condition_expression.has_value());
}

TEST(ItemRequestReaderTest, ReadsTheGetItemOfAnSdk) {
  std::optional<GetItemRequest> req = ReadGetItemRequest(
      R"({"Key":{"PK":{"S":"p"},"SK":{"S":"s"}},"ConsistentRead":true,"TableName":"Orders"})");
  ASSERT_TRUE(req.has_value());
  EXPECT_EQ(req->table_name, "Orders");
  EXPECT_EQ(req->key.size(), 2u);
  EXPECT_TRUE(req->consistent_read);
  EXPECT_FALSE(req->projection_expression.has_value());
}

// Each of these goes to the JSON tree, which has an error or a member the
// reader does not handle.
TEST(ItemRequestReaderTest, LeavesEverythingElseToTheJsonTree) {
  for (const char* body : {
           "",
           "[]",
           R"({"TableName":"Orders","Item":{}} x)",
           R"({"TableName":"Orders","Item":{"a":{"S":"x"}})",
           R"({"TableName":"Orders"})",
           R"({"Item":{"a":{"S":"x"}}})",
           R"({"TableName":null,"Item":{"a":{"S":"x"}}})",
           R"({"TableName":"Orders","Item":{"a":null}})",
           R"({"TableName":"Orders","Item":{"a":{"S":null}}})",
           R"({"TableName":"Orders","TableName":"Orders","Item":{}})",
           R"({"TableName":"Orders","Item":{"a":{"S":"x"},"a":{"S":"y"}}})",
           R"({"TableName":"Orders","Item":{"a":{"S":"x","N":"1"}}})",
           R"({"TableName":"Orders","Item":{"a":{"S":"x","S":"y"}}})",
           R"({"TableName":"Orders","Item":{"a":{}}})",
           R"({"TableName":"Orders","Item":{"a":{"X":"x"}}})",
           R"({"TableName":"Orders","Item":{"a":{"S":1}}})",
           R"({"TableName":"Orders","Item":{"a":{"N":"1e200"}}})",
           R"({"TableName":"Orders","Item":{"a":{"N":"x"}}})",
           R"({"TableName":"Orders","Item":{"a":{"B":"AAE"}}})",
           R"({"TableName":"Orders","Item":{"a":{"NULL":false}}})",
           R"({"TableName":"Orders","Item":{"a":{"BOOL":"true"}}})",
           R"({"TableName":"Orders","Item":{"a":{"L":[]}}})",
           R"({"TableName":"Orders","Item":{"a":{"M":{}}}})",
           R"({"TableName":"Orders","Item":{"a":{"SS":["x"]}}})",
           R"({"TableName":"Orders","Item":[]})",
           R"({"TableName":"Orders","Item":{},"ReturnValues":"ALL_OLD"})",
           R"({"TableName":"Orders","Item":{},"ReturnConsumedCapacity":"TOTAL"})",
           R"({"TableName":"Orders","Item":{},"ConditionExpression":"x"})",
           R"({"TableName":"Orders","Item":{},"Extra":1})",
           R"({"TableName":"","Item":{}})",
           R"({"TableName":"a:b","Item":{}})",
           R"({"TableName":1,"Item":{}})",
       }) {
    EXPECT_FALSE(ReadPutItemRequest(body).has_value()) << body;
  }
  EXPECT_FALSE(ReadPutItemRequest(
                   R"({"TableName":")" + std::string(256, 'a') + R"(","Item":{}})")
                   .has_value());
  EXPECT_TRUE(ReadPutItemRequest(
                  R"({"TableName":")" + std::string(255, 'a') + R"(","Item":{}})")
                  .has_value());
  for (const char* body : {
           R"({"TableName":"Orders","Item":{}})",
           R"({"TableName":"Orders","Key":{},"ConsistentRead":"true"})",
           R"({"TableName":"Orders","Key":{},"ReturnValues":"NONE"})",
           R"({"TableName":"Orders","Key":{},"ProjectionExpression":"a"})",
           R"({"TableName":"Orders","Key":{},"ConsistentRead":null})",
       }) {
    EXPECT_FALSE(ReadGetItemRequest(body).has_value()) << body;
  }
}

TEST(ItemRequestReaderTest, RefusesDeepNestingWithoutRecursion) {
  std::string deep = R"({"TableName":"Orders","Item":{"a":)";
  for (int i = 0; i < 100000; ++i) deep += R"({"M":{"b":)";
  EXPECT_FALSE(ReadPutItemRequest(deep).has_value());
}

// --- Differential: the reader's Client against the JSON tree's Client ----

// Mostly text a client sends; now and then bytes or escapes that are not
// valid JSON text (a lone surrogate, a byte that is not UTF-8).
std::string RandomString(std::mt19937& rng) {
  static const std::vector<std::string> kPieces = {
      "a", "Z", "0", "#", " ", "\\\"", "\\\\", "\\n", "\\u00e9", "\\u0000",
      "\xc3\xa9", "\xe2\x82\xac", "\\ud83d\\ude00", "/", "\\/", "ORDER#2026"};
  static const std::vector<std::string> kBad = {"\xff", "\\ud800", "\t", "\\x"};
  std::string s;
  const int n = static_cast<int>(rng() % 6);
  for (int i = 0; i < n; ++i) s += kPieces[rng() % kPieces.size()];
  if (rng() % 30 == 0) s += kBad[rng() % kBad.size()];
  return s;
}

// Mostly numbers DynamoDB accepts; now and then one it refuses.
std::string RandomNumber(std::mt19937& rng) {
  static const std::vector<std::string> kGood = {
      "1", "-0", "0012.50", "1e3", "-1.5e-3", "1E-130", "9.9e125",
      "99999999999999999999999999999999999999"};
  static const std::vector<std::string> kBad = {
      "1e126", "1e-131", "", "x", "1.", ".5", "+1", " 1",
      "999999999999999999999999999999999999999"};
  if (rng() % 8 == 0) return kBad[rng() % kBad.size()];
  return kGood[rng() % kGood.size()];
}

std::string RandomValue(std::mt19937& rng) {
  switch (rng() % 16) {
    case 0: case 1: case 2: case 12: case 13: case 14: case 15:
      return R"({"S":")" + RandomString(rng) + R"("})";
    case 3: case 4: return R"({"N":")" + RandomNumber(rng) + R"("})";
    case 5: return R"({"B":")" + std::string(rng() % 2 ? "AAE=" : "AA=E") + R"("})";
    case 6: return rng() % 2 ? R"({"BOOL":true})" : R"({"BOOL":false})";
    case 7: return rng() % 4 ? R"({"NULL":true})" : R"({"NULL":false})";
    case 8: return R"({"L":[{"S":"x"},{"N":"2"}]})";
    case 9: return R"({"M":{"k":{"S":"v"}}})";
    case 10: return R"({"SS":["x","y"]})";
    default: return R"({"S":"x","N":"1"})";
  }
}

std::string RandomItem(std::mt19937& rng, bool num_table) {
  std::vector<std::string> members;
  if (num_table) {
    if (rng() % 8) members.push_back(R"("id":{"N":")" + RandomNumber(rng) + R"("})");
  } else {
    if (rng() % 8) members.push_back(R"("PK":{"S":")" + RandomString(rng) + R"("})");
    if (rng() % 8) members.push_back(R"("SK":{"S":")" + RandomString(rng) + R"("})");
  }
  const int extra = static_cast<int>(rng() % 4);
  for (int i = 0; i < extra; ++i) {
    members.push_back("\"" + RandomString(rng) + "\":" + RandomValue(rng));
  }
  std::shuffle(members.begin(), members.end(), rng);
  std::string out = "{";
  for (size_t i = 0; i < members.size(); ++i) {
    if (i > 0) out += ",";
    out += members[i];
  }
  return out + "}";
}

std::string RandomBody(std::mt19937& rng, bool put) {
  const bool num_table = rng() % 4 == 0;
  std::vector<std::string> members;
  static const std::vector<std::string> kTables = {
      R"("Orders")", R"("Orders")", R"("Orders")", R"("Nope")", R"("")",
      R"("a b")", "null", "1"};
  members.push_back(R"("TableName":)" +
                    (num_table ? std::string(R"("Num")") : kTables[rng() % kTables.size()]));
  if (rng() % 10) {
    members.push_back(std::string(put ? R"("Item":)" : R"("Key":)") +
                      RandomItem(rng, num_table));
  }
  static const std::vector<std::string> kOptional = {
      R"("ReturnValues":"NONE")", R"("ReturnValues":"ALL_OLD")",
      R"("ReturnValues":"BOGUS")", R"("ReturnConsumedCapacity":"NONE")",
      R"("ReturnConsumedCapacity":"TOTAL")", R"("ConsistentRead":true)",
      R"("ConsistentRead":"yes")", R"("ProjectionExpression":"PK")",
      "\"ConditionExpression\":\"attribute_exists(PK)\"", R"("Expected":{})",
      R"("Unknown":[1,2])", R"("Item":{})", R"("Key":{})", R"("TableName":"Orders")"};
  const int optional = static_cast<int>(rng() % 3 == 0 ? 1 + rng() % 2 : 0);
  for (int i = 0; i < optional; ++i) {
    members.push_back(kOptional[rng() % kOptional.size()]);
  }
  std::shuffle(members.begin(), members.end(), rng);
  std::string out = "{";
  for (size_t i = 0; i < members.size(); ++i) {
    if (i > 0) out += ",";
    out += members[i];
  }
  return out + "}";
}

// A random edit: delete, insert or replace a byte, or repeat a piece.
std::string Mutate(std::string body, std::mt19937& rng) {
  static const std::string kBytes = "{}[]\":,\\ 0aSN\x01\xff";
  if (body.empty()) return "{";
  const size_t at = rng() % body.size();
  switch (rng() % 4) {
    case 0: body.erase(at, 1); break;
    case 1: body.insert(at, 1, kBytes[rng() % kBytes.size()]); break;
    case 2: body[at] = kBytes[rng() % kBytes.size()]; break;
    default: body.insert(at, body.substr(at, rng() % 12)); break;
  }
  return body;
}

class DifferentialTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const Client* c : {&one_pass_, &tree_}) {
      ASSERT_TRUE(c->Call("CreateTable", kTableBody).ok());
      ASSERT_TRUE(c->Call("CreateTable", kNumTableBody).ok());
    }
  }

  // Sends `body` through both clients; true if the reader took it.
  bool Same(std::string_view operation, const std::string& body) {
    const bool read = operation == "PutItem" ? ReadPutItemRequest(body).has_value()
                                             : ReadGetItemRequest(body).has_value();
    Response a = one_pass_.Call(operation, body);
    Response b = tree_.Call(operation, body);
    EXPECT_EQ(a.http_status, b.http_status) << operation << " " << body;
    EXPECT_EQ(a.body, b.body) << operation << " " << body;
    return read;
  }

  TestEngine engine_a_;
  TestEngine engine_b_;
  Client one_pass_{engine_a_.engine.get(), ClientOptions{}};
  Client tree_{engine_b_.engine.get(),
               ClientOptions{.one_pass_item_requests = false}};
};

TEST_F(DifferentialTest, HandWrittenBodiesAnswerTheSame) {
  const std::vector<std::string> puts = {
      R"({"TableName":"Orders","Item":{"PK":{"S":"p"},"SK":{"S":"s"},"A":{"N":"1.50"},)"
      R"("B":{"B":"AAE="},"C":{"BOOL":true},"D":{"NULL":true},"E":{"S":"\u00e9\"\\\n"},)"
      R"("F":{"L":[{"S":"x"}]},"G":{"M":{"k":{"NS":["1","2"]}}},"H":{"SS":["a"]}}})",
      R"({"TableName":"Orders","Item":{"PK":{"S":"p2"},"SK":{"S":"s"},"X":{"S":"\ud83d\ude00"}}})",
      R"({"TableName":"Orders","Item":{"PK":{"S":""},"SK":{"S":"s"}}})",
      R"({"TableName":"Orders","Item":{"PK":{"N":"1"},"SK":{"S":"s"}}})",
      R"({"TableName":"Orders","Item":{"PK":{"S":"p"}}})",
      R"({"TableName":"Orders","Item":{}})",
      R"({"TableName":"Nope","Item":{"PK":{"S":"p"},"SK":{"S":"s"}}})",
      R"({"TableName":"Num","Item":{"id":{"N":"1e126"}}})",
      R"({"TableName":"Num","Item":{"id":{"N":"1e-131"}}})",
      R"({"TableName":"Num","Item":{"id":{"N":"-00.000"}}})",
      R"({"TableName":"Orders","Item":{"PK":{"S":"p"},"SK":{"S":"s"},"":{"S":"x"}}})",
      R"({"TableName":"Orders","Item":{"PK":{"S":"p"},"SK":{"S":"s"},"e":{"S":""}}})",
      R"({"TableName":"Orders","Item":{"PK":{"S":"p"},"SK":{"S":"s"}},"ReturnValues":"ALL_OLD"})",
      R"({"TableName":"Orders","Item":{"PK":{"S":"p"},"SK":{"S":"s"}},"ReturnValues":"ALL_NEW"})",
      R"({"TableName":"Orders","Item":{"PK":{"S":"p"},"SK":{"S":"s"}},"ReturnConsumedCapacity":"TOTAL"})",
      R"({"TableName":"Orders","Item":{"PK":{"S":"p"},"SK":{"S":"s"},"B":{"B":"AAE"}}})",
      R"({"TableName":"Orders","Item":{"PK":{"S":"p"},"SK":{"S":"s"},"Big":{"S":")" +
          std::string(500 * 1024, 'x') + R"("}}})",
      "{}", "", "  ", "[]", "null", R"({"TableName":"Orders","Item":{}} {})",
  };
  for (const std::string& body : puts) Same("PutItem", body);
  const std::vector<std::string> gets = {
      R"({"TableName":"Orders","Key":{"PK":{"S":"p"},"SK":{"S":"s"}}})",
      R"({"TableName":"Orders","Key":{"PK":{"S":"p2"},"SK":{"S":"s"}},"ConsistentRead":true})",
      R"({"TableName":"Orders","Key":{"PK":{"S":"none"},"SK":{"S":"s"}}})",
      R"({"TableName":"Orders","Key":{"PK":{"S":"p"}}})",
      R"({"TableName":"Orders","Key":{"PK":{"S":"p"},"SK":{"S":"s"},"X":{"S":"x"}}})",
      R"({"TableName":"Orders","Key":{"PK":{"S":"p"},"SK":{"N":"1"}}})",
      R"({"TableName":"Orders","Key":{"PK":{"S":"p"},"SK":{"S":"s"}},"ProjectionExpression":"A"})",
      R"({"TableName":"Nope","Key":{"PK":{"S":"p"},"SK":{"S":"s"}}})",
      R"({"TableName":"Num","Key":{"id":{"N":"1e126"}}})",
      R"({"TableName":"Orders","Key":{}})", "{}", "",
  };
  for (const std::string& body : gets) Same("GetItem", body);
}

TEST_F(DifferentialTest, RandomAndMutatedBodiesAnswerTheSame) {
  std::mt19937 rng(20261127);
  int read = 0, total = 0;
  for (int i = 0; i < 4000; ++i) {
    const bool put = rng() % 2 == 0;
    std::string body = RandomBody(rng, put);
    const int mutations = static_cast<int>(rng() % 4 == 0 ? 1 + rng() % 3 : 0);
    for (int m = 0; m < mutations; ++m) body = Mutate(std::move(body), rng);
    read += Same(put ? "PutItem" : "GetItem", body) ? 1 : 0;
    ++total;
    if (HasFailure()) break;
  }
  // Both paths were exercised.
  EXPECT_GT(read, total / 10);
  EXPECT_LT(read, total * 9 / 10);
}

}  // namespace
}  // namespace dynarock::api::ops
