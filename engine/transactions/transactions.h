// engine/transactions/transactions.h
//
// The transaction coordinator: TransactWriteItems and TransactGetItems with
// DynamoDB's semantics, cost and conflicts.
//
// TransactWriteItems, in order:
//   1. the request is checked whole (1..100 actions, 4 MB of items, each
//      action's expressions as its single-item operation checks them, the
//      tables, no two actions on one item): a failure is a plain
//      ValidationException / ResourceNotFoundException;
//   2. a ClientRequestToken seen in the last 10 minutes replays the first
//      result (engine/transactions/idempotency_cache.h);
//   3. every item is marked (ItemLocks::TryMark) for the transaction's
//      duration: an item another transaction holds cancels it
//      (TransactionConflict), and single-item writes on a marked item are
//      refused (TransactionConflictException) until it is unmarked;
//   4. WritePath::ApplyMany in its transactional mode evaluates every
//      condition against the items as stored and stages every change
//      (items, LSI entries, GSI log records, counters) into ONE WriteBatch,
//      metered at twice the plain units and admitted per item partition;
//      any failure writes nothing.
// A cancelled transaction is kTransactionCanceled with one
// CancellationReason per action, in action order (Code None for actions
// that would have passed).
//
// TransactGetItems reads every item at one Store snapshot, after checking
// that no transaction holds any of them and admitting each read; each item
// costs 2 x its strongly consistent read units.
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_TRANSACTIONS_TRANSACTIONS_H_
#define DYNAROCK_ENGINE_TRANSACTIONS_TRANSACTIONS_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "engine/capacity/throughput_controller.h"
#include "engine/clock.h"
#include "engine/index/index_writer.h"
#include "engine/requests/transaction_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/transactions/idempotency_cache.h"
#include "engine/data/item_locks.h"
#include "engine/data/read_path.h"
#include "engine/data/write_path.h"

namespace dynarock {

// DynamoDB's limits on one transaction.
inline constexpr size_t kMaxTransactionActions = 100;
inline constexpr int64_t kMaxTransactionBytes = int64_t{4} << 20;
// Transactions cost twice the units of the same plain reads and writes.
inline constexpr double kTransactionUnitFactor = 2;

class TransactionCoordinator {
 public:
  // Finds a table for a data-plane call (ACTIVE, or ResourceNotFound).
  using TableLookup =
      std::function<Result<std::shared_ptr<const TableInfo>>(std::string_view)>;

  // None of the pointers is owned; all outlive the coordinator.
  TransactionCoordinator(Store* store, ItemLocks* locks, WritePath* writes,
                         ReadPath* reads, const IndexWriter* indexes,
                         ThroughputController* throughput, const Clock* clock)
      : store_(store),
        locks_(locks),
        writes_(writes),
        reads_(reads),
        indexes_(indexes),
        throughput_(throughput),
        idempotency_(clock) {}

  // See the file comment. Errors: kValidation, kResourceNotFound,
  // kTransactionCanceled, kIdempotentParameterMismatch,
  // kTransactionInProgress, storage errors.
  Result<TransactWriteItemsResult> Write(const TransactWriteItemsRequest& req,
                                         const TableLookup& lookup);
  // Errors: kValidation, kResourceNotFound, kTransactionCanceled, storage
  // errors.
  Result<TransactGetItemsResult> Get(const TransactGetItemsRequest& req,
                                     const TableLookup& lookup);

  IdempotencyCache* TEST_idempotency() { return &idempotency_; }

 private:
  // A repeat of a completed request: reads its items (no write) and
  // reports their read units.
  Result<TransactWriteItemsResult> Replay(IdempotencyCache::Completed completed,
                                          const TableLookup& lookup);

  Store* store_;
  ItemLocks* locks_;
  WritePath* writes_;
  ReadPath* reads_;
  const IndexWriter* indexes_;
  ThroughputController* throughput_;
  IdempotencyCache idempotency_;
};

// A fingerprint of everything that makes two TransactWriteItems requests
// the same request (actions, token-independent): equal for equal requests.
std::string TransactWriteFingerprint(const TransactWriteItemsRequest& req);

// The CancellationReason a failed action's Status stands for; nullopt for
// a status that is not an action's failure (storage errors).
std::optional<CancellationReason> ReasonFor(const Status& status);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TRANSACTIONS_TRANSACTIONS_H_
