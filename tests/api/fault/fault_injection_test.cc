// Fault rules applied by the in-process Client (api/fault/fault_injection.h):
// an injected error answers instead of the request, which takes no effect;
// chosen entries of a batch come back unprocessed while the rest are
// written; latency is reported or waited out; extensions are never faulted;
// a rule that matches nothing changes no answer.

#include "api/fault/fault_injection.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class FaultInjectionTest : public ApiTest {
 protected:
  void SetUp() override { CreateTable("tbl"); }
  void Rule(const json& rule) {
    Reply r = Call("DynamoRock_20251121.PutFaultRule", json{{"Rule", rule}});
    ASSERT_EQ(r.http_status, 200) << r;
  }
  bool Exists(const std::string& pk) {
    Reply r = Call("GetItem", json{{"TableName", "tbl"}, {"Key", {{"pk", {{"S", pk}}}}}});
    EXPECT_EQ(r.http_status, 200) << r;
    return r.body.contains("Item");
  }
  json Put(const std::string& pk) {
    return json{{"TableName", "tbl"}, {"Item", {{"pk", {{"S", pk}}}}}};
  }
};

TEST_F(FaultInjectionTest, AnInjectedErrorAnswersAndWritesNothing) {
  Rule({{"Match", {{"Operations", {"PutItem"}}, {"Key", {{"pk", {{"S", "a"}}}}}}},
        {"Effect", {{"Error", "InternalServerError"}}}});
  Reply r = Call("PutItem", Put("a"));
  EXPECT_EQ(r.http_status, 500);
  EXPECT_EQ(r.body, ErrorBody("com.amazonaws.dynamodb.v20120810#InternalServerError",
                              "Internal server error"));
  EXPECT_FALSE(Exists("a"));
  // Another key of the same table is not matched.
  EXPECT_EQ(Call("PutItem", Put("b")).http_status, 200);
  EXPECT_TRUE(Exists("b"));
}

TEST_F(FaultInjectionTest, ServiceUnavailableIs503) {
  Rule({{"Effect", {{"Error", "ServiceUnavailable"}}}, {"When", {{"FirstN", 1}}}});
  Reply r = Call("ListTables", "{}");
  EXPECT_EQ(r.http_status, 503);
  EXPECT_EQ(r.body["__type"], "com.amazonaws.dynamodb.v20120810#ServiceUnavailable");
  EXPECT_EQ(Call("ListTables", "{}").http_status, 200);
}

TEST_F(FaultInjectionTest, ExtensionsAreNeverFaulted) {
  Rule({{"Effect", {{"Error", "InternalServerError"}}}});
  EXPECT_EQ(Call("ListTables", "{}").http_status, 500);
  Reply r = Call("DynamoRock_20251121.ListFaultRules", "{}");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["Rules"][0]["MatchedCount"], 1);
  EXPECT_EQ(Call("DynamoRock_20251121.ClearFaultRules", "{}").http_status, 200);
  EXPECT_EQ(Call("ListTables", "{}").http_status, 200);
}

TEST_F(FaultInjectionTest, BatchWriteLeavesTheChosenEntriesUnprocessed) {
  Rule({{"Match", {{"Operations", {"BatchWriteItem"}},
                   {"KeyPrefix", {{"AttributeName", "pk"}, {"Prefix", "x"}}}}},
        {"Effect", {{"Unprocessed", true}}}});
  json batch = {{"RequestItems", {{"tbl", json::array()}}}};
  for (const char* pk : {"x1", "y1", "x2"}) {
    batch["RequestItems"]["tbl"].push_back({{"PutRequest", {{"Item", {{"pk", {{"S", pk}}}}}}}});
  }
  Reply r = Call("BatchWriteItem", batch);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["UnprocessedItems"], json::parse(R"({"tbl":[
      {"PutRequest":{"Item":{"pk":{"S":"x1"}}}},
      {"PutRequest":{"Item":{"pk":{"S":"x2"}}}}]})"));
  EXPECT_TRUE(Exists("y1"));
  EXPECT_FALSE(Exists("x1"));
  // Every entry cut: answered without running.
  batch["RequestItems"]["tbl"].erase(1);
  r = Call("BatchWriteItem", batch);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["UnprocessedItems"]["tbl"].size(), 2u);
}

TEST_F(FaultInjectionTest, BatchGetKeepsTheTablesParametersForUnprocessedKeys) {
  Rule({{"Match", {{"Operations", {"BatchGetItem"}}, {"Key", {{"pk", {{"S", "b"}}}}}}},
        {"Effect", {{"Unprocessed", true}}}});
  ASSERT_EQ(Call("PutItem", Put("a")).http_status, 200);
  ASSERT_EQ(Call("PutItem", Put("b")).http_status, 200);
  Reply r = Call("BatchGetItem", json::parse(R"({"RequestItems":{"tbl":{
      "Keys":[{"pk":{"S":"a"}},{"pk":{"S":"b"}}],"ConsistentRead":true}}})"));
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["Responses"]["tbl"], json::parse(R"([{"pk":{"S":"a"}}])"));
  EXPECT_EQ(r.body["UnprocessedKeys"], json::parse(R"({"tbl":{
      "Keys":[{"pk":{"S":"b"}}],"ConsistentRead":true}})"));
}

TEST_F(FaultInjectionTest, LatencyIsReportedWhenTheCallerWaits) {
  Rule({{"Match", {{"Operations", {"GetItem"}}}}, {"Effect", {{"LatencyMillis", 1500}}}});
  ClientOptions options;
  options.wait_injected_latency = false;
  Client reporting(test_engine_.engine.get(), options);
  Response r = reporting.Call("GetItem", R"({"TableName":"tbl","Key":{"pk":{"S":"a"}}})");
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.delay_micros, 1'500'000);
  EXPECT_EQ(reporting.Call("ListTables", "{}").delay_micros, 0);
}

TEST_F(FaultInjectionTest, ARuleThatMatchesNothingChangesNoAnswer) {
  ASSERT_EQ(Call("PutItem", Put("a")).http_status, 200);
  const std::string get = R"({"TableName":"tbl","Key":{"pk":{"S":"a"}}})";
  Response before = client_.Call("GetItem", get);
  Rule({{"Match", {{"TableName", "other"}}}, {"Effect", {{"Error", "ThrottlingException"}}}});
  Response after = client_.Call("GetItem", get);
  EXPECT_EQ(after.http_status, before.http_status);
  EXPECT_EQ(after.body, before.body);
}

}  // namespace
}  // namespace dynarock::api
