// bench/engine/stream/stream_bench.cc
//
// What DynamoDB Streams cost, in one run on in-memory engines:
//
//   stream/PutItem/off   PutItem of 250-byte Order items (bench/common/
//                        order_items.h) overwriting 4,096 items, each put
//                        changing Amount, on a table without a stream
//   stream/PutItem/on    the same on a table with a NEW_AND_OLD_IMAGES
//                        stream: every put also writes a record (keys, old
//                        and new image) in its batch
//   stream/GetRecords    reading those records back: GetRecords pages of
//                        1,000 from TRIM_HORIZON over every shard (items =
//                        records read)
//
// Prints PutItem on / off (target >= 0.70) and GetRecords records per
// second.
//
//   build-bench/bench/stream_bench

#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/common/bench_main.h"
#include "bench/common/check.h"
#include "bench/common/order_items.h"
#include "bench/common/orders_table.h"
#include "bench/common/ratio_reporter.h"
#include "bench/common/ratio_table.h"
#include "engine/engine.h"

namespace dynarock::bench {
namespace {

constexpr int kPool = 4096;

std::unique_ptr<Engine>& EngineSlot(bool stream) {
  static std::unique_ptr<Engine> engines[2];
  return engines[stream ? 1 : 0];
}

const std::vector<PutItemRequest>& Pool() {
  static const std::vector<PutItemRequest>* pool = [] {
    auto* out = new std::vector<PutItemRequest>;
    for (int i = 0; i < kPool; ++i) {
      PutItemRequest req;
      req.table_name = kTableName;
      req.item = OrderItem(i);
      out->push_back(std::move(req));
    }
    return out;
  }();
  return *pool;
}

std::vector<AttributeValue> Amounts() {
  std::vector<AttributeValue> out;
  for (int v = 0; v < 64; ++v) {
    Result<Number> n = Number::Parse(std::to_string(100 + v) + ".25");
    if (!n.ok()) Die("number");
    out.push_back(AttributeValue::N(*n));
  }
  return out;
}

Engine& EngineWith(bool stream) {
  std::unique_ptr<Engine>& slot = EngineSlot(stream);
  if (!slot) {
    slot = OpenBenchEngine(BenchEngineOptions());
    CreateTableRequest req = OrdersTableRequest();
    if (stream) {
      req.stream_specification =
          StreamSpecification{true, StreamViewType::kNewAndOldImages};
    }
    CreateOrdersTable(*slot, req);
    for (const PutItemRequest& put : Pool()) Check(slot->PutItem(put).status(), "preload");
  }
  return *slot;
}

void PutItemBench(benchmark::State& state, bool stream) {
  Engine& engine = EngineWith(stream);
  std::vector<PutItemRequest> pool = Pool();
  const std::vector<AttributeValue> amounts = Amounts();
  int64_t k = 0;
  for (auto _ : state) {
    PutItemRequest& req = pool[k % kPool];
    // A real change every time (an unchanged put writes no record).
    req.item["Amount"] = amounts[(k / kPool + k) % amounts.size()];
    auto r = engine.PutItem(req);
    if (!r.ok()) state.SkipWithError(r.status().ToString().c_str());
    ++k;
  }
  state.SetItemsProcessed(state.iterations());
}

void GetRecordsBench(benchmark::State& state) {
  Engine& engine = EngineWith(true);
  DescribeTableRequest dt;
  dt.table_name = kTableName;
  Result<TableDescription> table = engine.DescribeTable(dt);
  Check(table.status(), "DescribeTable");
  DescribeStreamRequest ds;
  ds.stream_arn = table->latest_stream_arn;
  Result<StreamDescription> stream = engine.DescribeStream(ds);
  Check(stream.status(), "DescribeStream");
  int64_t records = 0;
  for (auto _ : state) {
    for (const ShardDescription& shard : stream->shards) {
      GetShardIteratorRequest gi;
      gi.stream_arn = stream->stream_arn;
      gi.shard_id = shard.shard_id;
      Result<std::string> it = engine.GetShardIterator(gi);
      Check(it.status(), "GetShardIterator");
      std::optional<std::string> next = *it;
      while (next) {
        GetRecordsRequest gr;
        gr.shard_iterator = *next;
        Result<GetRecordsResult> page = engine.GetRecords(gr);
        Check(page.status(), "GetRecords");
        records += static_cast<int64_t>(page->records.size());
        benchmark::DoNotOptimize(page->records.data());
        if (page->records.empty()) break;
        next = page->next_shard_iterator;
      }
    }
  }
  state.SetItemsProcessed(records);
}

void Register() {
  benchmark::RegisterBenchmark("stream/PutItem/off", PutItemBench, false);
  benchmark::RegisterBenchmark("stream/PutItem/on", PutItemBench, true);
  benchmark::RegisterBenchmark("stream/GetRecords", GetRecordsBench)
      ->Iterations(3)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  RatioReporter reporter;
  if (!RunBenchmarks(argc, argv, reporter, Register)) return 1;
  std::printf("\nPutItem with a NEW_AND_OLD_IMAGES stream / without (same run):\n");
  PrintRatios(reporter, {{"PutItem stream on / off", "stream/PutItem/on",
                          "stream/PutItem/off", 0.7}});
  EngineSlot(false).reset();
  EngineSlot(true).reset();
  return 0;
}
