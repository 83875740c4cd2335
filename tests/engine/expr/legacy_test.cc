#include "engine/expr/legacy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "engine/expr/evaluate.h"
#include "engine/expr/render.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::expr {
namespace {

using namespace testing;  // NOLINT: value builders

constexpr std::string_view kInvalid =
    "One or more parameter values were invalid: ";

ExpectedAttributeValue Value(AttributeValue v) {
  ExpectedAttributeValue e;
  e.value = std::move(v);
  return e;
}
ExpectedAttributeValue Exists(bool exists) {
  ExpectedAttributeValue e;
  e.exists = exists;
  return e;
}
ExpectedAttributeValue Op(ComparisonOperator op,
                          std::vector<AttributeValue> values) {
  ExpectedAttributeValue e;
  e.comparison_operator = op;
  e.attribute_value_list = std::move(values);
  return e;
}
ExpectedAttributeValue OpAlone(ComparisonOperator op) {
  ExpectedAttributeValue e;
  e.comparison_operator = op;
  return e;
}

// Rendering of the translated condition, "<none>", or the error message.
std::string Expected(ExpectedConditions expected,
                     std::optional<ConditionalOperator> op = std::nullopt) {
  auto r = TranslateExpected(std::move(expected), op);
  if (!r.ok()) return r.status().message();
  return r->has_value() ? RenderResolved(**r) : "<none>";
}

using CO = ComparisonOperator;

TEST(LegacyTest, ComparisonOperatorNames) {
  EXPECT_EQ(ComparisonOperatorName(CO::kNotContains), "NOT_CONTAINS");
  EXPECT_EQ(ComparisonOperatorName(CO::kBeginsWith), "BEGINS_WITH");
  EXPECT_EQ(ComparisonOperatorName(CO::kNull), "NULL");
  EXPECT_EQ(ComparisonOperatorName(CO::kBetween), "BETWEEN");
}

TEST(LegacyTest, ExpectedTranslations) {
  struct Case {
    ExpectedConditions expected;
    std::string want;
  };
  const Case cases[] = {
      {{{"a", Value(N("1"))}}, "a = {N:1}"},
      {{{"a",
         [] {
           auto e = Value(S("x"));
           e.exists = true;
           return e;
         }()}},
       "a = {S:x}"},
      {{{"a", Exists(false)}}, "attribute_not_exists(a)"},
      {{{"a", Op(CO::kEq, {N("1")})}}, "a = {N:1}"},
      {{{"a", Op(CO::kNe, {N("1")})}}, "a <> {N:1}"},
      {{{"a", Op(CO::kLe, {S("m")})}}, "a <= {S:m}"},
      {{{"a", Op(CO::kLt, {S("m")})}}, "a < {S:m}"},
      {{{"a", Op(CO::kGe, {B("m")})}}, "a >= {B:bQ==}"},
      {{{"a", Op(CO::kGt, {N("2")})}}, "a > {N:2}"},
      {{{"a", Op(CO::kNotNull, {})}}, "attribute_exists(a)"},
      {{{"a", OpAlone(CO::kNull)}}, "attribute_not_exists(a)"},
      {{{"a", Op(CO::kContains, {S("x")})}}, "contains(a, {S:x})"},
      {{{"a", Op(CO::kNotContains, {S("x")})}},
       "(attribute_exists(a) AND (NOT contains(a, {S:x})))"},
      {{{"a", Op(CO::kBeginsWith, {S("x")})}}, "begins_with(a, {S:x})"},
      {{{"a", Op(CO::kIn, {N("1"), N("2"), N("3")})}},
       "a IN ({N:1}, {N:2}, {N:3})"},
      {{{"a", Op(CO::kBetween, {N("1"), N("5")})}},
       "a BETWEEN {N:1} AND {N:5}"},
      // Value stands for a one-element AttributeValueList.
      {{{"a",
         [] {
           auto e = Value(N("3"));
           e.comparison_operator = CO::kGt;
           return e;
         }()}},
       "a > {N:3}"},
      // Names are literal: no paths, no reserved words.
      {{{"a.b[1]", Value(N("1"))}}, "a.b[1] = {N:1}"},
      {{{"size", Exists(false)}}, "attribute_not_exists(size)"},
      // EQ and NE take every type.
      {{{"a", Op(CO::kEq, {L({N("1")})})}}, "a = {L:[{N:1}]}"},
      {{{"a", Op(CO::kNe, {SS({"x"})})}}, "a <> {SS:[x]}"},
      // Several conditions, AND by default.
      {{{"a", Value(N("1"))}, {"b", Exists(false)}, {"c", Value(S("x"))}},
       "((a = {N:1} AND attribute_not_exists(b)) AND c = {S:x})"},
      // No condition at all.
      {{}, "<none>"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Expected(c.expected), c.want) << c.want;
  }
  EXPECT_EQ(Expected({{"a", Value(N("1"))}, {"b", Exists(false)}},
                     ConditionalOperator::kOr),
            "(a = {N:1} OR attribute_not_exists(b))");
  EXPECT_EQ(Expected({{"a", Value(N("1"))}, {"b", Exists(false)}},
                     ConditionalOperator::kAnd),
            "(a = {N:1} AND attribute_not_exists(b))");
}

TEST(LegacyTest, ExpectedErrors) {
  const std::string p(kInvalid);
  struct Case {
    ExpectedConditions expected;
    std::string want;
  };
  ExpectedAttributeValue value_and_list = Value(S("a"));
  value_and_list.attribute_value_list = std::vector<AttributeValue>{};
  ExpectedAttributeValue exists_and_op = OpAlone(CO::kLt);
  exists_and_op.exists = true;
  ExpectedAttributeValue exists_false_and_value = Value(S("a"));
  exists_false_and_value.exists = false;
  ExpectedAttributeValue list_alone;
  list_alone.attribute_value_list = std::vector<AttributeValue>{};
  ExpectedAttributeValue list_and_exists = list_alone;
  list_and_exists.exists = true;
  ExpectedAttributeValue value_and_null = Value(S("a"));
  value_and_null.comparison_operator = CO::kNull;
  ExpectedAttributeValue bad_set = Value(SS({"x", "x"}));
  const Case cases[] = {
      {{{"a", ExpectedAttributeValue{}}},
       p + "Value must be provided when Exists is null for Attribute: a"},
      {{{"a", Exists(true)}},
       p + "Value must be provided when Exists is true for Attribute: a"},
      {{{"a", exists_false_and_value}},
       p + "Value cannot be used when Exists is false for Attribute: a"},
      {{{"a", value_and_list}},
       p + "Value and AttributeValueList cannot be used together for "
           "Attribute: a"},
      {{{"a", exists_and_op}},
       p + "Exists and ComparisonOperator cannot be used together for "
           "Attribute: a"},
      {{{"a", OpAlone(CO::kLt)}},
       p + "Value or AttributeValueList must be used with "
           "ComparisonOperator: LT for Attribute: a"},
      {{{"a", list_alone}},
       p + "AttributeValueList can only be used with a ComparisonOperator "
           "for Attribute: a"},
      {{{"a", list_and_exists}},
       p + "AttributeValueList can only be used with a ComparisonOperator "
           "for Attribute: a"},
      {{{"a", value_and_null}},
       p + "Invalid number of argument(s) for the NULL ComparisonOperator"},
      {{{"a", Op(CO::kEq, {N("2"), N("3")})}},
       p + "Invalid number of argument(s) for the EQ ComparisonOperator"},
      {{{"a", Op(CO::kNotNull, {N("2")})}},
       p + "Invalid number of argument(s) for the NOT_NULL ComparisonOperator"},
      {{{"a", Op(CO::kIn, {})}},
       p + "Invalid number of argument(s) for the IN ComparisonOperator"},
      {{{"a", Op(CO::kBetween, {N("1")})}},
       p + "Invalid number of argument(s) for the BETWEEN ComparisonOperator"},
      {{{"a", Op(CO::kBetween, {N("1"), N("2"), N("3")})}},
       p + "Invalid number of argument(s) for the BETWEEN ComparisonOperator"},
      {{{"a", Op(CO::kContains, {})}},
       p + "Invalid number of argument(s) for the CONTAINS ComparisonOperator"},
      {{{"a", Op(CO::kIn, {S("b"), N("1")})}},
       p + "AttributeValues inside AttributeValueList must be of same type"},
      {{{"a", Op(CO::kBeginsWith, {N("3")})}},
       p + "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue "
           "type"},
      {{{"a", Op(CO::kContains, {L({N("1")})})}},
       p + "ComparisonOperator CONTAINS is not valid for L AttributeValue "
           "type"},
      {{{"a", Op(CO::kNotContains, {SS({"x"})})}},
       p + "ComparisonOperator NOT_CONTAINS is not valid for SS "
           "AttributeValue type"},
      {{{"a", Op(CO::kIn, {L({N("1")}), L({N("2")})})}},
       p + "ComparisonOperator IN is not valid for L AttributeValue type"},
      {{{"a", Op(CO::kLt, {Bool(true)})}},
       p + "ComparisonOperator LT is not valid for BOOL AttributeValue type"},
      {{{"a", Op(CO::kBetween, {NS({"1"}), NS({"2"})})}},
       p + "ComparisonOperator BETWEEN is not valid for NS AttributeValue "
           "type"},
      {{{"a", Op(CO::kBetween, {S("b"), S("a")})}},
       "The BETWEEN condition was provided a range where the lower bound is "
       "greater than the upper bound"},
      {{{"a", Op(CO::kBetween, {N("4"), N("3")})}},
       "The BETWEEN condition was provided a range where the lower bound is "
       "greater than the upper bound"},
      {{{"a", bad_set}}, p + "Input collection [x, x] contains duplicates."},
      {{{"a", Op(CO::kEq, {SS({})})}}, p + "An string set  may not be empty"},
      // The first bad entry is reported.
      {{{"a", Value(N("1"))}, {"b", Exists(true)}, {"c", OpAlone(CO::kLt)}},
       p + "Value must be provided when Exists is true for Attribute: b"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Expected(c.expected), c.want) << c.want;
  }
}

TEST(LegacyTest, ConditionalOperatorNeedsTwoConditions) {
  const std::string without =
      "ConditionalOperator cannot be used without Filter or Expected";
  const std::string one =
      "ConditionalOperator can only be used when Filter or Expected has two "
      "or more elements";
  auto r = TranslateExpected(std::nullopt, ConditionalOperator::kAnd);
  EXPECT_THAT(r, StatusIs(ErrorCode::kValidation, without));
  EXPECT_EQ(Expected({}, ConditionalOperator::kOr), without);
  EXPECT_EQ(Expected({{"a", Value(N("1"))}}, ConditionalOperator::kOr), one);
  // Checked before the entries themselves.
  EXPECT_EQ(Expected({{"a", Exists(true)}}, ConditionalOperator::kOr), one);
  auto f = TranslateFilter(LegacyConditions{}, ConditionalOperator::kAnd);
  EXPECT_THAT(f, StatusIs(ErrorCode::kValidation, without));
}

// Evaluates Expected against `item` (null: no item).
bool Holds(ExpectedConditions expected, const Item* item,
           std::optional<ConditionalOperator> op = std::nullopt) {
  auto r = TranslateExpected(std::move(expected), op);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return EvaluateCondition(**r, item);
}

TEST(LegacyTest, OperatorsMeanWhatDynamoDbDocuments) {
  const Item item{{"a", S("hello")},
                  {"n", N("3")},
                  {"set", NS({"2", "4", "7"})},
                  {"list", L({N("2"), N("4")})},
                  {"b", B("hi there")},
                  {"nul", Null()}};
  // NULL / NOT_NULL test existence, not the NULL type.
  EXPECT_TRUE(Holds({{"nul", Op(CO::kNotNull, {})}}, &item));
  EXPECT_FALSE(Holds({{"nul", Op(CO::kNull, {})}}, &item));
  EXPECT_TRUE(Holds({{"q", Op(CO::kNull, {})}}, &item));
  EXPECT_FALSE(Holds({{"q", Op(CO::kNotNull, {})}}, &item));
  // NE is true for a missing attribute and for another type.
  EXPECT_TRUE(Holds({{"q", Op(CO::kNe, {N("1")})}}, &item));
  EXPECT_TRUE(Holds({{"n", Op(CO::kNe, {S("3")})}}, &item));
  EXPECT_FALSE(Holds({{"n", Op(CO::kNe, {N("3.0")})}}, &item));
  // ... but NOT_CONTAINS is false for a missing attribute.
  EXPECT_FALSE(Holds({{"q", Op(CO::kNotContains, {N("1")})}}, &item));
  EXPECT_FALSE(Holds({{"q", Op(CO::kContains, {N("1")})}}, &item));
  EXPECT_TRUE(Holds({{"a", Op(CO::kNotContains, {S("dog")})}}, &item));
  EXPECT_TRUE(Holds({{"a", Op(CO::kNotContains, {N("1")})}}, &item));
  EXPECT_FALSE(Holds({{"a", Op(CO::kNotContains, {S("ell")})}}, &item));
  // CONTAINS: substrings, set members and list elements.
  EXPECT_TRUE(Holds({{"a", Op(CO::kContains, {S("ell")})}}, &item));
  EXPECT_TRUE(Holds({{"set", Op(CO::kContains, {N("4")})}}, &item));
  EXPECT_TRUE(Holds({{"list", Op(CO::kContains, {N("4")})}}, &item));
  EXPECT_TRUE(Holds({{"b", Op(CO::kContains, {B("here")})}}, &item));
  EXPECT_FALSE(Holds({{"set", Op(CO::kContains, {N("1")})}}, &item));
  // Comparisons of different types are false, not errors.
  EXPECT_FALSE(Holds({{"n", Op(CO::kLt, {S("9")})}}, &item));
  EXPECT_TRUE(Holds({{"n", Op(CO::kLe, {N("3")})}}, &item));
  EXPECT_FALSE(Holds({{"n", Op(CO::kGt, {N("3")})}}, &item));
  // IN tests the attribute's value, never set membership.
  EXPECT_TRUE(Holds({{"n", Op(CO::kIn, {N("2"), N("3"), N("8")})}}, &item));
  EXPECT_FALSE(Holds({{"set", Op(CO::kIn, {N("2")})}}, &item));
  EXPECT_TRUE(Holds({{"n", Op(CO::kBetween, {N("3"), N("3")})}}, &item));
  EXPECT_FALSE(Holds({{"q", Op(CO::kBetween, {N("0"), N("100")})}}, &item));
  EXPECT_TRUE(Holds({{"b", Op(CO::kBeginsWith, {B("hi")})}}, &item));
  EXPECT_FALSE(Holds({{"n", Op(CO::kBeginsWith, {S("3")})}}, &item));
  // Value and Exists.
  EXPECT_TRUE(Holds({{"n", Value(N("3"))}}, &item));
  EXPECT_FALSE(Holds({{"q", Value(N("3"))}}, &item));
  EXPECT_TRUE(Holds({{"q", Exists(false)}}, &item));
  EXPECT_FALSE(Holds({{"n", Exists(false)}}, &item));
  EXPECT_TRUE(Holds({{"n", Exists(false)}}, nullptr));
  // AND / OR.
  EXPECT_FALSE(Holds({{"n", Value(N("3"))}, {"a", Exists(false)}}, &item));
  EXPECT_TRUE(Holds({{"n", Value(N("3"))}, {"a", Exists(false)}}, &item,
                    ConditionalOperator::kOr));
  EXPECT_FALSE(Holds({{"n", Value(N("4"))}, {"a", Exists(false)}}, &item,
                     ConditionalOperator::kOr));
}

std::string Filter(LegacyConditions filter,
                   std::optional<ConditionalOperator> op = std::nullopt) {
  auto r = TranslateFilter(std::move(filter), op);
  if (!r.ok()) return r.status().message();
  if (!r->has_value()) return "<none>";
  EXPECT_EQ((*r)->kind, ExpressionKind::kFilter);
  return RenderResolved(**r);
}

TEST(LegacyTest, Filters) {
  const std::string p(kInvalid);
  EXPECT_EQ(Filter({}), "<none>");
  EXPECT_EQ(Filter({{"a", {CO::kNull, {}}}, {"b", {CO::kGe, {N("1")}}}},
                   ConditionalOperator::kOr),
            "(attribute_not_exists(a) OR b >= {N:1})");
  EXPECT_EQ(Filter({{"a", {CO::kEq, {}}},
                    {"b", {CO::kNull, {}}},
                    {"c", {CO::kNull, {}}}}),
            p + "Invalid number of argument(s) for the EQ ComparisonOperator");
  EXPECT_EQ(
      Filter({{"a", {CO::kLe, {SS({"a"})}}}}),
      p + "ComparisonOperator LE is not valid for SS AttributeValue type");
  EXPECT_EQ(Filter({{"a", {CO::kEq, {S("a"), S("b")}}}}),
            p + "Invalid number of argument(s) for the EQ ComparisonOperator");
  EXPECT_EQ(
      Filter({{"a", {CO::kBetween, {S("a"), SS({"a"})}}}}),
      p + "AttributeValues inside AttributeValueList must be of same type");
  // Values are checked before any operator.
  EXPECT_EQ(Filter({{"a", {CO::kEq, {}}}, {"b", {CO::kEq, {NS({})}}}}),
            p + "An number set  may not be empty");
}

std::string Keys(LegacyConditions conditions, const KeyDef& key) {
  Status v = ValidateLegacyConditions(conditions);
  if (!v.ok()) return v.message();
  auto r = BindKeyConditions(conditions, key);
  if (!r.ok()) return r.status().message();
  std::string out = "partition " + RenderValue(r->partition);
  if (r->sort) {
    out += " sort " + r->sort->attribute + " " +
           std::string(KeyOpName(r->sort->op));
    for (const AttributeValue& v : r->sort->values) out += " " + RenderValue(v);
  }
  return out;
}

TEST(LegacyTest, KeyConditionsOnAMultiAttributeKey) {
  KeyDef multi{.hash_name = "t",
               .hash_type = AttrType::kS,
               .range_name = "d",
               .range_type = AttrType::kS,
               .extra_hash = {{"r", AttrType::kN}},
               .extra_range = {{"n", AttrType::kN}}};
  EXPECT_EQ(Keys({{"t", {CO::kEq, {S("a")}}},
                  {"r", {CO::kEq, {N("1")}}},
                  {"d", {CO::kEq, {S("x")}}},
                  {"n", {CO::kGe, {N("5")}}}},
                 multi),
            "partition {S:a} sort n GE {N:5}");
  EXPECT_EQ(Keys({{"t", {CO::kEq, {S("a")}}}}, multi),
            "Query key condition not supported: every HASH key attribute "
            "needs an equality condition; attribute: r");
  EXPECT_EQ(Keys({{"t", {CO::kEq, {S("a")}}},
                  {"r", {CO::kEq, {N("1")}}},
                  {"n", {CO::kEq, {N("5")}}}},
                 multi),
            "Query key condition not supported: RANGE key attributes are "
            "conditioned left to right, each before the last with an equality "
            "condition; attribute: d");
  EXPECT_EQ(Keys({{"t", {CO::kEq, {S("a")}}}, {"r", {CO::kNe, {N("1")}}}}, multi),
            "Attempted conditional constraint is not an indexable operation");
  // Three conditions on a key of one attribute of each kind.
  KeyDef with_sort{.hash_name = "pk",
                   .hash_type = AttrType::kS,
                   .range_name = "sk",
                   .range_type = AttrType::kN};
  EXPECT_EQ(Keys({{"pk", {CO::kEq, {S("a")}}},
                  {"sk", {CO::kEq, {N("1")}}},
                  {"x", {CO::kEq, {N("1")}}}},
                 with_sort),
            "Conditions can be of length 1 or 2 only");
}

TEST(LegacyTest, KeyConditions) {
  KeyDef hash_only{.hash_name = "pk", .hash_type = AttrType::kS};
  KeyDef with_sort{.hash_name = "pk",
                   .hash_type = AttrType::kS,
                   .range_name = "sk",
                   .range_type = AttrType::kN};
  EXPECT_EQ(Keys({{"pk", {CO::kEq, {S("a")}}}}, hash_only), "partition {S:a}");
  EXPECT_EQ(Keys({{"pk", {CO::kEq, {S("a")}}},
                  {"sk", {CO::kBetween, {N("1"), N("5")}}}},
                 with_sort),
            "partition {S:a} sort sk BETWEEN {N:1} {N:5}");
  EXPECT_EQ(
      Keys({{"sk", {CO::kBeginsWith, {N("1")}}}, {"pk", {CO::kEq, {S("a")}}}},
           with_sort),
      std::string(kInvalid) +
          "ComparisonOperator BEGINS_WITH is not valid for N "
          "AttributeValue type");
  EXPECT_EQ(Keys({{"pk", {CO::kEq, {S("a")}}}}, with_sort), "partition {S:a}");
  EXPECT_EQ(Keys({{"sk", {CO::kEq, {N("1")}}}}, with_sort),
            "Query condition missed key schema element: pk");
  EXPECT_EQ(Keys({{"pk", {CO::kEq, {S("a")}}}, {"x", {CO::kEq, {N("1")}}}},
                 with_sort),
            "Query condition missed key schema element: sk");
  EXPECT_EQ(Keys({{"pk", {CO::kEq, {S("a")}}}, {"x", {CO::kEq, {N("1")}}}},
                 hash_only),
            "Query key condition not supported");
  EXPECT_EQ(Keys({{"pk", {CO::kGt, {S("a")}}}}, hash_only),
            "Query key condition not supported");
  for (CO op : {CO::kNull, CO::kNotNull, CO::kNe, CO::kContains,
                CO::kNotContains, CO::kIn}) {
    LegacyCondition c{op, {}};
    if (op != CO::kNull && op != CO::kNotNull)
      c.attribute_value_list = {S("a")};
    EXPECT_EQ(Keys({{"pk", c}}, hash_only),
              "Attempted conditional constraint is not an indexable operation")
        << ComparisonOperatorName(op);
  }
  EXPECT_EQ(Keys({{"pk", {CO::kEq, {N("1")}}}}, hash_only),
            std::string(kInvalid) +
                "Condition parameter type does not match schema type");
  EXPECT_EQ(Keys({{"pk", {CO::kEq, {S("a")}}}, {"sk", {CO::kLt, {S("1")}}}},
                 with_sort),
            std::string(kInvalid) +
                "Condition parameter type does not match schema type");
}

// Rendering of the translated update, or the error message.
std::string Updates(AttributeUpdates updates) {
  auto r = TranslateAttributeUpdates(std::move(updates));
  return r.ok() ? RenderResolved(*r) : r.status().message();
}

AttributeValueUpdate Put(AttributeValue v) {
  return AttributeValueUpdate{std::move(v), AttributeAction::kPut};
}
AttributeValueUpdate Add(AttributeValue v) {
  return AttributeValueUpdate{std::move(v), AttributeAction::kAdd};
}
AttributeValueUpdate Delete(std::optional<AttributeValue> v = std::nullopt) {
  return AttributeValueUpdate{std::move(v), AttributeAction::kDelete};
}

TEST(LegacyTest, AttributeUpdatesTranslations) {
  EXPECT_EQ(Updates({{"a", Put(N("1"))}}), "SET a = {N:1}");
  EXPECT_EQ(Updates({{"a", Delete()}}), "REMOVE a");
  EXPECT_EQ(Updates({{"a", Delete(SS({"x"}))}}), "DELETE a {SS:[x]}");
  EXPECT_EQ(Updates({{"a", Add(N("1"))}}), "ADD a {N:1}");
  EXPECT_EQ(Updates({{"a", Add(L({S("x")}))}}),
            "SET a = list_append(if_not_exists(a, {L:[]}), {L:[{S:x}]})");
  // Clauses in SET, REMOVE, ADD, DELETE order whatever the order given.
  EXPECT_EQ(Updates({{"d", Delete(NS({"1"}))},
                     {"c", Add(NS({"1"}))},
                     {"b", Delete()},
                     {"a", Put(S("x"))}}),
            "SET a = {S:x} REMOVE b ADD c {NS:[1]} DELETE d {NS:[1]}");
  EXPECT_EQ(Updates({}), "");
}

TEST(LegacyTest, AttributeUpdatesErrors) {
  const std::string p(kInvalid);
  AttributeValueUpdate put_nothing;
  EXPECT_EQ(Updates({{"a", put_nothing}}),
            p + "Only DELETE action is allowed when no attribute value is "
                "specified");
  EXPECT_EQ(Updates({{"a", AttributeValueUpdate{std::nullopt,
                                                AttributeAction::kAdd}}}),
            p + "Only DELETE action is allowed when no attribute value is "
                "specified");
  for (const AttributeValue& v :
       {S("1"), N("1"), B("b"), Null(), Bool(true), M({}), L({})}) {
    EXPECT_EQ(Updates({{"a", Delete(v)}}),
              p + "DELETE action with value is not supported for the type " +
                  std::string(AttrTypeName(v.type())));
  }
  for (const AttributeValue& v : {S("1"), B("b"), Null(), Bool(true), M({})}) {
    EXPECT_EQ(Updates({{"a", Add(v)}}),
              p + "ADD action is not supported for the type " +
                  std::string(AttrTypeName(v.type())));
  }
  EXPECT_EQ(Updates({{"a", Put(SS({}))}}),
            p + "An string set  may not be empty");
  // The attribute's name: 1..65535 bytes, checked before its value.
  EXPECT_EQ(Updates({{"", Put(SS({}))}}),
            "1 validation error detected: Empty attribute name");
  EXPECT_EQ(Updates({{std::string(65536, 'n'), Put(N("1"))}}),
            "1 validation error detected: Attribute name is too large, must "
            "be less than 65536 bytes");
  EXPECT_EQ(Updates({{std::string(65535, 'n'), Put(N("1"))}}),
            "SET " + std::string(65535, 'n') + " = {N:1}");
}

// Applies AttributeUpdates to `item` (exists) and renders the result.
std::string Apply(AttributeUpdates updates, const Item& item,
                  bool exists = true) {
  auto u = TranslateAttributeUpdates(std::move(updates));
  EXPECT_TRUE(u.ok()) << u.status().ToString();
  auto r = ApplyUpdate(*u, item, exists);
  return r.ok() ? RenderItem(*r) : r.status().message();
}

TEST(LegacyTest, AttributeUpdatesApply) {
  const Item item{{"k", S("k")},
                  {"n", N("5")},
                  {"l", L({N("1")})},
                  {"s", SS({"x", "y"})},
                  {"str", S("v")}};
  EXPECT_EQ(Apply({{"n", Add(N("-2.5"))}}, item),
            "{k:{S:k}, l:{L:[{N:1}]}, n:{N:2.5}, s:{SS:[x, y]}, str:{S:v}}");
  EXPECT_EQ(
      Apply({{"new", Add(N("1"))}, {"l", Add(L({N("2")}))}}, item),
      "{k:{S:k}, l:{L:[{N:1}, {N:2}]}, n:{N:5}, new:{N:1}, s:{SS:[x, y]}, "
      "str:{S:v}}");
  EXPECT_EQ(Apply({{"fresh", Add(L({N("2")}))}}, Item{{"k", S("k")}}, false),
            "{fresh:{L:[{N:2}]}, k:{S:k}}");
  EXPECT_EQ(Apply({{"s", Delete(SS({"x", "y"}))}, {"str", Delete()}}, item),
            "{k:{S:k}, l:{L:[{N:1}]}, n:{N:5}}");
  EXPECT_EQ(Apply({{"s", Add(SS({"z"}))}, {"q", Delete()}}, item),
            "{k:{S:k}, l:{L:[{N:1}]}, n:{N:5}, s:{SS:[x, y, z]}, str:{S:v}}");
  // ADD of a list to a non-list.
  EXPECT_EQ(Apply({{"n", Add(L({N("2")}))}}, item),
            "An operand in the update expression has an incorrect data type");
}

TEST(LegacyTest, AttributesToGet) {
  auto r = TranslateAttributesToGet({"a", "b.c", "size"});
  ASSERT_OK(r.status());
  EXPECT_EQ(RenderResolved(*r), "a, b.c, size");
  const Item item{{"a", N("1")}, {"b.c", N("2")}, {"b", M({{"c", N("3")}})}};
  EXPECT_EQ(RenderItem(ProjectItem(item, *r)), "{a:{N:1}, b.c:{N:2}}");
  EXPECT_THAT(
      TranslateAttributesToGet({"a", "b", "a"}),
      StatusIs(ErrorCode::kValidation,
               std::string(kInvalid) + "Duplicate value in attribute name: a"));
  EXPECT_THAT(TranslateAttributesToGet({"a", ""}),
              StatusIs(ErrorCode::kValidation,
                       "1 validation error detected: Empty attribute name"));
  EXPECT_THAT(TranslateAttributesToGet({std::string(65536, 'n')}),
              StatusIs(ErrorCode::kValidation,
                       "1 validation error detected: Attribute name is too "
                       "large, must be less than 65536 bytes"));
  EXPECT_OK(TranslateAttributesToGet({std::string(65535, 'n')}).status());
}

}  // namespace
}  // namespace dynarock::expr
