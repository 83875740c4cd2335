// Running PartiQL statements on an Engine: repeated texts are bound from the
// plan cache and must answer exactly as a first run of the same text would,
// also after the table behind them changed.

#include "engine/partiql/statement_runner.h"

#include <gtest/gtest.h>

#include <optional>
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

// A projected nested path answers under its own name (`Detail.Payments` as
// "Payments", `a.b[1]` as "b[1]"), from every kind of read, a cached plan,
// a batch and a transaction; GetItem's projection keeps the item's shape.
TEST(PartiqlRunnerTest, NestedPathsAnswerUnderTheirOwnNames) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  Item item = SimpleItem("a", "1");
  item["Detail"] = M({{"Payments", L({S("p1"), S("p2")})}, {"Total", N("3")}});
  item["l"] = L({N("10"), M({{"x", S("x1")}, {"y", S("y1")}}), N("12"), N("13")});
  ASSERT_OK(db->PutItem(PutItemRequest{.table_name = "Tab", .item = item}).status());

  const Item want{{"Payments", L({S("p1"), S("p2")})},
                  {"l[3]", N("13")},
                  {"x", S("x1")},
                  {"payload", S("x")}};
  const std::string projection = "SELECT Detail.Payments, l[3], l[1].x, payload, l[9], nope.b ";
  for (const std::string& text :
       {projection + "FROM Tab WHERE pk = 'a' AND sk = 1",  // GetItem
        projection + "FROM Tab WHERE pk = ? AND sk = ?",    // GetItem, cached on the 2nd run
        projection + "FROM Tab WHERE pk = 'a'",             // Query
        projection + "FROM Tab WHERE payload = 'x'",        // Scan
        projection + "FROM Tab WHERE pk IN ['a', 'c']"}) {  // one Query per value
    for (int run = 0; run < 2; ++run) {
      std::vector<AttributeValue> params;
      if (text.find('?') != std::string::npos) params = {S("a"), N("1")};
      ASSERT_OK_AND_ASSIGN(ExecuteStatementResult r,
                           db->ExecuteStatement(Statement(text, params)));
      EXPECT_EQ(r.items, (std::vector<Item>{want})) << text;
    }
  }
  // An item with none of the paths is an empty item.
  ASSERT_OK_AND_ASSIGN(ExecuteStatementResult none,
                       db->ExecuteStatement(Statement(
                           "SELECT Detail.Nope FROM Tab WHERE pk = 'a' AND sk = 1", {})));
  EXPECT_EQ(none.items, (std::vector<Item>{Item{}}));

  BatchExecuteStatementRequest batch;
  batch.statements.push_back(BatchStatement{
      .statement = "SELECT Detail.Total FROM Tab WHERE pk = 'a' AND sk = 1"});
  ASSERT_OK_AND_ASSIGN(BatchExecuteStatementResult b, db->BatchExecuteStatement(batch));
  ASSERT_EQ(b.responses.size(), 1u);
  EXPECT_EQ(b.responses[0].item, (Item{{"Total", N("3")}}));

  ASSERT_OK(db->PutItem(PutItemRequest{.table_name = "Tab", .item = SimpleItem("b", "1", "y")})
                .status());
  ExecuteTransactionRequest tx;
  tx.statements.push_back(ParameterizedStatement{
      .statement = "SELECT Detail.Total, l[0] FROM Tab WHERE pk = 'a' AND sk = 1"});
  tx.statements.push_back(ParameterizedStatement{
      .statement = "SELECT payload FROM Tab WHERE pk = 'b' AND sk = 1"});
  ASSERT_OK_AND_ASSIGN(ExecuteTransactionResult t, db->ExecuteTransaction(tx));
  ASSERT_EQ(t.responses.size(), 2u);
  EXPECT_EQ(t.responses[0], (Item{{"Total", N("3")}, {"l[0]", N("10")}}));
  EXPECT_EQ(t.responses[1], (Item{{"payload", S("y")}}));

  // Two values of one name are refused, as DynamoDB does.
  EXPECT_EQ(db->ExecuteStatement(Statement(
                  "SELECT Detail.Total, Total FROM Tab WHERE pk = 'a' AND sk = 1", {}))
                .status()
                .message(),
            "Duplicate identifiers in select clause: Total");

  // GetItem's ProjectionExpression is unchanged: the item's nested shape.
  GetItemRequest get{.table_name = "Tab", .key = item};
  get.key.erase("Detail");
  get.key.erase("l");
  get.key.erase("payload");
  get.projection_expression = "Detail.Payments";
  ASSERT_OK_AND_ASSIGN(GetItemResult g, db->GetItem(get));
  EXPECT_EQ(g.item, (Item{{"Detail", M({{"Payments", L({S("p1"), S("p2")})}})}}));
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

// --- SELECTs over several partition-key values: one Query per value --------

// The Query a MultiQuery runs for one value, as a client would send it.
QueryRequest QueryOf(const std::string& table, const AttributeValue& pk,
                     std::optional<std::string> index = std::nullopt,
                     bool consistent = false) {
  QueryRequest q;
  q.table_name = table;
  q.key_condition_expression = "#k = :k";
  q.read.index_name = std::move(index);
  q.read.expression_attribute_names = ExpressionAttributeNames{{"#k", index ? "g" : "pk"}};
  q.read.expression_attribute_values = ExpressionAttributeValues{{":k", pk}};
  q.read.consistent_read = consistent;
  return q;
}

// Every page of `text` from the first, following NextToken; the items in
// order and the capacity summed over the pages.
struct AllPages {
  std::vector<Item> items;
  std::vector<size_t> page_sizes;
  ConsumedCapacity capacity;
};
AllPages ReadAll(TestEngine& db, const std::string& text, std::optional<int64_t> limit,
                 bool consistent = false) {
  AllPages out;
  ExecuteStatementRequest req = Statement(text, {});
  req.limit = limit;
  req.consistent_read = consistent;
  for (int page = 0; page < 100; ++page) {
    Result<ExecuteStatementResult> r = db->ExecuteStatement(req);
    EXPECT_TRUE(r.ok()) << text << ": " << r.status().ToString();
    if (!r.ok()) break;
    out.page_sizes.push_back(r->items.size());
    for (Item& item : r->items) out.items.push_back(std::move(item));
    if (page == 0) {
      out.capacity = r->consumed_capacity;
    } else {
      out.capacity.Merge(r->consumed_capacity);
    }
    if (!r->last_evaluated_key) break;
    req.exclusive_start_key = r->last_evaluated_key;
  }
  return out;
}

class PartiqlMultiQueryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(db_->CreateTable(SimpleTable("Tab")).status());
    // Partitions a, b, c, d with 3 items each; payload "big" in b makes its
    // items cost more than one read unit together.
    for (const char* pk : {"a", "b", "c", "d"}) {
      for (const char* sk : {"1", "2", "3"}) {
        std::string payload = std::string(pk) == "b" ? std::string(3000, 'x') : sk;
        ASSERT_OK(db_->PutItem(PutItemRequest{.table_name = "Tab",
                                              .item = SimpleItem(pk, sk, payload)})
                      .status());
      }
    }
  }
  // The items of `pks`' Queries, one after the other, and their capacity.
  AllPages Queries(const std::vector<const char*>& pks, bool consistent = false) {
    AllPages out;
    for (const char* pk : pks) {
      Result<ReadPageResult> r = db_->Query(QueryOf("Tab", S(pk), std::nullopt, consistent));
      EXPECT_TRUE(r.ok()) << r.status().ToString();
      if (!r.ok()) continue;
      for (Item& item : r->items) out.items.push_back(std::move(item));
      if (out.capacity.table_name.empty()) {
        out.capacity = r->consumed_capacity;
      } else {
        out.capacity.Merge(r->consumed_capacity);
      }
    }
    return out;
  }
  TestEngine db_;
};

TEST_F(PartiqlMultiQueryTest, InAndOrReturnTheQueriesItemsAndCapacity) {
  const AllPages expected = Queries({"a", "b", "d"});
  ASSERT_EQ(expected.items.size(), 9u);
  for (const char* text :
       {"SELECT * FROM Tab WHERE pk IN ['d', 'b', 'a', 'x', 'b']",
        "SELECT * FROM Tab WHERE pk = 'b' OR pk = 'x' OR pk = 'd' OR pk = 'a'",
        "SELECT * FROM Tab WHERE pk IN ['d', 'b'] OR pk = 'a' OR (pk = 'x' AND sk = 1)"}) {
    const AllPages got = ReadAll(db_, text, std::nullopt);
    EXPECT_EQ(got.items, expected.items) << text;
    // Four Queries (x is empty and still costs its Query's minimum).
    ConsumedCapacity with_x = expected.capacity;
    with_x.Merge(Queries({"x"}).capacity);
    EXPECT_EQ(got.capacity, with_x) << text;
    EXPECT_EQ(got.page_sizes.size(), 1u) << text;
  }
  // ConsistentRead reaches every Query.
  const AllPages consistent =
      ReadAll(db_, "SELECT * FROM Tab WHERE pk IN ['a', 'b', 'd']", std::nullopt, true);
  EXPECT_EQ(consistent.capacity, Queries({"a", "b", "d"}, true).capacity);
  EXPECT_EQ(consistent.capacity.Total().read_units,
            2 * expected.capacity.Total().read_units);
}

TEST_F(PartiqlMultiQueryTest, SortKeyConditionsFiltersAndOrder) {
  AllPages got = ReadAll(
      db_, "SELECT pk, sk FROM Tab WHERE pk IN ['c', 'a'] AND sk >= 2 AND payload <> '3'",
      std::nullopt);
  EXPECT_EQ(got.items, (std::vector<Item>{{{"pk", S("a")}, {"sk", N("2")}},
                                          {{"pk", S("c")}, {"sk", N("2")}}}));
  got = ReadAll(db_,
                "SELECT sk FROM Tab WHERE (pk = 'a' AND sk = 3) OR (pk = 'c' AND sk < 2) "
                "ORDER BY pk DESC",
                std::nullopt);
  EXPECT_EQ(got.items, (std::vector<Item>{{{"sk", N("1")}}, {{"sk", N("3")}}}));
  got = ReadAll(db_, "SELECT sk FROM Tab WHERE pk IN ['a', 'c'] ORDER BY sk DESC",
                std::nullopt);
  std::vector<Item> descending;
  for (int i = 0; i < 2; ++i) {
    for (const char* sk : {"3", "2", "1"}) descending.push_back({{"sk", N(sk)}});
  }
  EXPECT_EQ(got.items, descending);
}

// Conditions on the key the key condition cannot take (a sort-key IN, <>,
// NOT, OR, a second range, the partition key again) filter the Query's
// items, as DynamoDB's PartiQL does; the Query API refuses such a filter.
// The capacity is the Query's over the key condition's range.
TEST_F(PartiqlMultiQueryTest, KeyConditionsTheKeyConditionCannotTakeFilter) {
  const AllPages whole_b = Queries({"b"});
  ASSERT_GT(whole_b.capacity.Total().read_units, 1.0);  // the 3000-byte items
  const std::vector<Item> one_and_three = {{{"sk", N("1")}}, {{"sk", N("3")}}};
  for (const char* text : {"SELECT sk FROM Tab WHERE pk = 'b' AND sk IN [1, 3]",
                           "SELECT sk FROM Tab WHERE pk = 'b' AND sk <> 2",
                           "SELECT sk FROM Tab WHERE pk = 'b' AND NOT sk = 2",
                           "SELECT sk FROM Tab WHERE pk = 'b' AND (sk = 1 OR sk = 3)",
                           "SELECT sk FROM Tab WHERE pk = 'b' AND sk NOT BETWEEN 2 AND 2",
                           "SELECT sk FROM Tab WHERE pk = 'b' AND sk <> 2 AND pk = 'b'"}) {
    const AllPages got = ReadAll(db_, text, std::nullopt);
    EXPECT_EQ(got.items, one_and_three) << text;
    EXPECT_EQ(got.capacity, whole_b.capacity) << text;
    EXPECT_EQ(ReadAll(db_, text, 1).items, one_and_three) << text;  // paged
  }
  // A second range: the first is the key condition, the second filters.
  const std::string two_ranges = "SELECT sk FROM Tab WHERE pk = 'b' AND sk > 1 AND sk < 3";
  const AllPages got = ReadAll(db_, two_ranges, std::nullopt);
  EXPECT_EQ(got.items, (std::vector<Item>{{{"sk", N("2")}}}));
  QueryRequest above_one = QueryOf("Tab", S("b"));
  above_one.key_condition_expression = "#k = :k AND sk > :one";
  (*above_one.read.expression_attribute_values)[":one"] = N("1");
  ASSERT_OK_AND_ASSIGN(ReadPageResult range_read, db_->Query(above_one));
  EXPECT_EQ(range_read.items.size(), 2u);
  EXPECT_EQ(got.capacity, range_read.consumed_capacity);
  // Over several partitions too.
  EXPECT_EQ(ReadAll(db_, "SELECT pk, sk FROM Tab WHERE pk IN ['c', 'a'] AND sk IN [3, 9]",
                    std::nullopt)
                .items,
            (std::vector<Item>{{{"pk", S("a")}, {"sk", N("3")}},
                               {{"pk", S("c")}, {"sk", N("3")}}}));
  // The Query API's own rule is unchanged.
  QueryRequest api = QueryOf("Tab", S("b"));
  api.read.filter_expression = "sk <> :two";
  (*api.read.expression_attribute_values)[":two"] = N("2");
  EXPECT_THAT(db_->Query(api).status(),
              StatusIs(ErrorCode::kValidation,
                       "Filter Expression can only contain non-primary key attributes: "
                       "Primary key attribute: sk"));
}

TEST_F(PartiqlMultiQueryTest, LimitPagesAcrossPartitions) {
  const std::string text = "SELECT * FROM Tab WHERE pk IN ['a', 'b', 'c', 'd']";
  const AllPages all = ReadAll(db_, text, std::nullopt);
  ASSERT_EQ(all.items.size(), 12u);
  for (int64_t limit : {1, 2, 3, 4, 5, 12, 13}) {
    const AllPages paged = ReadAll(db_, text, limit);
    // Every item once, in the same order, however the pages fall.
    EXPECT_EQ(paged.items, all.items) << "Limit " << limit;
    for (size_t n : paged.page_sizes) EXPECT_LE(n, static_cast<size_t>(limit));
  }
  // Limit 5: a's 3 and b's first 2; the token resumes inside b.
  ExecuteStatementRequest req = Statement(text, {});
  req.limit = 5;
  ASSERT_OK_AND_ASSIGN(ExecuteStatementResult first, db_->ExecuteStatement(req));
  ASSERT_EQ(first.items.size(), 5u);
  ASSERT_TRUE(first.last_evaluated_key.has_value());
  EXPECT_EQ(*first.last_evaluated_key, SimpleKey("b", "2"));
  req.exclusive_start_key = first.last_evaluated_key;
  ASSERT_OK_AND_ASSIGN(ExecuteStatementResult second, db_->ExecuteStatement(req));
  ASSERT_FALSE(second.items.empty());
  EXPECT_EQ(second.items[0], SimpleItem("b", "3", std::string(3000, 'x')));
  // The capacity of a page is its Queries': a's whole, and b's first two.
  QueryRequest b = QueryOf("Tab", S("b"));
  b.read.limit = 2;
  ASSERT_OK_AND_ASSIGN(ReadPageResult b_page, db_->Query(b));
  ConsumedCapacity expected = Queries({"a"}).capacity;
  expected.Merge(b_page.consumed_capacity);
  EXPECT_EQ(first.consumed_capacity, expected);

  // A start key of a partition that is not in the list is refused.
  req.exclusive_start_key = SimpleKey("x", "1");
  EXPECT_EQ(db_->ExecuteStatement(req).status().message(),
            "The provided starting key is invalid");
  req.exclusive_start_key = Item{{"other", S("a")}};
  EXPECT_EQ(db_->ExecuteStatement(req).status().code(), ErrorCode::kValidation);
}

TEST_F(PartiqlMultiQueryTest, APageRunsAtMostTenPartitions) {
  ASSERT_OK(db_->CreateTable(SimpleTable("Flat", /*with_sort=*/false)).status());
  std::string text = "SELECT * FROM Flat WHERE pk IN [";
  for (int i = 0; i < 25; ++i) {
    const std::string pk = "k" + std::to_string(100 + i);
    ASSERT_OK(db_->PutItem(PutItemRequest{.table_name = "Flat",
                                          .item = Item{{"pk", S(pk)}}})
                  .status());
    text += (i ? ", '" : "'") + pk + "'";
  }
  text += "]";
  const AllPages paged = ReadAll(db_, text, std::nullopt);
  EXPECT_EQ(paged.page_sizes, (std::vector<size_t>{10, 10, 5}));
  ASSERT_EQ(paged.items.size(), 25u);
  EXPECT_EQ(paged.items[0], (Item{{"pk", S("k100")}}));
  EXPECT_EQ(paged.items[24], (Item{{"pk", S("k124")}}));
  // On a table keyed by pk alone, a token names the next partition to start.
  ExecuteStatementRequest req = Statement(text, {});
  req.limit = 3;
  ASSERT_OK_AND_ASSIGN(ExecuteStatementResult first, db_->ExecuteStatement(req));
  EXPECT_EQ(first.items.size(), 3u);
  EXPECT_EQ(first.last_evaluated_key, (Item{{"pk", S("k103")}}));
  EXPECT_EQ(ReadAll(db_, text, 3).items, paged.items);
  EXPECT_EQ(ReadAll(db_, text, 7).items, paged.items);
}

TEST_F(PartiqlMultiQueryTest, IndexReadsQueryTheIndex) {
  CreateTableRequest t = SimpleTable("Idx");
  t.attribute_definitions.push_back({"g", AttrType::kS});
  GlobalSecondaryIndexDef by_g;
  by_g.index_name = "ByG";
  by_g.key_schema = {{"g", KeyType::kHash}};
  by_g.projection = {ProjectionType::kAll, {}};
  t.global_secondary_indexes = {by_g};
  ASSERT_OK(db_->CreateTable(t).status());
  for (const char* sk : {"1", "2", "3", "4"}) {
    Item item = SimpleItem("p", sk);
    item["g"] = S(std::string(sk) == "2" ? "other" : (std::stoi(sk) % 2 ? "odd" : "even"));
    ASSERT_OK(db_->PutItem(PutItemRequest{.table_name = "Idx", .item = item}).status());
  }
  const std::string text = "SELECT sk FROM \"Idx\".\"ByG\" WHERE g IN ['odd', 'even']";
  const AllPages got = ReadAll(db_, text, std::nullopt);
  EXPECT_EQ(got.items,
            (std::vector<Item>{{{"sk", N("4")}}, {{"sk", N("1")}}, {{"sk", N("3")}}}));
  ConsumedCapacity expected;
  for (const char* g : {"even", "odd"}) {
    ASSERT_OK_AND_ASSIGN(ReadPageResult r, db_->Query(QueryOf("Idx", S(g), "ByG")));
    if (expected.table_name.empty()) {
      expected = r.consumed_capacity;
    } else {
      expected.Merge(r.consumed_capacity);
    }
  }
  EXPECT_EQ(got.capacity, expected);
  EXPECT_EQ(ReadAll(db_, text, 1).items, got.items);
}

// A GSI keyed on HASH a, b and RANGE c, e: a SELECT that gives a and b is
// the Query of the same key condition (items, order, capacity); one that
// does not is a Scan of the index.
TEST(PartiqlRunnerTest, MultiAttributeIndexSelectsQueryOrScan) {
  TestEngine db;
  CreateTableRequest t = SimpleTable("Multi");
  t.attribute_definitions.push_back({"a", AttrType::kS});
  t.attribute_definitions.push_back({"b", AttrType::kN});
  t.attribute_definitions.push_back({"c", AttrType::kS});
  t.attribute_definitions.push_back({"e", AttrType::kN});
  GlobalSecondaryIndexDef by_ab;
  by_ab.index_name = "ByAB";
  by_ab.key_schema = {{"a", KeyType::kHash},
                      {"b", KeyType::kHash},
                      {"c", KeyType::kRange},
                      {"e", KeyType::kRange}};
  by_ab.projection = {ProjectionType::kAll, {}};
  t.global_secondary_indexes = {by_ab};
  ASSERT_OK(db->CreateTable(t).status());
  for (int i = 0; i < 24; ++i) {
    Item item = SimpleItem("p" + std::to_string(i), "1", std::string(500, 'x'));
    item["a"] = S(i % 3 == 0 ? "y" : "x");
    item["b"] = N(std::to_string(i % 2));
    item["c"] = S("c" + std::to_string(i % 4));
    item["e"] = N(std::to_string(i));
    ASSERT_OK(db->PutItem(PutItemRequest{.table_name = "Multi", .item = item}).status());
  }
  ASSERT_OK(db->WaitUntilIndexesCaughtUp());

  const std::string text =
      "SELECT pk, e FROM \"Multi\".\"ByAB\" WHERE b = 1 AND a = 'x' AND c = 'c1' "
      "AND e > 3 ORDER BY c DESC, e DESC";
  const AllPages got = ReadAll(db, text, std::nullopt);
  QueryRequest q;
  q.table_name = "Multi";
  q.read.index_name = "ByAB";
  q.key_condition_expression = "a = :a AND b = :b AND c = :c AND e > :e";
  q.read.expression_attribute_values = {{":a", S("x")}, {":b", N("1")}, {":c", S("c1")},
                                        {":e", N("3")}};
  q.read.projection_expression = "pk, e";
  q.scan_index_forward = false;
  ASSERT_OK_AND_ASSIGN(ReadPageResult expected, db->Query(q));
  ASSERT_FALSE(expected.items.empty());
  EXPECT_EQ(got.items, expected.items);
  EXPECT_EQ(got.capacity, expected.consumed_capacity);
  EXPECT_EQ(ReadAll(db, text, 1).items, expected.items);  // paged by LastEvaluatedKey

  // Part of the partition key: every entry of the index is read.
  const AllPages scanned =
      ReadAll(db, "SELECT pk FROM \"Multi\".\"ByAB\" WHERE a = 'y' AND e < 10", std::nullopt);
  ScanRequest scan;
  scan.table_name = "Multi";
  scan.read.index_name = "ByAB";
  scan.read.filter_expression = "a = :a AND e < :e";
  scan.read.expression_attribute_values = {{":a", S("y")}, {":e", N("10")}};
  scan.read.projection_expression = "pk";
  ASSERT_OK_AND_ASSIGN(ReadPageResult all, db->Scan(scan));
  EXPECT_EQ(scanned.items, all.items);
  EXPECT_EQ(scanned.items.size(), 4u);  // p0, p3, p6, p9
  EXPECT_EQ(scanned.capacity, all.consumed_capacity);

  // A condition on a key attribute the key condition cannot take filters,
  // and a Query refuses that for such an index.
  Result<ExecuteStatementResult> refused = db->ExecuteStatement(Statement(
      "SELECT * FROM \"Multi\".\"ByAB\" WHERE a = 'x' AND b = 1 AND e = 3", {}));
  EXPECT_THAT(refused.status(),
              StatusIs(ErrorCode::kValidation,
                       "Filter Expression can only contain non-primary key attributes: "
                       "Primary key attribute: e"));
}

TEST_F(PartiqlMultiQueryTest, NotCachedAndNotInBatchesOrTransactions) {
  const std::string text = "SELECT * FROM Tab WHERE pk IN [?, ?]";
  for (int run = 0; run < 3; ++run) {
    ASSERT_OK_AND_ASSIGN(ExecuteStatementResult r,
                         db_->ExecuteStatement(Statement(text, {S("a"), S("c")})));
    EXPECT_EQ(r.items.size(), 6u);
    // The same text with another number of distinct values.
    ASSERT_OK_AND_ASSIGN(ExecuteStatementResult same,
                         db_->ExecuteStatement(Statement(text, {S("a"), S("a")})));
    EXPECT_EQ(same.items.size(), 3u);
  }
  BatchExecuteStatementRequest batch;
  batch.statements.push_back(BatchStatement{.statement = "SELECT * FROM Tab WHERE pk IN ['a']"});
  ASSERT_OK_AND_ASSIGN(BatchExecuteStatementResult b, db_->BatchExecuteStatement(batch));
  ASSERT_EQ(b.responses.size(), 1u);
  EXPECT_EQ(b.responses[0].error.code(), ErrorCode::kValidation);
}

// DynamoDB's words for what ExecuteTransaction, BatchExecuteStatement and
// an index read refuse, and RETURNING honoured in a batch.
TEST(PartiqlRunnerTest, TransactionBatchAndIndexRules) {
  TestEngine db;
  CreateTableRequest t = SimpleTable("Tab");
  t.attribute_definitions.push_back({"g", AttrType::kS});
  GlobalSecondaryIndexDef by_g;
  by_g.index_name = "ByG";
  by_g.key_schema = {{"g", KeyType::kHash}};
  by_g.projection = {ProjectionType::kAll, {}};
  t.global_secondary_indexes = {by_g};
  ASSERT_OK(db->CreateTable(t).status());
  ASSERT_OK(db->PutItem(PutItemRequest{.table_name = "Tab", .item = SimpleItem("a", "1")})
                .status());

  ExecuteTransactionRequest tx;
  tx.statements.push_back(ParameterizedStatement{
      .statement = "UPDATE Tab SET payload = 'y' WHERE pk = 'a' AND sk = 1"});
  tx.statements.push_back(ParameterizedStatement{
      .statement = "UPDATE Tab SET payload = 'z' WHERE pk = 'a' AND sk = 1 RETURNING ALL NEW *"});
  EXPECT_EQ(db->ExecuteTransaction(tx).status().message(),
            "Validation failed in TransactStatements[1]: RETURNING clause is not supported "
            "in ExecuteTransaction.");
  ExecuteTransactionRequest index_read;
  index_read.statements.push_back(
      ParameterizedStatement{.statement = "SELECT * FROM \"Tab\".\"ByG\" WHERE g = 'x'"});
  EXPECT_EQ(db->ExecuteTransaction(index_read).status().message(),
            "Validation failed in TransactStatements[0]: Reads on indices are not supported "
            "within transactions.");
  ExecuteTransactionRequest keyless_read;
  keyless_read.statements.push_back(
      ParameterizedStatement{.statement = "SELECT * FROM Tab WHERE pk = 'a' AND sk = 1"});
  keyless_read.statements.push_back(
      ParameterizedStatement{.statement = "SELECT * FROM Tab WHERE pk = 'a'"});
  EXPECT_EQ(db->ExecuteTransaction(keyless_read).status().message(),
            "Validation failed in TransactStatements[1]: Select statements within "
            "ExecuteTransaction must specify the primary key in the where clause.");
  // An INSERT without its sort key cancels the transaction, that
  // statement's reason a ValidationError.
  ExecuteTransactionRequest keyless_insert;
  keyless_insert.statements.push_back(ParameterizedStatement{
      .statement = "UPDATE Tab SET payload = 'y' WHERE pk = 'a' AND sk = 1"});
  keyless_insert.statements.push_back(
      ParameterizedStatement{.statement = "INSERT INTO Tab VALUE {'pk': 'n'}"});
  Status canceled_insert = db->ExecuteTransaction(keyless_insert).status();
  ASSERT_EQ(canceled_insert.code(), ErrorCode::kTransactionCanceled);
  ASSERT_EQ(canceled_insert.cancellation_reasons().size(), 2u);
  EXPECT_EQ(canceled_insert.cancellation_reasons()[0].code, "None");
  EXPECT_EQ(canceled_insert.cancellation_reasons()[1].code, "ValidationError");
  EXPECT_EQ(canceled_insert.cancellation_reasons()[1].message,
            "Key attribute should be present in the item: Key sk");
  // Nothing of the refused transactions ran.
  ASSERT_OK_AND_ASSIGN(ExecuteStatementResult item,
                       db->ExecuteStatement(Statement("SELECT payload FROM Tab WHERE pk = 'a' AND sk = 1", {})));
  EXPECT_EQ(item.items, (std::vector<Item>{{{"payload", S("x")}}}));

  for (const char* sk : {"2", "3"}) {
    ASSERT_OK(db->PutItem(PutItemRequest{.table_name = "Tab", .item = SimpleItem("a", sk)})
                  .status());
  }
  BatchExecuteStatementRequest batch;
  batch.statements.push_back(BatchStatement{
      .statement = "UPDATE Tab SET payload = 'n' WHERE pk = 'a' AND sk = 1 RETURNING MODIFIED NEW *"});
  batch.statements.push_back(BatchStatement{
      .statement = "UPDATE Tab REMOVE nothing WHERE pk = 'a' AND sk = 2 RETURNING MODIFIED NEW *"});
  batch.statements.push_back(BatchStatement{
      .statement = "DELETE FROM Tab WHERE pk = 'a' AND sk = 3 RETURNING ALL OLD *"});
  ASSERT_OK_AND_ASSIGN(BatchExecuteStatementResult b, db->BatchExecuteStatement(batch));
  ASSERT_EQ(b.responses.size(), 3u);
  EXPECT_EQ(b.responses[0].item, (Item{{"payload", S("n")}}));
  EXPECT_FALSE(b.responses[1].item.has_value());
  EXPECT_EQ(b.responses[2].item, SimpleItem("a", "3"));
  BatchExecuteStatementRequest reads;
  reads.statements.push_back(BatchStatement{.statement = "SELECT * FROM Tab WHERE payload = 'x'"});
  ASSERT_OK_AND_ASSIGN(BatchExecuteStatementResult r, db->BatchExecuteStatement(reads));
  EXPECT_EQ(r.responses[0].error.message(),
            "Select statements within BatchExecuteStatement must specify the primary key in "
            "the where clause.");
  EXPECT_TRUE(r.responses[0].table_name.empty());

  ExecuteStatementRequest consistent = Statement("SELECT * FROM \"Tab\".\"ByG\" WHERE g = 'x'", {});
  consistent.consistent_read = true;
  EXPECT_EQ(db->ExecuteStatement(consistent).status().message(),
            "Strongly consistent read is not supported on Global Secondary Indexes");
  // Query's own words for the same request are unchanged.
  QueryRequest q = QueryOf("Tab", S("x"), "ByG", /*consistent=*/true);
  EXPECT_EQ(db->Query(q).status().message(),
            "Consistent reads are not supported on global secondary indexes");
  // ReturnValuesOnConditionCheckFailure: the item on the failure, alone or
  // as a transaction's cancellation reason.
  ASSERT_OK(db->PutItem(PutItemRequest{.table_name = "Tab", .item = SimpleItem("a", "1")})
                .status());
  ExecuteStatementRequest failing =
      Statement("UPDATE Tab SET payload = 'y' WHERE pk = 'a' AND sk = 1 AND payload = 'no'", {});
  Status plain = db->ExecuteStatement(failing).status();
  EXPECT_EQ(plain.code(), ErrorCode::kConditionalCheckFailed);
  EXPECT_EQ(plain.item(), nullptr);
  failing.return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld;
  Status with_item = db->ExecuteStatement(failing).status();
  ASSERT_NE(with_item.item(), nullptr);
  EXPECT_EQ(*with_item.item(), SimpleItem("a", "1"));
  ExecuteTransactionRequest failing_tx;
  failing_tx.statements.push_back(ParameterizedStatement{
      .statement = failing.statement,
      .return_values_on_condition_check_failure = ReturnValuesOnConditionCheckFailure::kAllOld});
  Status canceled = db->ExecuteTransaction(failing_tx).status();
  ASSERT_EQ(canceled.code(), ErrorCode::kTransactionCanceled);
  ASSERT_EQ(canceled.cancellation_reasons().size(), 1u);
  EXPECT_EQ(canceled.cancellation_reasons()[0].code, "ConditionalCheckFailed");
  ASSERT_NE(canceled.cancellation_reasons()[0].item, nullptr);
  EXPECT_EQ(*canceled.cancellation_reasons()[0].item, SimpleItem("a", "1"));

  // The expression checks' words without the expression's name.
  EXPECT_EQ(db->ExecuteStatement(Statement("SELECT * FROM Tab WHERE pk = 'a' AND payload < ?",
                                           {Bool(true)}))
                .status()
                .message(),
            "Incorrect operand type for operator or function; operator or function: <, "
            "operand type: BOOL");
  EXPECT_EQ(db->ExecuteStatement(Statement("SELECT * FROM \"Tab\".\"Nope\" WHERE g = 'x'", {}))
                .status()
                .message(),
            "The table does not have the specified index");
}

}  // namespace
}  // namespace dynarock
