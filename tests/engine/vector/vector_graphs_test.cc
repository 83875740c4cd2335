#include "engine/vector/vector_graphs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::vector {
namespace {

using ::testing::ElementsAre;

constexpr uint32_t kIndex = 5;

AttributeValue S(std::string s) { return AttributeValue::S(std::move(s)); }
AttributeValue Vec(const std::vector<float>& v) {
  AttributeValue::List list;
  for (float x : v) {
    list.push_back(AttributeValue::N(Number::Parse(std::to_string(x)).value()));
  }
  return AttributeValue::L(std::move(list));
}

std::shared_ptr<const VectorIndexDef> Def(VectorDistanceFunction f, int64_t dims) {
  auto def = std::make_shared<VectorIndexDef>();
  def->index_name = "emb";
  def->vector_attribute = "v";
  def->dimensions = dims;
  def->distance_function = f;
  def->search_schema = {{"cat", SearchSchemaElementType::kHash},
                        {"color", SearchSchemaElementType::kInlineFilter}};
  return def;
}

std::string Value(const std::string& cat, const std::string& color,
                  const std::vector<float>& v) {
  std::string out;
  EncodeItem({{"cat", S(cat)}, {"color", S(color)}, {"v", Vec(v)}}, &out);
  return out;
}

// Every vector compared: the truth the graph is measured against.
class ExactSearcher {
 public:
  ExactSearcher(VectorDistanceFunction f, const std::vector<std::vector<float>>& data)
      : f_(f), data_(data) {}
  // The keys of the `k` nearest; with `rare`, only those with color rare.
  std::set<std::string> TopK(const std::vector<float>& q, size_t k, const std::string& rare) {
    std::vector<std::pair<double, size_t>> d;
    for (size_t i = 0; i < data_.size(); ++i) {
      if (!rare.empty() && i % 100 != 0) continue;
      double dot = 0, nq = 0, nv = 0, l2 = 0;
      for (size_t j = 0; j < q.size(); ++j) {
        dot += double{q[j]} * data_[i][j];
        nq += double{q[j]} * q[j];
        nv += double{data_[i][j]} * data_[i][j];
        l2 += (double{q[j]} - data_[i][j]) * (double{q[j]} - data_[i][j]);
      }
      const double score = f_ == VectorDistanceFunction::kCosine ? 1 - dot / std::sqrt(nq * nv)
                           : f_ == VectorDistanceFunction::kEuclidean ? l2
                                                                       : -dot;
      d.emplace_back(score, i);
    }
    std::sort(d.begin(), d.end());
    std::set<std::string> out;
    for (size_t i = 0; i < std::min(k, d.size()); ++i) out.insert("k" + std::to_string(d[i].second));
    return out;
  }

 private:
  VectorDistanceFunction f_;
  const std::vector<std::vector<float>>& data_;
};

// The graph's answer against every vector compared (the truth), on
// partitions large enough to go through the HNSW graph.
class VectorGraphsTest : public ::testing::Test {
 protected:
  VectorGraphsTest() : graphs_(GraphOptions{.exact_below = 50}) {}

  void Put(const std::string& key, const std::string& cat, const std::string& color,
           const std::vector<float>& v) {
    ASSERT_OK(graphs_.Apply(kIndex, nullptr, &key, Value(cat, color, v)));
  }

  static std::string Partition(const std::string& cat) {
    std::string p;
    keys::AppendOrdered(S(cat), &p);
    return p;
  }

  std::vector<std::string> Keys(const SearchOutcome& o) {
    std::vector<std::string> out;
    for (const SearchHit& h : o.hits) out.push_back(h.entry_key);
    return out;
  }

  VectorGraphs graphs_;
};

TEST_F(VectorGraphsTest, ExactOverSmallPartitionsWithScores) {
  graphs_.Register(kIndex, Def(VectorDistanceFunction::kEuclidean, 2));
  Put("a", "x", "red", {0, 0});
  Put("b", "x", "blue", {3, 4});
  Put("c", "y", "red", {1, 0});
  auto r = graphs_.Search(kIndex, std::vector<float>{0, 0}, 5, {Partition("x"), {}});
  ASSERT_OK(r.status());
  EXPECT_TRUE(r->exact);
  EXPECT_EQ(r->vectors, 2);
  EXPECT_THAT(Keys(*r), ElementsAre("a", "b"));
  EXPECT_DOUBLE_EQ(r->hits[1].score, 5.0);  // the distance, not its square
  r = graphs_.Search(kIndex, std::vector<float>{0, 0}, 5,
                     {Partition("x"), {{"color", S("blue")}}});
  ASSERT_OK(r.status());
  EXPECT_THAT(Keys(*r), ElementsAre("b"));
  // An unknown partition is empty; an unknown index is an error.
  r = graphs_.Search(kIndex, std::vector<float>{0, 0}, 5, {Partition("z"), {}});
  ASSERT_OK(r.status());
  EXPECT_TRUE(r->hits.empty());
  EXPECT_FALSE(graphs_.Search(7, std::vector<float>{0, 0}, 5, {}).ok());
}

TEST_F(VectorGraphsTest, DeletesMovesAndReinsertions) {
  graphs_.Register(kIndex, Def(VectorDistanceFunction::kEuclidean, 2));
  Put("a", "x", "red", {0, 0});
  Put("b", "x", "red", {1, 1});
  const std::string a = "a";
  ASSERT_OK(graphs_.Apply(kIndex, &a, nullptr, ""));
  EXPECT_EQ(graphs_.Count(kIndex), 1);
  Put("a", "y", "red", {0, 0});  // back, in another partition
  Put("b", "x", "red", {9, 9});  // moved within its partition
  auto r = graphs_.Search(kIndex, std::vector<float>{0, 0}, 5, {Partition("x"), {}});
  ASSERT_OK(r.status());
  EXPECT_THAT(Keys(*r), ElementsAre("b"));
  EXPECT_NEAR(r->hits[0].score, 9 * std::sqrt(2.0), 1e-5);
  r = graphs_.Search(kIndex, std::vector<float>{0, 0}, 5, {Partition("y"), {}});
  ASSERT_OK(r.status());
  EXPECT_THAT(Keys(*r), ElementsAre("a"));
  EXPECT_EQ(graphs_.Count(kIndex), 2);
  graphs_.Drop(kIndex);
  EXPECT_FALSE(graphs_.Has(kIndex));
}

TEST_F(VectorGraphsTest, GraphSearchRecallAndSelectiveFilters) {
  for (VectorDistanceFunction f :
       {VectorDistanceFunction::kCosine, VectorDistanceFunction::kEuclidean,
        VectorDistanceFunction::kDotProduct}) {
    // A graph the calibration keeps (it compares less than half the
    // vectors at the ef it settles on): the graph's own recall is tested.
    VectorGraphs graphs(GraphOptions{.ef_search = 32, .exact_below = 50, .max_compared = 1.0});
    graphs.Register(kIndex, Def(f, 16));
    std::mt19937 rng(11);
    std::normal_distribution<float> g;
    std::vector<std::vector<float>> data;
    for (int i = 0; i < 2000; ++i) {
      std::vector<float> v(16);
      for (float& x : v) x = g(rng);
      const std::string key = "k" + std::to_string(i);
      ASSERT_OK(graphs.Apply(kIndex, nullptr, &key,
                             Value("x", i % 100 == 0 ? "rare" : "common", v)));
      data.push_back(std::move(v));
    }
    ExactSearcher exact(f, data);
    int hits = 0, total = 0;
    for (int q = 0; q < 20; ++q) {
      std::vector<float> query(16);
      for (float& x : query) x = g(rng);
      auto r = graphs.Search(kIndex, query, 10, {Partition("x"), {}});
      ASSERT_OK(r.status());
      EXPECT_FALSE(r->exact);
      const std::set<std::string> truth = exact.TopK(query, 10, "");
      for (const SearchHit& h : r->hits) hits += truth.count(h.entry_key);
      total += 10;
      // One vector in a hundred passes: TopK still comes back, exactly.
      auto rare = graphs.Search(kIndex, query, 10, {Partition("x"), {{"color", S("rare")}}});
      ASSERT_OK(rare.status());
      ASSERT_EQ(rare->hits.size(), 10u);
      std::set<std::string> got;
      for (const SearchHit& h : rare->hits) got.insert(h.entry_key);
      EXPECT_EQ(got, exact.TopK(query, 10, "rare"));
    }
    EXPECT_GE(static_cast<double>(hits) / total, 0.95) << VectorDistanceFunctionName(f);
  }
}

// Calibration (GraphOptions): a graph that reaches the sample recall cheaply
// is searched at the ef found; one that cannot (a poor graph of
// high-dimension random data, or any graph when it may compare only a few
// vectors) is scanned, and its answer is exact. Deterministic: a fixed
// sample of a deterministic graph.
TEST_F(VectorGraphsTest, CalibrationChoosesTheGraphOrAScan) {
  auto fill = [](VectorGraphs* graphs, int dims, int n) {
    graphs->Register(kIndex, Def(VectorDistanceFunction::kEuclidean, dims));
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(-1, 1);
    std::vector<std::vector<float>> data;
    for (int i = 0; i < n; ++i) {
      std::vector<float> v(dims);
      for (float& x : v) x = u(rng);
      const std::string key = "k" + std::to_string(i);
      EXPECT_OK(graphs->Apply(kIndex, nullptr, &key, Value("x", "c", v)));
      data.push_back(std::move(v));
    }
    return data;
  };
  const std::vector<float> q2 = {0.1f, 0.2f};
  VectorGraphs easy(GraphOptions{.m = 8, .ef_construction = 64, .ef_search = 16,
                                 .exact_below = 50});
  fill(&easy, 2, 4000);
  ASSERT_OK_AND_ASSIGN(SearchOutcome o, easy.Search(kIndex, q2, 10, {Partition("x"), {}}));
  EXPECT_FALSE(o.exact);
  EXPECT_GE(o.ef, 16);
  EXPECT_LE(o.ef, 64);
  // The same graph may compare only 0.1 % of its vectors: scanned.
  VectorGraphs frugal(GraphOptions{.m = 8, .ef_construction = 64, .ef_search = 16,
                                   .exact_below = 50, .max_compared = 0.001});
  fill(&frugal, 2, 4000);
  ASSERT_OK_AND_ASSIGN(o, frugal.Search(kIndex, q2, 10, {Partition("x"), {}}));
  EXPECT_TRUE(o.exact);

  // 64 uniform random dimensions, a graph of 4 links, ef at most 16: the
  // sample's recall stays low, so searches scan, and answer exactly.
  VectorGraphs poor(GraphOptions{.m = 4, .ef_construction = 8, .ef_search = 16,
                                 .exact_below = 50, .ef_max = 16});
  const std::vector<std::vector<float>> data = fill(&poor, 64, 3000);
  const std::vector<float> q64(data[7].begin(), data[7].end());
  ASSERT_OK_AND_ASSIGN(o, poor.Search(kIndex, q64, 10, {Partition("x"), {}}));
  EXPECT_TRUE(o.exact);
  std::set<std::string> got;
  for (const SearchHit& h : o.hits) got.insert(h.entry_key);
  EXPECT_EQ(got, ExactSearcher(VectorDistanceFunction::kEuclidean, data).TopK(q64, 10, ""));
  // An explicit ef (bench/) searches the graph anyway.
  ASSERT_OK_AND_ASSIGN(o, poor.Search(kIndex, q64, 10, {Partition("x"), {}}, 16));
  EXPECT_FALSE(o.exact);
  EXPECT_EQ(o.ef, 16);
}

TEST_F(VectorGraphsTest, LoadRebuildsFromStoredEntries) {
  StoreOptions o;
  o.in_memory = true;
  auto store = std::move(Store::Open(o)).value();
  WriteBatch batch;
  const std::string prefix = keys::TablePrefix(kIndex);
  batch.Put(Cf::kIndexes, prefix + "a", Value("x", "red", {1, 0}));
  batch.Put(Cf::kIndexes, prefix + "b", Value("x", "red", {0, 1}));
  batch.Put(Cf::kIndexes, keys::TablePrefix(kIndex + 1) + "c", Value("x", "red", {1, 0}));
  ASSERT_OK(store->Write(&batch));
  graphs_.Register(kIndex, Def(VectorDistanceFunction::kCosine, 2));
  ASSERT_OK(graphs_.Load(*store, kIndex));
  EXPECT_EQ(graphs_.Count(kIndex), 2);
  auto r = graphs_.Search(kIndex, std::vector<float>{2, 0}, 1, {Partition("x"), {}});
  ASSERT_OK(r.status());
  EXPECT_THAT(Keys(*r), ElementsAre(prefix + "a"));
  EXPECT_NEAR(r->hits[0].score, 0.0, 1e-6);
  EXPECT_GT(graphs_.MemoryBytes(kIndex), 0);
}

}  // namespace
}  // namespace dynarock::vector
