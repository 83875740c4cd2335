// bench/common/orders_table.h
//
// The engine every benchmark starts from: the options (in memory or in a
// directory, tables ACTIVE at once) and the "Orders" table of
// order_items.h (PK, SK strings; on-demand), optionally preloaded with the
// kPreloadItems items of bench_world.h's Data(). A benchmark that needs
// more (throttling ceilings, GSIs) adjusts the options or the request
// before opening or creating. Any failure is fatal (check.h).
//
// Header-only; single-threaded setup.

#ifndef DYNAROCK_BENCH_COMMON_ORDERS_TABLE_H_
#define DYNAROCK_BENCH_COMMON_ORDERS_TABLE_H_

#include <memory>
#include <string>
#include <utility>

#include "bench/common/check.h"
#include "bench/common/order_items.h"
#include "engine/engine.h"

namespace dynarock::bench {

// Options of a benchmark engine: RocksDB in memory, or at `path`; tables
// are created ACTIVE, without the simulated creation delay.
inline EngineOptions BenchEngineOptions(bool in_memory = true,
                                        const std::string& path = "") {
  EngineOptions options;
  options.in_memory = in_memory;
  options.path = path;
  options.table_create_delay_micros = 0;
  return options;
}

inline std::unique_ptr<Engine> OpenBenchEngine(const EngineOptions& options) {
  auto engine = Engine::Open(options);
  Check(engine.status(), "Engine::Open");
  return std::move(engine).value();
}

// CreateTable of the Orders table: PK (hash) and SK (range), both S;
// on-demand billing.
inline CreateTableRequest OrdersTableRequest() {
  CreateTableRequest create;
  create.table_name = kTableName;
  create.attribute_definitions = {{"PK", AttrType::kS}, {"SK", AttrType::kS}};
  create.key_schema = {{"PK", KeyType::kHash}, {"SK", KeyType::kRange}};
  create.billing_mode = BillingMode::kPayPerRequest;
  return create;
}

inline void CreateOrdersTable(Engine& engine,
                              const CreateTableRequest& create = OrdersTableRequest()) {
  Check(engine.CreateTable(create).status(), "CreateTable");
}

// An engine opened with `options` holding an empty Orders table.
inline std::unique_ptr<Engine> OpenOrdersEngine(
    const EngineOptions& options = BenchEngineOptions()) {
  std::unique_ptr<Engine> engine = OpenBenchEngine(options);
  CreateOrdersTable(*engine);
  return engine;
}

}  // namespace dynarock::bench

#endif  // DYNAROCK_BENCH_COMMON_ORDERS_TABLE_H_
