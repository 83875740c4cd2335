// Secondary indexes through the public Engine interface: GSIs (asynchronous,
// with lag on a SimulatedClock), LSIs (synchronous), Query and Scan on
// indexes, the item-collection limit, UpdateTable GlobalSecondaryIndexUpdates
// with backfill, restarts of an on-disk engine, and the consistency checker.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/expr/render.h"
#include "engine/value/item_size.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using expr::RenderItem;
using namespace expr::testing;  // NOLINT: value builders
using ::testing::Eq;
using ::testing::HasSubstr;

// "Tab": pk S, sk S; GSI "ByG" (g S, gs N, INCLUDE [inc]); GSI "KeysOnly"
// (g S, KEYS_ONLY); LSI "ByL" (pk, l S, KEYS_ONLY).
CreateTableRequest TableWithIndexes(const std::string& name = "Tab") {
  CreateTableRequest req;
  req.table_name = name;
  req.attribute_definitions = {{"pk", AttrType::kS},
                               {"sk", AttrType::kS},
                               {"g", AttrType::kS},
                               {"gs", AttrType::kN},
                               {"l", AttrType::kS}};
  req.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  GlobalSecondaryIndexDef by_g;
  by_g.index_name = "ByG";
  by_g.key_schema = {{"g", KeyType::kHash}, {"gs", KeyType::kRange}};
  by_g.projection = {ProjectionType::kInclude, {"inc"}};
  GlobalSecondaryIndexDef keys_only;
  keys_only.index_name = "KeysOnly";
  keys_only.key_schema = {{"g", KeyType::kHash}};
  keys_only.projection = {ProjectionType::kKeysOnly, {}};
  req.global_secondary_indexes = {by_g, keys_only};
  LocalSecondaryIndexDef by_l;
  by_l.index_name = "ByL";
  by_l.key_schema = {{"pk", KeyType::kHash}, {"l", KeyType::kRange}};
  by_l.projection = {ProjectionType::kKeysOnly, {}};
  req.local_secondary_indexes = {by_l};
  req.billing_mode = BillingMode::kPayPerRequest;
  return req;
}

Item MakeItem(const std::string& pk, const std::string& sk,
              const std::string& g, int gs, const std::string& l = "l") {
  return Item{{"pk", S(pk)}, {"sk", S(sk)},
              {"g", S(g)},   {"gs", N(std::to_string(gs))},
              {"l", S(l)},   {"inc", S("i")},
              {"ox", S("o")}};
}

class EngineIndexTest : public ::testing::Test {
 protected:
  explicit EngineIndexTest(EngineOptions options = TestEngine::Options())
      : db_(options) {}
  void SetUp() override {
    ASSERT_OK(db_->CreateTable(TableWithIndexes()).status());
  }

  Status Put(Item item, const std::string& table = "Tab") {
    PutItemRequest req;
    req.table_name = table;
    req.item = std::move(item);
    return db_->PutItem(req).status();
  }
  Status Delete(const std::string& pk, const std::string& sk) {
    DeleteItemRequest req;
    req.table_name = "Tab";
    req.key = Item{{"pk", S(pk)}, {"sk", S(sk)}};
    return db_->DeleteItem(req).status();
  }

  static QueryRequest QueryG(const std::string& g) {
    QueryRequest req;
    req.table_name = "Tab";
    req.read.index_name = "ByG";
    req.key_condition_expression = "g = :g";
    req.read.expression_attribute_values =
        ExpressionAttributeValues{{":g", S(g)}};
    return req;
  }

  // Every page of a query, rendered item by item.
  std::vector<std::string> AllPages(QueryRequest req, int64_t limit) {
    std::vector<std::string> out;
    req.read.limit = limit;
    for (int pages = 0; pages < 100; ++pages) {
      auto r = db_->Query(req);
      EXPECT_OK(r.status());
      if (!r.ok()) break;
      for (const Item& item : r->items) out.push_back(RenderItem(item));
      if (!r->last_evaluated_key) break;
      req.read.exclusive_start_key = r->last_evaluated_key;
    }
    return out;
  }

  void ExpectConsistent(const std::string& table = "Tab") {
    ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
    EXPECT_OK(db_->VerifyIndexes(Scope(), table));
  }

  TestEngine db_;
};

TEST_F(EngineIndexTest, GsiQueryReturnsProjectedItemsInIndexOrder) {
  ASSERT_OK(Put(MakeItem("a", "1", "x", 3)));
  ASSERT_OK(Put(MakeItem("b", "1", "x", 1)));
  ASSERT_OK(Put(MakeItem("c", "1", "y", 2)));
  ASSERT_OK_AND_ASSIGN(QueryResult r, db_->Query(QueryG("x")));
  ASSERT_EQ(r.items.size(), 2u);
  // ALL_PROJECTED_ATTRIBUTES by default: keys + inc, not "ox" or "l".
  EXPECT_EQ(RenderItem(r.items[0]), RenderItem(Item{{"pk", S("b")},
                                                    {"sk", S("1")},
                                                    {"g", S("x")},
                                                    {"gs", N("1")},
                                                    {"inc", S("i")}}));
  EXPECT_EQ(r.items[1].at("pk"), S("a"));
  EXPECT_FALSE(r.last_evaluated_key.has_value());
  ExpectConsistent();
}

TEST_F(EngineIndexTest, IndexPagingUsesIndexShapedLastEvaluatedKey) {
  // Many items with the SAME index key: the table key breaks the tie.
  for (int i = 0; i < 7; ++i) {
    ASSERT_OK(Put(MakeItem("p" + std::to_string(i), "s", "x", 5)));
  }
  QueryRequest req = QueryG("x");
  req.read.limit = 3;
  ASSERT_OK_AND_ASSIGN(QueryResult first, db_->Query(req));
  ASSERT_TRUE(first.last_evaluated_key.has_value());
  EXPECT_EQ(first.last_evaluated_key->size(), 4u);  // pk, sk, g, gs
  EXPECT_TRUE(first.last_evaluated_key->count("gs"));
  std::vector<std::string> all = AllPages(QueryG("x"), 3);
  EXPECT_EQ(all.size(), 7u);
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), 7u);
  // Backwards too.
  QueryRequest back = QueryG("x");
  back.scan_index_forward = false;
  std::vector<std::string> reversed = AllPages(back, 2);
  std::reverse(reversed.begin(), reversed.end());
  EXPECT_EQ(reversed, all);
}

TEST_F(EngineIndexTest, IndexStartKeyMustHoldIndexAndTableKeys) {
  ASSERT_OK(Put(MakeItem("a", "1", "x", 3)));
  QueryRequest req = QueryG("x");
  req.read.exclusive_start_key = Item{{"pk", S("a")}, {"sk", S("1")}};
  EXPECT_THAT(db_->Query(req).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided starting key is invalid")));
  req.read.exclusive_start_key =
      Item{{"pk", S("a")}, {"sk", S("1")}, {"g", S("ox")}, {"gs", N("1")}};
  EXPECT_THAT(
      db_->Query(req).status(),
      StatusIs(
          ErrorCode::kValidation,
          Eq("The provided starting key is outside query boundaries based on "
             "provided conditions")));
}

TEST_F(EngineIndexTest, GsiReadRules) {
  ASSERT_OK(Put(MakeItem("a", "1", "x", 3)));
  QueryRequest req = QueryG("x");
  req.read.consistent_read = true;
  EXPECT_THAT(
      db_->Query(req).status(),
      StatusIs(ErrorCode::kValidation, Eq("Consistent reads are not supported "
                                          "on global secondary indexes")));
  req = QueryG("x");
  req.read.select = Select::kAllAttributes;
  EXPECT_THAT(
      db_->Query(req).status(),
      StatusIs(
          ErrorCode::kValidation,
          Eq("One or more parameter values were invalid: Select type "
             "ALL_ATTRIBUTES is not supported for global secondary index ByG "
             "because its projection type is not ALL")));
  // A Scan of the index too, and of the KEYS_ONLY one.
  for (const char* index : {"ByG", "KeysOnly"}) {
    ScanRequest scan;
    scan.table_name = "Tab";
    scan.read.index_name = index;
    scan.read.select = Select::kAllAttributes;
    EXPECT_THAT(db_->Scan(scan).status(),
                StatusIs(ErrorCode::kValidation,
                         Eq(std::string("One or more parameter values were invalid: Select "
                                        "type ALL_ATTRIBUTES is not supported for global "
                                        "secondary index ") +
                            index + " because its projection type is not ALL")));
  }
  // Asking a KEYS_ONLY index for attributes it does not hold is refused,
  // each named once in request order (localstack/localstack#478 quotes
  // DynamoDB); its own attributes are fine.
  QueryRequest keys = QueryG("x");
  keys.read.index_name = "KeysOnly";
  keys.key_condition_expression = "g = :g";
  keys.read.projection_expression = "pk, ox, z, w.y";
  EXPECT_THAT(db_->Query(keys).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Global "
                          "secondary index KeysOnly does not project [ox, z, w]")));
  ScanRequest keys_scan;
  keys_scan.table_name = "Tab";
  keys_scan.read.index_name = "KeysOnly";
  keys_scan.read.attributes_to_get = std::vector<std::string>{"ox"};
  EXPECT_THAT(db_->Scan(keys_scan).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Global "
                          "secondary index KeysOnly does not project [ox]")));
  keys.read.projection_expression = "pk, g";
  ASSERT_OK_AND_ASSIGN(QueryResult r, db_->Query(keys));
  ASSERT_EQ(r.items.size(), 1u);
  EXPECT_EQ(RenderItem(r.items[0]), RenderItem(Item{{"g", S("x")}, {"pk", S("a")}}));
  // Select COUNT returns no attributes, so names none.
  keys.read.projection_expression = std::nullopt;
  keys.read.select = Select::kCount;
  EXPECT_OK(db_->Query(keys).status());
  // Missing index.
  req = QueryG("x");
  req.read.index_name = "Nope";
  EXPECT_THAT(
      db_->Query(req).status(),
      StatusIs(ErrorCode::kValidation,
               Eq("The table does not have the specified index: Nope")));
}

TEST_F(EngineIndexTest, LsiReadsAreConsistentAndFetchFromTheTable) {
  ASSERT_OK(Put(MakeItem("a", "1", "x", 3, "m")));
  ASSERT_OK(Put(MakeItem("a", "2", "x", 3, "k")));
  QueryRequest req;
  req.table_name = "Tab";
  req.read.index_name = "ByL";
  req.read.consistent_read = true;
  req.key_condition_expression = "pk = :p";
  req.read.expression_attribute_values =
      ExpressionAttributeValues{{":p", S("a")}};
  ASSERT_OK_AND_ASSIGN(QueryResult projected, db_->Query(req));
  ASSERT_EQ(projected.items.size(), 2u);
  EXPECT_EQ(projected.items[0].at("l"), S("k"));  // LSI order
  EXPECT_FALSE(projected.items[0].count("ox"));
  req.read.select = Select::kAllAttributes;
  ASSERT_OK_AND_ASSIGN(QueryResult all, db_->Query(req));
  ASSERT_EQ(all.items.size(), 2u);
  EXPECT_EQ(all.items[0].at("ox"), S("o"));  // fetched from the table
  req.read.select.reset();
  req.read.projection_expression = "sk, ox";
  ASSERT_OK_AND_ASSIGN(QueryResult some, db_->Query(req));
  EXPECT_EQ(RenderItem(some.items[1]),
            RenderItem(Item{{"sk", S("1")}, {"ox", S("o")}}));
}

TEST_F(EngineIndexTest, GsiLagGivesStaleReadsUntilTheClockPassesIt) {
  SetIndexLagRequest lag;
  lag.table_name = "Tab";
  lag.index_name = "ByG";
  lag.lag_micros = 2'000'000;
  ASSERT_OK(db_->SetIndexLag(lag));
  ASSERT_OK(Put(MakeItem("a", "1", "x", 3)));
  ASSERT_OK_AND_ASSIGN(QueryResult r, db_->Query(QueryG("x")));
  EXPECT_EQ(r.count, 0);  // not propagated yet
  db_.clock.Advance(1'999'999);
  ASSERT_OK_AND_ASSIGN(r, db_->Query(QueryG("x")));
  EXPECT_EQ(r.count, 0);
  db_.clock.Advance(1);
  ASSERT_OK_AND_ASSIGN(r, db_->Query(QueryG("x")));
  EXPECT_EQ(r.count, 1);
  // A key change shows the old entry until it propagates; the other GSI has
  // no lag and is already current.
  Item moved = MakeItem("a", "1", "y", 3);
  ASSERT_OK(Put(moved));
  ASSERT_OK_AND_ASSIGN(r, db_->Query(QueryG("x")));
  EXPECT_EQ(r.count, 1);
  QueryRequest keys = QueryG("y");
  keys.read.index_name = "KeysOnly";
  keys.key_condition_expression = "g = :g";
  ASSERT_OK_AND_ASSIGN(r, db_->Query(keys));
  EXPECT_EQ(r.count, 1);
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());  // ignores the lag
  ASSERT_OK_AND_ASSIGN(r, db_->Query(QueryG("x")));
  EXPECT_EQ(r.count, 0);
  EXPECT_GE(db_->GetIndexPropagationStats().applied_records, 3);
  // Errors.
  lag.index_name = "ByL";
  EXPECT_THAT(db_->SetIndexLag(lag),
              StatusIs(ErrorCode::kValidation, HasSubstr("local")));
  lag.index_name = "Nope";
  EXPECT_THAT(db_->SetIndexLag(lag),
              StatusIs(ErrorCode::kResourceNotFound,
                       Eq("Requested resource not found: Index "
                          "Nope for table Tab")));
}

TEST_F(EngineIndexTest, ScanAndParallelScanOfAGsi) {
  for (int i = 0; i < 40; ++i) {
    Item item =
        MakeItem("p" + std::to_string(i), "s", "g" + std::to_string(i % 9), i);
    if (i % 4 == 0) item.erase("gs");  // sparse in ByG, still in KeysOnly
    ASSERT_OK(Put(item));
  }
  ScanRequest scan;
  scan.table_name = "Tab";
  scan.read.index_name = "ByG";
  ASSERT_OK_AND_ASSIGN(ScanResult whole, db_->Scan(scan));
  EXPECT_EQ(whole.count, 30);
  std::set<std::string> seen;
  for (int64_t segment = 0; segment < 4; ++segment) {
    ScanRequest part = scan;
    part.segment = segment;
    part.total_segments = 4;
    part.read.limit = 2;
    for (int pages = 0; pages < 100; ++pages) {
      ASSERT_OK_AND_ASSIGN(ScanResult r, db_->Scan(part));
      for (const Item& item : r.items) {
        EXPECT_TRUE(seen.insert(item.at("pk").s()).second) << item.at("pk").s();
      }
      if (!r.last_evaluated_key) break;
      part.read.exclusive_start_key = r.last_evaluated_key;
    }
  }
  EXPECT_EQ(seen.size(), 30u);
  scan.read.index_name = "KeysOnly";
  ASSERT_OK_AND_ASSIGN(whole, db_->Scan(scan));
  EXPECT_EQ(whole.count, 40);
  scan.read.consistent_read = true;
  EXPECT_THAT(
      db_->Scan(scan).status(),
      StatusIs(ErrorCode::kValidation, Eq("Consistent reads are not supported "
                                          "on global secondary indexes")));
}

TEST_F(EngineIndexTest, IndexKeyOfTheWrongTypeIsRefusedOnEveryWrite) {
  Item bad = MakeItem("a", "1", "x", 3);
  bad["gs"] = S("three");
  EXPECT_THAT(
      Put(bad),
      StatusIs(ErrorCode::kValidation,
               Eq("One or more parameter values were invalid: Type mismatch "
                  "for Index Key gs Expected: N Actual: S IndexName: ByG")));
  ASSERT_OK(Put(MakeItem("a", "1", "x", 3)));
  UpdateItemRequest up;
  up.table_name = "Tab";
  up.key = Item{{"pk", S("a")}, {"sk", S("1")}};
  up.update_expression = "SET l = :v";
  up.expression_attribute_values = ExpressionAttributeValues{{":v", N("1")}};
  EXPECT_THAT(
      db_->UpdateItem(up).status(),
      StatusIs(
          ErrorCode::kValidation,
          Eq("One or more parameter values were invalid: Type mismatch for "
             "Index Key l Expected: S Actual: N IndexName: ByL")));
  up.expression_attribute_values = ExpressionAttributeValues{{":v", S("")}};
  EXPECT_THAT(db_->UpdateItem(up).status(),
              StatusIs(ErrorCode::kValidation,
                       HasSubstr("IndexName: ByL, IndexKey: l")));
  BatchWriteItemRequest batch;
  WriteRequest w;
  w.put_item = bad;
  batch.request_items = {{"Tab", {w}}};
  EXPECT_THAT(db_->BatchWriteItem(batch).status(),
              StatusIs(ErrorCode::kValidation,
                       HasSubstr("Type mismatch for Index Key gs")));
  ExpectConsistent();
}

// ItemCount and IndexSizeBytes of every index: live, each entry counted at
// its projected item's size plus 100 bytes.
TEST_F(EngineIndexTest, IndexItemCountAndSizeAreLive) {
  auto describe = [&] {
    DescribeTableRequest req;
    req.table_name = "Tab";
    return std::move(db_->DescribeTable(req)).value();
  };
  // What a Scan of the index returns is its entries: count and size them.
  auto scanned = [&](const std::string& index) {
    ScanRequest scan;
    scan.table_name = "Tab";
    scan.read.index_name = index;
    ScanResult r = std::move(db_->Scan(scan)).value();
    int64_t bytes = 0;
    for (const Item& item : r.items) bytes += ItemSize(item) + 100;
    return std::pair<int64_t, int64_t>{r.count, bytes};
  };
  auto expect_counted = [&] {
    ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
    TableDescription d = describe();
    for (const auto& g : d.global_secondary_indexes) {
      EXPECT_EQ(std::make_pair(g.item_count, g.index_size_bytes), scanned(g.def.index_name))
          << g.def.index_name;
    }
    ASSERT_EQ(d.local_secondary_indexes.size(), 1u);
    EXPECT_EQ(std::make_pair(d.local_secondary_indexes[0].item_count,
                             d.local_secondary_indexes[0].index_size_bytes),
              scanned("ByL"));
    EXPECT_OK(db_->VerifyIndexes(Scope(), "Tab"));  // compares the counters too
  };
  for (int i = 0; i < 12; ++i) {
    Item item = MakeItem("p" + std::to_string(i % 4), std::to_string(i), "g", i);
    if (i % 3 == 0) item.erase("gs");  // not in ByG
    ASSERT_OK(Put(item));
  }
  expect_counted();
  EXPECT_EQ(describe().global_secondary_indexes[0].item_count, 8);
  EXPECT_EQ(describe().global_secondary_indexes[1].item_count, 12);
  EXPECT_GT(describe().global_secondary_indexes[0].index_size_bytes, 8 * 100);
  // A projected value grows, a key moves, an item leaves ByG, one goes.
  Item grown = MakeItem("p1", "1", "g", 1);
  grown["inc"] = S(std::string(500, 'x'));
  ASSERT_OK(Put(grown));
  ASSERT_OK(Put(MakeItem("p2", "2", "h", 20)));
  Item sparse = MakeItem("p0", "4", "g", 4);
  sparse.erase("gs");
  ASSERT_OK(Put(sparse));
  ASSERT_OK(Delete("p1", "5"));
  expect_counted();
  EXPECT_EQ(describe().global_secondary_indexes[0].item_count, 6);
  EXPECT_EQ(describe().local_secondary_indexes[0].item_count, 11);
}

TEST_F(EngineIndexTest, DeleteTableRemovesIndexEntries) {
  for (int i = 0; i < 5; ++i)
    ASSERT_OK(Put(MakeItem("p" + std::to_string(i), "s", "x", i)));
  DeleteTableRequest del;
  del.table_name = "Tab";
  ASSERT_OK(db_->DeleteTable(del).status());
  ASSERT_OK(db_->CreateTable(TableWithIndexes()).status());
  ASSERT_OK_AND_ASSIGN(QueryResult r, db_->Query(QueryG("x")));
  EXPECT_EQ(r.count, 0);
  ExpectConsistent();
}

// --- Item collections --------------------------------------------------------

class EngineItemCollectionTest : public EngineIndexTest {
 protected:
  static EngineOptions Small() {
    EngineOptions o = TestEngine::Options();
    o.item_collection_size_limit_bytes = 1000;
    return o;
  }
  EngineItemCollectionTest() : EngineIndexTest(Small()) {}
};

TEST_F(EngineItemCollectionTest, LimitAndMetrics) {
  PutItemRequest put;
  put.table_name = "Tab";
  put.item = MakeItem("a", "0", "x", 0);
  put.return_item_collection_metrics = ReturnItemCollectionMetrics::kSize;
  ASSERT_OK_AND_ASSIGN(PutItemResult r, db_->PutItem(put));
  ASSERT_TRUE(r.item_collection_metrics.has_value());
  EXPECT_EQ(RenderItem(r.item_collection_metrics->item_collection_key),
            RenderItem(Item{{"pk", S("a")}}));
  EXPECT_EQ(r.item_collection_metrics->size_estimate_lower_gb, 0.0);
  EXPECT_EQ(r.item_collection_metrics->size_estimate_upper_gb, 1.0);
  Status s;
  int n = 1;
  for (; n < 100 && s.ok(); ++n)
    s = Put(MakeItem("a", std::to_string(n), "x", n));
  EXPECT_THAT(s, StatusIs(ErrorCode::kItemCollectionSizeLimitExceeded,
                          Eq("Collection size exceeded.")));
  EXPECT_GT(n, 3);
  ASSERT_OK(Put(MakeItem("b", "1", "x", 1)));  // another collection
  ASSERT_OK(Delete("a", "0"));                 // shrinking is allowed
  ASSERT_OK(Put(MakeItem("a", "new", "x", 1)));
  // No metrics without SIZE, nor on a table without LSIs.
  put.return_item_collection_metrics = ReturnItemCollectionMetrics::kNone;
  put.item = MakeItem("c", "1", "x", 1);
  ASSERT_OK_AND_ASSIGN(r, db_->PutItem(put));
  EXPECT_FALSE(r.item_collection_metrics.has_value());
  ExpectConsistent();
}

// --- UpdateTable GlobalSecondaryIndexUpdates
// ----------------------------------

class EngineGsiUpdateTest : public EngineIndexTest {
 protected:
  static EngineOptions SmallSteps() {
    EngineOptions o = TestEngine::Options();
    o.gsi_backfill_chunk_items = 5;
    return o;
  }
  EngineGsiUpdateTest() : EngineIndexTest(SmallSteps()) {}

  static UpdateTableRequest CreateIndex(const std::string& name,
                                        const std::string& attr,
                                        AttrType type = AttrType::kS) {
    UpdateTableRequest req;
    req.table_name = "Tab";
    req.attribute_definitions = {{attr, type}};
    GlobalSecondaryIndexUpdate u;
    GlobalSecondaryIndexDef def;
    def.index_name = name;
    def.key_schema = {{attr, KeyType::kHash}};
    def.projection = {ProjectionType::kAll, {}};
    u.create = def;
    req.global_secondary_index_updates =
        std::vector<GlobalSecondaryIndexUpdate>{u};
    return req;
  }
  static UpdateTableRequest DeleteIndex(const std::string& name) {
    UpdateTableRequest req;
    req.table_name = "Tab";
    GlobalSecondaryIndexUpdate u;
    u.del = GlobalSecondaryIndexUpdate::DeleteAction{name};
    req.global_secondary_index_updates =
        std::vector<GlobalSecondaryIndexUpdate>{u};
    return req;
  }
  const GlobalSecondaryIndexDescription* Gsi(const TableDescription& d,
                                             const std::string& name) {
    for (const auto& g : d.global_secondary_indexes) {
      if (g.def.index_name == name) return &g;
    }
    return nullptr;
  }
  TableDescription Describe() {
    DescribeTableRequest req;
    req.table_name = "Tab";
    return std::move(db_->DescribeTable(req)).value();
  }
  QueryResult QueryH(const std::string& h) {
    QueryRequest req;
    req.table_name = "Tab";
    req.read.index_name = "ByH";
    req.key_condition_expression = "h = :h";
    req.read.expression_attribute_values =
        ExpressionAttributeValues{{":h", S(h)}};
    return std::move(db_->Query(req)).value();
  }
};

TEST_F(EngineGsiUpdateTest, CreateBackfillsWhileWritesContinue) {
  for (int i = 0; i < 60; ++i) {
    Item item = MakeItem("p" + std::to_string(i), "s", "x", i);
    item["h"] = S("h" + std::to_string(i % 3));
    if (i == 7) item["h"] = N("7");  // wrong type: left out by the backfill
    ASSERT_OK(Put(item));
  }
  ASSERT_OK_AND_ASSIGN(TableDescription d,
                       db_->UpdateTable(CreateIndex("ByH", "h")));
  EXPECT_EQ(d.table_status, TableStatus::kActive);  // zero delays in tests
  ASSERT_NE(Gsi(d, "ByH"), nullptr);
  EXPECT_EQ(Gsi(d, "ByH")->index_status, TableStatus::kCreating);
  EXPECT_TRUE(Gsi(d, "ByH")->backfilling);
  // Reads of a backfilling index are refused.
  QueryRequest q;
  q.table_name = "Tab";
  q.read.index_name = "ByH";
  q.key_condition_expression = "h = :h";
  q.read.expression_attribute_values =
      ExpressionAttributeValues{{":h", S("h0")}};
  EXPECT_THAT(
      db_->Query(q).status(),
      StatusIs(ErrorCode::kValidation,
               Eq("Cannot read from backfilling global secondary index")));
  // Writes during the backfill: key changes, deletes, new items, and the
  // new index's type rule applies at once.
  ASSERT_OK(Delete("p3", "s"));
  Item changed = MakeItem("p19", "s", "x", 19);
  changed["h"] = S("h0");
  ASSERT_OK(Put(changed));
  Item fresh = MakeItem("q", "s", "x", 1);
  fresh["h"] = S("h0");
  ASSERT_OK(Put(fresh));
  Item bad = MakeItem("r", "s", "x", 1);
  bad["h"] = N("1");
  EXPECT_THAT(Put(bad),
              StatusIs(ErrorCode::kValidation, HasSubstr("IndexName: ByH")));
  DeleteTableRequest del;
  del.table_name = "Tab";
  EXPECT_THAT(
      db_->DeleteTable(del).status(),
      StatusIs(
          ErrorCode::kResourceInUse,
          Eq("Attempt to change a resource which is still in use: Cannot "
             "delete "
             "table while indexes are being created, updated, or deleted.")));
  // Each call moves the deterministic backfill one step (5 items).
  for (int i = 0; i < 20 && Gsi(Describe(), "ByH")->backfilling; ++i) {
  }
  d = Describe();
  EXPECT_EQ(Gsi(d, "ByH")->index_status, TableStatus::kActive);
  EXPECT_FALSE(Gsi(d, "ByH")->backfilling);
  EXPECT_EQ(d.attribute_definitions.size(), 6u);  // + h
  ExpectConsistent();
  // p0, p3, ..., p57 (20), less p3 (deleted), plus p19 (moved) and q.
  EXPECT_EQ(QueryH("h0").count, 21);
}

TEST_F(EngineGsiUpdateTest, WaitUntilIndexesCaughtUpFinishesABackfill) {
  for (int i = 0; i < 12; ++i) {
    Item item = MakeItem("p" + std::to_string(i), "s", "x", i);
    item["h"] = S("h");
    ASSERT_OK(Put(item));
  }
  ASSERT_OK(db_->UpdateTable(CreateIndex("ByH", "h")).status());
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  EXPECT_EQ(Gsi(Describe(), "ByH")->index_status, TableStatus::kActive);
  EXPECT_EQ(QueryH("h").count, 12);
  ExpectConsistent();
}

TEST_F(EngineGsiUpdateTest, DeleteRemovesTheIndexAndItsAttributeDefinition) {
  ASSERT_OK(Put(MakeItem("a", "1", "x", 3)));
  ASSERT_OK(db_->UpdateTable(DeleteIndex("ByG")).status());
  TableDescription d = Describe();
  EXPECT_EQ(Gsi(d, "ByG"), nullptr);
  for (const auto& a : d.attribute_definitions)
    EXPECT_NE(a.attribute_name, "gs");
  EXPECT_THAT(db_->Query(QueryG("x")).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq("The table does not have the specified index: ByG")));
  // The attribute is free again.
  Item any = MakeItem("b", "1", "x", 3);
  any["gs"] = S("text");
  ASSERT_OK(Put(any));
  ExpectConsistent();
  // Same name again, another key.
  ASSERT_OK(db_->UpdateTable(CreateIndex("ByG", "ox")).status());
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  ExpectConsistent();
}

TEST_F(EngineGsiUpdateTest, UpdateChangesProvisionedThroughput) {
  CreateTableRequest p = TableWithIndexes("Prv");
  p.billing_mode = BillingMode::kProvisioned;
  p.provisioned_throughput = ProvisionedThroughput{5, 5};
  for (auto& g : p.global_secondary_indexes)
    g.provisioned_throughput = ProvisionedThroughput{1, 1};
  ASSERT_OK(db_->CreateTable(p).status());
  UpdateTableRequest req;
  req.table_name = "Prv";
  GlobalSecondaryIndexUpdate u;
  u.update = GlobalSecondaryIndexUpdate::UpdateAction{"ByG", ProvisionedThroughput{3, 4}};
  req.global_secondary_index_updates =
      std::vector<GlobalSecondaryIndexUpdate>{u};
  ASSERT_OK_AND_ASSIGN(TableDescription d, db_->UpdateTable(req));
  EXPECT_EQ(Gsi(d, "ByG")->provisioned_throughput.read_capacity_units, 3);
  EXPECT_EQ(Gsi(d, "ByG")->provisioned_throughput.write_capacity_units, 4);
  EXPECT_THAT(
      db_->UpdateTable(req).status(),
      StatusIs(
          ErrorCode::kValidation,
          Eq("The provisioned throughput for the index ByG will not change. "
             "The "
             "requested value equals the current value. Current "
             "ReadCapacityUnits provisioned for index ByG: 3. Requested "
             "ReadCapacityUnits: 3. Current WriteCapacityUnits provisioned for "
             "index ByG: 4. Requested WriteCapacityUnits: 4. Refer to the "
             "Amazon "
             "DynamoDB Developer Guide for current limits and how to request "
             "higher limits.")));
  req.table_name = "Tab";  // PAY_PER_REQUEST
  EXPECT_THAT(
      db_->UpdateTable(req).status(),
      StatusIs(
          ErrorCode::kValidation,
          Eq("One or more parameter values were invalid: The only Updates for "
             "index: ByG when TableThroughputMode is PAY_PER_REQUEST can be to "
             "OnDemandThroughput, WarmThroughput")));
  // Switching to PROVISIONED needs every GSI's throughput.
  UpdateTableRequest to_provisioned;
  to_provisioned.table_name = "Tab";
  to_provisioned.billing_mode = BillingMode::kProvisioned;
  to_provisioned.provisioned_throughput = ProvisionedThroughput{1, 1};
  EXPECT_THAT(
      db_->UpdateTable(to_provisioned).status(),
      StatusIs(
          ErrorCode::kValidation,
          Eq("One or more parameter values were invalid: ProvisionedThroughput "
             "must be specified for index: ByG")));
}

TEST_F(EngineGsiUpdateTest, ValidationMessages) {
  auto error = [&](const UpdateTableRequest& req) {
    return db_->UpdateTable(req).status();
  };
  UpdateTableRequest req = CreateIndex("ByH", "h");
  GlobalSecondaryIndexUpdate empty;
  req.global_secondary_index_updates->push_back(empty);
  EXPECT_THAT(
      error(req),
      StatusIs(ErrorCode::kValidation,
               Eq("One or more parameter values were invalid: One of "
                  "GlobalSecondaryIndexUpdate.Update, "
                  "GlobalSecondaryIndexUpdate.Create, "
                  "GlobalSecondaryIndexUpdate.Delete must not be null")));
  req = CreateIndex("ByH", "h");
  (*req.global_secondary_index_updates)[0].del =
      GlobalSecondaryIndexUpdate::DeleteAction{"x"};
  EXPECT_THAT(error(req),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Only one "
                          "global secondary index action is allowed per "
                          "GlobalSecondaryIndexUpdate object")));
  req = DeleteIndex("ByG");
  req.global_secondary_index_updates->push_back(
      DeleteIndex("ByG").global_secondary_index_updates->at(0));
  EXPECT_THAT(error(req),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Only one "
                          "global secondary index update per index is allowed "
                          "simultaneously. Index: ByG")));
  req = DeleteIndex("ByG");
  req.global_secondary_index_updates->push_back(
      CreateIndex("ByH", "h").global_secondary_index_updates->at(0));
  EXPECT_THAT(
      error(req),
      StatusIs(ErrorCode::kLimitExceeded,
               Eq("Subscriber limit exceeded: Only 1 online index can be "
                  "created or deleted simultaneously per table")));
  EXPECT_THAT(
      error(DeleteIndex("Nope")),
      StatusIs(ErrorCode::kResourceNotFound,
               Eq("Requested resource not found: Index Nope for table Tab")));
  EXPECT_THAT(
      error(CreateIndex("ByL", "h")),
      StatusIs(ErrorCode::kValidation,
               Eq("Attempting to create an index which already exists")));
  req = CreateIndex("ByH", "h");
  req.attribute_definitions.clear();
  EXPECT_THAT(
      error(req),
      StatusIs(ErrorCode::kValidation,
               Eq("One or more parameter values were invalid: "
                  "AttributeDefinitions is not specified for index: ByH")));
  EXPECT_THAT(
      error(CreateIndex("ByH", "g", AttrType::kN)),
      StatusIs(
          ErrorCode::kValidation,
          Eq("One or more parameter values were invalid: Attributes cannot be "
             "redefined. Please check that your attribute has the same type as "
             "previously defined. Existing schema: Schema:[SchemaElement: "
             "key{g:S:HASH}] New schema: Schema:[SchemaElement: "
             "key{g:N:HASH}]")));
  req = CreateIndex("ByH", "h");
  req.deletion_protection_enabled = true;
  EXPECT_THAT(error(req),
              StatusIs(ErrorCode::kValidation,
                       Eq("DeletionProtection modification must be the only "
                          "operation in the request")));
  req = CreateIndex("ByH", "h");
  req.global_secondary_index_updates->clear();
  req.deletion_protection_enabled = true;
  EXPECT_THAT(error(req),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: List of "
                          "GlobalSecondaryIndexUpdates is empty")));
  req.deletion_protection_enabled.reset();
  EXPECT_THAT(error(req),
              StatusIs(ErrorCode::kValidation, HasSubstr("At least one of")));
  // One index at a time.
  for (int i = 0; i < 30; ++i)
    ASSERT_OK(Put(MakeItem("p" + std::to_string(i), "1", "x", 3)));
  ASSERT_OK(db_->UpdateTable(CreateIndex("ByH", "h")).status());
  EXPECT_THAT(
      error(CreateIndex("ByI", "i")),
      StatusIs(ErrorCode::kLimitExceeded, HasSubstr("Only 1 online index")));
}

// A GSI added by UpdateTable meets the projection rules of CreateTable, and
// the 100 projected attributes count those of the table's existing indexes
// (ByG projects one: "inc").
TEST_F(EngineGsiUpdateTest, CreateChecksTheProjectionAgainstEveryIndex) {
  auto with_projection = [](Projection p) {
    UpdateTableRequest req = CreateIndex("ByH", "h");
    (*req.global_secondary_index_updates)[0].create->projection = std::move(p);
    return req;
  };
  const std::string invalid = "One or more parameter values were invalid: ";
  EXPECT_THAT(db_->UpdateTable(with_projection({ProjectionType::kKeysOnly, {"a"}})).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq(invalid + "ProjectionType is KEYS_ONLY, but NonKeyAttributes "
                                    "is specified")));
  EXPECT_THAT(db_->UpdateTable(with_projection({ProjectionType::kInclude, {}})).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq(invalid + "NonKeyAttributes must not be empty")));
  EXPECT_THAT(
      db_->UpdateTable(with_projection({ProjectionType::kInclude, {"a", "a"}})).status(),
      StatusIs(ErrorCode::kValidation,
               Eq(invalid + "Duplicate NonKeyAttributes in projection: a")));
  std::vector<std::string> names;
  for (int i = 0; i < 100; ++i) names.push_back("a" + std::to_string(i));
  EXPECT_THAT(db_->UpdateTable(with_projection({ProjectionType::kInclude, names})).status(),
              StatusIs(ErrorCode::kValidation,
                       Eq(invalid + "Number of projected attributes in all indexes "
                                    "exceeds limit of 100, number of projected "
                                    "attributes: 101")));
  names.pop_back();
  ASSERT_OK(db_->UpdateTable(with_projection({ProjectionType::kInclude, names})).status());
  EXPECT_EQ(Gsi(Describe(), "ByH")->def.projection.non_key_attributes.size(), 99u);
}

// --- Restarts of an on-disk engine
// ----------------------------------------------

class EngineIndexRestartTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("dynarock-index-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
  }
  void TearDown() override {
    engine_.reset();
    std::filesystem::remove_all(dir_);
  }
  void Open(int64_t lag_micros = 0, int64_t chunk = 1000) {
    engine_.reset();
    EngineOptions o;
    o.path = dir_.string();
    o.clock = &clock_;
    o.table_create_delay_micros = 0;
    o.table_delete_delay_micros = 0;
    o.gsi_lag_micros = lag_micros;
    o.gsi_backfill_chunk_items = chunk;
    engine_ = std::move(Engine::Open(o)).value();
  }

  SimulatedClock clock_;
  std::filesystem::path dir_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(EngineIndexRestartTest, PendingGsiChangesSurviveARestart) {
  Open(/*lag_micros=*/1'000'000'000);
  ASSERT_OK(engine_->CreateTable(TableWithIndexes()).status());
  for (int i = 0; i < 10; ++i) {
    PutItemRequest put;
    put.table_name = "Tab";
    put.item = MakeItem("p" + std::to_string(i), "s", "x", i);
    ASSERT_OK(engine_->PutItem(put).status());
  }
  EXPECT_THAT(engine_->VerifyIndexes(Scope(), "Tab"),
              StatusIs(ErrorCode::kInternal, HasSubstr("missing 10")));
  Open(/*lag_micros=*/0);  // the log was not applied before the restart
  ASSERT_OK(engine_->PropagateIndexes());
  EXPECT_OK(engine_->VerifyIndexes(Scope(), "Tab"));
}

TEST_F(EngineIndexRestartTest, RandomWritesAndRestartsEndConsistent) {
  Open(/*lag_micros=*/0, /*chunk=*/7);
  ASSERT_OK(engine_->CreateTable(TableWithIndexes()).status());
  std::mt19937 rng(12345);
  bool creating = false;
  for (int round = 0; round < 6; ++round) {
    SetIndexLagRequest lag;
    lag.table_name = "Tab";
    lag.index_name = "ByG";
    lag.lag_micros = (rng() % 3) * 1000;
    ASSERT_OK(engine_->SetIndexLag(lag));
    for (int i = 0; i < 150; ++i) {
      const std::string pk = "k" + std::to_string(rng() % 30);
      const std::string sk = std::to_string(rng() % 3);
      const int op = static_cast<int>(rng() % 10);
      if (op < 2) {
        DeleteItemRequest del;
        del.table_name = "Tab";
        del.key = Item{{"pk", S(pk)}, {"sk", S(sk)}};
        ASSERT_OK(engine_->DeleteItem(del).status());
      } else if (op < 4) {
        UpdateItemRequest up;
        up.table_name = "Tab";
        up.key = Item{{"pk", S(pk)}, {"sk", S(sk)}};
        up.update_expression = rng() % 2 ? "SET g = :g, h = :g" : "REMOVE gs";
        up.expression_attribute_values =
            up.update_expression->starts_with("SET")
                ? std::optional<ExpressionAttributeValues>(
                      ExpressionAttributeValues{
                          {":g", S("g" + std::to_string(rng() % 4))}})
                : std::nullopt;
        ASSERT_OK(engine_->UpdateItem(up).status());
      } else {
        PutItemRequest put;
        put.table_name = "Tab";
        put.item = MakeItem(pk, sk, "g" + std::to_string(rng() % 4),
                            static_cast<int>(rng() % 5),
                            "l" + std::to_string(rng() % 3));
        put.item["h"] = S("h" + std::to_string(rng() % 3));
        ASSERT_OK(engine_->PutItem(put).status());
      }
      clock_.Advance(rng() % 700);
    }
    // Now and then add or drop an index, and restart mid-way.
    if (round == 1) {
      UpdateTableRequest req;
      req.table_name = "Tab";
      req.attribute_definitions = {{"h", AttrType::kS}};
      GlobalSecondaryIndexUpdate u;
      GlobalSecondaryIndexDef def;
      def.index_name = "ByH";
      def.key_schema = {{"h", KeyType::kHash}, {"sk", KeyType::kRange}};
      def.projection = {ProjectionType::kInclude, {"g"}};
      u.create = def;
      req.global_secondary_index_updates =
          std::vector<GlobalSecondaryIndexUpdate>{u};
      ASSERT_OK(engine_->UpdateTable(req).status());
      creating = true;
    }
    if (round == 4 && creating) {
      ASSERT_OK(engine_->WaitUntilIndexesCaughtUp());
      UpdateTableRequest req;
      req.table_name = "Tab";
      GlobalSecondaryIndexUpdate u;
      u.del = GlobalSecondaryIndexUpdate::DeleteAction{"KeysOnly"};
      req.global_secondary_index_updates =
          std::vector<GlobalSecondaryIndexUpdate>{u};
      ASSERT_OK(engine_->UpdateTable(req).status());
    }
    Open(/*lag_micros=*/static_cast<int64_t>(rng() % 2) * 5000, /*chunk=*/7);
  }
  ASSERT_OK(engine_->WaitUntilIndexesCaughtUp());
  EXPECT_OK(engine_->VerifyIndexes(Scope(), "Tab"));
}

}  // namespace
}  // namespace dynarock
