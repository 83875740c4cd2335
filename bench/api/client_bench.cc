// bench/api/client_bench.cc
//
// PutItem and GetItem of 250-byte Order items through the in-process
// api::Client::Call with DynamoDB JSON request bodies, beside the same
// operations on the Engine API and on raw RocksDB, in the same process and
// run (the databases of bench/common/bench_world.h), and through a Client
// that parses every body to a JSON tree first (ClientOptions::
// one_pass_item_requests = false: the path before the one-pass reader of
// api/ops/item_request_reader.h), and with a fault rule in force that
// matches none of the requests (docs/testing.md: every request is then
// parsed and shown to the rules) or only other operations (faulted-query:
// the requests are not). After the run it prints client / engine (the
// cost of the JSON protocol), client / raw, one-pass / tree and
// faulted / client ratios, and counted / client: the same requests through a
// Client that counts each one for GET /metrics (ClientOptions::
// request_metrics, api/metrics/request_metrics.h).
//
//   build-bench/bench/client_bench                          # mem and disk
//   build-bench/bench/client_bench --benchmark_filter=mem

#include <benchmark/benchmark.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "api/client.h"
#include "api/metrics/request_metrics.h"
#include "engine/engine.h"
#include "bench/common/bench_main.h"
#include "bench/common/bench_world.h"
#include "bench/common/ratio_reporter.h"
#include "bench/common/ratio_table.h"
#include "bench/common/world_benchmarks.h"
#include "bench/common/world_clients.h"

namespace dynarock::bench {
namespace {

struct JsonRequests {
  std::vector<std::string> puts;  // PutItem bodies
  std::vector<std::string> gets;  // GetItem bodies
};

const JsonRequests& Json() {
  static const JsonRequests* json = [] {
    auto* j = new JsonRequests;
    j->puts.reserve(kPreloadItems);
    j->gets.reserve(kPreloadItems);
    const std::string table = std::string("{\"TableName\":\"") + kTableName + "\",";
    for (int64_t i = 0; i < kPreloadItems; ++i) {
      j->puts.push_back(table + "\"Item\":" + OrderItemJson(i) + "}");
      j->gets.push_back(table + "\"Key\":" + OrderKeyJson(i) + "}");
    }
    return j;
  }();
  return *json;
}

api::Client& ClientFor(bool in_memory) {
  return WorldClient(in_memory, [](api::Client& c) {
    // The client reads what the engine wrote, item for item.
    for (int64_t i : {int64_t{0}, kPreloadItems - 1}) {
      api::Response r = c.Call("GetItem", Json().gets[i]);
      if (!r.ok() || r.body.find(OrderFieldsOf(i).sk) == std::string::npos ||
          r.body.find(OrderFieldsOf(i).ship_to) == std::string::npos) {
        Die("client GetItem: " + r.body);
      }
      r = c.Call("PutItem", Json().puts[i]);
      if (!r.ok()) Die("client PutItem: " + r.body);
    }
  });
}

// A Client on the same engine that always builds the JSON tree.
const api::Client& TreeClientFor(bool in_memory) {
  static std::unique_ptr<api::Client> clients[2];
  auto& c = clients[in_memory ? 0 : 1];
  if (!c) {
    ClientFor(in_memory);  // verifies the world
    c = std::make_unique<api::Client>(
        &WorldFor(in_memory).engine(),
        api::ClientOptions{.one_pass_item_requests = false});
  }
  return *c;
}

// A Client on the same engine that counts every request for GET /metrics.
const api::Client& CountedClientFor(bool in_memory) {
  static api::metrics::RequestMetrics metrics;
  static std::unique_ptr<api::Client> clients[2];
  auto& c = clients[in_memory ? 0 : 1];
  if (!c) {
    ClientFor(in_memory);  // verifies the world
    c = std::make_unique<api::Client>(&WorldFor(in_memory).engine(),
                                      api::ClientOptions{.request_metrics = &metrics});
  }
  return *c;
}

void GetItems(benchmark::State& state, const api::Client& client) {
  const JsonRequests& json = Json();
  KeyChooser keys(kPreloadItems);
  for (auto _ : state) {
    api::Response r = client.Call("GetItem", json.gets[keys.Next()]);
    if (!r.ok()) state.SkipWithError("GetItem failed");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}

void PutItems(benchmark::State& state, const api::Client& client) {
  const JsonRequests& json = Json();
  KeyChooser keys(kPreloadItems, 7);
  for (auto _ : state) {
    api::Response r = client.Call("PutItem", json.puts[keys.Next()]);
    if (!r.ok()) state.SkipWithError("PutItem failed");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}

// Runs `body` on the world's client with a fault rule in force that
// matches no request of the benchmark: one on another table (each request
// is parsed and shown to it), or with `other_operation`, one for another
// operation (the requests are not shown to it).
template <typename Body>
void WithIdleFaultRule(benchmark::State& state, bool in_memory, bool other_operation,
                       Body body) {
  api::Client& client = ClientFor(in_memory);
  Engine& engine = WorldFor(in_memory).engine();
  FaultRule rule;
  rule.id = "bench-idle";
  if (other_operation) {
    rule.match.operations = {"Query"};
  } else {
    rule.match.table_name = "no-such-table";
  }
  rule.effect.error = ErrorCode::kThrottling;
  if (!engine.PutFaultRule(rule).ok()) Die("PutFaultRule");
  body(state, client);
  engine.ClearFaultRules();
}

void FaultedGetItem(benchmark::State& state, bool in_memory) {
  WithIdleFaultRule(state, in_memory, false, GetItems);
}
void FaultedPutItem(benchmark::State& state, bool in_memory) {
  WithIdleFaultRule(state, in_memory, false, PutItems);
}
void OtherOpFaultedGetItem(benchmark::State& state, bool in_memory) {
  WithIdleFaultRule(state, in_memory, true, GetItems);
}

void ClientGetItem(benchmark::State& state, bool in_memory) {
  GetItems(state, ClientFor(in_memory));
}
void ClientPutItem(benchmark::State& state, bool in_memory) {
  PutItems(state, ClientFor(in_memory));
}
void CountedGetItem(benchmark::State& state, bool in_memory) {
  GetItems(state, CountedClientFor(in_memory));
}
void CountedPutItem(benchmark::State& state, bool in_memory) {
  PutItems(state, CountedClientFor(in_memory));
}
void TreeGetItem(benchmark::State& state, bool in_memory) {
  GetItems(state, TreeClientFor(in_memory));
}
void TreePutItem(benchmark::State& state, bool in_memory) {
  PutItems(state, TreeClientFor(in_memory));
}

void Register() {
  RegisterPerConfig({{"client/GetItem/", &ClientGetItem},
                     {"engine/GetItem/", &EngineGetItem},
                     {"raw/Get/", &RawGet},
                     {"client/PutItem/", &ClientPutItem},
                     {"engine/PutItem/", &EnginePutItem},
                     {"raw/Put/", &RawPut},
                     {"tree/GetItem/", &TreeGetItem},
                     {"tree/PutItem/", &TreePutItem},
                     {"faulted/GetItem/", &FaultedGetItem},
                     {"faulted/PutItem/", &FaultedPutItem},
                     {"faulted-query/GetItem/", &OtherOpFaultedGetItem},
                     {"counted/GetItem/", &CountedGetItem},
                     {"counted/PutItem/", &CountedPutItem}});
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  RatioReporter reporter;
  if (!RunBenchmarks(argc, argv, reporter, Register)) return 1;

  PrintRatiosHeading("Throughput ratios");
  PrintRatiosPerConfig(
      reporter,
      {{"client/engine GetItem", "client/GetItem/", "engine/GetItem/"},
       {"client/engine PutItem", "client/PutItem/", "engine/PutItem/"},
       {"client/raw GetItem/Get", "client/GetItem/", "raw/Get/"},
       {"client/raw PutItem/Put", "client/PutItem/", "raw/Put/"},
       {"one-pass/tree GetItem", "client/GetItem/", "tree/GetItem/"},
       {"one-pass/tree PutItem", "client/PutItem/", "tree/PutItem/"},
       {"tree/engine GetItem", "tree/GetItem/", "engine/GetItem/"},
       {"tree/engine PutItem", "tree/PutItem/", "engine/PutItem/"},
       {"faulted/client GetItem", "faulted/GetItem/", "client/GetItem/"},
       {"faulted/client PutItem", "faulted/PutItem/", "client/PutItem/"},
       {"faulted-query/client GetItem", "faulted-query/GetItem/", "client/GetItem/"},
       {"counted/client GetItem", "counted/GetItem/", "client/GetItem/"},
       {"counted/client PutItem", "counted/PutItem/", "client/PutItem/"}});
  ReleaseWorlds();
  return 0;
}
