#include "engine/types.h"

#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/value/number.h"

namespace dynarock {
namespace {

using AV = AttributeValue;

Number Num(std::string_view text) {
  Result<Number> n = Number::Parse(text);
  EXPECT_TRUE(n.ok()) << text;
  return n.ok() ? *n : Number();
}

TEST(AttrTypeTest, NamesAreDynamoDbsAndRoundTrip) {
  const std::vector<std::pair<AttrType, std::string_view>> expected = {
      {AttrType::kS, "S"},       {AttrType::kN, "N"},
      {AttrType::kB, "B"},       {AttrType::kBool, "BOOL"},
      {AttrType::kNull, "NULL"}, {AttrType::kL, "L"},
      {AttrType::kM, "M"},       {AttrType::kSS, "SS"},
      {AttrType::kNS, "NS"},     {AttrType::kBS, "BS"},
  };
  for (const auto& [type, name] : expected) {
    EXPECT_EQ(AttrTypeName(type), name);
    EXPECT_EQ(AttrTypeFromName(name), std::optional<AttrType>(type)) << name;
  }
}

TEST(AttrTypeTest, PersistedNumbersNeverChange) {
  EXPECT_EQ(static_cast<int>(AttrType::kS), 1);
  EXPECT_EQ(static_cast<int>(AttrType::kN), 2);
  EXPECT_EQ(static_cast<int>(AttrType::kB), 3);
  EXPECT_EQ(static_cast<int>(AttrType::kBool), 4);
  EXPECT_EQ(static_cast<int>(AttrType::kNull), 5);
  EXPECT_EQ(static_cast<int>(AttrType::kL), 6);
  EXPECT_EQ(static_cast<int>(AttrType::kM), 7);
  EXPECT_EQ(static_cast<int>(AttrType::kSS), 8);
  EXPECT_EQ(static_cast<int>(AttrType::kNS), 9);
  EXPECT_EQ(static_cast<int>(AttrType::kBS), 10);
}

TEST(AttrTypeTest, UnknownNamesAreRejected) {
  for (std::string_view name :
       {"", "s", "n", "Bool", "bool", "BOOLEAN", "Null", "null", "SSS", "S ",
        " S", "L2", "MAP", "LIST", "STRING"}) {
    EXPECT_EQ(AttrTypeFromName(name), std::nullopt) << "\"" << name << "\"";
  }
}

TEST(TableStatusTest, Names) {
  EXPECT_EQ(TableStatusName(TableStatus::kCreating), "CREATING");
  EXPECT_EQ(TableStatusName(TableStatus::kUpdating), "UPDATING");
  EXPECT_EQ(TableStatusName(TableStatus::kDeleting), "DELETING");
  EXPECT_EQ(TableStatusName(TableStatus::kActive), "ACTIVE");
}

TEST(AttributeValueTest, DefaultIsNull) {
  AV v;
  EXPECT_EQ(v.type(), AttrType::kNull);
  EXPECT_TRUE(v == AV::Null());
}

TEST(AttributeValueTest, FactoriesSetTypeAndValue) {
  EXPECT_EQ(AV::S("x").type(), AttrType::kS);
  EXPECT_EQ(AV::S("x").s(), "x");
  EXPECT_EQ(AV::B(std::string("\0\1", 2)).type(), AttrType::kB);
  EXPECT_EQ(AV::B(std::string("\0\1", 2)).b(), std::string("\0\1", 2));
  EXPECT_EQ(AV::N(Num("2.5")).type(), AttrType::kN);
  EXPECT_EQ(AV::N(Num("2.5")).n().ToString(), "2.5");
  EXPECT_EQ(AV::Bool(true).type(), AttrType::kBool);
  EXPECT_TRUE(AV::Bool(true).boolean());
  EXPECT_FALSE(AV::Bool(false).boolean());
  EXPECT_EQ(AV::Null().type(), AttrType::kNull);
  EXPECT_EQ(AV::L({AV::S("a")}).l().size(), 1u);
  EXPECT_EQ(AV::L({}).type(), AttrType::kL);
  EXPECT_EQ(AV::M({{"k", AV::Null()}}).m().count("k"), 1u);
  EXPECT_EQ(AV::M({}).type(), AttrType::kM);
  EXPECT_EQ(AV::SS({"b", "a"}).ss(), (std::vector<std::string>{"b", "a"}));
  EXPECT_EQ(AV::SS({"a"}).type(), AttrType::kSS);
  EXPECT_EQ(AV::BS({"z"}).bs(), (std::vector<std::string>{"z"}));
  EXPECT_EQ(AV::BS({"z"}).type(), AttrType::kBS);
  EXPECT_EQ(AV::NS({Num("1")}).ns().size(), 1u);
  EXPECT_EQ(AV::NS({Num("1")}).type(), AttrType::kNS);
  EXPECT_TRUE(AV::S("x").is_scalar_key_type());
  EXPECT_TRUE(AV::N(Num("1")).is_scalar_key_type());
  EXPECT_TRUE(AV::B("x").is_scalar_key_type());
  EXPECT_FALSE(AV::SS({"x"}).is_scalar_key_type());
  EXPECT_FALSE(AV::Bool(true).is_scalar_key_type());
}

TEST(AttributeValueTest, MutableAccessorsEditInPlace) {
  AV list = AV::L({});
  list.mutable_l().push_back(AV::S("a"));
  EXPECT_TRUE(list == AV::L({AV::S("a")}));
  AV map = AV::M({});
  map.mutable_m()["k"] = AV::Bool(true);
  EXPECT_TRUE(map == AV::M({{"k", AV::Bool(true)}}));
}

struct EqualityCase {
  std::string label;
  AV a;
  AV b;
  bool equal;
};

void PrintTo(const EqualityCase& c, std::ostream* os) { *os << c.label; }

class EqualityTest : public ::testing::TestWithParam<EqualityCase> {};

TEST_P(EqualityTest, ComparesAsDynamoDbDoes) {
  const EqualityCase& c = GetParam();
  EXPECT_EQ(c.a == c.b, c.equal) << c.label;
  EXPECT_EQ(c.b == c.a, c.equal) << c.label << " (reversed)";
  EXPECT_EQ(c.a != c.b, !c.equal) << c.label;
  EXPECT_TRUE(c.a == c.a) << c.label;
  EXPECT_TRUE(c.b == c.b) << c.label;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, EqualityTest,
    ::testing::Values(
        EqualityCase{"SameString", AV::S("a"), AV::S("a"), true},
        EqualityCase{"DifferentString", AV::S("a"), AV::S("b"), false},
        EqualityCase{"EmptyString", AV::S(""), AV::S(""), true},
        // Same bytes, different types.
        EqualityCase{"StringVsBinary", AV::S("a"), AV::B("a"), false},
        EqualityCase{"SameBinary", AV::B("\xff"), AV::B("\xff"), true},
        EqualityCase{"NumbersNumerically", AV::N(Num("1")), AV::N(Num("1.0")),
                     true},
        EqualityCase{"NumberExponent", AV::N(Num("100")), AV::N(Num("1e2")),
                     true},
        EqualityCase{"DifferentNumbers", AV::N(Num("1")), AV::N(Num("-1")),
                     false},
        EqualityCase{"NumberVsString", AV::N(Num("1")), AV::S("1"), false},
        EqualityCase{"Bools", AV::Bool(true), AV::Bool(true), true},
        EqualityCase{"DifferentBools", AV::Bool(true), AV::Bool(false), false},
        EqualityCase{"Nulls", AV::Null(), AV::Null(), true},
        EqualityCase{"NullVsFalse", AV::Null(), AV::Bool(false), false},
        EqualityCase{"ListsInOrder", AV::L({AV::S("a"), AV::S("b")}),
                     AV::L({AV::S("a"), AV::S("b")}), true},
        // Lists are ordered.
        EqualityCase{"ListOrderMatters", AV::L({AV::S("a"), AV::S("b")}),
                     AV::L({AV::S("b"), AV::S("a")}), false},
        EqualityCase{"ListLength", AV::L({AV::S("a")}),
                     AV::L({AV::S("a"), AV::S("a")}), false},
        EqualityCase{"EmptyListVsEmptyMap", AV::L({}), AV::M({}), false},
        EqualityCase{"ListsCompareNumbersNumerically", AV::L({AV::N(Num("2"))}),
                     AV::L({AV::N(Num("2.00"))}), true},
        EqualityCase{"MapsDeep",
                     AV::M({{"a", AV::M({{"b", AV::L({AV::Null()})}})}}),
                     AV::M({{"a", AV::M({{"b", AV::L({AV::Null()})}})}}), true},
        EqualityCase{"MapsDeepDifference",
                     AV::M({{"a", AV::M({{"b", AV::L({AV::Null()})}})}}),
                     AV::M({{"a", AV::M({{"b", AV::L({AV::Bool(false)})}})}}),
                     false},
        EqualityCase{"MapKeys", AV::M({{"a", AV::Null()}}),
                     AV::M({{"b", AV::Null()}}), false},
        EqualityCase{"MapExtraKey", AV::M({{"a", AV::Null()}}),
                     AV::M({{"a", AV::Null()}, {"b", AV::Null()}}), false},
        // Sets compare as sets.
        EqualityCase{"StringSetOrder", AV::SS({"a", "b", "c"}),
                     AV::SS({"c", "a", "b"}), true},
        EqualityCase{"StringSetMembers", AV::SS({"a", "b"}), AV::SS({"a", "c"}),
                     false},
        EqualityCase{"StringSetSubset", AV::SS({"a"}), AV::SS({"a", "b"}),
                     false},
        EqualityCase{"BinarySetOrder", AV::BS({"\x01", "\x02"}),
                     AV::BS({"\x02", "\x01"}), true},
        EqualityCase{"StringSetVsBinarySet", AV::SS({"a"}), AV::BS({"a"}),
                     false},
        EqualityCase{"NumberSetNumerically",
                     AV::NS({Num("1"), Num("2"), Num("3")}),
                     AV::NS({Num("3.0"), Num("10E-1"), Num("2")}), true},
        EqualityCase{"NumberSetMembers", AV::NS({Num("1"), Num("2")}),
                     AV::NS({Num("1"), Num("-2")}), false},
        EqualityCase{"NumberSetSubset", AV::NS({Num("1")}),
                     AV::NS({Num("1"), Num("2")}), false},
        EqualityCase{"SetsInsideMaps", AV::M({{"s", AV::SS({"x", "y"})}}),
                     AV::M({{"s", AV::SS({"y", "x"})}}), true}),
    [](const ::testing::TestParamInfo<EqualityCase>& info) {
      return info.param.label;
    });

}  // namespace
}  // namespace dynarock
