// tools/simulate/write_sharding.h
//
// `dynarock simulate write-sharding`: the seed documents' GSI2 write-sharding
// example (000 zh / 003 ja) as an experiment on a real in-memory Engine on a
// SimulatedClock.
//
// Load: `orders` Order items (PK "O#<id>", SK "C#<customer>", Status OPEN for
// `open_fraction` of them, an order date spread over `days`, padded to
// `order_bytes`), and with `with_order_items` their OrderItems. GSI2 comes
// in three variants, each a GSI of its own so one load serves many N:
//   unsharded  PK Status ("OPEN"),          SK OrderDate
//   random     PK a random shard 0..N-1,    SK "<status>#<date>"
//   hash       PK hash(order id) mod N,     SK "<status>#<date>"
// A table holds at most 20 GSIs, so the sweep's GSIs are spread over tables
// ("Orders1", "Orders2", ...), each in an in-memory engine of its own with
// its own SimulatedClock, run on `threads` threads (results do not depend on
// the thread count). By default only the OPEN orders are written: a closed
// order's entry would sit under Status "CLOSED" or "CLOSED#<date>", key
// ranges the reads never touch, and 2.4M of them (240 MB) are far below the
// 10 GB split size, so they change no figure but the load time; they are
// counted in the formulas (`with_closed_orders` writes them). The GSIs are
// created after the load, one UpdateTable each, and backfilled
// (`backfill_indexes`; otherwise with the table). Every GSI
// projects the order's own attributes (INCLUDE), so an entry is about
// `order_bytes`. Loading runs with throttling off, BatchWriteItem calls of
// 25, paced on the simulated clock at `load_orders_per_second` so that the
// load does not scale the tables.
//
// Read: for each variant and N, every OPEN order in the date range with the
// seed's access pattern 5: one worker per shard key issuing Query pages
// (1 MB, LastEvaluatedKey) on the GSI, retrying throttles with exponential
// backoff and full jitter, in simulated time (event_loop.h), throttling on.
// A request takes service_base + service_per_kb * KB read of simulated time.
// Sustained (the default): each worker paces its pages to its share of
// `required_items_per_second` and starts over at the end of its shard, for
// `duration_seconds`; every simulated second is sampled (items arrived,
// throttles, the hottest partition's units, the GSI's partition count).
// Single read: each worker reads its shard once, as fast as it can.
//
// Not thread-safe; each run opens its own engine.

#ifndef DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_H_
#define DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/capacity/capacity_options.h"
#include "engine/status.h"
#include "tools/simulate/event_loop.h"
#include "tools/simulate/seed_formula.h"
#include "tools/simulate/shard_spread.h"

namespace dynarock::tools::simulate {

// The table and GSI capacity mode of a simulation.
struct CapacityMode {
  bool provisioned = false;  // false: on-demand (PAY_PER_REQUEST)
  // Provisioned: the table's RCU / WCU, and each GSI's.
  int64_t read_capacity_units = 0;
  int64_t write_capacity_units = 0;
  // "on-demand" or "provisioned 3000 RCU / 1000 WCU (table and each GSI)".
  std::string Describe() const;
};

// How a request's simulated duration is modelled: base + per KB read or
// written (KB of the response, from its consumed capacity).
struct ServiceTime {
  int64_t base_micros = 2'000;
  int64_t micros_per_kb = 10;  // ~100 MB/s per connection
};

enum class ShardingKind { kUnsharded, kRandom, kHash };
std::string_view ShardingKindName(ShardingKind kind);

// What the clients do with each GSI variant:
//   kSustained   read every OPEN order in the date range over and over at
//                `required_items_per_second` for `duration_seconds` of
//                simulated time (the seed's question: a sustained need)
//   kSingleRead  read every OPEN order once, as fast as they can, and time it
enum class ReadMode { kSustained, kSingleRead };
std::string_view ReadModeName(ReadMode mode);

struct WriteShardingOptions {
  int64_t orders = 3'000'000;
  double open_fraction = 0.2;
  int64_t order_bytes = 100;
  int64_t order_item_bytes = 50;
  int items_per_order = 3;
  bool with_order_items = false;
  // Load the closed orders too (by default they are counted, not loaded:
  // no read touches them; see the header comment).
  bool with_closed_orders = false;
  int days = 365;
  // The read's date range, as day offsets into `days` (inclusive); -1 = the
  // whole spread.
  int from_day = -1;
  int to_day = -1;
  // The N of the random variant, and of the hash variant unless
  // `hash_shards` is given. Both empty: the default sweep
  // (DefaultShards(), DefaultHashShards(); sustained: DefaultSustained*);
  // `shards` 1..20 alone: the full sweep, both variants at every N.
  std::vector<int> shards;
  std::vector<int> hash_shards;  // empty: the same as `shards`
  ReadMode mode = ReadMode::kSustained;
  // Sustained: simulated seconds of reading per variant and N.
  int duration_seconds = 60;
  // Sustained: a client that falls further behind its schedule than this
  // (throttled, backing off) drops the backlog beyond it instead of
  // bursting to catch up on all of it.
  int64_t max_lag_micros = 1'000'000;
  // Sustained: the "N the simulation shows" is the smallest N whose mean
  // achieved rate is at least this fraction of the required one.
  double sustained_fraction = 0.99;
  bool unsharded = true;
  bool random = true;
  bool hash = true;
  uint64_t seed = 1;
  CapacityMode capacity;
  int64_t load_orders_per_second = 1'500;
  ServiceTime service;
  BackoffOptions backoff;
  // The seed's MaxRequiredIO: items per second the clients need (the
  // analysis's rate).
  int64_t required_items_per_second = 600'000;
  // The "N the simulation shows": the smallest N whose read time is within
  // this fraction of the variant's best.
  double plateau_fraction = 0.10;
  // Create the GSIs after loading (UpdateTable, one at a time, backfilled)
  // instead of with the table (maintained through the GSI log on every
  // write): the same entries, about half the load time.
  bool backfill_indexes = true;
  // The clients ask Select COUNT (Count, ScannedCount, LastEvaluatedKey and
  // the consumed capacity: all the simulation looks at), so the engine
  // reads each distinct page once and answers its repeats from its page
  // memo (engine/pages/page_memo.h), admitted and charged as reads.
  // Otherwise they read the items (as stored). The same report either way
  // (tested); counting is what makes the sustained reads fast.
  bool count_pages = true;
  // After the load, check every table's indexes against its items
  // (Engine::VerifyIndexes: entries and counters); a difference fails the
  // run. For tests: it reads every table and index once more.
  bool verify_indexes = false;
  // Tables (each with its own engine and clock) loaded and read at once.
  // The results do not depend on it.
  int threads = 2;
  // The engine's throughput model (tests shrink it).
  CapacityOptions engine_capacity;
  // Progress: phase ("load", "read"), done, total.
  std::function<void(std::string_view, int64_t, int64_t)> on_progress;
};

// One simulated second of a sustained read.
struct SecondSample {
  int64_t items = 0;     // items of the pages that arrived in that second
  int64_t requests = 0;  // Query calls issued, throttled ones included
  int64_t throttled = 0;
  double read_units = 0;  // charged in that second
  // The most read units charged in that second to one of the GSI's
  // partitions (the shard keys' charges over the partitions at the
  // second's end), against the partition ceiling (3,000 RCU/s).
  double hottest_partition_units = 0;
  int partitions = 0;  // the GSI's partitions at the second's end
};

// One variant at one N.
struct ReadRun {
  ShardingKind kind = ShardingKind::kUnsharded;
  int shards = 1;
  std::string table_name;
  std::string index_name;
  int64_t read_micros = 0;  // simulated time until the last page arrived
  int64_t requests = 0;     // Query calls, throttled ones included
  int64_t throttled = 0;
  double read_units = 0;  // from ConsumedCapacity
  int64_t items = 0;      // entries read (ScannedCount)
  int partitions_touched = 0;
  int index_partitions = 0;  // the GSI's partitions after the read
  int max_attempts = 0;      // the most tries one page needed
  // The shard keys' partition hashes (from the capacity charges) and the
  // GSI's partition ranges when the read started.
  std::vector<uint64_t> key_hashes;
  std::vector<std::pair<uint64_t, uint64_t>> start_ranges;
  // The balls-into-bins analysis of this N over those partitions at the
  // required rate (WriteShardingOptions::required_items_per_second).
  ShardSpread spread;
  // Sustained mode: one sample per simulated second, and what they add up
  // to. read_micros is then the duration.
  std::vector<SecondSample> seconds;
  double achieved_items_per_second = 0;  // mean over the duration
  double hottest_partition_peak = 0;     // max over seconds
  double hottest_partition_mean = 0;     // mean over seconds
  std::vector<int> split_seconds;        // seconds whose end had more partitions
  // The model's accounting of the ceiling: the most any partition was
  // charged beyond ceiling x (its seconds so far + 1 of bucket), in units
  // (<= 0: within; a partition may go one page into debt, so up to
  // max_page_units).
  double max_ceiling_excess = 0;
  double max_page_units = 0;
};

struct WriteShardingReport {
  WriteShardingOptions options;  // as run (shards and hash_shards filled in)
  int64_t orders_loaded = 0;  // per table
  int64_t open_orders = 0;
  int64_t open_orders_in_range = 0;
  int64_t order_items_loaded = 0;
  double avg_order_bytes = 0;        // Order items as the GSIs project them
  double avg_entity_bytes = 0;       // order + its OrderItems
  std::vector<std::string> tables;   // with the GSIs each holds
  ShardFormula seed_formula;         // the seed's, on the entity size
  ShardFormula adjusted_formula;     // GSI entries, eventually consistent
  // The corrected formula at the required rate, and the smallest N whose
  // expected hottest partition (random placement of the keys over the
  // GSI's partitions when the reads started) stays within its ceiling.
  ShardFormula rate_formula;
  int index_partitions_at_start = 0;
  int balls_into_bins_n = -1;
  std::vector<ReadRun> runs;
  std::map<std::string, int> simulated_n;  // variant name -> N
  // Single read: the smallest N whose read time is within plateau_fraction
  // of the best. Sustained: the smallest N whose achieved rate is at least
  // sustained_fraction of the required one (absent when none).
  // Variant name -> the smallest N from which on (every larger N of the
  // sweep too) no Query was throttled; absent when the largest N was.
  std::map<std::string, int> unthrottled_n;
  double load_wall_seconds = 0;  // the slowest table's
  double read_wall_seconds = 0;  // the slowest table's
  double total_wall_seconds = 0;
  int64_t load_simulated_seconds = 0;
};

// The default sweep: the random suffix at N = 2, 3, 4, 6, 8, 10, 13, 15,
// 16, 17, 20 (1/N up to the clients' limit, the GSI's 4-6 partitions, the
// seed's 13, the best region 15-17 and a point past it) and the hash suffix
// at 4, 13, 16 (for this bulk read it reads as the random one does at the
// same N but for the backoff's jitter where pages are throttled), besides
// the unsharded baseline: 15 GSIs instead of the full sweep's 41.
std::vector<int> DefaultShards();
std::vector<int> DefaultHashShards();
// The sustained mode's default sweep, smaller (each GSI is read for a
// simulated minute at 600K items/s, ~36M entries): the random suffix at
// N = 2, 4, 8, 13, 16 (two keys; one key per partition of a new GSI's 4;
// twice that; the seed's 13; the smallest N whose keys 0..N-1 fit after
// 13's collision) and the hash suffix at 13, besides the unsharded one.
std::vector<int> DefaultSustainedShards();
std::vector<int> DefaultSustainedHashShards();

// Fills in the shard lists `o` leaves empty (the mode's defaults, or the
// other list; sorted, without repeats) and checks the options, as
// RunWriteSharding does first. Errors: kValidation for options out of range.
Status PrepareWriteShardingOptions(WriteShardingOptions* o);

// Runs the whole experiment. Errors: any engine error (kValidation for
// options the engine refuses, e.g. too many shards), or kValidation for
// options out of range.
Result<WriteShardingReport> RunWriteSharding(WriteShardingOptions options);

// The smallest x from which on every y is 0 (x ascending); -1 when the last
// y is not 0.
int ZeroFrom(const std::vector<int>& xs, const std::vector<int64_t>& ys);

// The smallest x whose y is within `fraction` of the smallest y
// (x ascending; xs and ys of equal length); 0 when empty.
int PlateauStart(const std::vector<int>& xs, const std::vector<double>& ys,
                 double fraction);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_H_
