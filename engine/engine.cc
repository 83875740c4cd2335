#include "engine/engine.h"

#include <algorithm>
#include <atomic>
#include <set>
#include <utility>

#include "engine/backup/backups.h"
#include "engine/backup/continuous_backups.h"
#include "engine/backup/table_restore.h"
#include "engine/capacity/table_capacity.h"
#include "engine/capacity/throughput_controller.h"
#include "engine/clock.h"
#include "engine/expr/evaluate.h"
#include "engine/index/consistency_checker.h"
#include "engine/index/index_entry.h"
#include "engine/index/secondary_indexes.h"
#include "engine/keys/key_codec.h"
#include "engine/snapshot_engine.h"
#include "engine/partiql_runner.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/stream/stream_log.h"
#include "engine/stream/stream_reader.h"
#include "engine/stream/stream_reads.h"
#include "engine/table/batch_requests.h"
#include "engine/table/item_locks.h"
#include "engine/table/item_requests.h"
#include "engine/table/query_requests.h"
#include "engine/table/read_path.h"
#include "engine/schema/schema.h"
#include "engine/table/table_lifecycle.h"
#include "engine/table/contributor_insights.h"
#include "engine/table/table_tags.h"
#include "engine/table/transactions.h"
#include "engine/table/write_path.h"
#include "engine/transfer/exports.h"
#include "engine/transfer/imports.h"
#include "engine/value/item_codec.h"
#include "engine/ttl/ttl_settings.h"
#include "engine/ttl/ttl_sweeper.h"

// The engine facade: it owns the parts (store, catalog, indexes, capacity
// model, read and write paths, table lifecycle) and runs each operation as
// check the request -> find the table -> read or write through the path.
// Every operation starts with RunDueWork().

namespace dynarock {
namespace {

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

class EngineImpl final : public Engine {
 public:
  EngineImpl(const EngineOptions& options, Clock* clock,
             std::shared_ptr<Store> store, std::unique_ptr<Catalog> catalog,
             std::unique_ptr<SecondaryIndexes> indexes,
             std::unique_ptr<StreamLog> streams)
      : options_(options),
        clock_(clock),
        store_(std::move(store)),
        catalog_(std::move(catalog)),
        indexes_(std::move(indexes)),
        streams_(std::move(streams)),
        stream_reads_(clock, StreamReadLimitsOf(options)),
        throughput_(clock, options.capacity),
        throttling_(options.throttling),
        write_path_(store_.get(), &locks_, indexes_->writer(),
                    options_.item_size_cache_entries),
        read_path_(store_.get(), &throughput_, &throttling_),
        tables_(LifecycleOptionsOf(options), clock, catalog_.get(),
                indexes_.get(), &throughput_, streams_.get()),
        tags_(catalog_.get(), &tables_,
              static_cast<size_t>(std::max<int64_t>(1, options.list_tags_page_size))),
        insights_(clock, catalog_.get(), &tables_),
        transactions_(store_.get(), &locks_, &write_path_, &read_path_,
                      indexes_->writer(), &throughput_, clock),
        ttl_(clock, catalog_.get(), &tables_, options.ttl_change_cooldown_micros,
             options.ttl_status_delay_micros),
        ttl_sweeper_(SweeperOptionsOf(options), clock, catalog_.get(),
                     store_.get(), &write_path_),
        pitr_log_(clock),
        restorer_(store_.get(), catalog_.get(), &tables_, clock) {
    write_path_.SetThroughput(&throughput_, &throttling_);
    write_path_.SetStreams(streams_.get());
    write_path_.SetPitrLog(&pitr_log_);
    // Shards follow partitions: a table's split closes its shard.
    StreamLog* log = streams_.get();
    throughput_.SetSplitListener([log](uint32_t table_id, uint32_t index_id,
                                           uint64_t, uint64_t at, uint64_t) {
      if (index_id == 0) log->PartitionSplit(table_id, at);
    });
    StartThroughput(*catalog_, store_.get(), &throughput_);
  }

  ~EngineImpl() override {
    // The transfer threads first: a running export or import stops
    // (IN_PROGRESS).
    exports_.reset();
    imports_.reset();
    // The propagation thread first: nothing writes after it stops.
    indexes_->Stop();
    // Flush so that a reopened database does not need to replay the WAL;
    // the WAL alone already guarantees nothing is lost.
    if (!options_.in_memory) store_->Flush().ok();
  }

  // Loads the backups and the point-in-time recovery state (after the
  // constructor: loading can fail).
  Status OpenBackups() {
    DR_ASSIGN_OR_RETURN(backups_, Backups::Open(store_.get(), clock_, &tables_, &restorer_,
                                                options_.table_create_delay_micros));
    DR_ASSIGN_OR_RETURN(continuous_backups_,
                        ContinuousBackups::Open(store_.get(), clock_, &tables_, &restorer_,
                                                &pitr_log_, indexes_->writer()));
    DR_ASSIGN_OR_RETURN(exports_, Exports::Open(store_.get(), clock_, &tables_,
                                                continuous_backups_.get(),
                                                options_.transfer_files));
    DR_ASSIGN_OR_RETURN(imports_, Imports::Open(store_.get(), clock_, &tables_, &restorer_,
                                                options_.transfer_files));
    return Status::OK();
  }

  Result<ImportTableDescription> ImportTable(const ImportTableRequest& req) override {
    RunDueWork();
    return imports_->Import(req);
  }
  Result<ImportTableDescription> DescribeImport(const DescribeImportRequest& req) override {
    RunDueWork();
    return imports_->Describe(req);
  }
  Result<ListImportsResult> ListImports(const ListImportsRequest& req) override {
    RunDueWork();
    return imports_->List(req);
  }

  Result<ExportDescription> ExportTableToPointInTime(
      const ExportTableToPointInTimeRequest& req) override {
    RunDueWork();
    return exports_->Export(req);
  }
  Result<ExportDescription> DescribeExport(const DescribeExportRequest& req) override {
    RunDueWork();
    return exports_->Describe(req);
  }
  Result<ListExportsResult> ListExports(const ListExportsRequest& req) override {
    RunDueWork();
    return exports_->List(req);
  }
  void WaitUntilTransfersDone() override {
    exports_->WaitIdle();
    imports_->WaitIdle();
  }

  Result<BackupDescription> CreateBackup(const CreateBackupRequest& req) override {
    RunDueWork();
    return backups_->Create(req);
  }
  Result<BackupDescription> DescribeBackup(const DescribeBackupRequest& req) override {
    RunDueWork();
    return backups_->Describe(req);
  }
  Result<ListBackupsResult> ListBackups(const ListBackupsRequest& req) override {
    RunDueWork();
    return backups_->List(req);
  }
  Result<BackupDescription> DeleteBackup(const DeleteBackupRequest& req) override {
    RunDueWork();
    return backups_->Delete(req);
  }
  Result<TableDescription> RestoreTableFromBackup(
      const RestoreTableFromBackupRequest& req) override {
    RunDueWork();
    return backups_->Restore(req);
  }
  Result<ContinuousBackupsDescription> UpdateContinuousBackups(
      const UpdateContinuousBackupsRequest& req) override {
    RunDueWork();
    return continuous_backups_->Update(req);
  }
  Result<ContinuousBackupsDescription> DescribeContinuousBackups(
      const DescribeContinuousBackupsRequest& req) override {
    RunDueWork();
    return continuous_backups_->Describe(req);
  }
  Result<TableDescription> RestoreTableToPointInTime(
      const RestoreTableToPointInTimeRequest& req) override {
    RunDueWork();
    return continuous_backups_->Restore(req);
  }

  // Database snapshots are the wrapper's (engine/snapshot_engine.cc).
  Result<SnapshotInfo> CreateSnapshot(const std::string&) override {
    return Status::Internal("snapshots are served by the snapshot engine");
  }
  Status RestoreSnapshot(const std::string&) override {
    return Status::Internal("snapshots are served by the snapshot engine");
  }
  Result<std::vector<SnapshotInfo>> ListSnapshots() override {
    return Status::Internal("snapshots are served by the snapshot engine");
  }
  Status DeleteSnapshot(const std::string&) override {
    return Status::Internal("snapshots are served by the snapshot engine");
  }

  Status WaitUntilIndexesCaughtUp() override;
  Status PropagateIndexes() override;
  Status SetIndexLag(const SetIndexLagRequest& req) override;
  IndexPropagationStats GetIndexPropagationStats() override;
  Status VerifyIndexes(const Scope& scope, const std::string& table_name) override;
  Result<TableThroughputStats> DescribeCapacity(const Scope& scope,
                                                const std::string& table_name,
                                                size_t hot_keys) override;
  void SetThrottling(bool on) override {
    throttling_.store(on, std::memory_order_relaxed);
  }
  bool throttling() const override {
    return throttling_.load(std::memory_order_relaxed);
  }

  Result<TableDescription> CreateTable(const CreateTableRequest& req) override {
    RunDueWork();
    return tables_.Create(req);
  }
  Result<TableDescription> DescribeTable(const DescribeTableRequest& req) override {
    RunDueWork();
    return tables_.Describe(req);
  }
  Result<ListTablesResult> ListTables(const ListTablesRequest& req) override {
    RunDueWork();
    return tables_.List(req);
  }
  Result<TableDescription> UpdateTable(const UpdateTableRequest& req) override {
    RunDueWork();
    return tables_.Update(req);
  }
  Result<TableDescription> DeleteTable(const DeleteTableRequest& req) override {
    RunDueWork();
    std::shared_ptr<const TableInfo> table = catalog_->Find(req.scope.ns, req.table_name);
    Result<TableDescription> deleted = tables_.Delete(req);
    // Point-in-time recovery ends with the table.
    if (deleted.ok() && table) continuous_backups_->TableDeleted(table->id);
    return deleted;
  }
  Result<ListStreamsResult> ListStreams(const ListStreamsRequest& req) override {
    RunDueWork();
    return dynarock::ListStreams(*streams_, &stream_reads_, throttling(), req);
  }
  Result<StreamDescription> DescribeStream(const DescribeStreamRequest& req) override {
    RunDueWork();
    return dynarock::DescribeStream(*streams_, &stream_reads_, throttling(), req);
  }
  Result<std::string> GetShardIterator(const GetShardIteratorRequest& req) override {
    RunDueWork();
    return dynarock::GetShardIterator(*streams_, req);
  }
  Result<GetRecordsResult> GetRecords(const GetRecordsRequest& req) override {
    RunDueWork();
    return dynarock::GetRecords(*streams_, &stream_reads_, throttling(), req);
  }
  Result<StreamStorageStats> DescribeStreamStats(const Scope& scope,
                                                 const std::string& table_name) override {
    RunDueWork();
    return dynarock::DescribeStreamStats(*streams_, stream_reads_, scope.ns, table_name);
  }
  Status TagResource(const TagResourceRequest& req) override {
    RunDueWork();
    return tags_.Tag(req);
  }
  Status UntagResource(const UntagResourceRequest& req) override {
    RunDueWork();
    return tags_.Untag(req);
  }
  Result<ListTagsOfResourceResult> ListTagsOfResource(
      const ListTagsOfResourceRequest& req) override {
    RunDueWork();
    return tags_.List(req);
  }
  Result<ContributorInsightsDescription> UpdateContributorInsights(
      const UpdateContributorInsightsRequest& req) override {
    RunDueWork();
    return insights_.Update(req);
  }
  Result<ContributorInsightsDescription> DescribeContributorInsights(
      const Scope& scope, const std::string& table_name,
      const std::string& index_name) override {
    RunDueWork();
    return insights_.Describe(scope, table_name, index_name);
  }
  Result<ListContributorInsightsResult> ListContributorInsights(
      const ListContributorInsightsRequest& req) override {
    RunDueWork();
    return insights_.List(req);
  }
  Result<TimeToLiveSpecification> UpdateTimeToLive(
      const UpdateTimeToLiveRequest& req) override {
    RunDueWork();
    return ttl_.Update(req);
  }
  Result<TimeToLiveDescription> DescribeTimeToLive(
      const DescribeTimeToLiveRequest& req) override {
    RunDueWork();
    return ttl_.Describe(req);
  }
  Result<TimeToLiveSweepResult> RunTimeToLiveSweep(
      const TimeToLiveSweepRequest& req) override;
  Result<PutItemResult> PutItem(const PutItemRequest& req) override;
  Result<GetItemResult> GetItem(const GetItemRequest& req) override;
  Result<DeleteItemResult> DeleteItem(const DeleteItemRequest& req) override;
  Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& req) override;
  Result<QueryResult> Query(const QueryRequest& req) override;
  Result<ScanResult> Scan(const ScanRequest& req) override;
  Result<BatchGetItemResult> BatchGetItem(const BatchGetItemRequest& req) override;
  Result<BatchWriteItemResult> BatchWriteItem(
      const BatchWriteItemRequest& req) override;
  Result<TransactWriteItemsResult> TransactWriteItems(
      const TransactWriteItemsRequest& req) override {
    RunDueWork();
    return transactions_.Write(req, TableLookup(req.scope));
  }
  Result<TransactGetItemsResult> TransactGetItems(
      const TransactGetItemsRequest& req) override {
    RunDueWork();
    return transactions_.Get(req, TableLookup(req.scope));
  }

  Result<ExecuteStatementResult> ExecuteStatement(
      const ExecuteStatementRequest& req) override {
    return RunExecuteStatement(*this, KeyLookup(req.scope), plan_cache_, req);
  }
  Result<BatchExecuteStatementResult> BatchExecuteStatement(
      const BatchExecuteStatementRequest& req) override {
    return RunBatchExecuteStatement(*this, KeyLookup(req.scope), plan_cache_, req);
  }
  Result<ExecuteTransactionResult> ExecuteTransaction(
      const ExecuteTransactionRequest& req) override {
    return RunExecuteTransaction(*this, KeyLookup(req.scope), plan_cache_, req);
  }

 private:
  // The background work that is due, run at the start of every operation:
  // with deterministic propagation, GSI changes and backfill steps move
  // with the calls (and the clock) (with the propagation thread, nothing);
  // a step of the Time to Live sweep when one is due; and stream
  // maintenance (shard rollover, retention), at most once per second of
  // the clock, whose failure is not the caller's.
  void RunDueWork() override {
    indexes_->Pump();
    ttl_sweeper_.RunDue();
    streams_->Maintain().ok();
    if (continuous_backups_) continuous_backups_->Maintain().ok();
  }

  // The table of a data-plane call (TableLifecycle::ForData), after the
  // due work.
  Result<std::shared_ptr<const TableInfo>> DataTable(const Scope& scope,
                                                     std::string_view name) {
    RunDueWork();
    return tables_.ForData(scope, name);
  }

  // How the transaction coordinator finds the tables of `scope`.
  // The key of a table or of one of its indexes, for the PartiQL planner.
  partiql::KeyLookup KeyLookup(const Scope& scope) {
    return [this, &scope](std::string_view table,
                          std::optional<std::string_view> index) -> Result<KeyDef> {
      DR_ASSIGN_OR_RETURN(std::shared_ptr<const TableInfo> info,
                          tables_.ForData(scope, table));
      if (!index) return info->key;
      const IndexInfo* found = info->FindIndex(*index);
      // PartiQL's words, unlike Query's, do not name the index.
      if (found == nullptr) {
        return Status::Validation("The table does not have the specified index");
      }
      return found->key;
    };
  }

  TransactionCoordinator::TableLookup TableLookup(const Scope& scope) {
    return [this, &scope](std::string_view name) {
      return tables_.ForData(scope, name);
    };
  }

  // One Query or Scan page, planned: the index must be readable, then the
  // read path reads, meters and charges it, and the page is finished
  // (filter, projection, LastEvaluatedKey).
  Result<ReadPageResult> RunPage(const TableInfo& table,
                                 const PreparedRead& prepared,
                                 const PageRequest& page_request, PageKind kind,
                                 bool consistent_read);

  // The tail every single-item write shares: what it consumed, and its
  // item collection's metrics when asked (tables with LSIs).
  template <typename WriteResult>
  Status FinishWrite(const TableInfo& table, Metering metering,
                     ReturnItemCollectionMetrics what, const AttributeValue& pk,
                     WriteResult* result) {
    result->consumed_capacity = std::move(metering.consumed);
    result->capacity_charges.push_back(std::move(metering.charge));
    DR_ASSIGN_OR_RETURN(result->item_collection_metrics,
                        CollectionMetrics(*indexes_->writer(), table, what, pk));
    return Status::OK();
  }

  const EngineOptions options_;
  Clock* const clock_;
  std::shared_ptr<Store> store_;
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<SecondaryIndexes> indexes_;
  std::unique_ptr<StreamLog> streams_;
  StreamReads stream_reads_;
  ThroughputController throughput_;
  std::atomic<bool> throttling_;
  ItemLocks locks_;
  WritePath write_path_;
  ReadPath read_path_;
  TableLifecycle tables_;
  TableTags tags_;
  ContributorInsights insights_;
  TransactionCoordinator transactions_;
  TtlSettings ttl_;
  TtlSweeper ttl_sweeper_;
  PitrLog pitr_log_;
  TableRestorer restorer_;
  std::unique_ptr<Backups> backups_;
  std::unique_ptr<ContinuousBackups> continuous_backups_;
  std::unique_ptr<Exports> exports_;
  std::unique_ptr<Imports> imports_;
  // Plans of repeated PartiQL SELECT texts.
  partiql::PlanCache plan_cache_;
};

// --- Time to Live -------------------------------------------------------------

Result<TimeToLiveSweepResult> EngineImpl::RunTimeToLiveSweep(
    const TimeToLiveSweepRequest& req) {
  RunDueWork();
  std::vector<std::shared_ptr<const TableInfo>> tables;
  if (req.table_name) {
    DR_ASSIGN_OR_RETURN(auto table, tables_.FindOrNotFound(req.scope, *req.table_name));
    tables.push_back(std::move(table));
  } else {
    tables = catalog_->List(req.scope.ns);
  }
  return ttl_sweeper_.SweepNow(tables);
}

// --- Secondary-index extensions ------------------------------------------

Status EngineImpl::WaitUntilIndexesCaughtUp() {
  return indexes_->WaitUntilCaughtUp();
}

Status EngineImpl::PropagateIndexes() { return indexes_->PropagateDue(); }

Status EngineImpl::SetIndexLag(const SetIndexLagRequest& req) {
  RunDueWork();
  DR_ASSIGN_OR_RETURN(auto table, tables_.FindOrNotFound(req.scope, req.table_name));
  return indexes_->SetLag(*table, req.index_name, req.lag_micros);
}

IndexPropagationStats EngineImpl::GetIndexPropagationStats() {
  return indexes_->Stats();
}

Status EngineImpl::VerifyIndexes(const Scope& scope, const std::string& table_name) {
  RunDueWork();
  DR_ASSIGN_OR_RETURN(auto table, tables_.FindOrNotFound(scope, table_name));
  DR_ASSIGN_OR_RETURN(std::vector<IndexDifference> diffs,
                      CheckTableIndexes(*store_, *table));
  std::string report;
  for (const IndexDifference& d : diffs) report += d.ToString();
  DR_ASSIGN_OR_RETURN(std::string counters, CheckTableCounters(*store_, *table));
  report += counters;
  if (report.empty()) return Status::OK();
  return Status::Internal(report);
}

// --- Capacity extensions ---------------------------------------------------

Result<TableThroughputStats> EngineImpl::DescribeCapacity(
    const Scope& scope, const std::string& table_name, size_t hot_keys) {
  RunDueWork();
  DR_ASSIGN_OR_RETURN(auto table, tables_.FindOrNotFound(scope, table_name));
  std::optional<TableThroughputStats> stats =
      throughput_.Describe(table->id, hot_keys);
  if (!stats) return TableNotFound(table_name);
  return std::move(*stats);
}

// --- Items --------------------------------------------------------------

Result<PutItemResult> EngineImpl::PutItem(const PutItemRequest& req) {
  DR_ASSIGN_OR_RETURN(const PreparedWrite write, PreparePutItem(req));
  DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, req.table_name));
  DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfItem(table->key, req.item));
  DR_RETURN_IF_ERROR(CheckIndexKeys(*table, req.item));
  const std::string key = keys::ItemKey(table->id, *pk.hash, pk.range);
  Metering metering;
  PutItemResult result;
  if (!write.condition && req.return_values != ReturnValues::kAllOld) {
    // Nothing looks at the old item: the write path need not decode it.
    DR_RETURN_IF_ERROR(write_path_.Put(*table, key, req.item, &metering));
  } else {
    DR_ASSIGN_OR_RETURN(
        std::optional<Item> old,
        write_path_.Apply(
            *table, key,
            [&](const std::optional<Item>& stored) -> Result<ItemChange> {
          DR_RETURN_IF_ERROR(CheckCondition(write, stored));
          return Result<ItemChange>(ItemChange::Borrowed(req.item));
        },
            &metering));
    if (req.return_values == ReturnValues::kAllOld) result.attributes = std::move(old);
  }
  DR_RETURN_IF_ERROR(FinishWrite(*table, std::move(metering),
                                 req.return_item_collection_metrics, *pk.hash, &result));
  return result;
}

Result<GetItemResult> EngineImpl::GetItem(const GetItemRequest& req) {
  DR_ASSIGN_OR_RETURN(const std::optional<expr::ProjectionExpression> projection,
                      PrepareGetItem(req));
  DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, req.table_name));
  DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfKeyParameter(table->key, req.key));
  const std::string key = keys::ItemKey(table->id, *pk.hash, pk.range);
  GetItemResult result;
  Metering metering;
  DR_ASSIGN_OR_RETURN(std::optional<std::string> encoded,
                      read_path_.GetItem(*table, key, req.consistent_read, &metering));
  result.consumed_capacity = std::move(metering.consumed);
  result.capacity_charges.push_back(std::move(metering.charge));
  if (!encoded) return result;
  if (req.encoded_item && !projection) {
    result.encoded_item = std::move(encoded);
    return result;
  }
  DR_ASSIGN_OR_RETURN(Item item, DecodeItem(*encoded));
  result.item = projection ? expr::ProjectItem(item, *projection) : std::move(item);
  return result;
}

Result<DeleteItemResult> EngineImpl::DeleteItem(const DeleteItemRequest& req) {
  DR_ASSIGN_OR_RETURN(const PreparedWrite write, PrepareDeleteItem(req));
  DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, req.table_name));
  DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfKeyParameter(table->key, req.key));
  const std::string key = keys::ItemKey(table->id, *pk.hash, pk.range);
  Metering metering;
  DR_ASSIGN_OR_RETURN(
      std::optional<Item> old,
      write_path_.Apply(
          *table, key,
          [&](const std::optional<Item>& stored) -> Result<ItemChange> {
        DR_RETURN_IF_ERROR(CheckCondition(write, stored));
        return Result<ItemChange>(ItemChange{std::nullopt, false});
      },
          &metering));
  DeleteItemResult result;
  if (req.return_values == ReturnValues::kAllOld) result.attributes = std::move(old);
  DR_RETURN_IF_ERROR(FinishWrite(*table, std::move(metering),
                                 req.return_item_collection_metrics, *pk.hash, &result));
  return result;
}

Result<UpdateItemResult> EngineImpl::UpdateItem(const UpdateItemRequest& req) {
  DR_ASSIGN_OR_RETURN(const PreparedWrite write, PrepareUpdateItem(req));
  DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, req.table_name));
  DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfKeyParameter(table->key, req.key));
  if (write.update) DR_RETURN_IF_ERROR(CheckKeyNotUpdated(*write.update, table->key));
  const std::string key = keys::ItemKey(table->id, *pk.hash, pk.range);
  std::optional<Item> new_item;
  Metering metering;
  DR_ASSIGN_OR_RETURN(
      std::optional<Item> old,
      write_path_.Apply(
          *table, key,
          [&](const std::optional<Item>& stored) -> Result<ItemChange> {
        DR_RETURN_IF_ERROR(CheckCondition(write, stored));
        DR_ASSIGN_OR_RETURN(new_item, UpdatedItem(write, req.key, stored));
        // An item that results is written even when nothing changed: an
        // update that leaves only the key still creates or keeps it.
        if (!new_item) return ItemChange{std::nullopt, /*unchanged=*/true};
        return ItemChange::Borrowed(*new_item);  // outlives the write
      },
          &metering));
  UpdateItemResult result;
  result.attributes = UpdateReturnValues(req.return_values, write, old, new_item);
  DR_RETURN_IF_ERROR(FinishWrite(*table, std::move(metering),
                                 req.return_item_collection_metrics, *pk.hash, &result));
  return result;
}

// --- Query, Scan ----------------------------------------------------------

Result<QueryResult> EngineImpl::Query(const QueryRequest& req) {
  DR_ASSIGN_OR_RETURN(const PreparedRead prepared, PrepareQuery(req));
  DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, req.table_name));
  DR_ASSIGN_OR_RETURN(const PageRequest page_request,
                      PlanQuery(*table, req, prepared));
  return RunPage(*table, prepared, page_request, PageKind::kQuery,
                 req.read.consistent_read);
}

Result<ScanResult> EngineImpl::Scan(const ScanRequest& req) {
  DR_ASSIGN_OR_RETURN(const PreparedRead prepared, PrepareScan(req));
  DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, req.table_name));
  DR_ASSIGN_OR_RETURN(const PageRequest page_request,
                      PlanScan(*table, req, prepared));
  return RunPage(*table, prepared, page_request, PageKind::kScan,
                 req.read.consistent_read);
}

Result<ReadPageResult> EngineImpl::RunPage(const TableInfo& table,
                                           const PreparedRead& prepared,
                                           const PageRequest& page_request,
                                           PageKind kind, bool consistent_read) {
  DR_RETURN_IF_ERROR(indexes_->CheckReadable(table, page_request.index));
  Metering metering;
  DR_ASSIGN_OR_RETURN(Page page, read_path_.ReadPage(table, page_request, kind,
                                                     consistent_read, &metering));
  ReadPageResult result =
      FinishPage(table, prepared, std::move(page), page_request.index);
  result.consumed_capacity = std::move(metering.consumed);
  result.capacity_charges.push_back(std::move(metering.charge));
  return result;
}

// --- Batches ----------------------------------------------------------------

Result<BatchGetItemResult> EngineImpl::BatchGetItem(
    const BatchGetItemRequest& req) {
  DR_ASSIGN_OR_RETURN(const PreparedBatchGet projections,
                      PrepareBatchGetItem(req));
  // Every table and every key is checked before anything is read.
  std::vector<std::shared_ptr<const TableInfo>> tables;
  std::vector<std::vector<std::string>> item_keys;
  for (const auto& [name, t] : req.request_items) {
    DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, name));
    std::vector<std::string>& keys = item_keys.emplace_back();
    for (const Item& key : t.keys) {
      DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfKeyParameter(table->key, key));
      keys.push_back(keys::ItemKey(table->id, *pk.hash, pk.range));
    }
    tables.push_back(std::move(table));
  }
  return read_path_.BatchGet(req, tables, item_keys, projections);
}

Result<BatchWriteItemResult> EngineImpl::BatchWriteItem(
    const BatchWriteItemRequest& req) {
  DR_RETURN_IF_ERROR(PrepareBatchWriteItem(req));
  std::vector<std::shared_ptr<const TableInfo>> tables;
  for (const auto& [name, writes] : req.request_items) {
    DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, name));
    tables.push_back(std::move(table));
  }
  std::vector<WritePath::ItemWrite> item_writes;
  std::set<std::string> seen;  // storage keys carry the table id
  for (size_t i = 0; i < req.request_items.size(); ++i) {
    for (const WriteRequest& w : req.request_items[i].second) {
      DR_ASSIGN_OR_RETURN(std::string key, StorageKeyOfWrite(*tables[i], w));
      if (!seen.insert(key).second) return DuplicateItemKeys();
      // The request outlives the writes: its items are written uncopied.
      const Item* new_item = w.put_item ? &*w.put_item : nullptr;
      item_writes.push_back(
          {tables[i].get(), std::move(key),
           [new_item](const std::optional<Item>&) -> Result<ItemChange> {
             if (new_item == nullptr) return ItemChange{std::nullopt, false};
             return ItemChange::Borrowed(*new_item);
           }});
    }
  }
  std::vector<Metering> metering;
  // With throttling on, the refused requests are left out and come back as
  // UnprocessedItems; the call fails only when every request was refused.
  std::vector<bool> throttled;
  DR_RETURN_IF_ERROR(
      write_path_.ApplyMany(item_writes, &metering, &throttled).status());
  // One Metering per request, in request order: summed per table over the
  // requests applied.
  BatchWriteItemResult result;
  size_t next = 0;
  for (size_t i = 0; i < req.request_items.size(); ++i) {
    const auto& [name, writes] = req.request_items[i];
    Metering table_metering;
    table_metering.consumed.table_name = name;
    table_metering.charge.table_id = tables[i]->id;
    std::vector<WriteRequest> unprocessed;
    for (size_t w = 0; w < writes.size(); ++w, ++next) {
      if (throttled[next]) {
        unprocessed.push_back(writes[w]);
        continue;
      }
      table_metering.Merge(metering[next]);
    }
    result.consumed_capacity.push_back(std::move(table_metering.consumed));
    result.capacity_charges.push_back(std::move(table_metering.charge));
    if (!unprocessed.empty()) {
      result.unprocessed_items.emplace_back(name, std::move(unprocessed));
    }
  }
  if (req.return_item_collection_metrics == ReturnItemCollectionMetrics::kSize) {
    // Each collection an applied request wrote, once, read after the batch
    // (tables without LSIs have none).
    next = 0;
    for (size_t i = 0; i < req.request_items.size(); ++i) {
      const auto& [name, writes] = req.request_items[i];
      const TableInfo& table = *tables[i];
      std::vector<ItemCollectionMetrics> list;
      std::set<std::string> collections;
      for (size_t w = 0; w < writes.size(); ++w, ++next) {
        if (throttled[next] || !table.has_lsi()) continue;
        const Item& key = writes[w].put_item ? *writes[w].put_item : *writes[w].delete_key;
        const AttributeValue& pk = key.at(table.key.hash_name);
        if (!collections.insert(keys::ItemKey(table.id, pk, nullptr)).second) continue;
        DR_ASSIGN_OR_RETURN(std::optional<ItemCollectionMetrics> m,
                            CollectionMetrics(*indexes_->writer(), table,
                                              ReturnItemCollectionMetrics::kSize, pk));
        if (m) list.push_back(std::move(*m));
      }
      if (!list.empty()) result.item_collection_metrics.emplace_back(name, std::move(list));
    }
  }
  return result;
}

}  // namespace

Result<std::unique_ptr<Engine>> OpenEngineOnStore(const EngineOptions& options,
                                                   std::shared_ptr<Store> store) {
  Clock* clock = options.clock ? options.clock : RealClock::Default();
  DR_ASSIGN_OR_RETURN(std::unique_ptr<Catalog> catalog, Catalog::Load(store.get()));
  SecondaryIndexOptions index_options;
  index_options.gsi_lag_micros = options.gsi_lag_micros;
  index_options.deterministic =
      options.gsi_propagation == GsiPropagation::kDeterministic ||
      (options.gsi_propagation == GsiPropagation::kAuto &&
       dynamic_cast<SimulatedClock*>(clock) != nullptr);
  index_options.backfill_chunk_items = options.gsi_backfill_chunk_items;
  index_options.item_collection_size_limit_bytes =
      options.item_collection_size_limit_bytes;
  DR_ASSIGN_OR_RETURN(
      std::unique_ptr<SecondaryIndexes> indexes,
      SecondaryIndexes::Open(store.get(), catalog.get(), clock, index_options));
  StreamOptions stream_options;
  stream_options.retention_micros = options.stream_retention_micros;
  stream_options.shard_rollover_micros = options.stream_shard_rollover_micros;
  stream_options.compaction_interval_micros = options.stream_compaction_interval_micros;
  DR_ASSIGN_OR_RETURN(std::unique_ptr<StreamLog> streams,
                      StreamLog::Open(store.get(), clock, stream_options));
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
  auto engine = std::make_unique<EngineImpl>(options, clock, std::move(store),
                                             std::move(catalog), std::move(indexes),
                                             std::move(streams));
  DR_RETURN_IF_ERROR(engine->OpenBackups());
  return std::unique_ptr<Engine>(std::move(engine));
}

}  // namespace dynarock
