// engine/replication/replicator.h
//
// The Replicator applies global tables' replication log (engine/replication/
// replication_log.h) to the replicas, in the engine's due work: a record
// is due once its stamp is the replica's lag behind the clock
// (EngineOptions::replication_lag_micros, or SetLag for one replica).
// Each record goes through WritePath::ApplyReplicated on the replica: its
// change is applied when its version is newer than the item's (last writer
// wins), and the record is deleted in the same batch either way, so a
// crash loses nothing and applies nothing twice. The write is metered on,
// and throttled by, the replica's partitions; a throttled record stays and
// the replica falls behind until capacity returns.
//
// Thread-safe: one caller at a time drains (others return at once).

#ifndef DYNAROCK_ENGINE_REPLICATION_REPLICATOR_H_
#define DYNAROCK_ENGINE_REPLICATION_REPLICATOR_H_

#include <cstdint>
#include <map>

#include "engine/replication/replication_log.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/table/write_path.h"
#include "engine/util/mutex.h"

namespace dynarock {

class Clock;

// What replication has done since the engine opened.
struct ReplicationStats {
  int64_t applied = 0;      // records whose change was written
  int64_t superseded = 0;   // records a newer version of the item outran
  int64_t throttled = 0;    // applies the replica's capacity refused (retried)
  // Stamp-to-apply delay of the applied and superseded records, on the clock.
  int64_t latency_sum_micros = 0;
  int64_t latency_max_micros = 0;
};

class Replicator {
 public:
  // None of the pointers is owned; all outlive this.
  Replicator(const Store* store, const Clock* clock, const Catalog* catalog, WritePath* writes,
             const ReplicationLog* log, int64_t lag_micros)
      : store_(store), clock_(clock), catalog_(catalog), writes_(writes), log_(log),
        default_lag_(lag_micros) {}

  // Applies the records that are due, up to `max_records` of them.
  // Errors of one replica's records (storage, a corrupt record) leave them
  // in the log and are returned after the other replicas were served.
  Status RunDue(int64_t max_records = 10'000);

  // The lag of the replica table `target_id` (the default when unset).
  void SetLag(uint32_t target_id, int64_t lag_micros);
  int64_t Lag(uint32_t target_id) const;

  // Whether the log holds a record for `target_id` stamped at or before
  // `stamp` (a replica is CREATING while its copied items wait).
  Result<bool> HasPendingUpTo(uint32_t target_id, int64_t stamp) const;
  // How many records wait for `target_id`, due or not.
  Result<int64_t> Pending(uint32_t target_id) const;

  ReplicationStats stats() const;

 private:
  // Applies one target's due records, stopping at a throttle (the rest
  // wait for the next due work).
  Status Drain(const ReplicationTarget& target, int64_t* budget);

  const Store* const store_;
  const Clock* const clock_;
  const Catalog* const catalog_;
  WritePath* const writes_;
  const ReplicationLog* const log_;
  const int64_t default_lag_;
  Mutex run_mu_;
  mutable Mutex mu_;
  std::map<uint32_t, int64_t> lags_ GUARDED_BY(mu_);
  ReplicationStats stats_ GUARDED_BY(mu_);
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REPLICATION_REPLICATOR_H_
