// engine/backup/backups.h
//
// Backups is DynamoDB's on-demand backup: CreateBackup, DescribeBackup,
// ListBackups, DeleteBackup and RestoreTableFromBackup.
//
// A backup is the table's items read at one RocksDB snapshot and written
// with SstFileWriter to its own file, <db>/backups/<backup id>.sst (keys
// without the table id), plus a record in the meta column family
// ("B" ns "\0" arn) holding the source table's definition as the catalog
// encodes it. Reading at a snapshot takes no lock: writes go on while a
// backup is made. Index entries are not copied; a restore rebuilds them
// from the items (engine/backup/table_restore.h), so a restored table's
// indexes always agree with its items. Backups survive restarts and the
// deletion of their table. With an in-memory database the files live in the
// in-memory Env and go with the process.
//
// A backup shows CREATING for the engine's table-creation delay after it is
// made (DynamoDB's backups take a while), AVAILABLE after; it cannot be
// restored or deleted while CREATING (BackupInUseException).
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_BACKUP_BACKUPS_H_
#define DYNAROCK_ENGINE_BACKUP_BACKUPS_H_

#include <cstdint>
#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "engine/backup/table_restore.h"
#include "engine/requests/backup_requests.h"
#include "engine/requests/scope.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/control/table_lifecycle.h"
#include "engine/util/mutex.h"

namespace dynarock {

class Clock;

class Backups {
 public:
  // Loads every backup record of `store`. None of the pointers is owned;
  // all must outlive this. `creating_micros`: how long a new backup shows
  // CREATING. Errors: kCorruption, kIOError.
  static Result<std::unique_ptr<Backups>> Open(Store* store, const Clock* clock,
                                               TableLifecycle* tables,
                                               TableRestorer* restorer,
                                               int64_t creating_micros);

  // Errors: kTableNotFound ("Table not found: <name>"), kTableInUse (the
  // table is being created), storage errors.
  Result<BackupDescription> Create(const CreateBackupRequest& req);
  // Errors: kBackupNotFound ("Backup not found: <arn>").
  Result<BackupDescription> Describe(const DescribeBackupRequest& req);
  Result<ListBackupsResult> List(const ListBackupsRequest& req);
  // Answers the backup's description with status DELETED.
  // Errors: kBackupNotFound, kBackupInUse (still CREATING).
  Result<BackupDescription> Delete(const DeleteBackupRequest& req);
  // Errors: kBackupNotFound, kBackupInUse, kTableAlreadyExists,
  // kTableInUse, kValidation (overrides).
  Result<TableDescription> Restore(const RestoreTableFromBackupRequest& req);

 private:
  struct Backup {
    std::string ns;
    std::string file;  // path of the SST file
    BackupDescription desc;
  };
  using Key = std::pair<std::string, std::string>;  // (ns, arn)

  Backups(Store* store, const Clock* clock, TableLifecycle* tables,
          TableRestorer* restorer, int64_t creating_micros)
      : store_(store),
        clock_(clock),
        tables_(tables),
        restorer_(restorer),
        creating_micros_(creating_micros),
        id_sequence_(RandomIdSequence()) {}
  // Where a process's id sequence starts: random, so that a database
  // reopened at the same (simulated) time does not make an id again.
  static uint32_t RandomIdSequence();
  // The backup with its status now, or kBackupNotFound.
  Result<Backup> Find(const Scope& scope, const std::string& arn) const;
  BackupDescription WithStatus(BackupDescription d, int64_t now) const;

  Store* const store_;
  const Clock* const clock_;
  TableLifecycle* const tables_;
  TableRestorer* const restorer_;
  const int64_t creating_micros_;
  // Orders the ids of backups created within one millisecond (NewBackupId).
  std::atomic<uint32_t> id_sequence_;
  mutable Mutex mu_;
  std::map<Key, Backup> backups_ GUARDED_BY(mu_);
};

// "Backup not found: <arn>".
Status BackupNotFound(const std::string& arn);
// "Table not found: <name>".
Status BackupTableNotFound(const std::string& name);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_BACKUP_BACKUPS_H_
