#include "engine/vector/vector_graphs.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <optional>
#include <queue>
#include <unordered_map>

// hnswlib (Debian libhnswlib-dev, header only) is not written for -Wextra.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wunused-parameter"
#pragma GCC diagnostic ignored "-Wunused-variable"
// hnswlib 0.6.2's SSE path prefetches one link past the end of a node's
// link list (searchBaseLayer reads *(datal + j + 1) at the last j): the read
// feeds only a prefetch address and stays in mapped heap, but
// AddressSanitizer rightly reports it. Sanitizer builds use hnswlib's plain
// loops, which have no such read.
#if defined(__SANITIZE_ADDRESS__)
#define NO_MANUAL_VECTORIZATION
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NO_MANUAL_VECTORIZATION
#endif
#endif
#include <hnswlib/hnswlib.h>
#pragma GCC diagnostic pop

#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"
#include "engine/vector/vector_entry.h"

namespace dynarock::vector {
namespace {

constexpr size_t kInitialCapacity = 1024;

void Normalize(std::vector<float>* v) {
  double norm = 0;
  for (float x : *v) norm += static_cast<double>(x) * x;
  if (norm <= 0) return;  // a zero vector stays zero: cosine distance 1
  const float inv = static_cast<float>(1.0 / std::sqrt(norm));
  for (float& x : *v) x *= inv;
}

}  // namespace

// One partition's graph. Labels index `slots`; a deleted entry's label is
// marked deleted in the graph and taken again if its key comes back.
struct Graph {
  std::unique_ptr<hnswlib::SpaceInterface<float>> space;
  std::unique_ptr<hnswlib::HierarchicalNSW<float>> hnsw;
  struct Slot {
    std::string entry_key;
    std::vector<std::pair<std::string, AttributeValue>> filters;
    bool alive = false;
  };
  std::vector<Slot> slots;
  std::unordered_map<std::string, size_t> by_key;
  size_t alive = 0;
  // Calibration's outcome (GraphOptions): the ef searches use, or an exact
  // scan; `calibrated_at` is the vector count it was decided at (0: not
  // yet, and a partition above exact_below is scanned until it is).
  size_t ef = 0;
  bool scan = false;
  size_t calibrated_at = 0;
  // The calibration under way: per ef tried (ef_search, 2x ... ef_max),
  // the true neighbours found and wanted, and the graph's comparisons.
  struct Probe {
    // Declared, not defaulted in place: clang cannot default-construct a
    // nested struct with member initializers inside its enclosing class
    // (std::optional<Probe>::emplace() refused it).
    Probe() {}
    size_t queries = 0;
    std::vector<size_t> found, wanted;
    std::vector<double> compared;
  };
  std::optional<Probe> probe;

  // (distance, label) of every live vector `keep` accepts, unordered.
  template <typename Keep>
  std::vector<std::pair<float, size_t>> Scan(const float* q, const Keep& keep) const {
    std::vector<std::pair<float, size_t>> out;
    out.reserve(alive);
    auto dist = space->get_dist_func();
    void* param = space->get_dist_func_param();
    for (hnswlib::tableint i = 0; i < hnsw->cur_element_count; ++i) {
      const size_t label = hnsw->getExternalLabel(i);
      if (!slots[label].alive || !keep(label)) continue;
      out.emplace_back(dist(q, hnsw->getDataByInternalId(i), param), label);
    }
    return out;
  }
};

namespace {

constexpr size_t kCalibrationTopK = 10;
constexpr size_t kCalibrationMinVectors = 1000;

// Calibration (GraphOptions). A vector about to be added to `g` is first a
// held-out query: its exact 10 nearest against the graph's at each ef tried.
// (A vector already in the graph is no fair query: the search walks to it
// and its own links are its neighbours.) After calibration_queries of them
// the smallest ef whose recall reaches calibration_recall while comparing
// at most max_compared of the vectors per search is kept; none: the
// partition is scanned. Deterministic: the same inserts, the same graph.
void ProbeWith(Graph& g, const float* q, const GraphOptions& o) {
  Graph::Probe& p = *g.probe;
  auto all = g.Scan(q, [](size_t) { return true; });
  const size_t k = std::min(kCalibrationTopK, all.size());
  std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(k), all.end());
  std::vector<size_t> truth;
  for (size_t j = 0; j < k; ++j) truth.push_back(all[j].second);
  std::sort(truth.begin(), truth.end());
  size_t level = 0;
  for (size_t ef = std::max(o.ef_search, kCalibrationTopK); ef <= o.ef_max; ef *= 2, ++level) {
    if (p.found.size() <= level) {
      p.found.push_back(0);
      p.wanted.push_back(0);
      p.compared.push_back(0);
    }
    const long before = g.hnsw->metric_distance_computations.load();
    auto result = g.hnsw->searchKnn(q, std::min(ef, g.alive));
    p.compared[level] += static_cast<double>(g.hnsw->metric_distance_computations.load() - before);
    while (result.size() > k) result.pop();  // the farthest first
    while (!result.empty()) {
      p.found[level] += std::binary_search(truth.begin(), truth.end(), result.top().second);
      result.pop();
    }
    p.wanted[level] += k;
  }
  ++p.queries;
}

void Decide(Graph& g, const GraphOptions& o) {
  const Graph::Probe& p = *g.probe;
  g.scan = true;
  const double max_compared = o.max_compared * static_cast<double>(g.alive);
  size_t ef = std::max(o.ef_search, kCalibrationTopK);
  for (size_t level = 0; level < p.found.size(); ++level, ef *= 2) {
    if (p.compared[level] / static_cast<double>(p.queries) > max_compared) break;
    if (static_cast<double>(p.found[level]) >=
        o.calibration_recall * static_cast<double>(p.wanted[level])) {
      g.ef = ef;
      g.scan = false;
      break;
    }
  }
  g.calibrated_at = g.alive;
  g.probe.reset();
}

}  // namespace

struct VectorGraphs::Index {
  std::shared_ptr<const VectorIndexDef> def;
  mutable SharedMutex mu;
  std::map<std::string, Graph> graphs GUARDED_BY(mu);  // by partition
  std::unordered_map<std::string, std::string> partition_of GUARDED_BY(mu);

  // Takes the entry `key` out of its partition's graph (marked deleted),
  // if it is there.
  void Remove(const std::string& key) REQUIRES(mu) {
    auto p = partition_of.find(key);
    if (p == partition_of.end()) return;
    Graph& g = graphs[p->second];
    auto s = g.by_key.find(key);
    if (s != g.by_key.end() && g.slots[s->second].alive) {
      g.hnsw->markDelete(s->second);
      g.slots[s->second].alive = false;
      g.slots[s->second].filters.clear();
      --g.alive;
    }
  }

  // The stored form of `v` (unit length for COSINE).
  std::vector<float> Prepare(std::vector<float> v) const {
    if (def->distance_function == VectorDistanceFunction::kCosine) Normalize(&v);
    return v;
  }
  // hnswlib's distance as SearchVectors' score.
  double Score(float distance) const {
    switch (def->distance_function) {
      case VectorDistanceFunction::kCosine:
        return std::clamp<double>(distance, 0.0, 2.0);  // 1 - cos
      case VectorDistanceFunction::kEuclidean:
        return std::sqrt(std::max(0.0f, distance));  // L2Space is squared
      case VectorDistanceFunction::kDotProduct:
        return 1.0 - static_cast<double>(distance);  // InnerProductSpace: 1 - dot
    }
    return distance;
  }
};

VectorGraphs::VectorGraphs(GraphOptions options) : options_(options) {}
VectorGraphs::~VectorGraphs() = default;

void VectorGraphs::Register(uint32_t index_id, std::shared_ptr<const VectorIndexDef> def) {
  MutexLock lock(&mu_);
  auto& slot = indexes_[index_id];
  if (slot) return;
  slot = std::make_shared<Index>();
  slot->def = std::move(def);
}

void VectorGraphs::Drop(uint32_t index_id) {
  MutexLock lock(&mu_);
  indexes_.erase(index_id);
}

bool VectorGraphs::Has(uint32_t index_id) const { return Find(index_id) != nullptr; }

std::shared_ptr<VectorGraphs::Index> VectorGraphs::Find(uint32_t index_id) const {
  MutexLock lock(&mu_);
  auto it = indexes_.find(index_id);
  return it == indexes_.end() ? nullptr : it->second;
}

Status VectorGraphs::Apply(uint32_t index_id, const std::string* delete_key,
                           const std::string* put_key, std::string_view put_value) {
  std::shared_ptr<Index> index = Find(index_id);
  if (!index) return Status::OK();
  WriterMutexLock lock(&index->mu);
  try {
    if (delete_key != nullptr) index->Remove(*delete_key);
    if (put_key == nullptr) return Status::OK();
    DR_ASSIGN_OR_RETURN(Item item, DecodeItem(put_value));
    const VectorIndexDef& def = *index->def;
    auto attr = item.find(def.vector_attribute);
    if (attr == item.end()) return Status::Corruption("vector entry without its vector");
    Result<std::vector<float>> floats = FloatsOf(attr->second, def.dimensions, "", "");
    if (!floats.ok()) return Status::Corruption("vector entry with a malformed vector");
    const std::vector<float> v = index->Prepare(std::move(*floats));
    const std::string partition = PartitionOf(def, item);
    auto known = index->partition_of.find(*put_key);
    if (known != index->partition_of.end() && known->second != partition) index->Remove(*put_key);
    index->partition_of[*put_key] = partition;
    Graph& g = index->graphs[partition];
    if (!g.hnsw) {
      const size_t dims = static_cast<size_t>(def.dimensions);
      if (def.distance_function == VectorDistanceFunction::kEuclidean) {
        g.space = std::make_unique<hnswlib::L2Space>(dims);
      } else {
        g.space = std::make_unique<hnswlib::InnerProductSpace>(dims);
      }
      g.hnsw = std::make_unique<hnswlib::HierarchicalNSW<float>>(
          g.space.get(), kInitialCapacity, options_.m, options_.ef_construction);
      g.hnsw->setEf(options_.ef_search);
      g.ef = options_.ef_search;
    }
    size_t label;
    auto s = g.by_key.find(*put_key);
    if (s != g.by_key.end()) {
      label = s->second;
    } else {
      label = g.slots.size();
      g.slots.push_back(Graph::Slot{*put_key, {}, false});
      g.by_key.emplace(*put_key, label);
      if (g.hnsw->cur_element_count == g.hnsw->max_elements_) {
        g.hnsw->resizeIndex(g.hnsw->max_elements_ * 2);
      }
    }
    Graph::Slot& slot = g.slots[label];
    slot.filters.clear();
    for (const SearchSchemaElement& e : def.search_schema) {
      if (e.type != SearchSchemaElementType::kInlineFilter) continue;
      auto f = item.find(e.attribute_name);
      if (f != item.end()) slot.filters.emplace_back(e.attribute_name, f->second);
    }
    if (!g.probe && g.alive >= std::max(options_.exact_below, kCalibrationMinVectors) &&
        2 * g.alive >= 3 * g.calibrated_at) {
      g.probe.emplace();
    }
    if (g.probe) {
      ProbeWith(g, v.data(), options_);
      if (g.probe->queries >= options_.calibration_queries) Decide(g, options_);
    }
    g.hnsw->addPoint(v.data(), label);
    if (!slot.alive) ++g.alive;
    slot.alive = true;
  } catch (const std::exception& e) {
    return Status::Internal(std::string("vector index: ") + e.what());
  }
  return Status::OK();
}

Status VectorGraphs::Load(const StoreReader& store, uint32_t index_id) {
  auto it = store.NewIterator(Cf::kIndexes, keys::TablePrefix(index_id),
                              keys::TableEnd(index_id));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    const std::string key(it->key());
    DR_RETURN_IF_ERROR(Apply(index_id, nullptr, &key, it->value()));
  }
  return it->status();
}

Result<SearchOutcome> VectorGraphs::Search(uint32_t index_id, std::span<const float> query,
                                           size_t top_k,
                                           const SearchFilter& filter,
                                           size_t ef_search) const {
  std::shared_ptr<Index> index = Find(index_id);
  if (!index) return Status::ResourceNotFound("vector index not loaded");
  ReaderMutexLock lock(&index->mu);
  SearchOutcome out;
  auto found = index->graphs.find(filter.partition);
  if (found == index->graphs.end() || found->second.alive == 0) return out;
  const Graph& g = found->second;
  out.vectors = static_cast<int64_t>(g.alive);
  const std::vector<float> q = index->Prepare({query.begin(), query.end()});
  auto passes = [&](const Graph::Slot& slot) {
    if (!slot.alive) return false;
    for (const auto& condition : filter.equals) {
      const std::string& name = condition.first;
      auto has = std::find_if(slot.filters.begin(), slot.filters.end(),
                              [&](const auto& f) { return f.first == name; });
      if (has == slot.filters.end() || !(has->second == condition.second)) return false;
    }
    return true;
  };
  std::vector<std::pair<float, size_t>> best;  // (distance, label)
  try {
    // Not calibrated yet, or calibrated to scan: exact (an explicit ef,
    // for bench/, searches the graph anyway).
    bool exact = g.alive <= options_.exact_below ||
                 (ef_search == 0 && (g.scan || g.calibrated_at == 0));
    if (!exact) {
      // Widen the graph search until TopK results pass the filter; past an
      // eighth of the partition, comparing every vector is cheaper.
      size_t k = std::max(top_k, ef_search > 0 ? ef_search : g.ef);
      out.ef = static_cast<int64_t>(k);
      while (true) {
        auto result = g.hnsw->searchKnn(q.data(), std::min(k, g.alive));
        best.clear();
        while (!result.empty()) {
          const auto [d, label] = result.top();
          result.pop();
          if (passes(g.slots[label])) best.emplace_back(d, label);
        }
        if (best.size() >= top_k || k >= g.alive) break;
        k *= 4;
        if (k > g.alive / 8) {
          exact = true;
          break;
        }
      }
    }
    if (exact) {
      out.exact = true;
      out.ef = 0;
      best = g.Scan(q.data(), [&](size_t label) { return passes(g.slots[label]); });
    }
  } catch (const std::exception& e) {
    return Status::Internal(std::string("vector search: ") + e.what());
  }
  const size_t n = std::min(top_k, best.size());
  std::partial_sort(best.begin(), best.begin() + n, best.end());
  best.resize(n);
  for (const auto& [d, label] : best) {
    out.hits.push_back(SearchHit{g.slots[label].entry_key, index->Score(d)});
  }
  return out;
}

int64_t VectorGraphs::Count(uint32_t index_id) const {
  std::shared_ptr<Index> index = Find(index_id);
  if (!index) return 0;
  ReaderMutexLock lock(&index->mu);
  int64_t n = 0;
  for (const auto& [p, g] : index->graphs) n += static_cast<int64_t>(g.alive);
  return n;
}

int64_t VectorGraphs::MemoryBytes(uint32_t index_id) const {
  std::shared_ptr<Index> index = Find(index_id);
  if (!index) return 0;
  ReaderMutexLock lock(&index->mu);
  int64_t bytes = 0;
  for (const auto& [p, g] : index->graphs) {
    if (!g.hnsw) continue;
    const auto& h = *g.hnsw;
    bytes += static_cast<int64_t>(h.max_elements_ * (h.size_data_per_element_ + sizeof(void*) + sizeof(int)));
    for (size_t i = 0; i < h.cur_element_count; ++i) {
      bytes += static_cast<int64_t>(h.size_links_per_element_ * h.element_levels_[i]);
    }
    for (const auto& s : g.slots) bytes += static_cast<int64_t>(2 * s.entry_key.size() + sizeof(s) + 64);
  }
  return bytes;
}

int64_t VectorGraphs::GraphComparisons(uint32_t index_id) const {
  std::shared_ptr<Index> index = Find(index_id);
  if (!index) return 0;
  ReaderMutexLock lock(&index->mu);
  int64_t n = 0;
  for (const auto& [p, g] : index->graphs) {
    if (g.hnsw) n += g.hnsw->metric_distance_computations.load();
  }
  return n;
}

}  // namespace dynarock::vector
