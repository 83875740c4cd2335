// Client: the protocol envelope around the handlers (namespaces, ARNs, body
// parsing, unknown operations, never throwing).

#include "api/client.h"

#include <gtest/gtest.h>
#include <pthread.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "api/dispatch.h"
#include "engine/engine.h"
#include "engine/requests/scope.h"
#include "tests/api/api_test_util.h"
#include "tests/testutil/test_engine.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class ClientTest : public ApiTest {};

const CallerIdentity kAlice{"AKIDALICE", "us-east-1"};
const CallerIdentity kBob{"AKIDBOB", "us-east-1"};

TEST_F(ClientTest, EachAccessKeyAndRegionHasItsOwnTables) {
  const char* create = R"({"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})";
  Reply r = Call("CreateTable", create, kAlice);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["TableDescription"]["TableArn"],
            "arn:aws:dynamodb:us-east-1:" + std::string(kDefaultAccountId) +
                ":table/tbl");
  EXPECT_EQ(Call("ListTables", "{}", kAlice).body, json::parse(R"({"TableNames":["tbl"]})"));
  EXPECT_EQ(Call("ListTables", "{}", kBob).body, json::parse(R"({"TableNames":[]})"));
  EXPECT_EQ(Call("ListTables", "{}", CallerIdentity{"AKIDALICE", "eu-west-1"}).body,
            json::parse(R"({"TableNames":[]})"));
  EXPECT_EQ(Call("ListTables", "{}").body, json::parse(R"({"TableNames":[]})"));
  // Bob may create his own tbl.
  EXPECT_EQ(Call("CreateTable", create, kBob).http_status, 200);
}

TEST_F(ClientTest, UnsignedCallsUseTheSharedSetAndDdbLocalArns) {
  CreateTable("shared");
  Reply r = Call("DescribeTable", R"({"TableName":"shared"})");
  EXPECT_EQ(r.body["Table"]["TableArn"],
            "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
                ":table/shared");
}

// ClientOptions::account_id names the account of every ARN, and decides
// which ARNs are another account's (AccessDeniedException, as DynamoDB).
TEST_F(ClientTest, AccountIdOptionNamesTheArnsAccount) {
  EXPECT_EQ(kDefaultAccountId, "123456789012");
  Client other(test_engine_.engine.get(),
               ClientOptions{.account_id = "111122223333"});
  Response created = other.Call("CreateTable", R"({"TableName":"acct",
      "BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "GlobalSecondaryIndexes":[{"IndexName":"gsi","Projection":{"ProjectionType":"ALL"},
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]}],
      "StreamSpecification":{"StreamEnabled":true,"StreamViewType":"KEYS_ONLY"}})",
                                kAlice);
  ASSERT_TRUE(created.ok()) << created.body;
  const json desc = json::parse(created.body)["TableDescription"];
  const std::string arn = "arn:aws:dynamodb:us-east-1:111122223333:table/acct";
  EXPECT_EQ(desc["TableArn"], arn);
  EXPECT_EQ(desc["GlobalSecondaryIndexes"][0]["IndexArn"], arn + "/index/gsi");
  EXPECT_EQ(
      desc["LatestStreamArn"].get<std::string>().rfind(arn + "/stream/", 0),
      0u);
  // Its own account's ARN is the table; the default account's is another's.
  Response tagged = other.Call(
      "TagResource",
      R"({"ResourceArn":")" + arn + R"(","Tags":[{"Key":"k","Value":"v"}]})",
      kAlice);
  EXPECT_TRUE(tagged.ok()) << tagged.body;
  const std::string default_arn =
      "arn:aws:dynamodb:us-east-1:" + std::string(kDefaultAccountId) +
      ":table/acct";
  Response denied =
      other.Call("ListTagsOfResource",
                 R"({"ResourceArn":")" + default_arn + R"("})", kAlice);
  EXPECT_EQ(denied.http_status, 400);
  EXPECT_EQ(
      json::parse(denied.body)["message"],
      "User: arn:aws:iam::111122223333:root is not authorized to perform: "
      "dynamodb:ListTagsOfResource on resource: " +
          default_arn +
          " because no resource-based policy allows the "
          "dynamodb:ListTagsOfResource "
          "action");
}

// The account is part of the ARNs a table keeps (its catalog record), as on
// DynamoDB, where a table never changes accounts: a database written under
// one account id (every one before --account-id existed: 000000000000)
// opens and answers under the default, and keeps its tables' ARNs, which
// that account id serves again.
TEST(ClientAccountTest, DatabaseKeepsTheAccountItsTablesWereCreatedUnder) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("dynarock_client_account_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  SimulatedClock clock;
  EngineOptions options = TestEngine::Options();
  options.in_memory = false;
  options.path = dir.string();
  options.clock = &clock;
  const std::string old_arn =
      "arn:aws:dynamodb:us-east-1:000000000000:table/old";
  {
    Result<std::unique_ptr<Engine>> db = Engine::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    Client zeros(db->get(), ClientOptions{.account_id = "000000000000"});
    Response created = zeros.Call("CreateTable", R"({"TableName":"old",
        "BillingMode":"PAY_PER_REQUEST",
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})",
                                  kAlice);
    ASSERT_TRUE(created.ok()) << created.body;
    EXPECT_EQ(json::parse(created.body)["TableDescription"]["TableArn"],
              old_arn);
    ASSERT_TRUE(zeros
                    .Call("PutItem",
                          R"({"TableName":"old","Item":{"pk":{"S":"a"}}})",
                          kAlice)
                    .ok());
    ASSERT_TRUE(zeros
                    .Call("TagResource",
                          R"({"ResourceArn":")" + old_arn +
                              R"(","Tags":[{"Key":"k","Value":"v"}]})",
                          kAlice)
                    .ok());
  }
  {
    Result<std::unique_ptr<Engine>> db = Engine::Open(options);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    Client fresh(db->get());
    EXPECT_EQ(
        json::parse(fresh.Call("ListTables", "{}", kAlice).body)["TableNames"],
        json::array({"old"}));
    Response got = fresh.Call(
        "GetItem", R"({"TableName":"old","Key":{"pk":{"S":"a"}}})", kAlice);
    EXPECT_EQ(json::parse(got.body)["Item"]["pk"]["S"], "a") << got.body;
    EXPECT_EQ(json::parse(
                  fresh.Call("DescribeTable", R"({"TableName":"old"})", kAlice)
                      .body)["Table"]["TableArn"],
              old_arn);
    // An ARN is checked against the serving account...
    Response denied =
        fresh.Call("ListTagsOfResource",
                   R"({"ResourceArn":")" + old_arn + R"("})", kAlice);
    EXPECT_EQ(json::parse(denied.body)["__type"],
              "com.amazon.coral.service#AccessDeniedException");
    // ... so serving it under its own account id answers as before.
    Client zeros(db->get(), ClientOptions{.account_id = "000000000000"});
    Response tags =
        zeros.Call("ListTagsOfResource",
                   R"({"ResourceArn":")" + old_arn + R"("})", kAlice);
    EXPECT_EQ(json::parse(tags.body)["Tags"],
              json::parse(R"([{"Key":"k","Value":"v"}])"))
        << tags.body;
  }
  std::filesystem::remove_all(dir);
}

TEST_F(ClientTest, SharedDbIgnoresTheCaller) {
  Client shared(test_engine_.engine.get(), ClientOptions{.shared_db = true});
  Response created = shared.Call("CreateTable", R"({"TableName":"tbl",
      "BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})", kAlice);
  ASSERT_TRUE(created.ok()) << created.body;
  // The ARN still names the caller's region.
  EXPECT_EQ(json::parse(created.body)["TableDescription"]["TableArn"],
            "arn:aws:dynamodb:us-east-1:" + std::string(kDefaultAccountId) +
                ":table/tbl");
  EXPECT_EQ(json::parse(shared.Call("ListTables", "{}", kBob).body),
            json::parse(R"({"TableNames":["tbl"]})"));
  EXPECT_EQ(Call("ListTables", "{}").body, json::parse(R"({"TableNames":["tbl"]})"));
}

TEST_F(ClientTest, BodyThatIsNotJson) {
  for (const char* body : {"{", "hi", "[]", "7", "{\"TableName\":}", "{}}"}) {
    Response r = client_.Call("ListTables", body);
    EXPECT_EQ(r.http_status, 400) << body;
    EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException"})")
        << body;
  }
}

TEST_F(ClientTest, UnknownOperation) {
  Response r = client_.Call("ListTable", "{}");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#UnknownOperationException"})");
  // An empty body is looked at after the operation name, malformed JSON before.
  EXPECT_EQ(client_.Call("Nope", "").body,
            R"({"__type":"com.amazon.coral.service#UnknownOperationException"})");
  EXPECT_EQ(client_.Call("Nope", "{").body,
            R"({"__type":"com.amazon.coral.service#SerializationException"})");
}

// Every operation of DynamoDB's API model (botocore's dynamodb
// service-2.json, 2012-08-10, and the DynamoDB Streams model) answers
// either a result or a well-formed DynamoDB error: never a 500, never a
// crash; those dynarock does not implement answer UnknownOperationException
// with the message DynamoDB Local gives for what it lacks.
TEST_F(ClientTest, EveryOperationOfTheApiModelAnswers) {
  const char* const kOperations[] = {
      "BatchExecuteStatement", "BatchGetItem", "BatchWriteItem", "CreateBackup",
      "CreateGlobalTable", "CreateTable", "DeleteBackup", "DeleteItem",
      "DeleteResourcePolicy", "DeleteTable", "DescribeBackup",
      "DescribeContinuousBackups", "DescribeContributorInsights",
      "DescribeEndpoints", "DescribeExport", "DescribeGlobalTable",
      "DescribeGlobalTableSettings", "DescribeImport",
      "DescribeKinesisStreamingDestination", "DescribeLimits", "DescribeTable",
      "DescribeTableReplicaAutoScaling", "DescribeTimeToLive",
      "DisableKinesisStreamingDestination", "EnableKinesisStreamingDestination",
      "ExecuteStatement", "ExecuteTransaction", "ExportTableToPointInTime",
      "GetItem", "GetResourcePolicy", "ImportTable", "ListBackups",
      "ListContributorInsights", "ListExports", "ListGlobalTables", "ListImports",
      "ListTables", "ListTagsOfResource", "PutItem", "PutResourcePolicy", "Query",
      "RestoreTableFromBackup", "RestoreTableToPointInTime", "Scan",
      "TagResource", "TransactGetItems", "TransactWriteItems", "UntagResource",
      "UpdateContinuousBackups", "UpdateContributorInsights", "UpdateGlobalTable",
      "UpdateGlobalTableSettings", "UpdateItem",
      "UpdateKinesisStreamingDestination", "UpdateTable",
      "UpdateTableReplicaAutoScaling", "UpdateTimeToLive",
      "DynamoDBStreams_20120810.DescribeStream",
      "DynamoDBStreams_20120810.GetRecords",
      "DynamoDBStreams_20120810.GetShardIterator",
      "DynamoDBStreams_20120810.ListStreams"};
  for (const char* op : kOperations) {
    for (const char* body : {"{}", "", "{\"TableName\":\"t\"}"}) {
      Response r = client_.Call(op, body);
      EXPECT_TRUE(r.http_status == 200 || r.http_status == 400)
          << op << " " << body << " -> " << r.http_status << " " << r.body;
      Json parsed = Json::parse(r.body, nullptr, /*allow_exceptions=*/false);
      ASSERT_TRUE(parsed.is_object()) << op << ": " << r.body;
      if (r.http_status == 400) {
        EXPECT_TRUE(parsed.contains("__type")) << op << ": " << r.body;
      }
      if (FindHandler(op) == nullptr) {
        EXPECT_EQ(r.body,
                  R"({"__type":"com.amazon.coral.service#UnknownOperationException",)"
                  R"("message":"An unknown operation was requested."})")
            << op;
      }
    }
  }
}

TEST_F(ClientTest, EmptyBodyOfAKnownOperation) {
  Response r = client_.Call("ListTables", "  ");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, R"({"__type":"com.amazon.coral.service#SerializationException"})");
}

TEST_F(ClientTest, SuccessIsHttp200WithCompactJson) {
  Response r = client_.Call("ListTables", "{}");
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.body, R"({"TableNames":[]})");
}

TEST_F(ClientTest, ArbitraryBytesNeverThrow) {
  const std::string inputs[] = {
      std::string("\xff\xfe\x00", 3), std::string(100000, '['), std::string(100000, '{'),
      R"({"TableName":"\ud800"})", R"({"Item":{"a":{"M":{"b":{"L":[null,{"NULL":null}]}}}}})",
      R"({"TableName":"tbl","Item":{"a":{"SS":[null]}}})"};
  for (const char* op : {"PutItem", "GetItem", "CreateTable", "UpdateTable", "ListTables"}) {
    for (const std::string& in : inputs) {
      Response r = client_.Call(op, in);
      // ListTables ignores the members it does not know; all else fails.
      if (std::string_view(op) != "ListTables" || in[0] != '{') {
        EXPECT_EQ(r.http_status, 400) << op << " " << in.substr(0, 40);
      }
      EXPECT_FALSE(json::parse(r.body, nullptr, false).is_discarded()) << r.body;
    }
  }
}

// --- The largest requests DynamoDB's limits allow, on a small stack --------
//
// Server worker threads have the default 8 MB stack; these run every request
// on a thread with 2 MB, so that nothing a client controls can make a walk of
// a request (parse, validate, resolve, evaluate, render, destroy) recurse
// deeply. Beyond DynamoDB's limits the answer is its ValidationException.

// AddressSanitizer's frames are several times larger (redzones, no frame
// merging at -O1): there the bound is the server's own 8 MB, which still
// proves the depth bounded, since an unbounded walk of these requests needs
// far more.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kSmallStackBytes = 8 << 20;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr size_t kSmallStackBytes = 8 << 20;
#else
constexpr size_t kSmallStackBytes = 2 << 20;
#endif
#else
constexpr size_t kSmallStackBytes = 2 << 20;
#endif

// Runs `fn` on a new thread with a `stack_bytes` stack and waits for it.
void RunOnSmallStack(const std::function<void()>& fn,
                     size_t stack_bytes = kSmallStackBytes) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, stack_bytes), 0);
  pthread_t thread;
  auto body = [](void* arg) -> void* {
    (*static_cast<const std::function<void()>*>(arg))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, body,
                           const_cast<std::function<void()>*>(&fn)),
            0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

class DeepRequestTest : public ApiTest {
 protected:
  void SetUp() override { CreateTable("tbl"); }

  // Sends `body` on a small stack.
  Reply SmallStackCall(std::string_view operation, const json& body) {
    const std::string text = body.dump();
    Reply r;
    RunOnSmallStack([&] { r = Call(operation, text); });
    return r;
  }
  Reply SmallStackCall(std::string_view operation, const std::string& text) {
    Reply r;
    RunOnSmallStack([&] { r = Call(operation, text); });
    return r;
  }

  static void ExpectValidation(const Reply& r, std::string_view fragment) {
    EXPECT_EQ(r.http_status, 400) << r;
    EXPECT_EQ(r.body.value("__type", ""),
              "com.amazon.coral.validate#ValidationException")
        << r;
    EXPECT_NE(r.body.value("message", "").find(fragment), std::string::npos)
        << r;
  }
};

constexpr int kManyConditions = 50000;

TEST_F(DeepRequestTest, ExpectedWithTensOfThousandsOfConditions) {
  // All true (no attribute exists): the whole AND is evaluated.
  json expected = json::object();
  for (int i = 0; i < kManyConditions; ++i) {
    expected["a" + std::to_string(i)] = {{"Exists", false}};
  }
  Reply r = SmallStackCall(
      "PutItem", json{{"TableName", "tbl"},
                      {"Item", {{"pk", {{"S", "k"}}}}},
                      {"Expected", expected}});
  EXPECT_EQ(r.http_status, 200) << r;
  // All false under OR: every condition is evaluated, then the check fails.
  json missing = json::object();
  for (int i = 0; i < kManyConditions; ++i) {
    missing["a" + std::to_string(i)] = {{"ComparisonOperator", "NOT_NULL"}};
  }
  r = SmallStackCall("DeleteItem", json{{"TableName", "tbl"},
                                        {"Key", {{"pk", {{"S", "k"}}}}},
                                        {"Expected", missing},
                                        {"ConditionalOperator", "OR"}});
  EXPECT_EQ(r.body.value("__type", ""),
            "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException")
      << r;
}

TEST_F(DeepRequestTest, ScanAndQueryFiltersWithTensOfThousandsOfConditions) {
  ASSERT_EQ(Call("PutItem", json{{"TableName", "tbl"},
                                 {"Item", {{"pk", {{"S", "k"}}}}}})
                .http_status,
            200);
  json filter = json::object();
  for (int i = 0; i < kManyConditions; ++i) {
    filter["a" + std::to_string(i)] = {{"ComparisonOperator", "NULL"}};
  }
  Reply r = SmallStackCall("Scan", json{{"TableName", "tbl"},
                                        {"ScanFilter", filter}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["Count"], 1);
  r = SmallStackCall(
      "Query",
      json{{"TableName", "tbl"},
           {"KeyConditions",
            {{"pk",
              {{"ComparisonOperator", "EQ"},
               {"AttributeValueList", {{{"S", "k"}}}}}}}},
           {"QueryFilter", filter},
           {"ConditionalOperator", "OR"}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["Count"], 1);
}

// "c0 = :v OR c1 = :v OR ...": `comparisons` comparisons joined by OR.
std::string OrChain(int comparisons) {
  std::string out;
  for (int i = 0; i < comparisons; ++i) {
    if (i > 0) out += " OR ";
    out += "c" + std::to_string(i) + " = :v";
  }
  return out;
}

TEST_F(DeepRequestTest, ConditionExpressionAtTheOperatorLimit) {
  const json values = {{":v", {{"N", "1"}}}};
  // 150 comparisons and 149 ORs: 299 operators.
  Reply r = SmallStackCall("Scan", json{{"TableName", "tbl"},
                                        {"FilterExpression", OrChain(150)},
                                        {"ExpressionAttributeValues", values}});
  EXPECT_EQ(r.http_status, 200) << r;
  r = SmallStackCall("Scan", json{{"TableName", "tbl"},
                                  {"FilterExpression", OrChain(151)},
                                  {"ExpressionAttributeValues", values}});
  ExpectValidation(r, "The expression contains too many operators");

  // NOT NOT ... NOT a = :v: 299 NOTs and the comparison.
  std::string nots;
  for (int i = 0; i < 299; ++i) nots += "NOT ";
  r = SmallStackCall("Scan", json{{"TableName", "tbl"},
                                  {"FilterExpression", nots + "a = :v"},
                                  {"ExpressionAttributeValues", values}});
  EXPECT_EQ(r.http_status, 200) << r;
  r = SmallStackCall("Scan", json{{"TableName", "tbl"},
                                  {"FilterExpression", nots + "NOT NOT a = :v"},
                                  {"ExpressionAttributeValues", values}});
  ExpectValidation(r, "The expression contains too many operators");

  // Nested parentheses around conditions: a = :v AND (a = :v AND (...)).
  std::string nested;
  for (int i = 0; i < 140; ++i) nested += "a = :v AND (";
  nested += "a = :v" + std::string(140, ')');
  r = SmallStackCall("Scan", json{{"TableName", "tbl"},
                                  {"FilterExpression", nested},
                                  {"ExpressionAttributeValues", values}});
  EXPECT_EQ(r.http_status, 200) << r;
}

TEST_F(DeepRequestTest, PathologicalNestingWithin4KbIsRefused) {
  const json values = {{":v", {{"N", "1"}}}};
  // 2,000 parentheses around one comparison.
  std::string parens = std::string(2000, '(') + "a = :v" + std::string(2000, ')');
  Reply r = SmallStackCall("Scan", json{{"TableName", "tbl"},
                                        {"FilterExpression", parens},
                                        {"ExpressionAttributeValues", values}});
  ExpectValidation(r, "The expression has redundant parentheses");
  // 600 nested function calls.
  std::string calls;
  for (int i = 0; i < 600; ++i) calls += "size(";
  calls += "a" + std::string(600, ')') + " = :v";
  r = SmallStackCall("Scan", json{{"TableName", "tbl"},
                                  {"FilterExpression", calls},
                                  {"ExpressionAttributeValues", values}});
  ExpectValidation(r, "Invalid FilterExpression");
  // Parenthesized operands of a comparison: ((((a)))) = :v.
  std::string operand =
      std::string(2000, '(') + "a" + std::string(2000, ')') + " = :v";
  r = SmallStackCall("Scan", json{{"TableName", "tbl"},
                                  {"FilterExpression", operand},
                                  {"ExpressionAttributeValues", values}});
  ExpectValidation(r, "The expression has redundant parentheses");
  // Parenthesized SET values.
  std::string set = "SET a = " + std::string(2000, '(') + ":v" +
                    std::string(2000, ')');
  r = SmallStackCall("UpdateItem",
                     json{{"TableName", "tbl"},
                          {"Key", {{"pk", {{"S", "k"}}}}},
                          {"UpdateExpression", set},
                          {"ExpressionAttributeValues", values}});
  ExpectValidation(r, "Invalid UpdateExpression");
  // Over 4 KB.
  r = SmallStackCall("Scan", json{{"TableName", "tbl"},
                                  {"FilterExpression", OrChain(400)},
                                  {"ExpressionAttributeValues", values}});
  ExpectValidation(r, "Expression size has exceeded the maximum allowed size");
}

// {"M":{"m":{"M":{"m": ... leaf ...}}}}: `levels` values, the leaf included.
json NestedMaps(int levels) {
  json v = {{"S", "leaf"}};
  for (int i = 1; i < levels; ++i) v = {{"M", {{"m", v}}}};
  return v;
}
json NestedLists(int levels) {
  json v = {{"N", "1"}};
  for (int i = 1; i < levels; ++i) v = {{"L", json::array({v})}};
  return v;
}

TEST_F(DeepRequestTest, DocumentsAtTheNestingLimit) {
  for (const json& deepest : {NestedMaps(32), NestedLists(32)}) {
    Reply r = SmallStackCall(
        "PutItem", json{{"TableName", "tbl"},
                        {"Item", {{"pk", {{"S", "k"}}}, {"d", deepest}}}});
    ASSERT_EQ(r.http_status, 200) << r;
    r = SmallStackCall("GetItem", json{{"TableName", "tbl"},
                                       {"Key", {{"pk", {{"S", "k"}}}}}});
    ASSERT_EQ(r.http_status, 200) << r;
    EXPECT_EQ(r.body["Item"]["d"], deepest);
  }
  for (const json& too_deep : {NestedMaps(33), NestedLists(33)}) {
    Reply r = SmallStackCall(
        "PutItem", json{{"TableName", "tbl"},
                        {"Item", {{"pk", {{"S", "k"}}}, {"d", too_deep}}}});
    ExpectValidation(r, "Nesting Levels have exceeded supported limits");
  }
  // An update that would nest the item deeper than 32 levels.
  ASSERT_EQ(Call("PutItem", json{{"TableName", "tbl"},
                                 {"Item", {{"pk", {{"S", "k"}}},
                                           {"d", NestedMaps(31)}}}})
                .http_status,
            200);
  Reply r = SmallStackCall(
      "UpdateItem",
      json{{"TableName", "tbl"},
           {"Key", {{"pk", {{"S", "k"}}}}},
           {"UpdateExpression", "SET d.m.m.m.m = :deep"},
           {"ExpressionAttributeValues", {{":deep", NestedMaps(31)}}}});
  ExpectValidation(r, "Nesting Levels have exceeded supported limits");
}

TEST_F(DeepRequestTest, DocumentPathsAtTheLimit) {
  ASSERT_EQ(Call("PutItem", json{{"TableName", "tbl"},
                                 {"Item", {{"pk", {{"S", "k"}}},
                                           {"d", NestedMaps(32)}}}})
                .http_status,
            200);
  std::string path = "d";
  for (int i = 1; i < 32; ++i) path += ".m";
  Reply r = SmallStackCall("GetItem", json{{"TableName", "tbl"},
                                           {"Key", {{"pk", {{"S", "k"}}}}},
                                           {"ProjectionExpression", path}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["Item"]["d"], NestedMaps(32));
  r = SmallStackCall("GetItem", json{{"TableName", "tbl"},
                                     {"Key", {{"pk", {{"S", "k"}}}}},
                                     {"ProjectionExpression", path + ".m"}});
  ExpectValidation(r, "The document path has too many nesting levels");
  r = SmallStackCall("UpdateItem",
                     json{{"TableName", "tbl"},
                          {"Key", {{"pk", {{"S", "k"}}}}},
                          {"UpdateExpression", "SET " + path + " = :v"},
                          {"ConditionExpression", "attribute_exists(" + path + ")"},
                          {"ExpressionAttributeValues", {{":v", {{"S", "x"}}}}}});
  EXPECT_EQ(r.http_status, 200) << r;
}

TEST_F(DeepRequestTest, DeepJsonBodiesAreRefusedBeforeParsing) {
  // About 200,000 levels, 1.4 MB: it once took the server down.
  const int levels = 200000;
  std::string body = R"({"TableName":"tbl","Item":{"pk":{"S":"k"},"d":)";
  for (int i = 0; i < levels; ++i) body += R"({"L":[)";
  body += R"({"N":"1"})";
  for (int i = 0; i < levels; ++i) body += "]}";
  body += "}}";
  Reply r = SmallStackCall("PutItem", body);
  ExpectValidation(r, "Nesting Levels have exceeded supported limits");
  // Deep arrays alone, and unbalanced openers.
  r = SmallStackCall("PutItem", std::string(levels, '['));
  EXPECT_EQ(r.http_status, 400) << r;
  r = SmallStackCall("PutItem", "{\"a\":" + std::string(levels, '['));
  EXPECT_EQ(r.http_status, 400) << r;
}

}  // namespace
}  // namespace dynarock::api
