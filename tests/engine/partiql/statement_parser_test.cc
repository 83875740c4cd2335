// The PartiQL parser, table-driven: statement text -> the parsed statement's
// shape, or the exact error; and its depth bound on a small stack.

#include "engine/partiql/statement_parser.h"

#include <gtest/gtest.h>
#include <pthread.h>

#include <functional>
#include <string>
#include <vector>

namespace dynarock::partiql {
namespace {

using Kind = Statement::Kind;

struct Good {
  const char* text;
  Kind kind;
  const char* table;
  size_t projection = 0;
  size_t actions = 0;
};

TEST(PartiqlParserTest, Accepts) {
  const Good cases[] = {
      {"SELECT * FROM t", Kind::kSelect, "t"},
      {"select * from \"My-Table\" where pk = 'a';", Kind::kSelect, "My-Table"},
      {"SELECT a, b.c, d[2], \"e f\" FROM t WHERE a > 1 AND NOT (b < -2.5e3 OR c <> 'x')",
       Kind::kSelect, "t", 4},
      {"SELECT * FROM \"t\".\"idx\" WHERE gpk = 'x' ORDER BY gsk DESC", Kind::kSelect, "t"},
      {"SELECT * FROM t WHERE a BETWEEN 1 AND 2 AND b IN [1, 'x'] AND c NOT IN (3)",
       Kind::kSelect, "t"},
      {"SELECT * FROM t WHERE begins_with(a, 'x') AND contains(b, 1) AND "
       "attribute_type(c, 'S') AND d IS MISSING AND e IS NOT MISSING AND size(f) >= 2",
       Kind::kSelect, "t"},
      {"INSERT INTO t VALUE {'pk': 'a', 'n': 1, 'l': [true, false, null], "
       "'s': <<'x', 'y'>>, 'ns': <<1, 2>>, 'm': {'k': {}}}",
       Kind::kInsert, "t"},
      {"UPDATE t SET a = 1, b = b + 1 SET c = list_append(c, [1]) REMOVE d, e[0] "
       "SET f = set_add(f, <<'x'>>) SET g = set_delete(g, <<1>>) "
       "WHERE pk = 'a' RETURNING MODIFIED NEW *",
       Kind::kUpdate, "t", 0, 7},
      {"DELETE FROM t WHERE pk = 'a' AND sk = 1 RETURNING ALL OLD *", Kind::kDelete, "t"},
      {"EXISTS(SELECT * FROM t WHERE pk = 'a' AND n > 1)", Kind::kExists, "t"},
  };
  for (const Good& c : cases) {
    Result<Statement> s = Parse(c.text, {});
    ASSERT_TRUE(s.ok()) << c.text << ": " << s.status().ToString();
    EXPECT_EQ(s->kind, c.kind) << c.text;
    EXPECT_EQ(s->table_name, c.table) << c.text;
    EXPECT_EQ(s->projection.size(), c.projection) << c.text;
    EXPECT_EQ(s->actions.size(), c.actions) << c.text;
  }
}

TEST(PartiqlParserTest, BindsParametersInOrderAndParsesValues) {
  Result<Statement> s = Parse("INSERT INTO t VALUE {'a': ?, 'b': [?, 'it''s'], 'c': -7}",
                              {AttributeValue::S("x"), AttributeValue::Bool(true)});
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  EXPECT_EQ(s->item.at("a"), AttributeValue::S("x"));
  EXPECT_EQ(s->item.at("b"),
            AttributeValue::L({AttributeValue::Bool(true), AttributeValue::S("it's")}));
  EXPECT_EQ(s->item.at("c").n().ToString(), "-7");

  Result<Statement> sel = Parse("SELECT * FROM \"T\".\"I\" WHERE x.y[3] = 1 ORDER BY s", {});
  ASSERT_TRUE(sel.ok());
  EXPECT_EQ(*sel->index_name, "I");
  EXPECT_EQ(sel->where->operands[0].path,
            (Path{{"x", std::nullopt}, {"y", std::nullopt}, {"", 3}}));
  ASSERT_EQ(sel->order_by.size(), 1u);
  EXPECT_EQ(sel->order_by[0].path, (Path{{"s", std::nullopt}}));
  EXPECT_FALSE(sel->order_by[0].descending);

  Result<Statement> two = Parse("SELECT * FROM t WHERE p = 1 ORDER BY p DESC, s ASC", {});
  ASSERT_TRUE(two.ok()) << two.status().ToString();
  ASSERT_EQ(two->order_by.size(), 2u);
  EXPECT_TRUE(two->order_by[0].descending);
  EXPECT_FALSE(two->order_by[1].descending);
}

TEST(PartiqlParserTest, IsNullAndIsMissing) {
  const std::pair<const char*, Condition::Kind> cases[] = {
      {"SELECT * FROM t WHERE a IS NULL", Condition::Kind::kIsNull},
      {"SELECT * FROM t WHERE a is not null", Condition::Kind::kIsNotNull},
      {"SELECT * FROM t WHERE a IS MISSING", Condition::Kind::kIsMissing},
      {"SELECT * FROM t WHERE a.b[1] IS NOT MISSING", Condition::Kind::kIsNotMissing},
  };
  for (const auto& [text, kind] : cases) {
    Result<Statement> s = Parse(text, {});
    ASSERT_TRUE(s.ok()) << text << ": " << s.status().ToString();
    EXPECT_EQ(s->where->kind, kind) << text;
  }
}

struct Bad {
  const char* text;
  const char* message;
  size_t parameters = 0;
};

constexpr const char* kMalformed = "Statement wasn't well formed, can't be processed: ";

TEST(PartiqlParserTest, Rejects) {
  const Bad cases[] = {
      {"", "Expected data manipulation"},
      {"DROP TABLE t", "Expected data manipulation"},
      {"SELECT FROM t", "Unexpected token: FROM"},
      {"SELECT * FROM t WHERE", "Unexpected end of statement"},
      {"SELECT * FROM t WHERE a = 'x", "Unterminated quoted text"},
      {"SELECT * FROM t WHERE a === 1", "Unexpected token: ="},
      {"SELECT * FROM t extra", "Unexpected token: extra"},
      {"INSERT INTO t VALUE [1]", "Unexpected token: ["},
      {"INSERT INTO t VALUE {'a': 1, 'a': 2}", "Duplicate key in tuple: a"},
      {"INSERT INTO t VALUE {'s': <<1, 'x'>>}",
       "A set must contain members of one type: string, number or binary"},
      {"UPDATE t WHERE pk = 'a'", "Unexpected token: WHERE"},
      {"UPDATE t SET a = 1", "Unexpected end of statement"},
      {"DELETE FROM t WHERE pk = 'a' RETURNING ALL *", "Unexpected token: *"},
      {"SELECT * FROM t WHERE a = 1e999", "Invalid number: 1e999"},
      {"SELECT * FROM t WHERE a = $", "Unexpected token: $"},
      // DynamoDB documents MISSING only as IS [NOT] MISSING, and EXISTS only
      // around a SELECT (ExecuteTransaction): no function forms on a path.
      {"SELECT * FROM t WHERE missing(a)", "Unexpected token: missing"},
      {"SELECT * FROM t WHERE exists(a)", "Unexpected token: exists"},
      {"SELECT * FROM t WHERE a IS STRING", "Unexpected token: STRING"},
      {"SELECT * FROM t WHERE 1 IS NULL", "Unexpected token: NULL"},
      {"SELECT * FROM t WHERE p = 1 ORDER BY a, b, c", "Unexpected token: c"},
      {"INSERT INTO \"t\".\"i\" VALUE {'pk': 'a'}",
       "FROM clause may only contain a single table name"},
  };
  for (const Bad& c : cases) {
    Result<Statement> s = Parse(c.text, {});
    ASSERT_FALSE(s.ok()) << c.text;
    EXPECT_EQ(s.status().code(), ErrorCode::kValidation) << c.text;
    EXPECT_EQ(s.status().message(), std::string(kMalformed) + c.message) << c.text;
  }
}

// DynamoDB's FROM clause messages carry no "wasn't well formed" prefix.
TEST(PartiqlParserTest, FromClausePaths) {
  const std::pair<const char*, const char*> cases[] = {
      {"SELECT * FROM \"t\".\"i\".\"x\" WHERE pk = 'p'",
       "A path may contain at most 2 components in the FROM clause"},
      {"SELECT * FROM \"t\".\"\" WHERE pk = 'p'", "Path component cannot be an empty string"},
      {"SELECT * FROM \"\" WHERE pk = 'p'", "Path component cannot be an empty string"},
  };
  for (const auto& [text, message] : cases) {
    Result<Statement> s = Parse(text, {});
    ASSERT_FALSE(s.ok()) << text;
    EXPECT_EQ(s.status().code(), ErrorCode::kValidation) << text;
    EXPECT_EQ(s.status().message(), message) << text;
  }
  Result<Statement> update = Parse("UPDATE \"t\".\"i\" SET a = 1 WHERE pk = 'p'", {});
  ASSERT_TRUE(update.ok()) << update.status().ToString();
  EXPECT_EQ(*update->index_name, "i");  // the planner refuses it
}

TEST(PartiqlParserTest, ParameterCountMustMatch) {
  const std::string message = "Number of parameters in request and statement don't match.";
  EXPECT_EQ(Parse("SELECT * FROM t WHERE a = ?", {}).status().message(), message);
  EXPECT_EQ(Parse("SELECT * FROM t", {AttributeValue::S("x")}).status().message(), message);
}

#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kSmallStackBytes = 8 << 20;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr size_t kSmallStackBytes = 8 << 20;
#else
constexpr size_t kSmallStackBytes = 256 << 10;
#endif
#else
constexpr size_t kSmallStackBytes = 256 << 10;
#endif

void RunOnSmallStack(const std::function<void()>& fn) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, kSmallStackBytes), 0);
  pthread_t thread;
  auto body = [](void* arg) -> void* {
    (*static_cast<const std::function<void()>*>(arg))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, body, const_cast<std::function<void()>*>(&fn)), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

TEST(PartiqlParserTest, DeepNestingIsRefusedOnASmallStack) {
  const std::string too_deep = std::string(kMaxPartiqlNesting * 4, '(');
  const std::string deep_value = "INSERT INTO t VALUE {'a': " + std::string(100000, '[');
  const std::string nots = "SELECT * FROM t WHERE " + [] {
    std::string s;
    for (int i = 0; i < 100000; ++i) s += "NOT ";
    return s;
  }() + "a = 1";
  const std::string ok_depth = "SELECT * FROM t WHERE " +
                               std::string(kMaxPartiqlNesting - 2, '(') + "a = 1" +
                               std::string(kMaxPartiqlNesting - 2, ')');
  std::vector<Status> results;
  RunOnSmallStack([&] {
    results.push_back(Parse("SELECT * FROM t WHERE " + too_deep + "a = 1", {}).status());
    results.push_back(Parse(deep_value, {}).status());
    results.push_back(Parse(nots, {}).status());
    results.push_back(Parse(ok_depth, {}).status());
  });
  ASSERT_EQ(results.size(), 4u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(results[i].message(), std::string(kMalformed) + "Statement is nested too deeply");
  }
  EXPECT_TRUE(results[3].ok()) << results[3].ToString();
}

}  // namespace
}  // namespace dynarock::partiql
