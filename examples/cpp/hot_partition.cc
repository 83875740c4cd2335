// examples/cpp/hot_partition.cc
//
// A discrete-event simulation with dynarock embedded: the seed's hot
// partition, one partition key written 2,000 times a (simulated) second,
// against the same writes spread over ten suffixed keys ("HOT#0".."HOT#9",
// a random suffix per write: the write-sharding pattern). Each scenario has
// an on-demand table of its own in one in-memory engine on a SimulatedClock,
// with throttling on; a throttled write is retried after an exponential
// backoff with full jitter (botocore's: 50 ms base), at most 10 times.
//
// The program owns time: it pops the earliest event, sets the clock to it
// and makes the engine call; nothing sleeps, so 10 simulated seconds take a
// fraction of a real one and every run prints the same numbers. At the last
// microsecond of each simulated second, until the last retry, it reads the
// engine's capacity statistics (Engine::DescribeCapacity: what each table
// consumed and had throttled in that second) and prints one line; at the
// end, the engine's totals and hottest keys beside the throttle errors the
// writers received (scripts/package_check.sh checks that the two agree).
//
//   hot_partition [seconds of writes]     (default 10)
//
// Built against the installed package (examples/cpp/CMakeLists.txt).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/options.h"
#include "engine/status.h"

namespace {

using dynarock::AttributeValue;
using dynarock::Engine;

constexpr int64_t kSecond = 1'000'000;  // the clock counts microseconds
constexpr int64_t kWritesPerSecond = 2'000;
constexpr int kSuffixes = 10;
constexpr int kMaxRetries = 10;
constexpr int64_t kBackoffBaseMicros = 50'000;
constexpr int64_t kBackoffCapMicros = 20 * kSecond;

// One scenario: its table and what its writers saw.
struct Scenario {
  std::string name;
  std::string table;
  int keys = 1;
  int64_t writes = 0;           // acknowledged
  int64_t throttle_errors = 0;  // ProvisionedThroughputExceeded and kin
  int64_t given_up = 0;         // writes that ran out of retries
};

// A writer's next attempt, or (scenario < 0) the end-of-second sample.
struct Event {
  int64_t at = 0;
  int scenario = -1;
  int64_t write = 0;
  int attempt = 0;
  // A total order, so that the run does not depend on the heap's layout;
  // at one instant the sample (-1) comes before the writes.
  bool operator>(const Event& o) const {
    if (at != o.at) return at > o.at;
    if (scenario != o.scenario) return scenario > o.scenario;
    return write > o.write;
  }
};

// The suffix of write `i`: SplitMix64's finalizer, so suffixes look random,
// and a retry (the same request again) writes the same key.
int SuffixOf(int64_t i, int keys) {
  uint64_t x = static_cast<uint64_t>(i) + 0x9E3779B97F4A7C15ULL;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
  return static_cast<int>((x ^ (x >> 31)) % static_cast<uint64_t>(keys));
}

bool IsThrottle(const dynarock::Status& s) {
  return s.code() == dynarock::ErrorCode::kProvisionedThroughputExceeded ||
         s.code() == dynarock::ErrorCode::kThrottling ||
         s.code() == dynarock::ErrorCode::kRequestLimitExceeded;
}

[[noreturn]] void Fail(const std::string& what, const dynarock::Status& s) {
  std::fprintf(stderr, "hot_partition: %s: %s\n", what.c_str(), s.ToString().c_str());
  std::exit(1);
}

void CreateTable(Engine& engine, const std::string& name) {
  dynarock::CreateTableRequest req;
  req.table_name = name;
  req.key_schema = {{"PK", dynarock::KeyType::kHash}, {"SK", dynarock::KeyType::kRange}};
  req.attribute_definitions = {{"PK", dynarock::AttrType::kS},
                               {"SK", dynarock::AttrType::kS}};
  req.billing_mode = dynarock::BillingMode::kPayPerRequest;
  if (auto r = engine.CreateTable(req); !r.ok()) Fail("CreateTable " + name, r.status());
}

dynarock::TableThroughputStats Capacity(Engine& engine, const std::string& table,
                                        size_t hot_keys) {
  auto r = engine.DescribeCapacity(dynarock::Scope{}, table, hot_keys);
  if (!r.ok()) Fail("DescribeCapacity " + table, r.status());
  return std::move(r).value();
}

}  // namespace

int main(int argc, char** argv) {
  const int seconds = argc > 1 ? std::atoi(argv[1]) : 10;
  if (seconds < 1 || seconds > 600) {
    std::fprintf(stderr, "usage: hot_partition [seconds: 1..600]\n");
    return 2;
  }

  // The clock belongs to the program and outlives the engine. Tables are
  // ACTIVE at once (no CREATING delay to advance past); GSI propagation is
  // deterministic (the default on a SimulatedClock, spelled out); and no
  // due-work timer (due_work_interval_micros stays 0): on a simulated clock
  // the background work runs inside the engine calls, at the clock's time.
  dynarock::SimulatedClock clock;
  dynarock::EngineOptions options;
  options.in_memory = true;  // or options.path = "some/dir" for RocksDB on disk
  options.clock = &clock;
  options.throttling = true;
  options.table_create_delay_micros = 0;
  options.gsi_propagation = dynarock::GsiPropagation::kDeterministic;
  auto opened = Engine::Open(options);
  if (!opened.ok()) Fail("Engine::Open", opened.status());
  std::unique_ptr<Engine> engine = std::move(opened).value();

  std::vector<Scenario> scenarios = {
      {"single-key", "HotSingleKey", 1},
      {"suffixed-" + std::to_string(kSuffixes), "HotSuffixed", kSuffixes}};
  for (const Scenario& s : scenarios) CreateTable(*engine, s.table);

  // Start on a whole second, so that a clock second is a simulated second.
  clock.Set((clock.NowMicros() / kSecond + 1) * kSecond);
  const int64_t start = clock.NowMicros();

  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events;
  for (int64_t i = 0; i < kWritesPerSecond * seconds; ++i) {
    for (int s = 0; s < static_cast<int>(scenarios.size()); ++s) {
      events.push({start + i * kSecond / kWritesPerSecond, s, i, 0});
    }
  }
  // The first sample; each schedules the next while writes are pending.
  events.push({start + kSecond - 1, -1, 0, 0});

  std::mt19937_64 rng(1);  // the backoff's jitter
  const std::string padding(440, 'd');  // items of about 480 B: 1 WCU a write
  std::printf("%6s", "");
  for (const Scenario& s : scenarios) std::printf("  %19s", s.name.c_str());
  std::printf("\nsecond");
  for (size_t i = 0; i < scenarios.size(); ++i) std::printf("  %8s %10s", "wcu", "throttled");
  std::printf("\n");
  while (!events.empty()) {
    const Event e = events.top();
    events.pop();
    clock.Set(e.at);
    if (e.scenario < 0) {
      // The statistics' last_second is the clock second containing now.
      std::printf("%6lld", static_cast<long long>(e.write));
      for (const Scenario& s : scenarios) {
        const dynarock::Usage u = Capacity(*engine, s.table, 0).table.last_second;
        std::printf("  %8.0f %10lld", u.consumed_write_units,
                    static_cast<long long>(u.throttled_write_requests));
      }
      std::printf("\n");
      if (e.write + 1 < seconds || !events.empty()) {
        events.push({e.at + kSecond, -1, e.write + 1, 0});
      }
      continue;
    }
    Scenario& s = scenarios[static_cast<size_t>(e.scenario)];
    dynarock::PutItemRequest put;
    put.table_name = s.table;
    put.item["PK"] = AttributeValue::S(
        s.keys == 1 ? "HOT" : "HOT#" + std::to_string(SuffixOf(e.write, s.keys)));
    put.item["SK"] = AttributeValue::S("W#" + std::to_string(e.write));
    put.item["Data"] = AttributeValue::S(padding);
    auto r = engine->PutItem(put);
    if (r.ok()) {
      ++s.writes;
      continue;
    }
    if (!IsThrottle(r.status())) Fail("PutItem " + s.table, r.status());
    ++s.throttle_errors;
    if (e.attempt >= kMaxRetries) {
      ++s.given_up;
      continue;
    }
    const int64_t ceiling =
        std::min(kBackoffCapMicros, kBackoffBaseMicros << e.attempt);
    const int64_t delay = static_cast<int64_t>(rng() % static_cast<uint64_t>(ceiling + 1));
    events.push({e.at + delay, e.scenario, e.write, e.attempt + 1});
  }

  std::printf("\nafter %.3f simulated s:\n",
              static_cast<double>(clock.NowMicros() - start) / kSecond);
  for (const Scenario& s : scenarios) {
    const dynarock::TableThroughputStats stats = Capacity(*engine, s.table, 3);
    const dynarock::ResourceStats& t = stats.table;
    std::printf(
        "total %s: writes=%lld throttle_errors=%lld given_up=%lld | engine: "
        "wcu=%.0f throttled_requests=%lld partitions=%zu\n",
        s.name.c_str(), static_cast<long long>(s.writes),
        static_cast<long long>(s.throttle_errors), static_cast<long long>(s.given_up),
        t.total.consumed_write_units,
        static_cast<long long>(t.total.throttled_write_requests), t.partitions.size());
    for (const dynarock::HotKey& k : t.hot_keys) {
      std::printf("  hot key %-10s wcu=%.0f throttled_units=%.0f\n", k.key.c_str(),
                  k.write_units, k.throttled_units);
    }
  }
  return 0;  // the engine closes as `engine` goes out of scope
}
