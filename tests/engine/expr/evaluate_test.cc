#include "engine/expr/evaluate.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/expr/parser.h"
#include "engine/expr/render.h"
#include "engine/expr/resolve.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::expr {
namespace {

using namespace testing;  // NOLINT: value builders

// One attribute of every type, and then some.
const Item& TestItem() {
  static const Item* item = new Item{
      {"p", S("p1")},
      {"n", N("10")},
      {"nneg", N("-3.5")},
      {"nprec", N("0.1")},
      {"nbig", N("9.9999999999999999999999999999999999999E+125")},
      {"two", N("2")},
      {"s", S("banana")},
      {"sempty", S("")},
      {"su", S("\xF0\x9F\x98\x80")},  // U+1F600, 4 UTF-8 bytes
      {"b", B(std::string("\x01\x02\x03", 3))},
      {"bhigh", B("\x80")},
      {"t", Bool(true)},
      {"f", Bool(false)},
      {"nul", Null()},
      {"l", L({S("a"), S("b"), N("3")})},
      {"lempty", L({})},
      {"e", L({S("hi"), NS({"1", "2"}), L({N("3"), N("4")})})},
      {"m", M({{"nested", M({{"deep", S("x")}})},
               {"arr", L({M({{"v", N("1")}}), M({{"v", N("2")}})})}})},
      {"mempty", M({})},
      {"ss", SS({"red", "green"})},
      {"ns", NS({"1", "5"})},
      {"bs", BS({std::string("\x01", 1), std::string("\x02", 1)})},
      {"dotted.name", S("yes")},
      {"and", N("1")},
  };
  return *item;
}

const NameMap& Names() {
  static const NameMap* names =
      new NameMap{{"#dot", "dotted.name"}, {"#and", "and"}, {"#m", "m"}};
  return *names;
}

const ValueMap& Values() {
  static const ValueMap* values = new ValueMap{
      {":n0", N("0")},
      {":n1", N("1")},
      {":n2", N("2")},
      {":n3", N("3")},
      {":n4", N("4")},
      {":n5", N("5")},
      {":n6", N("6")},
      {":n9", N("9")},
      {":n10", N("10")},
      {":n10f", N("10.00")},
      {":n11", N("11")},
      {":n20", N("20")},
      {":n100", N("100")},
      {":nprec", N("0.10")},
      {":nmax", N("9.9999999999999999999999999999999999999E+125")},
      {":nneg", N("-3.5")},
      {":nneg4", N("-4")},
      {":s", S("banana")},
      {":apple", S("apple")},
      {":banana_", S("banana_")},
      {":ban", S("ban")},
      {":nan", S("nan")},
      {":z", S("z")},
      {":a", S("a")},
      {":x", S("x")},
      {":yes", S("yes")},
      {":red", S("red")},
      {":blue", S("blue")},
      {":empty", S("")},
      {":bmp", S("\xEF\xBF\xBD")},  // U+FFFD
      {":sabc", S(std::string("\x01\x02\x03", 3))},
      {":b", B(std::string("\x01\x02\x03", 3))},
      {":b12", B(std::string("\x01\x02", 2))},
      {":b23", B(std::string("\x02\x03", 2))},
      {":b1", B(std::string("\x01", 1))},
      {":bx", B("\x7f")},
      {":true", Bool(true)},
      {":false", Bool(false)},
      {":null", Null()},
      {":l", L({S("a"), S("b"), N("3")})},
      {":l2", L({S("a"), S("b")})},
      {":l34", L({N("3"), N("4")})},
      {":mnested", M({{"deep", S("x")}})},
      {":ss", SS({"green", "red"})},
      {":ss3", SS({"red"})},
      {":ns", NS({"5", "1.0"})},
      {":ns12", NS({"2", "1"})},
      {":bs", BS({std::string("\x02", 1), std::string("\x01", 1)})},
      {":tS", S("S")},
      {":tN", S("N")},
      {":tB", S("B")},
      {":tBOOL", S("BOOL")},
      {":tNULL", S("NULL")},
      {":tL", S("L")},
      {":tM", S("M")},
      {":tSS", S("SS")},
      {":tNS", S("NS")},
      {":tBS", S("BS")},
  };
  return *values;
}

// The resolved condition; on failure, one that is always false (and the
// test fails).
ConditionExpression Resolved(std::string_view text) {
  Result<ConditionExpression> parsed = ParseCondition(text);
  if (!parsed.ok()) {
    ADD_FAILURE() << text << ": " << parsed.status().ToString();
    return Resolved("attribute_exists(unparsable)");
  }
  Resolver resolver(&Names(), &Values());
  Result<ConditionExpression> r = resolver.Resolve(*parsed);
  if (!r.ok()) {
    ADD_FAILURE() << text << ": " << r.status().ToString();
    return Resolved("attribute_exists(unresolvable)");
  }
  return *r;
}

struct Case {
  std::string_view condition;
  bool expected;
};

constexpr Case kCases[] = {
    // = and <> on every type.
    {"n = :n10", true},
    {"n = :n10f", true},
    {"n = :n9", false},
    {"n <> :n9", true},
    {"n <> :n10", false},
    {"nprec = :nprec", true},
    {"nbig = :nmax", true},
    {"nneg = :nneg", true},
    {"s = :s", true},
    {"s = :apple", false},
    {"sempty = :empty", true},
    {"b = :b", true},
    {"b = :b12", false},
    {"t = :true", true},
    {"t = :false", false},
    {"f = :false", true},
    {"nul = :null", true},
    {"l = :l", true},
    {"l = :l2", false},
    {"m.nested = :mnested", true},
    {"m = :mnested", false},
    {"ss = :ss", true},  // sets compare as sets: order does not matter
    {"ss = :ss3", false},
    {"ns = :ns", true},  // and numbers compare as numbers ("1" = "1.0")
    {"bs = :bs", true},
    {"s = b", false},
    {"n = two", false},
    {"two = :n2", true},
    // Different types are never equal, and never an error.
    {"n = :s", false},
    {"n <> :s", true},
    {"b = :sabc", false},
    {"t = :n1", false},
    {"nul = :false", false},
    {"l = :ss", false},
    {"ss = :l", false},
    {"ns = :ss", false},
    // Missing attributes: = is false, <> is true, ordering is false.
    {"absent = :n1", false},
    {"absent <> :n1", true},
    {"q = z", false},
    {"q <> z", true},
    {"absent < :n1", false},
    {"absent >= :n1", false},
    {":n1 < absent", false},
    {"q <= z", false},
    // Document paths.
    {"m.nested.deep = :x", true},
    {"#m.nested.deep = :x", true},
    {"m.arr[1].v = :n2", true},
    {"m.arr[2].v = :n2", false},
    {"l[2] = :n3", true},
    {"l[0] = :a", true},
    {"l[5] = :n1", false},
    {"s.x = :x", false},
    {"l.x = :x", false},
    {"m[0] = :x", false},
    {"n[0] = :n10", false},
    {"#dot = :yes", true},
    {"#and = :n1", true},
    // Ordering: numbers numerically.
    {"n > :n9", true},
    {"n < :n100", true},
    {"n <= :n10", true},
    {"n >= :n10f", true},
    {"n >= :n11", false},
    {"n < :n10", false},
    {"nneg < :n0", true},
    {"nneg > :nneg4", true},
    {"nbig > :n100", true},
    {"nprec < :n1", true},
    // Strings by UTF-8 bytes.
    {"s > :apple", true},
    {"s < :banana_", true},
    {"s >= :s", true},
    {"s < :ban", false},
    {"s > :ban", true},
    {"su > :bmp", true},
    {"sempty < :apple", true},
    // Binaries by unsigned bytes.
    {"b > :b12", true},
    {"b < :b23", true},
    {"b <= :b", true},
    {"bhigh > :bx", true},
    {"bhigh < :bx", false},
    // Different or unordered types are false.
    {"s > :n1", false},
    {"n < :s", false},
    {"b > :s", false},
    {"l < :n1", false},
    {"ss > :n1", false},
    {"t < :n1", false},
    {"t >= t2", false},
    {"m <= :n1", false},
    {":n1 < l", false},
    // BETWEEN.
    {"n BETWEEN :n10 AND :n20", true},
    {"n BETWEEN :n1 AND :n10", true},
    {"n BETWEEN :n11 AND :n20", false},
    {"n BETWEEN :n1 AND :n9", false},
    {"s BETWEEN :apple AND :z", true},
    {"s BETWEEN :ban AND :banana_", true},
    {"s BETWEEN :nan AND :z", false},
    {"b BETWEEN :b12 AND :b23", true},
    {"n BETWEEN :apple AND :z", false},
    {"absent BETWEEN :n1 AND :n2", false},
    {"n BETWEEN two AND :n20", true},
    {"n BETWEEN :n20 AND two", false},  // bounds from the item: just false
    {"n BETWEEN two AND absent", false},
    {"l BETWEEN :n1 AND :n20", false},
    {"size(s) BETWEEN :n5 AND :n6", true},
    // IN.
    {"s IN (:apple, :s)", true},
    {"s IN (:apple)", false},
    {"n IN (:s, :n10f)", true},
    {"absent IN (:n1, :s)", false},
    {"ss IN (:ss3, :ss)", true},
    {"l IN (:l2, :l)", true},
    {"t IN (:false, :n1)", false},
    {"two IN (n, :n2)", true},
    {":n2 IN (absent, two)", true},
    // attribute_exists / attribute_not_exists.
    {"attribute_exists(n)", true},
    {"attribute_exists(absent)", false},
    {"attribute_exists(nul)", true},
    {"attribute_exists(sempty)", true},
    {"attribute_exists(lempty)", true},
    {"attribute_exists(m.nested.deep)", true},
    {"attribute_exists(m.nested.nope)", false},
    {"attribute_exists(l[2])", true},
    {"attribute_exists(l[3])", false},
    {"attribute_exists(s.x)", false},
    {"attribute_exists(#dot)", true},
    {"attribute_not_exists(absent)", true},
    {"attribute_not_exists(l[9])", true},
    {"attribute_not_exists(n)", false},
    {"attribute_not_exists(m.arr[0].v)", false},
    // attribute_type, every type.
    {"attribute_type(s, :tS)", true},
    {"attribute_type(n, :tN)", true},
    {"attribute_type(b, :tB)", true},
    {"attribute_type(t, :tBOOL)", true},
    {"attribute_type(nul, :tNULL)", true},
    {"attribute_type(l, :tL)", true},
    {"attribute_type(m, :tM)", true},
    {"attribute_type(ss, :tSS)", true},
    {"attribute_type(ns, :tNS)", true},
    {"attribute_type(bs, :tBS)", true},
    {"attribute_type(n, :tS)", false},
    {"attribute_type(ss, :tL)", false},
    {"attribute_type(l, :tSS)", false},
    {"attribute_type(b, :tBS)", false},
    {"attribute_type(absent, :tNULL)", false},
    {"attribute_type(m.arr, :tL)", true},
    {"attribute_type(:n1, :tN)", true},
    // begins_with.
    {"begins_with(s, :ban)", true},
    {"begins_with(s, :nan)", false},
    {"begins_with(s, :s)", true},
    {"begins_with(s, :banana_)", false},
    {"begins_with(s, :empty)", true},
    {"begins_with(b, :b12)", true},
    {"begins_with(b, :b23)", false},
    {"begins_with(b, :ban)", false},
    {"begins_with(s, :b12)", false},
    {"begins_with(l, :a)", false},
    {"begins_with(ss, :red)", false},
    {"begins_with(absent, :ban)", false},
    {"begins_with(:s, s)", true},
    {"begins_with(s, absent)", false},
    {"begins_with(s, n)", false},
    // contains.
    {"contains(s, :nan)", true},
    {"contains(s, :z)", false},
    {"contains(s, :s)", true},
    {"contains(b, :b23)", true},
    {"contains(b, :bx)", false},
    {"contains(b, :nan)", false},
    {"contains(s, :b12)", false},
    {"contains(ss, :red)", true},
    {"contains(ss, :blue)", false},
    {"contains(ss, :n1)", false},
    {"contains(ss, :ss3)", false},
    {"contains(ns, :n5)", true},
    {"contains(ns, :n2)", false},
    {"contains(ns, :s)", false},
    {"contains(bs, :b1)", true},
    {"contains(bs, :bx)", false},
    {"contains(l, :n3)", true},
    {"contains(l, :a)", true},
    {"contains(l, :x)", false},
    {"contains(l, :l2)", false},
    {"contains(e, :ns12)", true},
    {"contains(e, :l34)", true},
    {"contains(m, :x)", false},
    {"contains(n, :n1)", false},
    {"contains(absent, :x)", false},
    {"contains(s, absent)", false},
    {"contains(s, p)", false},
    {"contains(:s, :nan)", true},
    // size.
    {"size(s) = :n6", true},
    {"size(su) = :n4", true},  // bytes, not characters
    {"size(sempty) = :n0", true},
    {"size(b) = :n3", true},
    {"size(l) = :n3", true},
    {"size(lempty) = :n0", true},
    {"size(e) = :n3", true},
    {"size(m) = :n2", true},
    {"size(mempty) = :n0", true},
    {"size(ss) = :n2", true},
    {"size(ns) = :n2", true},
    {"size(bs) = :n2", true},
    {"size(m.arr) = :n2", true},
    {"size(m.nested.deep) = :n1", true},
    {"size(n) = :n1", false},
    {"size(n) <> :n1", true},
    {"size(t) = :n1", false},
    {"size(nul) = :n1", false},
    {"size(absent) = :n0", false},
    {"size(s) = :s", false},
    {"size(s) > :n5", true},
    {"size(s) < two", false},
    {"size(l) > two", true},
    {"two < size(l)", true},
    {"size(:s) = :n6", true},
    {"size(l) = size(:l)", true},
    {"size(s) IN (:n1, :n6)", true},
    // AND, OR, NOT and precedence.
    {"n = :n10 AND s = :s", true},
    {"n = :n10 AND s = :apple", false},
    {"n = :n11 OR s = :s", true},
    {"n = :n11 OR s = :apple", false},
    {"n = :n10 OR n = :n10 AND n = :n11", true},
    {"(n = :n10 OR n = :n10) AND n = :n11", false},
    {"NOT n = :n11 AND n = :n10", true},
    {"NOT (n = :n10)", false},
    {"NOT absent = :n1", true},
    {"NOT NOT n = :n10", true},
    {"NOT attribute_exists(absent) AND size(s) = :n6", true},
    {"n < two OR NOT (s = :s OR t = :false)", false},
    {"b BETWEEN :b12 AND :b23 AND contains(ss, :red)", true},
};

TEST(EvaluateTest, ConditionsOverEveryType) {
  for (const Case& c : kCases) {
    ConditionExpression condition = Resolved(c.condition);
    EXPECT_EQ(c.expected, EvaluateCondition(condition, &TestItem()))
        << "condition: " << c.condition;
  }
}

TEST(EvaluateTest, WithoutAnItemEveryAttributeIsAbsent) {
  struct NoItemCase {
    std::string_view condition;
    bool expected;
  };
  constexpr NoItemCase kNoItem[] = {
      {"attribute_not_exists(p)", true},
      {"attribute_exists(p)", false},
      {"a <> :n1", true},
      {"a = :n1", false},
      {"NOT a = :n1", true},
      {"size(a) = :n0", false},
      {"a IN (:n1)", false},
      {"contains(a, :x)", false},
      {":n1 = :n1", true},
      {"size(:s) = :n6", true},
      {":n1 BETWEEN :n0 AND :n2", true},
  };
  for (const NoItemCase& c : kNoItem) {
    EXPECT_EQ(c.expected, EvaluateCondition(Resolved(c.condition), nullptr))
        << c.condition;
  }
  Item empty;
  EXPECT_TRUE(EvaluateCondition(Resolved("attribute_not_exists(p)"), &empty));
}

TEST(EvaluateTest, FindPath) {
  const Item& item = TestItem();
  auto find = [&](std::string_view projection) -> std::string {
    ProjectionExpression p = ParseProjection(projection).value();
    Resolver resolver(nullptr, nullptr);
    ProjectionExpression r = resolver.Resolve(p).value();
    const AttributeValue* v = FindPath(item, r.paths[0]);
    return v == nullptr ? "null" : RenderValue(*v);
  };
  EXPECT_EQ("{N:10}", find("n"));
  EXPECT_EQ("{S:x}", find("m.nested.deep"));
  EXPECT_EQ("{N:2}", find("m.arr[1].v"));
  EXPECT_EQ("{L:[{N:3}, {N:4}]}", find("e[2]"));
  EXPECT_EQ("{N:4}", find("e[2][1]"));
  EXPECT_EQ("null", find("e[2][2]"));
  EXPECT_EQ("null", find("e[3]"));
  EXPECT_EQ("null", find("m.nested.deep.deeper"));
  EXPECT_EQ("null", find("m[0]"));
  EXPECT_EQ("null", find("l.a"));
  EXPECT_EQ("null", find("absent"));
}

// One resolved condition, many threads, many evaluations: the tree is only
// read.
TEST(EvaluateTest, OneResolvedConditionEvaluatesConcurrently) {
  const ConditionExpression condition =
      Resolved("size(s) = :n6 AND contains(ss, :red) AND n BETWEEN :n1 AND :n20");
  const Item other = {{"s", S("x")}};
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        if (!EvaluateCondition(condition, &TestItem())) ++failures[t];
        if (EvaluateCondition(condition, &other)) ++failures[t];
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int f : failures) EXPECT_EQ(0, f);
}

// --- Projections -------------------------------------------------------------

std::string Project(const Item& item, std::string_view projection,
                    const NameMap* names = nullptr) {
  Result<ProjectionExpression> parsed = ParseProjection(projection);
  if (!parsed.ok()) return parsed.status().message();
  Resolver resolver(names, nullptr);
  Result<ProjectionExpression> r = resolver.Resolve(*parsed);
  if (!r.ok()) return r.status().message();
  return RenderItem(ProjectItem(item, *r));
}

TEST(EvaluateTest, ProjectionKeepsNestedStructure) {
  const Item item = {
      {"p", S("k")},
      {"a", M({{"b", L({N("2"), N("4"), M({{"x", S("hi")}, {"y", S("yo")}})})},
               {"c", N("5")}})},
      {"b", S("hello")},
      {"a.b", S("dotted")},
  };
  struct ProjCase {
    std::string_view projection;
    std::string_view expected;
  };
  constexpr ProjCase kProj[] = {
      {"b", "{b:{S:hello}}"},
      {"p, b", "{b:{S:hello}, p:{S:k}}"},
      {"a", "{a:{M:{b:{L:[{N:2}, {N:4}, {M:{x:{S:hi}, y:{S:yo}}}]}, c:{N:5}}}}"},
      {"a.b", "{a:{M:{b:{L:[{N:2}, {N:4}, {M:{x:{S:hi}, y:{S:yo}}}]}}}}"},
      {"a.b[0]", "{a:{M:{b:{L:[{N:2}]}}}}"},
      {"a.b[2]", "{a:{M:{b:{L:[{M:{x:{S:hi}, y:{S:yo}}}]}}}}"},
      {"a.b[2].y", "{a:{M:{b:{L:[{M:{y:{S:yo}}}]}}}}"},
      {"a.b[0], a.b[1]", "{a:{M:{b:{L:[{N:2}, {N:4}]}}}}"},
      {"a.b[1], a.b[0]", "{a:{M:{b:{L:[{N:2}, {N:4}]}}}}"},
      {"a.b[2].y, a.b[0]", "{a:{M:{b:{L:[{N:2}, {M:{y:{S:yo}}}]}}}}"},
      {"a.b[0], a.c", "{a:{M:{b:{L:[{N:2}]}, c:{N:5}}}}"},
      {"a.c, b", "{a:{M:{c:{N:5}}}, b:{S:hello}}"},
      {"a.x, a.b[0], x, a.b[3].x", "{a:{M:{b:{L:[{N:2}]}}}}"},
      // Paths that do not resolve yield nothing.
      {"x", "{}"},
      {"a.b[3]", "{}"},
      {"a.x", "{}"},
      {"a.x.y", "{}"},
      {"a.b[3].x", "{}"},
      {"a.b.x", "{}"},
      {"a[0]", "{}"},
      {"a.b[0].x", "{}"},
      {"a.b[0][0]", "{}"},
      {"b[0]", "{}"},
      {"b.c", "{}"},
      // A placeholder is one path element, even with a dot in it.
      {"#n1.b", "{a:{M:{b:{L:[{N:2}, {N:4}, {M:{x:{S:hi}, y:{S:yo}}}]}}}}"},
      {"#dot", "{a.b:{S:dotted}}"},
      {"#dot, a.c", "{a:{M:{c:{N:5}}}, a.b:{S:dotted}}"},
  };
  const NameMap names = {{"#n1", "a"}, {"#dot", "a.b"}};
  for (const ProjCase& c : kProj) {
    EXPECT_EQ(c.expected, Project(item, c.projection, &names))
        << "projection: " << c.projection;
  }
}

TEST(EvaluateTest, ProjectionOfEmptyContainersAndLists) {
  const Item item = {
      {"m", M({})},
      {"l", L({N("0"), N("1"), N("2"), N("3")})},
      {"ll", L({L({N("0"), N("1")}), L({N("2"), N("3")})})},
  };
  EXPECT_EQ("{m:{M:{}}}", Project(item, "m"));
  EXPECT_EQ("{}", Project(item, "m.a"));
  EXPECT_EQ("{l:{L:[{N:1}, {N:3}]}}", Project(item, "l[3], l[1]"));
  EXPECT_EQ("{l:{L:[{N:0}, {N:3}]}}", Project(item, "l[3], l[9], l[0]"));
  EXPECT_EQ("{ll:{L:[{L:[{N:1}]}, {L:[{N:2}]}]}}",
            Project(item, "ll[1][0], ll[0][1]"));
}

TEST(EvaluateTest, ProjectPaths) {
  const Item item = {{"a", M({{"x", N("1")}, {"y", N("2")}})}, {"z", N("3")}};
  UpdateExpression update = [] {
    ValueMap values = {{":v", N("7")}};
    Resolver resolver(nullptr, &values);
    return resolver.Resolve(ParseUpdate("SET a.x = :v, z = :v, q = :v").value())
        .value();
  }();
  EXPECT_EQ("{a:{M:{x:{N:1}}}, z:{N:3}}",
            RenderItem(ProjectItem(item, UpdatedPaths(update))));
}

}  // namespace
}  // namespace dynarock::expr
