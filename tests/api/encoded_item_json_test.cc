#include "api/encoded_item_json.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "api/json_codec.h"
#include "engine/value/item_codec.h"
#include "engine/value/number.h"
#include "tests/testutil/random_item.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::api {
namespace {

using AV = AttributeValue;

// The text the Json path produces for an item.
std::string ViaJson(const Item& item) { return DumpJson(EncodeItem(item)); }

std::string ViaEncoding(const Item& item) {
  std::string encoded;
  dynarock::EncodeItem(item, &encoded);
  std::string out = "prefix";
  EXPECT_OK(AppendEncodedItemJson(encoded, &out));
  return out.substr(6);
}

// AppendItemJson: the same text from the decoded item.
std::string ViaItem(const Item& item) {
  std::string out = "prefix";
  AppendItemJson(item, &out);
  return out.substr(6);
}

TEST(EncodedItemJsonTest, SameTextAsTheJsonPathForRandomItems) {
  std::mt19937 rng(17);
  for (int i = 0; i < 5000; ++i) {
    const Item item = RandomItem(rng);
    ASSERT_EQ(ViaEncoding(item), ViaJson(item)) << i;
    ASSERT_EQ(ViaItem(item), ViaJson(item)) << i;
  }
}

TEST(EncodedItemJsonTest, EveryTypeAndEmptyCollections) {
  const Item item{{
      {"s", AV::S("a\"b\\c/d\x01\x1f\x7f\t\n\r\b\f \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80")},
      {"empty", AV::S("")},
      {"b", AV::B(std::string("\0\xff\x10", 3))},
      {"eb", AV::B("")},
      {"n", AV::N(*Number::Parse("-0.000123e-5"))},
      {"z", AV::N(Number())},
      {"t", AV::Bool(true)},
      {"f", AV::Bool(false)},
      {"nul", AV::Null()},
      {"l", AV::L({})},
      {"m", AV::M({})},
      {"ml", AV::M({{"x", AV::L({AV::L({AV::M({{"\"q", AV::Null()}})})})}})},
      {"ss", AV::SS({"", "x"})},
      {"bs", AV::BS({std::string("\x80", 1)})},
      {"ns", AV::NS({*Number::Parse("1e100"), *Number::Parse("-5")})},
      {"\xe2\x80\xa8name\x02", AV::S("v")},
  }};
  EXPECT_EQ(ViaEncoding(item), ViaJson(item));
  EXPECT_EQ(ViaItem(item), ViaJson(item));
  EXPECT_EQ(ViaEncoding(Item()), "{}");
  EXPECT_EQ(ViaItem(Item()), "{}");
}

// Strings of arbitrary bytes, valid UTF-8 or not: the escaping (and the
// replacement of bytes that are not UTF-8) is nlohmann's.
TEST(EncodedItemJsonTest, StringsEscapeAsDumpJson) {
  std::mt19937 rng(23);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> len(0, 12);
  for (int i = 0; i < 50000; ++i) {
    std::string s(static_cast<size_t>(len(rng)), '\0');
    for (char& c : s) c = static_cast<char>(byte(rng));
    std::string out;
    AppendJsonString(s, &out);
    ASSERT_EQ(out, DumpJson(Json(s))) << i;
  }
  for (const char* s : {"\xed\xa0\x80", "\xc0\x80", "\xf4\x90\x80\x80",
                        "\xef\xbf\xbf", "\xf4\x8f\xbf\xbf", "\xe0\xa0\x80"}) {
    std::string out;
    AppendJsonString(s, &out);
    EXPECT_EQ(out, DumpJson(Json(std::string(s))));
  }
}

// Plain text is copied eight bytes at a time: one byte that needs care (or
// the plain bytes at the edges of what needs care: ' ', '~', 0x7f) at every
// position of strings of every length up to 40, so that it falls at every
// offset of an 8-byte window and in the tail.
TEST(EncodedItemJsonTest, OneSpecialByteAtEveryPositionOfPlainText) {
  const std::vector<std::string> specials = {
      "\"", "\\", std::string(1, '\0'), "\x1f", "\n", " ", "~", "\x7f",
      "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "\xff", "\x80"};
  for (size_t len = 0; len <= 40; ++len) {
    for (size_t pos = 0; pos <= len; ++pos) {
      for (const std::string& special : specials) {
        std::string s(len, 'a');
        s.insert(pos, special);
        std::string out = "prefix";
        AppendJsonString(s, &out);
        ASSERT_EQ(out, "prefix" + DumpJson(Json(s))) << len << " " << pos;
      }
    }
  }
}

TEST(EncodedItemJsonTest, CorruptEncodingIsAnError) {
  std::string out;
  EXPECT_EQ(AppendEncodedItemJson("\x01\x05", &out).code(), ErrorCode::kCorruption);
}

}  // namespace
}  // namespace dynarock::api
