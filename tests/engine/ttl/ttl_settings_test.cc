// Time to Live settings (engine/ttl/ttl_settings.cc), through the Engine:
// UpdateTimeToLive and DescribeTimeToLive with DynamoDB's rules and
// messages, and the setting surviving a restart.
#include "engine/ttl/ttl_settings.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "engine/engine.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

UpdateTimeToLiveRequest Ttl(const std::string& table, bool enabled,
                            const std::string& attribute) {
  UpdateTimeToLiveRequest req;
  req.table_name = table;
  req.specification.enabled = enabled;
  req.specification.attribute_name = attribute;
  return req;
}

TimeToLiveDescription Describe(Engine* db, const std::string& table) {
  DescribeTimeToLiveRequest req;
  req.table_name = table;
  auto d = db->DescribeTimeToLive(req);
  EXPECT_OK(d.status());
  return d.ok() ? *d : TimeToLiveDescription();
}

TEST(TtlSettingsTest, DisabledUntilEnabledAndEchoesTheSpecification) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  TimeToLiveDescription d = Describe(db.engine.get(), "Tab");
  EXPECT_EQ(d.status, TimeToLiveStatus::kDisabled);
  EXPECT_FALSE(d.attribute_name.has_value());

  ASSERT_OK_AND_ASSIGN(TimeToLiveSpecification spec,
                       db->UpdateTimeToLive(Ttl("Tab", true, "expires")));
  EXPECT_TRUE(spec.enabled);
  EXPECT_EQ(spec.attribute_name, "expires");
  d = Describe(db.engine.get(), "Tab");
  EXPECT_EQ(d.status, TimeToLiveStatus::kEnabled);
  EXPECT_EQ(d.attribute_name, "expires");

  ASSERT_OK_AND_ASSIGN(spec, db->UpdateTimeToLive(Ttl("Tab", false, "expires")));
  EXPECT_FALSE(spec.enabled);
  EXPECT_EQ(spec.attribute_name, "expires");
  // A disabled table shows no attribute, as DynamoDB.
  d = Describe(db.engine.get(), "Tab");
  EXPECT_EQ(d.status, TimeToLiveStatus::kDisabled);
  EXPECT_FALSE(d.attribute_name.has_value());
  // And may be enabled again, on another attribute.
  ASSERT_OK(db->UpdateTimeToLive(Ttl("Tab", true, "other")).status());
  EXPECT_EQ(Describe(db.engine.get(), "Tab").attribute_name, "other");
}

TEST(TtlSettingsTest, RefusesWhatDynamoDbRefuses) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  EXPECT_THAT(db->UpdateTimeToLive(Ttl("Tab", false, "x")),
              StatusIs(ErrorCode::kValidation, "TimeToLive is already disabled"));
  ASSERT_OK(db->UpdateTimeToLive(Ttl("Tab", true, "ttl_a")).status());
  EXPECT_THAT(db->UpdateTimeToLive(Ttl("Tab", true, "ttl_a")),
              StatusIs(ErrorCode::kValidation, "TimeToLive is already enabled"));
  const char* different =
      "TimeToLive is active on a different AttributeName: current AttributeName is ttl_a";
  EXPECT_THAT(db->UpdateTimeToLive(Ttl("Tab", true, "ttl_b")),
              StatusIs(ErrorCode::kValidation, different));
  EXPECT_THAT(db->UpdateTimeToLive(Ttl("Tab", false, "ttl_b")),
              StatusIs(ErrorCode::kValidation, different));
  EXPECT_EQ(Describe(db.engine.get(), "Tab").attribute_name, "ttl_a");
  ASSERT_OK(db->UpdateTimeToLive(Ttl("Tab", false, "ttl_a")).status());
  EXPECT_THAT(db->UpdateTimeToLive(Ttl("Tab", false, "ttl_a")),
              StatusIs(ErrorCode::kValidation, "TimeToLive is already disabled"));
  // A key attribute is accepted, as DynamoDB does.
  ASSERT_OK(db->UpdateTimeToLive(Ttl("Tab", true, "sk")).status());
}

TEST(TtlSettingsTest, EnablingAndDisablingForTheStatusDelayOnTheClock) {
  EngineOptions options = TestEngine::Options();
  options.ttl_status_delay_micros = 60'000'000;
  TestEngine db(options);
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  ASSERT_OK(db->UpdateTimeToLive(Ttl("Tab", true, "expires")).status());
  TimeToLiveDescription d = Describe(db.engine.get(), "Tab");
  EXPECT_EQ(d.status, TimeToLiveStatus::kEnabling);
  EXPECT_EQ(d.attribute_name, "expires");
  db.clock.Advance(60'000'000 - 1);
  EXPECT_EQ(Describe(db.engine.get(), "Tab").status, TimeToLiveStatus::kEnabling);
  db.clock.Advance(1);
  d = Describe(db.engine.get(), "Tab");
  EXPECT_EQ(d.status, TimeToLiveStatus::kEnabled);
  EXPECT_EQ(d.attribute_name, "expires");

  ASSERT_OK(db->UpdateTimeToLive(Ttl("Tab", false, "expires")).status());
  d = Describe(db.engine.get(), "Tab");
  EXPECT_EQ(d.status, TimeToLiveStatus::kDisabling);
  EXPECT_EQ(d.attribute_name, "expires");
  db.clock.Advance(60'000'000);
  d = Describe(db.engine.get(), "Tab");
  EXPECT_EQ(d.status, TimeToLiveStatus::kDisabled);
  EXPECT_FALSE(d.attribute_name.has_value());
  EXPECT_EQ(TimeToLiveStatusName(TimeToLiveStatus::kEnabling), "ENABLING");
  EXPECT_EQ(TimeToLiveStatusName(TimeToLiveStatus::kDisabling), "DISABLING");
}

TEST(TtlSettingsTest, MissingTableIsResourceNotFound) {
  TestEngine db;
  const char* message = "Requested resource not found: Table: Nope not found";
  EXPECT_THAT(db->UpdateTimeToLive(Ttl("Nope", true, "x")),
              StatusIs(ErrorCode::kResourceNotFound, message));
  DescribeTimeToLiveRequest req;
  req.table_name = "Nope";
  EXPECT_THAT(db->DescribeTimeToLive(req),
              StatusIs(ErrorCode::kResourceNotFound, message));
  TimeToLiveSweepRequest sweep;
  sweep.table_name = "Nope";
  EXPECT_THAT(db->RunTimeToLiveSweep(sweep),
              StatusIs(ErrorCode::kResourceNotFound, message));
}

TEST(TtlSettingsTest, CooldownOnTheClockWhenConfigured) {
  EngineOptions options = TestEngine::Options();
  options.ttl_change_cooldown_micros = int64_t{3600} * 1'000'000;
  TestEngine db(options);
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  ASSERT_OK(db->UpdateTimeToLive(Ttl("Tab", true, "exp")).status());
  // The content checks come first, as in DynamoDB.
  EXPECT_THAT(db->UpdateTimeToLive(Ttl("Tab", true, "exp")),
              StatusIs(ErrorCode::kValidation, "TimeToLive is already enabled"));
  EXPECT_THAT(db->UpdateTimeToLive(Ttl("Tab", false, "exp")),
              StatusIs(ErrorCode::kValidation,
                       "Time to live has been modified multiple times within a "
                       "fixed interval"));
  EXPECT_EQ(Describe(db.engine.get(), "Tab").status, TimeToLiveStatus::kEnabled);
  db.clock.Advance(int64_t{3600} * 1'000'000);
  ASSERT_OK(db->UpdateTimeToLive(Ttl("Tab", false, "exp")).status());
}

TEST(TtlSettingsTest, SettingSurvivesRestartAndGoesWithTheTable) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("dynarock_ttl_settings_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  SimulatedClock clock;
  EngineOptions options = TestEngine::Options();
  options.in_memory = false;
  options.path = dir.string();
  options.clock = &clock;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ASSERT_OK(db->CreateTable(SimpleTable("Keep")).status());
    ASSERT_OK(db->CreateTable(SimpleTable("Gone")).status());
    ASSERT_OK(db->UpdateTimeToLive(Ttl("Keep", true, "exp")).status());
    ASSERT_OK(db->UpdateTimeToLive(Ttl("Gone", true, "exp")).status());
    // UpdateTable after the TTL change keeps it.
    UpdateTableRequest up;
    up.table_name = "Keep";
    up.deletion_protection_enabled = true;
    ASSERT_OK(db->UpdateTable(up).status());
    DeleteTableRequest del;
    del.table_name = "Gone";
    ASSERT_OK(db->DeleteTable(del).status());
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    TimeToLiveDescription d = Describe(db.get(), "Keep");
    EXPECT_EQ(d.status, TimeToLiveStatus::kEnabled);
    EXPECT_EQ(d.attribute_name, "exp");
    // A table created again under a deleted one's name starts without TTL.
    ASSERT_OK(db->CreateTable(SimpleTable("Gone")).status());
    EXPECT_EQ(Describe(db.get(), "Gone").status, TimeToLiveStatus::kDisabled);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock
