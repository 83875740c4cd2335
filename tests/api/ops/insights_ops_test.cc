// Contributor insights through the in-process Client: the request shapes and
// DynamoDB's JSON (api/ops/insights_ops.cc).

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class InsightsOpsTest : public ApiTest {
 protected:
  void SetUp() override {
    ApiTest::SetUp();
    Reply r = Call("CreateTable", json{
        {"TableName", "Tab"},
        {"AttributeDefinitions",
         {{{"AttributeName", "pk"}, {"AttributeType", "S"}},
          {{"AttributeName", "g"}, {"AttributeType", "S"}}}},
        {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
        {"BillingMode", "PAY_PER_REQUEST"},
        {"GlobalSecondaryIndexes",
         {{{"IndexName", "ByG"},
           {"KeySchema", {{{"AttributeName", "g"}, {"KeyType", "HASH"}}}},
           {"Projection", {{"ProjectionType", "ALL"}}}}}}});
    ASSERT_EQ(r.http_status, 200) << r;
  }
};

TEST_F(InsightsOpsTest, UpdateDescribeList) {
  Reply r = Call("UpdateContributorInsights",
                 R"({"TableName":"Tab","IndexName":"ByG","ContributorInsightsAction":"ENABLE"})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"TableName":"Tab","IndexName":"ByG",
                                    "ContributorInsightsStatus":"ENABLING",
                                    "ContributorInsightsMode":"ACCESSED_AND_THROTTLED_KEYS"})"));
  r = Call("DescribeContributorInsights", R"({"TableName":"Tab","IndexName":"ByG"})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["ContributorInsightsStatus"], "ENABLED");
  EXPECT_EQ(r.body["ContributorInsightsRuleList"].size(), 2u);
  EXPECT_EQ(r.body["ContributorInsightsMode"], "ACCESSED_AND_THROTTLED_KEYS");
  EXPECT_TRUE(r.body["LastUpdateDateTime"].is_number());
  r = Call("DescribeContributorInsights", R"({"TableName":"Tab"})");
  EXPECT_EQ(r.body, json::parse(R"({"TableName":"Tab",
                                    "ContributorInsightsStatus":"DISABLED"})"));
  r = Call("ListContributorInsights", "{}");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"ContributorInsightsSummaries":[
      {"TableName":"Tab","IndexName":"ByG","ContributorInsightsStatus":"ENABLED",
       "ContributorInsightsMode":"ACCESSED_AND_THROTTLED_KEYS"}]})"));
}

TEST_F(InsightsOpsTest, ThrottledKeysMode) {
  Reply r = Call("UpdateContributorInsights",
                 R"({"TableName":"Tab","ContributorInsightsAction":"ENABLE",
                     "ContributorInsightsMode":"THROTTLED_KEYS"})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["ContributorInsightsMode"], "THROTTLED_KEYS");
  r = Call("DescribeContributorInsights", R"({"TableName":"Tab"})");
  EXPECT_EQ(r.body["ContributorInsightsMode"], "THROTTLED_KEYS");
  ASSERT_EQ(r.body["ContributorInsightsRuleList"].size(), 1u);
  EXPECT_EQ(r.body["ContributorInsightsRuleList"][0].get<std::string>().rfind(
                "DynamoDBContributorInsights-PKT-Tab-", 0),
            0u);
  r = Call("UpdateContributorInsights",
           R"({"TableName":"Tab","ContributorInsightsAction":"DISABLE"})");
  EXPECT_EQ(r.body, json::parse(R"({"TableName":"Tab",
                                    "ContributorInsightsStatus":"DISABLING"})"));
}

TEST_F(InsightsOpsTest, ShapeErrors) {
  Reply r = Call("UpdateContributorInsights", R"({"TableName":"Tab"})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body["message"],
            "1 validation error detected: Value null at 'contributorInsightsAction' "
            "failed to satisfy constraint: Member must not be null");
  r = Call("UpdateContributorInsights",
           R"({"TableName":"Tab","ContributorInsightsAction":"MAYBE"})");
  EXPECT_EQ(r.body["message"],
            "1 validation error detected: Value 'MAYBE' at 'contributorInsightsAction' "
            "failed to satisfy constraint: Member must satisfy enum value set: "
            "[ENABLE, DISABLE]");
  // Every member's violation, in one message.
  r = Call("UpdateContributorInsights",
           R"({"TableName":"Tab","ContributorInsightsAction":"MAYBE",
               "ContributorInsightsMode":"SOME_KEYS"})");
  EXPECT_EQ(r.body["message"],
            "2 validation errors detected: Value 'MAYBE' at 'contributorInsightsAction' "
            "failed to satisfy constraint: Member must satisfy enum value set: "
            "[ENABLE, DISABLE]; Value 'SOME_KEYS' at 'contributorInsightsMode' failed to "
            "satisfy constraint: Member must satisfy enum value set: "
            "[ACCESSED_AND_THROTTLED_KEYS, THROTTLED_KEYS]");
  r = Call("DescribeContributorInsights", R"({"TableName":"Nope"})");
  EXPECT_EQ(r.body["__type"], "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException");
  r = Call("ListContributorInsights", R"({"MaxResults":101})");
  EXPECT_EQ(r.http_status, 400);
}

}  // namespace
}  // namespace dynarock::api
