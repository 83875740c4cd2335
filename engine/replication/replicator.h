// engine/replication/replicator.h
//
// The Replicator applies global tables' replication log (engine/replication/
// replication_log.h) to the replicas, in the engine's due work: a record
// is due once its stamp is the replica's lag behind the clock
// (EngineOptions::replication_lag_micros, or SetLag for one replica).
// Two Regions can be partitioned for a while (PartitionRegions): records
// between them wait in the log until the partition heals, on the clock or
// by HealRegions, so that tests can make replicas diverge and converge.
// Each record goes through WritePath::ApplyReplicated on the replica: its
// change is applied when its version is newer than the item's (last writer
// wins), and the record is deleted in the same batch either way, so a
// crash loses nothing and applies nothing twice. The write is metered on,
// and throttled by, the replica's partitions; a throttled record stays and
// the replica falls behind until capacity returns.
//
// Tombstones (the versions ReplicationLog keeps of deleted items, so that an
// older write arriving later cannot bring an item back) are collected here
// too, or they would grow with every item ever deleted. A replica's
// tombstone can go once nothing can still arrive that it must outrank: no
// record waiting for the replica is stamped at or before it (the log is
// ordered by stamp, so its first record says), and it is older than the
// retention on the clock (EngineOptions::
// replication_tombstone_retention_micros), which covers a write in
// another Region whose stamp is taken but whose batch, holding its record,
// is not yet committed. Every later write is stamped after the clock's now,
// so it outranks the tombstone anyway. The collection is deleted under the
// item's lock after checking again that the item is still absent and the
// version unchanged. Each replica's versions are swept in chunks, one full
// pass at most once per retention.
//
// Thread-safe: one caller at a time drains (others return at once).

#ifndef DYNAROCK_ENGINE_REPLICATION_REPLICATOR_H_
#define DYNAROCK_ENGINE_REPLICATION_REPLICATOR_H_

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/replication/replication_log.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/data/item_locks.h"
#include "engine/data/write_path.h"
#include "engine/util/latency_samples.h"
#include "engine/util/mutex.h"

namespace dynarock {

class Clock;

// What replication has done since the engine opened.
struct ReplicationStats {
  int64_t applied = 0;      // records whose change was written
  int64_t superseded = 0;   // records a newer version of the item outran
  int64_t throttled = 0;    // applies the replica's capacity refused (retried)
  int64_t tombstones_collected = 0;  // versions of deleted items dropped
  // Stamp-to-apply delay of the applied and superseded records, on the clock.
  int64_t latency_sum_micros = 0;
  int64_t latency_max_micros = 0;
};

// Two Regions between which nothing replicates until `until_micros` on the
// clock (0: until HealRegions). `a` < `b`.
struct RegionPartition {
  std::string a;
  std::string b;
  int64_t until_micros = 0;
};

// How replication into one replica is doing.
struct ReplicaReplicationState {
  int64_t lag_micros = 0;       // the configured lag
  bool default_lag = true;      // no SetLag for this replica
  int64_t pending_records = 0;  // waiting, due or not
  int64_t applied = 0;
  int64_t superseded = 0;
  int64_t throttled = 0;
  int64_t tombstones_collected = 0;
  // Stamp-to-apply delay of its most recent applied and superseded records.
  LatencyPercentiles latency;
};

class Replicator {
 public:
  // None of the pointers is owned; all outlive this.
  Replicator(Store* store, const Clock* clock, const Catalog* catalog, WritePath* writes,
             ItemLocks* locks, const ReplicationLog* log, int64_t lag_micros,
             int64_t tombstone_retention_micros)
      : store_(store), clock_(clock), catalog_(catalog), writes_(writes), locks_(locks),
        log_(log), default_lag_(lag_micros), retention_(tombstone_retention_micros) {}

  // Applies the records that are due, up to `max_records` of them and for
  // at most `slice_micros` of wall time (0: no limit), then reads up to a
  // tenth as many versions in search of tombstones to collect. True when
  // it stopped at its budget or slice with records still due: the next run
  // is due at once. Errors of one replica's records (storage, a corrupt
  // record) leave them in the log and are returned after the other
  // replicas were served.
  //
  // `from_cursor` (a client's call): each replica's log is read from its
  // cursor, the stamp of the last record a run applied or passed over, and
  // no tombstone is swept. Applied records are deleted, and a log read from
  // its start steps over every deletion RocksDB has not compacted away yet.
  // What a cursor cannot see (a write whose stamp was taken before
  // another's that committed first; a healed partition's records, for which
  // the cursors are dropped) the next run from the start finds; such a run
  // applies at least one chunk whatever its slice.
  Result<bool> RunDue(int64_t max_records = 10'000, int64_t slice_micros = 0,
                      bool from_cursor = false);

  // The lag of the replica table `target_id` (the default when unset;
  // a negative `lag_micros` unsets it).
  void SetLag(uint32_t target_id, int64_t lag_micros);
  int64_t Lag(uint32_t target_id) const;
  // The lag SetLag gave `target_id`; nullopt when it has the default.
  std::optional<int64_t> SetLagOf(uint32_t target_id) const;

  // Stops replication both ways between Regions `a` and `b` until
  // `until_micros` on the clock (0: until HealRegions); replaces an earlier
  // partition of the pair.
  void PartitionRegions(const std::string& a, const std::string& b, int64_t until_micros);
  // Ends the pair's partition; false when there was none.
  bool HealRegions(const std::string& a, const std::string& b);
  // The partitions in force now.
  std::vector<RegionPartition> Partitions() const;

  // Replication into the replica table `target_id`. Errors: kIOError.
  Result<ReplicaReplicationState> Describe(uint32_t target_id) const;

  // Whether the log holds a record for `target_id` stamped at or before
  // `stamp` (a replica is CREATING while its copied items wait).
  Result<bool> HasPendingUpTo(uint32_t target_id, int64_t stamp) const;
  // How many records wait for `target_id`, due or not.
  Result<int64_t> Pending(uint32_t target_id) const;

  ReplicationStats stats() const;

 private:
  struct TargetStats {
    int64_t applied = 0;
    int64_t superseded = 0;
    int64_t throttled = 0;
    int64_t tombstones_collected = 0;
    LatencySamples latency{4096};
  };
  // Where a replica's tombstone sweep is.
  struct Sweep {
    std::string next;              // the next version key to read; empty: a pass to start
    std::optional<int64_t> pass_started_micros;  // none yet
  };

  // Applies one target's due records, stopping at a throttle (the rest
  // wait for the next due work) or at `deadline`. Records from a
  // partitioned Region are passed over (they count against `budget`, which
  // bounds the work of one due run however long the partition lasts).
  // True when it stopped at the budget or the deadline with records left.
  // `from_cursor`: from the stamp of the last record a run applied or
  // passed over, else from the log's start, when at least one chunk is
  // applied before the deadline counts (see RunDue).
  Result<bool> Drain(const ReplicationTarget& target, int64_t* budget,
                     std::optional<std::chrono::steady_clock::time_point> deadline,
                     bool from_cursor);
  // Applies `record` (log key `log_key`) to `table`, whose item keys start
  // with `prefix`, if it is newer than the item's version; counts it. False
  // when the replica's capacity (or a transaction) refused it.
  Result<bool> Apply(const ReplicationTarget& target, const TableInfo& table,
                     const std::string& prefix, const ReplicationLog::Record& record,
                     const std::string& log_key, int64_t now);
  // Reads up to `*budget` of `target`'s versions from where its sweep is and
  // drops the tombstones nothing can undo any more (see the file comment).
  Status CollectTombstones(const ReplicationTarget& target, int64_t now, int64_t* budget)
      REQUIRES(run_mu_);
  // Drops the tombstone at `version_key` (read as `seen`) if, under the
  // item's lock, it is still that version and the item still absent.
  Result<bool> DropTombstone(const std::string& version_key, const std::string& item_key,
                             const std::string& seen);
  // Whether `x` and `y` are partitioned at `now`.
  bool Partitioned(const std::string& x, const std::string& y, int64_t now) const
      REQUIRES(mu_);
  // Drops the partitions that healed on the clock.
  void ExpirePartitions(int64_t now) REQUIRES(mu_);

  Store* const store_;
  const Clock* const clock_;
  const Catalog* const catalog_;
  WritePath* const writes_;
  ItemLocks* const locks_;
  const ReplicationLog* const log_;
  const int64_t default_lag_;
  const int64_t retention_;
  Mutex run_mu_;
  std::map<uint32_t, Sweep> sweeps_ GUARDED_BY(run_mu_);
  mutable Mutex mu_;
  std::map<uint32_t, int64_t> lags_ GUARDED_BY(mu_);
  ReplicationStats stats_ GUARDED_BY(mu_);
  std::map<uint32_t, TargetStats> target_stats_ GUARDED_BY(mu_);
  std::vector<RegionPartition> partitions_ GUARDED_BY(mu_);
  // Per replica, the stamp of the last record a run applied or passed over.
  std::map<uint32_t, int64_t> cursors_ GUARDED_BY(mu_);
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REPLICATION_REPLICATOR_H_
