#include "engine/value/attribute_value_validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/types.h"
#include "engine/value/item_size.h"
#include "engine/value/number.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

using AV = AttributeValue;
using ::testing::StrEq;

// DynamoDB's exact texts (dynalite's tests, captured from the service, and
// conformance runs against it). Spelled out here, independently of the
// implementation, so that a change on either side fails.
constexpr char kEmptySS[] =
    "One or more parameter values were invalid: An string set  may not be "
    "empty";
constexpr char kEmptyNS[] =
    "One or more parameter values were invalid: An number set  may not be "
    "empty";
constexpr char kEmptyBS[] =
    "One or more parameter values were invalid: Binary sets should not be "
    "empty";
constexpr char kNSDuplicates[] = "Input collection contains duplicates";
constexpr char kTooDeep[] =
    "Nesting Levels have exceeded supported limits: Attributes in the item "
    "have nested levels beyond supported limit";
constexpr char kTooLarge[] = "Item size has exceeded the maximum allowed size";
// Measured against DynamoDB on 2026-09-16 (ExtendDB/extenddb#365).
constexpr char kNameTooLarge[] =
    "1 validation error detected: Attribute name is too large, must be less "
    "than 65536 bytes";
constexpr char kEmptyName[] = "1 validation error detected: Empty attribute name";

Number Num(std::string_view text) {
  Result<Number> n = Number::Parse(text);
  EXPECT_TRUE(n.ok()) << text;
  return n.ok() ? *n : Number();
}

// `depth` maps (key "n") around a scalar leaf: DeepMap(31) puts the leaf at
// level 32, the deepest DynamoDB accepts.
AV DeepMap(int depth, AV leaf = AV::S("leaf")) {
  for (int i = 0; i < depth; ++i) leaf = AV::M({{"n", std::move(leaf)}});
  return leaf;
}
AV DeepList(int depth, AV leaf = AV::S("leaf")) {
  for (int i = 0; i < depth; ++i) leaf = AV::L({std::move(leaf)});
  return leaf;
}
// Alternating list and map levels.
AV DeepMixed(int depth) {
  AV v = AV::Null();
  for (int i = 0; i < depth; ++i) {
    v = i % 2 == 0 ? AV::L({std::move(v)}) : AV::M({{"m", std::move(v)}});
  }
  return v;
}

struct Case {
  std::string label;
  AV value;
  std::string error;  // empty: the value is valid
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.label; }

class ValidateAttributeValueTest : public ::testing::TestWithParam<Case> {};

TEST_P(ValidateAttributeValueTest, MatchesDynamoDb) {
  const Case& c = GetParam();
  if (c.error.empty()) {
    EXPECT_OK(ValidateAttributeValue(c.value)) << c.label;
  } else {
    EXPECT_THAT(ValidateAttributeValue(c.value),
                StatusIs(ErrorCode::kValidation, StrEq(c.error)))
        << c.label;
  }
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  return info.param.label;
}

INSTANTIATE_TEST_SUITE_P(
    Valid, ValidateAttributeValueTest,
    ::testing::Values(
        Case{"EmptyString", AV::S(""), ""}, Case{"EmptyBinary", AV::B(""), ""},
        Case{"Number", AV::N(Num("-1.5")), ""},
        Case{"Bool", AV::Bool(false), ""}, Case{"Null", AV::Null(), ""},
        Case{"EmptyList", AV::L({}), ""}, Case{"EmptyMap", AV::M({}), ""},
        Case{"StringSet", AV::SS({"a", "b", "A"}), ""},
        // Empty strings and binaries are allowed inside sets.
        Case{"StringSetWithEmptyMember", AV::SS({"", "a"}), ""},
        Case{"BinarySetWithEmptyMember", AV::BS({"", "a"}), ""},
        Case{"NumberSet", AV::NS({Num("1"), Num("10"), Num("0.1")}), ""},
        Case{"ListWithRepeats", AV::L({AV::S("a"), AV::S("a")}), ""},
        Case{"Maps31AroundLeaf", DeepMap(31), ""},
        Case{"Lists31AroundLeaf", DeepList(31), ""},
        Case{"Mixed32Levels", DeepMixed(31), ""},
        // 32 nested empty maps: the innermost is the leaf, at level 32.
        Case{"EmptyMapAtLevel32", DeepMap(31, AV::M({})), ""}),
    CaseName);

INSTANTIATE_TEST_SUITE_P(
    EmptySets, ValidateAttributeValueTest,
    ::testing::Values(Case{"SS", AV::SS({}), kEmptySS},
                      Case{"NS", AV::NS({}), kEmptyNS},
                      Case{"BS", AV::BS({}), kEmptyBS},
                      Case{"InsideList", AV::L({AV::S("x"), AV::NS({})}),
                           kEmptyNS},
                      Case{"InsideMap", AV::M({{"s", AV::SS({})}}), kEmptySS}),
    CaseName);

INSTANTIATE_TEST_SUITE_P(
    Duplicates, ValidateAttributeValueTest,
    ::testing::Values(
        Case{"SS", AV::SS({"a", "a"}),
             "One or more parameter values were invalid: Input collection "
             "[a, a] contains duplicates."},
        // The whole collection, in the order given.
        Case{"SSListsEveryMember", AV::SS({"0", "1", "0"}),
             "One or more parameter values were invalid: Input collection "
             "[0, 1, 0] contains duplicates."},
        Case{"SSEmptyMembers", AV::SS({"", ""}),
             "One or more parameter values were invalid: Input collection "
             "[, ] contains duplicates."},
        // Binary members are shown as base64, and "]of" has no space.
        Case{"BS", AV::BS({"b", "b"}),
             "One or more parameter values were invalid: Input collection "
             "[Yg==, Yg==]of type BS contains duplicates."},
        Case{"BSBase64Padding", AV::BS({"ab", "abc", "a", "abc"}),
             "One or more parameter values were invalid: Input collection "
             "[YWI=, YWJj, YQ==, YWJj]of type BS contains duplicates."},
        Case{"BSRawBytes",
             AV::BS({std::string("\xff\x00", 2), std::string("\xff\x00", 2)}),
             "One or more parameter values were invalid: Input collection "
             "[/wA=, /wA=]of type BS contains duplicates."},
        Case{"NS", AV::NS({Num("1"), Num("1")}), kNSDuplicates},
        // Numerically equal members are duplicates.
        Case{"NSNumericallyEqual", AV::NS({Num("1"), Num("1.0")}),
             kNSDuplicates},
        Case{"NSTwoAndTwoPointZero", AV::NS({Num("1"), Num("2"), Num("2.0")}),
             kNSDuplicates},
        Case{"NSZeroAndNegativeZero", AV::NS({Num("0"), Num("-0")}),
             kNSDuplicates},
        Case{"InsideNestedMap",
             AV::M({{"a", AV::M({{"b", AV::SS({"x", "x"})}})}}),
             "One or more parameter values were invalid: Input collection "
             "[x, x] contains duplicates."}),
    CaseName);

INSTANTIATE_TEST_SUITE_P(
    Nesting, ValidateAttributeValueTest,
    ::testing::Values(Case{"Maps32AroundLeaf", DeepMap(32), kTooDeep},
                      Case{"Lists32AroundLeaf", DeepList(32), kTooDeep},
                      Case{"Mixed33Levels", DeepMixed(32), kTooDeep},
                      Case{"EmptyMapAtLevel33", DeepMap(32, AV::M({})),
                           kTooDeep},
                      Case{"FarTooDeep", DeepList(100), kTooDeep}),
    CaseName);

// The walk is in document order: the first problem met is the one reported.
INSTANTIATE_TEST_SUITE_P(
    DocumentOrder, ValidateAttributeValueTest,
    ::testing::Values(
        Case{"SetBeforeDepth", AV::L({AV::SS({}), DeepList(40)}), kEmptySS},
        Case{"DepthBeforeSet", AV::L({DeepList(40), AV::SS({})}), kTooDeep},
        Case{"FirstSetWins", AV::L({AV::NS({Num("1"), Num("1")}), AV::BS({})}),
             kNSDuplicates}),
    CaseName);

TEST(ValidateItemTest, AcceptsAValidItem) {
  Item item;
  item["pk"] = AV::S("ORDER#1");
  item["tags"] = AV::SS({"a", "b"});
  item["doc"] = DeepMap(31);
  item["empty"] = AV::S("");
  EXPECT_OK(ValidateItem(item));
  EXPECT_OK(ValidateItem(Item()));
}

TEST(ValidateItemTest, ChecksEveryAttribute) {
  Item item;
  item["a"] = AV::S("fine");
  item["z"] = AV::BS({});
  EXPECT_THAT(ValidateItem(item),
              StatusIs(ErrorCode::kValidation, StrEq(kEmptyBS)));
}

TEST(ValidateItemTest, NestingCountsFromTheAttribute) {
  Item item;
  item["data"] = DeepMap(31);
  EXPECT_OK(ValidateItem(item));
  item["data"] = DeepMap(32);
  EXPECT_THAT(ValidateItem(item),
              StatusIs(ErrorCode::kValidation, StrEq(kTooDeep)));
}

TEST(ValidateItemTest, FourHundredKilobytesIsTheLimit) {
  Item item;
  // "p" (1 byte) + the string = exactly 400 KB: accepted.
  item["p"] = AV::S(std::string(kMaxItemBytes - 1, 'x'));
  ASSERT_EQ(ItemSize(item), kMaxItemBytes);
  EXPECT_OK(ValidateItem(item));
  // One byte more: rejected.
  item["p"] = AV::S(std::string(kMaxItemBytes, 'x'));
  EXPECT_THAT(ValidateItem(item),
              StatusIs(ErrorCode::kValidation, StrEq(kTooLarge)));
}

TEST(ValidateItemTest, SizeCountsNamesAndOverheads) {
  Item item;
  item["p"] = AV::S(std::string(kMaxItemBytes - 1 - 5, 'x'));
  item["abcd"] = AV::Null();  // 4 + 1: exactly at the limit
  EXPECT_OK(ValidateItem(item));
  item["abcd"] = AV::L({});  // 4 + 3: two bytes over
  EXPECT_THAT(ValidateItem(item),
              StatusIs(ErrorCode::kValidation, StrEq(kTooLarge)));
}

TEST(ValidateItemTest, ValueErrorsComeBeforeSize) {
  Item item;
  item["p"] = AV::S(std::string(kMaxItemBytes, 'x'));
  item["s"] = AV::SS({});
  EXPECT_THAT(ValidateItem(item),
              StatusIs(ErrorCode::kValidation, StrEq(kEmptySS)));
}

TEST(ValidateAttributeNameTest, OneTo65535Bytes) {
  EXPECT_OK(ValidateAttributeName("a"));
  EXPECT_OK(ValidateAttributeName(std::string(65535, 'n')));
  EXPECT_THAT(ValidateAttributeName(std::string(65536, 'n')),
              StatusIs(ErrorCode::kValidation, StrEq(kNameTooLarge)));
  EXPECT_THAT(ValidateAttributeName(""),
              StatusIs(ErrorCode::kValidation, StrEq(kEmptyName)));
}

TEST(ValidateItemTest, ChecksTopLevelNames) {
  Item item;
  item["p"] = AV::S("x");
  item[std::string(65535, 'n')] = AV::N(Num("1"));
  EXPECT_OK(ValidateItem(item));
  item[std::string(65536, 'n')] = AV::N(Num("1"));
  EXPECT_THAT(ValidateItem(item),
              StatusIs(ErrorCode::kValidation, StrEq(kNameTooLarge)));
  Item empty_name;
  empty_name["p"] = AV::S("x");
  empty_name[""] = AV::N(Num("1"));
  EXPECT_THAT(ValidateItem(empty_name),
              StatusIs(ErrorCode::kValidation, StrEq(kEmptyName)));
  EXPECT_THAT(ValidateUpdatedItem(empty_name),
              StatusIs(ErrorCode::kValidation, StrEq(kEmptyName)));
}

TEST(ValidateItemTest, ChecksMapKeysAtEveryDepth) {
  Item item;
  item["doc"] = DeepMap(20, AV::M({{std::string(65535, 'k'), AV::Null()}}));
  EXPECT_OK(ValidateItem(item));
  item["doc"] = DeepMap(20, AV::M({{std::string(65536, 'k'), AV::Null()}}));
  EXPECT_THAT(ValidateItem(item),
              StatusIs(ErrorCode::kValidation, StrEq(kNameTooLarge)));
  // Inside a list too, and for an updated item.
  item["doc"] = AV::L({AV::M({{std::string(65536, 'k'), AV::Null()}})});
  EXPECT_THAT(ValidateUpdatedItem(item),
              StatusIs(ErrorCode::kValidation, StrEq(kNameTooLarge)));
  // An empty map key is accepted (not known to be refused by DynamoDB).
  item["doc"] = AV::M({{"", AV::Null()}});
  EXPECT_OK(ValidateItem(item));
}

// A value alone (ExpressionAttributeValues, conditions) may carry any key:
// DynamoDB reports a long one when it reaches an item, without the
// ExpressionAttributeValues prefix.
TEST(ValidateAttributeValueTest, LeavesMapKeysToTheItem) {
  EXPECT_OK(ValidateAttributeValue(
      AV::M({{std::string(65536, 'k'), AV::Null()}})));
}

}  // namespace
}  // namespace dynarock
