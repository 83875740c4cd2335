// bench/engine/value/item_codec_bench.cc
//
// EncodeItem and DecodeItem of the 250-byte Order items every benchmark
// uses (bench/common/order_items.h: PK, SK, five S and two N attributes),
// in ns per item. These run on every RocksDB write and read of an item, so
// they bound what the engine can add on top of RocksDB. ItemSize is here
// too: metering and the 400 KB check call it on every write.
//
//   build-bench/bench/item_codec_bench
//   build-bench/bench/item_codec_bench --benchmark_filter=Decode

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bench/common/order_items.h"
#include "engine/types.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"

namespace dynarock::bench {
namespace {

// Enough distinct items that the loop is not timing one item in L1.
constexpr int kItems = 1024;

const std::vector<Item>& Items() {
  static const std::vector<Item>* items = [] {
    auto* v = new std::vector<Item>();
    v->reserve(kItems);
    for (int i = 0; i < kItems; ++i) v->push_back(OrderItem(i));
    return v;
  }();
  return *items;
}

const std::vector<std::string>& Encoded() {
  static const std::vector<std::string>* encoded = [] {
    auto* v = new std::vector<std::string>();
    v->reserve(kItems);
    for (const Item& item : Items()) {
      std::string bytes;
      EncodeItem(item, &bytes);
      v->push_back(std::move(bytes));
    }
    return v;
  }();
  return *encoded;
}

// The data set must be what it claims: 250 bytes by DynamoDB's rules.
bool CheckItems(benchmark::State& state) {
  for (const Item& item : Items()) {
    if (ItemSize(item) != kOrderItemBytes) {
      state.SkipWithError("Order item is not 250 bytes");
      return false;
    }
  }
  return true;
}

void BM_EncodeItem(benchmark::State& state) {
  if (!CheckItems(state)) return;
  const std::vector<Item>& items = Items();
  std::string out;
  size_t i = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    out.clear();  // reuse the buffer, as a write batch would
    EncodeItem(items[i++ % kItems], &out);
    bytes += static_cast<int64_t>(out.size());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(bytes);
  state.counters["encoded_bytes"] = static_cast<double>(Encoded()[0].size());
}
BENCHMARK(BM_EncodeItem);

void BM_DecodeItem(benchmark::State& state) {
  if (!CheckItems(state)) return;
  const std::vector<std::string>& encoded = Encoded();
  size_t i = 0;
  int64_t bytes = 0;
  for (auto _ : state) {
    const std::string& in = encoded[i++ % kItems];
    Result<Item> item = DecodeItem(in);
    if (!item.ok()) {
      state.SkipWithError("DecodeItem failed");
      break;
    }
    bytes += static_cast<int64_t>(in.size());
    benchmark::DoNotOptimize(item);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_DecodeItem);

void BM_ItemSize(benchmark::State& state) {
  const std::vector<Item>& items = Items();
  size_t i = 0;
  for (auto _ : state) {
    int64_t size = ItemSize(items[i++ % kItems]);
    benchmark::DoNotOptimize(size);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ItemSize);

}  // namespace
}  // namespace dynarock::bench

BENCHMARK_MAIN();
