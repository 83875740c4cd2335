#include "engine/snapshot_engine.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "engine/clock.h"
#include "engine/storage/store.h"
#include "engine/util/coding.h"

namespace dynarock {
namespace {

constexpr const char* kCfFileNames[kNumColumnFamilies] = {
    "meta.sst", "items.sst", "indexes.sst", "gsi_log.sst", "streams.sst", "pitr.sst"};
// The snapshot's own description: key "created" -> micros (8 BE).
constexpr const char kInfoFile[] = "info.sst";
// On-demand backup records (engine/backup/backups.cc) stay out of resets.
constexpr char kBackupRecordPrefix = 'B';

class SnapshotEngine final : public Engine {
 public:
  SnapshotEngine(const EngineOptions& options, std::shared_ptr<Store> store,
                 std::unique_ptr<Engine> inner)
      : options_(options), store_(std::move(store)), inner_(std::move(inner)) {}

  ~SnapshotEngine() override {
    // The inner engine (its threads, its final flush) before the store.
    std::unique_lock lock(mu_);
    inner_.reset();
  }

  Result<TableDescription> CreateTable(const CreateTableRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->CreateTable(req);
  }
  Result<TableDescription> DescribeTable(const DescribeTableRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->DescribeTable(req);
  }
  Result<ListTablesResult> ListTables(const ListTablesRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->ListTables(req);
  }
  Result<TableDescription> UpdateTable(const UpdateTableRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->UpdateTable(req);
  }
  Result<TableDescription> DeleteTable(const DeleteTableRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->DeleteTable(req);
  }
  Result<PutItemResult> PutItem(const PutItemRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->PutItem(req);
  }
  Result<GetItemResult> GetItem(const GetItemRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->GetItem(req);
  }
  Result<DeleteItemResult> DeleteItem(const DeleteItemRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->DeleteItem(req);
  }
  Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->UpdateItem(req);
  }
  Result<QueryResult> Query(const QueryRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->Query(req);
  }
  Result<ScanResult> Scan(const ScanRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->Scan(req);
  }
  Result<BatchGetItemResult> BatchGetItem(const BatchGetItemRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->BatchGetItem(req);
  }
  Result<BatchWriteItemResult> BatchWriteItem(const BatchWriteItemRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->BatchWriteItem(req);
  }
  Result<ListStreamsResult> ListStreams(const ListStreamsRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->ListStreams(req);
  }
  Result<StreamDescription> DescribeStream(const DescribeStreamRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->DescribeStream(req);
  }
  Result<std::string> GetShardIterator(const GetShardIteratorRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->GetShardIterator(req);
  }
  Result<GetRecordsResult> GetRecords(const GetRecordsRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->GetRecords(req);
  }
  Status TagResource(const TagResourceRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->TagResource(req);
  }
  Status UntagResource(const UntagResourceRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->UntagResource(req);
  }
  Result<ListTagsOfResourceResult> ListTagsOfResource(const ListTagsOfResourceRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->ListTagsOfResource(req);
  }
  Result<TransactWriteItemsResult> TransactWriteItems(const TransactWriteItemsRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->TransactWriteItems(req);
  }
  Result<TransactGetItemsResult> TransactGetItems(const TransactGetItemsRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->TransactGetItems(req);
  }
  Result<TimeToLiveSpecification> UpdateTimeToLive(const UpdateTimeToLiveRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->UpdateTimeToLive(req);
  }
  Result<TimeToLiveDescription> DescribeTimeToLive(const DescribeTimeToLiveRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->DescribeTimeToLive(req);
  }
  Result<TimeToLiveSweepResult> RunTimeToLiveSweep(const TimeToLiveSweepRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->RunTimeToLiveSweep(req);
  }
  Result<BackupDescription> CreateBackup(const CreateBackupRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->CreateBackup(req);
  }
  Result<BackupDescription> DescribeBackup(const DescribeBackupRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->DescribeBackup(req);
  }
  Result<ListBackupsResult> ListBackups(const ListBackupsRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->ListBackups(req);
  }
  Result<BackupDescription> DeleteBackup(const DeleteBackupRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->DeleteBackup(req);
  }
  Result<TableDescription> RestoreTableFromBackup(const RestoreTableFromBackupRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->RestoreTableFromBackup(req);
  }
  Result<ContinuousBackupsDescription> UpdateContinuousBackups(const UpdateContinuousBackupsRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->UpdateContinuousBackups(req);
  }
  Result<ContinuousBackupsDescription> DescribeContinuousBackups(const DescribeContinuousBackupsRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->DescribeContinuousBackups(req);
  }
  Result<TableDescription> RestoreTableToPointInTime(const RestoreTableToPointInTimeRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->RestoreTableToPointInTime(req);
  }
  Result<ExportDescription> ExportTableToPointInTime(
      const ExportTableToPointInTimeRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->ExportTableToPointInTime(req);
  }
  Result<ExportDescription> DescribeExport(const DescribeExportRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->DescribeExport(req);
  }
  Result<ListExportsResult> ListExports(const ListExportsRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->ListExports(req);
  }
  Result<ImportTableDescription> ImportTable(const ImportTableRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->ImportTable(req);
  }
  Result<ImportTableDescription> DescribeImport(const DescribeImportRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->DescribeImport(req);
  }
  Result<ListImportsResult> ListImports(const ListImportsRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->ListImports(req);
  }
  void WaitUntilTransfersDone() override {
    std::shared_lock lock(mu_);
    inner_->WaitUntilTransfersDone();
  }
  Status WaitUntilIndexesCaughtUp() override {
    std::shared_lock lock(mu_);
    return inner_->WaitUntilIndexesCaughtUp();
  }
  Status PropagateIndexes() override {
    std::shared_lock lock(mu_);
    return inner_->PropagateIndexes();
  }
  Status SetIndexLag(const SetIndexLagRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->SetIndexLag(req);
  }
  IndexPropagationStats GetIndexPropagationStats() override {
    std::shared_lock lock(mu_);
    return inner_->GetIndexPropagationStats();
  }
  Status VerifyIndexes(const Scope& scope, const std::string& table_name) override {
    std::shared_lock lock(mu_);
    return inner_->VerifyIndexes(scope, table_name);
  }
  Result<TableThroughputStats> DescribeCapacity(const Scope& scope, const std::string& table_name, size_t hot_keys) override {
    std::shared_lock lock(mu_);
    return inner_->DescribeCapacity(scope, table_name, hot_keys);
  }
  void SetThrottling(bool on) override {
    std::shared_lock lock(mu_);
    throttling_override_ = on;
    inner_->SetThrottling(on);
  }
  bool throttling() const override {
    std::shared_lock lock(mu_);
    return inner_->throttling();
  }
  Result<ContributorInsightsDescription> UpdateContributorInsights(const UpdateContributorInsightsRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->UpdateContributorInsights(req);
  }
  Result<ContributorInsightsDescription> DescribeContributorInsights(const Scope& scope, const std::string& table_name, const std::string& index_name) override {
    std::shared_lock lock(mu_);
    return inner_->DescribeContributorInsights(scope, table_name, index_name);
  }
  Result<ListContributorInsightsResult> ListContributorInsights(const ListContributorInsightsRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->ListContributorInsights(req);
  }
  Result<StreamStorageStats> DescribeStreamStats(const Scope& scope, const std::string& table_name) override {
    std::shared_lock lock(mu_);
    return inner_->DescribeStreamStats(scope, table_name);
  }
  Result<ExecuteStatementResult> ExecuteStatement(const ExecuteStatementRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->ExecuteStatement(req);
  }
  Result<BatchExecuteStatementResult> BatchExecuteStatement(const BatchExecuteStatementRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->BatchExecuteStatement(req);
  }
  Result<ExecuteTransactionResult> ExecuteTransaction(const ExecuteTransactionRequest& req) override {
    std::shared_lock lock(mu_);
    return inner_->ExecuteTransaction(req);
  }
  void RunDueWork() override {
    std::shared_lock lock(mu_);
    return inner_->RunDueWork();
  }

  Result<SnapshotInfo> CreateSnapshot(const std::string& name) override;
  Status RestoreSnapshot(const std::string& name) override;
  Result<std::vector<SnapshotInfo>> ListSnapshots() override;
  Status DeleteSnapshot(const std::string& name) override;

 private:
  std::string Dir() const { return store_->path() + "/snapshots"; }
  std::string DirOf(const std::string& name) const { return Dir() + "/" + name; }
  Result<SnapshotInfo> InfoOf(const std::string& name) const;
  // Replaces the database's contents with the snapshot's files.
  Status ReplaceContents(const std::string& dir);

  const EngineOptions options_;
  std::shared_ptr<Store> store_;
  mutable std::shared_mutex mu_;
  std::unique_ptr<Engine> inner_;
  // SetThrottling's last value, kept over a reset.
  std::optional<bool> throttling_override_;
  // Serializes snapshot creation and deletion (a restore excludes all).
  std::mutex snapshot_mu_;
};

Status SnapshotNotFound(const std::string& name) {
  return Status::ResourceNotFound("Snapshot not found: " + name);
}

Result<SnapshotInfo> SnapshotEngine::InfoOf(const std::string& name) const {
  const std::string dir = DirOf(name);
  if (!store_->FileExists(dir + "/" + kInfoFile)) return SnapshotNotFound(name);
  SnapshotInfo info;
  info.name = name;
  DR_RETURN_IF_ERROR(store_->ReadSst(dir + "/" + kInfoFile,
                                     [&](std::string_view key, std::string_view value) {
                                       if (key == "created" && value.size() == 8) {
                                         info.creation_micros = static_cast<int64_t>(
                                             DecodeFixed64BE(value.data()));
                                       }
                                       return Status::OK();
                                     }));
  for (const std::string& file : store_->ListDir(dir)) {
    info.size_bytes += static_cast<int64_t>(store_->FileSize(dir + "/" + file));
  }
  return info;
}

Result<SnapshotInfo> SnapshotEngine::CreateSnapshot(const std::string& name) {
  std::shared_lock lock(mu_);
  std::lock_guard snapshot_lock(snapshot_mu_);
  if (InfoOf(name).ok()) {
    return Status::ResourceInUse("Snapshot already exists: " + name);
  }
  const std::string dir = DirOf(name);
  DR_RETURN_IF_ERROR(store_->RemoveAll(dir));  // an unfinished earlier attempt
  DR_RETURN_IF_ERROR(store_->CreateDirs(dir));
  // Every column family at one RocksDB snapshot: writes go on.
  std::unique_ptr<StoreSnapshot> snapshot = store_->NewSnapshot();
  auto fail = [&](Status s) {
    store_->RemoveAll(dir).ok();
    return s;
  };
  for (int cf = 0; cf < kNumColumnFamilies; ++cf) {
    std::unique_ptr<SstWriter> writer = store_->NewSstWriter(dir + "/" + kCfFileNames[cf]);
    auto it = snapshot->NewIterator(static_cast<Cf>(cf), "", "");
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      Status s = writer->Put(it->key(), it->value());
      if (!s.ok()) return fail(s);
    }
    if (!it->status().ok()) return fail(it->status());
    Status s = writer->Finish();
    if (!s.ok()) return fail(s);
  }
  // The info file last: a snapshot without it does not exist.
  const int64_t now = (options_.clock ? options_.clock : RealClock::Default())->NowMicros();
  std::unique_ptr<SstWriter> info = store_->NewSstWriter(dir + "/" + kInfoFile);
  std::string created;
  PutFixed64BE(&created, static_cast<uint64_t>(now));
  Status s = info->Put("created", created);
  if (s.ok()) s = info->Finish();
  if (!s.ok()) return fail(s);
  return InfoOf(name);
}

Status SnapshotEngine::ReplaceContents(const std::string& dir) {
  // The backup records now, to put back after the reset.
  std::vector<std::pair<std::string, std::string>> backups;
  {
    auto it = store_->NewIterator(Cf::kMeta, std::string(1, kBackupRecordPrefix),
                                  std::string(1, kBackupRecordPrefix + 1));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      backups.emplace_back(std::string(it->key()), std::string(it->value()));
    }
    DR_RETURN_IF_ERROR(it->status());
  }
  WriteBatch clear;
  for (int cf = 0; cf < kNumColumnFamilies; ++cf) {
    auto it = store_->NewIterator(static_cast<Cf>(cf), "", "");
    it->SeekToFirst();
    if (!it->Valid()) {
      DR_RETURN_IF_ERROR(it->status());
      continue;
    }
    it->SeekToLast();
    std::string end(it->key());
    end.push_back('\0');  // just past the last key
    // From "": a range deletion in the GSI log must not start at one of its
    // record keys (Store's memtable insert hints).
    clear.DeleteRange(static_cast<Cf>(cf), std::string(), end);
  }
  DR_RETURN_IF_ERROR(store_->Write(&clear));
  for (int cf = 0; cf < kNumColumnFamilies; ++cf) {
    const std::string file = dir + "/" + kCfFileNames[cf];
    if (!store_->FileExists(file)) continue;  // the column family was empty
    DR_RETURN_IF_ERROR(store_->Ingest(static_cast<Cf>(cf), {file}, /*move=*/false));
  }
  WriteBatch restore;
  auto it = store_->NewIterator(Cf::kMeta, std::string(1, kBackupRecordPrefix),
                                std::string(1, kBackupRecordPrefix + 1));
  for (it->SeekToFirst(); it->Valid(); it->Next()) restore.Delete(Cf::kMeta, it->key());
  DR_RETURN_IF_ERROR(it->status());
  for (const auto& [key, value] : backups) restore.Put(Cf::kMeta, key, value);
  return store_->Write(&restore);
}

Status SnapshotEngine::RestoreSnapshot(const std::string& name) {
  std::unique_lock lock(mu_);
  DR_RETURN_IF_ERROR(InfoOf(name).status());
  inner_.reset();  // stops its threads; nothing else uses the store now
  Status replaced = ReplaceContents(DirOf(name));
  Result<std::unique_ptr<Engine>> reopened = OpenEngineOnStore(options_, store_);
  if (!reopened.ok()) return reopened.status();  // the engine is unusable now
  inner_ = std::move(reopened).value();
  if (throttling_override_) inner_->SetThrottling(*throttling_override_);
  return replaced;
}

Result<std::vector<SnapshotInfo>> SnapshotEngine::ListSnapshots() {
  std::shared_lock lock(mu_);
  std::vector<std::string> names = store_->ListDir(Dir());
  std::sort(names.begin(), names.end());
  std::vector<SnapshotInfo> out;
  for (const std::string& name : names) {
    Result<SnapshotInfo> info = InfoOf(name);
    if (info.ok()) out.push_back(std::move(info).value());
  }
  return out;
}

Status SnapshotEngine::DeleteSnapshot(const std::string& name) {
  std::shared_lock lock(mu_);
  std::lock_guard snapshot_lock(snapshot_mu_);
  DR_RETURN_IF_ERROR(InfoOf(name).status());
  return store_->RemoveAll(DirOf(name));
}

}  // namespace

Result<std::unique_ptr<Engine>> Engine::Open(const EngineOptions& options) {
  StoreOptions store_options;
  store_options.path = options.path;
  store_options.in_memory = options.in_memory;
  store_options.sync_writes = options.sync_writes;
  store_options.min_free_disk_bytes = options.min_free_disk_bytes;
  store_options.memtable_bytes = options.memtable_bytes;
  DR_ASSIGN_OR_RETURN(std::unique_ptr<Store> opened, Store::Open(store_options));
  std::shared_ptr<Store> store(std::move(opened));
  DR_ASSIGN_OR_RETURN(std::unique_ptr<Engine> inner, OpenEngineOnStore(options, store));
  return std::unique_ptr<Engine>(
      new SnapshotEngine(options, std::move(store), std::move(inner)));
}

}  // namespace dynarock
