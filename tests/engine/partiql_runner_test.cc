// Running PartiQL statements on an Engine: repeated texts are bound from the
// plan cache and must answer exactly as a first run of the same text would,
// also after the table behind them changed.

#include "engine/partiql_runner.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/engine.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using namespace expr::testing;  // NOLINT: value builders

ExecuteStatementRequest Statement(std::string text, std::vector<AttributeValue> params) {
  ExecuteStatementRequest req;
  req.statement = std::move(text);
  req.parameters = std::move(params);
  return req;
}

TEST(PartiqlRunnerTest, RepeatedSelectsAnswerAsTheFirstDid) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  for (const char* sk : {"1", "2", "3"}) {
    ASSERT_OK(db->PutItem(PutItemRequest{.table_name = "Tab",
                                         .item = SimpleItem("a", sk, sk)})
                  .status());
  }
  const std::string get = "SELECT payload FROM Tab WHERE pk = ? AND sk = ?";
  const std::string query = "SELECT * FROM Tab WHERE pk = ? AND sk >= ?";
  for (int run = 0; run < 3; ++run) {
    for (const char* sk : {"1", "2", "3"}) {
      ASSERT_OK_AND_ASSIGN(ExecuteStatementResult r,
                           db->ExecuteStatement(Statement(get, {S("a"), N(sk)})));
      ASSERT_EQ(r.items.size(), 1u);
      EXPECT_EQ(r.items[0], (Item{{"payload", S(sk)}}));
    }
    ASSERT_OK_AND_ASSIGN(ExecuteStatementResult q,
                         db->ExecuteStatement(Statement(query, {S("a"), N("2")})));
    EXPECT_EQ(q.items.size(), 2u);
    // A wrong parameter count is DynamoDB's error every time, cached or not.
    Result<ExecuteStatementResult> wrong = db->ExecuteStatement(Statement(get, {S("a")}));
    EXPECT_EQ(wrong.status().message(),
              "Number of parameters in request and statement don't match.");
    // So is a parameter of the wrong type for the key.
    Result<ExecuteStatementResult> mistyped =
        db->ExecuteStatement(Statement(get, {S("a"), S("1")}));
    EXPECT_EQ(mistyped.status().code(), ErrorCode::kValidation);
  }
}

TEST(PartiqlRunnerTest, ATableCreatedAgainWithAnotherKeyIsPlannedAgain) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  ASSERT_OK(db->PutItem(PutItemRequest{.table_name = "Tab", .item = SimpleItem("a", "1")})
                .status());
  const std::string text = "SELECT * FROM Tab WHERE pk = ? AND sk = ?";
  ASSERT_OK_AND_ASSIGN(ExecuteStatementResult first,
                       db->ExecuteStatement(Statement(text, {S("a"), N("1")})));
  EXPECT_EQ(first.items.size(), 1u);

  // Tab again, keyed by pk alone: "sk" is an ordinary attribute now, and the
  // same text is a Query with a filter that finds the item by it.
  ASSERT_OK(db->DeleteTable(DeleteTableRequest{.table_name = "Tab"}).status());
  ASSERT_OK(db->CreateTable(SimpleTable("Tab", /*with_sort=*/false)).status());
  ASSERT_OK(db->PutItem(PutItemRequest{.table_name = "Tab", .item = SimpleItem("a", "1")})
                .status());
  ASSERT_OK_AND_ASSIGN(ExecuteStatementResult again,
                       db->ExecuteStatement(Statement(text, {S("a"), N("1")})));
  ASSERT_EQ(again.items.size(), 1u);
  ASSERT_OK_AND_ASSIGN(ExecuteStatementResult other,
                       db->ExecuteStatement(Statement(text, {S("a"), N("2")})));
  EXPECT_TRUE(other.items.empty());

  // And gone: ResourceNotFound, not a stale plan.
  ASSERT_OK(db->DeleteTable(DeleteTableRequest{.table_name = "Tab"}).status());
  EXPECT_EQ(db->ExecuteStatement(Statement(text, {S("a"), N("1")})).status().code(),
            ErrorCode::kResourceNotFound);
}

}  // namespace
}  // namespace dynarock
