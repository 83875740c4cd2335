#include "engine/expr/resolve.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>

#include "engine/expr/parser.h"
#include "engine/expr/render.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::expr {
namespace {

using namespace testing;  // NOLINT: value builders

const NameMap& Names() {
  static const NameMap* names = new NameMap{
      {"#a", "a"},   {"#b", "b"},       {"#a1", "a"},  {"#a2", "a"},
      {"#dot", "a.b"}, {"#and", "and"}, {"#n", "n"},
  };
  return *names;
}

const ValueMap& Values() {
  static const ValueMap* values = new ValueMap{
      {":s", S("hello")},
      {":s2", S("dog")},
      {":n", N("5")},
      {":n1", N("1")},
      {":n2", N("2")},
      {":b", B(std::string("\x01\x02\xff", 3))},
      {":b2", B("a")},
      {":bool", Bool(true)},
      {":null", Null()},
      {":l", L({N("1"), S("x")})},
      {":m", M({{"x", N("1")}})},
      {":ss", SS({"a", "b"})},
      {":ns", NS({"1", "2"})},
      {":bs", BS({"x", "y"})},
      {":t", S("N")},
      {":bad", S("DOG")},
  };
  return *values;
}

std::string ResolveConditionText(std::string_view text) {
  Result<ConditionExpression> parsed = ParseCondition(text);
  if (!parsed.ok()) return "PARSE: " + parsed.status().message();
  Resolver resolver(&Names(), &Values());
  Result<ConditionExpression> r = resolver.Resolve(*parsed);
  return r.ok() ? RenderResolved(*r) : r.status().message();
}

std::string ResolveUpdateText(std::string_view text) {
  Result<UpdateExpression> parsed = ParseUpdate(text);
  if (!parsed.ok()) return "PARSE: " + parsed.status().message();
  Resolver resolver(&Names(), &Values());
  Result<UpdateExpression> r = resolver.Resolve(*parsed);
  return r.ok() ? RenderResolved(*r) : r.status().message();
}

std::string ResolveProjectionText(std::string_view text) {
  Result<ProjectionExpression> parsed = ParseProjection(text);
  if (!parsed.ok()) return "PARSE: " + parsed.status().message();
  Resolver resolver(&Names(), &Values());
  Result<ProjectionExpression> r = resolver.Resolve(*parsed);
  return r.ok() ? RenderResolved(*r) : r.status().message();
}

struct Case {
  std::string_view text;
  std::string_view expected;
};

#define COND_ERR(m) "Invalid ConditionExpression: " m
#define UPD_ERR(m) "Invalid UpdateExpression: " m
#define PROJ_ERR(m) "Invalid ProjectionExpression: " m
#define OPERAND_TYPE(f, t)                                                \
  "Incorrect operand type for operator or function; operator or function: " \
  f ", operand type: " t
#define OVERLAP(a, b)                                                       \
  "Two document paths overlap with each other; must remove or rewrite one " \
  "of these paths; path one: " a ", path two: " b
#define CONFLICT(a, b)                                                       \
  "Two document paths conflict with each other; must remove or rewrite one " \
  "of these paths; path one: " a ", path two: " b
#define NOT_DISTINCT(op, p)                                                \
  "The first operand must be distinct from the remaining operands for this " \
  "operator or function; operator: " op ", first operand: " p

constexpr Case kConditionCases[] = {
    // Substitution.
    {"#a = :n", "a = {N:5}"},
    {"#a.#b[2] <> :s", "a.b[2] <> {S:hello}"},
    {"#dot = :s", "a.b = {S:hello}"},
    {"#and = :bool", "and = {BOOL:true}"},
    {"a IN (:s, :n, :b, :null)",
     "a IN ({S:hello}, {N:5}, {B:AQL/}, {NULL:true})"},
    {"a = :l", "a = {L:[{N:1}, {S:x}]}"},
    {"a = :m", "a = {M:{x:{N:1}}}"},
    {"a <> :ss OR a = :ns OR a = :bs",
     "((a <> {SS:[a, b]} OR a = {NS:[1, 2]}) OR a = {BS:[eA==, eQ==]})"},
    {"attribute_type(#a, :t) AND NOT begins_with(b, :s)",
     "(attribute_type(a, {S:N}) AND (NOT begins_with(b, {S:hello})))"},
    {"size(#a) BETWEEN :n1 AND :n", "size(a) BETWEEN {N:1} AND {N:5}"},
    // Undefined placeholders: the first in the text.
    {"#x = :n",
     COND_ERR("An expression attribute name used in the document path is not "
              "defined; attribute name: #x")},
    {"a = :zz",
     COND_ERR("An expression attribute value used in expression is not "
              "defined; attribute value: :zz")},
    {"a.#x.#y = :zz",
     COND_ERR("An expression attribute name used in the document path is not "
              "defined; attribute name: #x")},
    {":zz = #x",
     COND_ERR("An expression attribute value used in expression is not "
              "defined; attribute value: :zz")},
    {"a = :n OR contains(#q, :zz)",
     COND_ERR("An expression attribute name used in the document path is not "
              "defined; attribute name: #q")},
    {"attribute_exists(:zz)",
     COND_ERR("An expression attribute value used in expression is not "
              "defined; attribute value: :zz")},
    {"#x = :n AND a < :l",
     COND_ERR("An expression attribute name used in the document path is not "
              "defined; attribute name: #x")},
    // Ordering comparisons and BETWEEN take N, S and B constants only.
    {"a < :n", "a < {N:5}"},
    {"a < :s", "a < {S:hello}"},
    {"a < :b", "a < {B:AQL/}"},
    {"a < :l", COND_ERR(OPERAND_TYPE("<", "L"))},
    {":l >= a", COND_ERR(OPERAND_TYPE(">=", "L"))},
    {"a <= :m", COND_ERR(OPERAND_TYPE("<=", "M"))},
    {"a > :bool", COND_ERR(OPERAND_TYPE(">", "BOOL"))},
    {"a >= :null", COND_ERR(OPERAND_TYPE(">=", "NULL"))},
    {"a < :ss", COND_ERR(OPERAND_TYPE("<", "SS"))},
    {"a > :ns", COND_ERR(OPERAND_TYPE(">", "NS"))},
    {"a < :bs", COND_ERR(OPERAND_TYPE("<", "BS"))},
    {"a = :l AND a <> :m", "(a = {L:[{N:1}, {S:x}]} AND a <> {M:{x:{N:1}}})"},
    {"size(a) < :n", "size(a) < {N:5}"},
    {"a BETWEEN :n1 AND :n1", "a BETWEEN {N:1} AND {N:1}"},
    {"a BETWEEN :n1 AND :n", "a BETWEEN {N:1} AND {N:5}"},
    {"a BETWEEN :s2 AND :s", "a BETWEEN {S:dog} AND {S:hello}"},
    {"a BETWEEN :b AND :b2", "a BETWEEN {B:AQL/} AND {B:YQ==}"},
    {"a BETWEEN b AND :n1", "a BETWEEN b AND {N:1}"},
    {"a BETWEEN :n AND b", "a BETWEEN {N:5} AND b"},
    {"a BETWEEN :n AND :n1",
     COND_ERR("The BETWEEN operator requires upper bound to be greater than "
              "or equal to lower bound; lower bound operand: AttributeValue: "
              "{N:5}, upper bound operand: AttributeValue: {N:1}")},
    {"a BETWEEN :s AND :s2",
     COND_ERR("The BETWEEN operator requires upper bound to be greater than "
              "or equal to lower bound; lower bound operand: AttributeValue: "
              "{S:hello}, upper bound operand: AttributeValue: {S:dog}")},
    {"a BETWEEN :b2 AND :b",
     COND_ERR("The BETWEEN operator requires upper bound to be greater than "
              "or equal to lower bound; lower bound operand: AttributeValue: "
              "{B:YQ==}, upper bound operand: AttributeValue: {B:AQL/}")},
    {"a BETWEEN :n2 AND :s2",
     COND_ERR("The BETWEEN operator requires same data type for lower and "
              "upper bounds; lower bound operand: AttributeValue: {N:2}, "
              "upper bound operand: AttributeValue: {S:dog}")},
    {"a BETWEEN :l AND :l", COND_ERR(OPERAND_TYPE("BETWEEN", "L"))},
    {"a BETWEEN :n AND :bool", COND_ERR(OPERAND_TYPE("BETWEEN", "BOOL"))},
    {":m BETWEEN a AND b", COND_ERR(OPERAND_TYPE("BETWEEN", "M"))},
    // Operands that must differ.
    {"a = a", COND_ERR(NOT_DISTINCT("=", "[a]"))},
    {"a <> a", COND_ERR(NOT_DISTINCT("<>", "[a]"))},
    {"a.b[1] < a.b[1]", COND_ERR(NOT_DISTINCT("<", "[a, b, [1]]"))},
    {"#a = a", COND_ERR(NOT_DISTINCT("=", "[a]"))},
    {"#a1 >= #a2", COND_ERR(NOT_DISTINCT(">=", "[a]"))},
    {"a IN (b, a)", COND_ERR(NOT_DISTINCT("IN", "[a]"))},
    {"a BETWEEN a AND b", COND_ERR(NOT_DISTINCT("BETWEEN", "[a]"))},
    {"contains(a, a)", COND_ERR(NOT_DISTINCT("contains", "[a]"))},
    {"begins_with(#a, a)", COND_ERR(NOT_DISTINCT("begins_with", "[a]"))},
    {"a = b", "a = b"},
    {"a.b = a.c", "a.b = a.c"},
    {"a[1] = a[2]", "a[1] = a[2]"},
    {"a = #dot", "a = a.b"},
    {"contains(a, a1)", "contains(a, a1)"},
    {"size(a) = a", "size(a) = a"},
    {"a IN (:n, b, c)", "a IN ({N:5}, b, c)"},
    // Function operands.
    {"attribute_exists(a, b)",
     COND_ERR("Incorrect number of operands for operator or function; "
              "operator or function: attribute_exists, number of operands: "
              "2")},
    {"attribute_not_exists(a, b, c)",
     COND_ERR("Incorrect number of operands for operator or function; "
              "operator or function: attribute_not_exists, number of "
              "operands: 3")},
    {"size(a, a) = :n",
     COND_ERR("Incorrect number of operands for operator or function; "
              "operator or function: size, number of operands: 2")},
    {"attribute_type(a)",
     COND_ERR("Incorrect number of operands for operator or function; "
              "operator or function: attribute_type, number of operands: 1")},
    {"contains(a)",
     COND_ERR("Incorrect number of operands for operator or function; "
              "operator or function: contains, number of operands: 1")},
    {"begins_with(a, :s, :s2)",
     COND_ERR("Incorrect number of operands for operator or function; "
              "operator or function: begins_with, number of operands: 3")},
    {"attribute_exists(:n)",
     COND_ERR("Operator or function requires a document path; operator or "
              "function: attribute_exists")},
    {"attribute_not_exists(size(a))",
     COND_ERR("Operator or function requires a document path; operator or "
              "function: attribute_not_exists")},
    {"attribute_type(a, :t)", "attribute_type(a, {S:N})"},
    {"attribute_type(:n, :t)", "attribute_type({N:5}, {S:N})"},
    {"attribute_type(a, :bad)",
     COND_ERR("Invalid attribute type name found; type: DOG, valid types: "
              "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}")},
    {"attribute_type(a, :s)",
     COND_ERR("Invalid attribute type name found; type: hello, valid types: "
              "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}")},
    {"attribute_type(a, :n)", COND_ERR(OPERAND_TYPE("attribute_type", "N"))},
    {"attribute_type(a, :ss)", COND_ERR(OPERAND_TYPE("attribute_type", "SS"))},
    {"attribute_type(a, b)",
     COND_ERR(OPERAND_TYPE("attribute_type", "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"))},
    {"begins_with(a, :s)", "begins_with(a, {S:hello})"},
    {"begins_with(a, :b)", "begins_with(a, {B:AQL/})"},
    {"begins_with(:s, a)", "begins_with({S:hello}, a)"},
    {"begins_with(a, b)", "begins_with(a, b)"},
    {"begins_with(a, :n)", COND_ERR(OPERAND_TYPE("begins_with", "N"))},
    {"begins_with(:n, a)", COND_ERR(OPERAND_TYPE("begins_with", "N"))},
    {"begins_with(a, :l)", COND_ERR(OPERAND_TYPE("begins_with", "L"))},
    {"begins_with(a, size(b))", COND_ERR(OPERAND_TYPE("begins_with", "N"))},
    {"contains(a, :l)", "contains(a, {L:[{N:1}, {S:x}]})"},
    {"contains(:ss, a)", "contains({SS:[a, b]}, a)"},
    {"size(:s) = :n", "size({S:hello}) = {N:5}"},
    {"size(:l) = :n", "size({L:[{N:1}, {S:x}]}) = {N:5}"},
    {"size(:n) = :n", COND_ERR(OPERAND_TYPE("size", "N"))},
    {"size(:bool) > :n", COND_ERR(OPERAND_TYPE("size", "BOOL"))},
    {"size(:null) = :n", COND_ERR(OPERAND_TYPE("size", "NULL"))},
    {"size(size(a)) = :n", COND_ERR(OPERAND_TYPE("size", "N"))},
    // Categories in DynamoDB's order: operand count, distinct operands,
    // then types.
    {"begins_with(b, :n) AND a = a", COND_ERR(NOT_DISTINCT("=", "[a]"))},
    {"a = a AND size(a, b) = :n",
     COND_ERR("Incorrect number of operands for operator or function; "
              "operator or function: size, number of operands: 2")},
    {"a < :l OR begins_with(a, :n)", COND_ERR(OPERAND_TYPE("<", "L"))},
};

TEST(ResolveTest, Conditions) {
  for (const Case& c : kConditionCases) {
    EXPECT_EQ(c.expected, ResolveConditionText(c.text)) << "text: " << c.text;
  }
}

constexpr Case kUpdateCases[] = {
    {"SET #a = :n", "SET a = {N:5}"},
    {"SET #a = #b + :n", "SET a = (b + {N:5})"},
    {"SET #a = if_not_exists(#a, :n) - :n1",
     "SET a = (if_not_exists(a, {N:5}) - {N:1})"},
    {"SET a = list_append(:l, b)", "SET a = list_append({L:[{N:1}, {S:x}]}, b)"},
    {"SET #dot = :s REMOVE #b", "SET a.b = {S:hello} REMOVE b"},
    {"ADD #n :n, s :ss DELETE t :ns, u :bs",
     "ADD n {N:5}, s {SS:[a, b]} DELETE t {NS:[1, 2]}, u {BS:[eA==, eQ==]}"},
    // Undefined placeholders: names before values.
    {"SET #x = :n",
     UPD_ERR("An expression attribute name used in the document path is not "
             "defined; attribute name: #x")},
    {"SET a = :zz, #x = :n",
     UPD_ERR("An expression attribute name used in the document path is not "
             "defined; attribute name: #x")},
    {"SET a = :zz",
     UPD_ERR("An expression attribute value used in expression is not "
             "defined; attribute value: :zz")},
    {"REMOVE a.#x",
     UPD_ERR("An expression attribute name used in the document path is not "
             "defined; attribute name: #x")},
    {"ADD a :zz",
     UPD_ERR("An expression attribute value used in expression is not "
             "defined; attribute value: :zz")},
    {"SET b = if_not_exists(:zz, :n)",
     UPD_ERR("An expression attribute value used in expression is not "
             "defined; attribute value: :zz")},
    // Function and operator operands.
    {"SET a = :s + :n", UPD_ERR(OPERAND_TYPE("+", "S"))},
    {"SET a = :n + :s", UPD_ERR(OPERAND_TYPE("+", "S"))},
    {"SET a = :n - :l", UPD_ERR(OPERAND_TYPE("-", "L"))},
    {"SET a = b + c", "SET a = (b + c)"},
    {"SET a = list_append(:l, :s)", UPD_ERR(OPERAND_TYPE("list_append", "S"))},
    {"SET a = list_append(:m, b)", UPD_ERR(OPERAND_TYPE("list_append", "M"))},
    {"SET a = list_append(:l)",
     UPD_ERR("Incorrect number of operands for operator or function; "
             "operator or function: list_append, number of operands: 1")},
    {"SET a = list_append(:l, :l, :l)",
     UPD_ERR("Incorrect number of operands for operator or function; "
             "operator or function: list_append, number of operands: 3")},
    {"SET a = if_not_exists(a)",
     UPD_ERR("Incorrect number of operands for operator or function; "
             "operator or function: if_not_exists, number of operands: 1")},
    {"SET a = if_not_exists(:n, :n)",
     UPD_ERR("Operator or function requires a document path; operator or "
             "function: if_not_exists")},
    {"SET b = if_not_exists(if_not_exists(a, :n2), :n1)",
     UPD_ERR("Operator or function requires a document path; operator or "
             "function: if_not_exists")},
    {"SET a = if_not_exists(a, :s) + :n",
     "SET a = (if_not_exists(a, {S:hello}) + {N:5})"},
    // ADD and DELETE operands.
    {"ADD a :n", "ADD a {N:5}"},
    {"ADD a :ss", "ADD a {SS:[a, b]}"},
    {"ADD a :s",
     UPD_ERR("Incorrect operand type for operator or function; operator: "
             "ADD, operand type: STRING")},
    {"ADD a :b",
     UPD_ERR("Incorrect operand type for operator or function; operator: "
             "ADD, operand type: BINARY")},
    {"ADD a :l",
     UPD_ERR("Incorrect operand type for operator or function; operator: "
             "ADD, operand type: LIST")},
    {"ADD a :m",
     UPD_ERR("Incorrect operand type for operator or function; operator: "
             "ADD, operand type: MAP")},
    {"ADD a :bool",
     UPD_ERR("Incorrect operand type for operator or function; operator: "
             "ADD, operand type: BOOLEAN")},
    {"ADD a :null",
     UPD_ERR("Incorrect operand type for operator or function; operator: "
             "ADD, operand type: NULL")},
    {"DELETE a :ss", "DELETE a {SS:[a, b]}"},
    {"DELETE a :n",
     UPD_ERR("Incorrect operand type for operator or function; operator: "
             "DELETE, operand type: NUMBER")},
    {"DELETE a :s",
     UPD_ERR("Incorrect operand type for operator or function; operator: "
             "DELETE, operand type: STRING")},
    // Overlapping and conflicting paths (compared after substitution).
    {"SET a = :n, a = :n1", UPD_ERR(OVERLAP("[a]", "[a]"))},
    {"SET #a1 = :n, #a2 = :n1", UPD_ERR(OVERLAP("[a]", "[a]"))},
    {"REMOVE a SET a = :n", UPD_ERR(OVERLAP("[a]", "[a]"))},
    {"SET a = :n REMOVE a", UPD_ERR(OVERLAP("[a]", "[a]"))},
    {"SET a = :n, a.b = :n1", UPD_ERR(OVERLAP("[a]", "[a, b]"))},
    {"SET a.b = :n, a = :n1", UPD_ERR(OVERLAP("[a, b]", "[a]"))},
    {"SET a.b = :n, a.b.c.d.e = :n1",
     UPD_ERR(OVERLAP("[a, b]", "[a, b, c, d, e]"))},
    {"SET a = :n, a[1] = :n1", UPD_ERR(OVERLAP("[a]", "[a, [1]]"))},
    {"SET a[1][1] = :n, a[1] = :n1",
     UPD_ERR(OVERLAP("[a, [1], [1]]", "[a, [1]]"))},
    {"SET a[1][1][1][1] = :n, a[1][1][1][1] = :n1",
     UPD_ERR(OVERLAP("[a, [1], [1], [1], [1]]", "[a, [1], [1], [1], [1]]"))},
    {"ADD a :n DELETE a :ss", UPD_ERR(OVERLAP("[a]", "[a]"))},
    {"SET nodes = :l REMOVE nodes[135]",
     UPD_ERR(OVERLAP("[nodes]", "[nodes, [135]]"))},
    {"SET a.b = :n, a[1] = :n1", UPD_ERR(CONFLICT("[a, b]", "[a, [1]]"))},
    {"SET a.b.c = :n, a.b[2] = :n1",
     UPD_ERR(CONFLICT("[a, b, c]", "[a, b, [2]]"))},
    {"SET a.b = :n, a[1] = :n, a.b = :n1", UPD_ERR(OVERLAP("[a, b]", "[a, b]"))},
    {"SET a.b = :n, a.c.d = :n1, b.x = :n2 REMOVE a.x, b.y",
     "SET a.b = {N:5}, a.c.d = {N:1}, b.x = {N:2} REMOVE a.x, b.y"},
    {"SET a[1] = :n, a[2] = :n1", "SET a[1] = {N:5}, a[2] = {N:1}"},
    {"SET a.b = :n, b.a = :n1", "SET a.b = {N:5}, b.a = {N:1}"},
    {"SET #dot = :n, a.b = :n1", "SET a.b = {N:5}, a.b = {N:1}"},
    {"REMOVE a SET b = a", "REMOVE a SET b = a"},
    // Categories: overlap, conflict, ADD/DELETE operand, function operands.
    {"ADD a :s, a :n", UPD_ERR(OVERLAP("[a]", "[a]"))},
    {"SET b = list_append(:l, :s) ADD a :s",
     UPD_ERR("Incorrect operand type for operator or function; operator: "
             "ADD, operand type: STRING")},
    {"SET b = :s + :n, c.d = :n, c[1] = :n", UPD_ERR(CONFLICT("[c, d]", "[c, [1]]"))},
};

TEST(ResolveTest, Updates) {
  for (const Case& c : kUpdateCases) {
    EXPECT_EQ(c.expected, ResolveUpdateText(c.text)) << "text: " << c.text;
  }
}

TEST(ResolveTest, ProjectionOverlapsAndConflicts) {
  for (std::string_view text :
       {"a, a", "a.b, a.b", "a[1], a[1]", "a, a.b", "a.b, a", "a.b, a.b[2]",
        "a.b, a.b.c", "a, a.b[2].c", "a.b.d, a.b", "a.b.d.e, a.b",
        "a.b, a.b.d", "a.b, a.b.d.e", "a,a.b[0]", "#a, a"}) {
    EXPECT_NE(std::string::npos,
              ResolveProjectionText(text).find("Two document paths overlap"))
        << text;
  }
  for (std::string_view text :
       {"a.b, a[1]", "a[1], a.b", "a.b[1], a.b.c", "a.b.c, a.b[1]"}) {
    EXPECT_NE(std::string::npos,
              ResolveProjectionText(text).find("Two document paths conflict"))
        << text;
  }
  for (std::string_view text : {"a, b", "a.b, a.c", "a.b.d, a.b.e",
                                "a[1], a[2]", "a.b, a.c[2]", "a.b, a.c[1]"}) {
    EXPECT_EQ(text, ResolveProjectionText(text));
  }
}

constexpr Case kProjectionCases[] = {
    {"#a, b", "a, b"},
    {"#a.#b[1]", "a.b[1]"},
    {"#dot", "a.b"},
    {"#dot, a.b", "a.b, a.b"},
    {"#x",
     PROJ_ERR("An expression attribute name used in the document path is not "
              "defined; attribute name: #x")},
    {"a, b.#x",
     PROJ_ERR("An expression attribute name used in the document path is not "
              "defined; attribute name: #x")},
    {"a.b[0],a.b[0]", PROJ_ERR(OVERLAP("[a, b, [0]]", "[a, b, [0]]"))},
    {"top, top", PROJ_ERR(OVERLAP("[top]", "[top]"))},
    {"obj, obj.a", PROJ_ERR(OVERLAP("[obj]", "[obj, a]"))},
    {"a.b, a[1]", PROJ_ERR(CONFLICT("[a, b]", "[a, [1]]"))},
    {"a.b, a[1], a.b", PROJ_ERR(OVERLAP("[a, b]", "[a, b]"))},
};

TEST(ResolveTest, Projections) {
  for (const Case& c : kProjectionCases) {
    EXPECT_EQ(c.expected, ResolveProjectionText(c.text)) << "text: " << c.text;
  }
}

// --- Unused placeholders span the whole request ---------------------------

TEST(ResolveTest, UnusedNameIsReported) {
  NameMap names = {{"#a", "hello"}, {"#b", "hi"}};
  ValueMap values = {{":val1", N("3")}};
  Resolver resolver(&names, &values);
  ASSERT_OK(resolver.Resolve(ParseUpdate("SET #a = :val1").value()));
  EXPECT_THAT(resolver.CheckAllUsed(),
              StatusIs(ErrorCode::kValidation,
                       ::testing::StrEq("Value provided in "
                                        "ExpressionAttributeNames unused in "
                                        "expressions: keys: {#b}")));
}

TEST(ResolveTest, UnusedValueIsReported) {
  ValueMap values = {{":val1", N("3")}, {":val2", N("4")}};
  Resolver resolver(nullptr, &values);
  ASSERT_OK(resolver.Resolve(ParseUpdate("SET a = :val1").value()));
  EXPECT_THAT(resolver.CheckAllUsed(),
              StatusIs(ErrorCode::kValidation,
                       ::testing::StrEq("Value provided in "
                                        "ExpressionAttributeValues unused in "
                                        "expressions: keys: {:val2}")));
}

TEST(ResolveTest, AllUnusedKeysAreListedSortedAndNamesComeFirst) {
  NameMap names = {{"#c", "c"}, {"#a", "a"}, {"#b", "b"}};
  ValueMap values = {{":z", N("1")}, {":y", N("2")}};
  Resolver resolver(&names, &values);
  ASSERT_OK(resolver.Resolve(ParseProjection("#a").value()));
  EXPECT_EQ(
      "Value provided in ExpressionAttributeNames unused in expressions: "
      "keys: {#b, #c}",
      resolver.CheckAllUsed().message());
  ASSERT_OK(resolver.Resolve(ParseProjection("#b, #c").value()));
  EXPECT_EQ(
      "Value provided in ExpressionAttributeValues unused in expressions: "
      "keys: {:y, :z}",
      resolver.CheckAllUsed().message());
}

TEST(ResolveTest, UseInAnyExpressionOfTheRequestCounts) {
  // UpdateItem with UpdateExpression and ConditionExpression.
  NameMap names = {{"#name1", "a"}, {"#name2", "b"}};
  ValueMap values = {{":val1", N("1")}, {":val2", N("2")}, {":val3", N("3")}};
  Resolver resolver(&names, &values);
  ASSERT_OK(resolver.Resolve(ParseUpdate("SET #name1 = :val1").value()));
  EXPECT_FALSE(resolver.CheckAllUsed().ok());
  // A condition that short-circuits still uses all its placeholders.
  ASSERT_OK(resolver.Resolve(
      ParseCondition("#name1 = :val2 OR #name2 = :val3").value()));
  EXPECT_OK(resolver.CheckAllUsed());
  EXPECT_EQ((std::set<std::string>{"#name1", "#name2"}), resolver.used_names());
  EXPECT_EQ((std::set<std::string>{":val1", ":val2", ":val3"}),
            resolver.used_values());
}

TEST(ResolveTest, QueryKeyConditionFilterAndProjectionShareTheMaps) {
  NameMap names = {{"#name1", "p"}, {"#name2", "a"}};
  ValueMap values = {{":val1", S("x")}, {":f", N("1")}};
  Resolver resolver(&names, &values);
  ASSERT_OK(resolver.Resolve(
      ParseCondition("#name1 = :val1", ExpressionKind::kKeyCondition).value()));
  ASSERT_OK(resolver.Resolve(ParseProjection("#name2").value()));
  EXPECT_EQ(
      "Value provided in ExpressionAttributeValues unused in expressions: "
      "keys: {:f}",
      resolver.CheckAllUsed().message());
  ASSERT_OK(resolver.Resolve(
      ParseCondition("#name2 > :f", ExpressionKind::kFilter).value()));
  EXPECT_OK(resolver.CheckAllUsed());
}

TEST(ResolveTest, AbsentMapsMeanNothingIsDefined) {
  Resolver resolver(nullptr, nullptr);
  EXPECT_EQ(
      "Invalid ConditionExpression: An expression attribute name used in the "
      "document path is not defined; attribute name: #a",
      resolver.Resolve(ParseCondition("#a = b").value()).status().message());
  EXPECT_EQ(
      "Invalid FilterExpression: An expression attribute value used in "
      "expression is not defined; attribute value: :v",
      resolver
          .Resolve(ParseCondition("a = :v", ExpressionKind::kFilter).value())
          .status()
          .message());
  ASSERT_OK(resolver.Resolve(ParseCondition("a = b").value()));
  EXPECT_OK(resolver.CheckAllUsed());
}

TEST(ResolveTest, ResolvedTreesOwnTheirValuesAndKeepPlaceholders) {
  Result<ConditionExpression> resolved = Status::Internal("unset");
  {
    NameMap names = {{"#a", "attr"}};
    ValueMap values = {{":v", S("value")}};
    Resolver resolver(&names, &values);
    resolved = resolver.Resolve(ParseCondition("#a = :v").value());
  }
  ASSERT_OK(resolved);
  EXPECT_TRUE(resolved->resolved);
  EXPECT_EQ("attr = {S:value}", RenderResolved(*resolved));
  EXPECT_EQ("#a = :v", Render(*resolved));
  const Operand& left = resolved->root.operands[0];
  EXPECT_EQ("attr", left.path.top());
  EXPECT_EQ("#a", left.path.elements[0].placeholder);
}

TEST(ResolveTest, KindSelectsThePrefix) {
  ValueMap values = {{":l", L({})}};
  Resolver resolver(nullptr, &values);
  EXPECT_EQ(
      "Invalid KeyConditionExpression: Incorrect operand type for operator "
      "or function; operator or function: <, operand type: L",
      resolver
          .Resolve(ParseCondition("a < :l", ExpressionKind::kKeyCondition)
                       .value())
          .status()
          .message());
  EXPECT_EQ(
      "Invalid FilterExpression: Incorrect operand type for operator or "
      "function; operator or function: <, operand type: L",
      resolver.Resolve(ParseCondition("a < :l", ExpressionKind::kFilter).value())
          .status()
          .message());
}

}  // namespace
}  // namespace dynarock::expr
