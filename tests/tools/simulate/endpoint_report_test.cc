// tests/tools/simulate/endpoint_report_test.cc
//
// What an endpoint run reads from the answers and how it reports them:
// throttles counted by exception and by ThrottlingReasons, the consumed
// capacity the endpoint reported, percentiles, ratios against the model, and
// the report's shared lines (the note when the endpoint never throttled, the
// errors retried, the cleanup).

#include "tools/simulate/endpoint_report.h"

#include <gtest/gtest.h>

namespace dynarock::tools::simulate {
namespace {

api::Response Answer(int status, std::string body) {
  api::Response r;
  r.http_status = status;
  r.body = std::move(body);
  return r;
}

TEST(EndpointReportTest, ThrottleTypesAreTheOnesSdksRetry) {
  EXPECT_TRUE(IsThrottleType("ProvisionedThroughputExceededException"));
  EXPECT_TRUE(IsThrottleType("ThrottlingException"));
  EXPECT_TRUE(IsThrottleType("RequestLimitExceeded"));
  EXPECT_FALSE(IsThrottleType("ValidationException"));
  EXPECT_FALSE(IsThrottleType("ConditionalCheckFailedException"));
  EXPECT_FALSE(IsThrottleType(""));
}

// Each throttled answer counts once by its exception and once per entry of
// its ThrottlingReasons; an answer without reasons (DynamoDB Local, older
// endpoints) or with a body that is not JSON counts by exception only.
TEST(EndpointReportTest, ThrottlesCountByExceptionAndByReason) {
  EndpointCounts c;
  CountThrottle("ProvisionedThroughputExceededException",
                Answer(400, R"({"__type":"com.amazonaws.dynamodb.v20120810#)"
                            R"(ProvisionedThroughputExceededException","message":"m",)"
                            R"("ThrottlingReasons":[)"
                            R"({"reason":"IndexReadKeyRangeThroughputExceeded","resource":"a"},)"
                            R"({"reason":"TableReadProvisionedThroughputExceeded","resource":"b"}]})"),
                &c);
  CountThrottle("ThrottlingException",
                Answer(400, R"({"__type":"x#ThrottlingException","message":"m",)"
                            R"("ThrottlingReasons":[{"reason":"IndexReadKeyRangeThroughputExceeded"}]})"),
                &c);
  CountThrottle("ThrottlingException", Answer(400, R"({"__type":"x#ThrottlingException"})"), &c);
  CountThrottle("RequestLimitExceeded", Answer(400, "not json"), &c);
  // A reason that is not an object is skipped; one without "reason" is "?".
  CountThrottle("ThrottlingException",
                Answer(400, R"({"ThrottlingReasons":["odd",{"resource":"r"}]})"), &c);

  EXPECT_EQ(c.throttled, 5);
  EXPECT_EQ(c.throttled_by_exception,
            (std::map<std::string, int64_t>{{"ProvisionedThroughputExceededException", 1},
                                            {"RequestLimitExceeded", 1},
                                            {"ThrottlingException", 3}}));
  EXPECT_EQ(c.throttling_reasons,
            (std::map<std::string, int64_t>{{"?", 1},
                                            {"IndexReadKeyRangeThroughputExceeded", 2},
                                            {"TableReadProvisionedThroughputExceeded", 1}}));
  EXPECT_EQ(c.consumed_units, 0);
  EXPECT_EQ(c.responses_with_capacity, 0);
}

// ConsumedCapacity's CapacityUnits, else its Read- plus WriteCapacityUnits
// (the shape some endpoints send for TOTAL); answers without it are not
// counted as reporting capacity.
TEST(EndpointReportTest, ConsumedCapacityIsSummed) {
  EndpointCounts c;
  CountConsumed(Answer(200, R"({"Count":3,"ConsumedCapacity":)"
                            R"({"TableName":"T","CapacityUnits":1.5}})"),
                &c);
  CountConsumed(Answer(200, R"({"ConsumedCapacity":{"TableName":"T",)"
                            R"("ReadCapacityUnits":0.5,"WriteCapacityUnits":2}})"),
                &c);
  CountConsumed(Answer(200, R"({"Count":3})"), &c);
  CountConsumed(Answer(200, R"({"ConsumedCapacity":[{"CapacityUnits":9}]})"), &c);
  CountConsumed(Answer(200, "garbage"), &c);
  EXPECT_DOUBLE_EQ(c.consumed_units, 4.0);
  EXPECT_EQ(c.responses_with_capacity, 2);
  EXPECT_EQ(c.throttled, 0);
}

TEST(EndpointReportTest, PercentilesInMilliseconds) {
  std::vector<int64_t> none;
  EXPECT_EQ(PercentileMs(none, 0.5), 0);
  std::vector<int64_t> micros;
  for (int64_t i = 100; i >= 1; --i) micros.push_back(i * 1000);  // 1..100 ms, reversed
  EXPECT_DOUBLE_EQ(PercentileMs(micros, 0.5), 51.0);
  EXPECT_DOUBLE_EQ(PercentileMs(micros, 0.99), 100.0);
  EXPECT_DOUBLE_EQ(PercentileMs(micros, 0.0), 1.0);
  EXPECT_DOUBLE_EQ(PercentileMs(micros, 1.0), 100.0);  // clamped to the last
  std::vector<int64_t> one{2500};
  EXPECT_DOUBLE_EQ(PercentileMs(one, 0.99), 2.5);
}

TEST(EndpointReportTest, RatiosAgainstTheModel) {
  EXPECT_EQ(RatioText(97, 100), "0.97");
  EXPECT_EQ(RatioText(300, 100), "3.00");
  EXPECT_EQ(RatioText(0, 0), "1.00");  // both silent: they agree
  EXPECT_EQ(RatioText(5, 0), "-");     // no ratio to a model's 0
  EXPECT_EQ(RatioText(0, 8), "0.00");
  EXPECT_DOUBLE_EQ(RatioJson(97, 100).get<double>(), 0.97);
  EXPECT_DOUBLE_EQ(RatioJson(0, 0).get<double>(), 1.0);
  EXPECT_TRUE(RatioJson(5, 0).is_null());
}

TEST(EndpointReportTest, JoinedCounts) {
  EXPECT_EQ(JoinCounts({}), "-");
  EXPECT_EQ(JoinCounts({{"HTTP 503", 3}, {"transport", 1}}), "HTTP 503 3; transport 1");
}

EndpointRunInfo Info() {
  EndpointRunInfo info;
  info.url = "http://127.0.0.1:8463";
  info.region = "us-east-1";
  info.credentials_source = "none (dummy signature)";
  info.table_prefix = "p-";
  info.clients = 4;
  return info;
}

TEST(EndpointReportTest, EndpointLineAndJson) {
  EndpointRunInfo info = Info();
  EXPECT_EQ(EndpointLine(info),
            "at http://127.0.0.1:8463 (Region us-east-1, credentials: none (dummy "
            "signature), 4 clients)");
  info.interrupted = true;
  const nlohmann::json j = EndpointJson(info);
  EXPECT_EQ(j["url"], "http://127.0.0.1:8463");
  EXPECT_EQ(j["region"], "us-east-1");
  EXPECT_EQ(j["credentials"], "none (dummy signature)");
  EXPECT_EQ(j["table_prefix"], "p-");
  EXPECT_EQ(j["clients"], 4);
  EXPECT_EQ(j["interrupted"], true);
}

// The note that the endpoint never throttled is there exactly when it did
// not; errors and cleanup lines follow when there are any.
TEST(EndpointReportTest, FooterSaysWhenTheEndpointNeverThrottled) {
  EndpointRunInfo info = Info();
  const std::string never = EndpointFooterText(info, /*endpoint_throttled=*/false);
  EXPECT_NE(never.find("the endpoint never throttled"), std::string::npos) << never;
  EXPECT_NE(never.find("compare the model's throttles with caution"), std::string::npos);
  EXPECT_EQ(never.find("errors retried"), std::string::npos);
  EXPECT_EQ(EndpointFooterText(info, /*endpoint_throttled=*/true), "");

  info.errors.retried = {{"HTTP 503", 2}};
  info.errors.gave_up = {{"transport", 1}};
  info.cleanup = {"deleted table p-A", "deleted table p-B"};
  const std::string full = EndpointFooterText(info, true);
  EXPECT_EQ(full.find("never throttled"), std::string::npos);
  EXPECT_EQ(full,
            "\nendpoint errors retried with backoff: HTTP 503 2; given up: transport 1\n"
            "\ndeleted table p-A\ndeleted table p-B\n");
  const nlohmann::json errors = ErrorsJson(info.errors);
  EXPECT_EQ(errors["retried"]["HTTP 503"], 2);
  EXPECT_EQ(errors["gave_up"]["transport"], 1);
}

TEST(EndpointReportTest, CountsAsJson) {
  EndpointCounts c;
  CountThrottle("ThrottlingException",
                Answer(400, R"({"ThrottlingReasons":[{"reason":"R1"}]})"), &c);
  CountConsumed(Answer(200, R"({"ConsumedCapacity":{"CapacityUnits":2}})"), &c);
  nlohmann::json out = nlohmann::json::object();
  AddCountsJson(c, &out);
  EXPECT_EQ(out["throttled_by_exception"]["ThrottlingException"], 1);
  EXPECT_EQ(out["throttling_reasons"]["R1"], 1);
  EXPECT_EQ(out["responses_with_capacity"], 1);
}

}  // namespace
}  // namespace dynarock::tools::simulate
