// engine/replication/strong_replication.h
//
// StrongReplication is multi-Region strong consistency (MRSC) of global
// tables: UpdateTable's MultiRegionConsistency STRONG and
// GlobalTableWitnessUpdates, and the write path's SynchronousReplicas.
//
// Every Region's tables live in one store, so a write of a member writes the
// item in every replica in its own WriteBatch (WritePath::ApplyStrong): an
// acknowledged write is durable and visible to a strongly consistent read
// in every Region at once, as DynamoDB promises ("synchronously replicated
// to at least one other Region before the write operation returns"), and
// no replication log record is written for it.
//
// What can refuse a write, on the engine's clock, so that tests see it:
// - A Region cut off (PartitionRegions) from the majority of the global
//   table's three Regions (its replicas' and its witness's) cannot write or
//   read strongly consistently (kServiceUnavailable); the other two can.
// - ReplicatedWriteConflictException: a write of an item that a write from
//   another Region is still "modifying". A committed write is in flight
//   until the slowest other replica would have it: the largest lag set
//   with SetReplicationLag on the other members (none set: no window, and
//   writes of one item from two Regions are serialized by its locks).
//
// Persisted in the meta column family, one record per member table:
//
//   "S" table_id (4 BE) -> 1 | witness Region (string, empty: none)
//
// The membership itself is GlobalTables' (its "G" records); a table whose
// global table dissolved loses its record (Refresh). Creation writes the
// source's record before the replicas are made: after a crash, the next
// open gives the members that have none the record of the one that has
// (or, no replica made, drops it). A strong member is no
// member of the ReplicationLog (GlobalTables asks IsStrong).
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_REPLICATION_STRONG_REPLICATION_H_
#define DYNAROCK_ENGINE_REPLICATION_STRONG_REPLICATION_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/data/write_path.h"
#include "engine/replication/global_tables.h"
#include "engine/replication/replication_log.h"
#include "engine/replication/replicator.h"
#include "engine/requests/table_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/util/mutex.h"

namespace dynarock {

class Clock;

// Whether DynamoDB offers multi-Region strong consistency in `region`.
bool IsStrongConsistencyRegion(std::string_view region);

class StrongReplication : public SynchronousReplicas {
 public:
  // Loads the records. None of the pointers is owned; all outlive this.
  // Call SetGlobalTables before any other call. Errors: kIOError,
  // kCorruption.
  static Result<std::unique_ptr<StrongReplication>> Open(Store* store, const Clock* clock,
                                                         const Catalog* catalog,
                                                         const Replicator* replicator);

  // The control plane whose membership this follows (not owned); makes
  // the strong members leave the ReplicationLog.
  Status SetGlobalTables(GlobalTables* globals);

  // Whether UpdateTable `req` is this module's: it asks for STRONG, names
  // witnesses, or changes the replicas of a strong member.
  bool Handles(const UpdateTableRequest& req) const;
  // UpdateTable of Handles: creates a strongly consistent global table
  // (MultiRegionConsistency STRONG with two replica Creates, or one and a
  // witness Create) or deletes one (two replicas, or a replica and the
  // witness). Errors: kValidation for DynamoDB's rules (see
  // docs/global-tables.md), and GlobalTables'.
  Status UpdateReplicas(const UpdateTableRequest& req);
  // DeleteTable of `table`: kValidation when it is a strong member.
  Status CheckDelete(const TableInfo& table) const;
  // kValidation when `table` is a strong member: transactions, Time to Live.
  Status RefuseFeature(const TableInfo& table, std::string_view message) const;
  // Drops the records of tables no longer in a global table.
  Status Refresh();
  bool IsStrong(uint32_t table_id) const;

  // Adds MultiRegionConsistency and GlobalTableWitnesses to `desc` of a
  // member of a global table.
  void Describe(const TableInfo& table, TableDescription* desc) const;

  // SynchronousReplicas.
  bool Active() const override { return count_.load(std::memory_order_acquire) > 0; }
  Result<std::vector<std::shared_ptr<const TableInfo>>> Replicas(
      const TableInfo& table) override;
  Status CheckConflict(const TableInfo& table, std::string_view item_key) override;
  void Written(const TableInfo& table, std::string_view item_key) override;
  Status CheckStrongRead(const TableInfo& table) const override;

 private:
  struct Group {
    std::vector<ReplicationTarget> members;  // every table, in id order
    std::string witness;                     // empty: none
    uint32_t id = 0;                         // the first member's table id
  };
  // A write in flight: from `region` until `until_micros`.
  struct InFlight {
    std::string region;
    int64_t until_micros = 0;
  };

  StrongReplication(Store* store, const Clock* clock, const Catalog* catalog,
                    const Replicator* replicator)
      : store_(store), clock_(clock), catalog_(catalog), replicator_(replicator) {}

  std::shared_ptr<const Group> GroupOf(uint32_t table_id) const;
  // The Region of `table_id` in `g`.
  static std::string RegionOf(const Group& g, uint32_t table_id);
  // kServiceUnavailable when `region` cannot reach a majority of `g`'s
  // Regions now.
  Status CheckMajority(const Group& g, const std::string& region, std::string_view name) const;
  Status Create(const UpdateTableRequest& req, const TableInfo& table) REQUIRES(mu_);
  Status Remove(const UpdateTableRequest& req, const TableInfo& table, const Group& g)
      REQUIRES(mu_);
  // Re-reads the membership of every strong table from GlobalTables;
  // records of tables in no global table are deleted.
  Status RefreshLocked() REQUIRES(mu_);
  std::string InFlightKey(const Group& g, std::string_view item_key) const;
  static std::string EncodeRecord(const std::string& witness);
  // Writes `table_id`'s record.
  Status Persist(uint32_t table_id, const std::string& witness) REQUIRES(mu_);

  Store* const store_;
  const Clock* const clock_;
  const Catalog* const catalog_;
  const Replicator* const replicator_;
  GlobalTables* globals_ = nullptr;
  // How many strong tables there are: other tables' writes skip the lock.
  std::atomic<size_t> count_{0};
  mutable Mutex mu_;
  // table id -> its witness Region (the persisted records).
  std::map<uint32_t, std::string> witness_ GUARDED_BY(mu_);
  // table id -> its group (shared by its members). Under a lock of its
  // own: writers ask with their item locks held, and GlobalTables with its
  // lock and every item lock held, which a holder of mu_ may be waiting
  // for (lock order: mu_, GlobalTables', item stripes, groups_mu_).
  mutable Mutex groups_mu_;
  std::map<uint32_t, std::shared_ptr<const Group>> groups_ GUARDED_BY(groups_mu_);
  mutable Mutex flight_mu_;
  std::map<std::string, InFlight> in_flight_ GUARDED_BY(flight_mu_);
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REPLICATION_STRONG_REPLICATION_H_
