// engine/backup/continuous_backups.h
//
// ContinuousBackups is point-in-time recovery: UpdateContinuousBackups,
// DescribeContinuousBackups and RestoreTableToPointInTime.
//
// Mechanism (docs/backups.md): when PITR is turned on, the table's items are
// written at one RocksDB snapshot to a base image (an SST file,
// <db>/pitr/<table id>-<micros>.sst) and from then on every change of an
// item is logged in its own WriteBatch (engine/backup/pitr_log.h). A restore
// to time T merges the base image with the newest logged change of each
// item at or before T and builds the new table from that
// (engine/backup/table_restore.h). The window is [base time or now - the
// recovery period, whichever is later, now] on the engine clock. Retention:
// once the window's start passes the base time by a day, Maintain() folds
// the log up to the window's start into a new base image and drops that
// part of the log, so the log holds at most the recovery period plus a day
// of changes.
//
// Per-table state is persisted in the meta column family
// ("P" table id (4 BE) -> record); Open re-arms the log for each table.
// Thread-safe.

#ifndef DYNAROCK_ENGINE_BACKUP_CONTINUOUS_BACKUPS_H_
#define DYNAROCK_ENGINE_BACKUP_CONTINUOUS_BACKUPS_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "engine/backup/table_restore.h"
#include "engine/index/index_writer.h"
#include "engine/backup/pitr_log.h"
#include "engine/requests/backup_requests.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/control/table_lifecycle.h"
#include "engine/util/mutex.h"

namespace dynarock {

class Clock;

class ContinuousBackups {
 public:
  // Loads the PITR state of every table and turns their logs on. None of
  // the pointers is owned; all must outlive this. `writer`'s exclusion is
  // the barrier that makes a new base image see every write not logged.
  static Result<std::unique_ptr<ContinuousBackups>> Open(
      Store* store, const Clock* clock, TableLifecycle* tables,
      TableRestorer* restorer, PitrLog* log, IndexWriter* writer);

  // Errors: kTableNotFound ("Table not found: <name>"), kValidation,
  // storage errors.
  Result<ContinuousBackupsDescription> Update(const UpdateContinuousBackupsRequest& req);
  // Errors: kTableNotFound.
  Result<ContinuousBackupsDescription> Describe(
      const DescribeContinuousBackupsRequest& req);
  // Errors: kSourceTableNotFound ("Source table not found: <name>"),
  // kPointInTimeRecoveryUnavailable, kInvalidRestoreTime,
  // kTableAlreadyExists, kTableInUse, kValidation.
  Result<TableDescription> Restore(const RestoreTableToPointInTimeRequest& req);

  // The items of table `table_id` at `micros` (the base image merged with
  // the log), for ExportTableToPointInTime: what a restore to `micros`
  // would build. With `snapshot` the log is read at it (changes committed
  // after it are left out, though stamped before `micros`).
  // Errors: kPointInTimeRecoveryUnavailable (PITR off), kInvalidExportTime
  // (`micros` before the base image: the window moved past it).
  Result<RestoreItemSource> ItemsAtTime(uint32_t table_id, int64_t micros,
                                        std::shared_ptr<const StoreSnapshot> snapshot) const;
  // The restore window of table `table_id` now (enabled false: PITR off).
  ContinuousBackupsDescription WindowOf(uint32_t table_id) const;

  // The table is gone: its log and base image go too.
  void TableDeleted(uint32_t table_id);
  // Retention: rebases tables whose window start passed their base image by
  // a day. Cheap when nothing is due (at most once per clock minute).
  Status Maintain();

 private:
  struct State {
    int64_t recovery_days = 35;
    int64_t base_micros = 0;  // the base image's time; window start floor
    std::string base_file;    // file name under <db>/pitr
  };

  ContinuousBackups(Store* store, const Clock* clock, TableLifecycle* tables,
                    TableRestorer* restorer, PitrLog* log, IndexWriter* writer)
      : store_(store),
        clock_(clock),
        tables_(tables),
        restorer_(restorer),
        log_(log),
        writer_(writer) {}

  ContinuousBackupsDescription DescriptionOf(const State* state, int64_t now) const;
  Status Persist(uint32_t table_id, const State& state);
  Status Enable(uint32_t table_id, int64_t recovery_days);
  Status Disable(uint32_t table_id);
  // The table's items at `micros`: the base image merged with the log.
  // `snapshot` null: the log as it is.
  RestoreItemSource ItemsAt(uint32_t table_id, const State& state, int64_t micros,
                            std::shared_ptr<const StoreSnapshot> snapshot = nullptr) const;
  Status Rebase(uint32_t table_id, State state, int64_t cutoff);
  std::string Dir() const;

  Store* const store_;
  const Clock* const clock_;
  TableLifecycle* const tables_;
  TableRestorer* const restorer_;
  PitrLog* const log_;
  IndexWriter* const writer_;
  // Serializes changes of the PITR state (enable, disable, rebase).
  Mutex change_mu_;
  mutable Mutex mu_;
  std::map<uint32_t, State> states_ GUARDED_BY(mu_);
  // Maintain's next run on the clock (checked without a lock).
  std::atomic<int64_t> next_maintain_micros_{0};
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_BACKUP_CONTINUOUS_BACKUPS_H_
