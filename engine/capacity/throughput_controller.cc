#include "engine/capacity/throughput_controller.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/capacity/partition_map.h"
#include "engine/capacity/throttle_messages.h"
#include "engine/capacity/token_bucket.h"
#include "engine/schema/arns.h"

namespace dynarock {

namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;

// A table or one GSI: its throughput model, partitions and statistics.
struct ResourceState {
  ResourceState(uint32_t index_id, std::string name, std::string arn,
                int partition_count, const CapacityOptions& o, int64_t now)
      : index_id(index_id),
        name(std::move(name)),
        arn(std::move(arn)),
        partitions(partition_count, o.partition_ceilings, now),
        usage(static_cast<int>(std::max<int64_t>(
            o.on_demand_peak_window_seconds, kPartitionUsageSeconds))),
        hot_keys(o.hot_keys_tracked) {}

  bool is_index() const { return index_id != 0; }

  uint32_t index_id;
  std::string name;
  std::string arn;
  bool on_demand = false;
  int64_t provisioned_read = 0;
  int64_t provisioned_write = 0;
  // On-demand: the rate served whatever the peak, and the table's maxima.
  int64_t floor_read = 0;
  int64_t floor_write = 0;
  int64_t max_read = 0;
  int64_t max_write = 0;
  int64_t rated_second = -1;  // on-demand: when the rate was last computed
  // Which limit an empty table-level bucket stands for.
  ThrottleLimit read_limit = ThrottleLimit::kProvisionedThroughput;
  ThrottleLimit write_limit = ThrottleLimit::kProvisionedThroughput;
  TokenBucket read;
  TokenBucket write;
  PartitionMap partitions;
  UsageRing usage;
  HotKeys hot_keys;
};

// What the model's helpers need besides the resource.
struct Env {
  const CapacityOptions& options;
  int64_t now;
  uint32_t table_id;
  const SplitSizeFn& split_size_fn;
  const SplitListener& split_listener;
};

int64_t Width(const Partition& p) {
  // The ring's full width (2^64) does not fit; only a lone partition has it.
  return p.end == 0 && p.begin == 0 ? INT64_MAX
                                    : static_cast<int64_t>(std::min<uint64_t>(
                                          p.end - p.begin, INT64_MAX));
}

void SplitAt(ResourceState& r, size_t i, uint64_t at, const Env& env) {
  const Partition& p = r.partitions.at(i);
  SplitSizes sizes;
  if (env.split_size_fn) {
    sizes = env.split_size_fn(env.table_id, r.index_id, p.begin, at, p.end);
  } else {
    sizes.left_items = p.items / 2;
    sizes.right_items = p.items - sizes.left_items;
    sizes.left_bytes = p.bytes / 2;
    sizes.right_bytes = p.bytes - sizes.left_bytes;
  }
  if (!sizes.counted) {
    // In proportion to the halves' hash ranges (the ring's end is 2^64).
    const long double width =
        (p.end == 0 ? 18446744073709551616.0L : static_cast<long double>(p.end)) -
        static_cast<long double>(p.begin);
    const long double left = static_cast<long double>(at - p.begin) / width;
    sizes.left_items = static_cast<int64_t>(static_cast<long double>(p.items) * left);
    sizes.right_items = p.items - sizes.left_items;
    sizes.left_bytes = static_cast<int64_t>(static_cast<long double>(p.bytes) * left);
    sizes.right_bytes = p.bytes - sizes.left_bytes;
  }
  const uint64_t begin = p.begin;
  const uint64_t end = p.end;
  if (r.partitions.Split(i, at, sizes.left_items, sizes.left_bytes,
                         sizes.right_items, sizes.right_bytes, env.now) &&
      env.split_listener) {
    env.split_listener(env.table_id, r.index_id, begin, at, end);
  }
}

// Splits the widest partitions at their midpoints until there are `count`.
void EnsurePartitions(ResourceState& r, int count, const Env& env) {
  while (static_cast<int>(r.partitions.size()) < count) {
    size_t widest = 0;
    for (size_t i = 1; i < r.partitions.size(); ++i) {
      if (Width(r.partitions.at(i)) > Width(r.partitions.at(widest))) {
        widest = i;
      }
    }
    const Partition& p = r.partitions.at(widest);
    if (Width(p) < 2) return;  // cannot happen before 2^63 partitions
    SplitAt(r, widest, p.Midpoint(), env);
  }
}

void ApplyProvisioned(ResourceState& r, int64_t rcu, int64_t wcu, bool fresh,
                      const Env& env) {
  const int64_t burst = env.options.burst_seconds;
  r.on_demand = false;
  r.provisioned_read = rcu;
  r.provisioned_write = wcu;
  r.read_limit = ThrottleLimit::kProvisionedThroughput;
  r.write_limit = ThrottleLimit::kProvisionedThroughput;
  if (fresh) {
    r.read = TokenBucket(rcu, rcu * burst, env.now);
    r.write = TokenBucket(wcu, wcu * burst, env.now);
  } else {
    r.read.SetRate(rcu, rcu * burst, env.now);
    r.write.SetRate(wcu, wcu * burst, env.now);
  }
  EnsurePartitions(
      r, InitialPartitionCount(rcu, wcu, env.options.partition_ceilings), env);
}

// What an on-demand resource can serve at once, and which limit caps it.
int64_t OnDemandRate(int64_t floor, double peak, int64_t max, int64_t quota,
                     ThrottleLimit* limit) {
  int64_t rate = std::max(floor, static_cast<int64_t>(std::ceil(2 * peak)));
  *limit = ThrottleLimit::kKeyRange;
  if (max > 0 && rate >= max) {
    rate = max;
    *limit = ThrottleLimit::kMaxOnDemand;
  }
  if (rate >= quota) {
    rate = quota;
    *limit = ThrottleLimit::kAccountLimit;
  }
  return rate;
}

void ReRate(TokenBucket& b, int64_t rate, bool fresh, int64_t now) {
  if (fresh) {
    b = TokenBucket(rate, rate, now);
  } else if (rate > b.rate()) {
    b.Grow(rate, rate, now);
  } else if (rate < b.rate()) {
    b.SetRate(rate, rate, now);
  }
}

// Recomputes an on-demand resource's rate once per clock second: twice the
// peak of the completed seconds of the window (the current second does not
// count, or a burst could raise its own limit).
void RateOnDemand(ResourceState& r, const Env& env, bool fresh = false) {
  const int64_t second = SecondOf(env.now);
  if (second == r.rated_second && !fresh) return;
  r.rated_second = second;
  const CapacityOptions& o = env.options;
  double peak_read = 0;
  double peak_write = 0;
  r.usage.CompletedPeak(env.now,
                        static_cast<int>(o.on_demand_peak_window_seconds),
                        &peak_read, &peak_write);
  const int64_t read = OnDemandRate(r.floor_read, peak_read, r.max_read,
                                    o.table_read_quota, &r.read_limit);
  const int64_t write = OnDemandRate(r.floor_write, peak_write, r.max_write,
                                     o.table_write_quota, &r.write_limit);
  ReRate(r.read, read, fresh, env.now);
  ReRate(r.write, write, fresh, env.now);
  EnsurePartitions(r, PartitionsToServe(read, write, o.partition_ceilings),
                   env);
}

void ApplyOnDemand(ResourceState& r, int64_t floor_read, int64_t floor_write,
                   int64_t max_read, int64_t max_write, bool fresh,
                   const Env& env) {
  r.on_demand = true;
  r.floor_read = floor_read;
  r.floor_write = floor_write;
  r.max_read = max_read;
  r.max_write = max_write;
  r.rated_second = -1;
  RateOnDemand(r, env, fresh);
}

// One table's or GSI's settings, as the model needs them.
struct ResourceConfig {
  BillingMode mode = BillingMode::kProvisioned;
  int64_t rcu = 0;
  int64_t wcu = 0;
  int64_t max_read = 0;
  int64_t max_write = 0;
  int64_t warm_read = 0;   // 0: the options' on-demand default
  int64_t warm_write = 0;
};

ResourceConfig ConfigOf(BillingMode mode, const TableThroughputConfig& c) {
  return {mode, c.read_capacity_units, c.write_capacity_units,
          c.max_read_request_units, c.max_write_request_units,
          c.warm_read_units, c.warm_write_units};
}
ResourceConfig ConfigOf(BillingMode mode, const IndexThroughputConfig& c) {
  return {mode, c.read_capacity_units, c.write_capacity_units,
          c.max_read_request_units, c.max_write_request_units,
          c.warm_read_units, c.warm_write_units};
}

// What an on-demand resource serves at once whatever its history.
int64_t WarmRead(const ResourceConfig& c, const CapacityOptions& o) {
  return c.warm_read > 0 ? c.warm_read : o.on_demand_warm_read_units;
}
int64_t WarmWrite(const ResourceConfig& c, const CapacityOptions& o) {
  return c.warm_write > 0 ? c.warm_write : o.on_demand_warm_write_units;
}

std::unique_ptr<ResourceState> MakeResource(uint32_t index_id, std::string name,
                                            std::string arn,
                                            const ResourceConfig& c,
                                            const Env& env) {
  const CapacityOptions& o = env.options;
  const bool on_demand = c.mode == BillingMode::kPayPerRequest;
  const int count =
      on_demand ? PartitionsToServe(WarmRead(c, o), WarmWrite(c, o),
                                    o.partition_ceilings)
                : InitialPartitionCount(c.rcu, c.wcu, o.partition_ceilings);
  auto r = std::make_unique<ResourceState>(index_id, std::move(name),
                                           std::move(arn), count, o, env.now);
  if (on_demand) {
    ApplyOnDemand(*r, WarmRead(c, o), WarmWrite(c, o), c.max_read, c.max_write,
                  /*fresh=*/true, env);
  } else {
    ApplyProvisioned(*r, c.rcu, c.wcu, /*fresh=*/true, env);
  }
  return r;
}

// Re-rates `r` for a new configuration (UpdateTable).
void UpdateResource(ResourceState& r, const ResourceConfig& c, const Env& env) {
  const CapacityOptions& o = env.options;
  if (c.mode == BillingMode::kProvisioned) {
    ApplyProvisioned(r, c.rcu, c.wcu, /*fresh=*/r.on_demand, env);
  } else if (!r.on_demand) {
    // DynamoDB: a table switched to on-demand serves at least what it was
    // provisioned for.
    ApplyOnDemand(r, std::max(WarmRead(c, o), r.provisioned_read),
                  std::max(WarmWrite(c, o), r.provisioned_write), c.max_read,
                  c.max_write, /*fresh=*/true, env);
  } else {
    // A raised warm throughput raises the floor (and splits partitions to
    // serve it); the warm throughput never decreases.
    ApplyOnDemand(r, std::max(r.floor_read, WarmRead(c, o)),
                  std::max(r.floor_write, WarmWrite(c, o)), c.max_read,
                  c.max_write, /*fresh=*/false, env);
  }
}

// Split for heat: between the recently charged hashes, at their median, if
// that separates at least two distinct hashes.
void SplitForHeat(ResourceState& r, size_t i, const Env& env) {
  const Partition& p = r.partitions.at(i);
  const size_t n = std::min<size_t>(p.recent_count, kRecentHashes);
  if (n < 2) return;
  std::array<uint64_t, kRecentHashes> sample = p.recent_hashes;
  std::sort(sample.begin(), sample.begin() + static_cast<ptrdiff_t>(n));
  uint64_t at = sample[n / 2];
  if (at == sample[0]) {
    auto above = std::upper_bound(
        sample.begin(), sample.begin() + static_cast<ptrdiff_t>(n), sample[0]);
    if (above == sample.begin() + static_cast<ptrdiff_t>(n)) return;  // one key
    at = *above;
  }
  SplitAt(r, i, at, env);
}

// Tracks whether partition `i` has been hot in every second since
// hot_since_micros, and splits it for heat once that lasted long enough.
// Looks at the last completed second, once per second.
void CheckHeat(ResourceState& r, size_t i, bool may_split, const Env& env) {
  Partition& p = r.partitions.at(i);
  const int64_t second = SecondOf(env.now);
  if (p.heat_checked_second == second) return;
  if (p.heat_checked_second == second - 1) {
    const Usage u = p.usage.AtSecond(second - 1);
    const PartitionCeilings& c = r.partitions.ceilings();
    const double f = env.options.heat_fraction;
    const bool hot =
        u.consumed_read_units + u.throttled_read_units >=
            f * static_cast<double>(c.read_units_per_second) ||
        u.consumed_write_units + u.throttled_write_units >=
            f * static_cast<double>(c.write_units_per_second);
    if (!hot) {
      p.hot_since_micros = -1;
    } else if (p.hot_since_micros < 0) {
      p.hot_since_micros = (second - 1) * kMicrosPerSecond;
    }
  } else {
    p.hot_since_micros = -1;  // untouched for a second or more: not hot
  }
  p.heat_checked_second = second;
  if (may_split && p.hot_since_micros >= 0 &&
      env.now - p.hot_since_micros >= env.options.heat_split_after_micros) {
    SplitForHeat(r, i, env);
  }
}

// The throttles found while checking a request: table-level ones first.
struct Throttles {
  std::vector<ThrottlingReason> table_level;
  std::vector<ThrottlingReason> key_range;
  bool any = false;
  bool first_index = false;  // of the first table-level one, else key range
  ThrottleLimit first_limit = ThrottleLimit::kProvisionedThroughput;

  void Add(const ResourceState& r, bool write, ThrottleLimit limit) {
    const bool table_level_limit = limit != ThrottleLimit::kKeyRange;
    if (!any || (table_level_limit && table_level.empty())) {
      first_index = r.is_index();
      first_limit = limit;
    }
    any = true;
    auto& list = table_level_limit ? table_level : key_range;
    ThrottlingReason reason{ThrottlingReasonName(r.is_index(), write, limit),
                            r.arn};
    if (std::find(list.begin(), list.end(), reason) == list.end()) {
      list.push_back(std::move(reason));
    }
  }

  Status ToStatus() {
    std::vector<ThrottlingReason> reasons = std::move(table_level);
    reasons.insert(reasons.end(), key_range.begin(), key_range.end());
    return Status::Throttled(ThrottleErrorCode(first_limit),
                             std::string(ThrottleMessage(first_index,
                                                         first_limit)),
                             std::move(reasons));
  }
};

}  // namespace

struct ThroughputController::TableState {
  Mutex mu;
  uint32_t table_id = 0;
  BillingMode mode = BillingMode::kProvisioned;
  std::vector<uint32_t> lsi_ids;
  std::unique_ptr<ResourceState> table;
  std::vector<std::unique_ptr<ResourceState>> gsis;

  // The resource that pays for `index_id`: the table for 0 and LSIs, a GSI,
  // or null for an index this table does not have.
  ResourceState* Resolve(uint32_t index_id) {
    if (index_id == 0) return table.get();
    for (auto& g : gsis) {
      if (g->index_id == index_id) return g.get();
    }
    for (uint32_t lsi : lsi_ids) {
      if (lsi == index_id) return table.get();
    }
    return nullptr;
  }
  // No split for heat on a table with LSIs (its item collections must stay
  // in one partition); its GSIs may split.
  bool MaySplitForHeat(const ResourceState& r) const {
    return r.is_index() || lsi_ids.empty();
  }

  // Checks the buckets of `n` parts. Reads check the read buckets only;
  // writes the write buckets, and the read buckets of parts with reads.
  void Check(const PartitionUnits* parts, size_t n, bool read_op,
             const Env& env, Throttles* out) {
    for (size_t i = 0; i < n; ++i) {
      const PartitionUnits& u = parts[i];
      ResourceState* r = Resolve(u.index_id);
      if (r == nullptr) continue;
      if (r->on_demand) RateOnDemand(*r, env);
      Partition& p = r->partitions.Find(u.hash);
      if (read_op || u.read_units > 0) {
        if (!r->read.CanAdmit(env.now)) out->Add(*r, false, r->read_limit);
        if (!p.read.CanAdmit(env.now)) {
          out->Add(*r, false, ThrottleLimit::kKeyRange);
        }
      }
      if (!read_op) {
        if (!r->write.CanAdmit(env.now)) out->Add(*r, true, r->write_limit);
        if (!p.write.CanAdmit(env.now)) {
          out->Add(*r, true, ThrottleLimit::kKeyRange);
        }
      }
    }
  }

  // A write's check: OK, or its throttle, counted as such. Charges nothing.
  Status CheckWrite(const PartitionUnits* parts, size_t n, const Env& env) {
    Throttles throttles;
    Check(parts, n, /*read_op=*/false, env, &throttles);
    if (!throttles.any) return Status::OK();
    RecordThrottle(parts, n, /*read_op=*/false, env);
    return throttles.ToStatus();
  }

  // Counts a throttled request: its units per partition, one request per
  // partition and per resource it touched.
  void RecordThrottle(const PartitionUnits* parts, size_t n, bool read_op,
                      const Env& env) {
    for (size_t i = 0; i < n; ++i) {
      const PartitionUnits& u = parts[i];
      ResourceState* r = Resolve(u.index_id);
      if (r == nullptr) continue;
      bool resource_seen = false;
      bool partition_seen = false;
      for (size_t j = 0; j < i; ++j) {
        if (Resolve(parts[j].index_id) != r) continue;
        resource_seen = true;
        if (r->partitions.IndexOf(parts[j].hash) ==
            r->partitions.IndexOf(u.hash)) {
          partition_seen = true;
        }
      }
      Usage d;
      if (read_op) {
        d.throttled_read_units = u.read_units;
      } else {
        d.throttled_read_units = u.read_units;
        d.throttled_write_units = u.write_units;
      }
      Usage request;
      (read_op ? request.throttled_read_requests
               : request.throttled_write_requests) = 1;
      Usage for_partition = d;
      if (!partition_seen) for_partition += request;
      Usage for_resource = d;
      if (!resource_seen) for_resource += request;
      r->partitions.Find(u.hash).usage.Add(env.now, for_partition);
      r->usage.Add(env.now, for_resource);
      r->hot_keys.Throttled(u.hash, u.read_units + u.write_units);
    }
    HeatChecks(parts, n, env);
  }

  // Charges every part to its buckets and counts it.
  void Charge(const PartitionUnits* parts, size_t n, const Env& env) {
    for (size_t i = 0; i < n; ++i) {
      const PartitionUnits& u = parts[i];
      ResourceState* r = Resolve(u.index_id);
      if (r == nullptr) continue;
      const size_t index = r->partitions.IndexOf(u.hash);
      Partition& p = r->partitions.at(index);
      Usage d;
      if (u.read_units > 0) {
        r->read.Charge(u.read_units, env.now);
        p.read.Charge(u.read_units, env.now);
        d.consumed_read_units = u.read_units;
      }
      if (u.write_units > 0) {
        r->write.Charge(u.write_units, env.now);
        p.write.Charge(u.write_units, env.now);
        d.consumed_write_units = u.write_units;
      }
      p.usage.Add(env.now, d);
      r->usage.Add(env.now, d);
      r->hot_keys.Consumed(u.hash, u.key, u.read_units, u.write_units);
      p.NoteHash(u.hash);
      // May split; later parts look their partition up again.
      CheckHeat(*r, index, MaySplitForHeat(*r), env);
    }
  }

  // After a throttled request: heat checks (which may split) once
  // everything is counted.
  void HeatChecks(const PartitionUnits* parts, size_t n, const Env& env) {
    for (size_t i = 0; i < n; ++i) {
      ResourceState* r = Resolve(parts[i].index_id);
      if (r == nullptr) continue;
      CheckHeat(*r, r->partitions.IndexOf(parts[i].hash), MaySplitForHeat(*r),
                env);
    }
  }
};

ThroughputController::ThroughputController(const Clock* clock,
                                           CapacityOptions options)
    : clock_(clock), options_(options) {}

ThroughputController::~ThroughputController() = default;

void ThroughputController::RegisterTable(const TableThroughputConfig& config) {
  WriterMutexLock lock(&registry_mu_);
  const Env env{options_, clock_->NowMicros(), config.table_id,
                split_size_fn_, split_listener_};
  auto t = std::make_unique<TableState>();
  t->table_id = config.table_id;
  t->mode = config.billing_mode;
  t->lsi_ids = config.local_secondary_index_ids;
  t->table = MakeResource(0, config.table_name, config.table_arn,
                          ConfigOf(config.billing_mode, config), env);
  for (const IndexThroughputConfig& g : config.global_secondary_indexes) {
    t->gsis.push_back(MakeResource(g.index_id, g.index_name,
                                   IndexArn(config.table_arn, g.index_name),
                                   ConfigOf(config.billing_mode, g), env));
  }
  tables_[config.table_id] = std::move(t);
}

void ThroughputController::UpdateTable(const TableThroughputConfig& config) {
  {
    WriterMutexLock lock(&registry_mu_);
    auto it = tables_.find(config.table_id);
    if (it != tables_.end()) {
      TableState& t = *it->second;
      MutexLock table_lock(&t.mu);
      const Env env{options_, clock_->NowMicros(), config.table_id,
                    split_size_fn_, split_listener_};
      t.lsi_ids = config.local_secondary_index_ids;
      t.table->name = config.table_name;
      t.table->arn = config.table_arn;
      UpdateResource(*t.table, ConfigOf(config.billing_mode, config), env);
      std::vector<std::unique_ptr<ResourceState>> gsis;
      for (const IndexThroughputConfig& g : config.global_secondary_indexes) {
        auto old = std::find_if(t.gsis.begin(), t.gsis.end(), [&](auto& r) {
          return r != nullptr && r->index_id == g.index_id;
        });
        if (old == t.gsis.end()) {
          gsis.push_back(MakeResource(g.index_id, g.index_name,
                                      IndexArn(config.table_arn, g.index_name),
                                      ConfigOf(config.billing_mode, g), env));
        } else {
          UpdateResource(**old, ConfigOf(config.billing_mode, g), env);
          gsis.push_back(std::move(*old));
        }
      }
      t.gsis = std::move(gsis);
      t.mode = config.billing_mode;
      return;
    }
  }
  RegisterTable(config);
}

void ThroughputController::RemoveTable(uint32_t table_id) {
  WriterMutexLock lock(&registry_mu_);
  tables_.erase(table_id);
}

void ThroughputController::SetSplitListener(SplitListener fn) {
  WriterMutexLock lock(&registry_mu_);
  split_listener_ = std::move(fn);
}

void ThroughputController::SetSplitSizeFn(SplitSizeFn fn) {
  WriterMutexLock lock(&registry_mu_);
  split_size_fn_ = std::move(fn);
}

template <typename R, typename Fn>
R ThroughputController::WithTable(uint32_t table_id, R otherwise, Fn&& fn) const {
  ReaderMutexLock lock(&registry_mu_);
  auto it = tables_.find(table_id);
  if (it == tables_.end()) return otherwise;
  TableState& t = *it->second;
  MutexLock table_lock(&t.mu);
  const Env env{options_, clock_->NowMicros(), table_id, split_size_fn_, split_listener_};
  return fn(t, env);
}

Status ThroughputController::CheckRead(uint32_t table_id, uint32_t index_id,
                                       uint64_t hash, double expected_units) {
  return WithTable(table_id, Status::OK(), [&](TableState& t, const Env& env) {
    PartitionUnits part;
    part.index_id = index_id;
    part.hash = hash;
    part.read_units = expected_units;
    Throttles throttles;
    t.Check(&part, 1, /*read_op=*/true, env, &throttles);
    if (!throttles.any) return Status::OK();
    t.RecordThrottle(&part, 1, /*read_op=*/true, env);
    return throttles.ToStatus();
  });
}

void ThroughputController::Charge(const CapacityCharge& charge) {
  WithTable(charge.table_id, false, [&](TableState& t, const Env& env) {
    t.Charge(charge.parts.data(), charge.parts.size(), env);
    return true;
  });
}

Status ThroughputController::AdmitWrite(const CapacityCharge& charge) {
  return WithTable(charge.table_id, Status::OK(), [&](TableState& t, const Env& env) {
    DR_RETURN_IF_ERROR(t.CheckWrite(charge.parts.data(), charge.parts.size(), env));
    t.Charge(charge.parts.data(), charge.parts.size(), env);
    return Status::OK();
  });
}

Status ThroughputController::CheckWrite(const CapacityCharge& charge) {
  return WithTable(charge.table_id, Status::OK(), [&](TableState& t, const Env& env) {
    return t.CheckWrite(charge.parts.data(), charge.parts.size(), env);
  });
}

void ThroughputController::RecordWrite(uint32_t table_id, uint32_t index_id,
                                       uint64_t hash, int64_t delta_items,
                                       int64_t delta_bytes) {
  WithTable(table_id, false, [&](TableState& t, const Env& env) {
    ResourceState* r = t.Resolve(index_id);
    if (r == nullptr) return false;
    const size_t i = r->partitions.IndexOf(hash);
    Partition& p = r->partitions.at(i);
    p.items += delta_items;
    p.bytes += delta_bytes;
    if (p.bytes > options_.split_size_bytes) SplitAt(*r, i, p.Midpoint(), env);
    return true;
  });
}

void ThroughputController::RecordTimeToLiveDeletion(uint32_t table_id,
                                                    uint64_t hash) {
  WithTable(table_id, false, [&](TableState& t, const Env& env) {
    ResourceState* r = t.Resolve(0);
    if (r == nullptr) return false;
    Usage d;
    d.ttl_deleted_items = 1;
    r->partitions.Find(hash).usage.Add(env.now, d);
    r->usage.Add(env.now, d);
    return true;
  });
}

namespace {

ResourceStats Describe(ResourceState& r, const Env& env, size_t hot_keys) {
  if (r.on_demand) RateOnDemand(r, env);
  ResourceStats s;
  s.index_id = r.index_id;
  s.name = r.name;
  s.arn = r.arn;
  s.read_units_per_second = r.read.rate();
  s.write_units_per_second = r.write.rate();
  s.read_balance = r.read.Balance(env.now);
  s.write_balance = r.write.Balance(env.now);
  r.usage.CompletedPeak(
      env.now, static_cast<int>(env.options.on_demand_peak_window_seconds),
      &s.peak_read_units, &s.peak_write_units);
  s.last_second = r.usage.Window(env.now, 1);
  s.last_minute = r.usage.Window(env.now, 60);
  s.last_5_minutes = r.usage.Window(env.now, 300);
  s.total = r.usage.total();
  for (size_t i = 0; i < r.partitions.size(); ++i) {
    Partition& p = r.partitions.at(i);
    PartitionStats ps;
    ps.id = p.id;
    ps.begin = p.begin;
    ps.end = p.end;
    ps.items = p.items;
    ps.bytes = p.bytes;
    ps.read_balance = p.read.Balance(env.now);
    ps.write_balance = p.write.Balance(env.now);
    ps.last_second = p.usage.Window(env.now, 1);
    ps.last_minute = p.usage.Window(env.now, 60);
    ps.last_5_minutes = p.usage.Window(env.now, 300);
    ps.total = p.usage.total();
    s.partitions.push_back(std::move(ps));
  }
  s.hot_keys = r.hot_keys.Top(hot_keys);
  return s;
}

}  // namespace

std::vector<uint64_t> ThroughputController::PartitionBegins(
    uint32_t table_id, uint32_t index_id) const {
  return WithTable(table_id, std::vector<uint64_t>(), [&](TableState& t, const Env&) {
    std::vector<uint64_t> begins;
    const ResourceState* r = t.Resolve(index_id);
    if (r == nullptr) return begins;
    begins.reserve(r->partitions.size());
    for (size_t i = 0; i < r->partitions.size(); ++i) {
      begins.push_back(r->partitions.at(i).begin);
    }
    return begins;
  });
}

std::optional<TableThroughputStats> ThroughputController::Describe(
    uint32_t table_id, size_t hot_keys) const {
  return WithTable(table_id, std::optional<TableThroughputStats>(),
                   [&](TableState& t, const Env& env) {
                     TableThroughputStats out;
                     out.table_id = table_id;
                     out.billing_mode = t.mode;
                     out.table = dynarock::Describe(*t.table, env, hot_keys);
                     for (auto& g : t.gsis) {
                       out.global_secondary_indexes.push_back(
                           dynarock::Describe(*g, env, hot_keys));
                     }
                     return std::optional<TableThroughputStats>(std::move(out));
                   });
}

}  // namespace dynarock
