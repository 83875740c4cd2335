// Multi-attribute GSI keys through the public Engine interface: a GSI whose
// partition key is several attributes hashed together and whose sort key is
// several attributes ordered one after the other. Writes (sparse, wrong
// types refused), Scan and parallel Scan, UpdateTable's backfill and
// deletion, restarts, and the consistency checker.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/expr/render.h"
#include "engine/keys/key_codec.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using expr::RenderItem;
using namespace expr::testing;  // NOLINT: value builders
using ::testing::Eq;
using ::testing::HasSubstr;

// "Matches": pk S. GSI "ByBracket": HASH t (S), HASH r (N); RANGE d (S),
// RANGE n (N); KEYS_ONLY. GSI "ByPlayer": HASH p (S); RANGE d, RANGE n; ALL.
CreateTableRequest MatchesTable() {
  CreateTableRequest req;
  req.table_name = "Matches";
  req.attribute_definitions = {{"pk", AttrType::kS}, {"t", AttrType::kS},
                               {"r", AttrType::kN},  {"d", AttrType::kS},
                               {"n", AttrType::kN},  {"p", AttrType::kS}};
  req.key_schema = {{"pk", KeyType::kHash}};
  GlobalSecondaryIndexDef bracket;
  bracket.index_name = "ByBracket";
  bracket.key_schema = {{"t", KeyType::kHash},
                        {"r", KeyType::kHash},
                        {"d", KeyType::kRange},
                        {"n", KeyType::kRange}};
  bracket.projection = {ProjectionType::kKeysOnly, {}};
  GlobalSecondaryIndexDef player;
  player.index_name = "ByPlayer";
  player.key_schema = {
      {"p", KeyType::kHash}, {"d", KeyType::kRange}, {"n", KeyType::kRange}};
  player.projection = {ProjectionType::kAll, {}};
  req.global_secondary_indexes = {bracket, player};
  req.billing_mode = BillingMode::kPayPerRequest;
  return req;
}

Item Match(const std::string& pk, const std::string& t, int r,
           const std::string& d, int n, const std::string& p = "alice") {
  return Item{{"pk", S(pk)}, {"t", S(t)}, {"r", N(std::to_string(r))},
              {"d", S(d)},   {"n", N(std::to_string(n))},
              {"p", S(p)},   {"score", N("1")}};
}

class EngineMultiAttributeIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_OK(db_->CreateTable(MatchesTable()).status());
  }
  Status Put(Item item) {
    PutItemRequest req;
    req.table_name = "Matches";
    req.item = std::move(item);
    return db_->PutItem(req).status();
  }
  std::vector<std::string> ScanIndex(const std::string& index) {
    ScanRequest scan;
    scan.table_name = "Matches";
    scan.read.index_name = index;
    std::vector<std::string> out;
    auto r = db_->Scan(scan);
    EXPECT_OK(r.status());
    if (r.ok()) {
      for (const Item& item : r->items) out.push_back(item.at("pk").s());
    }
    return out;
  }
  void ExpectConsistent() {
    ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
    EXPECT_OK(db_->VerifyIndexes(Scope(), "Matches"));
  }

  TestEngine db_;
};

TEST_F(EngineMultiAttributeIndexTest, DescribeTableReturnsTheKeySchemaAsGiven) {
  DescribeTableRequest req;
  req.table_name = "Matches";
  ASSERT_OK_AND_ASSIGN(TableDescription d, db_->DescribeTable(req));
  ASSERT_EQ(d.global_secondary_indexes.size(), 2u);
  EXPECT_EQ(d.global_secondary_indexes[0].def.key_schema,
            MatchesTable().global_secondary_indexes[0].key_schema);
  EXPECT_EQ(d.global_secondary_indexes[1].def.key_schema,
            MatchesTable().global_secondary_indexes[1].key_schema);
}

TEST_F(EngineMultiAttributeIndexTest, ItemsWithoutEveryKeyAttributeAreNotIndexed) {
  ASSERT_OK(Put(Match("m1", "T", 1, "a", 1)));
  Item no_r = Match("m2", "T", 1, "a", 2);
  no_r.erase("r");  // in ByPlayer, not in ByBracket
  ASSERT_OK(Put(no_r));
  Item no_n = Match("m3", "T", 1, "a", 3);
  no_n.erase("n");  // in neither
  ASSERT_OK(Put(no_n));
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  EXPECT_THAT(ScanIndex("ByBracket"), ::testing::ElementsAre("m1"));
  EXPECT_THAT(ScanIndex("ByPlayer"), ::testing::UnorderedElementsAre("m1", "m2"));
  ExpectConsistent();
}

TEST_F(EngineMultiAttributeIndexTest, KeyAttributeOfTheWrongTypeIsRefusedOnEveryWrite) {
  Item bad = Match("m1", "T", 1, "a", 1);
  bad["r"] = S("one");
  EXPECT_THAT(Put(bad),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Type mismatch "
                          "for Index Key r Expected: N Actual: S IndexName: ByBracket")));
  ASSERT_OK(Put(Match("m1", "T", 1, "a", 1)));
  UpdateItemRequest up;
  up.table_name = "Matches";
  up.key = Item{{"pk", S("m1")}};
  up.update_expression = "SET n = :v";
  up.expression_attribute_values = ExpressionAttributeValues{{":v", S("x")}};
  EXPECT_THAT(db_->UpdateItem(up).status(),
              StatusIs(ErrorCode::kValidation,
                       HasSubstr("Type mismatch for Index Key n Expected: N Actual: S")));
  BatchWriteItemRequest batch;
  WriteRequest w;
  w.put_item = bad;
  batch.request_items = {{"Matches", {w}}};
  EXPECT_THAT(db_->BatchWriteItem(batch).status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("Index Key r")));
  ExpectConsistent();
}

TEST_F(EngineMultiAttributeIndexTest, KeyChangesMoveTheEntry) {
  ASSERT_OK(Put(Match("m1", "T", 1, "a", 1)));
  UpdateItemRequest up;
  up.table_name = "Matches";
  up.key = Item{{"pk", S("m1")}};
  up.update_expression = "SET r = :r";  // a second partition-key attribute
  up.expression_attribute_values = ExpressionAttributeValues{{":r", N("2")}};
  ASSERT_OK(db_->UpdateItem(up).status());
  up.update_expression = "REMOVE d";  // leaves both indexes
  up.expression_attribute_values.reset();
  ASSERT_OK(db_->UpdateItem(up).status());
  ExpectConsistent();
  EXPECT_TRUE(ScanIndex("ByBracket").empty());
  up.update_expression = "SET d = :d";
  up.expression_attribute_values = ExpressionAttributeValues{{":d", S("b")}};
  ASSERT_OK(db_->UpdateItem(up).status());
  ExpectConsistent();
  EXPECT_THAT(ScanIndex("ByBracket"), ::testing::ElementsAre("m1"));
  DeleteItemRequest del;
  del.table_name = "Matches";
  del.key = Item{{"pk", S("m1")}};
  ASSERT_OK(db_->DeleteItem(del).status());
  ExpectConsistent();
  EXPECT_TRUE(ScanIndex("ByPlayer").empty());
}

TEST_F(EngineMultiAttributeIndexTest, KeysOnlyProjectsEveryKeyAttribute) {
  ASSERT_OK(Put(Match("m1", "T", 1, "a", 1)));
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  ScanRequest scan;
  scan.table_name = "Matches";
  scan.read.index_name = "ByBracket";
  ASSERT_OK_AND_ASSIGN(ScanResult r, db_->Scan(scan));
  ASSERT_EQ(r.items.size(), 1u);
  EXPECT_EQ(RenderItem(r.items[0]),
            RenderItem(Item{{"pk", S("m1")}, {"t", S("T")}, {"r", N("1")},
                            {"d", S("a")}, {"n", N("1")}}));
}

TEST_F(EngineMultiAttributeIndexTest, WritesAreChargedAtTheIndexPartitionOfEveryHashValue) {
  PutItemRequest req;
  req.table_name = "Matches";
  req.item = Match("m1", "T", 7, "a", 1);
  ASSERT_OK_AND_ASSIGN(PutItemResult r, db_->PutItem(req));
  EXPECT_EQ(r.consumed_capacity.global_secondary_indexes.at("ByBracket").write_units, 1);
  EXPECT_EQ(r.consumed_capacity.global_secondary_indexes.at("ByPlayer").write_units, 1);
  const AttributeValue t = S("T");
  const AttributeValue seven = N("7");
  const AttributeValue* partition[] = {&t, &seven};
  bool found = false;
  for (const CapacityCharge& charge : r.capacity_charges) {
    for (const PartitionUnits& part : charge.parts) {
      if (part.key != "{S:T} | {N:7}") continue;
      // The partition a Query of (T, 7) reads, and the key `dynarock stats`
      // shows for it.
      EXPECT_EQ(part.hash, keys::PartitionHash(partition));
      EXPECT_EQ(part.write_units, 1);
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

TEST_F(EngineMultiAttributeIndexTest, ParallelScanCoversEveryEntryOnce) {
  for (int i = 0; i < 40; ++i) {
    ASSERT_OK(Put(Match("m" + std::to_string(i), "T" + std::to_string(i % 5),
                        i % 3, "d" + std::to_string(i % 4), i)));
  }
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  std::set<std::string> seen;
  for (int64_t segment = 0; segment < 3; ++segment) {
    ScanRequest part;
    part.table_name = "Matches";
    part.read.index_name = "ByBracket";
    part.segment = segment;
    part.total_segments = 3;
    part.read.limit = 4;
    for (int pages = 0; pages < 100; ++pages) {
      ASSERT_OK_AND_ASSIGN(ScanResult r, db_->Scan(part));
      for (const Item& item : r.items) {
        EXPECT_TRUE(seen.insert(item.at("pk").s()).second) << item.at("pk").s();
      }
      if (!r.last_evaluated_key) break;
      // The start key holds every index key attribute and the table key.
      EXPECT_EQ(r.last_evaluated_key->size(), 5u);
      part.read.exclusive_start_key = r.last_evaluated_key;
    }
  }
  EXPECT_EQ(seen.size(), 40u);
  // A start key without one of the index key attributes, or with one of
  // another type, is refused.
  ScanRequest scan;
  scan.table_name = "Matches";
  scan.read.index_name = "ByBracket";
  Item start{{"pk", S("m1")}, {"t", S("T1")}, {"r", N("1")}, {"d", S("d1")}, {"n", N("1")}};
  for (const char* attr : {"t", "r", "d", "n", "pk"}) {
    Item missing = start;
    missing.erase(attr);
    scan.read.exclusive_start_key = missing;
    EXPECT_THAT(db_->Scan(scan).status(),
                StatusIs(ErrorCode::kValidation, Eq("The provided starting key is invalid")))
        << attr;
  }
  Item mistyped = start;
  mistyped["n"] = S("1");
  scan.read.exclusive_start_key = mistyped;
  EXPECT_THAT(db_->Scan(scan).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided key element does not match the schema")));
  scan.read.exclusive_start_key = start;
  EXPECT_OK(db_->Scan(scan).status());
}

TEST_F(EngineMultiAttributeIndexTest, UpdateTableBackfillsAndDeletesAMultiAttributeIndex) {
  for (int i = 0; i < 30; ++i) {
    Item item = Match("m" + std::to_string(i), "T", 1, "a", i);
    item["z"] = N(std::to_string(i % 3));
    if (i == 4) item["z"] = S("wrong type");  // left out by the backfill
    if (i == 5) item.erase("z");              // sparse
    ASSERT_OK(Put(item));
  }
  UpdateTableRequest req;
  req.table_name = "Matches";
  req.attribute_definitions = {{"z", AttrType::kN}};
  GlobalSecondaryIndexUpdate u;
  GlobalSecondaryIndexDef def;
  def.index_name = "ByTz";
  def.key_schema = {{"t", KeyType::kHash}, {"z", KeyType::kHash},
                    {"n", KeyType::kRange}};
  def.projection = {ProjectionType::kKeysOnly, {}};
  u.create = def;
  req.global_secondary_index_updates = {u};
  ASSERT_OK_AND_ASSIGN(TableDescription d, db_->UpdateTable(req));
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  EXPECT_EQ(ScanIndex("ByTz").size(), 28u);
  ExpectConsistent();
  DescribeTableRequest describe;
  describe.table_name = "Matches";
  ASSERT_OK_AND_ASSIGN(d, db_->DescribeTable(describe));
  ASSERT_EQ(d.global_secondary_indexes.size(), 3u);
  EXPECT_EQ(d.global_secondary_indexes[2].def.key_schema, def.key_schema);

  UpdateTableRequest drop;
  drop.table_name = "Matches";
  GlobalSecondaryIndexUpdate del;
  del.del = GlobalSecondaryIndexUpdate::DeleteAction{"ByTz"};
  drop.global_secondary_index_updates = {del};
  ASSERT_OK(db_->UpdateTable(drop).status());
  ASSERT_OK_AND_ASSIGN(d, db_->DescribeTable(describe));
  EXPECT_EQ(d.global_secondary_indexes.size(), 2u);
  for (const AttributeDefinition& a : d.attribute_definitions) {
    EXPECT_NE(a.attribute_name, "z");  // no key uses it any more
  }
  ExpectConsistent();
}

TEST_F(EngineMultiAttributeIndexTest, UpdateTableValidatesTheNewKeySchema) {
  UpdateTableRequest req;
  req.table_name = "Matches";
  req.attribute_definitions = {{"z", AttrType::kN}};
  GlobalSecondaryIndexUpdate u;
  GlobalSecondaryIndexDef def;
  def.index_name = "Bad";
  def.key_schema = {{"t", KeyType::kHash}, {"n", KeyType::kRange},
                    {"z", KeyType::kHash}};
  def.projection = {ProjectionType::kKeysOnly, {}};
  u.create = def;
  req.global_secondary_index_updates = {u};
  EXPECT_THAT(db_->UpdateTable(req).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("Invalid KeySchema: All HASH key type KeySchemaElements must "
                          "precede all RANGE key type KeySchemaElements")));
  // A key attribute the table defines with another type.
  req.attribute_definitions = {{"r", AttrType::kS}};
  (*req.global_secondary_index_updates)[0].create->key_schema = {
      {"t", KeyType::kHash}, {"r", KeyType::kHash}};
  EXPECT_THAT(db_->UpdateTable(req).status(),
              StatusIs(ErrorCode::kValidation,
                       HasSubstr("Attributes cannot be redefined")));
}

// --- Query ------------------------------------------------------------------

class EngineMultiAttributeQueryTest : public EngineMultiAttributeIndexTest {
 protected:
  void SetUp() override {
    EngineMultiAttributeIndexTest::SetUp();
    // Partition (T, 1): d in {a, b}, n in {-1, 2, 10}; other partitions.
    int i = 0;
    for (const char* d : {"b", "a"}) {
      for (int n : {10, -1, 2}) {
        ASSERT_OK(Put(Match("m" + std::to_string(i++), "T", 1, d, n)));
      }
    }
    ASSERT_OK(Put(Match("x1", "T", 2, "a", 1)));   // other r
    ASSERT_OK(Put(Match("x2", "U", 1, "a", 1)));   // other t
    ASSERT_OK(Put(Match("x3", "T", 1, "ab", 0)));  // d sorts after "a"
    ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  }
  static QueryRequest Q(const std::string& condition, ExpressionAttributeValues values) {
    QueryRequest req;
    req.table_name = "Matches";
    req.read.index_name = "ByBracket";
    req.key_condition_expression = condition;
    req.read.expression_attribute_values = std::move(values);
    return req;
  }
  // "d/n" of every item of every page.
  std::string Run(QueryRequest req, int64_t limit = 0) {
    if (limit > 0) req.read.limit = limit;
    std::string out;
    for (int pages = 0; pages < 50; ++pages) {
      auto r = db_->Query(req);
      if (!r.ok()) return r.status().message();
      for (const Item& item : r->items) {
        out += item.at("d").s() + "/" + item.at("n").n().ToString() + " ";
      }
      if (!r->last_evaluated_key) break;
      EXPECT_EQ(r->last_evaluated_key->size(), 5u);  // t r d n + pk
      req.read.exclusive_start_key = r->last_evaluated_key;
    }
    return out;
  }
};

TEST_F(EngineMultiAttributeQueryTest, EqualityOnEveryPartitionKeyAttribute) {
  const ExpressionAttributeValues v{{":t", S("T")}, {":r", N("1")}};
  EXPECT_EQ(Run(Q("t = :t AND r = :r", v)), "a/-1 a/2 a/10 ab/0 b/-1 b/2 b/10 ");
  EXPECT_EQ(Run(Q("r = :r AND t = :t", v), 2), "a/-1 a/2 a/10 ab/0 b/-1 b/2 b/10 ");
  QueryRequest back = Q("t = :t AND r = :r", v);
  back.scan_index_forward = false;
  EXPECT_EQ(Run(back, 3), "b/10 b/2 b/-1 ab/0 a/10 a/2 a/-1 ");
  EXPECT_EQ(Run(Q("t = :t AND r = :r", {{":t", S("T")}, {":r", N("2")}})), "a/1 ");
  EXPECT_EQ(Run(Q("t = :t", {{":t", S("T")}})),
            "Query key condition not supported: every HASH key attribute needs an "
            "equality condition; attribute: r");
}

TEST_F(EngineMultiAttributeQueryTest, SortKeyConditionsLeftToRight) {
  auto v = [](ExpressionAttributeValues more) {
    more[":t"] = S("T");
    more[":r"] = N("1");
    return more;
  };
  EXPECT_EQ(Run(Q("t = :t AND r = :r AND d = :d", v({{":d", S("a")}}))), "a/-1 a/2 a/10 ");
  EXPECT_EQ(Run(Q("t = :t AND r = :r AND begins_with(d, :d)", v({{":d", S("a")}})), 1),
            "a/-1 a/2 a/10 ab/0 ");
  EXPECT_EQ(Run(Q("t = :t AND r = :r AND d > :d", v({{":d", S("a")}}))),
            "ab/0 b/-1 b/2 b/10 ");
  EXPECT_EQ(Run(Q("t = :t AND r = :r AND d = :d AND n >= :n",
                  v({{":d", S("b")}, {":n", N("2")}}))),
            "b/2 b/10 ");
  EXPECT_EQ(Run(Q("t = :t AND r = :r AND d = :d AND n < :n",
                  v({{":d", S("a")}, {":n", N("2")}})), 1),
            "a/-1 ");
  EXPECT_EQ(Run(Q("t = :t AND r = :r AND d = :d AND n BETWEEN :lo AND :hi",
                  v({{":d", S("a")}, {":lo", N("-1")}, {":hi", N("2")}}))),
            "a/-1 a/2 ");
  EXPECT_EQ(Run(Q("t = :t AND r = :r AND d = :d AND n = :n",
                  v({{":d", S("b")}, {":n", N("10")}}))),
            "b/10 ");
  EXPECT_EQ(Run(Q("t = :t AND r = :r AND n = :n", v({{":n", N("2")}}))),
            "Query key condition not supported: RANGE key attributes are conditioned "
            "left to right, each before the last with an equality condition; attribute: d");
  EXPECT_EQ(Run(Q("t = :t AND r = :r AND d > :d AND n = :n",
                  v({{":d", S("a")}, {":n", N("2")}}))),
            "Query key condition not supported: RANGE key attributes are conditioned "
            "left to right, each before the last with an equality condition; attribute: n");
}

// Every other key condition is a ValidationException, with the texts of
// one-attribute keys: a range on a partition-key attribute, a condition on a
// non-key attribute (the first sort-key attribute is then missing), two
// conditions on one attribute, OR and <>, a value of another type.
TEST_F(EngineMultiAttributeQueryTest, OtherKeyConditionsAreRefused) {
  const ExpressionAttributeValues all{
      {":t", S("T")}, {":r", N("1")}, {":d", S("a")}, {":n", N("2")}};
  auto run = [&](const std::string& condition) {
    ExpressionAttributeValues used;
    for (const auto& [name, value] : all) {
      if (condition.find(name) != std::string::npos) used[name] = value;
    }
    return Run(Q(condition, used));
  };
  EXPECT_EQ(run("t = :t AND r > :r"), "Query key condition not supported: every HASH key attribute needs an "
            "equality condition; attribute: r");
  EXPECT_EQ(run("t = :t AND r BETWEEN :r AND :r"), "Query key condition not supported: every HASH key attribute needs an "
            "equality condition; attribute: r");
  EXPECT_EQ(run("t = :t AND r = :r AND score = :n"),
            "Query key condition not supported: RANGE key attributes are conditioned "
            "left to right, each before the last with an equality condition; attribute: d");
  EXPECT_EQ(run("t = :t AND r = :r AND d = :d AND d = :d"),
            "KeyConditionExpressions must only contain one condition per key");
  EXPECT_EQ(run("t = :t AND t = :t AND r = :r"),
            "KeyConditionExpressions must only contain one condition per key");
  EXPECT_EQ(run("t = :t OR r = :r"), "Invalid operator used in KeyConditionExpression: OR");
  EXPECT_EQ(run("t = :t AND r = :r AND d <> :d"),
            "Invalid operator used in KeyConditionExpression: <>");
  EXPECT_EQ(run("t = :t AND r = :d"),
            "One or more parameter values were invalid: Condition parameter type does not "
            "match schema type");
  EXPECT_EQ(run("t = :t AND r = :r AND d = :d AND begins_with(n, :n)"),
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; "
            "operator or function: begins_with, operand type: N");
}

TEST_F(EngineMultiAttributeQueryTest, LegacyKeyConditions) {
  QueryRequest req;
  req.table_name = "Matches";
  req.read.index_name = "ByBracket";
  req.key_conditions = LegacyConditions{
      {"t", {ComparisonOperator::kEq, {S("T")}}},
      {"r", {ComparisonOperator::kEq, {N("1")}}},
      {"d", {ComparisonOperator::kEq, {S("b")}}},
      {"n", {ComparisonOperator::kGt, {N("-1")}}}};
  EXPECT_EQ(Run(req, 1), "b/2 b/10 ");
}

TEST_F(EngineMultiAttributeQueryTest, FilterMayNotNameAKeyAttributeOfTheIndex) {
  for (const char* attr : {"t", "r", "d", "n"}) {
    QueryRequest req = Q("t = :t AND r = :r", {{":t", S("T")}, {":r", N("1")}, {":x", N("1")}});
    req.read.filter_expression = std::string(attr) + " = :x";
    EXPECT_THAT(db_->Query(req).status(),
                StatusIs(ErrorCode::kValidation,
                         Eq(std::string("Filter Expression can only contain non-primary key "
                                        "attributes: Primary key attribute: ") +
                            attr)));
  }
}

TEST_F(EngineMultiAttributeQueryTest, StartKeyMustLieInTheQueriedRange) {
  QueryRequest req = Q("t = :t AND r = :r AND d = :d AND n > :n",
                       {{":t", S("T")}, {":r", N("1")}, {":d", S("a")}, {":n", N("0")}});
  auto start = [](const char* t, int r, const char* d, int n) {
    // m5 is the item (T, 1, a, 2): the page resumes after it.
    return Item{{"pk", S("m5")}, {"t", S(t)}, {"r", N(std::to_string(r))},
                {"d", S(d)}, {"n", N(std::to_string(n))}};
  };
  req.read.exclusive_start_key = start("T", 1, "a", 2);
  EXPECT_EQ(Run(req), "a/10 ");
  req.read.exclusive_start_key = start("T", 1, "b", 2);  // d is not "a"
  EXPECT_THAT(db_->Query(req).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided starting key does not match the range key predicate")));
  req.read.exclusive_start_key = start("T", 2, "a", 2);  // another partition
  EXPECT_THAT(db_->Query(req).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("The query can return at most one row and cannot be restarted")));
  Item missing = start("T", 1, "a", 2);
  missing.erase("r");
  req.read.exclusive_start_key = missing;
  EXPECT_THAT(db_->Query(req).status(),
              StatusIs(ErrorCode::kValidation, Eq("The provided starting key is invalid")));
  QueryRequest whole = Q("t = :t AND r = :r", {{":t", S("T")}, {":r", N("1")}});
  whole.read.exclusive_start_key = start("U", 1, "a", 2);
  EXPECT_THAT(db_->Query(whole).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided starting key is outside query boundaries based on "
                          "provided conditions")));
}

TEST_F(EngineMultiAttributeQueryTest, KeysOnlyIndexRefusesAllAttributes) {
  QueryRequest req = Q("t = :t AND r = :r", {{":t", S("T")}, {":r", N("1")}});
  req.read.select = Select::kAllAttributes;
  EXPECT_THAT(db_->Query(req).status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("ByBracket because its projection "
                                                         "type is not ALL")));
}

// --- Restarts and the consistency checker -----------------------------------

class EngineMultiAttributeRestartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("dynarock-multi-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override {
    engine_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Open() {
    engine_.reset();
    EngineOptions o;
    o.path = dir_.string();
    o.clock = &clock_;
    o.table_create_delay_micros = 0;
    o.table_delete_delay_micros = 0;
    o.gsi_backfill_chunk_items = 7;
    engine_ = std::move(Engine::Open(o)).value();
  }

  SimulatedClock clock_;
  std::filesystem::path dir_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(EngineMultiAttributeRestartTest, RandomWritesAndRestartsEndConsistent) {
  Open();
  ASSERT_OK(engine_->CreateTable(MatchesTable()).status());
  std::mt19937 rng(4242);
  for (int round = 0; round < 4; ++round) {
    for (int i = 0; i < 120; ++i) {
      const std::string pk = "m" + std::to_string(rng() % 25);
      const int op = static_cast<int>(rng() % 10);
      if (op < 2) {
        DeleteItemRequest del;
        del.table_name = "Matches";
        del.key = Item{{"pk", S(pk)}};
        ASSERT_OK(engine_->DeleteItem(del).status());
      } else if (op < 5) {
        UpdateItemRequest up;
        up.table_name = "Matches";
        up.key = Item{{"pk", S(pk)}};
        const char* attrs[] = {"t", "r", "d", "n", "p"};
        const std::string attr = attrs[rng() % 5];
        if (rng() % 3 == 0) {
          up.update_expression = "REMOVE " + attr;
        } else {
          up.update_expression = "SET " + attr + " = :v";
          const bool number = attr == "r" || attr == "n";
          up.expression_attribute_values = ExpressionAttributeValues{
              {":v", number ? N(std::to_string(rng() % 4))
                            : S(std::string(1, static_cast<char>('a' + rng() % 3)))}};
        }
        ASSERT_OK(engine_->UpdateItem(up).status());
      } else {
        PutItemRequest put;
        put.table_name = "Matches";
        put.item = Match(pk, "T" + std::to_string(rng() % 2), static_cast<int>(rng() % 3),
                         std::string(1, static_cast<char>('a' + rng() % 3)),
                         static_cast<int>(rng() % 5), "p" + std::to_string(rng() % 2));
        ASSERT_OK(engine_->PutItem(put).status());
      }
    }
    if (round == 1) {
      UpdateTableRequest req;
      req.table_name = "Matches";
      GlobalSecondaryIndexUpdate u;
      GlobalSecondaryIndexDef def;
      def.index_name = "ByPn";
      def.key_schema = {{"p", KeyType::kHash}, {"r", KeyType::kHash},
                        {"n", KeyType::kRange}, {"d", KeyType::kRange}};
      def.projection = {ProjectionType::kInclude, {"score"}};
      u.create = def;
      req.attribute_definitions = {{"p", AttrType::kS}};
      req.global_secondary_index_updates = {u};
      ASSERT_OK(engine_->UpdateTable(req).status());
    }
    Open();  // restart, possibly mid-backfill
  }
  ASSERT_OK(engine_->WaitUntilIndexesCaughtUp());
  EXPECT_OK(engine_->VerifyIndexes(Scope(), "Matches"));
}

}  // namespace
}  // namespace dynarock
