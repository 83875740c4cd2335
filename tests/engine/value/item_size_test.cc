#include "engine/value/item_size.h"

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/types.h"
#include "engine/value/number.h"

namespace dynarock {
namespace {

using AV = AttributeValue;

Number Num(std::string_view text) {
  Result<Number> n = Number::Parse(text);
  EXPECT_TRUE(n.ok()) << text;
  return n.ok() ? *n : Number();
}

AV N(std::string_view text) { return AV::N(Num(text)); }

struct SizeCase {
  std::string label;
  AV value;
  int64_t size;
};

void PrintTo(const SizeCase& c, std::ostream* os) { *os << c.label; }

class ValueSizeTest : public ::testing::TestWithParam<SizeCase> {};

TEST_P(ValueSizeTest, FollowsTheDeveloperGuideRules) {
  EXPECT_EQ(AttributeValueSize(GetParam().value), GetParam().size)
      << GetParam().label;
}

std::string CaseName(const ::testing::TestParamInfo<SizeCase>& info) {
  return info.param.label;
}

INSTANTIATE_TEST_SUITE_P(
    Strings, ValueSizeTest,
    ::testing::Values(SizeCase{"EmptyString", AV::S(""), 0},
                      SizeCase{"Ascii", AV::S("abc"), 3},
                      // UTF-8 bytes, not characters: é is 2 bytes, 日 is 3.
                      SizeCase{"TwoByteChar", AV::S("h\xc3\xa9llo"), 6},
                      SizeCase{"ThreeByteChars",
                               AV::S("\xe6\x97\xa5\xe6\x9c\xac"), 6},
                      SizeCase{"FourByteChar", AV::S("\xf0\x9f\x98\x80"), 4}),
    CaseName);

// Numbers: 1 byte per two significant digits, rounded up, plus 1 byte;
// leading and trailing zeros trimmed; one more byte when negative.
INSTANTIATE_TEST_SUITE_P(
    Numbers, ValueSizeTest,
    ::testing::Values(
        SizeCase{"Zero", N("0"), 1}, SizeCase{"NegativeZero", N("-0"), 1},
        SizeCase{"One", N("1"), 2}, SizeCase{"TwoDigits", N("27"), 2},
        SizeCase{"NegativeTwoDigits", N("-27"), 3},
        SizeCase{"ThreeDigits", N("461"), 3}, SizeCase{"Negative", N("-1"), 3},
        SizeCase{"TrailingZerosTrimmed", N("1000"), 2},
        SizeCase{"LeadingZerosTrimmed", N("0.001"), 2},
        SizeCase{"Exponent", N("1E125"), 2},
        SizeCase{"Smallest", N("1E-130"), 2},
        SizeCase{"FiveDigits", N("12345"), 4},
        SizeCase{"NegativeFiveDigits", N("-12345"), 5},
        SizeCase{"DecimalPointFree", N("1.5"), 2},
        SizeCase{"Timestamp", N("1786461547"), 6},
        SizeCase{"ThirtyEightDigits",
                 N("12345678901234567890123456789012345678"), 20},
        SizeCase{"NegativeThirtyEightDigits",
                 N("-1.2345678901234567890123456789012345678"), 21}),
    CaseName);

INSTANTIATE_TEST_SUITE_P(
    Scalars, ValueSizeTest,
    ::testing::Values(SizeCase{"EmptyBinary", AV::B(""), 0},
                      // Raw bytes, not base64.
                      SizeCase{"Binary", AV::B(std::string("\x00\x01\xff", 3)),
                               3},
                      SizeCase{"True", AV::Bool(true), 1},
                      SizeCase{"False", AV::Bool(false), 1},
                      SizeCase{"Null", AV::Null(), 1}),
    CaseName);

// List/Map: 3 bytes + 1 per element + the elements (a map element's name
// counts too). Sets: the sum of their members.
INSTANTIATE_TEST_SUITE_P(
    Documents, ValueSizeTest,
    ::testing::Values(
        SizeCase{"EmptyList", AV::L({}), 3}, SizeCase{"EmptyMap", AV::M({}), 3},
        SizeCase{"ListOfOne", AV::L({AV::S("a")}), 3 + 1 + 1},
        SizeCase{"ListOfTwo", AV::L({N("1"), AV::Bool(true)}),
                 3 + (1 + 2) + (1 + 1)},
        SizeCase{"MapOfOne", AV::M({{"ab", AV::S("cd")}}), 3 + 1 + 2 + 2},
        SizeCase{"Nested", AV::M({{"a", AV::L({AV::M({})})}}),
                 3 + 1 + 1 + (3 + 1 + 3)},
        SizeCase{"StringSet", AV::SS({"a", "bc"}), 3},
        SizeCase{"NumberSet", AV::NS({Num("1"), Num("-1")}), 2 + 3},
        SizeCase{"BinarySet", AV::BS({std::string("\x00\x01", 2), ""}), 2},
        SizeCase{"ListOfSets", AV::L({AV::SS({"xy"})}), 3 + 1 + 2}),
    CaseName);

TEST(ItemSizeTest, AttributeSizeAddsTheNameBytes) {
  EXPECT_EQ(AttributeSize("name", AV::S("x")), 5);
  EXPECT_EQ(AttributeSize("", AV::S("x")), 1);
  EXPECT_EQ(AttributeSize("\xc3\xa9", AV::Null()), 3);
  EXPECT_EQ(AttributeSize("n", N("-12345")), 6);
}

// The developer guide's own example (Service quotas, "Item size"): an item
// with "shirt-color" = "R" and "shirt-size" = "M" is 23 bytes.
TEST(ItemSizeTest, DeveloperGuideShirtExample) {
  Item item;
  item["shirt-color"] = AV::S("R");
  item["shirt-size"] = AV::S("M");
  EXPECT_EQ(ItemSize(item), 23);
}

TEST(ItemSizeTest, EmptyItemIsZero) { EXPECT_EQ(ItemSize(Item()), 0); }

TEST(ItemSizeTest, ItemSumsItsAttributes) {
  Item item;
  item["pk"] = AV::S("ORDER#1");                           // 2 + 7
  item["qty"] = N("3");                                    // 3 + 2
  item["tags"] = AV::SS({"a", "b"});                       // 4 + 2
  item["lines"] = AV::L({AV::M({{"sku", AV::S("X1")}})});  // 5 + 12
  // lines: 3 + 1 + M(3 + 1 + 3 + 2) = 13.
  EXPECT_EQ(ItemSize(item), 9 + 5 + 6 + 5 + 13);
}

// The 400 KB limit: a single string attribute that fills the item exactly.
TEST(ItemSizeTest, MaxItemBytesIs400KiB) {
  EXPECT_EQ(kMaxItemBytes, 409600);
  Item item;
  item["p"] = AV::S(std::string(kMaxItemBytes - 1, 'x'));
  EXPECT_EQ(ItemSize(item), kMaxItemBytes);
}

}  // namespace
}  // namespace dynarock
