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

}  // namespace
}  // namespace dynarock
