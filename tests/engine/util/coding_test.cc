#include "engine/util/coding.h"

#include <gtest/gtest.h>

#include <limits>

namespace dynarock {
namespace {

TEST(CodingTest, VarintsRoundTrip) {
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{127}, uint64_t{128},
                     uint64_t{300}, std::numeric_limits<uint64_t>::max()}) {
    std::string buf;
    PutVarint64(&buf, v);
    std::string_view in = buf;
    uint64_t out = 0;
    ASSERT_TRUE(GetVarint64(&in, &out));
    EXPECT_EQ(out, v);
    EXPECT_TRUE(in.empty());
  }
}

TEST(CodingTest, SignedVarintsRoundTrip) {
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, int64_t{-64}, int64_t{1} << 40,
                    std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    std::string buf;
    PutSignedVarint64(&buf, v);
    std::string_view in = buf;
    int64_t out = 0;
    ASSERT_TRUE(GetSignedVarint64(&in, &out));
    EXPECT_EQ(out, v);
  }
}

TEST(CodingTest, FixedBigEndianSortsNumerically) {
  std::string a, b;
  PutFixed64BE(&a, 255);
  PutFixed64BE(&b, 256);
  EXPECT_LT(a, b);
  std::string_view in = b;
  uint64_t v;
  ASSERT_TRUE(GetFixed64BE(&in, &v));
  EXPECT_EQ(v, 256u);
}

TEST(CodingTest, ShortInputIsRejectedNotOverread) {
  std::string buf;
  PutLengthPrefixed(&buf, "hello");
  std::string_view in(buf.data(), buf.size() - 1);
  std::string_view s;
  EXPECT_FALSE(GetLengthPrefixed(&in, &s));
  std::string_view cont = "\x80\x80";
  uint64_t v;
  EXPECT_FALSE(GetVarint64(&cont, &v));
  std::string_view three = "abc";
  uint32_t u;
  EXPECT_FALSE(GetFixed32BE(&three, &u));
}

TEST(CodingTest, OptionalsRoundTripThroughRecordReader) {
  std::string buf;
  PutOptionalString(&buf, std::nullopt);
  PutOptionalString(&buf, std::string(""));
  PutOptionalString(&buf, std::string("arn:x"));
  PutOptionalSigned(&buf, std::nullopt);
  PutOptionalSigned(&buf, int64_t{-5});
  PutOptionalSigned(&buf, int64_t{1'700'000'000'000'000});
  // Absent is one zero byte; present is a one byte and the value.
  EXPECT_EQ(buf.substr(0, 3), std::string("\x00\x01\x00", 3));
  RecordReader r(buf);
  EXPECT_EQ(r.OptionalString(), std::nullopt);
  EXPECT_EQ(r.OptionalString(), std::optional<std::string>(""));
  EXPECT_EQ(r.OptionalString(), std::optional<std::string>("arn:x"));
  EXPECT_EQ(r.OptionalSigned(), std::nullopt);
  EXPECT_EQ(r.OptionalSigned(), std::optional<int64_t>(-5));
  EXPECT_EQ(r.OptionalSigned(), std::optional<int64_t>(1'700'000'000'000'000));
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.in.empty());
  // A present value cut short latches the reader's error.
  RecordReader cut(std::string_view("\x01", 1));
  cut.OptionalSigned();
  EXPECT_FALSE(cut.ok);
}

TEST(CodingTest, RecordWriterWritesWhatRecordReaderReads) {
  enum class Kind : uint8_t { kA = 1, kB = 7 };
  std::string buf;
  RecordWriter w(&buf);
  w.Byte(uint8_t{3});  // a version
  w.Varint(300);
  w.Signed(-42);
  w.String("key");
  w.Byte(Kind::kB);
  w.Bool(true);
  w.OptionalString(std::nullopt);
  w.OptionalSigned(int64_t{9});
  // The same bytes as the primitives.
  std::string want(1, '\x03');
  PutVarint64(&want, 300);
  PutSignedVarint64(&want, -42);
  PutLengthPrefixed(&want, "key");
  want.push_back(7);
  want.push_back(1);
  PutOptionalString(&want, std::nullopt);
  PutOptionalSigned(&want, int64_t{9});
  EXPECT_EQ(buf, want);
  RecordReader r(buf);
  EXPECT_EQ(r.Byte(), 3);
  EXPECT_EQ(r.Varint(), 300u);
  EXPECT_EQ(r.Signed(), -42);
  EXPECT_EQ(r.String(), "key");
  EXPECT_EQ(r.Byte(), static_cast<uint8_t>(Kind::kB));
  EXPECT_EQ(r.Byte(), 1);
  EXPECT_EQ(r.OptionalString(), std::nullopt);
  EXPECT_EQ(r.OptionalSigned(), std::optional<int64_t>(9));
  EXPECT_TRUE(r.ok);
  EXPECT_TRUE(r.in.empty());
}

}  // namespace
}  // namespace dynarock
