// The PartiQL planner, table-driven: statement text -> which engine request
// runs it and with which expressions, or the exact error.

#include "engine/partiql/statement_planner.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/partiql/statement_parser.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::partiql {
namespace {

using PK = Plan::Kind;

Result<KeyDef> Keys(std::string_view table, std::optional<std::string_view> index) {
  if (table == "absent") return Status::ResourceNotFound("Requested resource not found");
  KeyDef k;
  if (index == "m") {  // HASH a, b; RANGE c, d, e
    k.hash_name = "a";
    k.extra_hash = {{"b", AttrType::kN}};
    k.range_name = "c";
    k.extra_range = {{"d", AttrType::kS}, {"e", AttrType::kN}};
    return k;
  }
  if (index) {
    k.hash_name = "g";
    k.range_name = "gs";
    return k;
  }
  k.hash_name = "pk";
  if (table == "composite") k.range_name = "sk";
  return k;
}

Result<Plan> PlanOf(const std::string& text) {
  DR_ASSIGN_OR_RETURN(Statement s, Parse(text, {}));
  return PlanStatement(s, Keys, PlanOptions{});
}

struct Case {
  const char* text;
  PK kind;
  // Query: key condition; Scan: filter; writes: condition; Get: projection.
  const char* expression;
  const char* filter = "";  // Query: the filter
};

std::string OrEmpty(const std::optional<std::string>& s) { return s.value_or(""); }

TEST(PartiqlPlannerTest, ChoosesTheRequest) {
  const Case cases[] = {
      {"SELECT * FROM t WHERE pk = 'a'", PK::kGet, ""},
      {"SELECT a, b.c FROM composite WHERE sk = 1 AND pk = 'a'", PK::kGet, "#n0, #n1.#n2"},
      {"SELECT * FROM composite WHERE pk = 'a'", PK::kQuery, "#n0 = :v0"},
      {"SELECT * FROM composite WHERE pk = 'a' AND sk > 3 AND x = 1", PK::kQuery,
       "#n0 = :v0 AND #n1 > :v1", "#n2 = :v2"},
      {"SELECT * FROM composite WHERE pk = 'a' AND sk BETWEEN 1 AND 2", PK::kQuery,
       "#n0 = :v0 AND #n1 BETWEEN :v1 AND :v2"},
      {"SELECT * FROM composite WHERE begins_with(sk, 'x') AND pk = 'a'", PK::kQuery,
       "#n0 = :v0 AND begins_with(#n1, :v1)"},
      {"SELECT * FROM t WHERE pk = 'a' AND x = 1", PK::kQuery, "#n0 = :v0", "#n1 = :v1"},
      // What the key condition cannot take on the key filters.
      {"SELECT * FROM composite WHERE pk = 'a' AND sk IN [1, 2]", PK::kQuery, "#n0 = :v0",
       "#n1 IN (:v1, :v2)"},
      {"SELECT * FROM composite WHERE pk = 'a' AND sk > 1 AND sk < 5", PK::kQuery,
       "#n0 = :v0 AND #n1 > :v1", "#n1 < :v2"},
      {"SELECT * FROM composite WHERE pk = 'a' AND sk <> 1 AND pk = 'a'", PK::kQuery,
       "#n0 = :v0", "(#n1 <> :v1) AND (#n0 = :v2)"},
      {"SELECT * FROM \"t\".\"i\" WHERE g = 'a' AND gs < 2", PK::kQuery,
       "#n0 = :v0 AND #n1 < :v1"},
      {"SELECT * FROM t", PK::kScan, ""},
      {"SELECT * FROM t WHERE pk = 'a' OR x = 1", PK::kScan, "(#n0 = :v0) OR (#n1 = :v1)"},
      {"SELECT * FROM t WHERE pk > 'a' OR pk IN ['b']", PK::kScan,
       "(#n0 > :v0) OR (#n0 IN (:v1))"},
      {"SELECT * FROM t WHERE x IS NULL", PK::kScan, "attribute_type(#n0, :v0)"},
      {"SELECT * FROM t WHERE x IS NOT NULL", PK::kScan, "NOT attribute_type(#n0, :v0)"},
      {"SELECT * FROM composite WHERE pk = 'a' ORDER BY pk DESC, sk DESC", PK::kQuery,
       "#n0 = :v0"},
      {"SELECT * FROM t WHERE x IS MISSING AND NOT y IS NOT MISSING", PK::kScan,
       "(attribute_not_exists(#n0)) AND (NOT (attribute_exists(#n1)))"},
      {"SELECT * FROM t WHERE size(a[1]) = 2", PK::kScan, "size(#n0[1]) = :v0"},
      {"INSERT INTO t VALUE {'pk': 'a'}", PK::kPut, "attribute_not_exists(#n0)"},
      {"UPDATE composite SET x = 1 WHERE pk = 'a' AND sk = 2", PK::kUpdate,
       "attribute_exists(#n1)"},
      {"UPDATE t SET x = 1 WHERE pk = 'a' AND y = 2", PK::kUpdate,
       "attribute_exists(#n1) AND (#n2 = :v1)"},
      {"DELETE FROM t WHERE pk = 'a'", PK::kDelete, ""},
      {"DELETE FROM t WHERE pk = 'a' AND v > 1", PK::kDelete, "#n0 > :v0"},
      {"EXISTS(SELECT * FROM t WHERE pk = 'a')", PK::kConditionCheck, "attribute_exists(#n0)"},
  };
  for (const Case& c : cases) {
    Result<Plan> p = PlanOf(c.text);
    ASSERT_TRUE(p.ok()) << c.text << ": " << p.status().ToString();
    EXPECT_EQ(p->kind, c.kind) << c.text;
    std::string expression;
    std::string filter;
    switch (p->kind) {
      case PK::kGet: expression = OrEmpty(p->get.projection_expression); break;
      case PK::kQuery:
        expression = OrEmpty(p->query.key_condition_expression);
        filter = OrEmpty(p->query.read.filter_expression);
        break;
      case PK::kScan: expression = OrEmpty(p->scan.read.filter_expression); break;
      case PK::kMultiQuery: break;
      case PK::kPut: expression = OrEmpty(p->put.condition.condition_expression); break;
      case PK::kUpdate: expression = OrEmpty(p->update.condition.condition_expression); break;
      case PK::kDelete: expression = OrEmpty(p->del.condition.condition_expression); break;
      case PK::kConditionCheck: expression = OrEmpty(p->check.condition_expression); break;
    }
    EXPECT_EQ(expression, c.expression) << c.text;
    EXPECT_EQ(filter, c.filter) << c.text;
    // PartiQL's Query filters may name key attributes; the Query API's may not.
    if (p->kind == PK::kQuery) {
      EXPECT_TRUE(p->query.filter_may_name_key_attributes) << c.text;
    }
  }
}

// A SELECT giving the partition key several values: one Query per
// distinct value, in key order, each with its own key condition and filter.
struct PartitionCase {
  const char* value;  // the partition key's S value
  const char* key_condition;
  const char* filter;
};
struct MultiCase {
  const char* text;
  std::vector<PartitionCase> partitions;
  bool forward = true;
};

TEST(PartiqlPlannerTest, PartitionKeyValuesPlanOneQueryEach) {
  const MultiCase cases[] = {
      {"SELECT * FROM t WHERE pk IN ['b', 'a', 'b']",
       {{"a", "#n0 = :v0", ""}, {"b", "#n0 = :v0", ""}}},
      {"SELECT * FROM t WHERE pk = 'b' OR pk = 'a'",
       {{"a", "#n0 = :v0", ""}, {"b", "#n0 = :v0", ""}}},
      {"SELECT * FROM composite WHERE x = 2 AND pk IN ['a', 'b'] AND sk > 1",
       {{"a", "#n0 = :v0 AND #n1 > :v1", "#n2 = :v2"},
        {"b", "#n0 = :v0 AND #n1 > :v1", "#n2 = :v2"}}},
      {"SELECT * FROM composite WHERE pk = 'a' OR (sk = 1 AND pk = 'b' AND x = 3)",
       {{"a", "#n0 = :v0", ""}, {"b", "#n0 = :v0 AND #n1 = :v1", "#n2 = :v2"}}},
      {"SELECT * FROM composite WHERE (pk = 'a' OR pk IN ['c', 'b']) AND x = 1",
       {{"a", "#n0 = :v0", "#n1 = :v1"},
        {"b", "#n0 = :v0", "#n1 = :v1"},
        {"c", "#n0 = :v0", "#n1 = :v1"}}},
      // A value named twice: one Query, the branches' OR as its filter (no item
      // twice); with an unconditional branch, no filter at all.
      {"SELECT * FROM composite WHERE (pk = 'a' AND x = 1) OR (pk = 'a' AND y = 2)",
       {{"a", "#n0 = :v0", "(#n1 = :v1) OR (#n2 = :v2)"}}},
      {"SELECT * FROM composite WHERE (pk = 'a' AND x = 1) OR pk = 'a'",
       {{"a", "#n0 = :v0", ""}}},
      {"SELECT * FROM composite WHERE pk IN ['a', 'b'] ORDER BY pk DESC",
       {{"b", "#n0 = :v0", ""}, {"a", "#n0 = :v0", ""}}},
      {"SELECT * FROM composite WHERE pk IN ['a', 'b'] ORDER BY sk DESC",
       {{"a", "#n0 = :v0", ""}, {"b", "#n0 = :v0", ""}}, false},
      {"SELECT * FROM \"t\".\"i\" WHERE g IN ['x', 'w'] AND gs < 2",
       {{"w", "#n0 = :v0 AND #n1 < :v1", ""}, {"x", "#n0 = :v0 AND #n1 < :v1", ""}}},
  };
  for (const MultiCase& c : cases) {
    Result<Plan> p = PlanOf(c.text);
    ASSERT_TRUE(p.ok()) << c.text << ": " << p.status().ToString();
    ASSERT_EQ(p->kind, PK::kMultiQuery) << c.text;
    ASSERT_EQ(p->partitions.size(), c.partitions.size()) << c.text;
    const bool index = std::string(c.text).find("\"i\"") != std::string::npos;
    EXPECT_EQ(p->partition_key_name, index ? "g" : "pk") << c.text;
    for (size_t i = 0; i < c.partitions.size(); ++i) {
      const Plan::Partition& part = p->partitions[i];
      EXPECT_EQ(part.value, AttributeValue::S(c.partitions[i].value)) << c.text;
      EXPECT_EQ(OrEmpty(part.query.key_condition_expression),
                c.partitions[i].key_condition) << c.text;
      EXPECT_EQ(OrEmpty(part.query.read.filter_expression), c.partitions[i].filter)
          << c.text;
      EXPECT_EQ(part.query.read.expression_attribute_values->at(":v0"), part.value)
          << c.text;
      EXPECT_EQ(part.query.scan_index_forward, c.forward) << c.text;
      EXPECT_EQ(part.query.read.index_name.has_value(), index) << c.text;
    }
  }
}

TEST(PartiqlPlannerTest, MultiQueryReadOptionsAndLimits) {
  PlanOptions o;
  o.consistent_read = true;
  o.limit = 3;
  o.exclusive_start_key = Item{{"pk", AttributeValue::S("b")}};
  Result<Statement> s = Parse("SELECT a FROM t WHERE pk IN ['a', 'b']", {});
  ASSERT_TRUE(s.ok());
  Result<Plan> p = PlanStatement(*s, Keys, o);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(p->limit, 3);
  EXPECT_EQ(p->exclusive_start_key, o.exclusive_start_key);
  for (const Plan::Partition& part : p->partitions) {
    EXPECT_TRUE(part.query.read.consistent_read);
    // The runner spreads Limit and the start over the Queries.
    EXPECT_FALSE(part.query.read.limit.has_value());
    EXPECT_FALSE(part.query.read.exclusive_start_key.has_value());
    EXPECT_EQ(OrEmpty(part.query.read.projection_expression), "#n1");
  }

  std::string fifty = "SELECT * FROM t WHERE pk IN [0";
  for (int i = 1; i < 50; ++i) fifty += ", " + std::to_string(i);
  Result<Statement> numeric = Parse(fifty + "]", {});
  ASSERT_TRUE(numeric.ok());
  auto numeric_keys = [](std::string_view, std::optional<std::string_view>) {
    return Result<KeyDef>(KeyDef{.hash_name = "pk", .hash_type = AttrType::kN});
  };
  Result<Plan> at_limit = PlanStatement(*numeric, numeric_keys, PlanOptions{});
  ASSERT_TRUE(at_limit.ok()) << at_limit.status().ToString();
  EXPECT_EQ(at_limit->partitions.size(), 50u);
  // Numbers in numeric order, not text order.
  EXPECT_EQ(at_limit->partitions[2].value, AttributeValue::N(*Number::Parse("2")));
  EXPECT_EQ(at_limit->partitions[10].value, AttributeValue::N(*Number::Parse("10")));
  Result<Statement> over = Parse(fifty + ", 50]", {});
  ASSERT_TRUE(over.ok());
  Result<Plan> refused = PlanStatement(*over, numeric_keys, PlanOptions{});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().message(),
            "The IN operator accepts at most 50 values of the partition key attribute");
}

TEST(PartiqlPlannerTest, UpdateExpressionAndReturnValues) {
  Result<Plan> p = PlanOf(
      "UPDATE t SET a = 1, b = b - 2 SET c = list_append(c, [1]) REMOVE d "
      "SET e = set_add(e, <<'x'>>) SET f = set_delete(f, <<'y'>>) "
      "WHERE pk = 'k' RETURNING MODIFIED OLD *");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_EQ(*p->update.update_expression,
            "SET #n0 = :v0, #n1 = #n1 - :v1, #n2 = list_append(#n2, :v2) REMOVE #n3 "
            "ADD #n4 :v3 DELETE #n5 :v4");
  EXPECT_EQ(p->update.key.at("pk"), AttributeValue::S("k"));
  EXPECT_EQ(p->update.return_values, ReturnValues::kUpdatedOld);
  EXPECT_TRUE(p->returning);
}

// DynamoDB's PartiQL returns a projected path's value under its own name
// (ProjectedName); the leaves say where each value is in the engine's
// projected item, whose lists keep only the projected elements.
TEST(PartiqlPlannerTest, NestedProjectionLeaves) {
  EXPECT_EQ(ProjectedName({{"a"}}), "a");
  EXPECT_EQ(ProjectedName({{"a"}, {"b"}}), "b");
  EXPECT_EQ(ProjectedName({{"a"}, {"b"}, {"", 1}}), "b[1]");
  EXPECT_EQ(ProjectedName({{"a"}, {"", 0}, {"", 2}}), "a[0][2]");
  EXPECT_EQ(ProjectedName({{"a"}, {"", 0}, {"c"}}), "c");

  // Top-level names only: no leaves, the projected item is the result.
  ASSERT_OK_AND_ASSIGN(Plan top, PlanOf("SELECT a, b FROM t WHERE pk = 'k'"));
  EXPECT_TRUE(top.leaves.empty());

  ASSERT_OK_AND_ASSIGN(
      Plan p, PlanOf("SELECT Detail.Payments, a[3], a[1].x, a[1].y, k, m.l[2][5], m.l[2][4] "
                     "FROM composite WHERE pk = 'k' AND sk = 1"));
  EXPECT_EQ(p.kind, PK::kGet);
  const std::vector<Plan::Leaf> want = {
      {"Payments", {{"Detail"}, {"Payments"}}},
      {"a[3]", {{"a"}, {"", 1}}},  // a[1] and a[3] are projected: a[3] is second
      {"x", {{"a"}, {"", 0}, {"x"}}},
      {"y", {{"a"}, {"", 0}, {"y"}}},
      {"k", {{"k"}}},
      {"l[2][5]", {{"m"}, {"l"}, {"", 0}, {"", 1}}},
      {"l[2][4]", {{"m"}, {"l"}, {"", 0}, {"", 0}}},
  };
  EXPECT_EQ(p.leaves, want);
  // Every kind of read carries them.
  for (const char* text : {"SELECT a.b FROM composite WHERE pk = 'k'",
                           "SELECT a.b FROM t WHERE x = 1",
                           "SELECT a.b FROM t WHERE pk IN ['k', 'l']"}) {
    ASSERT_OK_AND_ASSIGN(Plan read, PlanOf(text));
    EXPECT_EQ(read.leaves, (std::vector<Plan::Leaf>{{"b", {{"a"}, {"b"}}}})) << text;
  }

  // Two values of one name: DynamoDB's ValidationException.
  for (const auto& [text, name] : {std::pair{"SELECT a, a FROM t WHERE pk = 'k'", "a"},
                                   std::pair{"SELECT a.b, c.b FROM t WHERE pk = 'k'", "b"},
                                   std::pair{"SELECT x.a[0], a[0] FROM t", "a[0]"}}) {
    Result<Plan> dup = PlanOf(text);
    ASSERT_FALSE(dup.ok()) << text;
    EXPECT_EQ(dup.status().message(),
              std::string("Duplicate identifiers in select clause: ") + name);
  }
}

// A GSI keyed on several attributes: a Query needs an equality on every
// partition-key attribute; its key condition takes the sort-key equalities
// of a leading run and one range condition after them; the rest filters.
TEST(PartiqlPlannerTest, MultiAttributeIndexKeys) {
  const Case cases[] = {
      {"SELECT * FROM \"t\".\"m\" WHERE b = 1 AND a = 'x'", PK::kQuery,
       "#n0 = :v0 AND #n1 = :v1"},
      {"SELECT * FROM \"t\".\"m\" WHERE a = 'x' AND b = 1 AND c = 'y' AND d > 'z'",
       PK::kQuery, "#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2 AND #n3 > :v3"},
      // A range on c ends the key condition: the condition on d filters.
      {"SELECT * FROM \"t\".\"m\" WHERE a = 'x' AND b = 1 AND c > 'y' AND d = 'z'",
       PK::kQuery, "#n0 = :v0 AND #n1 = :v1 AND #n2 > :v2", "#n3 = :v3"},
      // No condition on c: nothing of d or e can be a key condition.
      {"SELECT * FROM \"t\".\"m\" WHERE a = 'x' AND b = 1 AND e = 3", PK::kQuery,
       "#n0 = :v0 AND #n1 = :v1", "#n2 = :v2"},
      {"SELECT * FROM \"t\".\"m\" WHERE a = 'x' AND b = 1 AND c = 'y' AND "
       "begins_with(d, 'p') AND x = 2",
       PK::kQuery, "#n0 = :v0 AND #n1 = :v1 AND #n2 = :v2 AND begins_with(#n3, :v3)",
       "#n4 = :v4"},
      {"SELECT * FROM \"t\".\"m\" WHERE a = 'x' AND b = 1 ORDER BY c DESC, d DESC",
       PK::kQuery, "#n0 = :v0 AND #n1 = :v1"},
      // Part of the partition key only: a Scan of the index.
      {"SELECT * FROM \"t\".\"m\" WHERE a = 'x' AND c = 'y'", PK::kScan,
       "(#n0 = :v0) AND (#n1 = :v1)"},
      {"SELECT * FROM \"t\".\"m\" WHERE a IN ['x', 'y'] AND b = 1", PK::kScan,
       "(#n0 IN (:v0, :v1)) AND (#n1 = :v2)"},
      {"SELECT * FROM \"t\".\"m\"", PK::kScan, ""},
  };
  for (const Case& c : cases) {
    Result<Plan> p = PlanOf(c.text);
    ASSERT_TRUE(p.ok()) << c.text << ": " << p.status().ToString();
    ASSERT_EQ(p->kind, c.kind) << c.text;
    if (p->kind == PK::kQuery) {
      EXPECT_EQ(OrEmpty(p->query.key_condition_expression), c.expression) << c.text;
      EXPECT_EQ(OrEmpty(p->query.read.filter_expression), c.filter) << c.text;
      EXPECT_EQ(p->query.read.index_name, std::optional<std::string>("m")) << c.text;
    } else {
      EXPECT_EQ(OrEmpty(p->scan.read.filter_expression), c.expression) << c.text;
      EXPECT_EQ(p->scan.read.index_name, std::optional<std::string>("m")) << c.text;
    }
  }
  Result<Plan> descending =
      PlanOf("SELECT * FROM \"t\".\"m\" WHERE a = 'x' AND b = 1 ORDER BY b, e DESC");
  ASSERT_TRUE(descending.ok()) << descending.status().ToString();
  EXPECT_FALSE(descending->query.scan_index_forward);
  Result<Plan> ascending = PlanOf("SELECT * FROM \"t\".\"m\" WHERE a = 'x' AND b = 1 ORDER BY c");
  ASSERT_TRUE(ascending.ok()) << ascending.status().ToString();
  EXPECT_TRUE(ascending->query.scan_index_forward);

  const std::pair<const char*, const char*> errors[] = {
      {"SELECT * FROM \"t\".\"m\" WHERE a = 'x' AND b = 1 ORDER BY c, d DESC",
       "Order by is only supported on the key attributes of the table or index"},
      {"SELECT * FROM \"t\".\"m\" WHERE a = 'x' AND b = 1 ORDER BY x",
       "Order by is only supported on the key attributes of the table or index"},
      {"SELECT * FROM \"t\".\"m\" WHERE a = 'x' ORDER BY c",
       "Must have WHERE clause in the statement when using ORDER BY clause."},
  };
  for (const auto& [text, message] : errors) {
    Result<Plan> p = PlanOf(text);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_EQ(p.status().message(), message) << text;
  }
}

TEST(PartiqlPlannerTest, Errors) {
  const std::pair<const char*, const char*> cases[] = {
      {"UPDATE composite SET x = 1 WHERE pk = 'a'", kNeedsFullKey.data()},
      {"UPDATE t SET x = 1 WHERE pk > 'a'", kNeedsFullKey.data()},
      {"UPDATE t SET x = 1 WHERE pk = 'a' OR pk = 'b'", kNeedsFullKey.data()},
      {"DELETE FROM composite WHERE sk = 1", kNeedsFullKey.data()},
      {"EXISTS(SELECT * FROM t WHERE x = 1)", kNeedsFullKey.data()},
      {"DELETE FROM t WHERE pk = 'a' RETURNING ALL NEW *",
       "Invalid returning clause: RETURNING ALL NEW *. Only RETURNING ALL OLD * is allowed "
       "in DELETE statements."},
      {"DELETE FROM t WHERE pk = 'a' RETURNING MODIFIED OLD *",
       "Invalid returning clause: RETURNING MODIFIED OLD *. Only RETURNING ALL OLD * is "
       "allowed in DELETE statements."},
      {"DELETE FROM t WHERE pk = 'a' RETURNING MODIFIED NEW *",
       "Invalid returning clause: RETURNING MODIFIED NEW *. Only RETURNING ALL OLD * is "
       "allowed in DELETE statements."},
      {"UPDATE \"t\".\"i\" SET x = 1 WHERE pk = 'a'",
       "This operation is not supported on an index"},
      {"DELETE FROM \"t\".\"i\" WHERE pk = 'a'", "This operation is not supported on an index"},
      {"SELECT * FROM composite ORDER BY sk",
       "Must have WHERE clause in the statement when using ORDER BY clause."},
      {"SELECT * FROM composite WHERE pk = 'a' ORDER BY x",
       "Order by is only supported on the key attributes of the table or index"},
      {"SELECT * FROM composite WHERE pk = 'a' ORDER BY sk, sk",
       "Order by is only supported on the key attributes of the table or index"},
      {"SELECT * FROM t WHERE pk IN ['a', 1]",
       "One or more parameter values were invalid: Condition parameter type does not "
       "match schema type"},
      {"SELECT * FROM composite WHERE pk IN ['a', 'b'] ORDER BY x",
       "Order by is only supported on the key attributes of the table or index"},
      {"SELECT * FROM absent", "Requested resource not found"},
      // INSERT's key attributes, in DynamoDB's PartiQL words.
      {"INSERT INTO composite VALUE {'pk': 'a'}",
       "Key attribute should be present in the item: Key sk"},
      {"INSERT INTO composite VALUE {'sk': 'a', 'x': 1}",
       "Key attribute should be present in the item: Key pk"},
      {"INSERT INTO t VALUE {'pk': 1}",
       "Key attribute's data type should match its data type in table's schema: Key pk"},
      {"INSERT INTO composite VALUE {'pk': 'a', 'sk': [1]}",
       "Key attribute's data type should match its data type in table's schema: Key sk"},
  };
  for (const auto& [text, message] : cases) {
    Result<Plan> p = PlanOf(text);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_EQ(p.status().message(), message) << text;
  }
}

}  // namespace
}  // namespace dynarock::partiql
