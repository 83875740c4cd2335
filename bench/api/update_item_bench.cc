// bench/api/update_item_bench.cc
//
// UpdateItem end to end through api::Client::Call, beside PutItem of the
// same 250-byte Order item, in the same process and run:
//
//   client/PutItem           PutItem of order item i (the whole item)
//   client/UpdateItem        UpdateItem of key i whose UpdateExpression SETs
//                            every non-key attribute to item i's values: the
//                            stored item is byte for byte PutItem's
//   client/UpdateItemCond    a typical conditional update of key i: a
//                            counter and a status, ConditionExpression
//                            attribute_exists(PK) AND #s <> :cancelled
//
// All three write random preloaded items (bench/common/bench_world.h). After
// the run it prints UpdateItem / PutItem throughput ratios: the cost of
// parsing, resolving and applying an update expression against writing the
// item whole.
//
//   build-bench/bench/update_item_bench                  # mem and disk
//   build-bench/bench/update_item_bench --benchmark_filter=mem

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "api/client.h"
#include "bench/common/bench_main.h"
#include "bench/common/bench_world.h"
#include "bench/common/ratio_reporter.h"
#include "bench/common/ratio_table.h"
#include "bench/common/world_benchmarks.h"
#include "bench/common/world_clients.h"

namespace dynarock::bench {
namespace {

struct JsonRequests {
  std::vector<std::string> puts;     // PutItem bodies
  std::vector<std::string> updates;  // UpdateItem bodies writing the same item
  std::vector<std::string> conds;    // conditional counter updates
  std::vector<std::string> gets;     // GetItem bodies
};

std::string Quoted(const std::string& s) { return "\"" + s + "\""; }

const JsonRequests& Json() {
  static const JsonRequests* json = [] {
    auto* j = new JsonRequests;
    j->puts.reserve(kPreloadItems);
    j->updates.reserve(kPreloadItems);
    j->conds.reserve(kPreloadItems);
    j->gets.reserve(kPreloadItems);
    const std::string table = std::string("{\"TableName\":\"") + kTableName + "\",";
    for (int64_t i = 0; i < kPreloadItems; ++i) {
      const OrderFields f = OrderFieldsOf(i);
      const std::string key = "\"Key\":" + OrderKeyJson(i);
      j->puts.push_back(table + "\"Item\":" + OrderItemJson(i) + "}");
      j->gets.push_back(table + key + ",\"ConsistentRead\":true}");
      j->updates.push_back(
          table + key +
          ",\"UpdateExpression\":\"SET OrderDate = :d, Amount = :a, "
          "Quantity = :q, Rep = :r, #s = :s, ShipTo = :t, Note = :n\","
          "\"ExpressionAttributeNames\":{\"#s\":\"Status\"},"
          "\"ExpressionAttributeValues\":{"
          "\":d\":{\"S\":" + Quoted(f.order_date) + "},"
          "\":a\":{\"N\":" + Quoted(f.amount) + "},"
          "\":q\":{\"N\":" + Quoted(f.quantity) + "},"
          "\":r\":{\"S\":" + Quoted(f.rep) + "},"
          "\":s\":{\"S\":" + Quoted(f.status) + "},"
          "\":t\":{\"S\":" + Quoted(f.ship_to) + "},"
          "\":n\":{\"S\":" + Quoted(f.note) + "}}}");
      j->conds.push_back(
          table + key +
          ",\"UpdateExpression\":\"SET Quantity = Quantity + :zero, #s = :s\","
          "\"ConditionExpression\":\"attribute_exists(PK) AND #s <> :c\","
          "\"ExpressionAttributeNames\":{\"#s\":\"Status\"},"
          "\"ExpressionAttributeValues\":{\":zero\":{\"N\":\"0\"},"
          "\":s\":{\"S\":" + Quoted(f.status) + "},"
          "\":c\":{\"S\":\"CANCELLEX\"}}}");
    }
    return j;
  }();
  return *json;
}

api::Client& ClientFor(bool in_memory) {
  return WorldClient(in_memory, [](api::Client& c) {
    // The update writes exactly the item PutItem writes.
    for (int64_t i : {int64_t{0}, kPreloadItems - 1}) {
      api::Response put = c.Call("PutItem", Json().puts[i]);
      if (!put.ok()) Die("client PutItem: " + put.body);
      const std::string after_put = c.Call("GetItem", Json().gets[i]).body;
      api::Response update = c.Call("UpdateItem", Json().updates[i]);
      if (!update.ok()) Die("client UpdateItem: " + update.body);
      const std::string after_update = c.Call("GetItem", Json().gets[i]).body;
      if (after_put != after_update) {
        Die("UpdateItem wrote another item:\n  " + after_put + "\n  " + after_update);
      }
      api::Response cond = c.Call("UpdateItem", Json().conds[i]);
      if (!cond.ok()) Die("client conditional UpdateItem: " + cond.body);
    }
  });
}

void Run(benchmark::State& state, bool in_memory, const char* operation,
         const std::vector<std::string>& bodies) {
  const api::Client& client = ClientFor(in_memory);
  KeyChooser keys(kPreloadItems, 7);
  for (auto _ : state) {
    api::Response r = client.Call(operation, bodies[keys.Next()]);
    if (!r.ok()) state.SkipWithError(r.body.c_str());
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}

void Register() {
  for (bool in_memory : {true, false}) {
    const std::string cfg = in_memory ? "mem" : "disk";
    struct Variant {
      const char* name;
      const char* operation;
      std::vector<std::string> JsonRequests::*bodies;
    };
    for (const Variant v :
         {Variant{"client/PutItem/", "PutItem", &JsonRequests::puts},
          Variant{"client/UpdateItem/", "UpdateItem", &JsonRequests::updates},
          Variant{"client/UpdateItemCond/", "UpdateItem", &JsonRequests::conds}}) {
      RegisterWallClockNs(v.name + cfg, [in_memory, v](benchmark::State& s) {
        Run(s, in_memory, v.operation, Json().*v.bodies);
      });
    }
  }
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  RatioReporter reporter;
  if (!RunBenchmarks(argc, argv, reporter, Register)) return 1;

  PrintRatiosHeading("Throughput ratios", ", through api::Client");
  PrintRatiosPerConfig(
      reporter,
      {{"UpdateItem/PutItem", "client/UpdateItem/", "client/PutItem/"},
       {"UpdateItemCond/PutItem", "client/UpdateItemCond/", "client/PutItem/"}});
  ReleaseWorlds();
  return 0;
}
