// The PartiQL planner, table-driven: statement text -> which engine request
// runs it and with which expressions, or the exact error.

#include "engine/partiql/statement_planner.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/partiql/statement_parser.h"

namespace dynarock::partiql {
namespace {

using PK = Plan::Kind;

Result<KeyDef> Keys(std::string_view table, std::optional<std::string_view> index) {
  if (table == "absent") return Status::ResourceNotFound("Requested resource not found");
  KeyDef k;
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
      {"SELECT * FROM \"t\".\"i\" WHERE g = 'a' AND gs < 2", PK::kQuery,
       "#n0 = :v0 AND #n1 < :v1"},
      {"SELECT * FROM t", PK::kScan, ""},
      {"SELECT * FROM t WHERE pk = 'a' OR pk = 'b'", PK::kScan, "(#n0 = :v0) OR (#n0 = :v1)"},
      {"SELECT * FROM t WHERE pk IN ['a', 'b']", PK::kScan, "#n0 IN (:v0, :v1)"},
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
      case PK::kPut: expression = OrEmpty(p->put.condition.condition_expression); break;
      case PK::kUpdate: expression = OrEmpty(p->update.condition.condition_expression); break;
      case PK::kDelete: expression = OrEmpty(p->del.condition.condition_expression); break;
      case PK::kConditionCheck: expression = OrEmpty(p->check.condition_expression); break;
    }
    EXPECT_EQ(expression, c.expression) << c.text;
    EXPECT_EQ(filter, c.filter) << c.text;
  }
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

TEST(PartiqlPlannerTest, Errors) {
  const std::pair<const char*, const char*> cases[] = {
      {"UPDATE composite SET x = 1 WHERE pk = 'a'", kNeedsFullKey.data()},
      {"UPDATE t SET x = 1 WHERE pk > 'a'", kNeedsFullKey.data()},
      {"UPDATE t SET x = 1 WHERE pk = 'a' OR pk = 'b'", kNeedsFullKey.data()},
      {"DELETE FROM composite WHERE sk = 1", kNeedsFullKey.data()},
      {"EXISTS(SELECT * FROM t WHERE x = 1)", kNeedsFullKey.data()},
      {"DELETE FROM t WHERE pk = 'a' RETURNING ALL NEW *",
       "Only RETURNING ALL OLD * is supported in DELETE statements"},
      {"SELECT * FROM composite ORDER BY sk",
       "Must have WHERE clause in the statement when using ORDER BY clause."},
      {"SELECT * FROM composite WHERE pk = 'a' ORDER BY x",
       "Order by is only supported on the sort key attribute of the table or index"},
      {"SELECT * FROM absent", "Requested resource not found"},
  };
  for (const auto& [text, message] : cases) {
    Result<Plan> p = PlanOf(text);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_EQ(p.status().message(), message) << text;
  }
}

}  // namespace
}  // namespace dynarock::partiql
