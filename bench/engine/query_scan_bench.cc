// bench/engine/query_scan_bench.cc
//
// Query, Scan and BatchWriteItem through the Engine API, each beside a
// baseline measured in the same process and run:
//
//   Query of one item collection of 100 Order items (250 bytes each)
//     vs raw RocksDB: a bounded iterator over the same 100 keys, each value
//     copied into a std::string (what reading a value costs at least).
//     Two engine forms: Query100 returns Items (the embedding default: each
//     item decoded into an Item), Query100Encoded asks for the stored
//     encodings (ReadPageParameters::encoded_items, what the api does: it
//     renders JSON from them). Target: Query100Encoded >= 0.40 x raw.
//     Also, as diagnostics, Query100 vs raw and vs the same raw iteration
//     with DecodeItem of each value (what any read returning Items pays).
//   Scan of the whole table, page by page (1 MB pages), vs the same raw
//     iteration over every item: items/s.
//   BatchWriteItem of 25 items vs 25 PutItem calls of the same items.
//
// Both databases are in memory (RocksDB on a MemEnv, the engine's
// --in-memory mode) and hold the same keys (keys::ItemKey) and value bytes
// (EncodeItem). Scan's table size: kScanItems (1M by default; override with
// DYNAROCK_BENCH_SCAN_ITEMS, e.g. when loading 1M takes too long).
//
//   build-bench/bench/query_scan_bench                 # all, 5 repetitions
//   build-bench/bench/query_scan_bench --benchmark_filter=Query

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench/common/bench_main.h"
#include "bench/common/bench_world.h"
#include "bench/common/order_items.h"
#include "bench/common/orders_table.h"
#include "bench/common/ratio_reporter.h"
#include "bench/common/ratio_table.h"
#include "engine/pages/query_scan.h"

namespace dynarock::bench {
namespace {

constexpr int64_t kCollectionItems = 100;
constexpr int64_t kBatchItems = 25;

int64_t ScanItems() {
  const char* env = std::getenv("DYNAROCK_BENCH_SCAN_ITEMS");
  return env != nullptr ? std::atoll(env) : 1'000'000;
}

// Order item i, moved into one big item collection ("CUST#99999999", the
// same length as the usual PKs, so the item stays 250 bytes).
Item CollectionItem(int64_t i) {
  Item item = OrderItem(i);
  item["PK"] = AttributeValue::S("CUST#99999999");
  return item;
}

// Loads `items` with BatchWriteItem (25 at a time) into the engine and with
// Put into the raw database.
void Load(Engine& engine, RawDb& raw, const std::vector<Item>& items) {
  for (size_t i = 0; i < items.size(); i += kBatchItems) {
    BatchWriteItemRequest batch;
    auto& writes = batch.request_items.emplace_back(kTableName,
                                                    std::vector<WriteRequest>())
                       .second;
    for (size_t j = i; j < items.size() && j < i + kBatchItems; ++j) {
      writes.push_back(WriteRequest{items[j], std::nullopt});
      std::string value;
      EncodeItem(items[j], &value);
      raw.Put(keys::ItemKey(kTableId, items[j].at("PK"), &items[j].at("SK")), value);
    }
    Check(engine.BatchWriteItem(batch).status(), "load BatchWriteItem");
  }
}

// --- Query: one collection of 100 items -------------------------------------

struct QueryWorld {
  std::unique_ptr<Engine> engine = OpenOrdersEngine();
  RawDb raw{true, ""};
  QueryRequest query;
  std::string lower, upper;  // the raw collection range

  QueryWorld() {
    std::vector<Item> items;
    for (int64_t i = 0; i < kCollectionItems; ++i) items.push_back(CollectionItem(i));
    // Other collections around it, as in a real table.
    for (int64_t i = kCollectionItems; i < 20'000; ++i) items.push_back(OrderItem(i));
    Load(*engine, raw, items);
    query.table_name = kTableName;
    query.key_condition_expression = "PK = :pk";
    query.read.expression_attribute_values =
        ExpressionAttributeValues{{":pk", AttributeValue::S("CUST#99999999")}};
    const KeyRange range = QueryRange(kTableId, AttributeValue::S("CUST#99999999"), nullptr);
    lower = range.lower;
    upper = range.upper;
    auto r = engine->Query(query);
    Check(r.status(), "verify Query");
    if (r->count != kCollectionItems || r->last_evaluated_key) Die("query count");
    auto e = engine->Query(EncodedQuery());
    Check(e.status(), "verify encoded Query");
    if (e->encoded_items.size() != static_cast<size_t>(kCollectionItems)) {
      Die("encoded query count");
    }
    if (RawCollection() != kCollectionItems) Die("raw count");
  }

  // The raw iteration plus DecodeItem of every value into a vector: the
  // floor of any read that returns Items (a diagnostic, no target).
  int64_t RawCollectionDecoded() {
    rocksdb::Slice lo(lower), hi(upper);
    rocksdb::ReadOptions ro;
    ro.iterate_lower_bound = &lo;
    ro.iterate_upper_bound = &hi;
    std::unique_ptr<rocksdb::Iterator> it = raw.NewItemsIterator(ro);
    std::vector<Item> items;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      Result<Item> item =
          DecodeItem(std::string_view(it->value().data(), it->value().size()));
      if (!item.ok()) Die("decode");
      items.push_back(std::move(item).value());
    }
    benchmark::DoNotOptimize(items.data());
    return static_cast<int64_t>(items.size());
  }

  // The query asking for the items' encodings.
  QueryRequest EncodedQuery() const {
    QueryRequest q = query;
    q.read.encoded_items = true;
    return q;
  }

  int64_t RawCollection() {
    rocksdb::Slice lo(lower), hi(upper);
    rocksdb::ReadOptions ro;
    ro.iterate_lower_bound = &lo;
    ro.iterate_upper_bound = &hi;
    std::unique_ptr<rocksdb::Iterator> it = raw.NewItemsIterator(ro);
    std::vector<std::string> values;
    values.reserve(kCollectionItems);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      values.emplace_back(it->value().data(), it->value().size());
    }
    benchmark::DoNotOptimize(values.data());
    return static_cast<int64_t>(values.size());
  }
};

QueryWorld& TheQueryWorld() {
  static QueryWorld* world = new QueryWorld;
  return *world;
}

void EngineQuery100(benchmark::State& state) {
  QueryWorld& w = TheQueryWorld();
  for (auto _ : state) {
    auto r = w.engine->Query(w.query);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * kCollectionItems);
}

void EngineQuery100Encoded(benchmark::State& state) {
  QueryWorld& w = TheQueryWorld();
  const QueryRequest query = w.EncodedQuery();
  for (auto _ : state) {
    auto r = w.engine->Query(query);
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * kCollectionItems);
}

void RawIterate100(benchmark::State& state) {
  QueryWorld& w = TheQueryWorld();
  for (auto _ : state) benchmark::DoNotOptimize(w.RawCollection());
  state.SetItemsProcessed(state.iterations() * kCollectionItems);
}

void RawIterateDecode100(benchmark::State& state) {
  QueryWorld& w = TheQueryWorld();
  for (auto _ : state) benchmark::DoNotOptimize(w.RawCollectionDecoded());
  state.SetItemsProcessed(state.iterations() * kCollectionItems);
}

// --- Scan: the whole table --------------------------------------------------

struct ScanWorld {
  std::unique_ptr<Engine> engine = OpenOrdersEngine();
  RawDb raw{true, ""};
  int64_t items = ScanItems();

  ScanWorld() {
    const auto start = std::chrono::steady_clock::now();
    std::vector<Item> chunk;
    for (int64_t i = 0; i < items; ++i) {
      chunk.push_back(OrderItem(i));
      if (chunk.size() == 25'000 || i + 1 == items) {
        Load(*engine, raw, chunk);
        chunk.clear();
      }
    }
    const double seconds = std::chrono::duration<double>(
                               std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "scan world: %lld items loaded in %.1f s\n",
                 static_cast<long long>(items), seconds);
  }

  int64_t ScanAll() {
    ScanRequest req;
    req.table_name = kTableName;
    int64_t n = 0;
    while (true) {
      auto r = engine->Scan(req);
      Check(r.status(), "Scan");
      n += r->count;
      if (!r->last_evaluated_key) break;
      req.read.exclusive_start_key = std::move(r->last_evaluated_key);
    }
    return n;
  }

  int64_t RawAll() {
    const std::string lower = keys::TablePrefix(kTableId);
    const std::string upper = keys::TableEnd(kTableId);
    rocksdb::Slice lo(lower), hi(upper);
    rocksdb::ReadOptions ro;
    ro.iterate_lower_bound = &lo;
    ro.iterate_upper_bound = &hi;
    std::unique_ptr<rocksdb::Iterator> it = raw.NewItemsIterator(ro);
    int64_t n = 0;
    std::string value;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      value.assign(it->value().data(), it->value().size());
      benchmark::DoNotOptimize(value.data());
      ++n;
    }
    return n;
  }
};

ScanWorld& TheScanWorld() {
  static ScanWorld* world = new ScanWorld;
  return *world;
}

void EngineScanTable(benchmark::State& state) {
  ScanWorld& w = TheScanWorld();
  for (auto _ : state) {
    const int64_t n = w.ScanAll();
    if (n != w.items) {
      std::fprintf(stderr, "scan returned %lld items of %lld\n",
                   static_cast<long long>(n), static_cast<long long>(w.items));
      state.SkipWithError("scan count");
    }
  }
  state.SetItemsProcessed(state.iterations() * w.items);
}

void RawIterateTable(benchmark::State& state) {
  ScanWorld& w = TheScanWorld();
  for (auto _ : state) {
    if (w.RawAll() != w.items) state.SkipWithError("raw count");
  }
  state.SetItemsProcessed(state.iterations() * w.items);
}

// --- BatchWriteItem of 25 vs 25 PutItem ---------------------------------------

struct WriteWorld {
  std::unique_ptr<Engine> engine = OpenOrdersEngine();
  std::vector<BatchWriteItemRequest> batches;
  std::vector<PutItemRequest> puts;

  WriteWorld() {
    // 40 batches of 25 distinct items (1000 items), rewritten in turn.
    for (int64_t b = 0; b < 40; ++b) {
      BatchWriteItemRequest batch;
      auto& writes = batch.request_items.emplace_back(kTableName,
                                                      std::vector<WriteRequest>())
                         .second;
      for (int64_t j = 0; j < kBatchItems; ++j) {
        Item item = OrderItem(b * kBatchItems + j);
        writes.push_back(WriteRequest{item, std::nullopt});
        PutItemRequest put;
        put.table_name = kTableName;
        put.item = std::move(item);
        puts.push_back(std::move(put));
      }
      Check(engine->BatchWriteItem(batch).status(), "preload");
      batches.push_back(std::move(batch));
    }
  }
};

WriteWorld& TheWriteWorld() {
  static WriteWorld* world = new WriteWorld;
  return *world;
}

void EngineBatchWrite25(benchmark::State& state) {
  WriteWorld& w = TheWriteWorld();
  size_t next = 0;
  for (auto _ : state) {
    Check(w.engine->BatchWriteItem(w.batches[next]).status(), "BatchWriteItem");
    next = (next + 1) % w.batches.size();
  }
  state.SetItemsProcessed(state.iterations() * kBatchItems);
}

void EnginePutItem25(benchmark::State& state) {
  WriteWorld& w = TheWriteWorld();
  size_t next = 0;
  for (auto _ : state) {
    for (int64_t j = 0; j < kBatchItems; ++j) {
      Check(w.engine->PutItem(w.puts[next * kBatchItems + j]).status(), "PutItem");
    }
    next = (next + 1) % w.batches.size();
  }
  state.SetItemsProcessed(state.iterations() * kBatchItems);
}

void Register() {
  benchmark::RegisterBenchmark("engine/Query100", EngineQuery100);
  benchmark::RegisterBenchmark("engine/Query100Encoded", EngineQuery100Encoded);
  benchmark::RegisterBenchmark("raw/Iterate100", RawIterate100);
  benchmark::RegisterBenchmark("raw/IterateDecode100", RawIterateDecode100);
  benchmark::RegisterBenchmark("engine/ScanTable", EngineScanTable)
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1);
  benchmark::RegisterBenchmark("raw/IterateTable", RawIterateTable)
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1);
  benchmark::RegisterBenchmark("engine/BatchWrite25", EngineBatchWrite25);
  benchmark::RegisterBenchmark("engine/PutItem25", EnginePutItem25);
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  RatioReporter reporter;
  RunBenchmarks(argc, argv, reporter, Register, UnknownFlags::kIgnore);
  std::printf("\n");
  const bool met = PrintRatios(
      reporter,
      {{"Query100Encoded / Iterate100", "engine/Query100Encoded",
        "raw/Iterate100", 0.40},
       {"Query100 / Iterate100", "engine/Query100", "raw/Iterate100"},
       {"Query100 / IterateDecode100", "engine/Query100", "raw/IterateDecode100"},
       {"ScanTable / IterateTable", "engine/ScanTable", "raw/IterateTable"},
       {"BatchWrite25 / 25 x PutItem", "engine/BatchWrite25", "engine/PutItem25"}});
  const RatioReporter::Times scan = reporter.PerOp("engine/ScanTable");
  if (scan.real_ns > 0) {
    std::printf("Scan of %lld items: %.0f items/s (wall), %.0f items/s (cpu)\n",
                static_cast<long long>(TheScanWorld().items),
                TheScanWorld().items * 1e9 / scan.real_ns,
                scan.cpu_ns > 0 ? TheScanWorld().items * 1e9 / scan.cpu_ns : 0.0);
  }
  return met ? 0 : 1;
}
