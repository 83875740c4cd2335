// bench/engine/vector/vector_bench.cc
//
// What vector indexes give and cost (issue 39; docs/vector-search.md), in
// one run, as ratios against baselines measured in the same run:
//
// 1. Recall@10 of the HNSW graph (engine/vector/vector_graphs.h, its
//    default GraphOptions) against exact search (every vector
//    compared), on N vectors of 128 dimensions (N = 100,000 unless
//    VECTORS=n), random (uniform) and clustered (100 Gaussian clusters),
//    for COSINE, EUCLIDEAN and DOT_PRODUCT; 200 queries each, drawn from
//    the data's distribution.
// 2. Searches/s through the graph against exact search of the same
//    partition (the brute-force scan), TopK 10.
// 3. Build rate (vectors/s into the graph) and memory per vector (the
//    graph's estimate, VectorGraphs::MemoryBytes, over the count).
// 4. PutItem cost with one vector index against none: an in-memory Engine,
//    PUTS items (20,000 unless PUTS=n) of 128 dimensions, including the
//    propagation (WaitUntilIndexesCaughtUp at the end); the ratio
//    none / one (higher = the index costs more).
//
// Not run by CI (minutes at N = 100,000): build-vec/bench/vector_bench.
// M=, EF_CONSTRUCTION=, EF_SEARCH= override the graph's defaults (for
// tuning); DATA=random|clustered and FUNCS=cosine,euclidean,dot choose the
// configurations; PUTS=0 skips part 4.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <queue>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "engine/engine.h"
#include "engine/value/item_codec.h"
#include "engine/vector/vector_graphs.h"

namespace dynarock::bench {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kDims = 128;
constexpr uint32_t kIndex = 1;

double Seconds(Clock::time_point since) {
  return std::chrono::duration<double>(Clock::now() - since).count();
}

int64_t EnvOr(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr ? std::atoll(v) : fallback;
}

// n vectors, uniform in [-1, 1] or around 100 cluster centres (sigma
// 0.15). The centres come from a fixed seed, so that queries drawn with
// another `seed` come from the same distribution as the data (queries far
// from every cluster would measure something else).
std::vector<std::vector<float>> Data(size_t n, bool clustered, uint32_t seed) {
  std::mt19937 centre_rng(1);
  std::uniform_real_distribution<float> u(-1, 1);
  std::normal_distribution<float> g(0, 0.15f);
  std::vector<std::vector<float>> centers(100, std::vector<float>(kDims));
  for (auto& c : centers) {
    for (float& x : c) x = u(centre_rng);
  }
  std::mt19937 rng(seed);
  std::vector<std::vector<float>> out(n, std::vector<float>(kDims));
  for (auto& v : out) {
    const auto& c = centers[rng() % centers.size()];
    for (int i = 0; i < kDims; ++i) v[i] = clustered ? c[i] + g(rng) : u(rng);
  }
  return out;
}

AttributeValue Vec(const std::vector<float>& v) {
  AttributeValue::List list;
  list.reserve(v.size());
  char text[32];
  for (float x : v) {
    std::snprintf(text, sizeof text, "%.7g", x);
    list.push_back(AttributeValue::N(Number::Parse(text).value()));
  }
  return AttributeValue::L(std::move(list));
}

std::string Key(size_t i) { return "k" + std::to_string(i); }

void Check(const Status& s) {
  if (!s.ok()) {
    std::fprintf(stderr, "error: %s\n", s.ToString().c_str());
    std::exit(1);
  }
}

void GraphFigures(VectorDistanceFunction f, bool clustered, size_t n,
                  const vector::GraphOptions& options) {
  const auto data = Data(n, clustered, 1);
  const auto queries = Data(200, clustered, 2);
  auto def = std::make_shared<VectorIndexDef>();
  def->index_name = "emb";
  def->vector_attribute = "v";
  def->dimensions = kDims;
  def->distance_function = f;
  // The same entries in two graphs: one searched through HNSW, one exactly.
  vector::GraphOptions graph_options = options;
  graph_options.exact_below = 0;
  vector::VectorGraphs graph(graph_options);
  vector::VectorGraphs exact(
      vector::GraphOptions{.m = 4, .ef_construction = 8, .exact_below = n + 1});
  graph.Register(kIndex, def);
  exact.Register(kIndex, def);
  std::vector<std::string> values(n);
  for (size_t i = 0; i < n; ++i) EncodeItem({{"v", Vec(data[i])}}, &values[i]);
  auto start = Clock::now();
  for (size_t i = 0; i < n; ++i) {
    const std::string key = Key(i);
    Check(graph.Apply(kIndex, nullptr, &key, values[i]));
  }
  const double build = Seconds(start);
  // The exact baseline needs the vectors, not a good graph: build it with
  // the smallest effort (its graph is never searched).
  for (size_t i = 0; i < n; ++i) {
    const std::string key = Key(i);
    Check(exact.Apply(kIndex, nullptr, &key, values[i]));
  }
  int found = 0, total = 0;
  std::vector<std::vector<std::string>> truth;
  start = Clock::now();
  for (const auto& q : queries) {
    auto r = exact.Search(kIndex, q, 10, {});
    Check(r.status());
    std::vector<std::string> keys;
    for (const auto& h : r->hits) keys.push_back(h.entry_key);
    std::sort(keys.begin(), keys.end());
    truth.push_back(std::move(keys));
  }
  const double exact_s = Seconds(start);
  start = Clock::now();
  for (size_t qi = 0; qi < queries.size(); ++qi) {
    auto r = graph.Search(kIndex, queries[qi], 10, {});
    Check(r.status());
    for (const auto& h : r->hits) {
      found += std::binary_search(truth[qi].begin(), truth[qi].end(), h.entry_key);
    }
    total += 10;
  }
  const double graph_s = Seconds(start);
  const double q = static_cast<double>(queries.size());
  std::printf("%-11s %-9s  recall@10 %.4f  graph %7.0f/s  exact %6.0f/s  ratio %6.1f  "
              "build %6.0f vectors/s  memory %5.0f B/vector\n",
              std::string(VectorDistanceFunctionName(f)).c_str(),
              clustered ? "clustered" : "random", static_cast<double>(found) / total,
              q / graph_s, q / exact_s, exact_s / graph_s, static_cast<double>(n) / build,
              static_cast<double>(graph.MemoryBytes(kIndex)) / static_cast<double>(n));
  std::fflush(stdout);
}

double PutSeconds(bool with_index, int64_t puts) {
  EngineOptions options;
  options.in_memory = true;
  auto engine = std::move(Engine::Open(options)).value();
  CreateTableRequest create;
  create.table_name = "bench";
  create.attribute_definitions = {{"pk", AttrType::kS}};
  create.key_schema = {{"pk", KeyType::kHash}};
  create.billing_mode = BillingMode::kPayPerRequest;
  if (with_index) {
    VectorIndexDef def;
    def.index_name = "emb";
    def.vector_attribute = "v";
    def.dimensions = kDims;
    def.distance_function = VectorDistanceFunction::kCosine;
    def.projection.type = ProjectionType::kKeysOnly;
    create.vector_indexes = {def};
  }
  Check(engine->CreateTable(create).status());
  // Ready: wait out CREATING.
  for (int i = 0; i < 10000; ++i) {
    DescribeTableRequest d;
    d.table_name = "bench";
    auto r = engine->DescribeTable(d);
    if (r.ok() && r->table_status == TableStatus::kActive) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const auto data = Data(static_cast<size_t>(puts), false, 3);
  std::vector<Item> items;
  for (int64_t i = 0; i < puts; ++i) {
    items.push_back({{"pk", AttributeValue::S(Key(i))}, {"v", Vec(data[i])}});
  }
  const auto start = Clock::now();
  for (Item& item : items) {
    PutItemRequest req;
    req.table_name = "bench";
    req.item = std::move(item);
    Check(engine->PutItem(req).status());
  }
  Check(engine->WaitUntilIndexesCaughtUp());
  return Seconds(start);
}

}  // namespace
}  // namespace dynarock::bench

int main() {
  using namespace dynarock;
  using namespace dynarock::bench;
  const size_t n = static_cast<size_t>(EnvOr("VECTORS", 100000));
  const int64_t puts = EnvOr("PUTS", 20000);
  // The graph's options: the defaults unless M, EF_CONSTRUCTION or
  // EF_SEARCH say otherwise (to tune them); DATA=random|clustered and
  // FUNCS=cosine,euclidean,dot (a comma list) choose what is measured.
  vector::GraphOptions options;
  options.m = static_cast<size_t>(EnvOr("M", static_cast<int64_t>(options.m)));
  options.ef_construction = static_cast<size_t>(
      EnvOr("EF_CONSTRUCTION", static_cast<int64_t>(options.ef_construction)));
  options.ef_search =
      static_cast<size_t>(EnvOr("EF_SEARCH", static_cast<int64_t>(options.ef_search)));
  const std::string data = std::getenv("DATA") != nullptr ? std::getenv("DATA") : "";
  const std::string funcs = std::getenv("FUNCS") != nullptr ? std::getenv("FUNCS") : "";
  std::printf("vector_bench: %zu vectors of %d dimensions, 200 queries, TopK 10, M %zu, "
              "ef_construction %zu, ef_search %zu\n",
              n, kDims, options.m, options.ef_construction, options.ef_search);
  for (bool clustered : {false, true}) {
    if (!data.empty() && data != (clustered ? "clustered" : "random")) continue;
    for (auto [f, name] : {std::pair{VectorDistanceFunction::kCosine, "cosine"},
                           std::pair{VectorDistanceFunction::kEuclidean, "euclidean"},
                           std::pair{VectorDistanceFunction::kDotProduct, "dot"}}) {
      if (!funcs.empty() && funcs.find(name) == std::string::npos) continue;
      GraphFigures(f, clustered, n, options);
    }
  }
  if (puts == 0) return 0;
  const double none = PutSeconds(false, puts);
  const double one = PutSeconds(true, puts);
  std::printf("PutItem (%lld items, 128 dimensions, propagation included): no index %.0f/s, "
              "one vector index %.0f/s, cost ratio %.2f\n",
              static_cast<long long>(puts), static_cast<double>(puts) / none,
              static_cast<double>(puts) / one, one / none);
  return 0;
}
