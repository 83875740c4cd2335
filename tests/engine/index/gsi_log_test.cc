#include "engine/index/gsi_log.h"

#include <gtest/gtest.h>

#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

TEST(GsiLogTest, RecordsRoundTrip) {
  GsiLogRecord r;
  r.time_micros = -5;
  r.delete_key = std::string("old\0key", 7);
  r.put_key = "new";
  r.put_value = std::string("\0\1\2", 3);
  std::string bytes;
  EncodeGsiLogRecord(r, &bytes);
  ASSERT_OK_AND_ASSIGN(GsiLogRecord back, DecodeGsiLogRecord(bytes));
  EXPECT_EQ(back.time_micros, -5);
  EXPECT_EQ(back.delete_key, r.delete_key);
  EXPECT_EQ(back.put_key, r.put_key);
  EXPECT_EQ(back.put_value, r.put_value);

  GsiLogRecord only_delete;
  only_delete.delete_key = "k";
  bytes.clear();
  EncodeGsiLogRecord(only_delete, &bytes);
  ASSERT_OK_AND_ASSIGN(back, DecodeGsiLogRecord(bytes));
  EXPECT_FALSE(back.put_key.has_value());
  EXPECT_EQ(back.delete_key, std::optional<std::string>("k"));
}

TEST(GsiLogTest, CorruptRecordsAreRefused) {
  GsiLogRecord r;
  r.put_key = "k";
  std::string bytes;
  EncodeGsiLogRecord(r, &bytes);
  EXPECT_THAT(DecodeGsiLogRecord(bytes.substr(0, bytes.size() - 1)).status(),
              StatusIs(ErrorCode::kCorruption, ::testing::_));
  EXPECT_THAT(DecodeGsiLogRecord(bytes + "x").status(),
              StatusIs(ErrorCode::kCorruption, ::testing::_));
  EXPECT_THAT(DecodeGsiLogRecord("").status(),
              StatusIs(ErrorCode::kCorruption, ::testing::_));
}

TEST(GsiLogTest, KeysSortByIndexThenSequence) {
  EXPECT_LT(GsiLogKey(1, 900), GsiLogKey(2, 1));
  EXPECT_LT(GsiLogKey(2, 255), GsiLogKey(2, 256));
  uint32_t id;
  uint64_t seq;
  ASSERT_OK(ParseGsiLogKey(GsiLogKey(42, 1ull << 40), &id, &seq));
  EXPECT_EQ(id, 42u);
  EXPECT_EQ(seq, 1ull << 40);
  EXPECT_THAT(ParseGsiLogKey("short", &id, &seq),
              StatusIs(ErrorCode::kCorruption, ::testing::_));
}

TEST(SequenceTrackerTest, WatermarkStaysBelowUnsettledNumbers) {
  SequenceTracker t;
  t.Reset(10);
  EXPECT_EQ(t.Watermark(), 11u);
  auto a = t.Reserve(100);
  auto b = t.Reserve(50);  // clock went back: time is raised to 100
  EXPECT_EQ(a.seq, 11u);
  EXPECT_EQ(b.seq, 12u);
  EXPECT_EQ(b.time_micros, 100);
  EXPECT_EQ(t.Watermark(), 11u);
  t.Release(b.seq);  // a later number settles first
  EXPECT_EQ(t.Watermark(), 11u);
  t.Release(a.seq);
  EXPECT_EQ(t.Watermark(), 13u);
}

}  // namespace
}  // namespace dynarock
