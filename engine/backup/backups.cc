#include "engine/backup/backups.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/clock.h"
#include "engine/storage/catalog.h"
#include "engine/util/coding.h"
#include "engine/util/uuid.h"

namespace dynarock {
namespace {

// Meta column family: "B" ns "\0" backup arn -> backup record.
constexpr char kBackupPrefix = 'B';
// Version 1: ns, arn, name, creation, size bytes, item count, TTL enabled
// and attribute, file name, then the source table's catalog record.
constexpr uint8_t kBackupRecordVersion = 1;

std::string RecordKey(const std::string& ns, const std::string& arn) {
  std::string key(1, kBackupPrefix);
  key.append(ns);
  key.push_back('\0');
  key.append(arn);
  return key;
}

std::string BackupsDir(const Store& store) { return store.path() + "/backups"; }

std::string EncodeBackup(const std::string& ns, const std::string& file_name,
                         const BackupDescription& d, const TableInfo& source) {
  std::string out;
  RecordWriter w(&out);
  w.Byte(kBackupRecordVersion);
  w.String(ns);
  w.String(d.backup_arn);
  w.String(d.backup_name);
  w.Signed(d.creation_micros);
  w.Signed(d.backup_size_bytes);
  w.Signed(d.source.item_count);
  w.Bool(d.ttl_enabled);
  w.String(d.ttl_attribute_name);
  w.String(file_name);
  w.String(EncodeTableRecord(source));
  return out;
}

// The backup id of an ARN: "<13-digit ms>-<8 hex>", DynamoDB's form. The
// hex digits are the microsecond within the millisecond (10 bits) and
// `sequence` (22 bits), so that backups made within one millisecond (or,
// on a simulated clock, at one time) list in the order they were made:
// ListBackups sorts by the millisecond, then the ARN.
std::string NewBackupId(int64_t micros, uint32_t sequence) {
  char id[40];
  const uint32_t suffix = (static_cast<uint32_t>(micros % 1000) << 22) | (sequence & 0x3FFFFF);
  std::snprintf(id, sizeof(id), "%013lld-%08x", static_cast<long long>(micros / 1000), suffix);
  return id;
}

Status BackupInUse() {
  return Status(ErrorCode::kBackupInUse,
                "There is another ongoing conflicting backup control plane "
                "operation on the table. The backup is either being created, "
                "deleted or restored to a table.");
}

}  // namespace

Status BackupNotFound(const std::string& arn) {
  return Status(ErrorCode::kBackupNotFound, "Backup not found: " + arn);
}

Status BackupTableNotFound(const std::string& name) {
  return Status(ErrorCode::kTableNotFound, "Table not found: " + name);
}

Result<std::unique_ptr<Backups>> Backups::Open(Store* store, const Clock* clock,
                                               TableLifecycle* tables,
                                               TableRestorer* restorer,
                                               int64_t creating_micros) {
  std::unique_ptr<Backups> b(
      new Backups(store, clock, tables, restorer, creating_micros));
  MutexLock lock(&b->mu_);
  auto it = store->NewIterator(Cf::kMeta, std::string(1, kBackupPrefix),
                               std::string(1, kBackupPrefix + 1));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    RecordReader r(it->value());
    if (r.Byte() != kBackupRecordVersion) {
      return Status::Corruption("unknown backup record version");
    }
    Backup backup;
    backup.ns = r.String();
    BackupDescription& d = backup.desc;
    d.backup_arn = r.String();
    d.backup_name = r.String();
    d.creation_micros = r.Signed();
    d.backup_size_bytes = r.Signed();
    const int64_t items = r.Signed();
    d.ttl_enabled = r.Byte() != 0;
    d.ttl_attribute_name = r.String();
    backup.file = BackupsDir(*store) + "/" + r.String();
    const std::string table_record = r.String();
    if (!r.ok) return Status::Corruption("truncated backup record");
    DR_ASSIGN_OR_RETURN(TableInfo source, DecodeTableRecord(table_record));
    d.source = std::move(source.desc);
    d.source.item_count = items;
    d.source.table_size_bytes = d.backup_size_bytes;
    b->backups_[Key{backup.ns, d.backup_arn}] = std::move(backup);
  }
  DR_RETURN_IF_ERROR(it->status());
  return b;
}

BackupDescription Backups::WithStatus(BackupDescription d, int64_t now) const {
  d.backup_status = now < d.creation_micros + creating_micros_ ? BackupStatus::kCreating
                                                               : BackupStatus::kAvailable;
  return d;
}

namespace {

// The "<13-digit ms>-<8 hex>" id of a backup ARN
// ("arn:...:table/<name>/backup/<id>"), or empty when `arn` is not one.
std::string_view BackupIdOfArn(std::string_view arn) {
  constexpr std::string_view kBackup = "/backup/";
  if (arn.compare(0, 4, "arn:") != 0 || arn.find(":table/") == std::string_view::npos) {
    return {};
  }
  const size_t at = arn.rfind(kBackup);
  if (at == std::string_view::npos) return {};
  const std::string_view id = arn.substr(at + kBackup.size());
  if (id.size() < 15 || id[13] != '-') return {};
  for (size_t i = 0; i < 13; ++i) {
    if (id[i] < '0' || id[i] > '9') return {};
  }
  return id;
}

}  // namespace

Result<Backups::Backup> Backups::Find(const Scope& scope, const std::string& arn) const {
  // DynamoDB's answer for a table ARN or a string that is no ARN (recorded
  // October 2026 by the AWS controllers' API-quirks lab).
  if (BackupIdOfArn(arn).empty()) return Status::Validation("Invalid Backup ARN");
  MutexLock lock(&mu_);
  auto it = backups_.find(Key{scope.ns, arn});
  if (it == backups_.end()) return BackupNotFound(arn);
  Backup b = it->second;
  b.desc = WithStatus(std::move(b.desc), clock_->NowMicros());
  return b;
}

uint32_t Backups::RandomIdSequence() {
  const std::string uuid = NewUuid();
  // In the lower half of the 22 bits an id holds: two million backups of
  // one process before the sequence wraps.
  return static_cast<uint32_t>(std::strtoul(uuid.substr(0, 8).c_str(), nullptr, 16)) & 0x1FFFFF;
}

Result<BackupDescription> Backups::Create(const CreateBackupRequest& req) {
  TableStatus status;
  std::shared_ptr<const TableInfo> table = tables_->Find(req.scope, req.table_name, &status);
  // A table being created answers as a missing one, as DynamoDB does
  // (recorded October 2026 by the AWS controllers' API-quirks lab). So does
  // one being deleted: its items went at DeleteTable (DynamoDB still backs
  // it up then; docs/compatibility.md).
  if (!table || status == TableStatus::kCreating || status == TableStatus::kDeleting) {
    return BackupTableNotFound(req.table_name);
  }
  const int64_t now = clock_->NowMicros();
  const std::string id =
      NewBackupId(now, id_sequence_.fetch_add(1, std::memory_order_relaxed));
  const std::string file_name = id + ".sst";
  const std::string file = BackupsDir(*store_) + "/" + file_name;
  DR_RETURN_IF_ERROR(store_->CreateDirs(BackupsDir(*store_)));
  // The items at one snapshot; writes go on meanwhile.
  std::unique_ptr<StoreSnapshot> snapshot = store_->NewSnapshot();
  Result<TableExport> exported = ExportTableItems(*store_, *snapshot, table->id, file);
  snapshot.reset();
  if (!exported.ok()) {
    store_->RemoveAll(file).ok();
    return exported.status();
  }
  Backup backup;
  backup.ns = req.scope.ns;
  backup.file = file;
  BackupDescription& d = backup.desc;
  d.backup_arn = table->desc.table_arn + "/backup/" + id;
  d.backup_name = req.backup_name;
  d.creation_micros = now;
  d.backup_size_bytes = exported->bytes;
  d.source = table->desc;
  d.source.item_count = exported->items;
  d.source.table_size_bytes = exported->bytes;
  d.ttl_enabled = table->ttl.enabled;
  d.ttl_attribute_name = table->ttl.attribute_name;
  WriteBatch batch;
  batch.Put(Cf::kMeta, RecordKey(backup.ns, d.backup_arn),
            EncodeBackup(backup.ns, file_name, d, *table));
  Status s = store_->Write(&batch);
  if (!s.ok()) {
    store_->RemoveAll(file).ok();
    return s;
  }
  BackupDescription out = WithStatus(d, now);
  MutexLock lock(&mu_);
  backups_[Key{backup.ns, d.backup_arn}] = std::move(backup);
  return out;
}

Result<BackupDescription> Backups::Describe(const DescribeBackupRequest& req) {
  DR_ASSIGN_OR_RETURN(Backup b, Find(req.scope, req.backup_arn));
  return std::move(b.desc);
}

Result<ListBackupsResult> Backups::List(const ListBackupsRequest& req) {
  ListBackupsResult result;
  if (req.time_range_lower_micros && req.time_range_upper_micros &&
      *req.time_range_lower_micros > *req.time_range_upper_micros) {
    return Status::Validation(
        "Time range lower bound must be less than or equal to upper bound");
  }
  const std::string type = req.backup_type.value_or("USER");
  // Every backup here is a USER backup.
  if (type != "USER" && type != "ALL") return result;
  const int64_t now = clock_->NowMicros();
  std::vector<BackupDescription> all;
  {
    MutexLock lock(&mu_);
    for (const auto& [key, b] : backups_) {
      if (key.first != req.scope.ns) continue;
      const BackupDescription& d = b.desc;
      if (req.table_name && d.source.table_name != *req.table_name) continue;
      if (req.time_range_lower_micros && d.creation_micros < *req.time_range_lower_micros) {
        continue;
      }
      if (req.time_range_upper_micros && d.creation_micros >= *req.time_range_upper_micros) {
        continue;
      }
      all.push_back(WithStatus(d, now));
    }
  }
  // By creation time to the millisecond (what an ARN's id holds), then ARN.
  auto position = [](const BackupDescription& d) {
    return std::make_pair(d.creation_micros / 1000, std::string_view(d.backup_arn));
  };
  std::sort(all.begin(), all.end(), [&](const BackupDescription& a, const BackupDescription& b) {
    return position(a) < position(b);
  });
  // ExclusiveStartBackupArn is a position, not a backup that must exist: a
  // deleted or unknown backup's ARN resumes after where it would sort (by the
  // creation time its id holds), as DynamoDB does.
  size_t start = 0;
  if (req.exclusive_start_backup_arn) {
    const std::string& cursor = *req.exclusive_start_backup_arn;
    const std::string_view id = BackupIdOfArn(cursor);
    const int64_t cursor_ms = id.empty() ? 0 : std::atoll(std::string(id.substr(0, 13)).c_str());
    while (start < all.size() &&
           position(all[start]) <= std::make_pair(cursor_ms, std::string_view(cursor))) {
      ++start;
    }
  }
  const size_t limit = req.limit ? static_cast<size_t>(*req.limit) : all.size();
  for (size_t i = start; i < all.size(); ++i) {
    if (result.backups.size() == limit) {
      result.last_evaluated_backup_arn = result.backups.back().backup_arn;
      break;
    }
    result.backups.push_back(std::move(all[i]));
  }
  return result;
}

Result<BackupDescription> Backups::Delete(const DeleteBackupRequest& req) {
  DR_ASSIGN_OR_RETURN(Backup b, Find(req.scope, req.backup_arn));
  if (b.desc.backup_status == BackupStatus::kCreating) return BackupInUse();
  WriteBatch batch;
  batch.Delete(Cf::kMeta, RecordKey(b.ns, b.desc.backup_arn));
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  {
    MutexLock lock(&mu_);
    backups_.erase(Key{b.ns, b.desc.backup_arn});
  }
  store_->RemoveAll(b.file).ok();  // a leftover file is harmless
  b.desc.backup_status = BackupStatus::kDeleted;
  return std::move(b.desc);
}

Result<TableDescription> Backups::Restore(const RestoreTableFromBackupRequest& req) {
  DR_ASSIGN_OR_RETURN(Backup b, Find(req.scope, req.backup_arn));
  if (b.desc.backup_status == BackupStatus::kCreating) return BackupInUse();
  DR_RETURN_IF_ERROR(restorer_->CheckTarget(req.scope, req.target_table_name));
  DR_ASSIGN_OR_RETURN(TableInfo def, restorer_->Definition(req.scope, req.target_table_name,
                                                           b.desc.source, req.overrides));
  return restorer_->Restore(std::move(def), ItemsOfFile(store_, b.file));
}

}  // namespace dynarock
