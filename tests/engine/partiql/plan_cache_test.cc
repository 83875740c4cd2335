// The PartiQL plan cache: a plan bound from a template must be the plan that
// parsing and planning give for the same request, and the cache must miss
// whenever that could be otherwise.

#include "engine/partiql/plan_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "engine/partiql/statement_parser.h"
#include "engine/partiql/statement_planner.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::partiql {
namespace {

using PK = Plan::Kind;

using namespace expr::testing;  // NOLINT: value builders

// Tables "t" (pk) and "composite" (pk, sk); index "i" of either is (g, gs).
// `sort_name` renames composite's sort key, as a table created again with
// another key would.
struct Keys {
  std::string sort_name = "sk";
  Result<KeyDef> operator()(std::string_view table,
                            std::optional<std::string_view> index) const {
    if (table == "absent") return Status::ResourceNotFound("Requested resource not found");
    KeyDef k;
    if (index) {
      k.hash_name = "g";
      k.range_name = "gs";
      return k;
    }
    k.hash_name = "pk";
    if (table == "composite") k.range_name = sort_name;
    return k;
  }
};

Result<Plan> SlowPlan(const std::string& text, const std::vector<AttributeValue>& params,
                      const KeyLookup& keys, const PlanOptions& options) {
  DR_ASSIGN_OR_RETURN(Statement s, Parse(text, params));
  return PlanStatement(s, keys, options);
}

// Plans `text` the slow way and offers the plan to `cache`.
void Warm(PlanCache& cache, const std::string& text,
          const std::vector<AttributeValue>& params, const KeyLookup& keys,
          const PlanOptions& options = {}) {
  Result<Plan> plan = SlowPlan(text, params, keys, options);
  ASSERT_OK(plan.status());
  cache.Remember(text, params, keys, options, *plan);
}

// The plan `cache` binds, or nullopt when it misses.
std::optional<Plan> Bound(const PlanCache& cache, const std::string& text,
                          const std::vector<AttributeValue>& params, const KeyLookup& keys,
                          const PlanOptions& options) {
  Plan plan;
  if (!cache.Bind(text, params, keys, options, &plan)) return std::nullopt;
  return plan;
}

TEST(PartiqlPlanCacheTest, BoundGetIsThePlannedGet) {
  PlanCache cache;
  KeyLookup keys = Keys{};
  const std::string text = "SELECT a, b.c FROM composite WHERE pk = ? AND sk = ?";
  Warm(cache, text, {S("p1"), N("1")}, keys);
  ASSERT_EQ(cache.size(), 1u);

  PlanOptions options;
  options.consistent_read = true;
  options.scope.ns = "other";
  const std::vector<AttributeValue> params = {S("p2"), N("7")};
  std::optional<Plan> bound = Bound(cache, text, params, keys, options);
  ASSERT_TRUE(bound.has_value());
  ASSERT_OK_AND_ASSIGN(Plan slow, SlowPlan(text, params, keys, options));
  EXPECT_EQ(bound->kind, PK::kGet);
  EXPECT_EQ(bound->table_name, slow.table_name);
  EXPECT_EQ(bound->get.table_name, slow.get.table_name);
  EXPECT_EQ(bound->get.key, slow.get.key);
  EXPECT_EQ(bound->get.key.at("pk"), S("p2"));
  EXPECT_EQ(bound->get.key.at("sk"), N("7"));
  EXPECT_EQ(bound->get.projection_expression, slow.get.projection_expression);
  EXPECT_EQ(bound->get.expression_attribute_names, slow.get.expression_attribute_names);
  EXPECT_TRUE(bound->get.consistent_read);
  EXPECT_EQ(bound->get.scope.ns, "other");
}

TEST(PartiqlPlanCacheTest, BoundQueryIsThePlannedQuery) {
  PlanCache cache;
  KeyLookup keys = Keys{};
  // Parameters in the key condition and the filter, literals between them.
  const std::string text =
      "SELECT * FROM \"composite\".\"i\" WHERE g = ? AND gs BETWEEN 1 AND ? "
      "AND x <> 'lit' AND size(y) > ? ORDER BY gs DESC";
  Warm(cache, text, {S("a"), N("5"), N("2")}, keys);
  PlanOptions options;
  options.limit = 3;
  options.exclusive_start_key = Item{{"g", S("b")}, {"gs", N("2")}};
  const std::vector<AttributeValue> params = {S("b"), N("9"), N("4")};
  std::optional<Plan> bound = Bound(cache, text, params, keys, options);
  ASSERT_TRUE(bound.has_value());
  ASSERT_OK_AND_ASSIGN(Plan slow, SlowPlan(text, params, keys, options));
  ASSERT_EQ(bound->kind, PK::kQuery);
  EXPECT_EQ(bound->query.key_condition_expression, slow.query.key_condition_expression);
  EXPECT_EQ(bound->query.scan_index_forward, slow.query.scan_index_forward);
  EXPECT_FALSE(bound->query.scan_index_forward);
  EXPECT_EQ(bound->query.read.index_name, slow.query.read.index_name);
  EXPECT_EQ(bound->query.read.filter_expression, slow.query.read.filter_expression);
  EXPECT_EQ(bound->query.read.expression_attribute_names,
            slow.query.read.expression_attribute_names);
  EXPECT_EQ(bound->query.read.expression_attribute_values,
            slow.query.read.expression_attribute_values);
  EXPECT_EQ(bound->query.read.limit, std::optional<int64_t>(3));
  EXPECT_EQ(bound->query.read.exclusive_start_key, options.exclusive_start_key);
}

TEST(PartiqlPlanCacheTest, MissesWhenTheParameterCountDiffers) {
  PlanCache cache;
  KeyLookup keys = Keys{};
  const std::string text = "SELECT * FROM t WHERE pk = ?";
  Warm(cache, text, {S("a")}, keys);
  EXPECT_TRUE(Bound(cache, text, {S("b")}, keys, {}).has_value());
  // The slow path gives DynamoDB's parameter-count message.
  EXPECT_FALSE(Bound(cache, text, {}, keys, {}).has_value());
  EXPECT_FALSE(Bound(cache, text, {S("b"), S("c")}, keys, {}).has_value());
}

TEST(PartiqlPlanCacheTest, MissesWhenTheKeyChangedOrTheTableIsGone) {
  PlanCache cache;
  const std::string text = "SELECT * FROM composite WHERE pk = ? AND sk = ?";
  Warm(cache, text, {S("a"), N("1")}, Keys{});
  // The table was created again with another sort key: "sk" is no longer a
  // key attribute, and the statement is a Query with a filter.
  Keys renamed;
  renamed.sort_name = "other";
  EXPECT_FALSE(Bound(cache, text, {S("a"), N("1")}, renamed, {}).has_value());
  ASSERT_OK_AND_ASSIGN(Plan slow, SlowPlan(text, {S("a"), N("1")}, renamed, {}));
  EXPECT_EQ(slow.kind, PK::kQuery);
  // Remembering the new plan replaces the template.
  cache.Remember(text, {S("a"), N("1")}, renamed, {}, slow);
  std::optional<Plan> bound = Bound(cache, text, {S("b"), N("2")}, renamed, {});
  ASSERT_TRUE(bound.has_value());
  EXPECT_EQ(bound->kind, PK::kQuery);

  const std::string gone = "SELECT * FROM t WHERE pk = ?";
  Warm(cache, gone, {S("a")}, Keys{});
  KeyLookup absent = [](std::string_view, std::optional<std::string_view>) -> Result<KeyDef> {
    return Status::ResourceNotFound("Requested resource not found");
  };
  EXPECT_FALSE(Bound(cache, gone, {S("a")}, absent, {}).has_value());
}

TEST(PartiqlPlanCacheTest, KeepsOnlySelectsThatPlanIntoGetOrQuery) {
  PlanCache cache;
  KeyLookup keys = Keys{};
  const std::pair<const char*, size_t> not_kept[] = {
      {"INSERT INTO t VALUE {'pk': ?}", 1},
      {"UPDATE t SET a = ? WHERE pk = ?", 2},
      {"DELETE FROM t WHERE pk = ?", 1},
      {"SELECT * FROM t WHERE a = ?", 1},  // a Scan
  };
  for (const auto& [text, count] : not_kept) {
    std::vector<AttributeValue> params(count, S("v"));
    Warm(cache, text, params, keys);
    EXPECT_FALSE(Bound(cache, text, params, keys, {}).has_value()) << text;
  }
  EXPECT_EQ(cache.size(), 0u);
}

TEST(PartiqlPlanCacheTest, NeverBindsParametersTheParserLooksAtOrNests) {
  PlanCache cache;
  KeyLookup keys = Keys{};
  // A set literal checks its members' types: <<?, ?>> with a string and a
  // number is an error that a bound plan would skip.
  const std::string set = "SELECT * FROM t WHERE pk = 'a' AND s = <<?, ?>>";
  Warm(cache, set, {S("x"), S("y")}, keys);
  EXPECT_FALSE(Bound(cache, set, {S("x"), N("1")}, keys, {}).has_value());
  EXPECT_FALSE(Parse(set, {S("x"), N("1")}).ok());
  // A parameter inside a list literal is not a whole value of the plan.
  const std::string nested = "SELECT * FROM t WHERE pk = 'a' AND l = [?, 1]";
  Warm(cache, nested, {S("x")}, keys);
  EXPECT_FALSE(Bound(cache, nested, {S("z")}, keys, {}).has_value());
}

TEST(PartiqlPlanCacheTest, StaysBounded) {
  PlanCache cache;
  KeyLookup keys = Keys{};
  for (size_t i = 0; i <= PlanCache::kMaxEntries; ++i) {
    Warm(cache, "SELECT * FROM t WHERE pk = ? AND x" + std::to_string(i) + " = 1", {S("a")},
         keys);
  }
  EXPECT_LE(cache.size(), PlanCache::kMaxEntries);
  EXPECT_GE(cache.size(), 1u);
}

}  // namespace
}  // namespace dynarock::partiql
