#include "engine/facade/engine_parts.h"

#include <algorithm>
#include <utility>

#include "engine/capacity/table_capacity.h"

namespace dynarock {
namespace {

// What replication a client's call runs under a due-work timer: records
// come due all the time, and a call must not wait behind a backlog.
constexpr int64_t kReplicationSliceInRequestMicros = 1'000;

TableLifecycleOptions LifecycleOptionsOf(const EngineOptions& options) {
  TableLifecycleOptions o;
  o.create_delay_micros = options.table_create_delay_micros;
  o.delete_delay_micros = options.table_delete_delay_micros;
  return o;
}

StreamReadLimits StreamReadLimitsOf(const EngineOptions& options) {
  StreamReadLimits l;
  l.get_records_per_shard_per_second =
      std::max<int64_t>(1, options.stream_get_records_per_shard_per_second);
  l.describe_stream_per_second = std::max<int64_t>(1, options.stream_describe_stream_per_second);
  l.list_streams_per_second = std::max<int64_t>(1, options.stream_list_streams_per_second);
  return l;
}

TtlSweeperOptions SweeperOptionsOf(const EngineOptions& options) {
  TtlSweeperOptions o;
  o.interval_micros = options.ttl_sweep_interval_micros;
  o.chunk_items = std::max<int64_t>(1, options.ttl_sweep_chunk_items);
  o.deletion_spread_micros = options.ttl_deletion_spread_micros;
  return o;
}

SecondaryIndexOptions IndexOptionsOf(const EngineOptions& options, Clock* clock) {
  SecondaryIndexOptions o;
  o.gsi_lag_micros = options.gsi_lag_micros;
  o.deterministic = options.gsi_propagation == GsiPropagation::kDeterministic ||
                    (options.gsi_propagation == GsiPropagation::kAuto &&
                     dynamic_cast<SimulatedClock*>(clock) != nullptr);
  o.backfill_chunk_items = options.gsi_backfill_chunk_items;
  o.item_collection_size_limit_bytes = options.item_collection_size_limit_bytes;
  return o;
}

StreamOptions StreamOptionsOf(const EngineOptions& options) {
  StreamOptions o;
  o.retention_micros = options.stream_retention_micros;
  o.shard_rollover_micros = options.stream_shard_rollover_micros;
  o.compaction_interval_micros = options.stream_compaction_interval_micros;
  return o;
}

}  // namespace

EngineParts::EngineParts(const EngineOptions& options_in, Clock* clock_in,
                         std::shared_ptr<Store> store_in, std::unique_ptr<Catalog> catalog_in,
                         std::unique_ptr<SecondaryIndexes> indexes_in,
                         std::unique_ptr<StreamLog> streams_in,
                         const std::atomic<bool>* throttling)
    : options(options_in),
      clock(clock_in),
      store(std::move(store_in)),
      catalog(std::move(catalog_in)),
      indexes(std::move(indexes_in)),
      streams(std::move(streams_in)),
      stream_reads(clock, StreamReadLimitsOf(options)),
      throughput(clock, options.capacity),
      replica(store.get(), clock, options.eventual_read_lag_micros),
      write_path(store.get(), &locks, indexes->writer(), options.item_size_cache_entries),
      read_path(store.get(), &throughput, throttling, &replica),
      tables(LifecycleOptionsOf(options), clock, catalog.get(), indexes.get(), &throughput,
             streams.get()),
      tags(catalog.get(), &tables,
           static_cast<size_t>(std::max<int64_t>(1, options.list_tags_page_size))),
      policies(store.get(), &tables, clock),
      insights(clock, catalog.get(), &tables),
      transactions(store.get(), &locks, &write_path, &read_path, indexes->writer(),
                   &throughput, clock),
      ttl(clock, catalog.get(), &tables, options.ttl_change_cooldown_micros,
          options.ttl_status_delay_micros),
      ttl_sweeper(SweeperOptionsOf(options), clock, catalog.get(), store.get(), &write_path,
                  &throughput),
      pitr_log(clock),
      restorer(store.get(), catalog.get(), &tables, clock),
      replication_log(store.get(), clock),
      replicator(store.get(), clock, catalog.get(), &write_path, &locks, &replication_log,
                 options.replication_lag_micros,
                 options.replication_tombstone_retention_micros) {
  write_path.SetThroughput(&throughput, throttling);
  write_path.SetStreams(streams.get());
  write_path.SetLaggingReplica(&replica);
  write_path.AddChangeHook(&pitr_log);
  write_path.AddChangeHook(&replication_log);
  // Shards follow partitions: a table's split closes its shard.
  StreamLog* log = streams.get();
  throughput.SetSplitListener(
      [log](uint32_t table_id, uint32_t index_id, uint64_t, uint64_t at, uint64_t) {
        if (index_id == 0) log->PartitionSplit(table_id, at);
      });
  StartThroughput(*catalog, store.get(), &throughput);
}

EngineParts::~EngineParts() {
  // The transfer threads first: a running export or import stops
  // (IN_PROGRESS).
  exports.reset();
  imports.reset();
  bulk_puts.reset();
  // The propagation thread next: nothing writes after it stops.
  indexes->Stop();
  // Flush so that a reopened database does not need to replay the WAL;
  // the WAL alone already guarantees nothing is lost.
  if (!options.in_memory) store->Flush().ok();
}

Status EngineParts::OpenBackups() {
  DR_ASSIGN_OR_RETURN(backups, Backups::Open(store.get(), clock, &tables, &restorer,
                                             options.table_create_delay_micros));
  DR_ASSIGN_OR_RETURN(continuous_backups,
                      ContinuousBackups::Open(store.get(), clock, &tables, &restorer,
                                              &pitr_log, indexes->writer()));
  DR_ASSIGN_OR_RETURN(exports, Exports::Open(store.get(), clock, &tables,
                                             continuous_backups.get(),
                                             options.transfer_files));
  DR_ASSIGN_OR_RETURN(imports, Imports::Open(store.get(), clock, &tables, &restorer,
                                             options.transfer_files,
                                             options.import_sort_budget_bytes));
  BulkPutOptions bulk_options;
  bulk_options.step_slice_micros = options.due_work_step_slice_micros;
  DR_ASSIGN_OR_RETURN(bulk_puts, BulkPuts::Open(store.get(), clock, &tables, &write_path,
                                                options.transfer_files, bulk_options));
  return Status::OK();
}

bool EngineParts::RunDueWork(bool in_request) {
  indexes->Pump();
  ttl_sweeper.RunDue();
  streams->Maintain().ok();
  if (continuous_backups) continuous_backups->Maintain().ok();
  bool more = false;
  if (bulk_puts && !(in_request && options.due_work_interval_micros > 0)) {
    more = bulk_puts->RunDue();
  }
  // Replication: under a due-work timer, a client's call applies what a
  // millisecond allows from where the last run stopped (records come due
  // all the time, and the call must not wait behind a backlog, e.g. a
  // healed partition's) and the timer the rest, a slice at a time, from
  // the log's start. Without one, calls and the clock move it all.
  // A failure leaves the records for the next due work; not the caller's.
  const bool timer = options.due_work_interval_micros > 0;
  const bool call = timer && in_request;
  Result<bool> replicated = replicator.RunDue(
      10'000,
      !timer ? 0
      : call ? kReplicationSliceInRequestMicros
             : std::max<int64_t>(1, options.due_work_step_slice_micros),
      /*from_cursor=*/call);
  return more || (replicated.ok() && *replicated);
}

Result<std::unique_ptr<EngineParts>> EngineParts::Open(const EngineOptions& options,
                                                       std::shared_ptr<Store> store,
                                                       const std::atomic<bool>* throttling) {
  Clock* clock = options.clock ? options.clock : RealClock::Default();
  DR_ASSIGN_OR_RETURN(std::unique_ptr<Catalog> catalog, Catalog::Load(store.get()));
  DR_ASSIGN_OR_RETURN(std::unique_ptr<SecondaryIndexes> indexes,
                      SecondaryIndexes::Open(store.get(), catalog.get(), clock,
                                             IndexOptionsOf(options, clock)));
  DR_ASSIGN_OR_RETURN(std::unique_ptr<StreamLog> streams,
                      StreamLog::Open(store.get(), clock, StreamOptionsOf(options)));
  // A stream whose table's record does not name it (a crash between the
  // two writes) is disabled.
  const Catalog& tables = *catalog;
  DR_RETURN_IF_ERROR(streams->Reconcile([&](uint32_t table_id, const std::string& arn) {
    for (const auto& t : tables.All()) {
      if (t->id == table_id) {
        return !t->deleting_since_micros && t->desc.stream_specification &&
               t->desc.stream_specification->stream_enabled &&
               t->desc.latest_stream_arn == arn;
      }
    }
    return false;
  }));
  std::unique_ptr<EngineParts> parts(new EngineParts(options, clock, std::move(store),
                                                     std::move(catalog), std::move(indexes),
                                                     std::move(streams), throttling));
  DR_RETURN_IF_ERROR(parts->OpenBackups());
  EngineParts& p = *parts;
  DR_ASSIGN_OR_RETURN(p.global_tables,
                      GlobalTables::Open(p.store.get(), p.clock, p.catalog.get(), &p.tables,
                                         &p.locks, &p.replication_log, &p.replicator));
  DR_ASSIGN_OR_RETURN(p.strong, StrongReplication::Open(p.store.get(), p.clock, p.catalog.get(),
                                                        &p.replicator));
  DR_RETURN_IF_ERROR(p.strong->SetGlobalTables(p.global_tables.get()));
  p.write_path.SetSynchronousReplicas(p.strong.get());
  p.read_path.SetSynchronousReplicas(p.strong.get());
  return parts;
}

}  // namespace dynarock
