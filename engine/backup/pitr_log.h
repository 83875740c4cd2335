// engine/backup/pitr_log.h
//
// PitrLog is point-in-time recovery's write side: while a table has PITR
// on, every committed change of one of its items is also written, in the
// change's own WriteBatch (a ChangeHook of WritePath), to
// the `pitr` column family as
//
//   table_id (4 BE) | micros (8 BE, engine clock) | item key without table id
//     -> 1 | encoded new item   (a put)   or   0   (a delete)
//
// so the log of a table is one range in time order, and the newest change
// of an item at or before a time T is the last one read up to T. Together
// with the table's base image (an SST file of its items, engine/backup/
// continuous_backups.h) the log restores the table at any T in its window.
//
// The set of tables logging is kept here in memory (set by the continuous
// backups manager, which persists it), so a write checks it without
// reading the catalog. Thread-safe.

#ifndef DYNAROCK_ENGINE_BACKUP_PITR_LOG_H_
#define DYNAROCK_ENGINE_BACKUP_PITR_LOG_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "engine/data/write_path.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/util/mutex.h"

namespace dynarock {

class Clock;

class PitrLog : public ChangeHook {
 public:
  // `clock` (not owned) stamps the changes.
  explicit PitrLog(const Clock* clock) : clock_(clock) {}

  // Whether changes of `table_id` are logged.
  bool Logging(uint32_t table_id) const;
  void SetLogging(uint32_t table_id, bool on);

  // ChangeHook: adds the change of the item at `item_key` (a base-table
  // key) to `batch` when its table is logging: `new_value` is the encoded
  // new item, or null for a delete. A replicated change is logged as any.
  Status Stage(const TableInfo& table, std::string_view item_key, const std::string* new_value,
               const ReplicatedChange* replicated, WriteBatch* batch) override;

  // The log key of a change at `micros` of the item whose key without the
  // table id is `suffix`; [LogBegin(id), LogEnd(id, t)) holds every change
  // of the table up to and including micros t.
  static std::string LogKey(uint32_t table_id, int64_t micros, std::string_view suffix);
  static std::string LogBegin(uint32_t table_id);
  static std::string LogEnd(uint32_t table_id, int64_t micros_inclusive);
  // Splits a log entry. The Change views `key` and `value`: both must
  // outlive it. Errors: kCorruption.
  struct Change {
    int64_t micros = 0;
    std::string_view suffix;              // the item key without table id
    std::optional<std::string_view> value;  // nullopt: deleted
  };
  static Result<Change> ParseEntry(std::string_view key, std::string_view value);

 private:
  const Clock* const clock_;
  mutable SharedMutex mu_;
  std::set<uint32_t> logging_ GUARDED_BY(mu_);
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_BACKUP_PITR_LOG_H_
