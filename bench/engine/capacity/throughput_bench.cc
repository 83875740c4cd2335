// bench/engine/capacity/throughput_bench.cc
//
// The throughput core's hot paths, each beside a baseline measured in the
// same process and run, so that results read as ratios:
//
//   TokenBucket CanAdmit + Charge           vs an uncontended mutex lock/unlock
//   PartitionMap::IndexOf, 1/16/1024 parts   vs std::map upper_bound, same keys
//   ThroughputController::AdmitWrite of a 1-part and a 3-part charge (table +
//   two GSIs; never throttled: the clock moves 1 ms per call)
//                                             vs an uncontended mutex lock/unlock
//
//   build-thr/bench/throughput_bench          # all, 5 repetitions

#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <random>
#include <vector>

#include "bench/common/bench_main.h"
#include "bench/common/ratio_reporter.h"
#include "bench/common/ratio_table.h"
#include "engine/capacity/partition_map.h"
#include "engine/capacity/throughput_controller.h"
#include "engine/capacity/token_bucket.h"
#include "engine/clock.h"

namespace dynarock::bench {
namespace {

std::vector<uint64_t> RandomHashes(size_t n) {
  std::mt19937_64 rng(42);
  std::vector<uint64_t> out(n);
  for (uint64_t& h : out) h = rng();
  return out;
}

void MutexLockUnlock(benchmark::State& state) {
  std::mutex mu;
  for (auto _ : state) {
    mu.lock();
    benchmark::ClobberMemory();
    mu.unlock();
  }
}

void BucketAdmitCharge(benchmark::State& state) {
  int64_t now = 1'000'000;
  TokenBucket bucket(1000, 1000, now);
  for (auto _ : state) {
    now += 1000;  // one unit back per call
    if (bucket.CanAdmit(now)) bucket.Charge(1, now);
    benchmark::DoNotOptimize(bucket);
  }
}

void PartitionLookup(benchmark::State& state) {
  PartitionMap map(static_cast<int>(state.range(0)), PartitionCeilings{}, 0);
  const std::vector<uint64_t> hashes = RandomHashes(4096);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(map.IndexOf(hashes[i++ & 4095]));
  }
}

void StdMapLookup(benchmark::State& state) {
  PartitionMap parts(static_cast<int>(state.range(0)), PartitionCeilings{}, 0);
  std::map<uint64_t, size_t> map;
  for (size_t p = 0; p < parts.size(); ++p) map[parts.at(p).begin] = p;
  const std::vector<uint64_t> hashes = RandomHashes(4096);
  size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(std::prev(map.upper_bound(hashes[i++ & 4095]))->second);
  }
}

void AdmitWrite(benchmark::State& state) {
  SimulatedClock clock;
  ThroughputController controller(&clock);
  TableThroughputConfig config;
  config.table_id = 1;
  config.table_name = "t";
  config.table_arn = "arn:aws:dynamodb:us-east-1:000000000000:table/t";
  config.read_capacity_units = 1000;
  config.write_capacity_units = 10000;
  config.global_secondary_indexes = {{2, "g1", 1000, 10000, 0, 0},
                                     {3, "g2", 1000, 10000, 0, 0}};
  controller.RegisterTable(config);
  const std::vector<uint64_t> hashes = RandomHashes(4096);
  CapacityCharge charge;
  charge.table_id = 1;
  for (int64_t p = 0; p < state.range(0); ++p) {
    charge.parts.push_back(
        PartitionUnits{static_cast<uint32_t>(p == 0 ? 0 : p + 1), 0, "key", 0, 1});
  }
  size_t i = 0;
  for (auto _ : state) {
    clock.Advance(1000);
    for (PartitionUnits& part : charge.parts) part.hash = hashes[i++ & 4095];
    if (!controller.AdmitWrite(charge).ok()) state.SkipWithError("throttled");
  }
}

void Register() {
  benchmark::RegisterBenchmark("baseline/MutexLockUnlock", MutexLockUnlock);
  benchmark::RegisterBenchmark("bucket/AdmitCharge", BucketAdmitCharge);
  for (int n : {1, 16, 1024}) {
    const std::string suffix = std::to_string(n);
    benchmark::RegisterBenchmark(("map/IndexOf" + suffix).c_str(), PartitionLookup)
        ->Arg(n);
    benchmark::RegisterBenchmark(("baseline/StdMap" + suffix).c_str(), StdMapLookup)
        ->Arg(n);
  }
  benchmark::RegisterBenchmark("controller/AdmitWrite1", AdmitWrite)->Arg(1);
  benchmark::RegisterBenchmark("controller/AdmitWrite3", AdmitWrite)->Arg(3);
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) {
  using namespace dynarock::bench;
  RatioReporter reporter;
  RunBenchmarks(argc, argv, reporter, Register, UnknownFlags::kIgnore);
  std::printf("\n");
  std::vector<RatioRow> rows = {
      {"AdmitCharge / mutex", "bucket/AdmitCharge", "baseline/MutexLockUnlock"}};
  for (const std::string n : {"1", "16", "1024"}) {
    rows.push_back({"IndexOf" + n + " / std::map", "map/IndexOf" + n,
                    "baseline/StdMap" + n});
  }
  rows.push_back(
      {"AdmitWrite1 / mutex", "controller/AdmitWrite1", "baseline/MutexLockUnlock"});
  rows.push_back(
      {"AdmitWrite3 / mutex", "controller/AdmitWrite3", "baseline/MutexLockUnlock"});
  PrintRatios(reporter, rows);
  return 0;
}
