#include "engine/expr/parser.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "engine/expr/render.h"
#include "tests/engine/expr/expr_test_util.h"

namespace dynarock::expr {
namespace {

using testing::ParseConditionText;
using testing::ParseProjectionText;
using testing::ParseUpdateText;

struct Case {
  std::string_view text;
  std::string_view expected;  // rendering, or the exact error message
};

#define COND_SYNTAX(tok, near)                                             \
  "Invalid ConditionExpression: Syntax error; token: \"" tok "\", near: \"" \
  near "\""
#define UPD_SYNTAX(tok, near)                                              \
  "Invalid UpdateExpression: Syntax error; token: \"" tok "\", near: \"" \
  near "\""
#define PROJ_SYNTAX(tok, near)                                               \
  "Invalid ProjectionExpression: Syntax error; token: \"" tok "\", near: \"" \
  near "\""

// --- ConditionExpression ---------------------------------------------------

constexpr Case kConditionCases[] = {
    // Comparisons.
    {"a = :v", "a = :v"},
    {"a=:v", "a = :v"},
    {"  a   =   :v  ", "a = :v"},
    {"a\t=\n:v\r", "a = :v"},
    {"a <> :v", "a <> :v"},
    {"a < :v", "a < :v"},
    {"a <= :v", "a <= :v"},
    {"a > :v", "a > :v"},
    {"a >= :v", "a >= :v"},
    {"a<>:v", "a <> :v"},
    {"a<=:v", "a <= :v"},
    {"a>=:v", "a >= :v"},
    {":v = a", ":v = a"},
    {":v < :w", ":v < :w"},
    {"a = b", "a = b"},
    {"A = :V", "A = :V"},
    {"Alpha_Numeric_123 = :v", "Alpha_Numeric_123 = :v"},
    {"a1 = :1", "a1 = :1"},
    {"#1 = :_", "#1 = :_"},
    {"#_ = :a_b", "#_ = :a_b"},
    // Paths.
    {"a.b.c = :v", "a.b.c = :v"},
    {"a[0] = :v", "a[0] = :v"},
    {"a[0][1].b = :v", "a[0][1].b = :v"},
    {"a . b [ 2 ] = :v", "a.b[2] = :v"},
    {"a[007] = :v", "a[7] = :v"},
    {"a[2147483647] = :v", "a[2147483647] = :v"},
    {"#n = :v", "#n = :v"},
    {"#n.#m[3] = :v", "#n.#m[3] = :v"},
    {"a.#n = :v", "a.#n = :v"},
    {"#n[1].b = :v", "#n[1].b = :v"},
    // BETWEEN and IN.
    {"a BETWEEN :x AND :y", "a BETWEEN :x AND :y"},
    {"a between :x and :y", "a BETWEEN :x AND :y"},
    {"a BeTwEeN :x aNd :y", "a BETWEEN :x AND :y"},
    {"a BETWEEN b AND c", "a BETWEEN b AND c"},
    {"size(a) BETWEEN :x AND size(b)", "size(a) BETWEEN :x AND size(b)"},
    {"a IN (:x)", "a IN (:x)"},
    {"a IN (:x, :y, b)", "a IN (:x, :y, b)"},
    {"a in(:x,:y)", "a IN (:x, :y)"},
    {"a IN ((:x), b)", "a IN (:x, b)"},
    {"a IN ((:x))", "a IN (:x)"},
    {":v IN (a, b.c)", ":v IN (a, b.c)"},
    // Functions.
    {"attribute_exists(a)", "attribute_exists(a)"},
    {"attribute_exists (a)", "attribute_exists(a)"},
    {"attribute_exists( a )", "attribute_exists(a)"},
    {"attribute_not_exists(a.b[1])", "attribute_not_exists(a.b[1])"},
    {"attribute_type(a, :t)", "attribute_type(a, :t)"},
    {"begins_with(a, :p)", "begins_with(a, :p)"},
    {"begins_with(:p, a)", "begins_with(:p, a)"},
    {"contains(a, :v)", "contains(a, :v)"},
    {"contains(#n, b)", "contains(#n, b)"},
    {"size(a) = :n", "size(a) = :n"},
    {"size(a)=:n", "size(a) = :n"},
    {"size(a) > size(b)", "size(a) > size(b)"},
    {":n < size(a)", ":n < size(a)"},
    {"size(a.b[2]) <> :n", "size(a.b[2]) <> :n"},
    {"(size(a)) = :v", "size(a) = :v"},
    {"size((a)) = :v", "size(a) = :v"},
    {"size(size(a)) = :v", "size(size(a)) = :v"},
    // Arity and argument kinds are checked by Resolve(), not the parser.
    {"attribute_exists(a, b)", "attribute_exists(a, b)"},
    {"attribute_exists(:v)", "attribute_exists(:v)"},
    {"size(a, b) = :v", "size(a, b) = :v"},
    // AND, OR, NOT and precedence.
    {"a = b AND c = d", "(a = b AND c = d)"},
    {"a = b and c = d", "(a = b AND c = d)"},
    {"a = b aNd c = d", "(a = b AND c = d)"},
    {"a = b OR c = d", "(a = b OR c = d)"},
    {"a = b oR c = d", "(a = b OR c = d)"},
    {"a = b AND c = d AND e = f", "((a = b AND c = d) AND e = f)"},
    {"a = b OR c = d OR e = f", "((a = b OR c = d) OR e = f)"},
    {"a = b OR c = d AND e = f", "(a = b OR (c = d AND e = f))"},
    {"a = b AND c = d OR e = f", "((a = b AND c = d) OR e = f)"},
    {"a < b OR c < b AND b < c", "(a < b OR (c < b AND b < c))"},
    {"NOT a = b", "(NOT a = b)"},
    {"not a = b", "(NOT a = b)"},
    {"nOt a = b", "(NOT a = b)"},
    {"NOT a = b AND c = d", "((NOT a = b) AND c = d)"},
    {"NOT a = b OR c = d", "((NOT a = b) OR c = d)"},
    {"a = b AND NOT c = d", "(a = b AND (NOT c = d))"},
    {"NOT NOT a = b", "(NOT (NOT a = b))"},
    {"NOT NOT NOT NOT a < b", "(NOT (NOT (NOT (NOT a < b))))"},
    {"NOT attribute_exists(a)", "(NOT attribute_exists(a))"},
    {"NOT a BETWEEN :x AND :y", "(NOT a BETWEEN :x AND :y)"},
    {"NOT a IN (:x)", "(NOT a IN (:x))"},
    {"b BETWEEN a AND c AND a < b", "(b BETWEEN a AND c AND a < b)"},
    {"a BETWEEN :x AND :y OR b BETWEEN :x AND :y",
     "(a BETWEEN :x AND :y OR b BETWEEN :x AND :y)"},
    {"a IN (:x) OR b IN (:y)", "(a IN (:x) OR b IN (:y))"},
    {"attribute_exists(a) AND attribute_not_exists(b)",
     "(attribute_exists(a) AND attribute_not_exists(b))"},
    {"attribute_exists(a) OR size(b) > :n",
     "(attribute_exists(a) OR size(b) > :n)"},
    // Parentheses.
    {"(a = b)", "a = b"},
    {"(a = b OR c = d) AND e = f", "((a = b OR c = d) AND e = f)"},
    {"a = b AND (c = d OR e = f)", "(a = b AND (c = d OR e = f))"},
    {"NOT (a = b OR c = d)", "(NOT (a = b OR c = d))"},
    {"NOT (a = b) AND c = d", "((NOT a = b) AND c = d)"},
    {"((a = b) AND (c = d))", "(a = b AND c = d)"},
    {"((c=:c) AND (p=:p))", "(c = :c AND p = :p)"},
    {"(a < b OR b < a) AND (b < c AND (a < b OR b < c))",
     "((a < b OR b < a) AND (b < c AND (a < b OR b < c)))"},
    {"(a) = b", "a = b"},
    {"a = (b)", "a = b"},
    {"(a) = (b)", "a = b"},
    {"(a) BETWEEN (b) AND (c)", "a BETWEEN b AND c"},
    {"(a) IN (b)", "a IN (b)"},
    {"(attribute_exists(a))", "attribute_exists(a)"},
    {"(NOT a = b)", "(NOT a = b)"},
    {"NOT (NOT (a = b))", "(NOT (NOT a = b))"},
    {"a = b AND (c = d)", "(a = b AND c = d)"},
    {"(#n.#m) = :v", "#n.#m = :v"},

    // Empty and syntax errors.
    {"", "Invalid ConditionExpression: The expression can not be empty;"},
    {" ", COND_SYNTAX("<EOF>", " ")},
    {"foo", COND_SYNTAX("<EOF>", "foo")},
    {"a", COND_SYNTAX("<EOF>", "a")},
    {":v", COND_SYNTAX("<EOF>", ":v")},
    {"a.b[1]", COND_SYNTAX("<EOF>", "]")},
    {"(a)", COND_SYNTAX("<EOF>", ")")},
    {"a =", COND_SYNTAX("<EOF>", "=")},
    {"a = ", COND_SYNTAX("<EOF>", "= ")},
    {"a == b", COND_SYNTAX("=", "== b")},
    {"a = = :v", COND_SYNTAX("=", "= = :v")},
    {"a ! = b", COND_SYNTAX("!", "a ! =")},
    {"c!=:c", COND_SYNTAX("!", "c!=")},
    {"_a = :v", COND_SYNTAX("_", "_a")},
    {"_hidden = :v", COND_SYNTAX("_", "_hidden")},
    {"1 = :v", COND_SYNTAX("1", "1 =")},
    {"a = 1", COND_SYNTAX("1", "= 1")},
    {"a = 'x'", COND_SYNTAX("'", "= 'x")},
    {"a = \"x\"", COND_SYNTAX("\"", "= \"x")},
    {"a = :", COND_SYNTAX(":", "= :")},
    {"# = :v", COND_SYNTAX("#", "# =")},
    {"a = :v AND", COND_SYNTAX("<EOF>", "AND")},
    {"a = :v AND AND b = c", COND_SYNTAX("AND", "AND AND b")},
    {"a = :v OR", COND_SYNTAX("<EOF>", "OR")},
    {"AND a = b", COND_SYNTAX("AND", "AND a")},
    {"OR = :v", COND_SYNTAX("OR", "OR =")},
    {"IN = :v", COND_SYNTAX("IN", "IN =")},
    {"between = :v", COND_SYNTAX("between", "between =")},
    {"a.in = :v", COND_SYNTAX("in", ".in =")},
    {"a.NOT = :v", COND_SYNTAX("NOT", ".NOT =")},
    {"NOT", COND_SYNTAX("<EOF>", "NOT")},
    {"NOT a", COND_SYNTAX("<EOF>", "a")},
    {"a AND b", COND_SYNTAX("AND", "a AND b")},
    {"a = b AND c", COND_SYNTAX("<EOF>", "c")},
    {"a = b c = d", COND_SYNTAX("c", "b c =")},
    {"a < b < c", COND_SYNTAX("<", "b < c")},
    {"a + b = c", COND_SYNTAX("+", "a + b")},
    {"a = b + c", COND_SYNTAX("+", "b + c")},
    {"a = b - :c", COND_SYNTAX("-", "b - :c")},
    {"a BETWEEN b", COND_SYNTAX("<EOF>", "b")},
    {"a BETWEEN b OR c", COND_SYNTAX("OR", "b OR c")},
    {"a BETWEEN AND c", COND_SYNTAX("AND", "BETWEEN AND c")},
    {"a IN ()", COND_SYNTAX(")", "()")},
    {"a IN :x", COND_SYNTAX(":x", "IN :x")},
    {"a IN (:x :y)", COND_SYNTAX(":y", ":x :y)")},
    {"a IN (:x,)", COND_SYNTAX(")", ",)")},
    {"a IN (:x", COND_SYNTAX("<EOF>", ":x")},
    {"(a = b", COND_SYNTAX("<EOF>", "b")},
    {"a = b)", COND_SYNTAX(")", "b)")},
    {"()", COND_SYNTAX(")", "()")},
    {"(a = b))", COND_SYNTAX(")", "))")},
    {"f()", COND_SYNTAX(")", "()")},
    {"attribute_exists(a", COND_SYNTAX("<EOF>", "a")},
    {"attribute_exists(a,)", COND_SYNTAX(")", ",)")},
    {"attribute_exists a", COND_SYNTAX("a", "attribute_exists a")},
    {"a[1.5] = :v", COND_SYNTAX(".", "1.5")},
    {"a[:x] = :v", COND_SYNTAX(":x", "[:x]")},
    {"a[#x] = :v", COND_SYNTAX("#x", "[#x]")},
    {"a[b] = :v", COND_SYNTAX("b", "[b]")},
    {"a[] = :v", COND_SYNTAX("]", "[] =")},
    {"a[1 = :v", COND_SYNTAX("=", "1 = :v")},
    {"[1] = :v", COND_SYNTAX("[", "[1")},
    {"a.:v = :w", COND_SYNTAX(":v", ".:v =")},
    {"a.1 = :v", COND_SYNTAX("1", ".1 =")},
    {"a. = :v", COND_SYNTAX("=", ". = :v")},
    {"a.[1] = :v", COND_SYNTAX("[", ".[1")},
    {":v.a = :w", COND_SYNTAX(".", ":v.a")},
    {"a.#b.:c = :v", COND_SYNTAX(":c", ".:c =")},
    {"a = :v;", COND_SYNTAX(";", ":v;")},
    {"a = :v, b = :w", COND_SYNTAX(",", ":v, b")},
    {"SET a = :v", COND_SYNTAX("a", "SET a =")},
    {"a \xC3\xA9 = :v", COND_SYNTAX("\xC3\xA9", "a \xC3\xA9 =")},

    // Rules checked after the syntax, in DynamoDB's order.
    {"((a = b))",
     "Invalid ConditionExpression: The expression has redundant parentheses;"},
    {"((a)) = b",
     "Invalid ConditionExpression: The expression has redundant parentheses;"},
    {"a = ((b))",
     "Invalid ConditionExpression: The expression has redundant parentheses;"},
    {"size(((a))) = :v",
     "Invalid ConditionExpression: The expression has redundant parentheses;"},
    {"a IN (((:x)))",
     "Invalid ConditionExpression: The expression has redundant parentheses;"},
    {"(a = b) AND ((c = d))",
     "Invalid ConditionExpression: The expression has redundant parentheses;"},
    {"((c=:c) AND ((p=:p)))",
     "Invalid ConditionExpression: The expression has redundant parentheses;"},
    {"((attribute_exists(a)))",
     "Invalid ConditionExpression: The expression has redundant parentheses;"},
    {"foo(a)", "Invalid ConditionExpression: Invalid function name; function: foo"},
    {"dog(a) = :v",
     "Invalid ConditionExpression: Invalid function name; function: dog"},
    {"a < f(b)", "Invalid ConditionExpression: Invalid function name; function: f"},
    {"ATTRIBUTE_EXISTS(a)",
     "Invalid ConditionExpression: Invalid function name; function: "
     "ATTRIBUTE_EXISTS"},
    {"Size(a) = :v",
     "Invalid ConditionExpression: Invalid function name; function: Size"},
    {"starts_with(a, :v)",
     "Invalid ConditionExpression: Invalid function name; function: "
     "starts_with"},
    {"size(f(a)) = :v",
     "Invalid ConditionExpression: Invalid function name; function: f"},
    {"size(a)",
     "Invalid ConditionExpression: The function is not allowed to be used "
     "this way in an expression; function: size"},
    {"size(a) AND b = c",
     "Invalid ConditionExpression: The function is not allowed to be used "
     "this way in an expression; function: size"},
    {"NOT size(a)",
     "Invalid ConditionExpression: The function is not allowed to be used "
     "this way in an expression; function: size"},
    {"attribute_exists(a) < :v",
     "Invalid ConditionExpression: The function is not allowed to be used "
     "this way in an expression; function: attribute_exists"},
    {"begins_with(a, :v) = :t",
     "Invalid ConditionExpression: The function is not allowed to be used "
     "this way in an expression; function: begins_with"},
    {"a = contains(b, :v)",
     "Invalid ConditionExpression: The function is not allowed to be used "
     "this way in an expression; function: contains"},
    {"a IN (attribute_type(b, :t))",
     "Invalid ConditionExpression: The function is not allowed to be used "
     "this way in an expression; function: attribute_type"},
    {"size(attribute_exists(a)) = :v",
     "Invalid ConditionExpression: The function is not allowed to be used "
     "this way in an expression; function: attribute_exists"},
    {"contains(a, begins_with(b, :v))",
     "Invalid ConditionExpression: The function is not allowed to be used "
     "this way in an expression; function: begins_with"},
    {"if_not_exists(a, a) = :v",
     "Invalid ConditionExpression: The function is not allowed in a "
     "condition expression; function: if_not_exists"},
    {"list_append(a, a) = :v",
     "Invalid ConditionExpression: The function is not allowed in a "
     "condition expression; function: list_append"},
    {"if_not_exists(a, :v)",
     "Invalid ConditionExpression: The function is not allowed in a "
     "condition expression; function: if_not_exists"},
    {"name = :v",
     "Invalid ConditionExpression: Attribute name is a reserved keyword; "
     "reserved keyword: name"},
    {"Name = :v",
     "Invalid ConditionExpression: Attribute name is a reserved keyword; "
     "reserved keyword: Name"},
    {"a.count = :v",
     "Invalid ConditionExpression: Attribute name is a reserved keyword; "
     "reserved keyword: count"},
    {"size = :v",
     "Invalid ConditionExpression: Attribute name is a reserved keyword; "
     "reserved keyword: size"},
    {"attribute_exists(status)",
     "Invalid ConditionExpression: Attribute name is a reserved keyword; "
     "reserved keyword: status"},
    {"a = b OR c = value",
     "Invalid ConditionExpression: Attribute name is a reserved keyword; "
     "reserved keyword: value"},
    {"#name = :value", "#name = :value"},
    {"a.#count = :v", "a.#count = :v"},
    {"nam = :v", "nam = :v"},
    {"names2 = :v", "names2 = :v"},
    // Order of the post-syntax rules: parentheses, unknown function,
    // misused function, reserved word.
    {"((name = :v))",
     "Invalid ConditionExpression: The expression has redundant parentheses;"},
    {"size(name) = :v AND foo(a)",
     "Invalid ConditionExpression: Invalid function name; function: foo"},
    {"foo(a) AND size(a)",
     "Invalid ConditionExpression: Invalid function name; function: foo"},
    {"size(name)",
     "Invalid ConditionExpression: The function is not allowed to be used "
     "this way in an expression; function: size"},
    {"name = :v AND ((a = b))",
     "Invalid ConditionExpression: The expression has redundant parentheses;"},
    {"name = :v AND count = :w",
     "Invalid ConditionExpression: Attribute name is a reserved keyword; "
     "reserved keyword: name"},
    // Syntax errors come before every other rule.
    {"((name = :v)) AND", COND_SYNTAX("<EOF>", "AND")},
    {"foo(a) OR a ==", COND_SYNTAX("=", "==")},
    // Limits met while parsing.
    {"a[2147483648] = :v",
     "Invalid ConditionExpression: List index is not within the allowable "
     "range; index: [2147483648]"},
    {"a[99999999999] = :v",
     "Invalid ConditionExpression: List index is not within the allowable "
     "range; index: [99999999999]"},
    {"a[00000000001] = :v",
     "Invalid ConditionExpression: List index is not within the allowable "
     "range; index: [00000000001]"},
};

TEST(ParserTest, Conditions) {
  for (const Case& c : kConditionCases) {
    EXPECT_EQ(c.expected, ParseConditionText(c.text)) << "text: " << c.text;
  }
}

// FilterExpression and KeyConditionExpression share the grammar; only the
// prefix of the messages differs.
TEST(ParserTest, FilterAndKeyConditionUseTheConditionGrammar) {
  EXPECT_EQ("(a = :v AND b < :w)",
            ParseConditionText("a = :v and b < :w", ExpressionKind::kFilter));
  EXPECT_EQ("(p = :p AND c BETWEEN :a AND :b)",
            ParseConditionText("p = :p AND c BETWEEN :a AND :b",
                               ExpressionKind::kKeyCondition));
  EXPECT_EQ("Invalid FilterExpression: The expression can not be empty;",
            ParseConditionText("", ExpressionKind::kFilter));
  EXPECT_EQ(
      "Invalid KeyConditionExpression: Syntax error; token: \"a\", near: "
      "\":hashId a\"",
      ParseConditionText("#h = :hashId a", ExpressionKind::kKeyCondition));
  EXPECT_EQ(
      "Invalid FilterExpression: Attribute name is a reserved keyword; "
      "reserved keyword: year",
      ParseConditionText("year = :y", ExpressionKind::kFilter));
  EXPECT_EQ(
      "Invalid KeyConditionExpression: Syntax error; token: \"<EOF>\", near: "
      "\"= \"",
      ParseConditionText("pk = ", ExpressionKind::kKeyCondition));
}

std::string Repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(ParserTest, ExpressionSizeLimitIs4096Bytes) {
  std::string ok = "a" + std::string(4091, ' ') + "=:v";
  ASSERT_EQ(4095u, ok.size());
  EXPECT_EQ("a = :v", ParseConditionText(ok + " "));
  EXPECT_EQ(
      "Invalid ConditionExpression: Expression size has exceeded the maximum "
      "allowed size; expression size: 4097",
      ParseConditionText(ok + "  "));
  // The size check comes before the syntax.
  EXPECT_EQ(
      "Invalid ConditionExpression: Expression size has exceeded the maximum "
      "allowed size; expression size: 15000",
      ParseConditionText(std::string(15000, '(')));
  // Bytes, not characters: 2049 two-byte characters are 4098 bytes.
  EXPECT_EQ(
      "Invalid ConditionExpression: Expression size has exceeded the maximum "
      "allowed size; expression size: 4098",
      ParseConditionText(Repeat("\xC3\xA9", 2049)));
  EXPECT_EQ(
      "Invalid UpdateExpression: Expression size has exceeded the maximum "
      "allowed size; expression size: 4097",
      ParseUpdateText("SET " + std::string(4085, ' ') + "a = :val"));
  EXPECT_EQ("SET a = :val",
            ParseUpdateText("SET" + std::string(4085, ' ') + "a = :val"));
  EXPECT_EQ(std::string(4096, 'x'), ParseProjectionText(std::string(4096, 'x')));
  EXPECT_EQ(
      "Invalid ProjectionExpression: Expression size has exceeded the maximum "
      "allowed size; expression size: 4097",
      ParseProjectionText(std::string(4097, 'x')));
}

TEST(ParserTest, AtMost300OperatorsInACondition) {
  // n comparisons joined by OR are 2n-1 operators.
  auto ors = [](int n) {
    std::string s = "a<b";
    for (int i = 1; i < n; ++i) s += " or a<b";
    return s;
  };
  EXPECT_TRUE(ParseCondition(ors(150)).ok());  // 299 operators
  EXPECT_EQ(
      "Invalid ConditionExpression: The expression contains too many "
      "operators; operator count: 301",
      ParseConditionText(ors(151)));
  EXPECT_EQ(
      "Invalid ConditionExpression: The expression contains too many "
      "operators; operator count: 301",
      ParseConditionText(ors(455)));
  // a<b or (a<b or (...)): 149 levels are 299 operators.
  auto nested = [](int depth) {
    return "a<b " + Repeat("or (a<b ", depth) + std::string(depth, ')');
  };
  EXPECT_TRUE(ParseCondition(nested(149)).ok());
  EXPECT_EQ(
      "Invalid ConditionExpression: The expression contains too many "
      "operators; operator count: 301",
      ParseConditionText(nested(454)));
  // NOT counts.
  EXPECT_TRUE(ParseCondition(Repeat("NOT ", 299) + "a<b").ok());
  EXPECT_EQ(
      "Invalid ConditionExpression: The expression contains too many "
      "operators; operator count: 301",
      ParseConditionText(Repeat("NOT ", 300) + "a<b"));
  EXPECT_EQ(
      "Invalid ConditionExpression: The expression contains too many "
      "operators; operator count: 301",
      ParseConditionText(Repeat("not ", 1000) + "a<b"));
  // Function calls do not count in conditions.
  std::string calls = "a = :v";
  for (int i = 0; i < 150; ++i) calls += " AND attribute_exists(a)";
  EXPECT_TRUE(ParseCondition(calls).ok());  // 151 operators
}

TEST(ParserTest, InTakesAtMost100OperandsCountingTheLeftOne) {
  auto in = [](int n) {
    std::string s = "a IN (";
    for (int i = 0; i < n; ++i) s += (i ? ", :v" : ":v") + std::to_string(i);
    return s + ")";
  };
  EXPECT_TRUE(ParseCondition(in(99)).ok());
  EXPECT_EQ(
      "Invalid ConditionExpression: The IN operator is provided with too many "
      "operands; number of operands: 101",
      ParseConditionText(in(100)));
  EXPECT_EQ(
      "Invalid ConditionExpression: The IN operator is provided with too many "
      "operands; number of operands: 151",
      ParseConditionText(in(150)));
}

TEST(ParserTest, DocumentPathsHaveAtMost32Levels) {
  EXPECT_TRUE(ParseCondition("a" + Repeat(".b", 31) + " = :v").ok());
  EXPECT_EQ(
      "Invalid ConditionExpression: The document path has too many nesting "
      "levels; nesting levels: 33",
      ParseConditionText("a" + Repeat(".b", 32) + " = :v"));
  EXPECT_EQ(
      "Invalid ConditionExpression: The document path has too many nesting "
      "levels; nesting levels: 33",
      ParseConditionText("a" + Repeat("[0]", 40) + " = :v"));
  EXPECT_TRUE(ParseProjection("a" + Repeat(".b", 31)).ok());
  EXPECT_EQ(
      "Invalid ProjectionExpression: The document path has too many nesting "
      "levels; nesting levels: 33",
      ParseProjectionText("a" + Repeat(".b", 32)));
  EXPECT_EQ(
      "Invalid UpdateExpression: The document path has too many nesting "
      "levels; nesting levels: 33",
      ParseUpdateText("SET a" + Repeat("[1]", 16) + Repeat(".#n", 16) +
                      " = :v"));
}

// Deeply nested input within 4 KB is rejected cleanly, without exhausting
// the stack (scylladb issue #14473), with DynamoDB's messages.
TEST(ParserTest, DeepNestingIsRejectedCleanly) {
  EXPECT_EQ(
      "Invalid ConditionExpression: The expression has redundant parentheses;",
      ParseConditionText(std::string(2046, '(') + "a<b" +
                         std::string(2046, ')')));
  EXPECT_EQ(
      "Invalid ConditionExpression: The expression has redundant parentheses;",
      ParseConditionText(std::string(4096, '(')));
  EXPECT_EQ(COND_SYNTAX("<EOF>", "("), ParseConditionText("((("));
  EXPECT_EQ(
      "Invalid ConditionExpression: Invalid function name; function: f",
      ParseConditionText("a < " + Repeat("f(", 1355) + "b" +
                         std::string(1355, ')')));
  EXPECT_EQ(
      "Invalid ConditionExpression: Incorrect operand type for operator or "
      "function; operator or function: size, operand type: N",
      ParseConditionText("a < " + Repeat("size(", 680) + "b" +
                         std::string(680, ')')));
  EXPECT_EQ(
      "Invalid ConditionExpression: The expression has redundant parentheses;",
      ParseConditionText("a = " + std::string(2000, '(') + "b" +
                         std::string(2000, ')')));
  // 300 levels of NOT (...) are valid and parse.
  Result<ConditionExpression> deep =
      ParseCondition(Repeat("NOT (", 299) + "a<b" + std::string(299, ')'));
  EXPECT_TRUE(deep.ok()) << deep.status().ToString();
  std::string update = "SET a = ";
  for (int i = 0; i < 150; ++i) update += "if_not_exists(a, ";
  update += ":v" + std::string(150, ')');
  EXPECT_TRUE(ParseUpdate(update).ok());
}

// --- UpdateExpression ------------------------------------------------------

constexpr Case kUpdateCases[] = {
    {"SET a = :v", "SET a = :v"},
    {"set a = :v", "SET a = :v"},
    {"sEt a=:v", "SET a = :v"},
    {"  SET   b=:val1  ", "SET b = :val1"},
    {"SET a = :v, b = :w", "SET a = :v, b = :w"},
    {"SET a=:v,b=:w,c=:x", "SET a = :v, b = :w, c = :x"},
    {"SET a = b", "SET a = b"},
    {"SET a = a", "SET a = a"},
    {"SET #one = #two", "SET #one = #two"},
    {"SET z = a.c.x", "SET z = a.c.x"},
    {"SET a = a + :v", "SET a = (a + :v)"},
    {"SET a = :v - a", "SET a = (:v - a)"},
    {"SET a = :v1 + :v2", "SET a = (:v1 + :v2)"},
    {"SET a=a+:v", "SET a = (a + :v)"},
    {"SET #nn = :seven - #n", "SET #nn = (:seven - #n)"},
    {"SET a = (a + :v)", "SET a = (a + :v)"},
    {"SET a = (a) + (:v)", "SET a = (a + :v)"},
    {"SET a = ((a) + (:v))", "SET a = (a + :v)"},
    {"SET a = (:v)", "SET a = :v"},
    {"SET a = ((:v))", "SET a = :v"},
    {"SET a = (a) + :v", "SET a = (a + :v)"},
    {"SET a = if_not_exists(a, :v)", "SET a = if_not_exists(a, :v)"},
    {"SET a = if_not_exists (a,:v)", "SET a = if_not_exists(a, :v)"},
    {"SET b = if_not_exists(b, :val1)+:val2",
     "SET b = (if_not_exists(b, :val1) + :val2)"},
    {"SET a = list_append(a, :v)", "SET a = list_append(a, :v)"},
    {"SET a = list_append(:v, a)", "SET a = list_append(:v, a)"},
    {"SET a = list_append(if_not_exists(a, :e), :v)",
     "SET a = list_append(if_not_exists(a, :e), :v)"},
    {"SET a = if_not_exists(b, if_not_exists(c, :v))",
     "SET a = if_not_exists(b, if_not_exists(c, :v))"},
    {"SET a = list_append((a), (:v))", "SET a = list_append(a, :v)"},
    {"SET a = list_append(:v)", "SET a = list_append(:v)"},  // arity: Resolve
    {"SET a = if_not_exists(:v, :w)", "SET a = if_not_exists(:v, :w)"},
    {"SET a.b[1].c = :v", "SET a.b[1].c = :v"},
    {"SET a.c[1].#name.y[1] = :val1", "SET a.c[1].#name.y[1] = :val1"},
    {"SET #a = :v", "SET #a = :v"},
    {"SET a[7] = :v", "SET a[7] = :v"},
    {"SET a = :v, a = :w", "SET a = :v, a = :w"},  // overlap: Resolve
    {"REMOVE a", "REMOVE a"},
    {"remove a", "REMOVE a"},
    {"REMOVE a, b.c, d[1]", "REMOVE a, b.c, d[1]"},
    {"REMOVE a.c[1].x.y[1], a.c[1].q", "REMOVE a.c[1].x.y[1], a.c[1].q"},
    {"ADD a :v", "ADD a :v"},
    {"add a :v, b.c :w", "ADD a :v, b.c :w"},
    {"DELETE a :v", "DELETE a :v"},
    {"delete a :v,b :w", "DELETE a :v, b :w"},
    {"SET a = :v REMOVE b", "SET a = :v REMOVE b"},
    {"REMOVE b SET a = :v", "REMOVE b SET a = :v"},
    {"REMOVE a SET b = a", "REMOVE a SET b = a"},
    {"SET a = :v REMOVE b ADD c :w DELETE d :x",
     "SET a = :v REMOVE b ADD c :w DELETE d :x"},
    {"DELETE d :x ADD c :w REMOVE b SET a = :v",
     "DELETE d :x ADD c :w REMOVE b SET a = :v"},
    {"SET a.b = :val1, a.c.d = :val2, b.x = :val3 REMOVE a.x, b.y",
     "SET a.b = :val1, a.c.d = :val2, b.x = :val3 REMOVE a.x, b.y"},
    // In an update, AND/OR/... are ordinary (reserved) words and SET,
    // REMOVE, ADD, DELETE are keywords.
    {"SET and = :v",
     "Invalid UpdateExpression: Attribute name is a reserved keyword; "
     "reserved keyword: and"},
    {"SET a = set", UPD_SYNTAX("set", "= set")},
    {"SET remove = :v", UPD_SYNTAX("remove", "SET remove =")},
    {"SET a.add = :v", UPD_SYNTAX("add", ".add =")},
    {"REMOVE delete", UPD_SYNTAX("delete", "REMOVE delete")},

    // Errors.
    {"", "Invalid UpdateExpression: The expression can not be empty;"},
    {"   ", UPD_SYNTAX("<EOF>", "   ")},
    {"HELLO b = :val1", UPD_SYNTAX("HELLO", "HELLO b")},
    {"a = :v", UPD_SYNTAX("a", "a =")},
    {"SET", UPD_SYNTAX("<EOF>", "SET")},
    {"SET a", UPD_SYNTAX("<EOF>", "a")},
    {"SET a =", UPD_SYNTAX("<EOF>", "=")},
    {"SET a = :v,", UPD_SYNTAX("<EOF>", ",")},
    {"SET a = :v, ", UPD_SYNTAX("<EOF>", ", ")},
    {"SET a = :v b = :w", UPD_SYNTAX("b", ":v b =")},
    {"SET a = :v,, b = :w", UPD_SYNTAX(",", ",, b")},
    {"SET a :v", UPD_SYNTAX(":v", "a :v")},
    {"SET a == :v", UPD_SYNTAX("=", "== :v")},
    {"SET a = :v1 + :v2 + :v3", UPD_SYNTAX("+", ":v2 + :v3")},
    {"SET a = :v1 + :v2 - :v3", UPD_SYNTAX("-", ":v2 - :v3")},
    {"SET a = (:v1 + :v2) + :v3", UPD_SYNTAX("+", ") + :v3")},
    {"SET a = (:v1 + :v2", UPD_SYNTAX("<EOF>", ":v2")},
    {"SET a = (((:v)))", UPD_SYNTAX("(", "((:v")},
    {"SET a = +:v", UPD_SYNTAX("+", "= +:v")},
    {"SET a = -1", UPD_SYNTAX("-", "= -1")},
    {"SET c = if_not_exists(c, :val1+:val2)", UPD_SYNTAX("+", ":val1+:val2")},
    {"SET b = if_not_exists(non@sense, :val1)", UPD_SYNTAX("@", "non@sense")},
    {"SET :a = :b", UPD_SYNTAX(":a", "SET :a =")},
    {"SET a = :", UPD_SYNTAX(":", "= :")},
    {"SET a = :hi!there", UPD_SYNTAX("!", ":hi!there")},
    {"SET # = :val1", UPD_SYNTAX("#", "SET # =")},
    {"SET #hi-there = :val1", UPD_SYNTAX("-", "#hi-there")},
    {"SET #!hi = :val1", UPD_SYNTAX("#", "SET #!")},
    {"SET _123 = :val1", UPD_SYNTAX("_", "SET _123")},
    {"SET _abc = :val1", UPD_SYNTAX("_", "SET _abc")},
    {"SET 123a = :val1", UPD_SYNTAX("123", "SET 123a")},
    {"SET 123 = :val1", UPD_SYNTAX("123", "SET 123 =")},
    {"SET hi-there = :val1", UPD_SYNTAX("-", "hi-there")},
    {"SET hi$there = :val1", UPD_SYNTAX("$", "hi$there")},
    {"SET \"hithere\" = :val1", UPD_SYNTAX("\"", "SET \"hithere")},
    {"SET !hithere = :val1", UPD_SYNTAX("!", "SET !hithere")},
    {"SET a[:xyz] = :val1", UPD_SYNTAX(":xyz", "[:xyz]")},
    {"SET a[#xyz] = :val1", UPD_SYNTAX("#xyz", "[#xyz]")},
    {"SET path = VALUE 1", UPD_SYNTAX("1", "VALUE 1")},
    {"SET a = _f(b,c,d)", UPD_SYNTAX("_", "= _f")},
    {"SET a = f()", UPD_SYNTAX(")", "()")},
    {"REMOVE", UPD_SYNTAX("<EOF>", "REMOVE")},
    {"REMOVE a = :v", UPD_SYNTAX("=", "a = :v")},
    {"REMOVE a[1", UPD_SYNTAX("<EOF>", "1")},
    {"REMOVE :v", UPD_SYNTAX(":v", "REMOVE :v")},
    {"ADD a", UPD_SYNTAX("<EOF>", "a")},
    {"ADD a b", UPD_SYNTAX("b", "a b")},
    {"ADD a = :v", UPD_SYNTAX("=", "a = :v")},
    {"ADD a :v + :w", UPD_SYNTAX("+", ":v + :w")},
    {"DELETE a", UPD_SYNTAX("<EOF>", "a")},
    {"DELETE a list_append(b, :v)", UPD_SYNTAX("list_append", "a list_append(")},
    {"SET a = :v AND b = :w", UPD_SYNTAX("AND", ":v AND b")},
    {"SET a = :v; REMOVE b", UPD_SYNTAX(";", ":v; REMOVE")},
    {"SET a = :v SET b = :w",
     "Invalid UpdateExpression: The \"SET\" section can only be used once in "
     "an update expression;"},
    {"SET a = :val1 REMOVE a SET b = :val2",
     "Invalid UpdateExpression: The \"SET\" section can only be used once in "
     "an update expression;"},
    {"REMOVE a REMOVE b",
     "Invalid UpdateExpression: The \"REMOVE\" section can only be used once "
     "in an update expression;"},
    {"ADD a :v ADD b :w",
     "Invalid UpdateExpression: The \"ADD\" section can only be used once in "
     "an update expression;"},
    {"DELETE a :v delete b :w",
     "Invalid UpdateExpression: The \"DELETE\" section can only be used once "
     "in an update expression;"},
    {"SET a = f(b,c,d)",
     "Invalid UpdateExpression: Invalid function name; function: f"},
    {"SET a = f123_hi(b,c,d)",
     "Invalid UpdateExpression: Invalid function name; function: f123_hi"},
    {"SET a = LIST_APPEND(:val1, :val2)",
     "Invalid UpdateExpression: Invalid function name; function: LIST_APPEND"},
    {"SET a = if_not_exists(a, g(:v))",
     "Invalid UpdateExpression: Invalid function name; function: g"},
    {"SET a = size(b)",
     "Invalid UpdateExpression: The function is not allowed in an update "
     "expression; function: size"},
    {"SET a = attribute_exists(b)",
     "Invalid UpdateExpression: The function is not allowed in an update "
     "expression; function: attribute_exists"},
    {"SET a = if_not_exists(a, contains(b, :v))",
     "Invalid UpdateExpression: The function is not allowed in an update "
     "expression; function: contains"},
    {"SET a = list_append(list_append(:val1, :val2), :val3)",
     "Invalid UpdateExpression: The function is not allowed to be used this "
     "way in an expression; function: list_append"},
    {"SET a = list_append(:v, list_append(:w, :x))",
     "Invalid UpdateExpression: The function is not allowed to be used this "
     "way in an expression; function: list_append"},
    {"SET name = :v",
     "Invalid UpdateExpression: Attribute name is a reserved keyword; "
     "reserved keyword: name"},
    {"SET a = name",
     "Invalid UpdateExpression: Attribute name is a reserved keyword; "
     "reserved keyword: name"},
    {"REMOVE count",
     "Invalid UpdateExpression: Attribute name is a reserved keyword; "
     "reserved keyword: count"},
    {"ADD a.Year :v",
     "Invalid UpdateExpression: Attribute name is a reserved keyword; "
     "reserved keyword: Year"},
    {"SET a = if_not_exists(Value, :v)",
     "Invalid UpdateExpression: Attribute name is a reserved keyword; "
     "reserved keyword: Value"},
    // Order: reserved word, unknown function, repeated clause, misused
    // function.
    {"SET a = f(b) SET name = :v",
     "Invalid UpdateExpression: Attribute name is a reserved keyword; "
     "reserved keyword: name"},
    {"SET a = size(b) SET c = f(d)",
     "Invalid UpdateExpression: Invalid function name; function: f"},
    {"SET a = size(b) SET c = :v",
     "Invalid UpdateExpression: The \"SET\" section can only be used once in "
     "an update expression;"},
    {"SET a[4294967296] = :v",
     "Invalid UpdateExpression: List index is not within the allowable "
     "range; index: [4294967296]"},
};

TEST(ParserTest, Updates) {
  for (const Case& c : kUpdateCases) {
    EXPECT_EQ(c.expected, ParseUpdateText(c.text)) << "text: " << c.text;
  }
}

TEST(ParserTest, AtMost300OperatorsOrFunctionsInAnUpdate) {
  auto sets = [](int n) {
    std::string s = "SET ";
    for (int i = 0; i < n; ++i) {
      s += (i ? ", a" : "a") + std::to_string(i) + "=b+c";
    }
    return s;
  };
  EXPECT_TRUE(ParseUpdate(sets(300)).ok());
  EXPECT_EQ(
      "Invalid UpdateExpression: The expression contains too many operators; "
      "operator count: 301",
      ParseUpdateText(sets(301)));
  std::string calls = "SET a = ";
  for (int i = 0; i < 150; ++i) calls += "if_not_exists(a,";
  calls += ":v" + std::string(150, ')');
  for (int i = 0; i < 151; ++i) calls += ", b" + std::to_string(i) + "=c-d";
  EXPECT_EQ(
      "Invalid UpdateExpression: The expression contains too many operators; "
      "operator count: 301",
      ParseUpdateText(calls));
}

TEST(ParserTest, UpdateActionsKeepTheirOrderAndClauses) {
  Result<UpdateExpression> u =
      ParseUpdate("REMOVE x, y SET a = :v ADD n :one DELETE s :t");
  ASSERT_TRUE(u.ok()) << u.status().ToString();
  ASSERT_EQ(5u, u->actions.size());
  EXPECT_EQ(UpdateClause::kRemove, u->actions[0].clause);
  EXPECT_EQ(UpdateClause::kRemove, u->actions[1].clause);
  EXPECT_EQ(UpdateClause::kSet, u->actions[2].clause);
  EXPECT_EQ(UpdateClause::kAdd, u->actions[3].clause);
  EXPECT_EQ(UpdateClause::kDelete, u->actions[4].clause);
  EXPECT_EQ(":one", u->actions[3].value.value_name);
  EXPECT_FALSE(u->resolved);
}

// --- ProjectionExpression --------------------------------------------------

constexpr Case kProjectionCases[] = {
    {"a", "a"},
    {"a,b", "a, b"},
    {" a  ,   b  ", "a, b"},
    {"a, b, c", "a, b, c"},
    {"a.b[0].c", "a.b[0].c"},
    {"a.b[0],a.b[1]", "a.b[0], a.b[1]"},
    {"#n", "#n"},
    {"#n.#m", "#n.#m"},
    {"#n1.b, a.#n2", "#n1.b, a.#n2"},
    {"p, c", "p, c"},
    {"a, a", "a, a"},  // overlap: Resolve
    // In a projection no word is a keyword; reserved words are reserved.
    {"and", "Invalid ProjectionExpression: Attribute name is a reserved "
            "keyword; reserved keyword: and"},
    {"SET", "Invalid ProjectionExpression: Attribute name is a reserved "
            "keyword; reserved keyword: SET"},
    {"a.name", "Invalid ProjectionExpression: Attribute name is a reserved "
               "keyword; reserved keyword: name"},
    {"a, b, comment", "Invalid ProjectionExpression: Attribute name is a "
                      "reserved keyword; reserved keyword: comment"},
    {"", "Invalid ProjectionExpression: The expression can not be empty;"},
    {"a,", PROJ_SYNTAX("<EOF>", ",")},
    {",a", PROJ_SYNTAX(",", ",a")},
    {"a,,b", PROJ_SYNTAX(",", ",,b")},
    {"a b", PROJ_SYNTAX("b", "a b")},
    {"a = b", PROJ_SYNTAX("=", "a = b")},
    {"(a)", PROJ_SYNTAX("(", "(a")},
    {"size(a)", PROJ_SYNTAX("(", "size(a")},
    {":v", PROJ_SYNTAX(":v", ":v")},
    {"a[x]", PROJ_SYNTAX("x", "[x]")},
    {"a.", PROJ_SYNTAX("<EOF>", ".")},
    {"a[2147483648]",
     "Invalid ProjectionExpression: List index is not within the allowable "
     "range; index: [2147483648]"},
    {"l[999999999999999999999]",
     "Invalid ProjectionExpression: List index is not within the allowable "
     "range; index: [999999999999999999999]"},
};

TEST(ParserTest, Projections) {
  for (const Case& c : kProjectionCases) {
    EXPECT_EQ(c.expected, ParseProjectionText(c.text)) << "text: " << c.text;
  }
}

TEST(ParserTest, ParsedTreesAreNotResolved) {
  Result<ConditionExpression> c = ParseCondition("#a = :v");
  ASSERT_TRUE(c.ok());
  EXPECT_FALSE(c->resolved);
  EXPECT_EQ(ExpressionKind::kCondition, c->kind);
  const Operand& left = c->root.operands[0];
  ASSERT_EQ(Operand::Kind::kPath, left.kind);
  EXPECT_EQ("#a", left.path.elements[0].placeholder);
  EXPECT_TRUE(left.path.elements[0].name.empty());
  const Operand& right = c->root.operands[1];
  EXPECT_EQ(":v", right.value_name);
  EXPECT_FALSE(right.value.has_value());
}

TEST(ParserTest, FunctionsAreRecognizedByExactName) {
  Result<ConditionExpression> c = ParseCondition("begins_with(a, :p)");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(Condition::Kind::kFunction, c->root.kind);
  EXPECT_EQ(Function::kBeginsWith, c->root.operands[0].function);
  EXPECT_EQ(Function::kUnknown, FunctionFromName("Begins_with"));
  EXPECT_EQ(Function::kSize, FunctionFromName("size"));
  EXPECT_EQ(Function::kListAppend, FunctionFromName("list_append"));
}

}  // namespace
}  // namespace dynarock::expr
