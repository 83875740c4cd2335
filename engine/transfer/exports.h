// engine/transfer/exports.h
//
// Exports is DynamoDB's export to S3: ExportTableToPointInTime,
// DescribeExport and ListExports, on point-in-time recovery as DynamoDB
// has it (the table must have PITR on; ExportTime anywhere in its window).
//
// The items are the ones a RestoreTableToPointInTime to ExportTime would
// restore: ContinuousBackups::ItemsAtTime (the PITR base image merged with
// the PITR log), read on the transfer thread (engine/transfer/job_thread.h)
// and handed, encoded, to an ExportWriter (engine/transfer/transfer_files.h)
// that writes DynamoDB's export layout. The request takes a RocksDB
// snapshot, and the log is read at it: what the export holds is fixed when
// the request returns, and writes go on meanwhile, never waiting for it.
//
// Each export has a record in the meta column family ("E" ns "\0" arn),
// written IN_PROGRESS when requested and again when it ends. An export
// interrupted by a shutdown or a crash is still IN_PROGRESS when the
// database opens again, and runs again from the start (its snapshot is
// gone, but every change it could hold is in the log by then).
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_TRANSFER_EXPORTS_H_
#define DYNAROCK_ENGINE_TRANSFER_EXPORTS_H_

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "engine/backup/continuous_backups.h"
#include "engine/requests/export_requests.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/control/table_lifecycle.h"
#include "engine/transfer/job_thread.h"
#include "engine/transfer/transfer_files.h"
#include "engine/util/mutex.h"

namespace dynarock {

class Clock;

class Exports {
 public:
  // Loads every export record and queues the exports still IN_PROGRESS.
  // None of the pointers is owned; all must outlive this. `files` may be
  // null: exports then fail (FailureCode S3NoSuchBucket).
  // Errors: kCorruption, kIOError.
  static Result<std::unique_ptr<Exports>> Open(Store* store, const Clock* clock,
                                               TableLifecycle* tables,
                                               const ContinuousBackups* pitr,
                                               TransferFiles* files);
  // Stops the transfer thread (a running export stays IN_PROGRESS).
  ~Exports();

  // Starts an export; answers its description, IN_PROGRESS.
  // Errors: kTableNotFound, kPointInTimeRecoveryUnavailable,
  // kInvalidExportTime, kExportConflict (ClientToken reused with other
  // parameters), kValidation, storage errors.
  Result<ExportDescription> Export(const ExportTableToPointInTimeRequest& req);
  // Errors: kExportNotFound.
  Result<ExportDescription> Describe(const DescribeExportRequest& req);
  // The scope's exports (of one table if asked) in start order.
  // Errors: kValidation (a NextToken this did not give).
  Result<ListExportsResult> List(const ListExportsRequest& req);
  // Returns once every export started before the call has ended.
  void WaitIdle() { jobs_.WaitIdle(); }

 private:
  struct Record {
    std::string ns;
    uint32_t table_id = 0;
    // What makes a request with the same ClientToken the same request.
    std::string fingerprint;
    ExportDescription desc;
  };
  using Key = std::pair<std::string, std::string>;  // (ns, arn)

  Exports(Store* store, const Clock* clock, TableLifecycle* tables,
          const ContinuousBackups* pitr, TransferFiles* files)
      : store_(store), clock_(clock), tables_(tables), pitr_(pitr), files_(files) {}

  Status Persist(const Record& record);
  // Queues the export of `record`; `snapshot` null: read the log as it is.
  void Start(Record record, std::shared_ptr<const StoreSnapshot> snapshot);
  // Runs on the transfer thread. Returns the failure to record, or OK.
  Status Run(Record* record, std::shared_ptr<const StoreSnapshot> snapshot);

  Store* const store_;
  const Clock* const clock_;
  TableLifecycle* const tables_;
  const ContinuousBackups* const pitr_;
  TransferFiles* const files_;
  mutable Mutex mu_;
  std::map<Key, Record> exports_ GUARDED_BY(mu_);
  // Last: destroyed (stopped) first, while the rest is still there.
  JobThread jobs_;
};

// "Export not found: <arn>" (kExportNotFound).
Status ExportNotFound(const std::string& arn);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TRANSFER_EXPORTS_H_
