#include "engine/expr/key_condition.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "engine/expr/parser.h"
#include "engine/expr/render.h"
#include "engine/expr/resolve.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::expr {
namespace {

using namespace testing;  // NOLINT: value builders

const ValueMap& Values() {
  static const ValueMap* values = new ValueMap{
      {":p", S("pk")},   {":c", N("3")},      {":c1", N("4")},
      {":c2", N("7")},   {":s", S("00")},     {":num", N("3")},
      {":str", S("x")},  {":b", B("ab")},     {":a", N("1")},
  };
  return *values;
}

const NameMap& Names() {
  static const NameMap* names =
      new NameMap{{"#name1", "p"}, {"#name2", "c"}, {"#x", "a.b"}};
  return *names;
}

// Parses, resolves and analyzes; renders the terms as "attr OP values...".
std::string Analyze(std::string_view text) {
  Result<ConditionExpression> parsed =
      ParseCondition(text, ExpressionKind::kKeyCondition);
  if (!parsed.ok()) return parsed.status().message();
  Resolver resolver(&Names(), &Values());
  Result<ConditionExpression> resolved = resolver.Resolve(*parsed);
  if (!resolved.ok()) return resolved.status().message();
  Result<KeyCondition> kc = AnalyzeKeyCondition(*resolved);
  if (!kc.ok()) return kc.status().message();
  std::string out;
  for (const KeyConditionTerm& t : kc->terms) {
    if (!out.empty()) out += "; ";
    out += t.attribute + " " + std::string(KeyOpName(t.op));
    for (const AttributeValue& v : t.values) out += " " + RenderValue(v);
  }
  return out;
}

struct Case {
  std::string_view text;
  std::string_view expected;
};

constexpr Case kCases[] = {
    {"p=:p", "p EQ {S:pk}"},
    {" p  =   :p ", "p EQ {S:pk}"},
    {"p = :p AND c = :c", "p EQ {S:pk}; c EQ {N:3}"},
    {"c = :c AND p = :p", "c EQ {N:3}; p EQ {S:pk}"},
    {"p = :p AND c < :c", "p EQ {S:pk}; c LT {N:3}"},
    {"p = :p AND c <= :c", "p EQ {S:pk}; c LE {N:3}"},
    {"p = :p AND c > :c", "p EQ {S:pk}; c GT {N:3}"},
    {"p = :p AND c >= :c", "p EQ {S:pk}; c GE {N:3}"},
    {":p = p AND :c < c", "p EQ {S:pk}; c GT {N:3}"},
    {":p = p AND :c >= c", "p EQ {S:pk}; c LE {N:3}"},
    {"p = :p AND c BETWEEN :c1 AND :c2", "p EQ {S:pk}; c BETWEEN {N:4} {N:7}"},
    {"p=:p AnD c BeTwEeN :c1 aNd :c2", "p EQ {S:pk}; c BETWEEN {N:4} {N:7}"},
    {"p = :p AND begins_with(c, :s)", "p EQ {S:pk}; c BEGINS_WITH {S:00}"},
    {"p = :p AND begins_with(c, :b)", "p EQ {S:pk}; c BEGINS_WITH {B:YWI=}"},
    {"#name1 = :p AND #name2 = :c", "p EQ {S:pk}; c EQ {N:3}"},
    {"((c=:c) AND (p=:p))", "c EQ {N:3}; p EQ {S:pk}"},
    {"p < :p", "p LT {S:pk}"},  // BindKeyCondition rejects it
    {"c = :c", "c EQ {N:3}"},   // BindKeyCondition rejects it
    // Shape errors.
    {"p = :p OR c = :c", "Invalid operator used in KeyConditionExpression: OR"},
    {"c=:c OR p=:p", "Invalid operator used in KeyConditionExpression: OR"},
    {"NOT c=:c AND p=:p",
     "Invalid operator used in KeyConditionExpression: NOT"},
    {"p = :p AND c <> :c",
     "Invalid operator used in KeyConditionExpression: <>"},
    {"p = :p AND c IN (:c)",
     "Invalid operator used in KeyConditionExpression: IN"},
    {"p = :p AND attribute_exists(c)",
     "Invalid operator used in KeyConditionExpression: attribute_exists"},
    {"attribute_not_exists(a)",
     "Invalid operator used in KeyConditionExpression: attribute_not_exists"},
    {"p = :p AND contains(c, :s)",
     "Invalid operator used in KeyConditionExpression: contains"},
    {"attribute_type(a, :s)",
     "Invalid KeyConditionExpression: Invalid attribute type name found; "
     "type: 00, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}"},
    {"p = :p AND size(c) = :c",
     "KeyConditionExpressions cannot contain nested operations"},
    {":c BETWEEN c AND :c2",
     "Invalid condition in KeyConditionExpression: BETWEEN operator must have "
     "the key attribute as its first operand"},
    {"begins_with(:s, c)",
     "Invalid condition in KeyConditionExpression: begins_with operator must "
     "have the key attribute as its first operand"},
    {"p = c",
     "Invalid condition in KeyConditionExpression: Multiple attribute names "
     "used in one condition"},
    {"c BETWEEN :c1 AND a",
     "Invalid condition in KeyConditionExpression: Multiple attribute names "
     "used in one condition"},
    {":p = :a",
     "Invalid condition in KeyConditionExpression: No key attribute "
     "specified"},
    {"p = :p AND a.b < :a",
     "KeyConditionExpressions cannot have conditions on nested attributes"},
    {"p = :p AND a[1] < :a",
     "KeyConditionExpressions cannot have conditions on nested attributes"},
    {"#x = :a", "a.b EQ {N:1}"},  // a placeholder is one top-level name
    {"p=:p AND p=:p",
     "KeyConditionExpressions must only contain one condition per key"},
    {"p=:p AND c>=:c1 AND c<=:c2",
     "KeyConditionExpressions must only contain one condition per key"},
    // Up to 8 terms (a multi-attribute GSI key); BindKeyCondition refuses
    // more than 2 on other keys.
    {"p=:p AND c<:c AND a<:a", "p EQ {S:pk}; c LT {N:3}; a LT {N:1}"},
    {"a1=:a AND a2=:a AND a3=:a AND a4=:a AND a5=:a AND a6=:a AND a7=:a AND "
     "a8=:a AND a9=:a",
     "Conditions can be of length 1 or 2 only"},
    // Errors of the shared grammar and of resolution come first.
    {"p", "Invalid KeyConditionExpression: Syntax error; token: \"<EOF>\", "
          "near: \"p\""},
    {"p=:p AND c!=:c", "Invalid KeyConditionExpression: Syntax error; token: "
                       "\"!\", near: \"c!=\""},
    {"", "Invalid KeyConditionExpression: The expression can not be empty;"},
    {"p=:p AND dog(c, :c)",
     "Invalid KeyConditionExpression: Invalid function name; function: dog"},
    {"p=:p AND BEGINS_WITH(c,:c)",
     "Invalid KeyConditionExpression: Invalid function name; function: "
     "BEGINS_WITH"},
    {"p=:p AND begins_with(c, :num)",
     "Invalid KeyConditionExpression: Incorrect operand type for operator or "
     "function; operator or function: begins_with, operand type: N"},
    {"p=:q", "Invalid KeyConditionExpression: An expression attribute value "
             "used in expression is not defined; attribute value: :q"},
    {"p=:p AND c BETWEEN :c2 AND :c1",
     "Invalid KeyConditionExpression: The BETWEEN operator requires upper "
     "bound to be greater than or equal to lower bound; lower bound operand: "
     "AttributeValue: {N:7}, upper bound operand: AttributeValue: {N:4}"},
};

TEST(KeyConditionTest, Analyze) {
  for (const Case& c : kCases) {
    EXPECT_EQ(c.expected, Analyze(c.text)) << "text: " << c.text;
  }
}

std::string Bind(std::string_view text, const KeyDef& key) {
  Result<ConditionExpression> parsed =
      ParseCondition(text, ExpressionKind::kKeyCondition);
  if (!parsed.ok()) return parsed.status().message();
  Resolver resolver(&Names(), &Values());
  Result<ConditionExpression> resolved = resolver.Resolve(*parsed);
  if (!resolved.ok()) return resolved.status().message();
  Result<KeyCondition> kc = AnalyzeKeyCondition(*resolved);
  if (!kc.ok()) return kc.status().message();
  Result<KeyQuery> q = BindKeyCondition(*kc, key);
  if (!q.ok()) return q.status().message();
  std::string out = "partition " + RenderValue(q->partition);
  for (const AttributeValue& v : q->extra_partition) out += " " + RenderValue(v);
  for (const AttributeValue& v : q->sort_equal) out += ", equal " + RenderValue(v);
  if (q->sort.has_value()) {
    out += ", sort " + q->sort->attribute + " " +
           std::string(KeyOpName(q->sort->op));
  }
  return out;
}

KeyDef HashRange(AttrType hash, AttrType range) {
  KeyDef k;
  k.hash_name = "p";
  k.hash_type = hash;
  k.range_name = "c";
  k.range_type = range;
  return k;
}

KeyDef HashOnly(AttrType hash) {
  KeyDef k;
  k.hash_name = "p";
  k.hash_type = hash;
  return k;
}

TEST(KeyConditionTest, BindToTheKeySchema) {
  const KeyDef sn = HashRange(AttrType::kS, AttrType::kN);
  const KeyDef ss = HashRange(AttrType::kS, AttrType::kS);
  const KeyDef s = HashOnly(AttrType::kS);
  EXPECT_EQ("partition {S:pk}", Bind("p = :p", sn));
  EXPECT_EQ("partition {S:pk}", Bind("p = :p", s));
  EXPECT_EQ("partition {S:pk}, sort c LT", Bind("p = :p AND c < :c", sn));
  EXPECT_EQ("partition {S:pk}, sort c GT", Bind(":c < c AND :p = p", sn));
  EXPECT_EQ("partition {S:pk}, sort c BETWEEN",
            Bind("p = :p AND c BETWEEN :c1 AND :c2", sn));
  EXPECT_EQ("partition {S:pk}, sort c BEGINS_WITH",
            Bind("p = :p AND begins_with(c, :s)", ss));
  EXPECT_EQ("Query condition missed key schema element: p", Bind("c = :c", sn));
  EXPECT_EQ("Query condition missed key schema element: p",
            Bind("a = :a AND c = :c", sn));
  EXPECT_EQ("Query condition missed key schema element: c",
            Bind("p = :p AND a < :a", sn));
  EXPECT_EQ("Query key condition not supported", Bind("p < :p", sn));
  EXPECT_EQ("Query key condition not supported",
            Bind("p BETWEEN :p AND :p", sn));
  EXPECT_EQ("Query key condition not supported",
            Bind("p = :p AND c = :c", s));
  EXPECT_EQ(
      "One or more parameter values were invalid: Condition parameter type "
      "does not match schema type",
      Bind("p = :num", sn));
  EXPECT_EQ(
      "One or more parameter values were invalid: Condition parameter type "
      "does not match schema type",
      Bind("p = :p AND c = :str", sn));
  EXPECT_EQ(
      "One or more parameter values were invalid: Condition parameter type "
      "does not match schema type",
      Bind("p = :p AND begins_with(c, :s)", sn));
}

TEST(KeyConditionTest, MoreThanTwoTermsOnASingleAttributeKey) {
  EXPECT_EQ("Conditions can be of length 1 or 2 only",
            Bind("p = :p AND c < :c AND a < :a", HashRange(AttrType::kS, AttrType::kN)));
}

// p (S) + q (N) partition key; c (N), d (S), e (N) sort key.
KeyDef MultiKey() {
  KeyDef k = HashRange(AttrType::kS, AttrType::kN);
  k.extra_hash = {{"q", AttrType::kN}};
  k.extra_range = {{"d", AttrType::kS}, {"e", AttrType::kN}};
  return k;
}

TEST(KeyConditionTest, BindToAMultiAttributeKey) {
  const KeyDef m = MultiKey();
  EXPECT_EQ("partition {S:pk} {N:3}", Bind("p = :p AND q = :c", m));
  EXPECT_EQ("partition {S:pk} {N:3}", Bind("q = :c AND p = :p", m));
  EXPECT_EQ("partition {S:pk} {N:3}, sort c LT",
            Bind("p = :p AND q = :c AND c < :c", m));
  EXPECT_EQ("partition {S:pk} {N:3}, equal {N:3}, sort d BEGINS_WITH",
            Bind("p = :p AND q = :c AND c = :c AND begins_with(d, :s)", m));
  EXPECT_EQ("partition {S:pk} {N:3}, equal {N:3}, equal {S:00}, sort e BETWEEN",
            Bind("e BETWEEN :c1 AND :c2 AND d = :s AND c = :c AND p = :p AND q = :c", m));
  EXPECT_EQ("partition {S:pk} {N:3}, equal {N:3}, equal {S:00}, sort e EQ",
            Bind("p = :p AND q = :c AND c = :c AND d = :s AND e = :c", m));
  // Every partition-key attribute, with =.
  EXPECT_EQ("Query key condition not supported: every HASH key attribute needs an equality "
            "condition; attribute: q", Bind("p = :p", m));
  EXPECT_EQ("Query key condition not supported: every HASH key attribute needs an equality "
            "condition; attribute: q",
            Bind("p = :p AND c = :c", m));
  EXPECT_EQ("Query key condition not supported: every HASH key attribute needs an equality "
            "condition; attribute: q", Bind("p = :p AND q > :c", m));
  // Sort-key conditions on a leading run; a range condition only last.
  EXPECT_EQ("Query key condition not supported: RANGE key attributes are conditioned left to "
            "right, each before the last with an equality condition; attribute: c",
            Bind("p = :p AND q = :c AND d = :s", m));
  EXPECT_EQ("Query key condition not supported: RANGE key attributes are conditioned left to "
            "right, each before the last with an equality condition; attribute: d",
            Bind("p = :p AND q = :c AND c = :c AND e = :c", m));
  EXPECT_EQ("Query key condition not supported: RANGE key attributes are conditioned left to "
            "right, each before the last with an equality condition; attribute: d",
            Bind("p = :p AND q = :c AND c > :c AND d = :s", m));
  // A condition on an attribute outside the key.
  EXPECT_EQ("Query key condition not supported: RANGE key attributes are conditioned left to "
            "right, each before the last with an equality condition; attribute: c",
            Bind("p = :p AND q = :c AND a = :a", m));
  EXPECT_EQ("One or more parameter values were invalid: Condition parameter type "
            "does not match schema type",
            Bind("p = :p AND q = :p", m));
  EXPECT_EQ("One or more parameter values were invalid: Condition parameter type "
            "does not match schema type",
            Bind("p = :p AND q = :c AND c = :c AND d = :c", m));
}

TEST(KeyConditionTest, MatchesSortCondition) {
  auto term = [](KeyOp op, std::vector<AttributeValue> values) {
    KeyConditionTerm t;
    t.attribute = "c";
    t.op = op;
    t.values = std::move(values);
    return t;
  };
  EXPECT_TRUE(MatchesSortCondition(term(KeyOp::kEq, {N("3")}), N("3.0")));
  EXPECT_FALSE(MatchesSortCondition(term(KeyOp::kEq, {N("3")}), N("4")));
  EXPECT_TRUE(MatchesSortCondition(term(KeyOp::kLt, {N("3")}), N("2")));
  EXPECT_FALSE(MatchesSortCondition(term(KeyOp::kLt, {N("3")}), N("3")));
  EXPECT_TRUE(MatchesSortCondition(term(KeyOp::kLe, {N("3")}), N("3")));
  EXPECT_TRUE(MatchesSortCondition(term(KeyOp::kGt, {S("005")}), S("006")));
  EXPECT_FALSE(MatchesSortCondition(term(KeyOp::kGe, {S("005")}), S("004")));
  EXPECT_TRUE(MatchesSortCondition(term(KeyOp::kBetween, {N("4"), N("7")}),
                                   N("7")));
  EXPECT_FALSE(MatchesSortCondition(term(KeyOp::kBetween, {N("4"), N("7")}),
                                    N("8")));
  EXPECT_TRUE(MatchesSortCondition(term(KeyOp::kBeginsWith, {S("00")}),
                                   S("003")));
  EXPECT_FALSE(MatchesSortCondition(term(KeyOp::kBeginsWith, {S("01")}),
                                    S("003")));
  EXPECT_TRUE(MatchesSortCondition(term(KeyOp::kGt, {B("\x7f")}), B("\x80")));
  EXPECT_FALSE(MatchesSortCondition(term(KeyOp::kEq, {N("3")}), S("3")));
  EXPECT_FALSE(MatchesSortCondition(term(KeyOp::kBeginsWith, {S("a")}),
                                    B("abc")));
}

}  // namespace
}  // namespace dynarock::expr
