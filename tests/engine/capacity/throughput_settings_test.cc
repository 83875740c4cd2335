// OnDemandThroughput and WarmThroughput rules and messages
// (engine/capacity/throughput_settings.h), as recorded from live DynamoDB
// tables.

#include "engine/capacity/throughput_settings.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

using ::testing::Eq;

constexpr BillingMode kOnDemand = BillingMode::kPayPerRequest;
constexpr BillingMode kProvisioned = BillingMode::kProvisioned;
const CapacityOptions kOptions{};  // 12,000 / 4,000 warm; 40,000 quotas

OnDemandThroughput Max(std::optional<int64_t> read, std::optional<int64_t> write) {
  return OnDemandThroughput{read, write};
}
WarmThroughput Warm(std::optional<int64_t> read, std::optional<int64_t> write) {
  return WarmThroughput{read, write};
}

Result<ThroughputSettings> New(BillingMode mode, std::optional<OnDemandThroughput> odt,
                               std::optional<WarmThroughput> warm = {},
                               std::string_view index = {},
                               std::optional<ProvisionedThroughput> pt = {}) {
  return NewThroughputSettings(index, mode, pt, odt, warm, kOptions, "us-east-1");
}

TEST(ThroughputSettingsTest, NewOnDemandDefaultsToTheInitialThroughput) {
  ASSERT_OK_AND_ASSIGN(ThroughputSettings s, New(kOnDemand, {}));
  EXPECT_EQ(s, (ThroughputSettings{0, 0, 12000, 4000}));
}

TEST(ThroughputSettingsTest, NewProvisionedWarmIsItsUnits) {
  ASSERT_OK_AND_ASSIGN(ThroughputSettings s,
                       New(kProvisioned, {}, {}, {}, ProvisionedThroughput{5, 7}));
  EXPECT_EQ(s, (ThroughputSettings{0, 0, 5, 7}));
}

TEST(ThroughputSettingsTest, NewMaximaAndOneWarmMember) {
  ASSERT_OK_AND_ASSIGN(ThroughputSettings s,
                       New(kOnDemand, Max(100, std::nullopt), Warm(12001, std::nullopt)));
  EXPECT_EQ(s, (ThroughputSettings{100, 0, 12001, 4000}));
  // An empty struct is accepted, as by DynamoDB.
  ASSERT_OK_AND_ASSIGN(s, New(kOnDemand, Max(std::nullopt, std::nullopt),
                              Warm(std::nullopt, std::nullopt)));
  EXPECT_EQ(s, (ThroughputSettings{0, 0, 12000, 4000}));
}

TEST(ThroughputSettingsTest, NewMaximumOutOfRange) {
  for (int64_t v : {0, -1, -2}) {
    EXPECT_THAT(New(kOnDemand, Max(v, v)).status(),
                StatusIs(ErrorCode::kValidation,
                         Eq("One or more parameter values were invalid: Requested "
                            "MaxReadRequestUnits for OnDemandThroughput for table is "
                            "outside of valid range")));
  }
  EXPECT_THAT(New(kOnDemand, Max(std::nullopt, 0)).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Requested "
                          "MaxWriteRequestUnits for OnDemandThroughput for table is "
                          "outside of valid range")));
  EXPECT_THAT(New(kOnDemand, Max(0, 5), {}, "g-a").status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Requested "
                          "MaxReadRequestUnits for OnDemandThroughput for index : g-a "
                          "is outside of valid range")));
}

TEST(ThroughputSettingsTest, NewMaximumPastTheQuota) {
  EXPECT_THAT(New(kOnDemand, Max(40001, 5)).status(),
              StatusIs(ErrorCode::kLimitExceeded,
                       Eq("Subscriber limit exceeded: Requested MaxReadRequestUnits for "
                          "OnDemandThroughput for table exceeds TableMaxReadCapacityUnits "
                          "of the account in region us-east-1")));
  EXPECT_OK(New(kOnDemand, Max(40000, 40000)).status());
}

TEST(ThroughputSettingsTest, MaximaOnlyOnDemand) {
  EXPECT_THAT(New(kProvisioned, Max(10, 10), {}, {}, ProvisionedThroughput{1, 1}).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: MaxReadRequestUnits "
                          "for OnDemandThroughput cannot be specified when the table "
                          "BillingMode is PROVISIONED")));
  EXPECT_THAT(New(kProvisioned, Max(std::nullopt, 10), {}, "g-a",
                  ProvisionedThroughput{1, 1})
                  .status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: MaxWriteRequestUnits "
                          "for OnDemandThroughput for index: g-a cannot be specified when "
                          "the table BillingMode is PROVISIONED")));
}

TEST(ThroughputSettingsTest, NewWarmBelowTheFloor) {
  EXPECT_THAT(New(kOnDemand, {}, Warm(1, 1)).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Requested "
                          "ReadUnitsPerSecond for WarmThroughput for table is lower than "
                          "initial throughput for OnDemand. See: "
                          "https://docs.aws.amazon.com/amazondynamodb/latest/"
                          "developerguide/on-demand-capacity-mode.html"
                          "#on-demand-capacity-mode-initial")));
  EXPECT_THAT(New(kOnDemand, {}, Warm(12000, 3999), "g-a").status(),
              StatusIs(ErrorCode::kValidation,
                       ::testing::StartsWith(
                           "One or more parameter values were invalid: Requested "
                           "WriteUnitsPerSecond for WarmThroughput for index g-a is lower "
                           "than initial throughput for OnDemand.")));
  EXPECT_THAT(New(kProvisioned, {}, Warm(5, 5), {}, ProvisionedThroughput{10, 10}).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Requested "
                          "ReadUnitsPerSecond for WarmThroughput for table is lower than "
                          "ReadCapacityUnits of ProvisionedThroughput")));
  EXPECT_THAT(New(kOnDemand, {}, Warm(12000, 40001)).status(),
              StatusIs(ErrorCode::kLimitExceeded,
                       Eq("Subscriber limit exceeded: Requested WriteUnitsPerSecond for "
                          "WarmThroughput for table exceeds TableMaxWriteCapacityUnits of "
                          "the account in region us-east-1")));
}

Status Update(ThroughputSettings* s, std::optional<OnDemandThroughput> odt,
              std::optional<WarmThroughput> warm, BillingMode mode = kOnDemand,
              std::string_view index = {}) {
  return UpdateThroughputSettings(index, mode, ProvisionedThroughputDescription{}, odt,
                                  warm, kOptions, "us-east-1", s);
}

TEST(ThroughputSettingsTest, UpdateMergesMaximaAndMinusOneRemoves) {
  ThroughputSettings s{0, 0, 12000, 4000};
  ASSERT_OK(Update(&s, Max(1000, 500), {}));
  EXPECT_EQ(s, (ThroughputSettings{1000, 500, 12000, 4000}));
  ASSERT_OK(Update(&s, Max(2000, std::nullopt), {}));
  EXPECT_EQ(s, (ThroughputSettings{2000, 500, 12000, 4000}));
  ASSERT_OK(Update(&s, Max(std::nullopt, -1), {}));
  EXPECT_EQ(s, (ThroughputSettings{2000, 0, 12000, 4000}));
  EXPECT_THAT(Update(&s, Max(-2, std::nullopt), {}),
              StatusIs(ErrorCode::kValidation,
                       ::testing::HasSubstr("MaxReadRequestUnits for OnDemandThroughput "
                                            "for table is outside of valid range")));
  // Nothing changed by the refused request.
  EXPECT_EQ(s, (ThroughputSettings{2000, 0, 12000, 4000}));
}

TEST(ThroughputSettingsTest, UpdateWarmNeverDecreases) {
  ThroughputSettings s;  // a record without warm throughput: the default
  ASSERT_OK(Update(&s, {}, Warm(12000, 4000)));  // equal is accepted
  ASSERT_OK(Update(&s, {}, Warm(std::nullopt, 4002)));
  EXPECT_EQ(s, (ThroughputSettings{0, 0, 12000, 4002}));
  EXPECT_THAT(Update(&s, {}, Warm(11999, std::nullopt), kOnDemand, "gsi1"),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Requested "
                          "ReadUnitsPerSecond for WarmThroughput for index gsi1 is lower "
                          "than current WarmThroughput, decreasing WarmThroughput is not "
                          "supported")));
}

TEST(ThroughputSettingsTest, WarmFollowsTheCapacity) {
  // Provisioned 1 -> 3 -> 1: the warm throughput keeps the highest.
  ThroughputSettings s{0, 0, 1, 1};
  ProvisionedThroughputDescription pt;
  pt.read_capacity_units = 3;
  pt.write_capacity_units = 3;
  FollowCapacity({1, 1}, kProvisioned, pt, kOptions, &s);
  EXPECT_EQ(s, (ThroughputSettings{0, 0, 3, 3}));
  pt.read_capacity_units = 1;
  pt.write_capacity_units = 1;
  FollowCapacity(EffectiveWarm(s, kProvisioned, pt, kOptions), kProvisioned, pt,
                 kOptions, &s);
  EXPECT_EQ(s, (ThroughputSettings{0, 0, 3, 3}));
  // On demand: at least the initial throughput, kept after switching back;
  // the maxima go with the on-demand mode.
  FollowCapacity({3, 3}, kOnDemand, ProvisionedThroughputDescription{}, kOptions, &s);
  EXPECT_EQ(s, (ThroughputSettings{0, 0, 12000, 4000}));
  s.max_read_request_units = 100;
  FollowCapacity({12000, 4000}, kProvisioned, pt, kOptions, &s);
  EXPECT_EQ(s, (ThroughputSettings{0, 0, 12000, 4000}));
}

}  // namespace
}  // namespace dynarock
