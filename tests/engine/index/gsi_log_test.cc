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

TEST(GsiLogTest, SizesRoundTrip) {
  GsiLogRecord r;
  r.time_micros = 7;
  r.delete_key = "old";
  r.put_key = "new";
  r.put_value = "v";
  r.sizes_known = true;
  r.deleted_size = 400;
  r.overwritten_size = -1;
  std::string bytes;
  EncodeGsiLogRecord(r, &bytes);
  ASSERT_OK_AND_ASSIGN(GsiLogRecord back, DecodeGsiLogRecord(bytes));
  EXPECT_TRUE(back.sizes_known);
  EXPECT_EQ(back.deleted_size, 400);
  EXPECT_EQ(back.overwritten_size, -1);
  EXPECT_EQ(back.put_value, "v");

  GsiLogRecord only_put;
  only_put.put_key = "k";
  only_put.sizes_known = true;
  only_put.overwritten_size = 1ll << 40;
  bytes.clear();
  EncodeGsiLogRecord(only_put, &bytes);
  ASSERT_OK_AND_ASSIGN(back, DecodeGsiLogRecord(bytes));
  EXPECT_TRUE(back.sizes_known);
  EXPECT_EQ(back.overwritten_size, 1ll << 40);
  EXPECT_FALSE(back.delete_key.has_value());

  GsiLogRecord unknown;
  unknown.delete_key = "k";
  bytes.clear();
  EncodeGsiLogRecord(unknown, &bytes);
  ASSERT_OK_AND_ASSIGN(back, DecodeGsiLogRecord(bytes));
  EXPECT_FALSE(back.sizes_known);
}

TEST(GsiLogTest, VersionOneRecordsStillDecode) {
  // version 1 | time 3 (zigzag 6) | flags: delete + put | "d" | "p" | "v":
  // a record as written before sizes existed.
  const std::string v1("\x01\x06\x03\x01" "d" "\x01" "p" "\x01" "v", 9);
  ASSERT_OK_AND_ASSIGN(GsiLogRecord back, DecodeGsiLogRecord(v1));
  EXPECT_EQ(back.time_micros, 3);
  EXPECT_EQ(back.delete_key, std::optional<std::string>("d"));
  EXPECT_EQ(back.put_key, std::optional<std::string>("p"));
  EXPECT_EQ(back.put_value, "v");
  EXPECT_FALSE(back.sizes_known);
  // Version 1 had no sizes: the flag is corruption there.
  std::string with_sizes = v1;
  with_sizes[2] = '\x07';
  with_sizes += std::string("\x05\x02", 2);
  EXPECT_THAT(DecodeGsiLogRecord(with_sizes).status(),
              StatusIs(ErrorCode::kCorruption, ::testing::_));
  with_sizes[0] = '\x02';
  ASSERT_OK_AND_ASSIGN(back, DecodeGsiLogRecord(with_sizes));
  EXPECT_EQ(back.deleted_size, 5);
  EXPECT_EQ(back.overwritten_size, 1);
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
  std::string other_version = bytes;
  other_version[0] = '\x03';
  EXPECT_THAT(DecodeGsiLogRecord(other_version).status(),
              StatusIs(ErrorCode::kCorruption, ::testing::_));

  GsiLogRecord sized;
  sized.delete_key = "d";
  sized.put_key = "p";
  sized.sizes_known = true;
  sized.deleted_size = 300;
  sized.overwritten_size = -2;  // below "none"
  bytes.clear();
  EncodeGsiLogRecord(sized, &bytes);
  EXPECT_THAT(DecodeGsiLogRecord(bytes).status(),
              StatusIs(ErrorCode::kCorruption, ::testing::_));
  sized.overwritten_size = 10;
  bytes.clear();
  EncodeGsiLogRecord(sized, &bytes);
  EXPECT_THAT(DecodeGsiLogRecord(bytes.substr(0, bytes.size() - 1)).status(),
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
