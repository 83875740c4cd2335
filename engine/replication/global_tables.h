// engine/replication/global_tables.h
//
// GlobalTables is the control plane of global tables version 2019.11.21:
// UpdateTable's ReplicaUpdates (Create, Update, Delete of a replica in
// another Region), the Replicas of DescribeTable, and a member's leaving
// when its table is deleted. A replica is a table of the same name in the
// namespace of the same access key in the replica's Region (NamespaceFor,
// engine/requests/scope.h), so clients signed for that Region use it as
// any table. Membership is persisted in the meta column family,
//
//   "G" table_id (4 BE) -> 2 | group (varint: the first member's id) |
//                          region | ns | table name | copied_until (signed) |
//                          flags (byte: 1 legacy, 2 leaving) | created (signed) |
//                          read override | index count (varint) |
//                          (index name | read override)*
//
// (version 1 records, from before, have none of the last five: 0; version
// 2 no overrides). A read override is a byte of which members are set (1
// read capacity, 2 maximum read units) and both values (signed). A
// legacy group (global tables version 2017.11.29, made by CreateGlobalTable
// of empty tables: legacy_global_tables.cc) replicates as any other; it
// differs in its operations, its version string and in being a global
// table even with one Region.
//
// While a replica is being created an intent to join is kept beside them,
//
//   "J" source id (4 BE) | region -> 2 | replica ns | table name |
//                                     read override | index count |
//                                     (index name | read override)*
//
// (version 1: no overrides)
//
// so that the next open finishes (or forgets) a creation a crash cut short.
// Membership is handed to the ReplicationLog (who replicates to whom), which the
// Replicator drains. A replica created over existing items is filled from
// a consistent snapshot of its source (the items with their versions, and
// the source's own pending replication records) written as replication
// records of the new replica; it shows CREATING until the records stamped
// up to its creation (`copied_until`) are applied. A replica being deleted
// leaves at once (nothing replicates to or from it, its pending records are
// dropped) but stays in its record, flagged leaving, so that the others
// show it DELETING until its table is gone (TableLifecycle's delete delay,
// on the clock); the group is dissolved (one Region left) only then.
//
// Thread-safe; control-plane calls are serialized here.

#ifndef DYNAROCK_ENGINE_REPLICATION_GLOBAL_TABLES_H_
#define DYNAROCK_ENGINE_REPLICATION_GLOBAL_TABLES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/replication/replication_log.h"
#include "engine/requests/global_table_requests.h"
#include "engine/replication/replicator.h"
#include "engine/requests/table_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/data/item_locks.h"
#include "engine/control/table_lifecycle.h"
#include "engine/util/mutex.h"

namespace dynarock {

class Clock;

// Whether DynamoDB serves the Region `region` (the commercial, GovCloud and
// China Regions): a replica can be created only in one of them.
bool IsKnownRegion(std::string_view region);

class GlobalTables {
 public:
  // Loads the membership records and hands them to `log`. None of the
  // pointers is owned; all outlive this. Errors: kIOError, kCorruption.
  static Result<std::unique_ptr<GlobalTables>> Open(Store* store, Clock* clock,
                                                    const Catalog* catalog,
                                                    TableLifecycle* tables, ItemLocks* locks,
                                                    ReplicationLog* log,
                                                    const Replicator* replicator);

  // UpdateTable with ReplicaUpdates: each action in order, then the table's
  // description. Errors (kValidation unless said): the caller has no
  // namespace of its own (--shared-db, unsigned calls); the local Region
  // ("Cannot add, delete, or update the local region through
  // ReplicaUpdates..."); an unknown Region; Create of a Region that has the
  // replica or a table of that name; Update or Delete of a Region that has
  // no replica; kResourceNotFound / kResourceInUse for the table as
  // UpdateTable reports them.
  Result<TableDescription> UpdateReplicas(const UpdateTableRequest& req);

  // UpdateTable of `table` (before it runs): a member of a global table
  // cannot disable its stream (kValidation "One or more parameter values
  // were invalid: Disabling Stream is not allowed for a Global Table
  // replica.", DynamoDB's text); changing its view type is refused as on
  // any table with a stream (TableLifecycle: "already has an enabled
  // stream"). A change of synchronized settings needs every other member
  // ACTIVE (kResourceInUse naming the Region whose replica is not).
  Status CheckUpdate(const TableInfo& table, const UpdateTableRequest& req) const;

  // Settings synchronized across replicas (replica_settings.cc; the
  // developer guide's "How DynamoDB global tables work", Settings
  // synchronization). UpdateTable of `before` (the member as it was) has
  // changed it with `req`: every other member gets the synchronized
  // settings `req` changed (billing mode, write capacity, GSI creates and
  // deletes and their write capacity, on-demand maximum write throughput,
  // warm throughput, SSE type) and, as DynamoDB does, the overridable ones
  // (read capacity, GSI read capacity, maximum read throughput, table class)
  // when `req` changed them on `before`, which ends a replica's override of
  // them. Each member changes through UpdateTable's own path, so one whose
  // capacity or indexes change shows UPDATING for the update delay (and
  // other Regions list it UPDATING). A table of no global table: nothing.
  // Errors: a member's UpdateTable error (the members before it changed).
  Status Synchronize(const TableInfo& before, const UpdateTableRequest& req);

  // Adds `table`'s Replicas and GlobalTableVersion to `desc` when it is a
  // member of a global table (replicas being deleted show DELETING).
  void Describe(const TableInfo& table, TableDescription* desc);

  // The other members of `table`'s global table (version 2019.11.21: a
  // legacy group's settings change through UpdateGlobalTableSettings), whose
  // synchronized settings follow `table`'s; empty when it is no member.
  std::vector<ReplicationTarget> SynchronizedWith(const TableInfo& table) const;

  // The members of `table`'s global table, `table` first; empty when it is
  // no member.
  std::vector<ReplicationTarget> Group(const TableInfo& table) const;

  // `table` was deleted (DeleteTable): it leaves its global table; a group
  // left with one member is no global table any more.
  Status TableDeleted(const TableInfo& table);

  // Global tables version 2017.11.29 (legacy_global_tables.cc; the errors
  // are Engine's, engine/engine.h).
  Result<GlobalTableDescription> CreateGlobalTable(const CreateGlobalTableRequest& req);
  Result<GlobalTableDescription> DescribeGlobalTable(const DescribeGlobalTableRequest& req);
  Result<ListGlobalTablesResult> ListGlobalTables(const ListGlobalTablesRequest& req);
  Result<GlobalTableDescription> UpdateGlobalTable(const UpdateGlobalTableRequest& req);
  Result<GlobalTableSettings> DescribeSettings(const DescribeGlobalTableRequest& req);
  Result<GlobalTableSettings> UpdateSettings(const UpdateGlobalTableSettingsRequest& req);

  // Multi-Region strong consistency (strong_replication.h): the members
  // `is_strong` names replicate in their writes' own batches, so they are
  // kept out of the ReplicationLog. Republish applies a change of it.
  void SetStrong(std::function<bool(uint32_t table_id)> is_strong);
  Status Republish();

 private:
  struct Member {
    uint32_t group = 0;
    std::string region;
    std::string ns;
    std::string name;
    int64_t copied_until = 0;
    bool legacy = false;        // version 2017.11.29
    int64_t created_micros = 0;  // CreateGlobalTable's time (legacy)
    bool leaving = false;       // deleted, shown DELETING until its table is gone
    // The replica's read overrides (record version 3): its table's and its
    // GSIs' by index name. Set by ReplicaUpdates, ended by a synchronized
    // change of the same setting.
    ReadOverride read;
    std::map<std::string, ReadOverride, std::less<>> index_reads;
  };

  GlobalTables(Store* store, Clock* clock, const Catalog* catalog, TableLifecycle* tables,
               ItemLocks* locks, ReplicationLog* log, const Replicator* replicator)
      : store_(store), clock_(clock), catalog_(catalog), tables_(tables), locks_(locks),
        log_(log), replicator_(replicator) {}

  Status CreateReplica(const UpdateTableRequest& req, const TableInfo& source,
                       const ReplicationGroupUpdate& action) REQUIRES(mu_);
  // Makes `created` (the new table in `region`) a member of `source`'s
  // group: publishes it, copies the source's items from a snapshot, then
  // writes its membership and deletes the intent to join in one batch.
  // `overrides`: the Create action's read overrides, recorded with it.
  Status JoinReplica(const TableInfo& source, const std::string& source_region,
                     const std::string& region, const TableInfo& created,
                     const ReplicationGroupUpdate* overrides = nullptr) REQUIRES(mu_);
  // At open: an intent to join that a crash left (source, Region, the
  // replica's namespace and name, the Create's read overrides). Errors:
  // kIOError.
  Status RecoverJoin(uint32_t source_id, const std::string& region, const std::string& ns,
                     const std::string& name, const ReplicationGroupUpdate& overrides)
      REQUIRES(mu_);
  Status UpdateReplica(const UpdateTableRequest& req, const TableInfo& source,
                       const ReplicationGroupUpdate& action) REQUIRES(mu_);
  // CheckUpdate's rule for synchronized settings (replica_settings.cc).
  Status CheckSynchronized(const TableInfo& table, const UpdateTableRequest& req) const;
  // The read overrides of `action` checked against `source`'s definition:
  // ProvisionedThroughputOverride needs PROVISIONED, OnDemandThroughputOverride
  // PAY_PER_REQUEST, each GSI override an index of the table (kValidation,
  // kResourceNotFound for an unknown index; replica_settings.cc).
  static Status CheckOverrides(const TableDescription& source,
                               const ReplicationGroupUpdate& action);
  // Sets the read settings `action` overrides on `replica` (the member
  // `id`, its table `table`) through UpdateTable, and records them.
  Status ApplyOverrides(const Scope& caller, uint32_t id, const TableInfo& table,
                        const ReplicationGroupUpdate& action) REQUIRES(mu_);
  // Records the overrides of `action` in member `id` (memory and `batch`).
  void RecordOverrides(uint32_t id, const ReplicationGroupUpdate& action, WriteBatch* batch)
      REQUIRES(mu_);
  Status DeleteReplica(const UpdateTableRequest& req, const TableInfo& source,
                       const ReplicationGroupUpdate& action) REQUIRES(mu_);
  // The member of `source`'s group in `region`, or members_.end().
  std::map<uint32_t, Member>::const_iterator InRegion(uint32_t source_id,
                                                      std::string_view region) const
      REQUIRES(mu_);
  // Hands every member's targets to the log, with every write stopped
  // (all item lock stripes held), then runs `while_stopped`.
  Status Publish(const std::function<Status()>& while_stopped) REQUIRES(mu_);
  void PublishLocked() REQUIRES(mu_);
  // Copies `source`'s items and pending records, as of `snapshot`, into
  // replication records for `target_id`.
  Status CopyItems(const StoreReader& snapshot, const TableInfo& source,
                   const std::string& source_region, uint32_t target_id);
  // Removes `id` from its group in memory and `batch`, and drops the
  // changes still on their way to it. With `until_table_gone` (its table is
  // being deleted) it stays in leaving_ until Settle finds the table gone;
  // otherwise a group left with one member is dissolved at once.
  void Leave(uint32_t id, WriteBatch* batch, bool until_table_gone = true) REQUIRES(mu_);
  // Forgets the leaving members whose tables are gone, then dissolves the
  // (2019.11.21) groups left with one member and none leaving.
  void Settle() REQUIRES(mu_);
  // The Scope of `m`'s namespace and Region.
  static Scope ScopeOf(const Scope& caller, const Member& m);
  // Adds `m`'s record (as member `id`) to `batch`.
  static void PutMember(uint32_t id, const Member& m, WriteBatch* batch);
  // The caller's access key (from its namespace when the Scope has none).
  static std::string AccessKeyOf(const Scope& caller);

  // Legacy (2017.11.29) groups, legacy_global_tables.cc.
  // The legacy group named `name` of the caller's access key: its group id.
  // Errors: kGlobalTableNotFound.
  Result<uint32_t> LegacyGroup(const Scope& caller, std::string_view name) const
      REQUIRES(mu_);
  GlobalTableDescription DescribeLegacy(const Scope& caller, uint32_t group) const
      REQUIRES(mu_);
  // The table that would join a legacy group in `region`: it exists, has a
  // NEW_AND_OLD_IMAGES stream, `like`'s key schema, and is no member.
  Result<std::shared_ptr<const TableInfo>> Joiner(const Scope& caller, std::string_view name,
                                                  const std::string& region,
                                                  const TableInfo* like) REQUIRES(mu_);
  // Makes `joining` members of `group`, with every write stopped: each
  // table must still be empty; their records are written in one batch.
  Status Join(uint32_t group, const std::vector<std::shared_ptr<const TableInfo>>& joining,
              const std::vector<std::string>& regions) REQUIRES(mu_);
  // Runs `fn` with every item lock stripe held (no write in flight).
  Status WithWritesStopped(const std::function<Status()>& fn) REQUIRES(mu_);

  Store* const store_;
  Clock* const clock_;
  const Catalog* const catalog_;
  TableLifecycle* const tables_;
  ItemLocks* const locks_;
  ReplicationLog* const log_;
  const Replicator* const replicator_;
  mutable Mutex mu_;
  std::map<uint32_t, Member> members_ GUARDED_BY(mu_);
  std::map<uint32_t, Member> leaving_ GUARDED_BY(mu_);
  std::function<bool(uint32_t)> is_strong_ GUARDED_BY(mu_);
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REPLICATION_GLOBAL_TABLES_H_
