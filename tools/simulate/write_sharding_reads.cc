// tools/simulate/write_sharding_reads.cc

#include "tools/simulate/write_sharding_reads.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "tools/simulate/event_loop.h"
#include "tools/simulate/sim_support.h"

namespace dynarock::tools::simulate {
namespace {

constexpr int64_t kMicros = kMicrosPerSecond;

// The GSI's partition ranges now, in ring order.
Result<std::vector<std::pair<uint64_t, uint64_t>>> GsiRanges(
    Engine& engine, const std::string& table, const std::string& index) {
  Result<TableThroughputStats> stats = engine.DescribeCapacity(Scope{}, table, 0);
  if (!stats.ok()) return stats.status();
  std::vector<std::pair<uint64_t, uint64_t>> out;
  for (const ResourceStats& gsi : stats.value().global_secondary_indexes) {
    if (gsi.name != index) continue;
    for (const PartitionStats& p : gsi.partitions) out.emplace_back(p.begin, p.end);
  }
  return out;
}

// Fills run->index_partitions (the GSI's now) and partitions_touched (those
// holding one of run->key_hashes).
Status CountPartitions(Engine& engine, ReadRun* run) {
  Result<TableThroughputStats> stats =
      engine.DescribeCapacity(Scope{}, run->table_name, 0);
  if (!stats.ok()) return stats.status();
  for (const ResourceStats& gsi : stats.value().global_secondary_indexes) {
    if (gsi.name != run->index_name) continue;
    run->index_partitions = static_cast<int>(gsi.partitions.size());
    std::set<uint32_t> touched;
    for (uint64_t h : run->key_hashes) {
      for (const PartitionStats& p : gsi.partitions) {
        if (h >= p.begin && (p.end == 0 || h < p.end)) touched.insert(p.id);
      }
    }
    run->partitions_touched = static_cast<int>(touched.size());
  }
  return Status::OK();
}

// The Query of each shard key of a GSI variant: one worker per key
// (unsharded: the one key "OPEN"), "#p = :p AND #s BETWEEN :a AND :b" over
// the date range.
struct ShardQueries {
  ShardQueries(const TableSpec& table, const IndexSpec& index, int from_day,
               int to_day, bool count_pages) {
    ShardQuerySpec spec = ShardQueryOf(index, from_day, to_day);
    pks = std::move(spec.partition_keys);
    base.table_name = table.name;
    base.read.index_name = index.index_name;
    // Counted (WriteShardingOptions::count_pages), or the items as stored
    // (the engine's encoded_items): what the page read, without building an
    // Item per entry. The units are the same.
    if (count_pages) {
      base.read.select = Select::kCount;
    } else {
      base.read.encoded_items = true;
    }
    base.key_condition_expression = "#p = :p AND #s BETWEEN :a AND :b";
    base.read.expression_attribute_names = ExpressionAttributeNames{
        {"#p", spec.partition_attribute}, {"#s", spec.sort_attribute}};
    lo = std::move(spec.lo);
    hi = std::move(spec.hi);
  }
  QueryRequest For(size_t worker, const std::optional<Item>& start_key) const {
    QueryRequest q = base;
    q.read.expression_attribute_values =
        ExpressionAttributeValues{{":p", pks[worker]}, {":a", lo}, {":b", hi}};
    q.read.exclusive_start_key = start_key;
    return q;
  }

  std::vector<AttributeValue> pks;
  QueryRequest base;
  AttributeValue lo, hi;
};

// A GSI's partitions now: ranges and ids, in ring order.
struct PartitionRange {
  uint64_t begin = 0;
  uint64_t end = 0;
  uint32_t id = 0;
  bool Contains(uint64_t h) const { return h >= begin && (end == 0 || h < end); }
};

Result<std::vector<PartitionRange>> GsiPartitions(Engine& engine,
                                                  const std::string& table,
                                                  const std::string& index) {
  Result<TableThroughputStats> stats = engine.DescribeCapacity(Scope{}, table, 0);
  if (!stats.ok()) return stats.status();
  std::vector<PartitionRange> out;
  for (const ResourceStats& gsi : stats.value().global_secondary_indexes) {
    if (gsi.name != index) continue;
    for (const PartitionStats& p : gsi.partitions) out.push_back({p.begin, p.end, p.id});
  }
  return out;
}

// The state of one sustained read (ReadSustained): the workers, the
// per-second samples and the loop that paces them.
class SustainedRead {
 public:
  SustainedRead(Engine& engine, SimulatedClock& clock, const TableSpec& table,
                const IndexSpec& index, const WriteShardingOptions& o, int from_day,
                int to_day)
      : engine_(engine),
        clock_(clock),
        table_(table),
        index_(index),
        o_(o),
        backoff_(o.backoff, Mix64(o.seed ^ Fnv1a64(index.index_name))),
        queries_(table, index, from_day, to_day, o.count_pages),
        n_(queries_.pks.size()),
        // Each worker's share of the rate, as micros per item.
        micros_per_item_(static_cast<double>(kMicros) * static_cast<double>(n_) /
                         static_cast<double>(o.required_items_per_second)),
        workers_(n_),
        seconds_(o.duration_seconds),
        loop_(&clock) {
    run_.kind = index.kind;
    run_.shards = index.shards;
    run_.table_name = table.name;
    run_.index_name = index.index_name;
  }

  Result<ReadRun> Run() {
    Result<std::vector<PartitionRange>> start =
        GsiPartitions(engine_, table_.name, index_.index_name);
    if (!start.ok()) return start.status();
    for (const PartitionRange& p : start.value()) {
      run_.start_ranges.emplace_back(p.begin, p.end);
    }
    run_start_ = clock_.NowMicros();
    run_end_ = run_start_ + seconds_ * kMicros;
    run_.seconds.assign(static_cast<size_t>(seconds_), SecondSample{});
    units_.assign(static_cast<size_t>(seconds_), std::vector<double>(n_, 0.0));
    ranges_at_.resize(static_cast<size_t>(seconds_));
    for (size_t w = 0; w < n_; ++w) {
      workers_[w].due = static_cast<double>(run_start_);
      loop_.Schedule(run_start_, static_cast<int>(w));
    }
    loop_.Run([this](int w) { Step(w); });
    if (!failure_.ok()) return failure_;
    clock_.Set(std::max(clock_.NowMicros(), run_end_));
    SampleUntil(run_end_);
    if (!failure_.ok()) return failure_;
    run_.read_micros = run_end_ - run_start_;
    run_.max_attempts = std::max(run_.max_attempts, 1);
    std::set<uint64_t> hashes;
    for (const Worker& worker : workers_) {
      if (worker.hash_known) hashes.insert(worker.hash);
    }
    run_.key_hashes.assign(hashes.begin(), hashes.end());
    Summarize();
    if (Status s = CountPartitions(engine_, &run_); !s.ok()) return s;
    return std::move(run_);
  }

 private:
  struct Worker {
    std::optional<Item> start_key;
    int attempt = 0;
    double due = 0;  // when its next page is due, clock micros
    uint64_t hash = 0;
    bool hash_known = false;
  };

  // Records the GSI's partitions at the end of every second up to `now`.
  void SampleUntil(int64_t now) {
    while (sampled_ < seconds_ && now >= run_start_ + (sampled_ + 1) * kMicros) {
      Result<std::vector<PartitionRange>> parts =
          GsiPartitions(engine_, table_.name, index_.index_name);
      if (!parts.ok()) {
        if (failure_.ok()) failure_ = parts.status();
        return;
      }
      ranges_at_[sampled_] = std::move(parts).value();
      ++sampled_;
    }
  }

  size_t SecondOf(int64_t t) const { return static_cast<size_t>((t - run_start_) / kMicros); }

  void Schedule(int64_t at, int w) {
    if (at < run_end_) loop_.Schedule(at, w);
  }

  // Worker `w` issues its next page.
  void Step(int w) {
    const int64_t now = clock_.NowMicros();
    SampleUntil(now);
    if (!failure_.ok()) return;
    Worker& worker = workers_[w];
    Result<QueryResult> r = engine_.Query(queries_.For(w, worker.start_key));
    ++run_.requests;
    SecondSample& sec = run_.seconds[SecondOf(now)];
    ++sec.requests;
    if (!r.ok()) {
      if (!IsThrottle(r.status())) {
        if (failure_.ok()) failure_ = r.status();
        return;
      }
      ++run_.throttled;
      ++sec.throttled;
      const int64_t delay = backoff_.DelayMicros(worker.attempt++);
      run_.max_attempts = std::max(run_.max_attempts, worker.attempt + 1);
      Schedule(now + o_.service.base_micros + delay, w);
      return;
    }
    worker.attempt = 0;
    TakePage(w, now, r.value(), sec);
  }

  // Counts page `page` of worker `w`, issued at `now`, and schedules its
  // next one.
  void TakePage(int w, int64_t now, const QueryResult& page, SecondSample& sec) {
    Worker& worker = workers_[w];
    const double page_units = page.consumed_capacity.Total().read_units;
    run_.read_units += page_units;
    sec.read_units += page_units;
    run_.max_page_units = std::max(run_.max_page_units, page_units);
    units_[SecondOf(now)][w] += page_units;
    for (const CapacityCharge& charge : page.capacity_charges) {
      for (const PartitionUnits& part : charge.parts) {
        if (part.index_id != 0 && !worker.hash_known) {
          worker.hash = part.hash;
          worker.hash_known = true;
        }
      }
    }
    // Eventually consistent: a unit is 8 KB read.
    const int64_t kb = static_cast<int64_t>(page_units * 8);
    const int64_t done = now + o_.service.base_micros + o_.service.micros_per_kb * kb;
    if (done < run_end_) {
      run_.items += page.scanned_count;
      run_.seconds[SecondOf(done)].items += page.scanned_count;
    }
    // The next page, or the shard again from its start.
    worker.start_key = page.last_evaluated_key;
    worker.due += static_cast<double>(page.scanned_count) * micros_per_item_;
    const double floor = static_cast<double>(done - o_.max_lag_micros);
    if (worker.due < floor) worker.due = floor;
    Schedule(std::max(done, static_cast<int64_t>(std::ceil(worker.due))), w);
  }

  // Per second: the hottest partition's units, the partition count, splits;
  // and every partition's running total against its ceiling's allowance.
  void Summarize() {
    const double ceiling = static_cast<double>(
        o_.engine_capacity.partition_ceilings.read_units_per_second);
    std::map<uint32_t, std::pair<int, double>> totals;  // id -> first second, units
    run_.max_ceiling_excess = -ceiling;
    double hottest_sum = 0;
    for (int sidx = 0; sidx < seconds_; ++sidx) {
      SecondSample& sec = run_.seconds[sidx];
      const std::vector<PartitionRange>& parts = ranges_at_[sidx];
      sec.partitions = static_cast<int>(parts.size());
      if (sidx > 0 && sec.partitions > run_.seconds[sidx - 1].partitions) {
        run_.split_seconds.push_back(sidx);
      } else if (sidx == 0 && sec.partitions > static_cast<int>(run_.start_ranges.size())) {
        run_.split_seconds.push_back(0);
      }
      for (const PartitionRange& p : parts) {
        double on_p = 0;
        for (size_t w = 0; w < n_; ++w) {
          if (workers_[w].hash_known && p.Contains(workers_[w].hash)) on_p += units_[sidx][w];
        }
        sec.hottest_partition_units = std::max(sec.hottest_partition_units, on_p);
        auto [it, fresh] = totals.try_emplace(p.id, sidx, 0.0);
        it->second.second += on_p;
        const double allowance = ceiling * (sidx - it->second.first + 1) + ceiling;
        run_.max_ceiling_excess =
            std::max(run_.max_ceiling_excess, it->second.second - allowance);
      }
      run_.hottest_partition_peak =
          std::max(run_.hottest_partition_peak, sec.hottest_partition_units);
      hottest_sum += sec.hottest_partition_units;
    }
    if (seconds_ > 0) {
      run_.hottest_partition_mean = hottest_sum / seconds_;
      run_.achieved_items_per_second = static_cast<double>(run_.items) / seconds_;
    }
  }

  Engine& engine_;
  SimulatedClock& clock_;
  const TableSpec& table_;
  const IndexSpec& index_;
  const WriteShardingOptions& o_;
  ExponentialBackoff backoff_;
  const ShardQueries queries_;
  const size_t n_;
  const double micros_per_item_;
  std::vector<Worker> workers_;
  const int seconds_;
  EventLoop loop_;
  ReadRun run_;
  int64_t run_start_ = 0;
  int64_t run_end_ = 0;
  // Units charged per second and worker, and the partitions at each
  // second's end.
  std::vector<std::vector<double>> units_;
  std::vector<std::vector<PartitionRange>> ranges_at_;
  int sampled_ = 0;
  Status failure_;
};

}  // namespace

Result<ReadRun> ReadAllOpen(Engine& engine, SimulatedClock& clock,
                            const TableSpec& table, const IndexSpec& index,
                            const WriteShardingOptions& o, int from_day,
                            int to_day) {
  ReadRun run;
  run.kind = index.kind;
  run.shards = index.shards;
  run.table_name = table.name;
  run.index_name = index.index_name;
  // Each run has its own backoff stream, so a run's result does not depend
  // on which runs came before it.
  ExponentialBackoff backoff(
      o.backoff, Mix64(o.seed ^ Fnv1a64(index.index_name)));

  const ShardQueries queries(table, index, from_day, to_day, o.count_pages);
  struct Worker {
    std::optional<Item> start_key;
    int attempt = 0;
  };
  std::vector<Worker> workers(queries.pks.size());

  Result<std::vector<std::pair<uint64_t, uint64_t>>> ranges =
      GsiRanges(engine, table.name, index.index_name);
  if (!ranges.ok()) return ranges.status();
  run.start_ranges = std::move(ranges).value();
  std::set<uint64_t> hashes;
  Status failure;
  const int64_t run_start = clock.NowMicros();
  int64_t run_end = run_start;
  EventLoop loop(&clock);
  for (size_t w = 0; w < workers.size(); ++w) {
    loop.Schedule(run_start, static_cast<int>(w));
  }
  loop.Run([&](int w) {
    Worker& worker = workers[w];
    const int64_t now = clock.NowMicros();
    Result<QueryResult> r = engine.Query(queries.For(w, worker.start_key));
    ++run.requests;
    if (!r.ok()) {
      if (!IsThrottle(r.status())) {
        if (failure.ok()) failure = r.status();
        return;
      }
      ++run.throttled;
      const int64_t delay = backoff.DelayMicros(worker.attempt++);
      run.max_attempts = std::max(run.max_attempts, worker.attempt + 1);
      loop.Schedule(now + o.service.base_micros + delay, w);
      return;
    }
    worker.attempt = 0;
    const QueryResult& page = r.value();
    const double units = page.consumed_capacity.Total().read_units;
    run.read_units += units;
    run.items += page.scanned_count;
    for (const CapacityCharge& charge : page.capacity_charges) {
      for (const PartitionUnits& part : charge.parts) {
        if (part.index_id != 0) hashes.insert(part.hash);
      }
    }
    // Eventually consistent: a unit is 8 KB read.
    const int64_t kb = static_cast<int64_t>(units * 8);
    const int64_t done =
        now + o.service.base_micros + o.service.micros_per_kb * kb;
    if (page.last_evaluated_key) {
      worker.start_key = page.last_evaluated_key;
      loop.Schedule(done, w);
    } else {
      run_end = std::max(run_end, done);
    }
  });
  if (!failure.ok()) return failure;
  clock.Set(std::max(clock.NowMicros(), run_end));
  run.read_micros = run_end - run_start;
  run.max_attempts = std::max(run.max_attempts, 1);
  run.key_hashes.assign(hashes.begin(), hashes.end());
  if (Status s = CountPartitions(engine, &run); !s.ok()) return s;
  return run;
}

// The sustained read: each worker (shard key) reads its shard's pages over
// and over, paced to rate / workers items per second: after a page of k
// items its next page is due k / (its rate) later, issued when the page
// has arrived and it is due; a throttled page is retried after its backoff,
// and a worker further behind than max_lag forgets the rest of its backlog.
// Every simulated second is sampled.
Result<ReadRun> ReadSustained(Engine& engine, SimulatedClock& clock,
                              const TableSpec& table, const IndexSpec& index,
                              const WriteShardingOptions& o, int from_day,
                              int to_day) {
  return SustainedRead(engine, clock, table, index, o, from_day, to_day).Run();
}

}  // namespace dynarock::tools::simulate
