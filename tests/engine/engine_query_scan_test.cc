// Engine Query and Scan through the public Engine interface on an in-memory
// TestEngine: key conditions (expression and legacy), order, paging by
// Limit and 1 MB, ExclusiveStartKey, filters, projections, Select, parallel
// segments, and DynamoDB's messages for each rule.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/expr/render.h"
#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/random_item.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using expr::RenderItem;
using expr::RenderValue;
using namespace expr::testing;  // NOLINT: value builders
using ::testing::ElementsAre;
using ::testing::Eq;

class EngineQueryScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // "Num": pk S, sk N. "Bin": pk S, sk B. "Hash": pk S only, with a GSI.
    Create("Num", AttrType::kN);
    Create("Bin", AttrType::kB);
    CreateTableRequest h;
    h.table_name = "Hash";
    h.attribute_definitions = {{"pk", AttrType::kS}, {"g", AttrType::kS}};
    h.key_schema = {{"pk", KeyType::kHash}};
    GlobalSecondaryIndexDef gsi;
    gsi.index_name = "ByG";
    gsi.key_schema = {{"g", KeyType::kHash}};
    h.global_secondary_indexes = {gsi};
    h.billing_mode = BillingMode::kPayPerRequest;
    ASSERT_OK(db_->CreateTable(h).status());
  }

  void Create(const std::string& name, AttrType sort_type) {
    CreateTableRequest req;
    req.table_name = name;
    req.attribute_definitions = {{"pk", AttrType::kS}, {"sk", sort_type}};
    req.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
    req.billing_mode = BillingMode::kPayPerRequest;
    ASSERT_OK(db_->CreateTable(req).status());
  }

  void Put(const std::string& table, Item item) {
    PutItemRequest req;
    req.table_name = table;
    req.item = std::move(item);
    ASSERT_OK(db_->PutItem(req).status());
  }

  // Items p/1 .. p/n of "Num" with attribute v = i.
  void PutNumbers(const std::string& pk, int n) {
    for (int i = 1; i <= n; ++i) {
      Put("Num", Item{{"pk", S(pk)}, {"sk", N(std::to_string(i))},
                      {"v", N(std::to_string(i))}});
    }
  }

  static QueryRequest Q(const std::string& table, std::string kce,
                        ExpressionAttributeValues values) {
    QueryRequest req;
    req.table_name = table;
    req.key_condition_expression = std::move(kce);
    req.read.expression_attribute_values = std::move(values);
    return req;
  }

  static std::vector<std::string> SortKeys(const ReadPageResult& r) {
    std::vector<std::string> out;
    for (const Item& item : r.items) out.push_back(RenderValue(item.at("sk")));
    return out;
  }

  // Every page of a Query, following LastEvaluatedKey.
  std::vector<std::string> AllPages(QueryRequest req, int* pages) {
    std::vector<std::string> out;
    *pages = 0;
    while (*pages < 100) {
      auto r = db_->Query(req);
      EXPECT_OK(r.status());
      if (!r.ok()) break;
      ++*pages;
      for (auto& s : SortKeys(*r)) out.push_back(s);
      if (!r->last_evaluated_key) break;
      req.read.exclusive_start_key = r->last_evaluated_key;
    }
    return out;
  }

  Status QueryError(QueryRequest req) { return db_->Query(req).status(); }

  TestEngine db_;
};

// --- Select COUNT: counted pages, and their repeats -----------------------------

TEST_F(EngineQueryScanTest, CountedPagesMatchReadPagesAndSeeEveryWrite) {
  // A Select COUNT page keeps no item; a repeat with nothing written since
  // is answered from the engine's page memo (engine/pages/page_memo.h).
  // Either way it has the read page's Count, ScannedCount,
  // LastEvaluatedKey and capacity, and it sees every write.
  PutNumbers("p", 7);
  auto pages = [&](std::optional<Select> select) {
    std::vector<QueryResult> out;
    QueryRequest req = Q("Num", "pk = :p AND sk > :s", {{":p", S("p")}, {":s", N("1")}});
    req.read.limit = 2;
    req.read.select = select;
    while (out.size() < 10) {
      auto r = db_->Query(req);
      EXPECT_OK(r.status());
      if (!r.ok()) break;
      out.push_back(*r);
      if (!r->last_evaluated_key) break;
      req.read.exclusive_start_key = r->last_evaluated_key;
    }
    return out;
  };
  const std::vector<QueryResult> read = pages(std::nullopt);
  ASSERT_EQ(read.size(), 4u);  // 2, 2, 2, 0 of the 6 items past sk 1
  for (int pass = 0; pass < 3; ++pass) {
    const std::vector<QueryResult> counted = pages(Select::kCount);
    ASSERT_EQ(counted.size(), read.size());
    for (size_t i = 0; i < read.size(); ++i) {
      EXPECT_TRUE(counted[i].count_only);
      EXPECT_TRUE(counted[i].items.empty());
      EXPECT_EQ(counted[i].count, read[i].count) << pass << " " << i;
      EXPECT_EQ(counted[i].scanned_count, read[i].scanned_count);
      EXPECT_EQ(counted[i].last_evaluated_key, read[i].last_evaluated_key);
      EXPECT_EQ(counted[i].consumed_capacity, read[i].consumed_capacity);
      EXPECT_EQ(counted[i].capacity_charges, read[i].capacity_charges);
    }
  }
  // A write, even to another table, and the counts are read again.
  Put("Bin", Item{{"pk", S("x")}, {"sk", B("1")}});
  EXPECT_EQ(pages(Select::kCount).size(), 4u);
  Put("Num", Item{{"pk", S("p")}, {"sk", N("9")}});
  const std::vector<QueryResult> after = pages(Select::kCount);
  ASSERT_EQ(after.size(), 4u);
  EXPECT_EQ(after[3].count, 1);
  for (const char* sk : {"2", "3"}) {
    DeleteItemRequest del;
    del.table_name = "Num";
    del.key = Item{{"pk", S("p")}, {"sk", N(sk)}};
    ASSERT_OK(db_->DeleteItem(del).status());
  }
  const std::vector<QueryResult> deleted = pages(Select::kCount);  // 2, 2, 1
  ASSERT_EQ(deleted.size(), 3u);
  EXPECT_EQ(deleted[2].count, 1);
  EXPECT_FALSE(deleted[2].last_evaluated_key.has_value());
}

// --- Key conditions and order -------------------------------------------------

TEST_F(EngineQueryScanTest, NumericSortKeysOrderNegativesZeroAndFractions) {
  for (const char* n : {"10", "-1.5", "0", "2", "-100", "0.25", "1E-5",
                        "-0.001", "1.0000000000000000000000000000000000001"}) {
    Put("Num", Item{{"pk", S("p")}, {"sk", N(n)}});
  }
  Put("Num", Item{{"pk", S("other")}, {"sk", N("5")}});
  QueryRequest req = Q("Num", "pk = :p", {{":p", S("p")}});
  ASSERT_OK_AND_ASSIGN(QueryResult forward, db_->Query(req));
  EXPECT_THAT(SortKeys(forward),
              ElementsAre("{N:-100}", "{N:-1.5}", "{N:-0.001}", "{N:0}",
                          "{N:0.00001}", "{N:0.25}",
                          "{N:1.0000000000000000000000000000000000001}",
                          "{N:2}", "{N:10}"));
  EXPECT_EQ(forward.count, 9);
  EXPECT_EQ(forward.scanned_count, 9);
  EXPECT_FALSE(forward.last_evaluated_key.has_value());
  req.scan_index_forward = false;
  ASSERT_OK_AND_ASSIGN(QueryResult backward, db_->Query(req));
  EXPECT_THAT(SortKeys(backward).front(), Eq("{N:10}"));
  EXPECT_THAT(SortKeys(backward).back(), Eq("{N:-100}"));
}

TEST_F(EngineQueryScanTest, EverySortKeyOperatorAsExpressionAndKeyConditions) {
  PutNumbers("p", 5);
  struct Case {
    std::string expression;
    ComparisonOperator legacy_op;
    std::vector<AttributeValue> values;
    std::vector<std::string> want;
  };
  const std::vector<Case> cases = {
      {"sk = :a", ComparisonOperator::kEq, {N("3")}, {"{N:3}"}},
      {"sk < :a", ComparisonOperator::kLt, {N("3")}, {"{N:1}", "{N:2}"}},
      {"sk <= :a", ComparisonOperator::kLe, {N("3")}, {"{N:1}", "{N:2}", "{N:3}"}},
      {"sk > :a", ComparisonOperator::kGt, {N("3")}, {"{N:4}", "{N:5}"}},
      {"sk >= :a", ComparisonOperator::kGe, {N("4")}, {"{N:4}", "{N:5}"}},
      {"sk BETWEEN :a AND :b", ComparisonOperator::kBetween, {N("2"), N("4")},
       {"{N:2}", "{N:3}", "{N:4}"}},
      {":a < sk", ComparisonOperator::kGt, {N("4")}, {"{N:5}"}},
  };
  for (const Case& c : cases) {
    ExpressionAttributeValues values{{":p", S("p")}, {":a", c.values[0]}};
    if (c.values.size() > 1) values[":b"] = c.values[1];
    ASSERT_OK_AND_ASSIGN(QueryResult r,
                         db_->Query(Q("Num", "pk = :p AND " + c.expression, values)));
    EXPECT_EQ(SortKeys(r), c.want) << c.expression;

    QueryRequest legacy;
    legacy.table_name = "Num";
    legacy.key_conditions = LegacyConditions{
        {"pk", {ComparisonOperator::kEq, {S("p")}}},
        {"sk", {c.legacy_op, c.values}}};
    ASSERT_OK_AND_ASSIGN(QueryResult l, db_->Query(legacy));
    EXPECT_EQ(SortKeys(l), c.want) << "KeyConditions " << c.expression;
  }
}

TEST_F(EngineQueryScanTest, BeginsWithOnBinarySortKeysComparesUnsignedBytes) {
  for (std::string b : {std::string("\x01\x02", 2), std::string("\x01\xff", 2),
                        std::string("\x01", 1), std::string("\x02", 1),
                        std::string("\x01\x00\x05", 3), std::string("\xff\x01", 2),
                        std::string("\x00\x01", 2)}) {
    Put("Bin", Item{{"pk", S("p")}, {"sk", B(b)}});
  }
  ASSERT_OK_AND_ASSIGN(
      QueryResult r,
      db_->Query(Q("Bin", "pk = :p AND begins_with(sk, :b)",
                   {{":p", S("p")}, {":b", B(std::string("\x01", 1))}})));
  // 01, 01 00 05, 01 02, 01 ff: unsigned order, prefix 01 only.
  EXPECT_THAT(SortKeys(r), ElementsAre("{B:AQ==}", "{B:AQAF}", "{B:AQI=}", "{B:Af8=}"));
  ASSERT_OK_AND_ASSIGN(
      QueryResult ff,
      db_->Query(Q("Bin", "pk = :p AND begins_with(sk, :b)",
                   {{":p", S("p")}, {":b", B(std::string("\xff", 1))}})));
  EXPECT_THAT(SortKeys(ff), ElementsAre("{B:/wE=}"));
  ASSERT_OK_AND_ASSIGN(QueryResult all, db_->Query(Q("Bin", "pk = :p", {{":p", S("p")}})));
  EXPECT_EQ(SortKeys(all).front(), "{B:AAE=}");  // 00 01 sorts first
  EXPECT_EQ(SortKeys(all).back(), "{B:/wE=}");   // ff 01 sorts last
}

// --- Paging -------------------------------------------------------------------

TEST_F(EngineQueryScanTest, LimitOnTheLastItemStillReturnsLastEvaluatedKey) {
  PutNumbers("p", 3);
  QueryRequest req = Q("Num", "pk = :p", {{":p", S("p")}});
  req.read.limit = 3;
  ASSERT_OK_AND_ASSIGN(QueryResult page, db_->Query(req));
  EXPECT_EQ(page.count, 3);
  ASSERT_TRUE(page.last_evaluated_key.has_value());
  EXPECT_EQ(RenderItem(*page.last_evaluated_key), "{pk:{S:p}, sk:{N:3}}");
  req.read.exclusive_start_key = page.last_evaluated_key;
  ASSERT_OK_AND_ASSIGN(QueryResult rest, db_->Query(req));
  EXPECT_EQ(rest.count, 0);
  EXPECT_EQ(rest.scanned_count, 0);
  EXPECT_FALSE(rest.last_evaluated_key.has_value());
  // A Limit past the end reads everything and stops on its own.
  req.read.exclusive_start_key.reset();
  req.read.limit = 4;
  ASSERT_OK_AND_ASSIGN(QueryResult all, db_->Query(req));
  EXPECT_EQ(all.count, 3);
  EXPECT_FALSE(all.last_evaluated_key.has_value());
}

TEST_F(EngineQueryScanTest, PagesResumeForwardAndInReverse) {
  PutNumbers("p", 7);
  PutNumbers("q", 2);
  for (bool forward : {true, false}) {
    for (int64_t limit : {1, 2, 3, 7}) {
      QueryRequest req = Q("Num", "pk = :p", {{":p", S("p")}});
      req.scan_index_forward = forward;
      req.read.limit = limit;
      int pages = 0;
      std::vector<std::string> seen = AllPages(req, &pages);
      std::vector<std::string> want;
      for (int i = 1; i <= 7; ++i) want.push_back("{N:" + std::to_string(i) + "}");
      if (!forward) std::reverse(want.begin(), want.end());
      EXPECT_EQ(seen, want) << forward << " " << limit;
      // Limit landing on the last item costs one extra, empty page.
      EXPECT_EQ(pages, 7 / limit + 1) << forward << " " << limit;
    }
  }
  // Reverse with a sort-key condition and a start key in the middle.
  QueryRequest req = Q("Num", "pk = :p AND sk <= :hi", {{":p", S("p")}, {":hi", N("5")}});
  req.scan_index_forward = false;
  req.read.exclusive_start_key = Item{{"pk", S("p")}, {"sk", N("4")}};
  ASSERT_OK_AND_ASSIGN(QueryResult r, db_->Query(req));
  EXPECT_THAT(SortKeys(r), ElementsAre("{N:3}", "{N:2}", "{N:1}"));
}

TEST_F(EngineQueryScanTest, PageStopsAtExactlyOneMegabyteOfItemsRead) {
  // Ten items of exactly 1/8 MB by DynamoDB's size rules.
  const int64_t eighth = 1024 * 1024 / 8;
  for (int i = 0; i < 10; ++i) {
    Item item{{"pk", S("big")}, {"sk", N(std::to_string(i))}, {"payload", S("")}};
    item["payload"] = S(std::string(eighth - ItemSize(item), 'x'));
    ASSERT_EQ(ItemSize(item), eighth);
    Put("Num", item);
  }
  QueryRequest req = Q("Num", "pk = :p", {{":p", S("big")}});
  // The filter drops every item; they still count against 1 MB.
  req.read.filter_expression = "attribute_not_exists(payload)";
  ASSERT_OK_AND_ASSIGN(QueryResult first, db_->Query(req));
  EXPECT_EQ(first.scanned_count, 8);
  EXPECT_EQ(first.count, 0);
  ASSERT_TRUE(first.last_evaluated_key.has_value());
  EXPECT_EQ(RenderItem(*first.last_evaluated_key), "{pk:{S:big}, sk:{N:7}}");
  req.read.exclusive_start_key = first.last_evaluated_key;
  ASSERT_OK_AND_ASSIGN(QueryResult second, db_->Query(req));
  EXPECT_EQ(second.scanned_count, 2);
  EXPECT_FALSE(second.last_evaluated_key.has_value());
  // Sizes count before the projection.
  QueryRequest scan_all = Q("Num", "pk = :p", {{":p", S("big")}});
  scan_all.read.projection_expression = "sk";
  ASSERT_OK_AND_ASSIGN(QueryResult projected, db_->Query(scan_all));
  EXPECT_EQ(projected.scanned_count, 8);
}

TEST_F(EngineQueryScanTest, FilterAfterTheReadCountsAndKeepsLastEvaluatedKey) {
  PutNumbers("p", 6);
  QueryRequest req = Q("Num", "pk = :p", {{":p", S("p")}, {":two", N("2")}});
  req.read.filter_expression = "v <= :two";
  req.read.limit = 4;
  ASSERT_OK_AND_ASSIGN(QueryResult r, db_->Query(req));
  EXPECT_EQ(r.count, 2);
  EXPECT_EQ(r.scanned_count, 4);
  ASSERT_TRUE(r.last_evaluated_key.has_value());
  EXPECT_EQ(RenderItem(*r.last_evaluated_key), "{pk:{S:p}, sk:{N:4}}");
  // QueryFilter + ConditionalOperator, with KeyConditions.
  QueryRequest legacy;
  legacy.table_name = "Num";
  legacy.key_conditions = LegacyConditions{{"pk", {ComparisonOperator::kEq, {S("p")}}}};
  legacy.read.legacy_filter = LegacyConditions{
      {"v", {ComparisonOperator::kLt, {N("2")}}},
      {"x", {ComparisonOperator::kNotNull, {}}}};
  legacy.read.conditional_operator = ConditionalOperator::kOr;
  ASSERT_OK_AND_ASSIGN(QueryResult l, db_->Query(legacy));
  EXPECT_THAT(SortKeys(l), ElementsAre("{N:1}"));
  EXPECT_EQ(l.scanned_count, 6);
  // KeyConditions may go with FilterExpression (not with KeyConditionExpression).
  legacy.read.legacy_filter.reset();
  legacy.read.conditional_operator.reset();
  legacy.read.filter_expression = "v > :four";
  legacy.read.expression_attribute_values = ExpressionAttributeValues{{":four", N("4")}};
  ASSERT_OK_AND_ASSIGN(QueryResult mixed, db_->Query(legacy));
  EXPECT_THAT(SortKeys(mixed), ElementsAre("{N:5}", "{N:6}"));
}

// --- Projection and Select ----------------------------------------------------

TEST_F(EngineQueryScanTest, ProjectionsAndSelect) {
  PutNumbers("p", 2);
  QueryRequest req = Q("Num", "pk = :p", {{":p", S("p")}});
  req.read.projection_expression = "#v, absent";
  req.read.expression_attribute_names = ExpressionAttributeNames{{"#v", "v"}};
  ASSERT_OK_AND_ASSIGN(QueryResult p, db_->Query(req));
  ASSERT_EQ(p.items.size(), 2u);
  EXPECT_EQ(RenderItem(p.items[0]), "{v:{N:1}}");

  // AttributesToGet is a legacy parameter: it goes with KeyConditions.
  QueryRequest atg;
  atg.table_name = "Num";
  atg.key_conditions = LegacyConditions{{"pk", {ComparisonOperator::kEq, {S("p")}}}};
  atg.read.attributes_to_get = std::vector<std::string>{"sk", "nothing"};
  atg.read.select = Select::kSpecificAttributes;
  ASSERT_OK_AND_ASSIGN(QueryResult a, db_->Query(atg));
  EXPECT_EQ(RenderItem(a.items[1]), "{sk:{N:2}}");

  QueryRequest count = Q("Num", "pk = :p", {{":p", S("p")}});
  count.read.select = Select::kCount;
  ASSERT_OK_AND_ASSIGN(QueryResult c, db_->Query(count));
  EXPECT_TRUE(c.count_only);
  EXPECT_TRUE(c.items.empty());
  EXPECT_EQ(c.count, 2);

  auto with = [&](std::optional<Select> select, bool expression, bool legacy,
                  bool index) {
    QueryRequest r = Q("Num", "pk = :p", {{":p", S("p")}});
    r.read.select = select;
    if (expression) r.read.projection_expression = "v";
    if (legacy) {
      r.key_condition_expression.reset();
      r.read.expression_attribute_values.reset();
      r.key_conditions = LegacyConditions{{"pk", {ComparisonOperator::kEq, {S("p")}}}};
      r.read.attributes_to_get = std::vector<std::string>{"v"};
    }
    if (index) r.read.index_name = "nope";
    return QueryError(r);
  };
  EXPECT_THAT(with(Select::kCount, true, false, false),
              StatusIs(ErrorCode::kValidation,
                       Eq("1 validation error detected: Cannot specify the "
                          "ProjectionExpression when choosing to get only the Count")));
  EXPECT_THAT(with(Select::kAllAttributes, false, true, false),
              StatusIs(ErrorCode::kValidation,
                       Eq("1 validation error detected: Cannot specify the "
                          "AttributesToGet when choosing to get ALL_ATTRIBUTES")));
  EXPECT_THAT(with(Select::kAllProjectedAttributes, true, false, false),
              StatusIs(ErrorCode::kValidation,
                       Eq("1 validation error detected: Cannot specify the "
                          "ProjectionExpression when choosing to get "
                          "ALL_PROJECTED_ATTRIBUTES")));
  EXPECT_THAT(with(Select::kSpecificAttributes, false, false, false),
              StatusIs(ErrorCode::kValidation,
                       Eq("Must specify the AttributesToGet or ProjectionExpression "
                          "when choosing to get SPECIFIC_ATTRIBUTES")));
  EXPECT_THAT(with(Select::kAllProjectedAttributes, false, false, false),
              StatusIs(ErrorCode::kValidation,
                       Eq("ALL_PROJECTED_ATTRIBUTES can be used only when "
                          "Querying using an IndexName")));
  // With an IndexName the Select passes; the index is looked up.
  EXPECT_THAT(with(Select::kAllProjectedAttributes, false, false, true),
              StatusIs(ErrorCode::kValidation,
                       Eq("The table does not have the specified index: nope")));
  EXPECT_THAT(with(Select::kSpecificAttributes, true, false, false), IsOk());
}

// --- Validation ---------------------------------------------------------------

TEST_F(EngineQueryScanTest, KeyConditionParameters) {
  QueryRequest none;
  none.table_name = "Num";
  EXPECT_THAT(QueryError(none),
              StatusIs(ErrorCode::kValidation,
                       Eq("Either the KeyConditions or KeyConditionExpression "
                          "parameter must be specified in the request.")));
  QueryRequest both = Q("Num", "pk = :p", {{":p", S("p")}});
  both.key_conditions = LegacyConditions{{"pk", {ComparisonOperator::kEq, {S("p")}}}};
  EXPECT_THAT(QueryError(both),
              StatusIs(ErrorCode::kValidation,
                       Eq("Can not use both expression and non-expression parameters "
                          "in the same request: Non-expression parameters: "
                          "{KeyConditions} Expression parameters: "
                          "{KeyConditionExpression}")));
  QueryRequest three;
  three.table_name = "Num";
  three.key_conditions = LegacyConditions{
      {"a", {ComparisonOperator::kEq, {S("p")}}},
      {"b", {ComparisonOperator::kEq, {S("p")}}},
      {"c", {ComparisonOperator::kEq, {S("p")}}}};
  EXPECT_THAT(QueryError(three), StatusIs(ErrorCode::kValidation,
                                          Eq("Conditions can be of length 1 or 2 only")));
  EXPECT_THAT(QueryError(Q("Num", "sk = :p", {{":p", N("1")}})),
              StatusIs(ErrorCode::kValidation,
                       Eq("Query condition missed key schema element: pk")));
  EXPECT_THAT(QueryError(Q("Num", "pk = :p AND sk = :q", {{":p", N("1")}, {":q", N("1")}})),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Condition "
                          "parameter type does not match schema type")));
  QueryRequest missing = Q("Nope", "pk = :p", {{":p", S("p")}});
  EXPECT_THAT(QueryError(missing),
              StatusIs(ErrorCode::kResourceNotFound, Eq("Requested resource not found")));
  // Checks that need no table come first.
  QueryRequest unused = Q("Nope", "pk = :p", {{":p", S("p")}, {":x", S("x")}});
  EXPECT_THAT(QueryError(unused),
              StatusIs(ErrorCode::kValidation,
                       Eq("Value provided in ExpressionAttributeValues unused in "
                          "expressions: keys: {:x}")));
}

TEST_F(EngineQueryScanTest, ExclusiveStartKeyMustFitTheQuery) {
  PutNumbers("p", 3);
  auto with_start = [&](std::string kce, ExpressionAttributeValues values, Item start) {
    QueryRequest req = Q("Num", std::move(kce), std::move(values));
    req.read.exclusive_start_key = std::move(start);
    return QueryError(req);
  };
  const ExpressionAttributeValues p{{":p", S("p")}};
  EXPECT_THAT(with_start("pk = :p", p, Item{{"pk", S("p")}}),
              StatusIs(ErrorCode::kValidation, Eq("The provided starting key is invalid")));
  EXPECT_THAT(with_start("pk = :p", p, Item{{"pk", S("p")}, {"x", N("1")}}),
              StatusIs(ErrorCode::kValidation, Eq("The provided starting key is invalid")));
  EXPECT_THAT(with_start("pk = :p", p, Item{{"pk", N("1")}, {"sk", N("1")}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided key element does not match the schema")));
  EXPECT_THAT(with_start("pk = :p", p, Item{{"pk", S("p")}, {"sk", S("1")}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided key element does not match the schema")));
  EXPECT_THAT(with_start("pk = :p", p, Item{{"pk", S("")}, {"sk", N("1")}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided starting key is invalid: One or more "
                          "parameter values are not valid. The AttributeValue for a "
                          "key attribute cannot contain an empty string value. Key: pk")));
  EXPECT_THAT(with_start("pk = :p", p, Item{{"pk", S("q")}, {"sk", N("1")}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided starting key is outside query boundaries "
                          "based on provided conditions")));
  const ExpressionAttributeValues range{{":p", S("p")}, {":two", N("2")}};
  EXPECT_THAT(with_start("pk = :p AND sk > :two", range, Item{{"pk", S("p")}, {"sk", N("1")}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided starting key does not match the range key predicate")));
  EXPECT_THAT(with_start("pk = :p AND sk > :two", range, Item{{"pk", S("q")}, {"sk", N("3")}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("The query can return at most one row and cannot be restarted")));
  // A table without a sort key has one item per partition: DynamoDB refuses
  // any start key, printing it (Alternator's
  // test_query_no_sort_key_exclusive_start_key quotes the service).
  QueryRequest hash_only = Q("Hash", "pk = :p", p);
  hash_only.read.exclusive_start_key = Item{{"pk", S("p")}};
  EXPECT_THAT(QueryError(hash_only),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided exclusive start key is invalid: "
                          "ExclusiveStartKey: {pk=AttributeValue: {S:p}}")));
  hash_only.read.exclusive_start_key = Item{{"pk", S("q")}};
  EXPECT_THAT(QueryError(hash_only),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided starting key is outside query boundaries "
                          "based on provided conditions")));
  // The partition key is checked before the key condition, the sort key after.
  EXPECT_THAT(with_start("sk = :two", {{":two", N("2")}}, Item{{"pk", S("p")}, {"sk", S("x")}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("Query condition missed key schema element: pk")));
  EXPECT_THAT(with_start("pk = :p AND sk > :two", range, Item{{"pk", S("p")}, {"sk", N("2.5")}}),
              IsOk());
  // Start-key values are checked before the table is looked up.
  QueryRequest bad = Q("Nope", "pk = :p", p);
  bad.read.exclusive_start_key = Item{{"pk", SS({})}};
  EXPECT_THAT(QueryError(bad),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided starting key is invalid: One or more parameter "
                          "values were invalid: An string set  may not be empty")));
  bad.read.exclusive_start_key = Item{{"pk", NS({})}};
  EXPECT_THAT(QueryError(bad),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: An number set  "
                          "may not be empty")));
}

TEST_F(EngineQueryScanTest, FiltersAndProjectionsOnKeyAttributes) {
  QueryRequest req = Q("Num", "pk = :p", {{":p", S("p")}, {":one", N("1")}});
  req.read.filter_expression = "v = :one OR sk = :one";
  EXPECT_THAT(QueryError(req),
              StatusIs(ErrorCode::kValidation,
                       Eq("Filter Expression can only contain non-primary key "
                          "attributes: Primary key attribute: sk")));
  QueryRequest legacy;
  legacy.table_name = "Num";
  legacy.key_conditions = LegacyConditions{{"pk", {ComparisonOperator::kEq, {S("p")}}}};
  legacy.read.legacy_filter = LegacyConditions{{"pk", {ComparisonOperator::kNotNull, {}}}};
  EXPECT_THAT(QueryError(legacy),
              StatusIs(ErrorCode::kValidation,
                       Eq("QueryFilter can only contain non-primary key attributes: "
                          "Primary key attribute: pk")));
  QueryRequest nested = Q("Num", "pk = :p", {{":p", S("p")}});
  nested.read.projection_expression = "v, pk.x";
  EXPECT_THAT(QueryError(nested),
              StatusIs(ErrorCode::kValidation,
                       Eq("Key attributes must be scalars; list random access '[]' "
                          "and map lookup '.' are not allowed: Key: pk")));
  // A Scan may filter on key attributes, but not reach inside them; nor
  // inside an index's key attributes.
  ScanRequest scan;
  scan.table_name = "Hash";
  scan.read.filter_expression = "attribute_exists(pk)";
  EXPECT_THAT(db_->Scan(scan).status(), IsOk());
  scan.read.filter_expression = "attribute_exists(g[0])";
  EXPECT_THAT(db_->Scan(scan).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("Key attributes must be scalars; list random access '[]' "
                          "and map lookup '.' are not allowed: IndexKey: g")));
}

TEST_F(EngineQueryScanTest, IndexNameMustNameAnIndexOfTheTable) {
  QueryRequest req = Q("Hash", "g = :g", {{":g", S("x")}});
  req.read.index_name = "Missing";
  EXPECT_THAT(QueryError(req),
              StatusIs(ErrorCode::kValidation,
                       Eq("The table does not have the specified index: Missing")));
  // The index is read, never the base table in its place (index reads are
  // tested in engine_index_test.cc).
  Put("Hash", Item{{"pk", S("no-g")}});
  req.read.index_name = "ByG";
  ASSERT_OK_AND_ASSIGN(QueryResult r, db_->Query(req));
  EXPECT_EQ(r.count, 0);
  ScanRequest scan;
  scan.table_name = "Hash";
  scan.read.index_name = "ByG";
  ASSERT_OK_AND_ASSIGN(ScanResult s, db_->Scan(scan));
  EXPECT_EQ(s.scanned_count, 0);  // an item without g is not in the GSI
}

// --- Scan ---------------------------------------------------------------------

TEST_F(EngineQueryScanTest, ScanWalksHashOrderInPages) {
  for (int i = 0; i < 50; ++i) {
    Put("Hash", Item{{"pk", S("k" + std::to_string(i))}, {"v", N(std::to_string(i))}});
  }
  ScanRequest req;
  req.table_name = "Hash";
  req.read.limit = 7;
  std::vector<uint64_t> hashes;
  int pages = 0;
  while (pages < 100) {
    ASSERT_OK_AND_ASSIGN(ScanResult r, db_->Scan(req));
    ++pages;
    EXPECT_LE(r.scanned_count, 7);
    for (const Item& item : r.items) hashes.push_back(keys::PartitionHash(item.at("pk")));
    if (!r.last_evaluated_key) break;
    EXPECT_EQ(r.last_evaluated_key->size(), 1u);
    req.read.exclusive_start_key = r.last_evaluated_key;
  }
  EXPECT_EQ(hashes.size(), 50u);
  EXPECT_TRUE(std::is_sorted(hashes.begin(), hashes.end()));
  EXPECT_EQ(pages, 8);  // 7 full pages of 7, then 1 item
}

TEST_F(EngineQueryScanTest, ScanPagesResumeInsideItemCollections) {
  // Pages that end in the middle of a collection resume after the last
  // item's full key (partition and sort key), not at the collection's start.
  for (int p = 0; p < 10; ++p) PutNumbers("p" + std::to_string(p), 4);
  for (int64_t limit : {1, 3, 5, 7}) {
    ScanRequest req;
    req.table_name = "Num";
    req.read.limit = limit;
    std::multiset<std::string> seen;
    for (int pages = 0; pages < 100; ++pages) {
      ASSERT_OK_AND_ASSIGN(ScanResult r, db_->Scan(req));
      for (const Item& item : r.items) seen.insert(RenderItem(item));
      if (!r.last_evaluated_key) break;
      ASSERT_EQ(r.last_evaluated_key->size(), 2u);
      req.read.exclusive_start_key = r.last_evaluated_key;
    }
    EXPECT_EQ(seen.size(), 40u) << limit;
    EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 40u) << limit;
  }
}

TEST_F(EngineQueryScanTest, ParallelSegmentsAreDisjointAndCoverTheTable) {
  std::set<std::string> all;
  for (int i = 0; i < 120; ++i) {
    Put("Hash", Item{{"pk", S("k" + std::to_string(i))}});
    all.insert("k" + std::to_string(i));
  }
  for (int64_t total : {1, 2, 5, 16}) {
    std::multiset<std::string> seen;
    for (int64_t s = 0; s < total; ++s) {
      ScanRequest req;
      req.table_name = "Hash";
      req.segment = s;
      req.total_segments = total;
      req.read.limit = 10;
      while (true) {
        ASSERT_OK_AND_ASSIGN(ScanResult r, db_->Scan(req));
        for (const Item& item : r.items) seen.insert(item.at("pk").s());
        if (!r.last_evaluated_key) break;
        req.read.exclusive_start_key = r.last_evaluated_key;
      }
    }
    EXPECT_EQ(seen.size(), all.size()) << total;
    EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()), all) << total;
  }
}

TEST_F(EngineQueryScanTest, SegmentParametersAndStartKeys) {
  ScanRequest req;
  req.table_name = "Hash";
  req.segment = 0;
  EXPECT_THAT(db_->Scan(req).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("The TotalSegments parameter is required but was not present "
                          "in the request when Segment parameter is present")));
  req.segment.reset();
  req.total_segments = 2;
  EXPECT_THAT(db_->Scan(req).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("The Segment parameter is required but was not present in "
                          "the request when parameter TotalSegments is present")));
  req.segment = 2;
  EXPECT_THAT(db_->Scan(req).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("The Segment parameter is zero-based and must be less than "
                          "parameter TotalSegments: Segment: 2 is not less than "
                          "TotalSegments: 2")));
  // A start key belongs to exactly one segment.
  req.total_segments = 4;
  req.read.exclusive_start_key = Item{{"pk", S("k1")}};
  int accepted = 0;
  for (int64_t s = 0; s < 4; ++s) {
    req.segment = s;
    Status st = db_->Scan(req).status();
    if (st.ok()) {
      ++accepted;
      continue;
    }
    EXPECT_THAT(st, StatusIs(ErrorCode::kValidation,
                             Eq("The provided starting key is invalid: Invalid "
                                "ExclusiveStartKey. Please use ExclusiveStartKey with "
                                "correct Segment. TotalSegments: 4 Segment: " +
                                std::to_string(s))));
  }
  EXPECT_EQ(accepted, 1);
  // Start keys of the wrong schema.
  ScanRequest plain;
  plain.table_name = "Num";
  plain.read.exclusive_start_key = Item{{"pk", S("p")}};
  EXPECT_THAT(db_->Scan(plain).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided starting key is invalid: The provided key "
                          "element does not match the schema")));
  plain.read.exclusive_start_key = Item{{"pk", S("p")}, {"sk", S("x")}};
  EXPECT_THAT(db_->Scan(plain).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided starting key is invalid: The provided key "
                          "element does not match the schema")));
  // Scan names ScanFilter in the parameter mix.
  ScanRequest mix;
  mix.table_name = "Num";
  mix.read.filter_expression = "attribute_exists(v)";
  mix.read.legacy_filter = LegacyConditions{};
  EXPECT_THAT(db_->Scan(mix).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("Can not use both expression and non-expression parameters "
                          "in the same request: Non-expression parameters: "
                          "{ScanFilter} Expression parameters: {FilterExpression}")));
  // Scan's Select messages have no "1 validation error detected" prefix.
  ScanRequest count;
  count.table_name = "Num";
  count.read.select = Select::kCount;
  count.read.projection_expression = "v";
  EXPECT_THAT(db_->Scan(count).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("Cannot specify the ProjectionExpression when choosing to "
                          "get only the Count")));
}

TEST_F(EngineQueryScanTest, ScanFiltersProjectsAndCounts) {
  PutNumbers("p", 4);
  PutNumbers("q", 2);
  ScanRequest req;
  req.table_name = "Num";
  req.read.legacy_filter = LegacyConditions{{"v", {ComparisonOperator::kGe, {N("2")}}}};
  req.read.attributes_to_get = std::vector<std::string>{"v"};
  ASSERT_OK_AND_ASSIGN(ScanResult r, db_->Scan(req));
  EXPECT_EQ(r.scanned_count, 6);
  EXPECT_EQ(r.count, 4);
  std::multiset<std::string> values;
  for (const Item& item : r.items) values.insert(RenderItem(item));
  EXPECT_EQ(values, (std::multiset<std::string>{"{v:{N:2}}", "{v:{N:2}}", "{v:{N:3}}",
                                                "{v:{N:4}}"}));
  req.read.attributes_to_get.reset();
  req.read.select = Select::kCount;
  ASSERT_OK_AND_ASSIGN(ScanResult c, db_->Scan(req));
  EXPECT_TRUE(c.count_only);
  EXPECT_EQ(c.count, 4);
}

}  // namespace
}  // namespace dynarock

namespace dynarock {
namespace {

using namespace expr::testing;  // NOLINT: value builders

// --- Encoded items (ReadPageParameters::encoded_items) ----------------------

// The fast path against the decoding one over random items of every type,
// large enough for 1 MB pages: where it applies, the decoded encodings are
// the items and everything else in the result is identical; where it does
// not (filter, projection, COUNT, an LSI fetch) the result is the old one.
class EngineEncodedItemsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CreateTableRequest req;
    req.table_name = "Enc";
    req.attribute_definitions = {{"pk", AttrType::kS}, {"sk", AttrType::kN},
                                 {"g", AttrType::kS}, {"l", AttrType::kN}};
    req.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
    GlobalSecondaryIndexDef all;
    all.index_name = "GAll";
    all.key_schema = {{"g", KeyType::kHash}, {"sk", KeyType::kRange}};
    GlobalSecondaryIndexDef keys = all;
    keys.index_name = "GKeys";
    keys.projection.type = ProjectionType::kKeysOnly;
    LocalSecondaryIndexDef lsi;
    lsi.index_name = "LKeys";
    lsi.key_schema = {{"pk", KeyType::kHash}, {"l", KeyType::kRange}};
    lsi.projection.type = ProjectionType::kKeysOnly;
    req.global_secondary_indexes = {all, keys};
    req.local_secondary_indexes = {lsi};
    req.billing_mode = BillingMode::kPayPerRequest;
    ASSERT_OK(db_->CreateTable(req).status());

    std::mt19937 rng(11);
    for (const char* pk : {"a", "b", "c"}) {
      for (int i = 1; i <= 60; ++i) {
        Item item = RandomItem(rng, 6);
        item["pk"] = S(pk);
        item["sk"] = N(std::to_string(i));
        item["g"] = S(i % 3 == 0 ? "x" : "y");
        item["l"] = N(std::to_string(100 - i));
        // Some items of tens of KB, so that pages stop at 1 MB.
        item["pad"] = S(std::string(i % 4 == 0 ? 40000 + i * 100 : i, 'p'));
        PutItemRequest put;
        put.table_name = "Enc";
        put.item = std::move(item);
        ASSERT_OK(db_->PutItem(put).status());
      }
    }
    ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  }

  // Runs every page of `read` (a QueryRequest or ScanRequest) both ways and
  // compares them; `fast` says whether the encoded path must apply.
  // Returns the items read.
  template <typename Request, typename Run>
  int64_t ExpectSamePages(Request req, bool fast, Run run) {
    int pages = 0;
    int64_t items = 0;
    while (pages < 1000) {
      req.read.encoded_items = false;
      Result<ReadPageResult> slow_or = run(req);
      req.read.encoded_items = true;
      Result<ReadPageResult> enc_or = run(req);
      EXPECT_OK(slow_or.status());
      EXPECT_OK(enc_or.status());
      if (!slow_or.ok() || !enc_or.ok()) return 0;
      const ReadPageResult& slow = *slow_or;
      const ReadPageResult& enc = *enc_or;
      ++pages;
      EXPECT_TRUE(slow.encoded_items.empty());
      if (fast && !slow.items.empty()) {
        EXPECT_TRUE(enc.items.empty()) << pages;
        EXPECT_EQ(enc.encoded_items.size(), slow.items.size());
        for (size_t i = 0; i < slow.items.size() && i < enc.encoded_items.size(); ++i) {
          Result<Item> decoded = DecodeItem(enc.encoded_items[i]);
          EXPECT_OK(decoded.status());
          if (decoded.ok()) {
            EXPECT_EQ(*decoded, slow.items[i]) << pages << " " << i;
          }
        }
      } else {
        EXPECT_TRUE(enc.encoded_items.empty()) << pages;
        EXPECT_EQ(enc.items, slow.items);
      }
      EXPECT_EQ(enc.count_only, slow.count_only);
      EXPECT_EQ(enc.count, slow.count);
      EXPECT_EQ(enc.scanned_count, slow.scanned_count);
      EXPECT_EQ(enc.last_evaluated_key, slow.last_evaluated_key);
      EXPECT_EQ(enc.consumed_capacity, slow.consumed_capacity);
      EXPECT_EQ(enc.capacity_charges, slow.capacity_charges);
      items += slow.scanned_count;
      if (!slow.last_evaluated_key) break;
      req.read.exclusive_start_key = slow.last_evaluated_key;
    }
    ++compared_;
    return items;
  }

  void ExpectSameQuery(QueryRequest req, bool fast) {
    req.table_name = "Enc";
    EXPECT_GT(ExpectSamePages(req, fast,
                              [&](const QueryRequest& r) { return db_->Query(r); }),
              0);
  }
  int64_t ExpectSameScan(ScanRequest req, bool fast) {
    req.table_name = "Enc";
    return ExpectSamePages(req, fast, [&](const ScanRequest& r) { return db_->Scan(r); });
  }

  static QueryRequest Q(std::string kce, ExpressionAttributeValues values) {
    QueryRequest req;
    req.key_condition_expression = std::move(kce);
    req.read.expression_attribute_values = std::move(values);
    return req;
  }

  TestEngine db_;
  int compared_ = 0;
};

TEST_F(EngineEncodedItemsTest, QueriesAreIdenticalBothWays) {
  // Whole collections in 1 MB pages, forward and reverse.
  for (const char* pk : {"a", "b", "c"}) {
    QueryRequest q = Q("pk = :p", {{":p", S(pk)}});
    ExpectSameQuery(q, true);
    q.scan_index_forward = false;
    ExpectSameQuery(q, true);
  }
  // Limit, with and without a sort-key condition, both directions.
  for (int64_t limit : {1, 3, 7, 60}) {
    QueryRequest q = Q("pk = :p AND sk BETWEEN :lo AND :hi",
                       {{":p", S("b")}, {":lo", N("5")}, {":hi", N("50")}});
    q.read.limit = limit;
    ExpectSameQuery(q, true);
    q.scan_index_forward = false;
    ExpectSameQuery(q, true);
  }
  // An ALL-projection GSI; a KEYS_ONLY one with ALL_PROJECTED_ATTRIBUTES
  // (its entries returned as read).
  QueryRequest gsi = Q("g = :g", {{":g", S("y")}});
  gsi.read.index_name = "GAll";
  gsi.read.limit = 9;
  ExpectSameQuery(gsi, true);
  gsi.read.index_name = "GKeys";
  gsi.read.select = Select::kAllProjectedAttributes;
  ExpectSameQuery(gsi, true);
  // The slow path: an LSI read that fetches items, a filter, a projection,
  // COUNT.
  QueryRequest lsi = Q("pk = :p", {{":p", S("a")}});
  lsi.read.index_name = "LKeys";
  lsi.read.select = Select::kAllAttributes;
  ExpectSameQuery(lsi, false);
  QueryRequest filtered = Q("pk = :p", {{":p", S("a")}, {":g", S("x")}});
  filtered.read.filter_expression = "g = :g";
  ExpectSameQuery(filtered, false);
  QueryRequest projected = Q("pk = :p", {{":p", S("c")}});
  projected.read.projection_expression = "sk, g";
  projected.read.limit = 11;
  ExpectSameQuery(projected, false);
  QueryRequest count = Q("pk = :p", {{":p", S("a")}});
  count.read.select = Select::kCount;
  ExpectSameQuery(count, false);
  EXPECT_EQ(compared_, 20);
}

TEST_F(EngineEncodedItemsTest, ScansAreIdenticalBothWays) {
  ScanRequest all;
  EXPECT_EQ(ExpectSameScan(all, true), 180);
  all.read.limit = 13;
  EXPECT_EQ(ExpectSameScan(all, true), 180);
  // Segments of the GSI (one may be empty: it has two partition keys).
  int64_t in_segments = 0;
  for (int64_t segment : {0, 1, 2}) {
    ScanRequest part;
    part.segment = segment;
    part.total_segments = 3;
    part.read.index_name = "GAll";
    part.read.limit = 25;
    in_segments += ExpectSameScan(part, true);
  }
  EXPECT_EQ(in_segments, 180);
  ScanRequest keys;
  keys.read.index_name = "GKeys";
  EXPECT_EQ(ExpectSameScan(keys, true), 180);
  ScanRequest filtered;
  filtered.read.filter_expression = "g = :g";
  filtered.read.expression_attribute_values = ExpressionAttributeValues{{":g", S("x")}};
  EXPECT_EQ(ExpectSameScan(filtered, false), 180);
  ScanRequest projected;
  projected.read.attributes_to_get = std::vector<std::string>{"pk", "pad"};
  EXPECT_EQ(ExpectSameScan(projected, false), 180);
}

// GetItemRequest::encoded_item: every item, a missing one, and the
// projections that must fall back to an Item, both ways.
TEST_F(EngineEncodedItemsTest, GetItemsAreIdenticalBothWays) {
  auto get = [&](const char* pk, int sk, bool encoded,
                 std::optional<std::string> projection) {
    GetItemRequest req;
    req.table_name = "Enc";
    req.key = {{"pk", S(pk)}, {"sk", N(std::to_string(sk))}};
    req.projection_expression = std::move(projection);
    req.encoded_item = encoded;
    return db_->GetItem(req);
  };
  int encoded_items = 0;
  for (const char* pk : {"a", "b", "c", "missing"}) {
    for (int sk = 1; sk <= 61; ++sk) {
      for (std::optional<std::string> projection :
           {std::optional<std::string>(), std::optional<std::string>("pk, g, sk")}) {
        Result<GetItemResult> slow = get(pk, sk, false, projection);
        Result<GetItemResult> enc = get(pk, sk, true, projection);
        ASSERT_OK(slow.status());
        ASSERT_OK(enc.status());
        EXPECT_FALSE(slow->encoded_item);
        EXPECT_EQ(enc->consumed_capacity, slow->consumed_capacity);
        EXPECT_EQ(enc->capacity_charges, slow->capacity_charges);
        if (projection || !slow->item) {
          EXPECT_FALSE(enc->encoded_item) << pk << sk;
          EXPECT_EQ(enc->item, slow->item) << pk << sk;
          continue;
        }
        EXPECT_FALSE(enc->item) << pk << sk;
        ASSERT_TRUE(enc->encoded_item) << pk << sk;
        Result<Item> decoded = DecodeItem(*enc->encoded_item);
        ASSERT_OK(decoded.status());
        EXPECT_EQ(*decoded, *slow->item) << pk << sk;
        ++encoded_items;
      }
    }
  }
  EXPECT_EQ(encoded_items, 180);
}

}  // namespace
}  // namespace dynarock
