// engine/engine.h
//
// Engine is dynarock's public entry point: a DynamoDB-compatible database in
// one process, with one method per DynamoDB operation. Start here.
//
// An Engine is opened on a RocksDB database (on disk or in memory); a
// reopened database has every table and item it had. Each operation either
// takes effect whole or not at all (one RocksDB WriteBatch per request), and
// reports failure as a Status carrying DynamoDB's error type and message.
//
// Thread-safe: any number of threads may call any operation concurrently.
//
// Engine is one class with one implementation (engine/facade/): every
// operation passes one gate there (a database-snapshot restore excludes the
// calls; the background work due on the clock runs first) and is written
// once, in the file of its concern. docs/ARCHITECTURE.md, "Adding an
// operation", lists the four files a new operation touches.

#ifndef DYNAROCK_ENGINE_ENGINE_H_
#define DYNAROCK_ENGINE_ENGINE_H_

#include <memory>

#include "engine/capacity/capacity_stats.h"
#include "engine/clock.h"
#include "engine/fault/fault_rule.h"
#include "engine/options.h"
#include "engine/requests/backup_requests.h"
#include "engine/requests/batch_requests.h"
#include "engine/requests/bulk_requests.h"
#include "engine/requests/contributor_insights_requests.h"
#include "engine/requests/export_requests.h"
#include "engine/requests/global_table_requests.h"
#include "engine/requests/import_requests.h"
#include "engine/requests/index_lag_requests.h"
#include "engine/requests/item_requests.h"
#include "engine/requests/partiql_requests.h"
#include "engine/requests/policy_requests.h"
#include "engine/requests/query_scan_requests.h"
#include "engine/requests/replication_requests.h"
#include "engine/requests/scope.h"
#include "engine/requests/snapshot_requests.h"
#include "engine/requests/stream_requests.h"
#include "engine/requests/table_requests.h"
#include "engine/requests/tag_requests.h"
#include "engine/requests/transaction_requests.h"
#include "engine/requests/ttl_requests.h"
#include "engine/requests/vector_requests.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

class Engine final {
 public:
  // Opens (or creates) the database described by `options`.
  // Errors: kIOError / kCorruption when RocksDB cannot open it.
  static Result<std::unique_ptr<Engine>> Open(const EngineOptions& options);

  ~Engine();
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // --- Tables ---
  // Errors: kValidation (bad definition), kResourceInUse (name taken).
  Result<TableDescription> CreateTable(const CreateTableRequest& req);
  // Errors: kResourceNotFound.
  Result<TableDescription> DescribeTable(const DescribeTableRequest& req);
  // Table names of the request's scope in ascending byte order.
  Result<ListTablesResult> ListTables(const ListTablesRequest& req);
  // Errors: kValidation, kResourceNotFound, kResourceInUse (not ACTIVE).
  Result<TableDescription> UpdateTable(const UpdateTableRequest& req);
  // Removes the table's items at once; the table shows DELETING until the
  // configured delay passes. Errors: kResourceNotFound, kResourceInUse.
  Result<TableDescription> DeleteTable(const DeleteTableRequest& req);

  // --- Global tables version 2017.11.29 (engine/requests/global_table_requests.h) ---
  // In the caller's Region; they replicate as 2019.11.21 ones do.
  // CreateGlobalTable creates one only with EngineOptions::
  // legacy_global_tables; without it, it answers kValidation "... version
  // 2017.11.29 is not supported ..." as DynamoDB does today.
  // Errors: kValidation (no namespace of its own, unknown or repeated
  // Regions, the caller's Region not in the group, a table with items, other
  // keys or no NEW_AND_OLD_IMAGES stream, a table of a 2019.11.21 global
  // table), kTableNotFound (a Region without the table),
  // kGlobalTableAlreadyExists.
  Result<GlobalTableDescription> CreateGlobalTable(const CreateGlobalTableRequest& req);
  // Errors: kGlobalTableNotFound (also for a 2019.11.21 global table).
  Result<GlobalTableDescription> DescribeGlobalTable(const DescribeGlobalTableRequest& req);
  // The access key's legacy global tables (with a replica in `region_name`
  // when given), by name. Errors: kValidation.
  Result<ListGlobalTablesResult> ListGlobalTables(const ListGlobalTablesRequest& req);
  // Adds or removes Regions (a removed Region's table stays, not global).
  // Errors: kGlobalTableNotFound, kReplicaAlreadyExists, kReplicaNotFound,
  // kTableNotFound, kValidation as CreateGlobalTable.
  Result<GlobalTableDescription> UpdateGlobalTable(const UpdateGlobalTableRequest& req);
  // Errors: kGlobalTableNotFound.
  Result<GlobalTableSettings> DescribeGlobalTableSettings(const DescribeGlobalTableRequest& req);
  // Applies the settings to each Region's table through UpdateTable's path
  // (each table's change is one UpdateTable). Errors: kGlobalTableNotFound,
  // kReplicaNotFound, kIndexNotFound, and UpdateTable's.
  Result<GlobalTableSettings> UpdateGlobalTableSettings(
      const UpdateGlobalTableSettingsRequest& req);

  // --- Items ---
  // Expressions arrive as text with their ExpressionAttributeNames/Values;
  // the engine parses, resolves and evaluates them (and translates the
  // legacy parameters into the same trees). Every request is checked whole
  // before any table is read. A write's condition is evaluated against the
  // item as stored, under the item's lock, so check-and-write is atomic.
  //
  // Errors of every item operation: kValidation (DynamoDB's messages for
  // the item, key, expressions and legacy parameters), kResourceNotFound.
  // Writes with a condition also: kConditionalCheckFailed, nothing written
  // (Status::item() is the old item when the request asked for ALL_OLD).
  Result<PutItemResult> PutItem(const PutItemRequest& req);
  // ProjectionExpression / AttributesToGet select what Item holds.
  Result<GetItemResult> GetItem(const GetItemRequest& req);
  Result<DeleteItemResult> DeleteItem(const DeleteItemRequest& req);
  // Creates the item from its key when missing (upsert). Key attributes
  // cannot be updated; the new item is validated whole (400 KB, nesting).
  Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& req);

  // --- Reads of many items ---
  // One page of an item collection (Query) or of the table in hash order
  // (Scan): at most Limit items and 1 MB of item data read, both counted
  // before the filter; LastEvaluatedKey whenever the page stopped early
  // (even when no item follows). IndexName reads a GSI (eventually
  // consistent: ConsistentRead is refused) or an LSI; a missing index gets
  // DynamoDB's message, a GSI still backfilling is refused.
  // Errors: kValidation, kResourceNotFound, and with throttling on
  // kProvisionedThroughputExceeded / kRequestLimitExceeded (ThrottlingReasons).
  Result<QueryResult> Query(const QueryRequest& req);
  Result<ScanResult> Scan(const ScanRequest& req);
  // The TopK most similar items of a vector index (docs/vector-search.md):
  // approximate (HNSW) over large partitions, exact over small ones or when
  // a selective inline filter leaves the graph short. Not throttled (the
  // vector unit has no documented per-partition model).
  // Errors: kValidation (TopK, dimensions, the condition and projection,
  // "The table does not have the specified index: <name>", a backfilling
  // index), kResourceNotFound.
  Result<SearchVectorsResult> SearchVectors(const SearchVectorsRequest& req);

  // --- Batches ---
  // Up to 100 keys over several tables; every table and key is checked
  // before anything is read. Items past 16 MB of response, and with
  // throttling on the keys whose partition is throttled, come back as
  // UnprocessedKeys; a throttle is an error only when no key could be read.
  // Errors: kValidation, kResourceNotFound, throttles.
  Result<BatchGetItemResult> BatchGetItem(
      const BatchGetItemRequest& req);
  // Up to 25 puts and deletes over several tables, applied all together in
  // one WriteBatch after every request is checked: a bad request writes
  // nothing. With throttling on, requests are admitted in request order and
  // the throttled ones come back as UnprocessedItems (the rest applied
  // together); a throttle is an error only when nothing could be admitted.
  // Errors: kValidation, kResourceNotFound, throttles.
  Result<BatchWriteItemResult> BatchWriteItem(
      const BatchWriteItemRequest& req);

  // --- DynamoDB Streams (the DynamoDBStreams_20120810 operations) ---
  // A table's stream is enabled by StreamSpecification in CreateTable or
  // UpdateTable; every item change then writes one record in the change's
  // own WriteBatch. Shards follow the table's partitions (a split closes
  // the parent shard and opens two children), roll over every
  // stream_shard_rollover_micros, and records are kept for
  // stream_retention_micros, all on the engine clock.
  //
  // With throttling on, reads are limited as DynamoDB Streams limits them
  // ("Rate exceeded"): GetRecords 10 calls per second per shard
  // (kLimitExceeded), DescribeStream 10 and ListStreams 5 per second per
  // namespace (kThrottling, which SDKs retry), on the engine clock
  // (EngineOptions::stream_*_per_second).
  //
  // Streams of the request's scope, in ARN order. Errors: kValidation,
  // kThrottling.
  Result<ListStreamsResult> ListStreams(const ListStreamsRequest& req);
  // Errors: kValidation (malformed ARN), kResourceNotFound, kThrottling.
  Result<StreamDescription> DescribeStream(
      const DescribeStreamRequest& req);
  // Errors: kValidation, kResourceNotFound, kTrimmedDataAccess.
  Result<std::string> GetShardIterator(
      const GetShardIteratorRequest& req);
  // Errors: kValidation, kExpiredIterator (15 minutes), kTrimmedDataAccess,
  // kResourceNotFound, kLimitExceeded.
  Result<GetRecordsResult> GetRecords(const GetRecordsRequest& req);
  // The streams of `table_name` (every table of the scope when empty): per
  // shard its retained records and bytes, its reads and its lag behind the
  // furthest reader (ShardStats), and the bytes all streams occupy. Reads
  // every retained record of those streams (a diagnostic, for `dynarock
  // stats`). Errors: kCorruption, kIOError.
  Result<StreamStorageStats> DescribeStreamStats(
      const Scope& scope, const std::string& table_name);
  // --- Tags ---
  // The table is named by its ARN. Errors: kValidation (not a table ARN:
  // "Invalid TableArn: ..."; no tags; over 50 tags; a reserved "aws:" key),
  // kResourceNotFound ("Requested resource not found: ResourceArn: <arn> not
  // found"). Tags are persisted and deleted with the table.
  Status TagResource(const TagResourceRequest& req);
  Status UntagResource(const UntagResourceRequest& req);
  Result<ListTagsOfResourceResult> ListTagsOfResource(
      const ListTagsOfResourceRequest& req);

  // --- Resource-based policies (engine/control/resource_policies.h) ---
  // One policy per table and one per its latest stream, named by ARN,
  // persisted and deleted with the table, not carried by backups; stored
  // and returned, never enforced. Errors: kValidation (the ARN),
  // kResourceNotFound (table or stream), kPolicyNotFound (none, or not the
  // ExpectedRevisionId).
  Result<PutResourcePolicyResult> PutResourcePolicy(const PutResourcePolicyRequest& req);
  Result<GetResourcePolicyResult> GetResourcePolicy(const GetResourcePolicyRequest& req);
  Result<DeleteResourcePolicyResult> DeleteResourcePolicy(
      const DeleteResourcePolicyRequest& req);

  // --- Contributor insights (engine/control/contributor_insights.h) ---
  // The on/off setting per table and GSI, persisted with the table. The
  // hot-key data itself is DescribeCapacity's. Errors: kResourceNotFound.
  Result<ContributorInsightsDescription> UpdateContributorInsights(
      const UpdateContributorInsightsRequest& req);
  Result<ContributorInsightsDescription> DescribeContributorInsights(
      const Scope& scope, const std::string& table_name,
      const std::string& index_name);
  Result<ListContributorInsightsResult> ListContributorInsights(
      const ListContributorInsightsRequest& req);

  // --- Transactions (engine/transactions/transactions.h) ---
  // All actions or none: every condition is evaluated against the items as
  // stored, and every change (items, LSI entries, GSI log records,
  // counters) is ONE WriteBatch. Any failing action cancels the whole
  // transaction with kTransactionCanceled, carrying one CancellationReason
  // per action in order.
  // Errors: kValidation (request shape, expressions, two actions on one
  // item, limits), kResourceNotFound, kTransactionCanceled,
  // kIdempotentParameterMismatch, kTransactionInProgress.
  Result<TransactWriteItemsResult> TransactWriteItems(
      const TransactWriteItemsRequest& req);
  // Reads every item at one snapshot. Errors: kValidation,
  // kResourceNotFound, kTransactionCanceled (an item a transaction is
  // writing: TransactionConflict; a throttled item).
  Result<TransactGetItemsResult> TransactGetItems(
      const TransactGetItemsRequest& req);

  // --- PartiQL (engine/partiql/statement_runner.h) ---
  // A statement is parsed and planned into the request it stands for
  // (GetItem, Query, Scan, PutItem, UpdateItem, DeleteItem) and runs as
  // that request: same checks, capacity and errors. INSERT of an existing
  // key: kDuplicateItem. Syntax errors: kValidation ("Statement wasn't well
  // formed, can't be processed: ...").
  Result<ExecuteStatementResult> ExecuteStatement(
      const ExecuteStatementRequest& req);
  // Up to 25 statements, all reads (full-key SELECTs) or all writes, each
  // run on its own; a statement's failure is its response's error.
  Result<BatchExecuteStatementResult> BatchExecuteStatement(
      const BatchExecuteStatementRequest& req);
  // Up to 100 statements run as one TransactWriteItems (INSERT, UPDATE,
  // DELETE, EXISTS) or TransactGetItems (full-key SELECTs). A cancelled
  // INSERT on an existing key has the reason DuplicateItem.
  Result<ExecuteTransactionResult> ExecuteTransaction(
      const ExecuteTransactionRequest& req);

  // --- Time to Live ---
  // Enables or disables TTL on a table (persisted); answers the
  // specification. Errors: kResourceNotFound, kValidation (DynamoDB's
  // messages: already enabled / disabled, a different attribute, changed
  // too often when EngineOptions::ttl_change_cooldown_micros is set).
  Result<TimeToLiveSpecification> UpdateTimeToLive(
      const UpdateTimeToLiveRequest& req);
  // Errors: kResourceNotFound.
  Result<TimeToLiveDescription> DescribeTimeToLive(
      const DescribeTimeToLiveRequest& req);
  // Expired items (a Number of epoch seconds before now, not more than five
  // years before) are deleted in the background on the engine's clock
  // (EngineOptions::ttl_*), without consuming capacity; until then they
  // are read like any other. This extension sweeps now: the named table, or
  // every TTL table of the scope. Errors: kResourceNotFound, storage errors.
  Result<TimeToLiveSweepResult> RunTimeToLiveSweep(
      const TimeToLiveSweepRequest& req);

  // --- Backups (engine/backup/backups.h, docs/backups.md) ---
  // On-demand backups: the table's items at one snapshot, in their own SST
  // file; persisted, listed in creation order. A restore creates a new
  // table with the backup's indexes (rebuilt from the items) and settings,
  // as DynamoDB restores them (no stream, TTL, tags), with the overrides.
  // Errors: kTableNotFound, kTableInUse, kBackupNotFound, kBackupInUse,
  // kTableAlreadyExists, kValidation, storage errors.
  Result<BackupDescription> CreateBackup(const CreateBackupRequest& req);
  Result<BackupDescription> DescribeBackup(const DescribeBackupRequest& req);
  Result<ListBackupsResult> ListBackups(const ListBackupsRequest& req);
  Result<BackupDescription> DeleteBackup(const DeleteBackupRequest& req);
  Result<TableDescription> RestoreTableFromBackup(
      const RestoreTableFromBackupRequest& req);

  // --- Point-in-time recovery (engine/backup/continuous_backups.h) ---
  // A base image when turned on, then every item change logged in its own
  // WriteBatch; a restore to T (in the window on the engine clock) builds a
  // new table from the image and the log. Errors: kTableNotFound,
  // kSourceTableNotFound, kPointInTimeRecoveryUnavailable,
  // kInvalidRestoreTime, kTableAlreadyExists, kTableInUse, kValidation.
  Result<ContinuousBackupsDescription> UpdateContinuousBackups(
      const UpdateContinuousBackupsRequest& req);
  Result<ContinuousBackupsDescription> DescribeContinuousBackups(
      const DescribeContinuousBackupsRequest& req);
  Result<TableDescription> RestoreTableToPointInTime(
      const RestoreTableToPointInTimeRequest& req);

  // --- Export to S3 (engine/transfer/exports.h, docs/export.md) ---
  // ExportTableToPointInTime starts an export of the table as it was at
  // ExportTime (PITR must be on; the time in its window) and answers at
  // once, IN_PROGRESS; the files are written on the transfer thread
  // (EngineOptions::transfer_files) and the export ends COMPLETED or
  // FAILED. Errors: kTableNotFound, kPointInTimeRecoveryUnavailable,
  // kInvalidExportTime, kExportConflict, kExportNotFound, kValidation.
  Result<ExportDescription> ExportTableToPointInTime(
      const ExportTableToPointInTimeRequest& req);
  Result<ExportDescription> DescribeExport(const DescribeExportRequest& req);
  Result<ListExportsResult> ListExports(const ListExportsRequest& req);
  // --- Import from S3 (engine/transfer/imports.h, docs/export.md) ---
  // ImportTable checks the new table's definition (CreateTable's rules)
  // and answers at once, IN_PROGRESS; the files are read on the transfer
  // thread, items that fail a PutItem's checks counted in ErrorCount, and
  // the table appears when the import is COMPLETED. Errors: kValidation,
  // kResourceInUse, kImportConflict, kImportNotFound.
  Result<ImportTableDescription> ImportTable(const ImportTableRequest& req);
  Result<ImportTableDescription> DescribeImport(const DescribeImportRequest& req);
  Result<ListImportsResult> ListImports(const ListImportsRequest& req);
  // --- Bulk put items (engine/transfer/bulk_puts.h, docs/bulk-put-items.md) ---
  // StartBulkPutItems checks the request and the table (it exists, is
  // ACTIVE and creates no index) and answers at once, IN_PROGRESS; the job
  // writes the records of the input objects through the write path as the
  // clock, its MaxWriteRequestUnits and the partitions allow (the due work),
  // and ends COMPLETED, COMPLETED_WITH_ERRORS, CANCELLED or FAILED. Errors:
  // kValidation, kResourceNotFound, kResourceInUse, kLimitExceeded,
  // kIdempotentParameterMismatch.
  Result<BulkOperationDescription> StartBulkPutItems(const StartBulkPutItemsRequest& req);
  Result<BulkOperationDescription> DescribeBulkOperation(
      const DescribeBulkOperationRequest& req);
  Result<ListBulkOperationsResult> ListBulkOperations(const ListBulkOperationsRequest& req);
  Result<BulkOperationDescription> CancelBulkOperation(const CancelBulkOperationRequest& req);
  // Returns once every export (and import) started before the call has
  // ended: for tests and tools that want the result without polling.
  void WaitUntilTransfersDone();

  // --- Database snapshots (dynarock extension, docs/backups.md) ---
  // For test suites: CreateSnapshot copies the whole database (every
  // column family at one RocksDB snapshot, as SST files under
  // <db>/snapshots/<name>/) without blocking writes; RestoreSnapshot resets
  // the database to it (in a few milliseconds for a small database):
  // requests wait while it runs, and the engine reopens on the restored
  // data. On-demand backups are not part of a snapshot and stay as they
  // are. Names: 1..255 of [a-zA-Z0-9_.-] (checked by the api).
  // Errors: kResourceInUse ("Snapshot already exists: <name>"),
  // kResourceNotFound ("Snapshot not found: <name>"), storage errors.
  Result<SnapshotInfo> CreateSnapshot(const std::string& name);
  Status RestoreSnapshot(const std::string& name);
  // In name order.
  Result<std::vector<SnapshotInfo>> ListSnapshots();
  Status DeleteSnapshot(const std::string& name);

  // --- Secondary indexes (dynarock extensions, no DynamoDB operation) ---
  // GSIs are updated asynchronously, after a lag (EngineOptions), as in
  // DynamoDB; these calls let tests and simulations control that.
  //
  // Applies every GSI change committed before the call, ignoring lags, and
  // finishes every GSI backfill: afterwards a GSI read sees every earlier
  // write. Errors: the sticky propagation error (kIOError, kCorruption).
  Status WaitUntilIndexesCaughtUp();
  // Applies the GSI changes due at the clock's current time (and runs one
  // step of each backfill): what kDeterministic propagation does at the
  // start of every call. Errors: the sticky propagation error.
  Status PropagateIndexes();
  // Runs the background work that is due on the clock, as every call does
  // first: deterministic GSI propagation steps, a step of the Time to Live
  // sweep, stream maintenance (rollover, trimming), the bulk put items
  // jobs' writes. `dynarock serve` calls
  // it on a timer so that an idle server still expires items and trims
  // streams. Thread-safe.
  void RunDueWork();
  // Sets one GSI's lag. Errors: kResourceNotFound (table or index),
  // kValidation (an LSI: always synchronous).
  Status SetIndexLag(const SetIndexLagRequest& req);
  IndexPropagationStats GetIndexPropagationStats();

  // --- Global tables (dynarock extensions) ---
  // Replication reaches each replica after a lag on the clock
  // (EngineOptions::replication_lag_micros); these calls let tests make
  // replicas lag, diverge and converge.
  //
  // Sets the lag of the table's replica in one Region. Errors:
  // kResourceNotFound (the table), kValidation (no global table, or no
  // replica in that Region).
  Status SetReplicationLag(const SetReplicationLagRequest& req);
  // Partitions two Regions (or heals them). Errors: kValidation (the same
  // Region twice, a Region DynamoDB does not serve, a heal of a pair that
  // is not partitioned).
  Status PartitionRegions(const PartitionRegionsRequest& req);
  // Replication into each member of the table's global table. Errors:
  // kResourceNotFound, kValidation (no global table), kIOError.
  Result<ReplicationDescription> DescribeReplication(const Scope& scope,
                                                     const std::string& table_name);
  // The consistency checker: rebuilds every index of the table from its
  // items and compares the result with the stored entries, and recounts the
  // table's items and their bytes (DynamoDB item sizes) against its counters
  // (DescribeTable's ItemCount and TableSizeBytes). OK when all agree;
  // kInternal describing the differences otherwise. Pending GSI changes
  // count as differences (call WaitUntilIndexesCaughtUp first), and so do
  // writes running during the check: call it on a quiet table.
  // Errors also: kResourceNotFound.
  Status VerifyIndexes(const Scope& scope, const std::string& table_name);

  // --- Capacity (dynarock extensions) ---
  // Every data operation is metered (ConsumedCapacity, CapacityCharge) and
  // charged to the table's ThroughputController: token buckets per table,
  // GSI and partition, per-partition sizes and usage, hot keys. With
  // throttling on (EngineOptions::throttling), a write beyond capacity is
  // refused whole before it commits, and a read is refused before it reads.
  //
  // The table's throughput statistics now: its rates, bucket balances, usage
  // windows, partitions (ranges, items, bytes) and up to `hot_keys` hottest
  // partition keys, for the table and each GSI.
  // Errors: kResourceNotFound (DescribeTable's message).
  Result<TableThroughputStats> DescribeCapacity(
      const Scope& scope, const std::string& table_name,
      size_t hot_keys = 10);
  // Turns refusing requests beyond capacity on or off at runtime; metering
  // and statistics go on either way.
  void SetThrottling(bool on);
  bool throttling() const;

  // --- Test control: the clock (dynarock extensions, docs/testing.md) ---
  // The engine's clock: simulated (EngineOptions::clock is a SimulatedClock)
  // or real, and its time.
  ClockState DescribeClock() const;
  // Moves a simulated clock forward by `micros` (> 0), then runs every
  // effect due by the new time before returning: GSI changes past their
  // lag, Time to Live sweeps to their end, stream and PITR maintenance;
  // buckets refill and windows pass as time does. Returns the new time.
  // Errors: kValidation on the real clock or for micros <= 0.
  Result<int64_t> AdvanceClock(int64_t micros);
  // Sets a simulated clock to `now_micros`, forward only (kValidation
  // before the clock's time), with AdvanceClock's effects.
  Result<int64_t> SetClock(int64_t now_micros);

  // --- Test control: fault rules (engine/fault/fault_rule.h) ---
  // DynamoDB's failures on demand. The engine keeps the rules (from
  // EngineOptions::fault_rules, then these calls; kept over a snapshot
  // restore) and decides; the DynamoDB API (api::Client, the HTTP server)
  // applies the decisions before a request runs. The typed operations of
  // this class are never faulted themselves.
  // Errors: kValidation (the rule), kResourceNotFound (DeleteFaultRule).
  Result<FaultRule> PutFaultRule(FaultRule rule);
  std::vector<FaultRuleStatus> ListFaultRules() const;
  Status DeleteFaultRule(std::string_view id);
  void ClearFaultRules();
  // Whether a rule could match a request of `operation` (it lists it or
  // names none): the API shows only those requests to the rules. One
  // atomic load when there is no rule.
  bool FaultRulesMayMatch(std::string_view operation) const;
  // The decisions of the rules that fire on `site`, counted as injected.
  std::vector<FaultDecision> DecideFaults(const FaultSite& site);
  // What rules injected into requests on `table_name` of `scope`.
  std::vector<InjectedFaultCount> InjectedFaults(const Scope& scope,
                                                 std::string_view table_name) const;

 private:
  // What an open engine holds (engine/facade/engine_state.h): its options,
  // the store, the throttling switch, the gate's lock and the parts it
  // replaces on a snapshot restore.
  struct State;
  class Gate;
  explicit Engine(std::unique_ptr<State> state);
  // Runs `op(EngineParts&)` inside the gate, after the due background work
  // / without it (engine/facade/engine_state.h defines both).
  template <typename Op>
  auto Run(Op&& op);
  template <typename Op>
  auto RunWithoutDueWork(Op&& op);

  std::unique_ptr<State> state_;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_ENGINE_H_
