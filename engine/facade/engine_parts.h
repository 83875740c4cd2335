// engine/facade/engine_parts.h
//
// EngineParts is everything an open engine is made of on one Store: the
// catalog, the secondary indexes and their propagator, the stream log, the
// capacity model, the read and write paths, the control-plane modules and
// the background transfers. It is plain data with a lifetime: Engine
// (engine/facade/engine_state.h) runs every operation on one, and replaces it
// whole when a database snapshot is restored. It has no operations of its
// own beyond construction, the due background work and an orderly shutdown.
//
// Not thread-safe by itself: its members are (each says how); Engine's
// gate keeps a reset from running beside any call.

#ifndef DYNAROCK_ENGINE_FACADE_ENGINE_PARTS_H_
#define DYNAROCK_ENGINE_FACADE_ENGINE_PARTS_H_

#include <atomic>
#include <memory>

#include "engine/backup/backups.h"
#include "engine/backup/continuous_backups.h"
#include "engine/backup/table_restore.h"
#include "engine/capacity/throughput_controller.h"
#include "engine/clock.h"
#include "engine/index/secondary_indexes.h"
#include "engine/options.h"
#include "engine/partiql/plan_cache.h"
#include "engine/replication/global_tables.h"
#include "engine/replication/strong_replication.h"
#include "engine/replication/replication_log.h"
#include "engine/replication/replicator.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/lagging_replica.h"
#include "engine/storage/store.h"
#include "engine/stream/stream_log.h"
#include "engine/stream/stream_reads.h"
#include "engine/control/contributor_insights.h"
#include "engine/data/item_locks.h"
#include "engine/data/read_path.h"
#include "engine/control/table_lifecycle.h"
#include "engine/control/resource_policies.h"
#include "engine/control/table_tags.h"
#include "engine/transactions/transactions.h"
#include "engine/data/write_path.h"
#include "engine/transfer/bulk_puts.h"
#include "engine/transfer/exports.h"
#include "engine/transfer/imports.h"
#include "engine/ttl/ttl_settings.h"
#include "engine/ttl/ttl_sweeper.h"

namespace dynarock {

struct EngineParts {
  // Opens the parts on `store` (which they share with the caller): loads
  // the catalog, the index and stream state, the backups and PITR state,
  // and starts the background threads the options ask for. `throttling` is
  // the engine's switch, read by the paths on every request; it outlives
  // the parts. Errors: kIOError / kCorruption from the stored state.
  static Result<std::unique_ptr<EngineParts>> Open(const EngineOptions& options,
                                                   std::shared_ptr<Store> store,
                                                   const std::atomic<bool>* throttling);

  // Stops the transfer and propagation threads, then flushes an on-disk
  // database so that a reopen need not replay the WAL.
  ~EngineParts();
  EngineParts(const EngineParts&) = delete;
  EngineParts& operator=(const EngineParts&) = delete;

  // The background work that is due on the clock, run at the start of
  // every operation: with deterministic propagation, GSI changes and
  // backfill steps move with the calls (with the propagation thread,
  // nothing); a step of the Time to Live sweep when one is due; stream and
  // PITR maintenance (rollover, retention), whose failures are not the
  // caller's; the bulk put items jobs' writes the clock allows; the global
  // tables' replication records that are due.
  //
  // `in_request`: run at the start of a client's call. A bulk put job's
  // step can take seconds (it reads and parses an input object, then writes
  // up to a second of its budget); when the engine has a due-work timer
  // (EngineOptions::due_work_interval_micros, `dynarock serve`) the steps
  // run only on the timer, so that no client call waits for one. Without a
  // timer (the simulated clock's tests) the calls move the jobs, as the
  // clock does. A step is a bounded slice of wall time
  // (EngineOptions::due_work_step_slice_micros); true when a job moved and
  // still runs, i.e. its next step is due at once.
  bool RunDueWork(bool in_request = false);

  const EngineOptions options;
  Clock* const clock;
  std::shared_ptr<Store> store;
  std::unique_ptr<Catalog> catalog;
  std::unique_ptr<SecondaryIndexes> indexes;
  std::unique_ptr<StreamLog> streams;
  StreamReads stream_reads;
  ThroughputController throughput;
  ItemLocks locks;
  LaggingReplica replica;
  WritePath write_path;
  ReadPath read_path;
  TableLifecycle tables;
  TableTags tags;
  ResourcePolicies policies;
  ContributorInsights insights;
  TransactionCoordinator transactions;
  TtlSettings ttl;
  TtlSweeper ttl_sweeper;
  PitrLog pitr_log;
  TableRestorer restorer;
  std::unique_ptr<Backups> backups;
  std::unique_ptr<ContinuousBackups> continuous_backups;
  std::unique_ptr<Exports> exports;
  std::unique_ptr<Imports> imports;
  std::unique_ptr<BulkPuts> bulk_puts;
  // Plans of repeated PartiQL SELECT texts.
  partiql::PlanCache plan_cache;
  // Global tables: the log every write of a member table adds to, the
  // replicator the due work runs, and the replicas' control plane.
  ReplicationLog replication_log;
  Replicator replicator;
  std::unique_ptr<GlobalTables> global_tables;
  // Multi-Region strong consistency: the write and read paths' replicas.
  std::unique_ptr<StrongReplication> strong;

 private:
  EngineParts(const EngineOptions& options, Clock* clock, std::shared_ptr<Store> store,
              std::unique_ptr<Catalog> catalog, std::unique_ptr<SecondaryIndexes> indexes,
              std::unique_ptr<StreamLog> streams, const std::atomic<bool>* throttling);
  // Loads the backups, PITR state and transfers (after the constructor:
  // loading can fail).
  Status OpenBackups();
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_FACADE_ENGINE_PARTS_H_
