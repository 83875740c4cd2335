#include "engine/vector/vector_search.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

AttributeValue S(std::string s) { return AttributeValue::S(std::move(s)); }
AttributeValue N(double d) {
  char text[64];
  std::snprintf(text, sizeof text, "%.9g", d);
  return AttributeValue::N(Number::Parse(text).value());
}
AttributeValue Vec(const std::vector<float>& v) {
  AttributeValue::List list;
  for (float x : v) list.push_back(N(x));
  return AttributeValue::L(std::move(list));
}

VectorIndexDef Def(VectorDistanceFunction f, bool with_hash) {
  VectorIndexDef def;
  def.index_name = "emb";
  def.vector_attribute = "v";
  def.dimensions = 4;
  def.distance_function = f;
  if (with_hash) def.search_schema.push_back({"cat", SearchSchemaElementType::kHash});
  def.search_schema.push_back({"color", SearchSchemaElementType::kInlineFilter});
  def.projection.type = ProjectionType::kAll;
  return def;
}

struct Row {
  std::string pk;
  std::string cat;
  std::string color;
  std::vector<float> v;
};

double Distance(VectorDistanceFunction f, const std::vector<float>& a,
                const std::vector<float>& b) {
  double dot = 0, na = 0, nb = 0, l2 = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    dot += double{a[i]} * b[i];
    na += double{a[i]} * a[i];
    nb += double{b[i]} * b[i];
    l2 += (double{a[i]} - b[i]) * (double{a[i]} - b[i]);
  }
  switch (f) {
    case VectorDistanceFunction::kCosine:
      return 1 - dot / std::sqrt(na * nb);
    case VectorDistanceFunction::kEuclidean:
      return std::sqrt(l2);
    case VectorDistanceFunction::kDotProduct:
      return -dot;  // higher is better: sort ascending on -dot
  }
  return 0;
}

// Tables with a vector index, driven through the Engine (in memory,
// simulated clock; the GSI log is applied at each call).
class VectorSearchTest : public ::testing::Test {
 protected:
  Status Create(const std::string& table, VectorIndexDef def) {
    CreateTableRequest req = SimpleTable(table, /*with_sort=*/false);
    for (const SearchSchemaElement& e : def.search_schema) {
      req.attribute_definitions.push_back({e.attribute_name, AttrType::kS});
    }
    req.vector_indexes = {std::move(def)};
    return db_->CreateTable(req).status();
  }

  Status Put(const std::string& table, Item item) {
    PutItemRequest req;
    req.table_name = table;
    req.item = std::move(item);
    return db_->PutItem(req).status();
  }

  // `n` items: cat "a" for two thirds, color "red" for one in ten.
  std::vector<Row> Fill(const std::string& table, int n, uint32_t seed = 7) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<Row> rows;
    for (int i = 0; i < n; ++i) {
      Row r{"k" + std::to_string(i), i % 3 ? "a" : "b", i % 10 == 0 ? "red" : "blue",
            {u(rng), u(rng), u(rng), u(rng)}};
      Item item{{"pk", S(r.pk)}, {"cat", S(r.cat)}, {"color", S(r.color)},
                {"v", Vec(r.v)}, {"payload", S("p" + r.pk)}};
      EXPECT_OK(Put(table, std::move(item)));
      rows.push_back(std::move(r));
    }
    EXPECT_OK(db_->WaitUntilIndexesCaughtUp());
    return rows;
  }

  SearchVectorsRequest Search(const std::string& table, std::vector<float> q, int64_t k,
                              std::optional<std::string> condition = "cat = :c",
                              ExpressionAttributeValues values = {{":c", S("a")}}) {
    SearchVectorsRequest req;
    req.table_name = table;
    req.index_name = "emb";
    for (float x : q) req.search_vector.push_back(N(x));
    req.top_k = k;
    req.search_condition_expression = std::move(condition);
    if (!values.empty()) req.expression_attribute_values = std::move(values);
    return req;
  }

  static std::vector<std::string> Exact(VectorDistanceFunction f, const std::vector<Row>& rows,
                                        const std::vector<float>& q, size_t k,
                                        const std::string& cat = "a",
                                        const std::string& color = "") {
    std::vector<std::pair<double, std::string>> scored;
    for (const Row& r : rows) {
      if (!cat.empty() && r.cat != cat) continue;
      if (!color.empty() && r.color != color) continue;
      scored.emplace_back(Distance(f, r.v, q), r.pk);
    }
    std::sort(scored.begin(), scored.end());
    std::vector<std::string> out;
    for (size_t i = 0; i < std::min(k, scored.size()); ++i) out.push_back(scored[i].second);
    return out;
  }

  static std::vector<std::string> Keys(const SearchVectorsResult& r) {
    std::vector<std::string> out;
    for (const auto& hit : r.results) out.push_back(hit.item.at("pk").s());
    return out;
  }

  TestEngine db_;
};

TEST_F(VectorSearchTest, EveryDistanceFunctionAnswersTheExactNeighbours) {
  for (VectorDistanceFunction f :
       {VectorDistanceFunction::kCosine, VectorDistanceFunction::kEuclidean,
        VectorDistanceFunction::kDotProduct}) {
    const std::string table = "t" + std::string(VectorDistanceFunctionName(f));
    ASSERT_OK(Create(table, Def(f, /*with_hash=*/true)));
    const std::vector<Row> rows = Fill(table, 150);
    const std::vector<float> q = {0.3f, -0.1f, 0.7f, 0.2f};
    auto r = db_->SearchVectors(Search(table, q, 10));
    ASSERT_OK(r.status());
    EXPECT_THAT(Keys(*r), ElementsAreArray(Exact(f, rows, q, 10))) << table;
    // Scores as DynamoDB reports them: COSINE 0..2 and EUCLIDEAN lower
    // first, DOT_PRODUCT higher first.
    for (size_t i = 0; i < r->results.size(); ++i) {
      const Row& row = *std::find_if(rows.begin(), rows.end(), [&](const Row& x) {
        return x.pk == r->results[i].item.at("pk").s();
      });
      const double d = Distance(f, row.v, q);
      EXPECT_NEAR(r->results[i].score, f == VectorDistanceFunction::kDotProduct ? -d : d, 1e-4);
    }
    EXPECT_GT(r->vector_search_request_bytes, 0);
  }
}

TEST_F(VectorSearchTest, SelectiveInlineFilterStillReturnsTopK) {
  ASSERT_OK(Create("tv1", Def(VectorDistanceFunction::kEuclidean, true)));
  const std::vector<Row> rows = Fill("tv1", 300);
  const std::vector<float> q = {0.1f, 0.2f, 0.3f, 0.4f};
  auto r = db_->SearchVectors(Search("tv1", q, 15, "cat = :c AND color = :r",
                                     {{":c", S("a")}, {":r", S("red")}}));
  ASSERT_OK(r.status());
  EXPECT_THAT(Keys(*r), ElementsAreArray(Exact(VectorDistanceFunction::kEuclidean, rows, q,
                                               15, "a", "red")));
  EXPECT_EQ(r->results.size(), 15u);
}

TEST_F(VectorSearchTest, WritesMoveTheIndex) {
  ASSERT_OK(Create("tv1", Def(VectorDistanceFunction::kEuclidean, false)));
  ASSERT_OK(Put("tv1", {{"pk", S("x")}, {"v", Vec({1, 0, 0, 0})}}));
  ASSERT_OK(Put("tv1", {{"pk", S("y")}, {"v", Vec({0, 1, 0, 0})}}));
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  auto r = db_->SearchVectors(Search("tv1", {1, 0, 0, 0}, 1, std::nullopt, {}));
  ASSERT_OK(r.status());
  EXPECT_THAT(Keys(*r), ElementsAreArray({"x"}));
  // x moves away, y is removed: z alone remains near.
  ASSERT_OK(Put("tv1", {{"pk", S("x")}, {"v", Vec({-5, 0, 0, 0})}}));
  DeleteItemRequest del;
  del.table_name = "tv1";
  del.key = {{"pk", S("y")}};
  ASSERT_OK(db_->DeleteItem(del).status());
  ASSERT_OK(Put("tv1", {{"pk", S("z")}, {"v", Vec({0.9f, 0, 0, 0})}}));
  // Without its vector an item leaves the index (not indexed, not refused).
  ASSERT_OK(Put("tv1", {{"pk", S("w")}}));
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  r = db_->SearchVectors(Search("tv1", {1, 0, 0, 0}, 5, std::nullopt, {}));
  ASSERT_OK(r.status());
  EXPECT_THAT(Keys(*r), ElementsAreArray({"z", "x"}));
}

TEST_F(VectorSearchTest, DynamoDbsMessages) {
  ASSERT_OK(Create("tv1", Def(VectorDistanceFunction::kCosine, true)));
  Fill("tv1", 20);
  const std::vector<float> q = {1, 0, 0, 0};
  EXPECT_THAT(db_->SearchVectors(Search("tv1", q, 0)).status(),
              StatusIs(ErrorCode::kValidation, "Provided TopK value is out of valid range"));
  EXPECT_THAT(db_->SearchVectors(Search("tv1", q, 101)).status(),
              StatusIs(ErrorCode::kValidation, "Provided TopK value is out of valid range"));
  EXPECT_THAT(
      db_->SearchVectors(Search("tv1", q, 3, std::nullopt, {})).status(),
      StatusIs(ErrorCode::kValidation,
               "SearchConditionExpression must be provided when SearchSchema has a HASH key"));
  EXPECT_THAT(
      db_->SearchVectors(Search("tv1", q, 3, "color = :c")).status(),
      StatusIs(ErrorCode::kValidation,
               "SearchConditionExpression must be provided when SearchSchema has a HASH key"));
  for (const char* bad : {"cat > :c", "cat = :c OR cat = :c", "NOT cat = :c",
                          "begins_with(cat, :c)", "cat IN (:c)", "cat <> :c"}) {
    EXPECT_THAT(db_->SearchVectors(Search("tv1", q, 3, bad)).status(),
                StatusIs(ErrorCode::kValidation,
                         "Invalid comparator used in SearchConditionExpression"))
        << bad;
  }
  EXPECT_THAT(db_->SearchVectors(Search("tv1", q, 3, "cat = :c AND payload = :c")).status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("SearchSchema")));
  EXPECT_THAT(db_->SearchVectors(Search("tv1", {1, 0}, 3)).status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("dimensions")));
  SearchVectorsRequest nan = Search("tv1", q, 3);
  nan.search_vector[1] = S("x");
  EXPECT_THAT(db_->SearchVectors(nan).status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("element 1")));
  SearchVectorsRequest huge = Search("tv1", q, 3);
  huge.search_vector[2] = AttributeValue::N(Number::Parse("9.9e125").value());
  EXPECT_THAT(db_->SearchVectors(huge).status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("32-bit float")));
  SearchVectorsRequest unknown = Search("tv1", q, 3);
  unknown.index_name = "nope";
  EXPECT_THAT(db_->SearchVectors(unknown).status(),
              StatusIs(ErrorCode::kValidation,
                       "The table does not have the specified index: nope"));
  SearchVectorsRequest projected = Search("tv1", q, 3);
  projected.projection_expression = "pk, payload";
  auto r = db_->SearchVectors(projected);
  ASSERT_OK(r.status());
  ASSERT_FALSE(r->results.empty());
  EXPECT_EQ(r->results[0].item.size(), 2u);
  // Query and Scan of a vector index are refused.
  ScanRequest scan;
  scan.table_name = "tv1";
  scan.read.index_name = "emb";
  EXPECT_THAT(db_->Scan(scan).status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("SearchVectors")));
  // A malformed vector is refused at the write, as DynamoDB does.
  EXPECT_THAT(Put("tv1", {{"pk", S("bad")}, {"cat", S("a")}, {"v", Vec({1, 2})}}),
              StatusIs(ErrorCode::kValidation, HasSubstr("dimensions")));
  EXPECT_THAT(Put("tv1", {{"pk", S("bad")}, {"cat", S("a")}, {"v", S("x")}}),
              StatusIs(ErrorCode::kValidation, HasSubstr("expected a list")));
}

TEST_F(VectorSearchTest, KeysOnlyProjectionAndProjectionExpression) {
  VectorIndexDef def = Def(VectorDistanceFunction::kEuclidean, false);
  def.projection.type = ProjectionType::kKeysOnly;
  ASSERT_OK(Create("tv1", def));
  Fill("tv1", 10);
  SearchVectorsRequest req = Search("tv1", {0, 0, 0, 0}, 2, std::nullopt, {});
  auto r = db_->SearchVectors(req);
  ASSERT_OK(r.status());
  ASSERT_EQ(r->results.size(), 2u);
  // The table key and the search schema; not the vector, not payload.
  EXPECT_TRUE(r->results[0].item.contains("pk"));
  EXPECT_FALSE(r->results[0].item.contains("v"));
  EXPECT_FALSE(r->results[0].item.contains("payload"));
  req.projection_expression = "payload";
  EXPECT_THAT(db_->SearchVectors(req).status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("payload")));
}

TEST_F(VectorSearchTest, OnDemandOnly) {
  CreateTableRequest req = SimpleTable("tv1", false);
  req.billing_mode = BillingMode::kProvisioned;
  req.provisioned_throughput = ProvisionedThroughput{5, 5};
  req.vector_indexes = {Def(VectorDistanceFunction::kCosine, false)};
  req.vector_indexes[0].search_schema.clear();
  EXPECT_THAT(db_->CreateTable(req).status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("on-demand")));
}

TEST_F(VectorSearchTest, UpdateTableBackfillsThenDeletes) {
  ASSERT_OK(db_->CreateTable(SimpleTable("tv1", false)).status());
  for (int i = 0; i < 30; ++i) {
    ASSERT_OK(Put("tv1", {{"pk", S("k" + std::to_string(i))},
                         {"v", Vec({static_cast<float>(i), 1, 0, 0})}}));
  }
  UpdateTableRequest up;
  up.table_name = "tv1";
  VectorIndexDef def = Def(VectorDistanceFunction::kDotProduct, false);
  def.search_schema.clear();
  up.vector_index_updates = std::vector<VectorIndexUpdate>{{.create = def}};
  auto created = db_->UpdateTable(up);
  ASSERT_OK(created.status());
  ASSERT_EQ(created->vector_indexes.size(), 1u);
  EXPECT_EQ(created->vector_indexes[0].index_status, TableStatus::kCreating);
  EXPECT_EQ(created->vector_indexes[0].backfilling, std::optional<bool>(true));
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  DescribeTableRequest describe;
  describe.table_name = "tv1";
  auto d = db_->DescribeTable(describe);
  ASSERT_OK(d.status());
  EXPECT_EQ(d->vector_indexes[0].index_status, TableStatus::kActive);
  EXPECT_EQ(d->vector_indexes[0].backfilling, std::optional<bool>(false));
  EXPECT_EQ(d->vector_indexes[0].item_count, 30);
  auto r = db_->SearchVectors(Search("tv1", {1, 0, 0, 0}, 2, std::nullopt, {}));
  ASSERT_OK(r.status());
  EXPECT_THAT(Keys(*r), ElementsAreArray({"k29", "k28"}));
  EXPECT_NEAR(r->results[0].score, 29.0, 1e-6);

  UpdateTableRequest drop;
  drop.table_name = "tv1";
  drop.vector_index_updates = std::vector<VectorIndexUpdate>{{.del = "emb"}};
  auto deleted = db_->UpdateTable(drop);
  ASSERT_OK(deleted.status());
  ASSERT_EQ(deleted->vector_indexes.size(), 1u);
  EXPECT_EQ(deleted->vector_indexes[0].index_status, TableStatus::kDeleting);
  d = db_->DescribeTable(describe);
  ASSERT_OK(d.status());
  EXPECT_TRUE(d->vector_indexes.empty());
  EXPECT_THAT(db_->SearchVectors(Search("tv1", {1, 0, 0, 0}, 2, std::nullopt, {})).status(),
              StatusIs(ErrorCode::kValidation,
                       "The table does not have the specified index: emb"));
}

TEST_F(VectorSearchTest, ARestoredTableRebuildsItsGraphs) {
  ASSERT_OK(Create("tv1", Def(VectorDistanceFunction::kEuclidean, true)));
  const std::vector<Row> rows = Fill("tv1", 60);
  CreateBackupRequest backup;
  backup.table_name = "tv1";
  backup.backup_name = "b1";
  auto b = db_->CreateBackup(backup);
  ASSERT_OK(b.status());
  RestoreTableFromBackupRequest restore;
  restore.target_table_name = "tv2";
  restore.backup_arn = b->backup_arn;
  ASSERT_OK(db_->RestoreTableFromBackup(restore).status());
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  const std::vector<float> q = {0.5f, 0.5f, -0.5f, 0};
  auto r = db_->SearchVectors(Search("tv2", q, 5));
  ASSERT_OK(r.status());
  EXPECT_THAT(Keys(*r),
              ElementsAreArray(Exact(VectorDistanceFunction::kEuclidean, rows, q, 5)));
}

TEST_F(VectorSearchTest, WritesReportVectorWriteRequestBytes) {
  ASSERT_OK(Create("tv1", Def(VectorDistanceFunction::kEuclidean, false)));
  PutItemRequest req;
  req.table_name = "tv1";
  req.item = {{"pk", S("x")}, {"v", Vec({1, 2, 3, 4})}};
  auto r = db_->PutItem(req);
  ASSERT_OK(r.status());
  ASSERT_TRUE(r->consumed_capacity.vector_indexes.contains("emb"));
  EXPECT_GT(r->consumed_capacity.vector_indexes.at("emb"), 0);
  // Write units are the table's alone.
  EXPECT_TRUE(r->consumed_capacity.global_secondary_indexes.empty());
}

TEST(SearchRequestBytesTest, FourBytesPerDimensionExaminedPlusReturned) {
  EXPECT_EQ(vector::SearchRequestBytes(128, 10, 500), 128 * 4 * 10 + 500);
}

}  // namespace
}  // namespace dynarock
