// Engine's database snapshots (a dynarock extension, docs/backups.md):
// CreateSnapshot copies every column family at one RocksDB snapshot into
// SST files under <db>/snapshots/<name>/ while writes go on;
// RestoreSnapshot takes the gate exclusively, drops the engine's parts,
// replaces every column family's contents with the snapshot's files (a
// range deletion, then IngestExternalFile) and opens new parts on the same
// Store, so in-memory databases reset too. On-demand backup records stay
// as they are.

#include <algorithm>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "engine/facade/engine_state.h"
#include "engine/util/coding.h"

namespace dynarock {
namespace {

constexpr const char* kCfFileNames[kNumColumnFamilies] = {
    "meta.sst", "items.sst", "indexes.sst", "gsi_log.sst", "streams.sst", "pitr.sst"};
// The snapshot's own description: key "created" -> micros (8 BE).
constexpr const char kInfoFile[] = "info.sst";
// On-demand backup records (engine/backup/backups.cc) stay out of resets.
constexpr char kBackupRecordPrefix = 'B';

Status SnapshotNotFound(const std::string& name) {
  return Status::ResourceNotFound("Snapshot not found: " + name);
}

std::string SnapshotsDir(const Store& store) { return store.path() + "/snapshots"; }

std::string SnapshotDir(const Store& store, const std::string& name) {
  return SnapshotsDir(store) + "/" + name;
}

Result<SnapshotInfo> SnapshotInfoOf(Store* store, const std::string& name) {
  const std::string dir = SnapshotDir(*store, name);
  if (!store->FileExists(dir + "/" + kInfoFile)) return SnapshotNotFound(name);
  SnapshotInfo info;
  info.name = name;
  DR_RETURN_IF_ERROR(store->ReadSst(dir + "/" + kInfoFile,
                                     [&](std::string_view key, std::string_view value) {
                                       if (key == "created" && value.size() == 8) {
                                         info.creation_micros = static_cast<int64_t>(
                                             DecodeFixed64BE(value.data()));
                                       }
                                       return Status::OK();
                                     }));
  for (const std::string& file : store->ListDir(dir)) {
    info.size_bytes += static_cast<int64_t>(store->FileSize(dir + "/" + file));
  }
  return info;
}

}  // namespace

Result<SnapshotInfo> Engine::CreateSnapshot(const std::string& name) {
  Store* store = state_->store.get();
  Gate gate(this);
  std::lock_guard snapshot_lock(state_->snapshot_mu);
  if (SnapshotInfoOf(store, name).ok()) {
    return Status::ResourceInUse("Snapshot already exists: " + name);
  }
  const std::string dir = SnapshotDir(*store, name);
  DR_RETURN_IF_ERROR(store->RemoveAll(dir));  // an unfinished earlier attempt
  DR_RETURN_IF_ERROR(store->CreateDirs(dir));
  // Every column family at one RocksDB snapshot: writes go on.
  std::unique_ptr<StoreSnapshot> snapshot = store->NewSnapshot();
  auto fail = [&](Status s) {
    store->RemoveAll(dir).ok();
    return s;
  };
  for (int cf = 0; cf < kNumColumnFamilies; ++cf) {
    std::unique_ptr<SstWriter> writer = store->NewSstWriter(dir + "/" + kCfFileNames[cf]);
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
  const int64_t now = state_->clock->NowMicros();
  std::unique_ptr<SstWriter> info = store->NewSstWriter(dir + "/" + kInfoFile);
  std::string created;
  PutFixed64BE(&created, static_cast<uint64_t>(now));
  Status s = info->Put("created", created);
  if (s.ok()) s = info->Finish();
  if (!s.ok()) return fail(s);
  return SnapshotInfoOf(store, name);
}

namespace {

// Replaces the database's contents with the snapshot's files in `dir`.
Status ReplaceContents(Store* store, const std::string& dir) {
  // The backup records now, to put back after the reset.
  std::vector<std::pair<std::string, std::string>> backups;
  {
    auto it = store->NewIterator(Cf::kMeta, std::string(1, kBackupRecordPrefix),
                                  std::string(1, kBackupRecordPrefix + 1));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      backups.emplace_back(std::string(it->key()), std::string(it->value()));
    }
    DR_RETURN_IF_ERROR(it->status());
  }
  WriteBatch clear;
  for (int cf = 0; cf < kNumColumnFamilies; ++cf) {
    auto it = store->NewIterator(static_cast<Cf>(cf), "", "");
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
  DR_RETURN_IF_ERROR(store->Write(&clear));
  for (int cf = 0; cf < kNumColumnFamilies; ++cf) {
    const std::string file = dir + "/" + kCfFileNames[cf];
    if (!store->FileExists(file)) continue;  // the column family was empty
    DR_RETURN_IF_ERROR(store->Ingest(static_cast<Cf>(cf), {file}, /*move=*/false));
  }
  WriteBatch restore;
  auto it = store->NewIterator(Cf::kMeta, std::string(1, kBackupRecordPrefix),
                                std::string(1, kBackupRecordPrefix + 1));
  for (it->SeekToFirst(); it->Valid(); it->Next()) restore.Delete(Cf::kMeta, it->key());
  DR_RETURN_IF_ERROR(it->status());
  for (const auto& [key, value] : backups) restore.Put(Cf::kMeta, key, value);
  return store->Write(&restore);
}

}  // namespace

Status Engine::RestoreSnapshot(const std::string& name) {
  State& s = *state_;
  std::unique_lock lock(s.reset_mu);
  DR_RETURN_IF_ERROR(SnapshotInfoOf(s.store.get(), name).status());
  s.parts.reset();  // stops their threads; nothing else uses the store now
  Status replaced = ReplaceContents(s.store.get(), SnapshotDir(*s.store, name));
  Result<std::unique_ptr<EngineParts>> reopened =
      EngineParts::Open(s.options, s.store, &s.throttling);
  if (!reopened.ok()) return reopened.status();  // the engine is unusable now
  s.parts = std::move(reopened).value();
  return replaced;
}

Result<std::vector<SnapshotInfo>> Engine::ListSnapshots() {
  Store* store = state_->store.get();
  Gate gate(this);
  std::vector<std::string> names = store->ListDir(SnapshotsDir(*store));
  std::sort(names.begin(), names.end());
  std::vector<SnapshotInfo> out;
  for (const std::string& name : names) {
    Result<SnapshotInfo> info = SnapshotInfoOf(store, name);
    if (info.ok()) out.push_back(std::move(info).value());
  }
  return out;
}

Status Engine::DeleteSnapshot(const std::string& name) {
  Store* store = state_->store.get();
  Gate gate(this);
  std::lock_guard snapshot_lock(state_->snapshot_mu);
  DR_RETURN_IF_ERROR(SnapshotInfoOf(store, name).status());
  return store->RemoveAll(SnapshotDir(*store, name));
}

}  // namespace dynarock
