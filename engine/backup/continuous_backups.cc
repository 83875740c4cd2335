#include "engine/backup/continuous_backups.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "engine/backup/backups.h"
#include "engine/clock.h"
#include "engine/schema/arns.h"
#include "engine/util/coding.h"

namespace dynarock {
namespace {

// Meta column family: "P" table id (4 BE) -> PITR state record.
constexpr char kStatePrefix = 'P';
constexpr uint8_t kStateVersion = 1;
constexpr int64_t kMicrosPerDay = int64_t{86400} * 1'000'000;
constexpr int64_t kMaintainEveryMicros = int64_t{60} * 1'000'000;

std::string StateKey(uint32_t table_id) {
  std::string key(1, kStatePrefix);
  PutFixed32BE(&key, table_id);
  return key;
}

Status SourceTableNotFound(const std::string& name) {
  return Status(ErrorCode::kSourceTableNotFound, "Source table not found: " + name);
}

// The table name of "arn:aws:dynamodb:<region>:<account>:table/<name>"
// (any sub-resource ignored); a string that is no table ARN is taken for a
// name, which no table has.
std::string TableOfArn(const std::string& arn) {
  std::optional<DynamoDbArn> parsed = ParseArn(arn);
  return parsed ? parsed->table : arn;
}

}  // namespace

Result<std::unique_ptr<ContinuousBackups>> ContinuousBackups::Open(
    Store* store, const Clock* clock, TableLifecycle* tables, TableRestorer* restorer,
    PitrLog* log, IndexWriter* writer) {
  std::unique_ptr<ContinuousBackups> c(
      new ContinuousBackups(store, clock, tables, restorer, log, writer));
  MutexLock lock(&c->mu_);
  auto it = store->NewIterator(Cf::kMeta, std::string(1, kStatePrefix),
                               std::string(1, kStatePrefix + 1));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (it->key().size() != 5) continue;
    const uint32_t table_id = DecodeFixed32BE(it->key().data() + 1);
    RecordReader r(it->value());
    if (r.Byte() != kStateVersion) return Status::Corruption("unknown PITR record version");
    State state;
    state.recovery_days = r.Signed();
    state.base_micros = r.Signed();
    state.base_file = r.String();
    if (!r.ok) return Status::Corruption("truncated PITR record");
    c->states_[table_id] = std::move(state);
    log->SetLogging(table_id, true);
  }
  DR_RETURN_IF_ERROR(it->status());
  return c;
}

std::string ContinuousBackups::Dir() const { return store_->path() + "/pitr"; }

Status ContinuousBackups::Persist(uint32_t table_id, const State& state) {
  std::string value;
  RecordWriter w(&value);
  w.Byte(kStateVersion);
  w.Signed(state.recovery_days);
  w.Signed(state.base_micros);
  w.String(state.base_file);
  WriteBatch batch;
  batch.Put(Cf::kMeta, StateKey(table_id), value);
  return store_->Write(&batch);
}

ContinuousBackupsDescription ContinuousBackups::DescriptionOf(const State* state,
                                                              int64_t now) const {
  ContinuousBackupsDescription d;
  if (state == nullptr) return d;
  d.point_in_time_recovery_enabled = true;
  d.recovery_period_in_days = state->recovery_days;
  d.earliest_restorable_micros =
      std::min(now, std::max(state->base_micros, now - state->recovery_days * kMicrosPerDay));
  d.latest_restorable_micros = now;
  return d;
}

Status ContinuousBackups::Enable(uint32_t table_id, int64_t recovery_days) {
  // Log first, then wait out every write that may have checked before
  // (writers hold the index writer's shared lock from staging to commit),
  // then the base image: every change is in the log, the image, or both.
  log_->SetLogging(table_id, true);
  { auto excluded = writer_->ExcludeWriters(); }
  std::unique_ptr<StoreSnapshot> snapshot = store_->NewSnapshot();
  const int64_t base = clock_->NowMicros();
  State state;
  state.recovery_days = recovery_days;
  state.base_micros = base;
  state.base_file = std::to_string(table_id) + "-" + std::to_string(base) + ".sst";
  const std::string file = Dir() + "/" + state.base_file;
  Status s = store_->CreateDirs(Dir());
  if (s.ok()) s = ExportTableItems(*store_, *snapshot, table_id, file).status();
  if (s.ok()) s = Persist(table_id, state);
  if (!s.ok()) {
    log_->SetLogging(table_id, false);
    store_->RemoveAll(file).ok();
    return s;
  }
  MutexLock lock(&mu_);
  states_[table_id] = std::move(state);
  return Status::OK();
}

Status ContinuousBackups::Disable(uint32_t table_id) {
  std::optional<State> state;
  {
    MutexLock lock(&mu_);
    auto it = states_.find(table_id);
    if (it == states_.end()) return Status::OK();
    state = it->second;
    states_.erase(it);
  }
  log_->SetLogging(table_id, false);
  WriteBatch batch;
  batch.Delete(Cf::kMeta, StateKey(table_id));
  batch.DeleteRange(Cf::kPitr, PitrLog::LogBegin(table_id),
                    PitrLog::LogEnd(table_id, INT64_MAX - 1));
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  store_->RemoveAll(Dir() + "/" + state->base_file).ok();
  return Status::OK();
}

Result<ContinuousBackupsDescription> ContinuousBackups::Update(
    const UpdateContinuousBackupsRequest& req) {
  TableStatus status;
  std::shared_ptr<const TableInfo> table = tables_->Find(req.scope, req.table_name, &status);
  if (!table || status == TableStatus::kDeleting) return BackupTableNotFound(req.table_name);
  MutexLock change(&change_mu_);
  bool enabled;
  {
    MutexLock lock(&mu_);
    enabled = states_.count(table->id) != 0;
  }
  if (!req.point_in_time_recovery_enabled) {
    DR_RETURN_IF_ERROR(Disable(table->id));
  } else if (!enabled) {
    DR_RETURN_IF_ERROR(Enable(table->id, req.recovery_period_in_days.value_or(35)));
  } else if (req.recovery_period_in_days) {
    State state;
    {
      MutexLock lock(&mu_);
      state = states_[table->id];
    }
    state.recovery_days = *req.recovery_period_in_days;
    DR_RETURN_IF_ERROR(Persist(table->id, state));
    MutexLock lock(&mu_);
    states_[table->id] = state;
  }
  MutexLock lock(&mu_);
  auto it = states_.find(table->id);
  return DescriptionOf(it == states_.end() ? nullptr : &it->second, clock_->NowMicros());
}

Result<ContinuousBackupsDescription> ContinuousBackups::Describe(
    const DescribeContinuousBackupsRequest& req) {
  TableStatus status;
  std::shared_ptr<const TableInfo> table = tables_->Find(req.scope, req.table_name, &status);
  if (!table || status == TableStatus::kDeleting) return BackupTableNotFound(req.table_name);
  MutexLock lock(&mu_);
  auto it = states_.find(table->id);
  return DescriptionOf(it == states_.end() ? nullptr : &it->second, clock_->NowMicros());
}

RestoreItemSource ContinuousBackups::ItemsAt(uint32_t table_id, const State& state,
                                             int64_t micros,
                                             std::shared_ptr<const StoreSnapshot> snapshot) const {
  const std::string base_file = Dir() + "/" + state.base_file;
  const Store* store = store_;
  return [store, table_id, base_file, micros,
          snapshot = std::move(snapshot)](const RestoreItemVisitor& visit) -> Status {
    // The newest change of each item up to `micros` (the log is in time
    // order, so the last one read wins).
    std::map<std::string, std::optional<std::string>, std::less<>> changes;
    const std::string begin = PitrLog::LogBegin(table_id);
    const std::string end = PitrLog::LogEnd(table_id, micros);
    auto it = snapshot ? snapshot->NewIterator(Cf::kPitr, begin, end)
                       : store->NewIterator(Cf::kPitr, begin, end);
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      DR_ASSIGN_OR_RETURN(PitrLog::Change c, PitrLog::ParseEntry(it->key(), it->value()));
      changes[std::string(c.suffix)] =
          c.value ? std::optional<std::string>(std::string(*c.value)) : std::nullopt;
    }
    DR_RETURN_IF_ERROR(it->status());
    // Merge with the base image, both in key order.
    auto next = changes.begin();
    auto emit_changes_before = [&](std::string_view key, bool inclusive) -> Status {
      while (next != changes.end() &&
             (inclusive ? next->first <= key : next->first < key)) {
        if (next->second) DR_RETURN_IF_ERROR(visit(next->first, *next->second));
        ++next;
      }
      return Status::OK();
    };
    if (store->FileExists(base_file)) {
      DR_RETURN_IF_ERROR(store->ReadSst(
          base_file, [&](std::string_view key, std::string_view value) -> Status {
            DR_RETURN_IF_ERROR(emit_changes_before(key, /*inclusive=*/false));
            if (next != changes.end() && next->first == key) {
              // The log's version replaces the base image's.
              if (next->second) DR_RETURN_IF_ERROR(visit(next->first, *next->second));
              ++next;
              return Status::OK();
            }
            return visit(key, value);
          }));
    }
    for (; next != changes.end(); ++next) {
      if (next->second) DR_RETURN_IF_ERROR(visit(next->first, *next->second));
    }
    return Status::OK();
  };
}

Result<TableDescription> ContinuousBackups::Restore(
    const RestoreTableToPointInTimeRequest& req) {
  const std::string source_name =
      req.source_table_arn ? TableOfArn(*req.source_table_arn) : req.source_table_name;
  TableStatus status;
  std::shared_ptr<const TableInfo> table = tables_->Find(req.scope, source_name, &status);
  if (!table || status == TableStatus::kDeleting) return SourceTableNotFound(source_name);
  std::optional<State> state;
  {
    MutexLock lock(&mu_);
    auto it = states_.find(table->id);
    if (it != states_.end()) state = it->second;
  }
  if (!state) {
    return Status(ErrorCode::kPointInTimeRecoveryUnavailable,
                  "Point in time recovery is not enabled for table '" + source_name + "'");
  }
  const ContinuousBackupsDescription window = DescriptionOf(&*state, clock_->NowMicros());
  int64_t at = *window.latest_restorable_micros;
  if (!req.use_latest_restorable_time) {
    if (!req.restore_micros) {
      return Status::Validation("RestoreDateTime or UseLatestRestorableTime must be specified");
    }
    at = *req.restore_micros;
    if (at < *window.earliest_restorable_micros || at > *window.latest_restorable_micros) {
      return Status(ErrorCode::kInvalidRestoreTime,
                    "Invalid restore time specified. RestoreDateTime must be between "
                    "EarliestRestorableDateTime and LatestRestorableDateTime.");
    }
  }
  DR_RETURN_IF_ERROR(restorer_->CheckTarget(req.scope, req.target_table_name));
  DR_ASSIGN_OR_RETURN(TableInfo def, restorer_->Definition(req.scope, req.target_table_name,
                                                           table->desc, req.overrides));
  return restorer_->Restore(std::move(def), ItemsAt(table->id, *state, at));
}

Result<RestoreItemSource> ContinuousBackups::ItemsAtTime(
    uint32_t table_id, int64_t micros, std::shared_ptr<const StoreSnapshot> snapshot) const {
  std::optional<State> state;
  {
    MutexLock lock(&mu_);
    auto it = states_.find(table_id);
    if (it != states_.end()) state = it->second;
  }
  if (!state) {
    return Status(ErrorCode::kPointInTimeRecoveryUnavailable,
                  "Point in time recovery is not enabled for the table");
  }
  if (micros < state->base_micros) {
    return Status(ErrorCode::kInvalidExportTime,
                  "Export time is before the earliest restorable time of the table");
  }
  return ItemsAt(table_id, *state, micros, std::move(snapshot));
}

ContinuousBackupsDescription ContinuousBackups::WindowOf(uint32_t table_id) const {
  MutexLock lock(&mu_);
  auto it = states_.find(table_id);
  return DescriptionOf(it == states_.end() ? nullptr : &it->second, clock_->NowMicros());
}

void ContinuousBackups::TableDeleted(uint32_t table_id) {
  MutexLock change(&change_mu_);
  Disable(table_id).ok();  // retried by nobody: leftovers are only space
}

Status ContinuousBackups::Rebase(uint32_t table_id, State state, int64_t cutoff) {
  State next = state;
  next.base_micros = cutoff;
  next.base_file = std::to_string(table_id) + "-" + std::to_string(cutoff) + ".sst";
  const std::string file = Dir() + "/" + next.base_file;
  std::unique_ptr<SstWriter> writer = store_->NewSstWriter(file);
  DR_RETURN_IF_ERROR(ItemsAt(table_id, state, cutoff)(
      [&](std::string_view key, std::string_view value) { return writer->Put(key, value); }));
  DR_RETURN_IF_ERROR(writer->Finish());
  DR_RETURN_IF_ERROR(Persist(table_id, next));
  {
    MutexLock lock(&mu_);
    states_[table_id] = next;
  }
  WriteBatch batch;
  batch.DeleteRange(Cf::kPitr, PitrLog::LogBegin(table_id), PitrLog::LogEnd(table_id, cutoff));
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  store_->RemoveAll(Dir() + "/" + state.base_file).ok();
  return Status::OK();
}

Status ContinuousBackups::Maintain() {
  const int64_t now = clock_->NowMicros();
  if (now < next_maintain_micros_.load(std::memory_order_relaxed)) return Status::OK();
  next_maintain_micros_.store(now + kMaintainEveryMicros, std::memory_order_relaxed);
  MutexLock change(&change_mu_);
  std::map<uint32_t, State> states;
  {
    MutexLock lock(&mu_);
    states = states_;
  }
  for (const auto& [table_id, state] : states) {
    const int64_t cutoff = now - state.recovery_days * kMicrosPerDay;
    if (cutoff > state.base_micros + kMicrosPerDay) {
      DR_RETURN_IF_ERROR(Rebase(table_id, state, cutoff));
    }
  }
  return Status::OK();
}

}  // namespace dynarock
