// bench/api/client_bench.cc
//
// PutItem and GetItem of 250-byte Order items through the in-process
// api::Client::Call with DynamoDB JSON request bodies, beside the same
// operations on the Engine API and on raw RocksDB, in the same process and
// run (the databases of bench/common/bench_world.h). After the run it prints
// client / engine (the cost of the JSON protocol) and client / raw ratios.
//
//   build-bench/bench/client_bench                          # mem and disk
//   build-bench/bench/client_bench --benchmark_filter=mem

#include <benchmark/benchmark.h>

#include <cstdio>
#include <string>
#include <vector>

#include "api/client.h"
#include "bench/common/bench_world.h"
#include "bench/common/ratio_reporter.h"

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
  static std::unique_ptr<api::Client> clients[2];
  auto& c = clients[in_memory ? 0 : 1];
  if (!c) {
    c = std::make_unique<api::Client>(&WorldFor(in_memory).engine());
    // The client reads what the engine wrote, item for item.
    for (int64_t i : {int64_t{0}, kPreloadItems - 1}) {
      api::Response r = c->Call("GetItem", Json().gets[i]);
      if (!r.ok() || r.body.find(OrderFieldsOf(i).sk) == std::string::npos ||
          r.body.find(OrderFieldsOf(i).ship_to) == std::string::npos) {
        Die("client GetItem: " + r.body);
      }
      r = c->Call("PutItem", Json().puts[i]);
      if (!r.ok()) Die("client PutItem: " + r.body);
    }
  }
  return *c;
}

void ClientGetItem(benchmark::State& state, bool in_memory) {
  const api::Client& client = ClientFor(in_memory);
  const JsonRequests& json = Json();
  KeyChooser keys(kPreloadItems);
  for (auto _ : state) {
    api::Response r = client.Call("GetItem", json.gets[keys.Next()]);
    if (!r.ok()) state.SkipWithError("GetItem failed");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}

void ClientPutItem(benchmark::State& state, bool in_memory) {
  const api::Client& client = ClientFor(in_memory);
  const JsonRequests& json = Json();
  KeyChooser keys(kPreloadItems, 7);
  for (auto _ : state) {
    api::Response r = client.Call("PutItem", json.puts[keys.Next()]);
    if (!r.ok()) state.SkipWithError("PutItem failed");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}

void EngineGetItem(benchmark::State& state, bool in_memory) {
  Engine& engine = WorldFor(in_memory).engine();
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems);
  for (auto _ : state) {
    auto result = engine.GetItem(data.gets[keys.Next()]);
    if (!result.ok() || !result->item) state.SkipWithError("GetItem failed");
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations());
}

void EnginePutItem(benchmark::State& state, bool in_memory) {
  Engine& engine = WorldFor(in_memory).engine();
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems, 7);
  for (auto _ : state) {
    auto result = engine.PutItem(data.puts[keys.Next()]);
    if (!result.ok()) state.SkipWithError("PutItem failed");
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations());
}

void RawGet(benchmark::State& state, bool in_memory) {
  RawDb& raw = WorldFor(in_memory).raw();
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems);
  for (auto _ : state) {
    std::string value;
    if (!raw.Get(data.raw_keys[keys.Next()], &value)) state.SkipWithError("Get missed");
    benchmark::DoNotOptimize(value);
  }
  state.SetItemsProcessed(state.iterations());
}

void RawPut(benchmark::State& state, bool in_memory) {
  RawDb& raw = WorldFor(in_memory).raw();
  const DataSet& data = Data();
  KeyChooser keys(kPreloadItems, 7);
  for (auto _ : state) {
    const int64_t i = keys.Next();
    raw.Put(data.raw_keys[i], data.raw_values[i]);
  }
  state.SetItemsProcessed(state.iterations());
}

void Register() {
  for (bool in_memory : {true, false}) {
    const std::string cfg = in_memory ? "mem" : "disk";
    for (auto [name, fn] :
         {std::pair{"client/GetItem/", &ClientGetItem},
          {"engine/GetItem/", &EngineGetItem}, {"raw/Get/", &RawGet},
          {"client/PutItem/", &ClientPutItem},
          {"engine/PutItem/", &EnginePutItem}, {"raw/Put/", &RawPut}}) {
      benchmark::RegisterBenchmark((name + cfg).c_str(), fn, in_memory)
          ->Unit(benchmark::kNanosecond)
          ->UseRealTime();
    }
  }
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  std::vector<char*> args = ArgsWithDefaults(argc, argv);
  int n = static_cast<int>(args.size()) - 1;
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
  Register();
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  std::printf("\nThroughput ratios (same run; %lld items of %lld bytes "
              "preloaded, random keys):\n",
              static_cast<long long>(kPreloadItems),
              static_cast<long long>(kOrderItemBytes));
  for (const char* cfg : {"mem", "disk"}) {
    const std::string c = cfg;
    reporter.PrintRatio("client/engine GetItem (" + c + ")",
                        "client/GetItem/" + c, "engine/GetItem/" + c, 0);
    reporter.PrintRatio("client/engine PutItem (" + c + ")",
                        "client/PutItem/" + c, "engine/PutItem/" + c, 0);
    reporter.PrintRatio("client/raw GetItem/Get (" + c + ")",
                        "client/GetItem/" + c, "raw/Get/" + c, 0);
    reporter.PrintRatio("client/raw PutItem/Put (" + c + ")",
                        "client/PutItem/" + c, "raw/Put/" + c, 0);
  }
  WorldSlot(true).reset();
  WorldSlot(false).reset();
  return 0;
}
