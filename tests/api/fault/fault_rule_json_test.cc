// Fault rules as JSON (api/fault/fault_rule_json.h): a rule decodes to what
// it says and encodes back the same; malformed rules are refused with a
// message that names the problem; a --fault-rules file is a list or
// {"Rules": [...]}.

#include "api/fault/fault_rule_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testutil/status_matchers.h"

namespace dynarock::api {
namespace {

using ::testing::HasSubstr;

TEST(FaultRuleJsonTest, RoundTrip) {
  const Json rule = Json::parse(R"({
      "Id": "r",
      "Match": {"Operations": ["PutItem", "DynamoDBStreams_20120810.GetRecords"],
                "TableName": "T", "IndexName": "G",
                "Key": {"pk": {"S": "a"}, "n": {"N": "7"}},
                "KeyPrefix": {"AttributeName": "pk", "Prefix": "USER#"},
                "Request": {"ConsistentRead": "true"}},
      "Effect": {"Error": "ProvisionedThroughputExceededException", "Message": "m",
                 "ThrottlingReason": "TableWriteKeyRangeThroughputExceeded"},
      "When": {"Probability": 0.25, "Seed": 9, "EveryNth": 2, "FirstN": 5,
               "From": 1700000000.5, "To": 1700000060}})");
  ASSERT_OK_AND_ASSIGN(FaultRule decoded, DecodeFaultRule(rule));
  EXPECT_EQ(decoded.match.operations.size(), 2u);
  EXPECT_EQ(decoded.effect.error, ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(decoded.schedule.from_micros, 1'700'000'000'500'000);
  EXPECT_EQ(decoded.schedule.seed, 9u);
  Json encoded = EncodeFaultRule(FaultRuleStatus{decoded, 3, 1});
  EXPECT_EQ(encoded["MatchedCount"], 3);
  EXPECT_EQ(encoded["FiredCount"], 1);
  encoded.erase("MatchedCount");
  encoded.erase("FiredCount");
  EXPECT_EQ(encoded, rule);
}

TEST(FaultRuleJsonTest, OtherEffects) {
  ASSERT_OK_AND_ASSIGN(FaultRule latency,
                       DecodeFaultRule(Json::parse(R"({"Effect": {"LatencyMillis": 250}})")));
  EXPECT_EQ(latency.effect.kind, FaultEffectKind::kLatency);
  EXPECT_EQ(latency.effect.latency_micros, 250'000);
  ASSERT_OK_AND_ASSIGN(FaultRule cut, DecodeFaultRule(Json::parse(
      R"({"Match": {"Operations": ["BatchGetItem"]}, "Effect": {"Unprocessed": true}})")));
  EXPECT_EQ(cut.effect.kind, FaultEffectKind::kUnprocessed);
  ASSERT_OK_AND_ASSIGN(FaultRule cancel, DecodeFaultRule(Json::parse(
      R"({"Match": {"Operations": ["TransactWriteItems"]},
          "Effect": {"Error": "TransactionCanceledException",
                     "CancellationReasons": ["None", "ConditionalCheckFailed"]}})")));
  EXPECT_EQ(cancel.effect.cancellation_reasons.size(), 2u);
}

TEST(FaultRuleJsonTest, MalformedRulesNameTheProblem) {
  struct Case {
    const char* rule;
    const char* message;
  };
  for (const Case& c : {
           Case{R"({})", "Effect is required"},
           Case{R"({"Effect": {"Error": "ThrottlingException"}, "Matches": {}})",
                "unknown member Matches in the rule"},
           Case{R"({"Effect": {"Error": "ThrottlingException", "LatencyMillis": 5}})",
                "exactly one of"},
           Case{R"({"Effect": {"Error": 5}})", "Effect.Error must be a string"},
           Case{R"({"Effect": {"Unprocessed": false}})", "Effect.Unprocessed must be true"},
           Case{R"({"Effect": {"LatencyMillis": 0}})", "between 1 and 60000"},
           Case{R"({"Effect": {"LatencyMillis": 1.5}})", "between 1 and 60000"},
           Case{R"({"Effect": {"LatencyMillis": 5, "Message": "m"}})", "go with Error"},
           Case{R"({"Match": {"Operations": "PutItem"}, "Effect": {"LatencyMillis": 5}})",
                "list of operation names"},
           Case{R"({"Match": {"Operations": ["Nope"]}, "Effect": {"LatencyMillis": 5}})",
                "unknown operation Nope"},
           Case{R"({"Match": {"Key": {"pk": {"Q": "a"}}}, "Effect": {"LatencyMillis": 5}})",
                "Match.Key"},
           Case{R"({"Match": {"Request": {"X": [1]}}, "Effect": {"LatencyMillis": 5}})",
                "Match.Request.X"},
           Case{R"({"Effect": {"LatencyMillis": 5}, "When": {"FirstN": 0}})",
                "When.FirstN must be a positive integer"},
           Case{R"({"Effect": {"LatencyMillis": 5}, "When": {"From": "soon"}})",
                "When.From must be epoch seconds"},
       }) {
    EXPECT_THAT(DecodeFaultRule(Json::parse(c.rule)).status(),
                StatusIs(ErrorCode::kValidation, HasSubstr(c.message)))
        << c.rule;
  }
}

TEST(FaultRuleJsonTest, RulesFiles) {
  ASSERT_OK_AND_ASSIGN(std::vector<FaultRule> list,
                       ParseFaultRules(R"( [{"Effect": {"LatencyMillis": 1}}] )"));
  EXPECT_EQ(list.size(), 1u);
  ASSERT_OK_AND_ASSIGN(std::vector<FaultRule> object,
                       ParseFaultRules(R"({"Rules": [{"Effect": {"LatencyMillis": 1}},
                                                     {"Effect": {"LatencyMillis": 2}}]})"));
  EXPECT_EQ(object.size(), 2u);
  EXPECT_THAT(ParseFaultRules("{").status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("not JSON")));
  EXPECT_THAT(ParseFaultRules(R"({"Rule": []})").status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("must hold")));
  EXPECT_THAT(ParseFaultRules(R"([{"Effect": {}}])").status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("exactly one of")));
}

}  // namespace
}  // namespace dynarock::api
