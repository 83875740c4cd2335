#include "engine/value/item_codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/types.h"
#include "engine/value/number.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

using AV = AttributeValue;
using ::testing::_;

Number Num(std::string_view text) {
  Result<Number> n = Number::Parse(text);
  EXPECT_TRUE(n.ok()) << text;
  return n.ok() ? *n : Number();
}
AV N(std::string_view text) { return AV::N(Num(text)); }

std::string Encode(const AV& v) {
  std::string out;
  EncodeAttributeValue(v, &out);
  return out;
}
std::string Encode(const Item& item) {
  std::string out;
  EncodeItem(item, &out);
  return out;
}

// Nests `leaf` inside `depth` lists (or maps with key "k").
AV NestLists(AV leaf, int depth) {
  for (int i = 0; i < depth; ++i) leaf = AV::L({std::move(leaf)});
  return leaf;
}
AV NestMaps(AV leaf, int depth) {
  for (int i = 0; i < depth; ++i) leaf = AV::M({{"k", std::move(leaf)}});
  return leaf;
}

// Every type, including the empty and nested corner cases.
std::vector<std::pair<std::string, AV>> AllKindsOfValue() {
  return {
      {"S", AV::S("hello")},
      {"EmptyS", AV::S("")},
      {"LongS", AV::S(std::string(70000, 'q'))},  // 3-byte varint length
      {"Utf8S", AV::S("h\xc3\xa9llo \xf0\x9f\x98\x80")},
      {"B", AV::B(std::string("\x00\xff\x10\x80", 4))},
      {"EmptyB", AV::B("")},
      {"Zero", N("0")},
      {"One", N("1")},
      {"Negative", N("-12.5")},
      {"OddDigits", N("123")},
      {"MaxDigits", N("-12345678901234567890123456789012345678")},
      {"Largest", N("9.9999999999999999999999999999999999999E+125")},
      {"Smallest", N("1E-130")},
      {"NegativeSmallest", N("-1E-130")},
      {"True", AV::Bool(true)},
      {"False", AV::Bool(false)},
      {"Null", AV::Null()},
      {"EmptyL", AV::L({})},
      {"EmptyM", AV::M({})},
      {"L", AV::L({AV::S("a"), N("2"), AV::Null(), AV::L({}), AV::M({})})},
      {"M", AV::M({{"a", AV::S("x")},
                   {"", AV::Bool(true)},
                   {"\xc3\xa9", AV::B("y")}})},
      {"SS", AV::SS({"b", "a", ""})},
      {"NS", AV::NS({Num("3"), Num("-1.5"), Num("0"), Num("1e100")})},
      {"BS", AV::BS({std::string("\x00", 1), "", "\xff"})},
      {"Lists32Deep", NestLists(AV::S("leaf"), 32)},
      {"Maps32Deep", NestMaps(N("7"), 32)},
      {"EmptyMaps32Deep", NestMaps(AV::M({}), 31)},
      {"Mixed", AV::M({{"l", AV::L({AV::M({{"ns", AV::NS({Num("1")})},
                                           {"bs", AV::BS({"z"})}}),
                                    AV::SS({"q"})})}})},
  };
}

TEST(ItemCodecTest, EveryKindOfValueRoundTrips) {
  for (const auto& [label, value] : AllKindsOfValue()) {
    const std::string bytes = Encode(value);
    std::string_view in = bytes;
    Result<AV> decoded = DecodeAttributeValue(&in);
    ASSERT_OK(decoded) << label;
    EXPECT_TRUE(*decoded == value) << label;
    EXPECT_EQ(decoded->type(), value.type()) << label;
    EXPECT_TRUE(in.empty()) << label << ": " << in.size() << " bytes left";
    // Re-encoding is byte-identical: the format has one spelling per value.
    EXPECT_EQ(Encode(*decoded), bytes) << label;
  }
}

TEST(ItemCodecTest, SetMemberOrderIsPreserved) {
  // Equality ignores set order, so check the members directly.
  const AV ss = AV::SS({"c", "a", "b"});
  std::string bytes = Encode(ss);
  std::string_view in = bytes;
  ASSERT_OK_AND_ASSIGN(AV decoded, DecodeAttributeValue(&in));
  EXPECT_EQ(decoded.ss(), (std::vector<std::string>{"c", "a", "b"}));
}

TEST(ItemCodecTest, ItemRoundTrips) {
  Item item;
  for (auto& [label, value] : AllKindsOfValue()) item[label] = value;
  const std::string bytes = Encode(item);
  ASSERT_OK_AND_ASSIGN(Item decoded, DecodeItem(bytes));
  ASSERT_EQ(decoded.size(), item.size());
  for (const auto& [name, value] : item) {
    ASSERT_EQ(decoded.count(name), 1u) << name;
    EXPECT_TRUE(decoded.at(name) == value) << name;
  }
  EXPECT_EQ(Encode(decoded), bytes);
}

TEST(ItemCodecTest, EmptyItemRoundTrips) {
  const std::string bytes = Encode(Item());
  ASSERT_OK_AND_ASSIGN(Item decoded, DecodeItem(bytes));
  EXPECT_TRUE(decoded.empty());
}

TEST(ItemCodecTest, ValuesDecodeOneAfterAnother) {
  std::string bytes;
  EncodeAttributeValue(AV::S("first"), &bytes);
  EncodeAttributeValue(N("2"), &bytes);
  bytes += "tail";
  std::string_view in = bytes;
  ASSERT_OK_AND_ASSIGN(AV a, DecodeAttributeValue(&in));
  ASSERT_OK_AND_ASSIGN(AV b, DecodeAttributeValue(&in));
  EXPECT_TRUE(a == AV::S("first"));
  EXPECT_TRUE(b == N("2"));
  EXPECT_EQ(in, "tail");
}

// The format is written to disk: these bytes must never change.
TEST(ItemCodecTest, GoldenBytes) {
  using namespace std::string_literals;
  Item item;
  item["a"] = AV::S("b");
  EXPECT_EQ(Encode(item),
            "\x01\x01\x01"
            "a"
            "\x01\x01"
            "b"s);

  // N -12.5: head = 3 digits | negative, exponent 2 (zigzag 4), BCD 12 50.
  EXPECT_EQ(Encode(N("-12.5")), "\x02\x83\x04\x12\x50"s);
  // Zero is one byte after the tag.
  EXPECT_EQ(Encode(N("0")), "\x02\x00"s);
  // 1E-130 = 0.1E-129: exponent -129 zigzags to 257 (varint 81 02).
  EXPECT_EQ(Encode(N("1E-130")), "\x02\x01\x81\x02\x10"s);
  EXPECT_EQ(Encode(AV::Bool(true)), "\x04\x01"s);
  EXPECT_EQ(Encode(AV::Null()), "\x05"s);
  EXPECT_EQ(Encode(AV::L({AV::Null()})), "\x06\x01\x05"s);
  EXPECT_EQ(Encode(AV::M({{"k", AV::Bool(false)}})), "\x07\x01\x01k\x04\x00"s);
  EXPECT_EQ(Encode(AV::SS({"x", "yz"})), "\x08\x02\x01x\x02yz"s);
  EXPECT_EQ(Encode(AV::NS({Num("7")})), "\x09\x01\x01\x02\x70"s);
  EXPECT_EQ(Encode(AV::BS({"\xff"})), "\x0a\x01\x01\xff"s);
  EXPECT_EQ(Encode(AV::B("\x01")), "\x03\x01\x01"s);
}

TEST(ItemCodecTest, NumbersAreStoredAsDigitsNotText) {
  // 38 digits: tag + head + exponent + 19 BCD bytes, half the text.
  const std::string bytes = Encode(N("12345678901234567890123456789012345678"));
  EXPECT_EQ(bytes.size(), 1u + 1u + 1u + 19u);
}

// --- Corruption: never crash, never read past the end ------------------------

Item RichItem() {
  Item item;
  for (auto& [label, value] : AllKindsOfValue()) {
    if (label != "LongS") item[label] = value;  // keep the loops below short
  }
  return item;
}

TEST(ItemCodecTest, EveryTruncationIsCorruption) {
  const std::string bytes = Encode(RichItem());
  for (size_t len = 0; len < bytes.size(); ++len) {
    // A fresh copy of exactly `len` bytes, so ASan sees any overread.
    const std::string prefix = bytes.substr(0, len);
    EXPECT_THAT(DecodeItem(prefix), StatusIs(ErrorCode::kCorruption, _))
        << "prefix length " << len;
  }
}

TEST(ItemCodecTest, EveryValueTruncationIsCorruption) {
  for (const auto& [label, value] : AllKindsOfValue()) {
    if (label == "LongS") continue;
    const std::string bytes = Encode(value);
    for (size_t len = 0; len < bytes.size(); ++len) {
      const std::string prefix = bytes.substr(0, len);
      std::string_view in = prefix;
      EXPECT_THAT(DecodeAttributeValue(&in),
                  StatusIs(ErrorCode::kCorruption, _))
          << label << " prefix length " << len;
    }
  }
}

TEST(ItemCodecTest, TrailingBytesAreCorruption) {
  std::string bytes = Encode(RichItem());
  bytes.push_back('\0');
  EXPECT_THAT(DecodeItem(bytes), StatusIs(ErrorCode::kCorruption, _));
}

struct CorruptCase {
  std::string label;
  std::string bytes;  // a whole item
};

void PrintTo(const CorruptCase& c, std::ostream* os) { *os << c.label; }

class CorruptItemTest : public ::testing::TestWithParam<CorruptCase> {};

TEST_P(CorruptItemTest, IsCorruption) {
  EXPECT_THAT(DecodeItem(GetParam().bytes), StatusIs(ErrorCode::kCorruption, _))
      << GetParam().label;
}

// An item holding one attribute "a" whose value is `value_bytes`.
std::string OneAttribute(const std::string& value_bytes) {
  return std::string(
             "\x01\x01\x01"
             "a",
             4) +
         value_bytes;
}

std::string Deep(int depth) {
  std::string v;
  for (int i = 0; i < depth; ++i) v += std::string("\x06\x01", 2);
  v += std::string("\x05", 1);
  return v;
}

using namespace std::string_literals;

INSTANTIATE_TEST_SUITE_P(
    Cases, CorruptItemTest,
    ::testing::Values(
        CorruptCase{"Empty", ""}, CorruptCase{"UnknownVersion", "\x02\x00"s},
        CorruptCase{"TagZero", OneAttribute("\x00"s)},
        CorruptCase{"TagEleven", OneAttribute("\x0b"s)},
        CorruptCase{"TagFF", OneAttribute("\xff"s)},
        CorruptCase{"BoolTwo", OneAttribute("\x04\x02"s)},
        CorruptCase{"NegativeZero", OneAttribute("\x02\x80"s)},
        CorruptCase{"ThirtyNineDigits",
                    OneAttribute("\x02\x27\x02" + std::string(20, '\x11'))},
        CorruptCase{"ExponentTooLarge", OneAttribute("\x02\x01\xfe\x01\x10"s)},
        CorruptCase{"ExponentTooSmall", OneAttribute("\x02\x01\x83\x02\x10"s)},
        CorruptCase{"DigitNotDecimal", OneAttribute("\x02\x02\x02\x1a"s)},
        CorruptCase{"LeadingZeroDigit", OneAttribute("\x02\x02\x02\x01"s)},
        CorruptCase{"TrailingZeroDigit", OneAttribute("\x02\x02\x02\x10"s)},
        CorruptCase{"BadPadNibble", OneAttribute("\x02\x01\x02\x11"s)},
        CorruptCase{"StringLengthPastEnd", OneAttribute("\x01\x05"
                                                        "ab"s)},
        CorruptCase{"HugeStringLength",
                    OneAttribute("\x01\xff\xff\xff\xff\xff\xff\xff\xff\x7f"s)},
        CorruptCase{"HugeListCount",
                    OneAttribute("\x06\xff\xff\xff\xff\xff\xff\xff\xff\x7f"s)},
        CorruptCase{"ListCountPastEnd", OneAttribute("\x06\x03\x05\x05"s)},
        CorruptCase{"SetCountPastEnd", OneAttribute("\x08\x02\x01x"s)},
        CorruptCase{"MapNamesOutOfOrder", OneAttribute("\x07\x02\x01"
                                                       "b"
                                                       "\x05\x01"
                                                       "a"
                                                       "\x05"s)},
        CorruptCase{"MapDuplicateName", OneAttribute("\x07\x02\x01"
                                                     "a"
                                                     "\x05\x01"
                                                     "a"
                                                     "\x05"s)},
        CorruptCase{"ItemNamesOutOfOrder",
                    "\x01\x02\x01"
                    "b"
                    "\x05\x01"
                    "a"
                    "\x05"s},
        CorruptCase{"ItemCountPastEnd",
                    "\x01\x05\x01"
                    "a"
                    "\x05"s},
        CorruptCase{"UnterminatedVarint", "\x01\x80\x80\x80"s},
        CorruptCase{"NestingBeyondDecodeLimit", OneAttribute(Deep(300))}),
    [](const ::testing::TestParamInfo<CorruptCase>& info) {
      return info.param.label;
    });

// Deep nesting that any valid item can have decodes; the decoder's limit is
// far above DynamoDB's 32 levels.
TEST(ItemCodecTest, DeepButBoundedNestingDecodes) {
  ASSERT_OK_AND_ASSIGN(Item decoded, DecodeItem(OneAttribute(Deep(200))));
  EXPECT_EQ(decoded.at("a").type(), AttrType::kL);
}

// Random bytes and single-byte mutations of a valid item: the decoder must
// answer OK or kCorruption, never crash or overread (run under ASan).
TEST(ItemCodecTest, GarbageNeverCrashes) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> length(0, 48);
  for (int i = 0; i < 20000; ++i) {
    std::string garbage(static_cast<size_t>(length(rng)), '\0');
    for (char& c : garbage) c = static_cast<char>(byte(rng));
    if (i % 2 == 0 && !garbage.empty()) garbage[0] = '\x01';  // valid version
    Result<Item> r = DecodeItem(garbage);
    if (!r.ok()) {
      ASSERT_EQ(r.status().code(), ErrorCode::kCorruption);
    }
  }

  const std::string valid = Encode(RichItem());
  for (size_t pos = 0; pos < valid.size(); ++pos) {
    for (int delta : {1, 0x7f, 0x80, 0xff}) {
      std::string mutated = valid;
      mutated[pos] = static_cast<char>(mutated[pos] + delta);
      Result<Item> r = DecodeItem(mutated);
      if (!r.ok()) {
        ASSERT_EQ(r.status().code(), ErrorCode::kCorruption) << pos;
      }
    }
  }
}

}  // namespace
}  // namespace dynarock
