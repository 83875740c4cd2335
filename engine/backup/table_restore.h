// engine/backup/table_restore.h
//
// TableRestorer makes a new table from a stream of items: what
// RestoreTableFromBackup (items from a backup's SST file) and
// RestoreTableToPointInTime (a base image merged with the PITR log) share.
//
// The items are written with RocksDB's SstFileWriter under the new table's
// id and ingested with IngestExternalFile (no memtable, no WAL: a large
// table costs seconds); the indexes are built from the restored items as
// they stream by (GSI entries directly, not through the log, so the new
// table's indexes are complete when it appears), and the item count, size
// and LSI item-collection counters are written from the same pass. Only
// then is the table published, so nothing can read or write it half built.
//
// Thread-safe (each restore uses its own ids and files).

#ifndef DYNAROCK_ENGINE_BACKUP_TABLE_RESTORE_H_
#define DYNAROCK_ENGINE_BACKUP_TABLE_RESTORE_H_

#include <functional>
#include <string>
#include <string_view>

#include "engine/requests/backup_requests.h"
#include "engine/requests/scope.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/control/table_lifecycle.h"
#include "engine/types.h"

namespace dynarock {

class Clock;

// Called with each item: its storage key without the 4-byte table id, and
// its encoded value, in ascending key order.
using RestoreItemVisitor =
    std::function<Status(std::string_view suffix, std::string_view value)>;
// Visits every item to restore, in ascending key order.
using RestoreItemSource = std::function<Status(const RestoreItemVisitor&)>;

class TableRestorer {
 public:
  // None owned; all must outlive this.
  TableRestorer(Store* store, Catalog* catalog, TableLifecycle* tables,
                const Clock* clock)
      : store_(store), catalog_(catalog), tables_(tables), clock_(clock) {}

  // Whether `name` is free for a restore in `scope`.
  // Errors: kTableAlreadyExists ("Table already exists: <name>"),
  // kTableInUse (the table is being created or deleted).
  Status CheckTarget(const Scope& scope, const std::string& name);

  // The restored table's definition: `source`'s key schema, attribute
  // definitions, indexes, billing mode and throughput, under `target`'s
  // name and a new ARN and id, with `overrides` applied. As in DynamoDB,
  // the stream, Time to Live, tags and deletion protection are not
  // restored. Errors: kValidation (an override's key attribute missing from
  // the attribute definitions, a provisioned table without throughput).
  Result<TableInfo> Definition(const Scope& scope, const std::string& target,
                               const TableDescription& source,
                               const RestoreOverrides& overrides) const;

  // Builds the table `def` (from Definition) from `items` and publishes it.
  // Errors: kTableAlreadyExists (the name was taken meanwhile), the source's
  // errors, storage errors; nothing is left of the table on failure.
  Result<TableDescription> Restore(TableInfo def, const RestoreItemSource& items);

 private:
  Store* const store_;
  Catalog* const catalog_;
  TableLifecycle* const tables_;
  const Clock* const clock_;
};

// Copies every item of `table_id` at `snapshot` into the SST file `file`,
// keyed without the table id (RestoreItemSource's order), and counts them.
struct TableExport {
  int64_t items = 0;
  int64_t bytes = 0;  // DynamoDB item sizes
};
Result<TableExport> ExportTableItems(const Store& store, const StoreSnapshot& snapshot,
                                     uint32_t table_id, const std::string& file);

// The items of an SST file written by ExportTableItems (none when the file
// does not exist: a table without items).
RestoreItemSource ItemsOfFile(const Store* store, std::string file);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_BACKUP_TABLE_RESTORE_H_
