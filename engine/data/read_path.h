// engine/data/read_path.h
//
// The one way items are read, as WritePath (write_path.h) is the one way
// they change. Every read is admitted before it happens: with throttling
// on, a table or partition with no capacity left refuses it (counting one
// item's minimum as throttled). Then it is read from the store, metered by
// DynamoDB's rules (read_metering.h) and charged to the throughput
// controller, so the next read's admission sees it. GetItem (one item),
// Query and Scan (one page) and BatchGetItem (many items) all read here.
//
// A count_only page (Select COUNT without a filter) that was read before
// with nothing written since is answered from the PageMemo (page_memo.h)
// instead of the store; it is admitted, metered and charged all the same.
//
// Thread-safe; reads see the latest committed writes.

#ifndef DYNAROCK_ENGINE_DATA_READ_PATH_H_
#define DYNAROCK_ENGINE_DATA_READ_PATH_H_

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/capacity/capacity_charge.h"
#include "engine/capacity/throughput_controller.h"
#include "engine/requests/batch_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/lagging_replica.h"
#include "engine/storage/store.h"
#include "engine/plan/batch_requests.h"
#include "engine/pages/page_memo.h"
#include "engine/pages/query_scan.h"
#include "engine/pages/read_metering.h"
#include "engine/types.h"

namespace dynarock {

class SynchronousReplicas;  // engine/data/write_path.h

class ReadPath {
 public:
  // None of the pointers is owned. `throttling` is the switch read on every
  // read.
  // `replica` (null: none) is what an eventually consistent read of a
  // table or an LSI reads when it lags (EngineOptions::
  // eventual_read_lag_micros); strong reads and GSI reads never use it (a
  // GSI lags by its own propagation).
  ReadPath(const Store* store, ThroughputController* throughput,
           const std::atomic<bool>* throttling, LaggingReplica* replica = nullptr)
      : store_(store), throughput_(throughput), throttling_(throttling),
        replica_(replica) {}

  // With throttling on, refuses a read of `index` (null: the table) at
  // partition hash `hash` whose table or partition has no capacity left
  // (kProvisionedThroughputExceeded / kThrottling with DynamoDB's reasons).
  Status Admit(const TableInfo& table, const IndexInfo* index, uint64_t hash,
               bool consistent_read) const;

  // Admits and reads the item at `item_key`: its stored encoding
  // (engine/value/item_codec.h), nullopt when absent. The whole item is
  // metered into `metering` and charged.
  Result<std::optional<std::string>> GetItem(const TableInfo& table,
                                             const std::string& item_key,
                                             bool consistent_read,
                                             Metering* metering);

  // Admits (at the partition where the page starts), reads (or, for a
  // count_only page, finds it in the memo), meters and charges one Query or
  // Scan page.
  Result<Page> ReadPage(const TableInfo& table, const PageRequest& request,
                        PageKind kind, bool consistent_read,
                        Metering* metering);

  // Reads the keys of a BatchGetItem whose tables (`tables`) and storage
  // keys (`item_keys`, per table in request order) are resolved. Each key
  // is admitted, metered on its own and charged before the next; throttled
  // keys, and every key after the response reached 16 MB, come back as
  // UnprocessedKeys. Fails with the first throttle only when no key was
  // read.
  Result<BatchGetItemResult> BatchGet(
      const BatchGetItemRequest& req,
      const std::vector<std::shared_ptr<const TableInfo>>& tables,
      const std::vector<std::vector<std::string>>& item_keys,
      const PreparedBatchGet& projections);

  // Attaches multi-Region strong consistency (not owned; null: none): a
  // strongly consistent read of a member table in a Region cut off from
  // the majority of its global table's Regions is refused (at admission);
  // eventually consistent reads are served. Call before any read.
  void SetSynchronousReplicas(const SynchronousReplicas* sync) { sync_ = sync; }

  // The count_only pages answered without reading (tests).
  const PageMemo& page_memo() const { return page_memo_; }

 private:
  bool throttling() const {
    return throttling_ != nullptr && throttling_->load(std::memory_order_relaxed);
  }

  // What a read sees: the replica's view for an eventually consistent one
  // when the replica lags (held in `*view` while reading), else the latest
  // state.
  const StoreReader& ReaderFor(bool consistent_read,
                               std::shared_ptr<const StoreSnapshot>* view) const;

  const Store* store_;
  ThroughputController* throughput_;
  const std::atomic<bool>* throttling_;
  LaggingReplica* replica_;
  const SynchronousReplicas* sync_ = nullptr;
  PageMemo page_memo_;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_DATA_READ_PATH_H_
