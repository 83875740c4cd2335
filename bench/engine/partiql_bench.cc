// bench/engine/partiql_bench.cc
//
// PartiQL against the requests it plans into, through the Engine API on an
// in-memory engine (throttling off), in the same process and run:
// ExecuteStatement "SELECT * ... WHERE pk = ? AND sk = ?" against GetItem of
// the same key, and "SELECT * ... WHERE pk = ?" against the Query of the
// same partition (10 items), and "SELECT * ... WHERE pk IN [5 values]"
// against the 5 Queries it runs. After the run it prints PartiQL / plain
// throughput ratios; the target is >= 0.80 (issue 14).
//
//   build/bench/partiql_bench

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

constexpr int kPartitions = 1000;
constexpr int kPerPartition = 10;

AttributeValue Pk(int i) { return AttributeValue::S("customer#" + std::to_string(i)); }
AttributeValue Sk(int j) { return AttributeValue::N(Number::Parse(std::to_string(j)).value()); }

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
    t.attribute_definitions = {{"pk", AttrType::kS}, {"sk", AttrType::kN}};
    t.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
    t.billing_mode = BillingMode::kPayPerRequest;
    if (!e->CreateTable(t).ok()) std::abort();
    for (int i = 0; i < kPartitions; ++i) {
      for (int j = 0; j < kPerPartition; ++j) {
        PutItemRequest p;
        p.table_name = "Orders";
        p.item["pk"] = Pk(i);
        p.item["sk"] = Sk(j);
        p.item["status"] = AttributeValue::S("PLACED");
        p.item["payload"] = AttributeValue::S(std::string(200, 'x'));
        if (!e->PutItem(p).ok()) std::abort();
      }
    }
    return e;
  }();
  return *engine;
}

void SelectFullKey(benchmark::State& state) {
  Engine& e = TheEngine();
  int next = 0;
  for (auto _ : state) {
    ExecuteStatementRequest req;
    req.statement = "SELECT * FROM \"Orders\" WHERE pk = ? AND sk = ?";
    req.parameters = {Pk(next % kPartitions), Sk(next % kPerPartition)};
    ++next;
    auto r = e.ExecuteStatement(req);
    if (!r.ok() || r->items.size() != 1) state.SkipWithError("SELECT failed");
    benchmark::DoNotOptimize(r);
  }
}

void GetItem(benchmark::State& state) {
  Engine& e = TheEngine();
  int next = 0;
  for (auto _ : state) {
    GetItemRequest req;
    req.table_name = "Orders";
    req.key["pk"] = Pk(next % kPartitions);
    req.key["sk"] = Sk(next % kPerPartition);
    ++next;
    auto r = e.GetItem(req);
    if (!r.ok() || !r->item) state.SkipWithError("GetItem failed");
    benchmark::DoNotOptimize(r);
  }
}

void SelectPartition(benchmark::State& state) {
  Engine& e = TheEngine();
  int next = 0;
  for (auto _ : state) {
    ExecuteStatementRequest req;
    req.statement = "SELECT * FROM \"Orders\" WHERE pk = ?";
    req.parameters = {Pk(next++ % kPartitions)};
    auto r = e.ExecuteStatement(req);
    if (!r.ok() || r->items.size() != kPerPartition) state.SkipWithError("SELECT failed");
    benchmark::DoNotOptimize(r);
  }
}

void Query(benchmark::State& state) {
  Engine& e = TheEngine();
  int next = 0;
  for (auto _ : state) {
    QueryRequest req;
    req.table_name = "Orders";
    req.key_condition_expression = "#n0 = :v0";
    req.read.expression_attribute_names = ExpressionAttributeNames{{"#n0", "pk"}};
    req.read.expression_attribute_values =
        ExpressionAttributeValues{{":v0", Pk(next++ % kPartitions)}};
    auto r = e.Query(req);
    if (!r.ok() || r->items.size() != kPerPartition) state.SkipWithError("Query failed");
    benchmark::DoNotOptimize(r);
  }
}

// "WHERE pk IN [?, ?, ?, ?, ?]": five Queries (50 items), never plan-cached,
// against the five Queries a client would send itself.
constexpr int kInValues = 5;

void SelectIn(benchmark::State& state) {
  Engine& e = TheEngine();
  int next = 0;
  for (auto _ : state) {
    ExecuteStatementRequest req;
    req.statement = "SELECT * FROM \"Orders\" WHERE pk IN [?, ?, ?, ?, ?]";
    for (int i = 0; i < kInValues; ++i) req.parameters.push_back(Pk(next++ % kPartitions));
    auto r = e.ExecuteStatement(req);
    if (!r.ok() || r->items.size() != kInValues * kPerPartition) {
      state.SkipWithError("SELECT IN failed");
    }
    benchmark::DoNotOptimize(r);
  }
}

void Queries(benchmark::State& state) {
  Engine& e = TheEngine();
  int next = 0;
  for (auto _ : state) {
    for (int i = 0; i < kInValues; ++i) {
      QueryRequest req;
      req.table_name = "Orders";
      req.key_condition_expression = "#n0 = :v0";
      req.read.expression_attribute_names = ExpressionAttributeNames{{"#n0", "pk"}};
      req.read.expression_attribute_values =
          ExpressionAttributeValues{{":v0", Pk(next++ % kPartitions)}};
      auto r = e.Query(req);
      if (!r.ok() || r->items.size() != kPerPartition) state.SkipWithError("Query failed");
      benchmark::DoNotOptimize(r);
    }
  }
}

void Register() {
  TheEngine();  // the preload stays out of the timed runs
  benchmark::RegisterBenchmark("partiql/SelectFullKey", &SelectFullKey);
  benchmark::RegisterBenchmark("plain/GetItem", &GetItem);
  benchmark::RegisterBenchmark("partiql/SelectPartition", &SelectPartition);
  benchmark::RegisterBenchmark("plain/Query", &Query);
  benchmark::RegisterBenchmark("partiql/SelectIn5", &SelectIn);
  benchmark::RegisterBenchmark("plain/Query5", &Queries);
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  RatioReporter reporter;
  if (!RunBenchmarks(argc, argv, reporter, Register)) return 1;
  std::printf("\nThroughput ratios, PartiQL / the request it plans into:\n");
  PrintRatios(reporter,
              {{"SELECT full key / GetItem", "partiql/SelectFullKey", "plain/GetItem", 0.8},
               {"SELECT partition / Query", "partiql/SelectPartition", "plain/Query", 0.8},
               {"SELECT pk IN [5] / 5 Queries", "partiql/SelectIn5", "plain/Query5", 0.8}});
  return 0;
}
