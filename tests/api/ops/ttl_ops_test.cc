// Time to Live through the in-process Client: UpdateTimeToLive and
// DescribeTimeToLive (shapes, DynamoDB's messages, the answers' JSON), and
// the DynamoRock_20251121.RunTimeToLiveSweep extension.

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class TtlOpsTest : public ApiTest {
 protected:
  void SetUp() override { CreateTable("tbl"); }
  Reply Update(bool enabled, const std::string& attribute) {
    return Call("UpdateTimeToLive",
                json{{"TableName", "tbl"},
                     {"TimeToLiveSpecification",
                      {{"Enabled", enabled}, {"AttributeName", attribute}}}});
  }
  json Describe() {
    Reply r = Call("DescribeTimeToLive", R"({"TableName":"tbl"})");
    EXPECT_EQ(r.http_status, 200) << r;
    return r.body;
  }
};

TEST_F(TtlOpsTest, EnableDescribeDisable) {
  EXPECT_EQ(Describe(), json::parse(R"({"TimeToLiveDescription":
                                         {"TimeToLiveStatus":"DISABLED"}})"));
  Reply r = Update(true, "expires");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"TimeToLiveSpecification":
                                    {"Enabled":true,"AttributeName":"expires"}})"));
  EXPECT_EQ(Describe(), json::parse(R"({"TimeToLiveDescription":
      {"TimeToLiveStatus":"ENABLED","AttributeName":"expires"}})"));
  r = Update(false, "expires");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"TimeToLiveSpecification":
                                    {"Enabled":false,"AttributeName":"expires"}})"));
  EXPECT_EQ(Describe()["TimeToLiveDescription"],
            json::parse(R"({"TimeToLiveStatus":"DISABLED"})"));
}

TEST_F(TtlOpsTest, DynamoDbsMessages) {
  Reply r = Update(false, "x");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, ValidationError("TimeToLive is already disabled"));
  ASSERT_EQ(Update(true, "ttl_a").http_status, 200);
  EXPECT_EQ(Update(true, "ttl_a").body, ValidationError("TimeToLive is already enabled"));
  EXPECT_EQ(Update(false, "ttl_b").body,
            ValidationError("TimeToLive is active on a different AttributeName: "
                            "current AttributeName is ttl_a"));
}

TEST_F(TtlOpsTest, ShapeErrors) {
  Reply r = Call("UpdateTimeToLive", R"({"TableName":"tbl"})");
  EXPECT_EQ(r.body, ValidationError(
      "1 validation error detected: Value null at 'timeToLiveSpecification' "
      "failed to satisfy constraint: Member must not be null"));
  r = Call("UpdateTimeToLive", R"({"TableName":"tbl","TimeToLiveSpecification":{}})");
  EXPECT_EQ(r.body, ValidationError(
      "2 validation errors detected: Value null at "
      "'timeToLiveSpecification.enabled' failed to satisfy constraint: Member "
      "must not be null; Value null at 'timeToLiveSpecification.attributeName' "
      "failed to satisfy constraint: Member must not be null"));
  r = Update(true, std::string(256, 'a'));
  EXPECT_EQ(r.body, ValidationError(
      "1 validation error detected: Value '" + std::string(256, 'a') +
      "' at 'timeToLiveSpecification.attributeName' failed to satisfy "
      "constraint: Member must have length less than or equal to 255"));
  r = Call("UpdateTimeToLive",
           R"({"TableName":"tbl","TimeToLiveSpecification":{"Enabled":"yes","AttributeName":"a"}})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body["__type"], "com.amazon.coral.service#SerializationException");
  r = Call("DescribeTimeToLive", R"({})");
  EXPECT_EQ(r.body, ValidationError(
      "The parameter 'TableName' is required but was not present in the request"));
}

TEST_F(TtlOpsTest, UnknownTable) {
  json missing = ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                           "Requested resource not found: Table: nope not found");
  EXPECT_EQ(Call("DescribeTimeToLive", R"({"TableName":"nope"})").body, missing);
  EXPECT_EQ(Call("UpdateTimeToLive", R"({"TableName":"nope",
      "TimeToLiveSpecification":{"Enabled":true,"AttributeName":"a"}})").body,
            missing);
}

TEST_F(TtlOpsTest, SweepExtensionDeletesExpiredItems) {
  ASSERT_EQ(Update(true, "exp").http_status, 200);
  const int64_t now_s = test_engine_.clock.NowMicros() / 1'000'000;
  for (int i = 0; i < 4; ++i) {
    json item = {{"pk", {{"S", "p" + std::to_string(i)}}},
                 {"exp", {{"N", std::to_string(i < 3 ? now_s - 1 : now_s + 3600)}}}};
    ASSERT_EQ(Call("PutItem", json{{"TableName", "tbl"}, {"Item", item}}).http_status, 200);
  }
  Reply r = Call("DynamoRock_20251121.RunTimeToLiveSweep", R"({"TableName":"tbl"})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"ScannedItems":4,"DeletedItems":3})"));
  r = Call("DynamoRock_20251121.RunTimeToLiveSweep", R"({})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"ScannedItems":1,"DeletedItems":0})"));
  // Only under the extension prefix.
  EXPECT_EQ(Call("RunTimeToLiveSweep", R"({})").body["__type"],
            "com.amazon.coral.service#UnknownOperationException");
}

}  // namespace
}  // namespace dynarock::api
