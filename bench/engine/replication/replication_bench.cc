// bench/engine/replication/replication_bench.cc
//
// What global tables cost and how fast replication goes, on one on-disk
// engine with the real clock and a replication lag of 0 (issue 44's
// figures). In one run:
//
//   plain    T threads PutItem N Order items (bench/common/order_items.h)
//            into a table that is no global table: the baseline
//   global   the same into the us-east-1 member of a global table with a
//            replica in us-west-2: each put also writes the item's version
//            and a replication record in its batch, and the engine's due
//            work (run by the writers' own calls and by the due-work timer,
//            as under `dynarock serve`) applies the records to the replica
//            while the load runs
//
// Prints puts/s of each (global / plain) with the calls' p99 and slowest
// (a call runs the engine's due work, replication included), the replicated writes/s (N over
// the time from the first put until the replica has applied every
// change), and the replication latency (write to apply, on the clock) of
// the replica's latest 4,096 changes: p50, p99, max. Throttling is off: the figures are the machine's, not the
// capacity model's.
//
//   build/bench/replication_bench [N=200000] [THREADS=2]

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "bench/common/bench_world.h"
#include "bench/common/check.h"
#include "bench/common/order_items.h"
#include "bench/common/orders_table.h"
#include "engine/engine.h"

namespace dynarock::bench {
namespace {

using Clock = std::chrono::steady_clock;

Scope In(const std::string& region) {
  Scope s;
  s.access_key = "AKID";
  s.region = region;
  s.ns = NamespaceFor("AKID", region);
  return s;
}

double Seconds(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// What a load took: its seconds, and its calls' p99 and slowest in ms (a
// call also runs the engine's due work, which includes replication).
struct LoadTimes {
  double seconds = 0;
  double p99_ms = 0;
  double max_ms = 0;
};

// PutItem of items [0, n) of `table` in `scope` from `threads` threads.
LoadTimes Load(Engine& engine, const Scope& scope, const std::string& table, int64_t n,
               int threads) {
  std::atomic<int64_t> next{0};
  std::vector<std::vector<double>> call_ms(threads);
  const Clock::time_point start = Clock::now();
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      PutItemRequest req;
      req.scope = scope;
      req.table_name = table;
      for (int64_t i = next++; i < n; i = next++) {
        req.item = OrderItem(i);
        const Clock::time_point before = Clock::now();
        Check(engine.PutItem(req).status(), "PutItem");
        call_ms[t].push_back(Seconds(before, Clock::now()) * 1e3);
      }
    });
  }
  for (std::thread& w : workers) w.join();
  LoadTimes times;
  times.seconds = Seconds(start, Clock::now());
  std::vector<double> all;
  for (const std::vector<double>& mine : call_ms) all.insert(all.end(), mine.begin(), mine.end());
  std::sort(all.begin(), all.end());
  if (!all.empty()) {
    times.p99_ms = all[(all.size() - 1) * 99 / 100];
    times.max_ms = all.back();
  }
  return times;
}

int Main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 200'000;
  const int threads = argc > 2 ? std::atoi(argv[2]) : 2;
  if (n <= 0 || threads <= 0) Die("usage: replication_bench [N>0] [THREADS>0]");
  const std::string dir = MakeTempDir("replication");
  EngineOptions options = BenchEngineOptions(/*in_memory=*/false, dir);
  options.throttling = false;
  options.replication_lag_micros = 0;
  options.due_work_interval_micros = 1'000'000;  // serve's default
  std::unique_ptr<Engine> engine = OpenBenchEngine(options);
  const Scope east = In("us-east-1");
  const Scope west = In("us-west-2");

  CreateTableRequest plain = OrdersTableRequest();
  plain.scope = east;
  plain.table_name = "Plain";
  Check(engine->CreateTable(plain).status(), "CreateTable Plain");
  CreateTableRequest global = OrdersTableRequest();
  global.scope = east;
  global.table_name = "Global";
  Check(engine->CreateTable(global).status(), "CreateTable Global");
  UpdateTableRequest replica;
  replica.scope = east;
  replica.table_name = "Global";
  ReplicationGroupUpdate create;
  create.action = ReplicationGroupUpdate::Action::kCreate;
  create.region_name = "us-west-2";
  replica.replica_updates = {create};
  Check(engine->UpdateTable(replica).status(), "UpdateTable ReplicaUpdates");

  const LoadTimes plain_load = Load(*engine, east, "Plain", n, threads);
  const Clock::time_point start = Clock::now();
  const LoadTimes global_load = Load(*engine, east, "Global", n, threads);
  const double plain_s = plain_load.seconds;
  const double global_s = global_load.seconds;
  int64_t pending = 0;
  ReplicaReplicationDescription into_west;
  for (;;) {
    Result<ReplicationDescription> d = engine->DescribeReplication(west, "Global");
    Check(d.status(), "DescribeReplication");
    into_west = d->replicas.front();
    pending = into_west.pending_records;
    if (pending == 0 && into_west.applied + into_west.superseded >= n) break;
    // Not too often: DescribeReplication counts the pending records.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const double caught_up_s = Seconds(start, Clock::now());
  GetItemRequest get;
  get.scope = west;
  get.table_name = "Global";
  get.key = OrderKey(n - 1);
  get.consistent_read = true;
  Result<GetItemResult> last = engine->GetItem(get);
  Check(last.status(), "GetItem");
  if (!last->item) Die("the replica lacks the last item");

  std::printf("replication_bench: %lld Order items (%lld B), %d threads, on disk, lag 0\n",
              static_cast<long long>(n), static_cast<long long>(kOrderItemBytes), threads);
  std::printf("  plain table puts/s          %10.0f   (call p99 %.2f ms, max %.1f ms)\n",
              n / plain_s, plain_load.p99_ms, plain_load.max_ms);
  std::printf("  global table puts/s         %10.0f   (global / plain %.2f; call p99 %.2f ms, "
              "max %.1f ms)\n",
              n / global_s, plain_s / global_s, global_load.p99_ms, global_load.max_ms);
  std::printf("  replicated writes/s         %10.0f   (all %lld applied in us-west-2 %.2f s "
              "after the first put; the puts took %.2f s)\n",
              n / caught_up_s, static_cast<long long>(n), caught_up_s, global_s);
  std::printf("  latency of the last %lld changes: p50 %.2f ms, p99 %.2f ms, max %.2f ms\n",
              static_cast<long long>(into_west.latency_samples),
              into_west.latency_p50_micros / 1e3, into_west.latency_p99_micros / 1e3,
              into_west.latency_max_micros / 1e3);
  engine.reset();
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());
  return 0;
}

}  // namespace
}  // namespace dynarock::bench

int main(int argc, char** argv) { return dynarock::bench::Main(argc, argv); }
