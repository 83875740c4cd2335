// engine/transfer/imports.h
//
// Imports is DynamoDB's import from S3: ImportTable, DescribeImport and
// ListImports. ImportTable checks the request and the new table's
// definition (TableCreationParameters, CreateTable's rules) and answers at
// once, IN_PROGRESS; the job, on the transfer thread, reads every record
// of the files through TransferFiles::ReadImport, checks each item as a
// PutItem would (values, 400 KB, key attributes and their types, index key
// types) -- a record that fails is counted in ErrorCount and left out, as
// DynamoDB does -- keeps the last item of each key, and builds the table
// with the TableRestorer a backup restore uses (items ingested as one SST
// file, indexes and counters built in the same pass). The table appears
// when the job ends, CREATING for a new table's create delay from the
// import's start; the import is COMPLETED once its table is ACTIVE.
//
// Memory. The restorer needs the items in key order, the last record of a
// key winning: the checked items go through SortedRuns
// (engine/transfer/sorted_runs.h), which keeps at most `sort_budget_bytes`
// of them in memory and writes each full budget as a sorted run file under
// <database>/import-runs/<import id>/; the table is built from a merge of
// the runs, and the runs are removed. An import under the budget writes no
// file. Reading the input holds a DynamoDB JSON file a line at a time, a
// CSV or Ion file whole (api/transfer/import_files.h). So an import's
// memory is the budget, the run readers of the merge, and the restorer's
// (one SST writer, index entries in batches of 1,000 items) -- not its
// item count.
//
// Records ("I" ns "\0" arn in the meta column family) make imports survive
// restarts; one interrupted by a shutdown or crash runs again from the
// start when the database opens, which first removes what runs such an
// import left.
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_TRANSFER_IMPORTS_H_
#define DYNAROCK_ENGINE_TRANSFER_IMPORTS_H_

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "engine/backup/table_restore.h"
#include "engine/requests/import_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/control/table_lifecycle.h"
#include "engine/transfer/job_thread.h"
#include "engine/transfer/transfer_files.h"
#include "engine/util/mutex.h"

namespace dynarock {

class Clock;

class Imports {
 public:
  // Loads every import record and queues those still IN_PROGRESS. None of
  // the pointers is owned; all must outlive this. `files` may be null:
  // imports then fail (S3NoSuchBucket). Errors: kCorruption, kIOError.
  static Result<std::unique_ptr<Imports>> Open(Store* store, const Clock* clock,
                                               TableLifecycle* tables,
                                               TableRestorer* restorer,
                                               TransferFiles* files,
                                               size_t sort_budget_bytes = size_t{64} << 20);
  // Stops the import thread (a running import stays IN_PROGRESS).
  ~Imports();

  // Errors: kValidation (the table's definition, as CreateTable), kResourceInUse
  // (the table exists, or an import is creating it), kImportConflict.
  Result<ImportTableDescription> Import(const ImportTableRequest& req);
  // Errors: kImportNotFound.
  Result<ImportTableDescription> Describe(const DescribeImportRequest& req);
  // Errors: kValidation (a NextToken this did not give).
  Result<ListImportsResult> List(const ListImportsRequest& req);
  // Returns once every import started before the call has ended.
  void WaitIdle() { jobs_.WaitIdle(); }

 private:
  struct Record {
    std::string ns;
    std::string fingerprint;  // what makes a ClientToken's request the same
    TableInfo def;            // the table to create
    ImportTableDescription desc;
  };
  using Key = std::pair<std::string, std::string>;  // (ns, arn)

  Imports(Store* store, const Clock* clock, TableLifecycle* tables, TableRestorer* restorer,
          TransferFiles* files, size_t sort_budget_bytes)
      : store_(store),
        clock_(clock),
        tables_(tables),
        restorer_(restorer),
        files_(files),
        sort_budget_bytes_(sort_budget_bytes) {}

  // `d` as a client sees it at `now`: an import that built its table
  // (COMPLETED, or FAILED with ItemValidationError) whose table is still
  // CREATING is IN_PROGRESS, without an end time or failure.
  static ImportTableDescription AsOf(const ImportTableDescription& d, int64_t now);
  Status Persist(const Record& record);
  void Start(Record record);
  Status Run(Record* record);

  Store* const store_;
  const Clock* const clock_;
  TableLifecycle* const tables_;
  TableRestorer* const restorer_;
  TransferFiles* const files_;
  const size_t sort_budget_bytes_;
  mutable Mutex mu_;
  std::map<Key, Record> imports_ GUARDED_BY(mu_);
  // Last: destroyed (stopped) first, while the rest is still there.
  JobThread jobs_;
};

// "Import not found: <arn>" (kImportNotFound).
Status ImportNotFound(const std::string& arn);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TRANSFER_IMPORTS_H_
