// The point-in-time recovery log (engine/backup/pitr_log.cc), a change hook
// of the write path: entries only for logging tables, keyed table | time | item key so that a table's log is
// one range in time order, and parsed back.
#include "engine/backup/pitr_log.h"

#include <gtest/gtest.h>

#include "engine/clock.h"
#include "engine/keys/key_codec.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

TEST(PitrLogTest, LogsOnlyTablesThatLog) {
  SimulatedClock clock;
  PitrLog log(&clock);
  WriteBatch batch;
  const std::string key = keys::ItemKey(7, AttributeValue::S("a"), nullptr);
  const std::string value = "encoded";
  TableInfo seven, eight;
  seven.id = 7;
  eight.id = 8;
  ASSERT_OK(log.Stage(seven, key, &value, nullptr, &batch));
  EXPECT_TRUE(batch.empty());
  log.SetLogging(7, true);
  EXPECT_TRUE(log.Logging(7));
  EXPECT_FALSE(log.Logging(8));
  ASSERT_OK(log.Stage(eight, key, &value, nullptr, &batch));
  EXPECT_TRUE(batch.empty());
  ASSERT_OK(log.Stage(seven, key, &value, nullptr, &batch));
  EXPECT_FALSE(batch.empty());
  log.SetLogging(7, false);
  EXPECT_FALSE(log.Logging(7));
}

TEST(PitrLogTest, KeysOrderByTableThenTimeAndParseBack) {
  const std::string suffix = "item-key";
  const std::string k1 = PitrLog::LogKey(3, 100, suffix);
  const std::string k2 = PitrLog::LogKey(3, 101, "a");
  EXPECT_LT(k1, k2);
  EXPECT_LT(k2, PitrLog::LogKey(4, 0, ""));
  EXPECT_GE(k1, PitrLog::LogBegin(3));
  EXPECT_LT(k1, PitrLog::LogEnd(3, 100));  // inclusive of 100
  EXPECT_GE(k2, PitrLog::LogEnd(3, 100));
  // The Change views the value: it must outlive the Change.
  const std::string put_value = "\1bytes";
  ASSERT_OK_AND_ASSIGN(PitrLog::Change put, PitrLog::ParseEntry(k1, put_value));
  EXPECT_EQ(put.micros, 100);
  EXPECT_EQ(put.suffix, suffix);
  ASSERT_TRUE(put.value.has_value());
  EXPECT_EQ(*put.value, "bytes");
  const std::string del_value(1, '\0');
  ASSERT_OK_AND_ASSIGN(PitrLog::Change del, PitrLog::ParseEntry(k2, del_value));
  EXPECT_FALSE(del.value.has_value());
  EXPECT_FALSE(PitrLog::ParseEntry("short", "\1").ok());
}

}  // namespace
}  // namespace dynarock
