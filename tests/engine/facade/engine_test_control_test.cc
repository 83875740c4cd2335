// Engine's test controls (engine/facade/engine_test_control.cc): a
// simulated clock moves forward only, and AdvanceClock runs what the new
// time makes due before it returns (TTL deletions, GSI changes past their
// lag); fault rules from EngineOptions are in force from the start and a
// bad one fails Open.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/engine/backup/backup_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using ::testing::HasSubstr;

TEST(EngineTestControlTest, TheClockMovesForwardOnly) {
  TestEngine db;
  const int64_t start = db.clock.NowMicros();
  EXPECT_TRUE(db->DescribeClock().simulated);
  ASSERT_OK_AND_ASSIGN(int64_t now, db->AdvanceClock(2'000'000));
  EXPECT_EQ(now, start + 2'000'000);
  EXPECT_EQ(db->DescribeClock().now_micros, now);
  EXPECT_THAT(db->AdvanceClock(0).status(), StatusIs(ErrorCode::kValidation, HasSubstr("forward")));
  EXPECT_THAT(db->SetClock(start).status(), StatusIs(ErrorCode::kValidation, HasSubstr("forward")));
  ASSERT_OK_AND_ASSIGN(now, db->SetClock(start + 10'000'000));
  EXPECT_EQ(now, start + 10'000'000);
}

TEST(EngineTestControlTest, TheRealClockCannotBeMoved) {
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Engine> db, Engine::Open(TestEngine::Options()));
  EXPECT_FALSE(db->DescribeClock().simulated);
  EXPECT_THAT(db->AdvanceClock(1).status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("real clock")));
}

TEST(EngineTestControlTest, AdvanceDeletesExpiredItemsAndAppliesIndexChanges) {
  EngineOptions options = TestEngine::Options();
  options.gsi_lag_micros = 5'000'000;
  TestEngine db(options);
  ASSERT_OK(db->CreateTable(IndexedTable("Tab")).status());
  UpdateTimeToLiveRequest ttl;
  ttl.table_name = "Tab";
  ttl.specification.enabled = true;
  ttl.specification.attribute_name = "exp";
  ASSERT_OK(db->UpdateTimeToLive(ttl).status());
  const int64_t now_s = db.clock.NowMicros() / 1'000'000;
  for (int i = 0; i < 3000; ++i) {  // more than one sweep chunk
    PutItemRequest put;
    put.table_name = "Tab";
    put.item = IndexedItem(i);
    put.item["exp"] = AttributeValue::N(Number::Parse(std::to_string(now_s + 60)).value());
    ASSERT_OK(db->PutItem(put).status());
  }
  ScanRequest scan;
  scan.table_name = "Tab";
  scan.read.select = Select::kCount;
  // Past the GSI lag: every put reached its index; no item has expired.
  EXPECT_GT(db->GetIndexPropagationStats().pending_records, 0);
  ASSERT_OK(db->AdvanceClock(10'000'000).status());
  EXPECT_EQ(db->GetIndexPropagationStats().pending_records, 0);
  ASSERT_OK_AND_ASSIGN(ScanResult all, db->Scan(scan));
  EXPECT_EQ(all.count, 3000);
  // Past the expiry: the whole sweep ran, its deletions wait out their lag.
  ASSERT_OK(db->AdvanceClock(120'000'000).status());
  ASSERT_OK_AND_ASSIGN(ScanResult left, db->Scan(scan));
  EXPECT_EQ(left.count, 0);
  EXPECT_GT(db->GetIndexPropagationStats().pending_records, 0);
  ASSERT_OK(db->AdvanceClock(10'000'000).status());
  EXPECT_EQ(db->GetIndexPropagationStats().pending_records, 0);
}

TEST(EngineTestControlTest, FaultRulesFromTheOptions) {
  EngineOptions options = TestEngine::Options();
  FaultRule rule;
  rule.id = "start";
  rule.effect.error = ErrorCode::kThrottling;
  options.fault_rules.push_back(rule);
  TestEngine db(options);
  EXPECT_TRUE(db->FaultRulesMayMatch("ListTables"));
  ASSERT_EQ(db->ListFaultRules().size(), 1u);
  EXPECT_EQ(db->ListFaultRules()[0].rule.id, "start");
  Scope scope;
  FaultSite site;
  site.operation = "ListTables";
  site.scope = &scope;
  ASSERT_EQ(db->DecideFaults(site).size(), 1u);
  EXPECT_EQ(db->InjectedFaults(scope, "")[0].name, "ThrottlingException");
  db->ClearFaultRules();
  EXPECT_FALSE(db->FaultRulesMayMatch("ListTables"));
  EXPECT_TRUE(db->ListFaultRules().empty());

  options.fault_rules[0].effect.error = ErrorCode::kValidation;
  options.clock = nullptr;
  EXPECT_THAT(Engine::Open(options).status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("cannot be injected")));
}

}  // namespace
}  // namespace dynarock
