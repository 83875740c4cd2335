// engine/capacity/throughput_controller.h
//
// ThroughputController decides, on the engine's Clock, whether a request may
// consume capacity, and keeps per-partition statistics. One per engine.
//
// The model (DynamoDB developer guide: "Burst and adaptive capacity",
// "Partitions and data distribution", read/write capacity modes, warm
// throughput, "Troubleshooting throttling"):
//   - A table and each GSI is a Resource with its own PartitionMap; LSIs live
//     in their table's partitions and share its throughput (an LSI part is
//     charged to the table).
//   - Every partition has a read and a write TokenBucket at the partition
//     ceilings (3,000 / 1,000 units/s, one second of capacity).
//   - Provisioned: the table (or GSI) has a read and a write bucket at its
//     RCU / WCU with 300 s of burst. A request needs BOTH its table bucket
//     and its partition bucket positive: that is adaptive capacity (a hot
//     partition may use the table's whole unused rate, up to its ceiling).
//   - On-demand: the table bucket's rate is what the table can serve at once,
//     max(warm throughput (12,000 / 4,000 unless the table sets its own),
//     2 x the peak units of one second in the last 30 minutes), capped by the
//     per-table quota (40,000) and the table's own OnDemandThroughput
//     maximum; the rate is recomputed at each new clock second and
//     partitions are split until they can serve it (a new table starts with
//     the partitions its warm throughput needs).
//   - A write is checked on every bucket its parts touch, then charged on
//     all, or throttled and charged NOTHING; a GSI that cannot pay throttles
//     the base-table write (Index... reasons). A read is checked before
//     (CheckRead) and charged after (Charge), possibly into debt.
//   - Partitions split at their midpoint past the split size (sizes of the
//     halves from a callback), and between hot keys after sustained heat
//     (not on a table with LSIs; not for a single hot key).
// Deliberate simplifications: each partition is charged whole units where
// DynamoDB meters per item, burst is a bucket capacity (no background-work
// use), on-demand scaling is instant at second boundaries (DynamoDB's takes
// minutes beyond 2x), throttled reads count the caller's estimate of units,
// split children start with fresh usage history (their table's totals keep
// it), and a split for throughput halves the widest partition.
//
// Thread-safe: a shared lock over the table registry and a mutex per table.
// Admitting a request that is not throttled allocates nothing.

#ifndef DYNAROCK_ENGINE_CAPACITY_THROUGHPUT_CONTROLLER_H_
#define DYNAROCK_ENGINE_CAPACITY_THROUGHPUT_CONTROLLER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/capacity/capacity_charge.h"
#include "engine/capacity/capacity_options.h"
#include "engine/capacity/capacity_stats.h"
#include "engine/capacity/usage_stats.h"
#include "engine/clock.h"
#include "engine/status.h"
#include "engine/types.h"
#include "engine/util/mutex.h"

namespace dynarock {

// A GSI's throughput settings.
struct IndexThroughputConfig {
  uint32_t index_id = 0;  // the catalog index id, as in PartitionUnits
  std::string index_name;
  int64_t read_capacity_units = 0;   // provisioned tables
  int64_t write_capacity_units = 0;  // provisioned tables
  // On-demand tables: the index's OnDemandThroughput maximum; 0 = none.
  int64_t max_read_request_units = 0;
  int64_t max_write_request_units = 0;
  // On-demand tables: the index's warm throughput, what it serves at once
  // whatever its history; 0 = CapacityOptions' on-demand default.
  int64_t warm_read_units = 0;
  int64_t warm_write_units = 0;
};

// A table's throughput settings (from its TableDescription).
struct TableThroughputConfig {
  uint32_t table_id = 0;
  std::string table_name;
  std::string table_arn;  // index ARNs are "<table_arn>/index/<name>"
  BillingMode billing_mode = BillingMode::kProvisioned;
  int64_t read_capacity_units = 0;   // provisioned tables
  int64_t write_capacity_units = 0;  // provisioned tables
  int64_t max_read_request_units = 0;   // on-demand maximum; 0 = none
  int64_t max_write_request_units = 0;  // on-demand maximum; 0 = none
  // On-demand warm throughput; 0 = CapacityOptions' on-demand default.
  int64_t warm_read_units = 0;
  int64_t warm_write_units = 0;
  std::vector<IndexThroughputConfig> global_secondary_indexes;
  std::vector<uint32_t> local_secondary_index_ids;
};

// Items and bytes of the two halves of a partition being split.
struct SplitSizes {
  int64_t left_items = 0;
  int64_t left_bytes = 0;
  int64_t right_items = 0;
  int64_t right_bytes = 0;
  // False: the partition was too large to count under the lock; the
  // controller spreads its own counters over the halves in proportion to
  // their hash ranges (hashes are uniform) and ignores the sizes above.
  bool counted = true;
};

// Counts the halves [begin, mid) and [mid, end) of a partition of a table
// (index_id 0) or GSI; end == 0 is the end of the hash ring. Called with the
// table's lock held, which every capacity check of the table waits for: it
// must be quick (bounded, whatever the partition's size) and must not call
// back into the controller.
using SplitSizeFn = std::function<SplitSizes(
    uint32_t table_id, uint32_t index_id, uint64_t begin, uint64_t mid,
    uint64_t end)>;

// Told of every split of a partition [begin, end) of a table (index_id 0)
// or GSI at `at`, after it happened. Called with the table's lock held: it
// must not call back into the controller.
using SplitListener = std::function<void(uint32_t table_id, uint32_t index_id,
                                         uint64_t begin, uint64_t at, uint64_t end)>;

class ThroughputController {
 public:
  // REQUIRES: clock outlives the controller.
  explicit ThroughputController(const Clock* clock,
                                CapacityOptions options = CapacityOptions());
  ~ThroughputController();
  ThroughputController(const ThroughputController&) = delete;
  ThroughputController& operator=(const ThroughputController&) = delete;

  // Starts metering a table (replacing any state under the same id): fresh
  // full buckets and the initial partitions.
  void RegisterTable(const TableThroughputConfig& config);
  // UpdateTable: re-rates the buckets keeping their balances (capped);
  // a new billing mode applies the new model with fresh buckets (switching
  // to on-demand starts at max(warm throughput, the provisioned rate)); new
  // GSIs are added, dropped ones removed. Partitions only ever split to serve
  // a higher rate. Registers the table if unknown.
  void UpdateTable(const TableThroughputConfig& config);
  void RemoveTable(uint32_t table_id);

  // Sets how splits learn the sizes of their halves; without one, a split
  // halves the parent's items and bytes.
  void SetSplitSizeFn(SplitSizeFn fn);
  // Sets who hears of splits (DynamoDB Streams: shards follow partitions).
  void SetSplitListener(SplitListener fn);

  // Before a read of `index_id` (0: the table; an LSI is the table) at
  // partition `hash`: OK when the table (or GSI) read bucket and the
  // partition's are positive. Otherwise a throttle (kProvisionedThroughput-
  // Exceeded or kRequestLimitExceeded, with ThrottlingReasons), counted in
  // the stats with `expected_units` as its throttled units. Unknown tables
  // and indexes are never throttled.
  Status CheckRead(uint32_t table_id, uint32_t index_id, uint64_t hash,
                   double expected_units = 0);
  // Charges every part's read and write units to its buckets, into debt if
  // need be, and counts them. Never throttles: after a read (whose cost is
  // known only then), after a CheckWrite of a whole transaction, or with
  // throttling off.
  void Charge(const CapacityCharge& charge);
  // Before a write commits: checks every bucket any part touches (read
  // buckets too for parts with read units); if all are positive charges
  // them all and returns OK, else returns the throttle (reasons of every
  // bucket that failed, table-level first) and charges nothing. Parts of
  // unknown indexes are ignored.
  Status AdmitWrite(const CapacityCharge& charge);
  // AdmitWrite's check alone: the throttle it would return (counted as a
  // throttle), or OK; charges nothing either way. A request made of several
  // writes (TransactWriteItems) is admitted as ONE request, as DynamoDB
  // admits a request when the buckets it touches are positive and then
  // charges its whole cost: the caller checks every write, then Charges
  // them all, or none when any was throttled.
  Status CheckWrite(const CapacityCharge& charge);

  // Keeps partition sizes: the item at `hash` of `index_id` (an LSI counts
  // in its table's partition) changed by `delta_items` / `delta_bytes`.
  // A partition whose bytes pass the split size splits at its midpoint.
  void RecordWrite(uint32_t table_id, uint32_t index_id, uint64_t hash,
                   int64_t delta_items, int64_t delta_bytes);

  // Counts an item of the table that Time to Live deleted, in the
  // partition of `hash`: no units, only the count (usage.ttl_deleted_items).
  void RecordTimeToLiveDeletion(uint32_t table_id, uint64_t hash);

  // The first hash of each partition of the table (index_id 0; an LSI is
  // its table's) or GSI, in ring order: what a Scan page is metered over.
  // Empty for an unknown table or index.
  std::vector<uint64_t> PartitionBegins(uint32_t table_id,
                                        uint32_t index_id) const;

  // A snapshot of a table's statistics; nullopt if it is not registered.
  // `hot_keys` caps each resource's hot-key list.
  std::optional<TableThroughputStats> Describe(uint32_t table_id,
                                               size_t hot_keys = 10) const;

  const CapacityOptions& options() const { return options_; }

 private:
  struct TableState;

  // Runs fn(TableState&, const Env&) with the registry shared and the
  // table's mutex held; returns `otherwise` for an unknown table.
  template <typename R, typename Fn>
  R WithTable(uint32_t table_id, R otherwise, Fn&& fn) const;

  const Clock* const clock_;
  const CapacityOptions options_;
  mutable SharedMutex registry_mu_;
  std::unordered_map<uint32_t, std::unique_ptr<TableState>> tables_
      GUARDED_BY(registry_mu_);
  SplitSizeFn split_size_fn_ GUARDED_BY(registry_mu_);
  SplitListener split_listener_ GUARDED_BY(registry_mu_);
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CAPACITY_THROUGHPUT_CONTROLLER_H_
