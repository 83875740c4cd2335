// bench/api/http/response_bench.cc
//
// Two steps every read's answer takes on its way out, each beside a
// baseline in the same run:
//   - x-amz-crc32 over a Query answer of 100 Order items (about 25 KB):
//     api::http::Crc32 (ISA-L) against zlib's crc32, the implementation it
//     replaced;
//   - AppendJsonString over the string values of Order items (what JSON
//     rendering spends on each S value and attribute name) against copying
//     the same bytes (the floor: a string with nothing to escape is copied).
// Prints the throughput ratios after the run.
//
//   build/bench/response_bench

#include <benchmark/benchmark.h>
#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

#include "api/encoded_item_json.h"
#include "api/http/protocol.h"
#include "bench/common/bench_main.h"
#include "bench/common/order_items.h"
#include "bench/common/ratio_reporter.h"
#include "bench/common/ratio_table.h"

namespace dynarock::bench {
namespace {

// A Query answer's body: 100 Order items' DynamoDB JSON.
const std::string& QueryBody() {
  static const std::string* body = [] {
    auto* b = new std::string(R"({"Count":100,"Items":[)");
    for (int64_t i = 0; i < 100; ++i) {
      if (i > 0) b->push_back(',');
      *b += OrderItemJson(i);
    }
    *b += R"(],"ScannedCount":100})";
    return b;
  }();
  return *body;
}

// The string values and attribute names of 1,000 Order items.
const std::vector<std::string>& OrderStrings() {
  static const std::vector<std::string>* strings = [] {
    auto* s = new std::vector<std::string>;
    for (int64_t i = 0; i < 1000; ++i) {
      const OrderFields f = OrderFieldsOf(i);
      for (const std::string* v : {&f.pk, &f.sk, &f.order_date, &f.rep, &f.status,
                                   &f.ship_to, &f.note}) {
        s->push_back(*v);
      }
      for (const char* name : {"PK", "SK", "OrderDate", "Amount", "Quantity", "Rep",
                               "Status", "ShipTo", "Note"}) {
        s->push_back(name);
      }
    }
    return s;
  }();
  return *strings;
}

void BM_Crc32(benchmark::State& state) {
  const std::string& body = QueryBody();
  for (auto _ : state) benchmark::DoNotOptimize(api::http::Crc32(body));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(body.size()));
}
BENCHMARK(BM_Crc32);

void BM_Crc32Zlib(benchmark::State& state) {
  const std::string& body = QueryBody();
  for (auto _ : state) {
    benchmark::DoNotOptimize(crc32(0L, reinterpret_cast<const Bytef*>(body.data()),
                                   static_cast<uInt>(body.size())));
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(body.size()));
}
BENCHMARK(BM_Crc32Zlib);

// One pass over every string, appended to a buffer reused across passes.
template <typename Append>
void AppendAll(benchmark::State& state, Append append) {
  const std::vector<std::string>& strings = OrderStrings();
  std::string out;
  for (auto _ : state) {
    out.clear();
    for (const std::string& s : strings) append(s, &out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(strings.size()));
}

void BM_AppendJsonString(benchmark::State& state) {
  AppendAll(state, [](const std::string& s, std::string* out) {
    api::AppendJsonString(s, out);
  });
}
BENCHMARK(BM_AppendJsonString);

void BM_AppendQuoted(benchmark::State& state) {
  AppendAll(state, [](const std::string& s, std::string* out) {
    out->push_back('"');
    out->append(s);
    out->push_back('"');
  });
}
BENCHMARK(BM_AppendQuoted);

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  RatioReporter reporter;
  if (!RunBenchmarks(argc, argv, reporter)) return 1;
  std::printf("\nThroughput ratios (same run):\n");
  PrintRatios(reporter,
              {{"Crc32 (ISA-L) / zlib crc32", "BM_Crc32", "BM_Crc32Zlib"},
               {"AppendJsonString / copy", "BM_AppendJsonString", "BM_AppendQuoted"}});
  return 0;
}
