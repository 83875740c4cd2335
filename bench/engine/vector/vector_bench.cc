// bench/engine/vector/vector_bench.cc
//
// What vector indexes give and cost (issue 39; docs/vector-search.md), in
// one run, as ratios against baselines measured in the same run:
//
// 1. Recall@10 of the HNSW graph (engine/vector/vector_graphs.h, its
//    default GraphOptions: each graph calibrates its ef, or chooses an
//    exact scan, as it grows) against exact search (every vector
//    compared), on N vectors of 128 dimensions (N = 100,000 unless
//    VECTORS=n), random (uniform) and clustered (100 Gaussian clusters),
//    for COSINE, EUCLIDEAN and DOT_PRODUCT; 200 queries each, drawn from
//    the data's distribution (not the data's own vectors).
// 2. Searches/s as SearchVectors searches (the line marked "calibrated")
//    against exact search of the same partition (the brute-force scan),
//    TopK 10, and the distance computations per graph search.
// 3. Build rate (vectors/s into the graph, calibrations included) and
//    memory per vector (the graph's estimate, VectorGraphs::MemoryBytes,
//    over the count).
// 4. PutItem cost with one vector index against none: an in-memory Engine,
//    PUTS items (20,000 unless PUTS=n) of 128 dimensions, including the
//    propagation (WaitUntilIndexesCaughtUp at the end); the ratio
//    none / one (higher = the index costs more).
//
// The 100,000-vector run takes minutes: not in CI, which runs a smoke
// (scripts/test.sh: VECTORS=12000 PUTS=500 MIN_RECALL=0.95). M=,
// EF_CONSTRUCTION= override the graph's defaults; EF_SEARCH=a,b,... also
// measures each fixed ef over the same graph (0: as SearchVectors
// searches); DATA=random|clustered and FUNCS=cosine,euclidean,dot choose
// the configurations; PUTS=0 skips part 4; MIN_RECALL=x exits 1 when the
// recall of a calibrated search is below x.

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

// Prints one line per ef of `efs`; returns the recall of the calibrated
// search (ef 0), 1 when not measured.
double GraphFigures(VectorDistanceFunction f, bool clustered, size_t n,
                    const vector::GraphOptions& options, const std::vector<size_t>& efs) {
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
  const double q = static_cast<double>(queries.size());
  double calibrated_recall = 1;
  // One line per ef_search over the same graph; 0: as SearchVectors
  // searches (the graph's calibrated ef, or an exact scan).
  for (size_t ef : efs) {
    int found = 0, total = 0;
    bool exact_scan = false;
    int64_t used_ef = 0;
    const int64_t compared_before = graph.GraphComparisons(kIndex);
    start = Clock::now();
    for (size_t qi = 0; qi < queries.size(); ++qi) {
      auto r = graph.Search(kIndex, queries[qi], 10, {}, ef);
      Check(r.status());
      exact_scan = r->exact;
      used_ef = r->ef;
      for (const auto& h : r->hits) {
        found += std::binary_search(truth[qi].begin(), truth[qi].end(), h.entry_key);
      }
      total += 10;
    }
    const double graph_s = Seconds(start);
    const double compared =
        static_cast<double>(graph.GraphComparisons(kIndex) - compared_before) / q;
    char mode[32];
    if (exact_scan) {
      std::snprintf(mode, sizeof mode, "%s scan", ef == 0 ? "calibrated" : "");
    } else {
      std::snprintf(mode, sizeof mode, "%s ef %lld", ef == 0 ? "calibrated" : "",
                    static_cast<long long>(used_ef));
    }
    std::printf("%-11s %-9s %-16s recall@10 %.4f  graph %7.0f/s  exact %6.0f/s  "
                "ratio %6.2f  compared %6.0f/search  build %6.0f vectors/s  "
                "memory %5.0f B/vector\n",
                std::string(VectorDistanceFunctionName(f)).c_str(),
                clustered ? "clustered" : "random", mode,
                static_cast<double>(found) / total, q / graph_s, q / exact_s,
                exact_s / graph_s, compared, static_cast<double>(n) / build,
                static_cast<double>(graph.MemoryBytes(kIndex)) / static_cast<double>(n));
    std::fflush(stdout);
    if (ef == 0) calibrated_recall = static_cast<double>(found) / total;
  }
  return calibrated_recall;
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
  const double min_recall =
      std::getenv("MIN_RECALL") != nullptr ? std::atof(std::getenv("MIN_RECALL")) : 0;
  bool failed = false;
  // The graph's options: the defaults unless M or EF_CONSTRUCTION say
  // otherwise (to tune them); DATA=random|clustered and
  // FUNCS=cosine,euclidean,dot (a comma list) choose what is measured.
  vector::GraphOptions options;
  options.m = static_cast<size_t>(EnvOr("M", static_cast<int64_t>(options.m)));
  options.ef_construction = static_cast<size_t>(
      EnvOr("EF_CONSTRUCTION", static_cast<int64_t>(options.ef_construction)));
  // EF_SEARCH may be a comma list: each is measured over the same graph.
  std::vector<size_t> efs;
  if (const char* list = std::getenv("EF_SEARCH")) {
    for (const char* p = list; *p != '\0';) {
      char* end;
      const unsigned long long ef = std::strtoull(p, &end, 10);
      if (end == p) break;
      efs.push_back(static_cast<size_t>(ef));
      p = *end == ',' ? end + 1 : end;
    }
  }
  if (efs.empty()) efs.push_back(0);
  const std::string data = std::getenv("DATA") != nullptr ? std::getenv("DATA") : "";
  const std::string funcs = std::getenv("FUNCS") != nullptr ? std::getenv("FUNCS") : "";
  std::printf("vector_bench: %zu vectors of %d dimensions, 200 queries, TopK 10, M %zu, "
              "ef_construction %zu, first ef %zu, max compared %.2f\n",
              n, kDims, options.m, options.ef_construction, options.ef_search,
              options.max_compared);
  for (bool clustered : {false, true}) {
    if (!data.empty() && data != (clustered ? "clustered" : "random")) continue;
    for (auto [f, name] : {std::pair{VectorDistanceFunction::kCosine, "cosine"},
                           std::pair{VectorDistanceFunction::kEuclidean, "euclidean"},
                           std::pair{VectorDistanceFunction::kDotProduct, "dot"}}) {
      if (!funcs.empty() && funcs.find(name) == std::string::npos) continue;
      const double recall = GraphFigures(f, clustered, n, options, efs);
      if (recall < min_recall) {
        std::printf("recall %.4f is below MIN_RECALL %.4f\n", recall, min_recall);
        failed = true;
      }
    }
  }
  if (puts == 0) return failed ? 1 : 0;
  const double none = PutSeconds(false, puts);
  const double one = PutSeconds(true, puts);
  std::printf("PutItem (%lld items, 128 dimensions, propagation included): no index %.0f/s, "
              "one vector index %.0f/s, cost ratio %.2f\n",
              static_cast<long long>(puts), static_cast<double>(puts) / none,
              static_cast<double>(puts) / one, one / none);
  return failed ? 1 : 0;
}
