// bench/engine/transactions_bench.cc
//
// TransactWriteItems of 10 Puts against BatchWriteItem of the same 10
// items, and TransactGetItems of 10 against BatchGetItem of the same 10
// keys, through the Engine API on an in-memory engine (throttling off), in
// the same process and run. After the run it prints transaction / batch
// throughput ratios; the target is >= 0.50 (issue 12).
//
//   build/bench/transactions_bench

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench/common/bench_main.h"
#include "bench/common/ratio_reporter.h"
#include "bench/common/ratio_table.h"
#include "engine/engine.h"

namespace dynarock::bench {
namespace {

constexpr int kItems = 10000;
constexpr int kGroup = 10;

Item MakeItem(int i) {
  Item item;
  item["pk"] = AttributeValue::S("order#" + std::to_string(i));
  item["status"] = AttributeValue::S("PLACED");
  item["payload"] = AttributeValue::S(std::string(200, 'x'));
  return item;
}

Item MakeKey(int i) {
  Item key;
  key["pk"] = AttributeValue::S("order#" + std::to_string(i));
  return key;
}

Engine& TheEngine() {
  static Engine* engine = [] {
    EngineOptions options;
    options.in_memory = true;
    options.table_create_delay_micros = 0;
    auto opened = Engine::Open(options);
    if (!opened.ok()) std::abort();
    Engine* e = opened->release();
    CreateTableRequest t;
    t.table_name = "Orders";
    t.attribute_definitions = {{"pk", AttrType::kS}};
    t.key_schema = {{"pk", KeyType::kHash}};
    t.billing_mode = BillingMode::kPayPerRequest;
    if (!e->CreateTable(t).ok()) std::abort();
    for (int i = 0; i < kItems; ++i) {
      PutItemRequest p;
      p.table_name = "Orders";
      p.item = MakeItem(i);
      if (!e->PutItem(p).ok()) std::abort();
    }
    return e;
  }();
  return *engine;
}

void TransactWrite10(benchmark::State& state) {
  Engine& e = TheEngine();
  int next = 0;
  for (auto _ : state) {
    TransactWriteItemsRequest req;
    for (int k = 0; k < kGroup; ++k) {
      TransactWriteAction a;
      a.table_name = "Orders";
      a.item = MakeItem((next + k) % kItems);
      req.actions.push_back(std::move(a));
    }
    next = (next + kGroup) % kItems;
    if (!e.TransactWriteItems(req).ok()) state.SkipWithError("TransactWriteItems failed");
  }
  state.SetItemsProcessed(state.iterations() * kGroup);
}

void BatchWrite10(benchmark::State& state) {
  Engine& e = TheEngine();
  int next = 0;
  for (auto _ : state) {
    BatchWriteItemRequest req;
    std::vector<WriteRequest> writes;
    for (int k = 0; k < kGroup; ++k) {
      WriteRequest w;
      w.put_item = MakeItem((next + k) % kItems);
      writes.push_back(std::move(w));
    }
    req.request_items.emplace_back("Orders", std::move(writes));
    next = (next + kGroup) % kItems;
    if (!e.BatchWriteItem(req).ok()) state.SkipWithError("BatchWriteItem failed");
  }
  state.SetItemsProcessed(state.iterations() * kGroup);
}

void TransactGet10(benchmark::State& state) {
  Engine& e = TheEngine();
  int next = 0;
  for (auto _ : state) {
    TransactGetItemsRequest req;
    for (int k = 0; k < kGroup; ++k) {
      TransactGetAction g;
      g.table_name = "Orders";
      g.key = MakeKey((next + k) % kItems);
      req.actions.push_back(std::move(g));
    }
    next = (next + kGroup) % kItems;
    auto r = e.TransactGetItems(req);
    if (!r.ok()) state.SkipWithError("TransactGetItems failed");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * kGroup);
}

void BatchGet10(benchmark::State& state) {
  Engine& e = TheEngine();
  int next = 0;
  for (auto _ : state) {
    BatchGetItemRequest req;
    KeysAndAttributes keys;
    keys.consistent_read = true;
    for (int k = 0; k < kGroup; ++k) keys.keys.push_back(MakeKey((next + k) % kItems));
    req.request_items.emplace_back("Orders", std::move(keys));
    next = (next + kGroup) % kItems;
    auto r = e.BatchGetItem(req);
    if (!r.ok()) state.SkipWithError("BatchGetItem failed");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations() * kGroup);
}

void Register() {
  TheEngine();  // the preload stays out of the timed runs
  benchmark::RegisterBenchmark("tx/TransactWrite10", &TransactWrite10);
  benchmark::RegisterBenchmark("batch/BatchWrite10", &BatchWrite10);
  benchmark::RegisterBenchmark("tx/TransactGet10", &TransactGet10);
  benchmark::RegisterBenchmark("batch/BatchGet10", &BatchGet10);
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  RatioReporter reporter;
  if (!RunBenchmarks(argc, argv, reporter, Register)) return 1;
  std::printf("\nThroughput ratios, transaction / batch of the same 10 items:\n");
  PrintRatios(reporter,
              {{"TransactWriteItems / BatchWriteItem", "tx/TransactWrite10",
                "batch/BatchWrite10", 0.5},
               {"TransactGetItems / BatchGetItem", "tx/TransactGet10",
                "batch/BatchGet10", 0.5}});
  return 0;
}
