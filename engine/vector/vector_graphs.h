// engine/vector/vector_graphs.h
//
// VectorGraphs holds, in memory, the approximate-nearest-neighbour graphs of
// every vector index: one hnswlib HNSW graph per index partition (per value
// of the search schema's HASH attribute, one graph when it has none). The
// graphs are derived state: the index's entries in the indexes column
// family (vector_entry.h) are the truth, written by the propagator from the
// durable GSI log; the propagator feeds each applied entry here (Apply)
// after its batch is written, and Engine::Open rebuilds every graph from
// the entries (Load). Nothing of a graph is persisted.
//
// Search returns the TopK nearest entries passing the inline filters. A
// partition of few vectors, or a filter the graph cannot satisfy after
// widening its search, is searched exactly (every vector compared), so a
// selective filter never gives a short answer.
//
// Thread-safe: searches of one index share its lock, applies take it alone.

#ifndef DYNAROCK_ENGINE_VECTOR_VECTOR_GRAPHS_H_
#define DYNAROCK_ENGINE_VECTOR_VECTOR_GRAPHS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/types.h"
#include "engine/util/mutex.h"

namespace dynarock::vector {

// Chosen by measurement (bench/engine/vector/vector_bench.cc, figures in
// bench/README.md and docs/vector-search.md). No fixed ef_search reaches
// recall@10 0.95 on every data set without wasting work on the others:
// clustered data is above 0.99 at ef 256, uniform random 128-dimension
// data (no structure, HNSW's worst case) needs several times more. So each
// partition's graph calibrates its own ef as it grows (vector_graphs.cc):
// the next vectors inserted are first searched as held-out queries, through
// the graph at ef_search, 2x, 4x ... ef_max and exactly; the smallest ef
// whose recall reaches `calibration_recall` while the graph compares at
// most `max_compared` of the partition's vectors per search is kept. When
// none does, the partition is searched exactly (as right, and as fast).
struct GraphOptions {
  size_t m = 32;                 // HNSW links per node
  size_t ef_construction = 200;  // candidates while inserting
  size_t ef_search = 256;        // the first ef tried (at least TopK)
  // Partitions with at most this many vectors are searched exactly: at
  // 10,000 x 128 the scan is about as fast as the graph, and exact.
  size_t exact_below = 10000;
  // Calibration: when a partition of at least exact_below (and 1,000)
  // vectors has grown by half since its last one, its next
  // `calibration_queries` inserts are the held-out queries. Until its first
  // calibration a partition above exact_below is searched exactly.
  size_t calibration_queries = 100;
  double calibration_recall = 0.97;  // above 0.95: the sample's error
  size_t ef_max = 2048;
  // Of the partition's vectors, per search: the graph's comparisons cost more
  // than the scan's (random memory, a heap): at 100,000 x 128 the graph is
  // as fast as the scan when it compares 20-25 % of the vectors.
  double max_compared = 0.2;
};

// Equality on inline-filter attributes, and the partition (the HASH value's
// ordered encoding, "" without a HASH attribute) to search.
struct SearchFilter {
  std::string partition;
  std::vector<std::pair<std::string, AttributeValue>> equals;
};

struct SearchHit {
  std::string entry_key;
  double score = 0;  // as SearchVectors reports it for the distance function
};

struct SearchOutcome {
  std::vector<SearchHit> hits;  // best first
  int64_t vectors = 0;          // vectors in the partition searched
  bool exact = false;           // compared every vector
  int64_t ef = 0;               // the graph's ef when not exact
};

class VectorGraphs {
 public:
  explicit VectorGraphs(GraphOptions options = {});
  ~VectorGraphs();
  VectorGraphs(const VectorGraphs&) = delete;
  VectorGraphs& operator=(const VectorGraphs&) = delete;

  // Starts keeping (empty) graphs for `index_id`; no-op when kept already.
  void Register(uint32_t index_id, std::shared_ptr<const VectorIndexDef> def);
  void Drop(uint32_t index_id);
  bool Has(uint32_t index_id) const;

  // One entry change the propagator wrote: the entry at `delete_key` (may
  // be null) went, the one at `put_key` (may be null) was written with
  // `put_value` (EncodeItem of the entry's item). No-op for an unknown
  // index. Errors: kCorruption (an undecodable value), kInternal.
  Status Apply(uint32_t index_id, const std::string* delete_key,
               const std::string* put_key, std::string_view put_value);
  // Rebuilds `index_id`'s graphs from its entries in `store`.
  Status Load(const StoreReader& store, uint32_t index_id);

  // The `top_k` best entries for `query` (its dimensions are the index's)
  // passing `filter`. `ef_search` > 0 replaces the calibrated ef and the
  // choice of an exact scan (for tuning: bench/engine/vector/vector_bench.cc
  // sweeps it over one built graph).
  // Errors: kResourceNotFound (index not kept), kInternal.
  Result<SearchOutcome> Search(uint32_t index_id, std::span<const float> query,
                               size_t top_k, const SearchFilter& filter,
                               size_t ef_search = 0) const;

  // Vectors indexed, and an estimate of the graphs' memory in bytes.
  int64_t Count(uint32_t index_id) const;
  int64_t MemoryBytes(uint32_t index_id) const;
  // Distance computations of every graph search (calibration's included)
  // so far: a diagnostic for bench/.
  int64_t GraphComparisons(uint32_t index_id) const;

 private:
  struct Index;
  std::shared_ptr<Index> Find(uint32_t index_id) const;

  const GraphOptions options_;
  mutable Mutex mu_;
  std::map<uint32_t, std::shared_ptr<Index>> indexes_ GUARDED_BY(mu_);
};

}  // namespace dynarock::vector

#endif  // DYNAROCK_ENGINE_VECTOR_VECTOR_GRAPHS_H_
