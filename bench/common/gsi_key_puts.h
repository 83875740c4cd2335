// bench/common/gsi_key_puts.h
//
// PutItems that move an item in its GSIs on every put, for the index
// benchmarks: a pool of kGsiKeyPool Order items (order_items.h, 250 bytes)
// overwritten in turn, each put changing Rep, Status, OrderDate, Amount and
// Quantity (cycled through 1,024 values each), so every index keyed on them
// gets a key change (a delete and a put): the write path's worst case.
// PutItemLoop is the timed loop: the writer's throughput, or with
// `propagated` the same waiting for the propagator every 256 puts.
//
// Header-only; the pool is built once, on first use.

#ifndef DYNAROCK_BENCH_COMMON_GSI_KEY_PUTS_H_
#define DYNAROCK_BENCH_COMMON_GSI_KEY_PUTS_H_

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bench/common/check.h"
#include "bench/common/order_items.h"
#include "bench/common/orders_table.h"
#include "engine/engine.h"
#include "engine/value/item_size.h"

namespace dynarock::bench {

constexpr int kGsiKeyPool = 4096;     // distinct items overwritten
constexpr int kGsiKeyVariants = 1024;  // values cycled through the GSI keys

struct GsiKeyPuts {
  std::vector<PutItemRequest> puts;  // the pool, as first written
  std::vector<AttributeValue> reps, statuses, dates, amounts, quantities;
};

inline const GsiKeyPuts& TheGsiKeyPuts() {
  static const GsiKeyPuts* w = [] {
    auto number = [](const std::string& text) {
      Result<Number> n = Number::Parse(text);
      if (!n.ok()) Die("number " + text);
      return AttributeValue::N(*n);
    };
    auto* out = new GsiKeyPuts;
    for (int i = 0; i < kGsiKeyPool; ++i) {
      PutItemRequest req;
      req.table_name = kTableName;
      req.item = OrderItem(i);
      if (ItemSize(req.item) != kOrderItemBytes) Die("item size");
      out->puts.push_back(std::move(req));
    }
    for (int v = 0; v < kGsiKeyVariants; ++v) {
      OrderFields f = OrderFieldsOf(v * 7919 + 13);
      out->reps.push_back(AttributeValue::S(f.rep));
      out->statuses.push_back(AttributeValue::S(f.status));
      out->dates.push_back(AttributeValue::S(f.order_date));
      out->amounts.push_back(number(f.amount));
      out->quantities.push_back(number(f.quantity));
    }
    return out;
  }();
  return *w;
}

// Put number k: pool item k % kGsiKeyPool (in `pool`, a mutable copy of
// TheGsiKeyPuts().puts) with its five key attributes changed. The same
// five assignments whatever the indexes, so every variant pays the same
// set-up cost.
inline PutItemRequest& SetUpGsiKeyPut(int64_t k, std::vector<PutItemRequest>* pool) {
  const GsiKeyPuts& w = TheGsiKeyPuts();
  PutItemRequest& req = (*pool)[k % kGsiKeyPool];
  const size_t v = static_cast<size_t>((k / kGsiKeyPool + k) % kGsiKeyVariants);
  req.item["Rep"] = w.reps[v];
  req.item["Status"] = w.statuses[(v + 1) % kGsiKeyVariants];
  req.item["OrderDate"] = w.dates[(v + 2) % kGsiKeyVariants];
  req.item["Amount"] = w.amounts[(v + 3) % kGsiKeyVariants];
  req.item["Quantity"] = w.quantities[(v + 4) % kGsiKeyVariants];
  return req;
}

// Writes the pool once and waits for the indexes.
inline void PreloadGsiKeyPool(Engine& engine) {
  std::vector<PutItemRequest> pool = TheGsiKeyPuts().puts;
  for (int i = 0; i < kGsiKeyPool; ++i) {
    Check(engine.PutItem(SetUpGsiKeyPut(i, &pool)).status(), "preload");
  }
  Check(engine.WaitUntilIndexesCaughtUp(), "preload propagation");
}

// The timed loop of a PutItem benchmark on a preloaded engine.
inline void GsiKeyPutLoop(benchmark::State& state, Engine& engine, bool propagated) {
  std::vector<PutItemRequest> pool = TheGsiKeyPuts().puts;
  int64_t k = kGsiKeyPool;
  int64_t since_wait = 0;
  for (auto _ : state) {
    auto r = engine.PutItem(SetUpGsiKeyPut(k++, &pool));
    if (!r.ok()) state.SkipWithError(r.status().ToString().c_str());
    if (propagated && ++since_wait == 256) {
      Check(engine.WaitUntilIndexesCaughtUp(), "wait");
      since_wait = 0;
    }
  }
  // Not timed: leave nothing pending for the next benchmark.
  Check(engine.WaitUntilIndexesCaughtUp(), "wait");
  state.SetItemsProcessed(state.iterations());
}

}  // namespace dynarock::bench

#endif  // DYNAROCK_BENCH_COMMON_GSI_KEY_PUTS_H_
