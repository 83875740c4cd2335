// FaultInjector (engine/fault/fault_injector.h): which requests a rule
// matches, when it fires, and the error, unprocessed entries or latency it
// decides, with DynamoDB's types, messages and reasons.
#include "engine/fault/fault_injector.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/clock.h"
#include "engine/requests/scope.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class FaultInjectorTest : public ::testing::Test {
 protected:
  FaultSite Site(std::string_view operation, std::string_view table = "Orders") {
    FaultSite site;
    site.operation = operation;
    site.scope = &scope_;
    site.table_name = table;
    return site;
  }
  FaultRule Throttle(std::string op = "PutItem") {
    FaultRule rule;
    rule.match.operations = {std::move(op)};
    rule.match.table_name = "Orders";
    rule.effect.error = ErrorCode::kProvisionedThroughputExceeded;
    return rule;
  }
  // How many of `n` requests of `site` the rules fail.
  int Failures(const FaultSite& site, int n) {
    int failed = 0;
    for (int i = 0; i < n; ++i) {
      std::vector<FaultDecision> d = faults_.Decide(site);
      if (!d.empty() && d.back().kind == FaultEffectKind::kError) ++failed;
    }
    return failed;
  }

  SimulatedClock clock_{1'700'000'000'000'000};
  FaultInjector faults_{&clock_};
  Scope scope_;
};

TEST_F(FaultInjectorTest, NoRuleDecidesNothing) {
  EXPECT_TRUE(faults_.empty());
  EXPECT_TRUE(faults_.Decide(Site("PutItem")).empty());
}

TEST_F(FaultInjectorTest, MayMatchNamesTheOperationsRulesCanFault) {
  EXPECT_FALSE(faults_.MayMatch("PutItem"));
  ASSERT_OK(faults_.Put(Throttle("PutItem")).status());
  EXPECT_TRUE(faults_.MayMatch("PutItem"));
  EXPECT_FALSE(faults_.MayMatch("GetItem"));
  FaultRule any;
  any.effect.error = ErrorCode::kThrottling;
  ASSERT_OK(faults_.Put(any).status());
  EXPECT_TRUE(faults_.MayMatch("GetItem"));
}

TEST_F(FaultInjectorTest, AThrottleCarriesDynamoDbsMessageAndReason) {
  ASSERT_OK(faults_.Put(Throttle()).status());
  std::vector<FaultDecision> d = faults_.Decide(Site("PutItem"));
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].rule_id, "rule-1");
  const Status& s = d[0].error;
  EXPECT_EQ(s.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_THAT(s.message(), HasSubstr("Throughput exceeds the current capacity of your table"));
  ASSERT_EQ(s.throttling_reasons().size(), 1u);
  EXPECT_EQ(s.throttling_reasons()[0].reason, "TableWriteKeyRangeThroughputExceeded");
  EXPECT_EQ(s.throttling_reasons()[0].resource,
            "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
                ":table/Orders");
  // Other operations and tables are not matched.
  EXPECT_TRUE(faults_.Decide(Site("GetItem")).empty());
  EXPECT_TRUE(faults_.Decide(Site("PutItem", "Other")).empty());
}

TEST_F(FaultInjectorTest, AChosenReasonOnAnIndexRead) {
  FaultRule rule = Throttle("Query");
  rule.effect.throttling_reason = "IndexReadProvisionedThroughputExceeded";
  ASSERT_OK(faults_.Put(rule).status());
  FaultSite site = Site("Query");
  site.index_name = "GSI1";
  std::vector<FaultDecision> d = faults_.Decide(site);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_THAT(d[0].error.message(),
              HasSubstr("provisioned throughput for one or more global secondary indexes"));
  EXPECT_EQ(d[0].error.throttling_reasons()[0].reason, "IndexReadProvisionedThroughputExceeded");
  EXPECT_EQ(d[0].error.throttling_reasons()[0].resource,
            "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
                ":table/Orders/index/GSI1");
}

TEST_F(FaultInjectorTest, EveryNthAndFirstN) {
  FaultRule rule = Throttle();
  rule.schedule.every_nth = 3;
  ASSERT_OK_AND_ASSIGN(rule, faults_.Put(rule));
  EXPECT_EQ(rule.id, "rule-1");
  std::vector<bool> fired;
  for (int i = 0; i < 7; ++i) fired.push_back(!faults_.Decide(Site("PutItem")).empty());
  EXPECT_THAT(fired, ElementsAre(false, false, true, false, false, true, false));

  rule.schedule = {};
  rule.schedule.first_n = 2;
  ASSERT_OK(faults_.Put(rule).status());  // same id: replaces, counters restart
  EXPECT_EQ(Failures(Site("PutItem"), 5), 2);
  std::vector<FaultRuleStatus> listed = faults_.List();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].matched, 5);
  EXPECT_EQ(listed[0].fired, 2);
}

TEST_F(FaultInjectorTest, ProbabilityRepeatsWithItsSeed) {
  FaultRule rule = Throttle();
  rule.id = "half";
  rule.schedule.probability = 0.5;
  rule.schedule.seed = 42;
  ASSERT_OK(faults_.Put(rule).status());
  std::vector<bool> first;
  for (int i = 0; i < 200; ++i) first.push_back(!faults_.Decide(Site("PutItem")).empty());
  ASSERT_OK(faults_.Put(rule).status());
  std::vector<bool> second;
  for (int i = 0; i < 200; ++i) second.push_back(!faults_.Decide(Site("PutItem")).empty());
  EXPECT_EQ(first, second);
  const auto fired = std::count(first.begin(), first.end(), true);
  EXPECT_GT(fired, 70);
  EXPECT_LT(fired, 130);
}

TEST_F(FaultInjectorTest, ATimeWindowOnTheEngineClock) {
  FaultRule rule = Throttle();
  rule.schedule.from_micros = clock_.NowMicros() + 10'000'000;
  rule.schedule.to_micros = clock_.NowMicros() + 20'000'000;
  ASSERT_OK(faults_.Put(rule).status());
  EXPECT_EQ(Failures(Site("PutItem"), 1), 0);
  clock_.Advance(10'000'000);
  EXPECT_EQ(Failures(Site("PutItem"), 1), 1);
  clock_.Advance(10'000'000);
  EXPECT_EQ(Failures(Site("PutItem"), 1), 0);
}

TEST_F(FaultInjectorTest, KeyAndPrefixPickTheEntriesOfABatch) {
  FaultRule rule;
  rule.match.operations = {"BatchWriteItem"};
  rule.match.table_name = "Orders";
  rule.match.key_prefix_attribute = "pk";
  rule.match.key_prefix = "USER#";
  rule.effect.kind = FaultEffectKind::kUnprocessed;
  ASSERT_OK(faults_.Put(rule).status());
  Item a{{"pk", AttributeValue::S("USER#1")}};
  Item b{{"pk", AttributeValue::S("ORDER#1")}};
  Item c{{"pk", AttributeValue::S("USER#2")}};
  FaultSite site = Site("BatchWriteItem", "");
  site.targets = {{"Orders", &a}, {"Orders", &b}, {"Other", &c}};
  std::vector<FaultDecision> d = faults_.Decide(site);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].kind, FaultEffectKind::kUnprocessed);
  EXPECT_THAT(d[0].targets, ElementsAre(0u));
  EXPECT_THAT(faults_.Injected(scope_, "Orders"),
              ElementsAre(::testing::Field(&InjectedFaultCount::count, 1)));
  EXPECT_EQ(faults_.Injected(scope_, "Orders")[0].name, "UnprocessedItems");
  // The namespace's tables, whatever region names them.
  Scope other_region = scope_;
  other_region.region = "eu-west-1";
  EXPECT_EQ(faults_.Injected(other_region, "Orders").size(), 1u);
  Scope other_ns = scope_;
  other_ns.ns = "key_us-east-1";
  EXPECT_TRUE(faults_.Injected(other_ns, "Orders").empty());
}

TEST_F(FaultInjectorTest, AnExactKeyMatchesNumbersByValue) {
  FaultRule rule = Throttle("GetItem");
  rule.match.key = {{"id", AttributeValue::N(Number::Parse("7").value())}};
  ASSERT_OK(faults_.Put(rule).status());
  Item seven{{"id", AttributeValue::N(Number::Parse("7.0").value())}};
  Item eight{{"id", AttributeValue::N(Number::Parse("8").value())}};
  FaultSite site = Site("GetItem");
  site.targets = {{"Orders", &eight}};
  EXPECT_TRUE(faults_.Decide(site).empty());
  site.targets = {{"Orders", &seven}};
  EXPECT_EQ(faults_.Decide(site).size(), 1u);
}

TEST_F(FaultInjectorTest, ATransactionConflictOnTheMatchedAction) {
  FaultRule rule;
  rule.match.operations = {"TransactWriteItems"};
  rule.match.key = {{"pk", AttributeValue::S("b")}};
  rule.effect.error = ErrorCode::kTransactionCanceled;
  ASSERT_OK(faults_.Put(rule).status());
  Item a{{"pk", AttributeValue::S("a")}};
  Item b{{"pk", AttributeValue::S("b")}};
  FaultSite site = Site("TransactWriteItems", "");
  site.targets = {{"Orders", &a}, {"Orders", &b}};
  std::vector<FaultDecision> d = faults_.Decide(site);
  ASSERT_EQ(d.size(), 1u);
  const Status& s = d[0].error;
  EXPECT_EQ(s.code(), ErrorCode::kTransactionCanceled);
  EXPECT_THAT(s.message(), HasSubstr("[None, TransactionConflict]"));
  ASSERT_EQ(s.cancellation_reasons().size(), 2u);
  EXPECT_EQ(s.cancellation_reasons()[1].message, "Transaction is ongoing for the item");
  EXPECT_TRUE(s.cancellation_reasons()[0].message.empty());
}

TEST_F(FaultInjectorTest, RequestMembersNarrowTheMatch) {
  FaultRule rule = Throttle("GetItem");
  rule.match.request = {{"ConsistentRead", "true"}};
  ASSERT_OK(faults_.Put(rule).status());
  FaultSite site = Site("GetItem");
  bool consistent = false;
  site.member_text = [&](std::string_view member) -> std::optional<std::string> {
    if (member == "ConsistentRead") return consistent ? "true" : "false";
    return std::nullopt;
  };
  EXPECT_TRUE(faults_.Decide(site).empty());
  consistent = true;
  EXPECT_EQ(faults_.Decide(site).size(), 1u);
}

TEST_F(FaultInjectorTest, LatencyAddsAndAnErrorEndsTheList) {
  FaultRule slow;
  slow.id = "slow";
  slow.effect.kind = FaultEffectKind::kLatency;
  slow.effect.latency_micros = 250'000;
  ASSERT_OK(faults_.Put(slow).status());
  FaultRule fail;
  fail.id = "fail";
  fail.effect.error = ErrorCode::kServiceUnavailable;
  ASSERT_OK(faults_.Put(fail).status());
  FaultRule never;
  never.id = "after";
  never.effect.error = ErrorCode::kInternal;
  ASSERT_OK(faults_.Put(never).status());
  std::vector<FaultDecision> d = faults_.Decide(Site("DescribeTable"));
  ASSERT_EQ(d.size(), 2u);
  EXPECT_EQ(d[0].latency_micros, 250'000);
  EXPECT_EQ(d[1].error.code(), ErrorCode::kServiceUnavailable);
  EXPECT_THAT(d[1].error.message(), HasSubstr("DynamoDB is currently unavailable"));
  EXPECT_EQ(faults_.List()[2].matched, 0);
}

TEST_F(FaultInjectorTest, BadRulesAreRefused) {
  auto refused = [&](FaultRule rule, std::string_view what) {
    Result<FaultRule> r = faults_.Put(rule);
    EXPECT_THAT(r.status(), StatusIs(ErrorCode::kValidation, HasSubstr(std::string(what))));
  };
  FaultRule rule = Throttle();
  rule.effect.error = ErrorCode::kResourceNotFound;
  refused(rule, "cannot be injected");
  rule = Throttle();
  rule.schedule.probability = 1.5;
  refused(rule, "Probability");
  rule = Throttle();
  rule.effect.kind = FaultEffectKind::kLatency;
  rule.effect.latency_micros = 3'600'000'000;
  refused(rule, "LatencyMillis");
  rule = Throttle();
  rule.effect.kind = FaultEffectKind::kUnprocessed;
  refused(rule, "BatchWriteItem");
  rule = Throttle();
  rule.effect.error = ErrorCode::kTransactionCanceled;
  refused(rule, "TransactWriteItems");
  rule = Throttle();
  rule.effect.throttling_reason = "TableWriteTooFast";
  refused(rule, "unknown ThrottlingReason");
  rule = Throttle();
  rule.schedule.from_micros = 20;
  rule.schedule.to_micros = 10;
  refused(rule, "To must be after From");
  EXPECT_TRUE(faults_.empty());

  for (size_t i = 0; i < kMaxFaultRules; ++i) ASSERT_OK(faults_.Put(Throttle()).status());
  refused(Throttle(), "delete one first");
  EXPECT_THAT(faults_.Delete("no-such-rule"), StatusIs(ErrorCode::kResourceNotFound, HasSubstr("no-such-rule")));
  EXPECT_OK(faults_.Delete("rule-1"));
  faults_.Clear();
  EXPECT_TRUE(faults_.empty());
}

}  // namespace
}  // namespace dynarock
