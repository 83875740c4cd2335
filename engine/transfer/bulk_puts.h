// engine/transfer/bulk_puts.h
//
// BulkPuts is DynamoDB's bulk put items (StartBulkPutItems,
// DescribeBulkOperation, ListBulkOperations, CancelBulkOperation): an
// asynchronous job that reads items from S3 objects (DynamoDB JSON or Ion
// records, each optionally with a ConditionExpression) and puts them into an
// existing table.
//
// Unlike ImportTable, which builds a new table outside the physical model,
// a bulk job writes THROUGH it: every record is a PutItem of the write path
// (conditions, indexes, streams, PITR, item counters), metered, admitted by
// the partitions' token buckets and shown in the capacity statistics. The
// job is paced on the engine's clock by its own budget (MaxWriteRequestUnits
// per second, or the performance tier's rate) and by the partitions: a
// record its partition refuses waits there, so input sorted by partition key
// makes a rolling hot partition and takes longer, as DynamoDB's guide warns
// ("Distribute writes evenly across the key space").
//
// The job moves in RunDue (part of the engine's due work, so it follows a
// simulated clock step by step as the GSI propagation does): each call
// writes what the budget and the partitions allow at the clock's time.
// Records that are not items, fail validation or name wrong key types count
// in FailedItemCount (COMPLETED_WITH_ERRORS); records whose condition is
// false are counted apart (the job still COMPLETES); both are reported to
// the output bucket when its OutputType asks for them. Items already
// written stay written whatever the job's end (DynamoDB's semantics).
//
// Records ("U" ns "\0" arn in the meta column family) hold each operation
// and its progress checkpoint (object, record, counters), written at most
// once a second of the clock and at every end. An operation interrupted by
// a shutdown or crash resumes after the open from its last checkpoint: the
// records after it are put again (idempotent for unconditional puts), and
// the counters continue from the checkpoint, so no record is counted twice.
//
// Memory. A job never holds an input object: it reads each object twice
// through TransferFiles::OpenBulkObject's reader -- a validation pass that
// keeps nothing but the count of records (an object that stops, even by a
// damaged end, writes none of its records), then the put pass, which pulls
// one record at a time. A running job holds its object listing (at most
// BulkPutOptions::max_input_objects keys), one reader (for DYNAMODB_JSON
// input its decompression buffers and the longest line; an ION object's
// decompressed text), the record being put, and the report entries of at
// most a second (they are written with each checkpoint). None of it grows
// with the number of records of an object or of the job.
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_TRANSFER_BULK_PUTS_H_
#define DYNAROCK_ENGINE_TRANSFER_BULK_PUTS_H_

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/requests/bulk_requests.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/control/table_lifecycle.h"
#include "engine/data/write_path.h"
#include "engine/transfer/transfer_files.h"
#include "engine/util/mutex.h"

namespace dynarock {

class Clock;

// Quotas and rates of bulk operations (DynamoDB's where published; see
// docs/bulk-put-items.md for which are dynarock's choices).
struct BulkPutOptions {
  // The job's rate when MaxWriteRequestUnits is not given, by tier.
  int64_t standard_write_units = 10'000;
  int64_t accelerated_write_units = 40'000;
  // Operations IN_PROGRESS or CANCELLING at once, per account and Region.
  size_t max_active_operations = 10;
  // ... and per table.
  size_t max_active_per_table = 1;
  // Input limits: objects per operation and bytes per object.
  size_t max_input_objects = 50'000;
  int64_t max_object_bytes = int64_t{5} << 30;
  // How long a refused record waits before it is tried again.
  int64_t throttle_backoff_micros = 50'000;
  // Wall time one step of the due work spends on a job's records before it
  // returns (the job goes on at the next due work): a step may run inside a
  // client's request, which must not wait behind a whole unpaced job. At
  // least one record is put per step; 0 puts exactly one.
  int64_t step_slice_micros = 50'000;
  // A ClientToken is remembered this long.
  int64_t client_token_micros = int64_t{8} * 3600 * 1'000'000;
};

class BulkPuts {
 public:
  // Loads every operation record; those IN_PROGRESS or CANCELLING go on
  // from their checkpoint. None of the pointers is owned; all must outlive
  // this. `files` may be null: operations then fail (S3NoSuchBucket).
  // Errors: kCorruption, kIOError.
  static Result<std::unique_ptr<BulkPuts>> Open(Store* store, const Clock* clock,
                                                TableLifecycle* tables, WritePath* writes,
                                                TransferFiles* files,
                                                BulkPutOptions options = BulkPutOptions());
  ~BulkPuts();

  // Errors: kResourceNotFound (no such table, or not ACTIVE), kResourceInUse
  // (the table is creating an index), kValidation (MaxWriteRequestUnits
  // below 1,024; OutputType; SSE settings), kIdempotentParameterMismatch,
  // kLimitExceeded (too many operations running).
  Result<BulkOperationDescription> Start(const StartBulkPutItemsRequest& req);
  // Errors: kValidation (not a bulk operation ARN), kResourceNotFound.
  Result<BulkOperationDescription> Describe(const DescribeBulkOperationRequest& req);
  // Errors: kValidation (a NextToken this did not give).
  Result<ListBulkOperationsResult> List(const ListBulkOperationsRequest& req);
  // IN_PROGRESS -> CANCELLING; the next RunDue ends it CANCELLED. Errors:
  // kResourceNotFound, kValidation (the operation has ended).
  Result<BulkOperationDescription> Cancel(const CancelBulkOperationRequest& req);

  // Moves every running operation as far as the clock, the budgets and the
  // partitions allow, or for a slice of wall time
  // (BulkPutOptions::step_slice_micros). Cheap when none runs; a call made
  // while another is moving returns at once. True when a step ended with its
  // slice (not its budget) and the operation still runs: its next step is
  // due at once.
  bool RunDue();
  // True while an operation is IN_PROGRESS or CANCELLING.
  bool Busy() const { return active_.load(std::memory_order_acquire) > 0; }

 private:
  struct Job;
  using Key = std::pair<std::string, std::string>;  // (ns, arn)

  BulkPuts(Store* store, const Clock* clock, TableLifecycle* tables, WritePath* writes,
           TransferFiles* files, BulkPutOptions options);

  Status Persist(const Job& job);
  // One operation's step at `now`; true when it progressed.
  bool Step(Job* job, int64_t now);
  // Opens the job's next object: its validation pass, then its put pass
  // from the checkpoint's record. False when no object is left.
  bool LoadObject(Job* job);
  // Counts and reports the current object as one that stops with `why`.
  void StopObject(Job* job, const Status& why);
  // Puts the job's next record; false when the job must wait.
  bool PutNext(Job* job, int64_t now);
  void Finish(Job* job, BulkOperationStatus status, int64_t now,
              std::optional<std::string> code = std::nullopt,
              std::optional<std::string> message = std::nullopt);
  void FlushReport(Job* job);

  Store* const store_;
  const Clock* const clock_;
  TableLifecycle* const tables_;
  WritePath* const writes_;
  TransferFiles* const files_;
  const BulkPutOptions options_;
  mutable Mutex mu_;  // guards jobs_' descriptions (what requests see)
  std::map<Key, std::unique_ptr<Job>> jobs_ GUARDED_BY(mu_);
  Mutex step_mu_;  // one RunDue at a time
  std::atomic<int> active_{0};
};

// "Bulk operation not found: <arn>" (kResourceNotFound).
Status BulkOperationNotFound(const std::string& arn);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TRANSFER_BULK_PUTS_H_
