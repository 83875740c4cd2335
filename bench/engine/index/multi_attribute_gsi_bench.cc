// bench/engine/index/multi_attribute_gsi_bench.cc
//
// What a multi-attribute GSI key costs a PutItem, against a single-attribute
// GSI holding the same projected item, in one run on in-memory engines:
//
//   multi:  HASH Rep, Status; RANGE OrderDate, Amount (N); KEYS_ONLY
//   single: HASH Rep; RANGE OrderDate; INCLUDE [Status, Amount]
//
// Both project PK, SK, Rep, Status, OrderDate and Amount, so entries and log
// records have the same bytes; only the key work differs (four values
// checked, hashed and encoded instead of two). Every put overwrites one of
// 4,096 Order items and changes all four attributes (and Quantity:
// bench/common/gsi_key_puts.h), so each put logs a key change (delete +
// put) for the index.
//
//   mgsi/PutItem/<single|multi>            the writer's throughput
//   mgsi/PutItemPropagated/<single|multi>  the same, waiting for the
//                                          propagator every 256 puts
// Prints multi / single (target >= 0.9).
//
//   build-bench/bench/multi_attribute_gsi_bench

#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/common/bench_main.h"
#include "bench/common/check.h"
#include "bench/common/gsi_key_puts.h"
#include "bench/common/order_items.h"
#include "bench/common/orders_table.h"
#include "bench/common/ratio_reporter.h"
#include "bench/common/ratio_table.h"
#include "engine/engine.h"

namespace dynarock::bench {
namespace {

std::unique_ptr<Engine> OpenEngine(bool multi) {
  EngineOptions o = BenchEngineOptions();
  o.gsi_propagation = GsiPropagation::kBackground;
  std::unique_ptr<Engine> engine = OpenBenchEngine(o);
  CreateTableRequest req = OrdersTableRequest();
  GlobalSecondaryIndexDef g;
  g.index_name = "ByRep";
  if (multi) {
    g.key_schema = {{"Rep", KeyType::kHash},
                    {"Status", KeyType::kHash},
                    {"OrderDate", KeyType::kRange},
                    {"Amount", KeyType::kRange}};
    g.projection = {ProjectionType::kKeysOnly, {}};
    req.attribute_definitions.push_back({"Status", AttrType::kS});
    req.attribute_definitions.push_back({"Amount", AttrType::kN});
  } else {
    g.key_schema = {{"Rep", KeyType::kHash}, {"OrderDate", KeyType::kRange}};
    g.projection = {ProjectionType::kInclude, {"Status", "Amount"}};
  }
  req.attribute_definitions.push_back({"Rep", AttrType::kS});
  req.attribute_definitions.push_back({"OrderDate", AttrType::kS});
  req.global_secondary_indexes = {g};
  CreateOrdersTable(*engine, req);
  return engine;
}

std::unique_ptr<Engine>& EngineSlot(bool multi) {
  static std::unique_ptr<Engine> engines[2];
  return engines[multi ? 1 : 0];
}

Engine& EngineWith(bool multi) {
  std::unique_ptr<Engine>& slot = EngineSlot(multi);
  if (!slot) {
    slot = OpenEngine(multi);
    PreloadGsiKeyPool(*slot);
  }
  return *slot;
}

void PutItemBench(benchmark::State& state, bool multi, bool propagated) {
  GsiKeyPutLoop(state, EngineWith(multi), propagated);
}

void Register() {
  // Interleaved, so both sides see the same machine load.
  for (const char* kind : {"single", "multi"}) {
    const bool multi = std::string(kind) == "multi";
    benchmark::RegisterBenchmark(("mgsi/PutItem/" + std::string(kind)).c_str(),
                                 PutItemBench, multi, false);
  }
  for (const char* kind : {"single", "multi"}) {
    const bool multi = std::string(kind) == "multi";
    benchmark::RegisterBenchmark(
        ("mgsi/PutItemPropagated/" + std::string(kind)).c_str(), PutItemBench,
        multi, true);
  }
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  RatioReporter reporter;
  if (!RunBenchmarks(argc, argv, reporter, Register)) return 1;
  std::printf(
      "\nPutItem with a 2 HASH + 2 RANGE GSI / with a single-attribute GSI of "
      "the same projected item (same run; every put changes every key "
      "attribute):\n");
  PrintRatios(
      reporter,
      {{"multi / single, writer", "mgsi/PutItem/multi", "mgsi/PutItem/single", 0.9},
       {"multi / single, propagated", "mgsi/PutItemPropagated/multi",
        "mgsi/PutItemPropagated/single", 0.9}});
  EngineSlot(false).reset();
  EngineSlot(true).reset();
  return 0;  // a missed target is reported in the ratio lines, not an error
}
