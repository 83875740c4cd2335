// Tests of ApplyUpdate() (engine/expr/apply_update.cc, declared in
// evaluate.h).

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "engine/expr/evaluate.h"
#include "engine/expr/parser.h"
#include "engine/expr/render.h"
#include "engine/expr/resolve.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::expr {
namespace {

using namespace testing;  // NOLINT: value builders

constexpr std::string_view kBig = "9.9999999999999999999999999999999999999E+125";

const Item& BaseItem() {
  static const Item* item = new Item{
      {"p", S("key")},
      {"a", N("2")},
      {"b", N("3")},
      {"s", S("hello")},
      {"f", N("0.1")},
      {"t", Bool(true)},
      {"big", N(kBig)},
      {"l", L({S("one"), S("two"), S("three")})},
      {"n", L({N("2"), N("3"), N("4"), N("5"), N("6"), N("7")})},
      {"m", M({{"b", N("3")}, {"c", M({{"x", N("7")}, {"y", N("8")}})}})},
      {"d", M({{"c", L({S("hi"), M({{"x", M({{"y", L({N("3"), N("5"), N("7")})}})},
                                    {"q", N("2")}})})}})},
      {"ss", SS({"dog", "cat", "mouse"})},
      {"ns", NS({"1", "2"})},
      {"bs", BS({"x"})},
      {"e", M({})},
      {"el", L({})},
      {"one", L({N("1")})},
      {"single", M({{"b", N("1")}})},
  };
  return *item;
}

const ValueMap& Values() {
  static const ValueMap* values = new ValueMap{
      {":v", N("7")},
      {":one", N("1")},
      {":five", N("5")},
      {":pt2", N("0.2")},
      {":neg", N("-10")},
      {":big", N(kBig)},
      {":s", S("x")},
      {":a1", S("a1")},
      {":a2", S("a2")},
      {":a3", S("a3")},
      {":a4", S("a4")},
      {":l", L({N("1"), N("2")})},
      {":l34", L({N("3"), N("4")})},
      {":empty", L({})},
      {":m", M({{"z", N("1")}})},
      {":ss", SS({"pig"})},
      {":ssdog", SS({"dog"})},
      {":ssall", SS({"mouse", "dog", "cat"})},
      {":ssmore", SS({"coati", "dog", "badger"})},
      {":ns", NS({"3"})},
      {":ns12", NS({"2.0", "1"})},
      {":bs", BS({"y"})},
  };
  return *values;
}

// Applies `text` to `item` and renders the touched top-level attributes of
// the result as "name=value" ("name=-" when absent), sorted by name; or the
// error message. Also checks that untouched attributes did not change.
std::string Apply(std::string_view text, const Item& item = BaseItem(),
                  bool item_exists = true) {
  Result<UpdateExpression> parsed = ParseUpdate(text);
  if (!parsed.ok()) return "PARSE: " + parsed.status().message();
  Resolver resolver(nullptr, &Values());
  Result<UpdateExpression> update = resolver.Resolve(*parsed);
  if (!update.ok()) return "RESOLVE: " + update.status().message();
  Result<Item> out = ApplyUpdate(*update, item, item_exists);
  if (!out.ok()) return out.status().message();
  const std::vector<std::string> touched = UpdatedAttributes(*update);
  for (const auto& [name, value] : item) {
    if (std::find(touched.begin(), touched.end(), name) != touched.end()) {
      continue;
    }
    auto it = out->find(name);
    if (it == out->end() || it->second != value) {
      ADD_FAILURE() << text << ": untouched attribute " << name << " changed";
    }
  }
  for (const auto& [name, value] : *out) {
    if (!item.contains(name) &&
        std::find(touched.begin(), touched.end(), name) == touched.end()) {
      ADD_FAILURE() << text << ": attribute " << name << " appeared";
    }
  }
  std::string rendered;
  for (const std::string& name : touched) {
    if (!rendered.empty()) rendered += ", ";
    auto it = out->find(name);
    rendered += name + "=" + (it == out->end() ? "-" : RenderValue(it->second));
  }
  return rendered;
}

struct Case {
  std::string_view update;
  std::string_view expected;
};

constexpr std::string_view kMissing =
    "The provided expression refers to an attribute that does not exist in "
    "the item";
constexpr std::string_view kBadType =
    "An operand in the update expression has an incorrect data type";
constexpr std::string_view kBadPath =
    "The document path provided in the update expression is invalid for "
    "update";
constexpr std::string_view kOverflow =
    "Number overflow. Attempting to store a number with magnitude larger than "
    "supported range";

const Case kCases[] = {
    // SET of values and attributes.
    {"SET z = :v", "z={N:7}"},
    {"SET a = :v", "a={N:7}"},
    {"SET a = :s", "a={S:x}"},
    {"SET z = a", "z={N:2}"},
    {"SET a = a", "a={N:2}"},
    {"SET z = m.c", "z={M:{x:{N:7}, y:{N:8}}}"},
    {"SET z = d.c[1].x.y[1]", "z={N:5}"},
    {"SET z = q", kMissing},
    {"SET q = q", kMissing},
    {"SET z = m.c.q", kMissing},
    {"SET z = l[3]", kMissing},
    // Every operand is read before anything is written.
    {"SET x = :v, y = x", kMissing},
    {"SET a = b, b = a", "a={N:3}, b={N:2}"},
    {"REMOVE a SET z = a", "a=-, z={N:2}"},
    {"SET z = b REMOVE b", "b=-, z={N:3}"},
    // + and -, exact.
    {"SET a = a + :v", "a={N:9}"},
    {"SET a = :v - a", "a={N:5}"},
    {"SET a = a - :v", "a={N:-5}"},
    {"SET z = b + a", "z={N:5}"},
    {"SET z = :v + :v", "z={N:14}"},
    {"SET f = f + :pt2", "f={N:0.3}"},
    {"SET a = a + :neg", "a={N:-8}"},
    {"SET a = a - a", "a={N:0}"},
    {"SET z = q + :v", kMissing},
    {"SET z = :v - q", kMissing},
    {"SET z = s + :v", kBadType},
    {"SET z = :v + s", kBadType},
    {"SET z = t - :v", kBadType},
    {"SET z = l + :v", kBadType},
    {"SET z = big + :big", kOverflow},
    {"SET z = big + :one", kOverflow},  // 127 significant digits
    {"SET z = :big - big", "z={N:0}"},
    // list_append.
    {"SET l = list_append(l, :l)",
     "l={L:[{S:one}, {S:two}, {S:three}, {N:1}, {N:2}]}"},
    {"SET l = list_append(:l, l)",
     "l={L:[{N:1}, {N:2}, {S:one}, {S:two}, {S:three}]}"},
    {"SET z = list_append(:l, :l34)", "z={L:[{N:1}, {N:2}, {N:3}, {N:4}]}"},
    {"SET z = list_append(el, :l)", "z={L:[{N:1}, {N:2}]}"},
    {"SET z = list_append(:empty, :empty)", "z={L:[]}"},
    {"SET z = list_append(one, one)", "z={L:[{N:1}, {N:1}]}"},
    {"SET z = list_append(if_not_exists(q, :empty), :l)",
     "z={L:[{N:1}, {N:2}]}"},
    {"SET z = list_append(l, q)", kMissing},
    {"SET z = list_append(q, :l)", kMissing},
    {"SET z = list_append(s, :l)", kBadType},
    {"SET z = list_append(:l, ss)", kBadType},
    {"SET z = list_append(m, :l)", kBadType},
    {"SET z = list_append(a, :l)", kBadType},
    // if_not_exists.
    {"SET q = if_not_exists(q, :v)", "q={N:7}"},
    {"SET a = if_not_exists(a, :v)", "a={N:2}"},
    {"SET z = if_not_exists(q, :v)", "z={N:7}"},
    {"SET z = if_not_exists(a, :v)", "z={N:2}"},
    {"SET a = if_not_exists(q, :v) + :one", "a={N:8}"},
    {"SET z = if_not_exists(m.c.x, :v)", "z={N:7}"},
    {"SET z = if_not_exists(m.zz, :s)", "z={S:x}"},
    {"SET z = if_not_exists(q, if_not_exists(r, :s))", "z={S:x}"},
    {"SET z = if_not_exists(q, r)", kMissing},
    // Nested SET.
    {"SET m.c.x = :five", "m={M:{b:{N:3}, c:{M:{x:{N:5}, y:{N:8}}}}}"},
    {"SET m.z = :v", "m={M:{b:{N:3}, c:{M:{x:{N:7}, y:{N:8}}}, z:{N:7}}}"},
    {"SET m.c = :v", "m={M:{b:{N:3}, c:{N:7}}}"},
    {"SET e.k = :s", "e={M:{k:{S:x}}}"},
    {"SET l[1] = :s", "l={L:[{S:one}, {S:x}, {S:three}]}"},
    {"SET l[0] = l[2], l[2] = l[0]", "l={L:[{S:three}, {S:two}, {S:one}]}"},
    {"SET d.c[1].x.y[1] = :v",
     "d={M:{c:{L:[{S:hi}, {M:{q:{N:2}, x:{M:{y:{L:[{N:3}, {N:7}, {N:7}]}}}}}]}}}"},
    {"SET m.b = m.b + :v, m.c.y = m.c.x",
     "m={M:{b:{N:10}, c:{M:{x:{N:7}, y:{N:7}}}}}"},
    // SET past the end of a list appends; several append in index order.
    {"SET l[7] = :s", "l={L:[{S:one}, {S:two}, {S:three}, {S:x}]}"},
    {"SET l[3] = :s", "l={L:[{S:one}, {S:two}, {S:three}, {S:x}]}"},
    {"SET l[84] = :a1, l[37] = :a2, l[17] = :a3, l[50] = :a4",
     "l={L:[{S:one}, {S:two}, {S:three}, {S:a3}, {S:a2}, {S:a4}, {S:a1}]}"},
    {"SET el[0] = :v", "el={L:[{N:7}]}"},
    {"SET l[2] = :a1, l[9] = :a2",
     "l={L:[{S:one}, {S:two}, {S:a1}, {S:a2}]}"},
    // Paths through missing attributes or the wrong types.
    {"SET s.c = :v", kBadPath},
    {"SET l.c = :v", kBadPath},
    {"SET q.c = :v", kBadPath},
    {"SET s[0] = :v", kBadPath},
    {"SET q[0] = :v", kBadPath},
    {"SET m[0] = :v", kBadPath},
    {"SET m.zz.y = :v", kBadPath},
    {"SET l[5].x = :v", kBadPath},
    {"SET l[0].x = :v", kBadPath},
    {"SET d.c[0][0] = :v", kBadPath},
    // REMOVE.
    {"REMOVE a", "a=-"},
    {"REMOVE q", "q=-"},
    {"REMOVE a, s, l", "a=-, l=-, s=-"},
    {"REMOVE m.b", "m={M:{c:{M:{x:{N:7}, y:{N:8}}}}}"},
    {"REMOVE m.zz", "m={M:{b:{N:3}, c:{M:{x:{N:7}, y:{N:8}}}}}"},
    {"REMOVE single.b", "single={M:{}}"},
    {"REMOVE one[0]", "one={L:[]}"},
    {"REMOVE l[1]", "l={L:[{S:one}, {S:three}]}"},
    {"REMOVE l[0], l[2]", "l={L:[{S:two}]}"},
    {"REMOVE l[2], l[0]", "l={L:[{S:two}]}"},
    {"REMOVE l[0], l[1], l[2]", "l={L:[]}"},
    {"REMOVE l[17]", "l={L:[{S:one}, {S:two}, {S:three}]}"},
    {"REMOVE d.c[1].x.y[1], d.c[1].q",
     "d={M:{c:{L:[{S:hi}, {M:{x:{M:{y:{L:[{N:3}, {N:7}]}}}}}]}}}"},
    {"REMOVE n[1] SET n[3] = :v", "n={L:[{N:2}, {N:4}, {N:7}, {N:6}, {N:7}]}"},
    {"SET n[3] = :v REMOVE n[1]", "n={L:[{N:2}, {N:4}, {N:7}, {N:6}, {N:7}]}"},
    {"REMOVE n[0], n[5] SET n[9] = :v",
     "n={L:[{N:3}, {N:4}, {N:5}, {N:6}, {N:7}]}"},
    {"REMOVE s.c", kBadPath},
    {"REMOVE l.c", kBadPath},
    {"REMOVE q.c", kBadPath},
    {"REMOVE s[0]", kBadPath},
    {"REMOVE q[0]", kBadPath},
    {"REMOVE m.zz.y", kBadPath},
    // ADD.
    {"ADD a :v", "a={N:9}"},
    {"ADD a :neg", "a={N:-8}"},
    {"ADD f :pt2", "f={N:0.3}"},
    {"ADD q :v", "q={N:7}"},
    {"ADD ss :ss", "ss={SS:[dog, cat, mouse, pig]}"},
    {"ADD ss :ssmore", "ss={SS:[dog, cat, mouse, coati, badger]}"},
    {"ADD ss :ssall", "ss={SS:[dog, cat, mouse]}"},
    {"ADD q :ss", "q={SS:[pig]}"},
    {"ADD ns :ns", "ns={NS:[1, 2, 3]}"},
    {"ADD ns :ns12", "ns={NS:[1, 2]}"},
    {"ADD bs :bs", "bs={BS:[eA==, eQ==]}"},
    {"ADD m.b :v", "m={M:{b:{N:10}, c:{M:{x:{N:7}, y:{N:8}}}}}"},
    {"ADD m.q :v", "m={M:{b:{N:3}, c:{M:{x:{N:7}, y:{N:8}}}, q:{N:7}}}"},
    {"ADD a :v, b :v", "a={N:9}, b={N:10}"},
    {"ADD s :v", kBadType},
    {"ADD a :ss", kBadType},
    {"ADD ss :v", kBadType},
    {"ADD ss :ns", kBadType},
    {"ADD l :ss", kBadType},
    {"ADD t :v", kBadType},
    {"ADD big :big", kOverflow},
    {"ADD q.r :v", kBadPath},
    {"ADD s.r :v", kBadPath},
    // DELETE.
    {"DELETE ss :ssdog", "ss={SS:[cat, mouse]}"},
    {"DELETE ss :ss", "ss={SS:[dog, cat, mouse]}"},
    {"DELETE ss :ssmore", "ss={SS:[cat, mouse]}"},
    {"DELETE ss :ssall", "ss=-"},
    {"DELETE q :ss", "q=-"},
    {"DELETE ns :ns12", "ns=-"},
    {"DELETE ns :ns", "ns={NS:[1, 2]}"},
    {"DELETE bs :bs", "bs={BS:[eA==]}"},
    {"DELETE m.zz :ss", "m={M:{b:{N:3}, c:{M:{x:{N:7}, y:{N:8}}}}}"},
    {"DELETE s :ss", kBadType},
    {"DELETE ss :ns", kBadType},
    {"DELETE l :ss", kBadType},
    {"DELETE q.r :ss", kBadPath},
    // Several clauses.
    {"SET a = :v REMOVE s ADD b :one DELETE ss :ssdog",
     "a={N:7}, b={N:4}, s=-, ss={SS:[cat, mouse]}"},
    {"DELETE ss :ssall ADD ns :ns REMOVE l[0] SET z = ss",
     "l={L:[{S:two}, {S:three}]}, ns={NS:[1, 2, 3]}, ss=-, "
     "z={SS:[dog, cat, mouse]}"},
    // The first failing action decides the error.
    {"SET z = q, y = s + :v", kMissing},
    {"SET y = s + :v, z = q", kBadType},
};

TEST(ApplyUpdateTest, Table) {
  for (const Case& c : kCases) {
    EXPECT_EQ(c.expected, Apply(c.update)) << "update: " << c.update;
  }
}

TEST(ApplyUpdateTest, NestedUpdatesOfSeveralAttributes) {
  const Item item = {
      {"a", M({{"x", N("3")}, {"y", N("4")}, {"c", M({{"y", N("3")}})}})},
      {"b", M({{"x", N("1")}, {"y", N("2")}})},
  };
  EXPECT_EQ(
      "a={M:{b:{N:7}, c:{M:{d:{S:x}, y:{N:3}}}, y:{N:4}}}, b={M:{x:{N:5}}}",
      Apply("SET a.b = :v, a.c.d = :s, b.x = :five REMOVE a.x, b.y", item));
}

// An item that does not exist yet starts as its key. Reading the key works;
// REMOVE below a missing attribute is ignored; SET below one is not.
TEST(ApplyUpdateTest, UpsertOfAMissingItem) {
  const Item key = {{"p", S("new")}};
  EXPECT_EQ("b={N:7}", Apply("SET b = :v", key, false));
  EXPECT_EQ("b={N:7}", Apply("ADD b :v", key, false));
  EXPECT_EQ("b={SS:[pig]}", Apply("ADD b :ss", key, false));
  EXPECT_EQ("z={S:new}", Apply("SET z = p", key, false));
  EXPECT_EQ("x=-", Apply("REMOVE x.y", key, false));
  EXPECT_EQ("x=-", Apply("REMOVE x[0]", key, false));
  EXPECT_EQ("x=-", Apply("DELETE x :ss", key, false));
  EXPECT_EQ(kBadPath, Apply("SET c.c = :v", key, false));
  EXPECT_EQ(kBadPath, Apply("SET b[0] = :v", key, false));
  EXPECT_EQ(kMissing, Apply("SET c = z", key, false));
  EXPECT_EQ(kBadPath, Apply("REMOVE x.y", key, true));
}

TEST(ApplyUpdateTest, TheOldItemIsNotModified) {
  Item item = BaseItem();
  ValueMap values = {{":v", N("1")}};
  Resolver resolver(nullptr, &values);
  UpdateExpression update =
      resolver.Resolve(ParseUpdate("SET a = :v, m.c.x = :v REMOVE l[0]").value())
          .value();
  ASSERT_OK_AND_ASSIGN(Item out, ApplyUpdate(update, item));
  EXPECT_EQ(BaseItem(), item);
  EXPECT_NE(BaseItem(), out);
  // The same resolved update applies again to the result.
  ASSERT_OK_AND_ASSIGN(Item again, ApplyUpdate(update, out));
  EXPECT_EQ(L({S("three")}), again.at("l"));
}

TEST(ApplyUpdateTest, UpdatedAttributesAndPaths) {
  ValueMap values = {{":v", N("1")}};
  Resolver resolver(nullptr, &values);
  UpdateExpression update =
      resolver
          .Resolve(ParseUpdate("SET c.b = :v, a = :v REMOVE d[1], c.x ADD e :v")
                       .value())
          .value();
  EXPECT_EQ((std::vector<std::string>{"a", "c", "d", "e"}),
            UpdatedAttributes(update));
  std::vector<Path> paths = UpdatedPaths(update);
  ASSERT_EQ(5u, paths.size());
  EXPECT_EQ("c.b", RenderResolved(paths[0]));
  EXPECT_EQ("d[1]", RenderResolved(paths[2]));
  EXPECT_EQ("e", RenderResolved(paths[4]));
}

}  // namespace
}  // namespace dynarock::expr
