// engine/data/write_path.h
//
// The one way an item changes: under the item's lock, read the old item,
// let the caller compute the new one (or a deletion, or a refusal), then
// commit ONE WriteBatch holding the item, the table's counters and the
// item's index changes (LSI entries and GSI log records, from
// engine/index/index_writer.h), so a request takes effect whole or not at
// all.
//
// Metering: every staged item write is metered (engine/capacity/
// capacity_charge.h) before its batch is committed: the base table costs
// WriteUnits(max(old item size, new item size)) (1 unit for a missing
// item), each index whose entry changes costs its entry's units (a key
// change is a delete plus a put). A write refused by its condition
// (kConditionalCheckFailed) still costs the old item's size. Between
// staging and Store::Write the charge is complete: that is where the
// admission check is.
//
// Throughput (engine/capacity/throughput_controller.h), when a controller is
// attached: with throttling on, every staged write (a failed condition and
// a write that changes nothing included) is admitted with AdmitWrite before
// its batch is committed; a refused write returns the throttle and commits
// nothing (no item, counter, index entry, GSI log record or partition
// size). A throttle takes precedence over a failed condition: when the
// buckets are exhausted the condition's failure is not reported, as
// DynamoDB refuses a throttled request before evaluating it. With
// throttling off the same charge goes through Charge (never refused).
// After the commit, every item's base-table size change and every GSI
// entry's is recorded (RecordWrite) at its partition hash.

#ifndef DYNAROCK_ENGINE_DATA_WRITE_PATH_H_
#define DYNAROCK_ENGINE_DATA_WRITE_PATH_H_

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/capacity/capacity_charge.h"
#include "engine/capacity/throughput_controller.h"
#include "engine/index/index_writer.h"
#include "engine/options.h"
#include "engine/requests/write_returns.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/stream/stream_log.h"
#include "engine/data/item_locks.h"
#include "engine/data/item_size_cache.h"
#include "engine/types.h"

namespace dynarock {

class LaggingReplica;

// What a mutation decided: write `new_item`, delete the item (nullopt), or
// leave it untouched (`unchanged`).
struct ItemChange {
  std::optional<Item> new_item;
  bool unchanged = false;
  // Instead of new_item: an item the caller keeps alive until the write
  // returns (PutItem's request item), written without a copy.
  const Item* borrowed_new_item = nullptr;

  static ItemChange Borrowed(const Item& item) {
    ItemChange c;
    c.borrowed_new_item = &item;
    return c;
  }
  // The item to write, or null for a deletion.
  const Item* NewItem() const {
    if (borrowed_new_item != nullptr) return borrowed_new_item;
    return new_item ? &*new_item : nullptr;
  }
};

// Computes the change from the old item (nullopt when absent). Returning an
// error aborts the write with nothing changed.
using ItemMutation =
    std::function<Result<ItemChange>(const std::optional<Item>& old_item)>;

// A replicated change of a global table being applied (engine/
// replication/): its stamp and origin Region, and the key of the log
// record it comes from, which is deleted in the change's own batch.
struct ReplicatedChange {
  int64_t stamp_micros = 0;
  std::string origin_region;
  std::string log_key;
};

// Sees every item change WritePath stages, in the change's own WriteBatch:
// point-in-time recovery's log (engine/backup/pitr_log.h) and global
// tables' replication log (engine/replication/replication_log.h), which
// sit above this module.
class ChangeHook {
 public:
  virtual ~ChangeHook() = default;
  // Called under the item's lock for each staged change of an item of
  // `table`: `new_value` is the encoded new item, null for a delete;
  // `replicated` is set for a replicated apply's change, null for any
  // other write. An error aborts the write (nothing committed).
  virtual Status Stage(const TableInfo& table, std::string_view item_key,
                       const std::string* new_value, const ReplicatedChange* replicated,
                       WriteBatch* batch) = 0;
  // A replicated delete of an item the table does not hold: nothing
  // changes, but a hook that keeps item versions keeps the tombstone, so
  // that an older write cannot bring the item back. Default: nothing.
  virtual Status StageTombstone(const TableInfo& /*table*/, std::string_view /*item_key*/,
                                const ReplicatedChange& /*replicated*/,
                                WriteBatch* /*batch*/) {
    return Status::OK();
  }
};

// Multi-Region strong consistency (engine/replication/strong_replication.h):
// a write of a table in a strongly consistent global table writes every
// replica in its own WriteBatch, so that an acknowledged write is durable
// and visible in every Region at once. WritePath asks this which replicas,
// and whether the write may happen; ReadPath asks whether a strongly
// consistent read may. Above this module, hence an interface.
class SynchronousReplicas {
 public:
  virtual ~SynchronousReplicas() = default;
  // False when no table has replicas to write: writes skip the rest.
  virtual bool Active() const = 0;
  // The other replicas of `table` (kept alive by the result), none when
  // `table` is no member of a strongly consistent global table. An error
  // refuses the write before anything is read (the table's Region cannot
  // reach a majority of the global table's Regions).
  virtual Result<std::vector<std::shared_ptr<const TableInfo>>> Replicas(
      const TableInfo& table) = 0;
  // Under the item's locks, before the write is staged: an error
  // (kReplicatedWriteConflict) refuses it, costing nothing.
  virtual Status CheckConflict(const TableInfo& table, std::string_view item_key) = 0;
  // The write of the item committed (in every replica).
  virtual void Written(const TableInfo& table, std::string_view item_key) = 0;
  // Whether a strongly consistent read of `table` is served.
  virtual Status CheckStrongRead(const TableInfo& table) const = 0;
};

// How ApplyMany runs.
struct ApplyManyOptions {
  // TransactWriteItems: every write is staged and admitted, and any write
  // that fails (its mutation's error, its index changes' error, a
  // throttle) fails the whole call with nothing written; `statuses` (not
  // owned, required) receives one Status per write, OK for those that
  // would have passed. The caller holds the items' marks (ItemLocks::
  // TryMark), so marks are not conflicts here. The writes are admitted as
  // one request (every bucket checked, then all charged); a cancelled call
  // charges nothing.
  bool transactional = false;
  // Every write's units (client view and charge) are multiplied by it
  // before admission: 2 for transactions.
  double unit_factor = 1;
  std::vector<Status>* statuses = nullptr;
};

class WritePath {
 public:
  // `indexes` (not owned) maintains secondary indexes; null: none.
  // `known_items` bounds what is remembered of items' existence and size
  // (ItemSizeCache; EngineOptions::item_size_cache_entries; 0: nothing,
  // every write reads its old item).
  WritePath(Store* store, ItemLocks* locks, IndexWriter* indexes = nullptr,
            size_t known_items = kDefaultItemSizeCacheEntries)
      : store_(store), locks_(locks), indexes_(indexes), known_(known_items) {}

  // Attaches the throughput controller every write is charged to (not
  // owned; null: none) and the throttling switch it reads on every write
  // (not owned). Call before any write.
  void SetThroughput(ThroughputController* throughput,
                     const std::atomic<bool>* throttling) {
    throughput_ = throughput;
    throttling_ = throttling;
  }

  // Attaches the stream log (not owned; null: no streams). With it, every
  // item change of a table whose stream is enabled adds one stream record
  // to the change's own WriteBatch (none when the item did not change).
  void SetStreams(StreamLog* streams) { streams_ = streams; }
  // Attaches the replica that eventually consistent reads may lag behind
  // (not owned; null: none): told before every commit.
  void SetLaggingReplica(LaggingReplica* replica) { replica_ = replica; }
  // Adds a hook that sees every staged change, after those added before
  // (not owned). Call before any write.
  void AddChangeHook(ChangeHook* hook) { hooks_.push_back(hook); }
  // Attaches multi-Region strong consistency (not owned; null: none): a
  // write of a member table (Apply, Put, ApplyMany outside transactions)
  // also writes the item in every other replica, in the same batch, each
  // metered and admitted on its own table's partitions (a throttle of any
  // fails the write whole; in ApplyMany, the whole call); the caller's
  // Metering is its own table's. Call before any write.
  void SetSynchronousReplicas(SynchronousReplicas* sync) { sync_ = sync; }

  // Applies `mutation` to the item stored at `item_key` of `table`.
  // Returns the old item (nullopt when there was none). When `metering` is
  // not null it receives what the write consumed: on success, and on
  // kConditionalCheckFailed (the old item's size); it is left empty on any
  // other error. An item a transaction is writing (ItemLocks::IsMarked) is
  // refused with kTransactionConflict "Transaction is ongoing for the item",
  // costing nothing. `user_identity` marks the change's stream record (TTL
  // deletions: {Service, dynamodb.amazonaws.com}); none for clients.
  Result<std::optional<Item>> Apply(
      const TableInfo& table, const std::string& item_key,
      const ItemMutation& mutation, Metering* metering = nullptr,
      const std::optional<StreamUserIdentity>& user_identity = std::nullopt);

  // An unconditional put of `new_item` (PutItem without a condition or
  // ReturnValues ALL_OLD): as Apply with a mutation that ignores the old
  // item, but the old item is read only when the table's indexes or its
  // stream need it; otherwise its existence and size are what the last
  // write or read of it left in the ItemSizeCache, or come from the stored
  // bytes (not decoded). `new_item` must outlive the call.
  Status Put(const TableInfo& table, const std::string& item_key,
             const Item& new_item, Metering* metering = nullptr);

  // A write the service makes on its own behalf (Time to Live deletes):
  // applied exactly as Apply (same lock, batch, counters, index changes and
  // partition sizes), but charged to no capacity: never throttled, and no
  // unit reaches the throughput controller (DynamoDB's TTL deletes are
  // free). Its stream record carries the service's identity, {Type:
  // Service, PrincipalId: dynamodb.amazonaws.com}. Returns the old item.
  Result<std::optional<Item>> ApplyAsService(const TableInfo& table,
                                             const std::string& item_key,
                                             const ItemMutation& mutation);

  // A replicated change of a global table (engine/replication/): applied
  // as Apply (same lock, batch, counters, index changes, stream record,
  // metering and throttling on the target table's partitions), with the
  // hook told `replicated`; its log record is deleted in the same batch,
  // also when the mutation leaves the item unchanged (a change that lost
  // last-writer-wins). A throttle commits nothing: the record stays.
  Result<std::optional<Item>> ApplyReplicated(const TableInfo& table,
                                              const std::string& item_key,
                                              const ItemMutation& mutation,
                                              const ReplicatedChange& replicated,
                                              Metering* metering = nullptr);

  // One item of a multi-item write.
  struct ItemWrite {
    const TableInfo* table;  // not owned
    std::string item_key;
    ItemMutation mutation;
  };


  // Applies every mutation in ONE WriteBatch: all take effect or none does.
  // Locks are taken in a fixed order (by stripe), so concurrent multi-item
  // writes cannot deadlock. REQUIRES: no two writes name the same item.
  // Returns the old items, in the order of `writes`. When `metering` is not
  // null it receives one Metering per write, in the order of `writes` (on
  // error: those staged before the failure, and the failed write's when its
  // condition failed; in transactional mode: one per write, empty for a
  // write that failed otherwise).
  //
  // With throttling on, writes are admitted one by one in order. Without
  // `throttled`, the first refused write fails the call (nothing written;
  // the writes admitted before it stay charged). With `throttled`, it
  // receives one flag per write: the refused writes are left out (their
  // old item is nullopt, their Metering is what they would have cost) and
  // the others are committed together; the call fails with the first
  // throttle only when every write was refused. Outside transactional mode
  // an item a transaction holds is refused like a throttled write
  // (kTransactionConflict; with `throttled` it is left out, costing
  // nothing).
  Result<std::vector<std::optional<Item>>> ApplyMany(
      const std::vector<ItemWrite>& writes,
      std::vector<Metering>* metering = nullptr,
      std::vector<bool>* throttled = nullptr,
      const ApplyManyOptions& options = ApplyManyOptions());

 private:
  // Reads the old item, runs the mutation and adds the change (item,
  // counters, index changes) to `batch`; `stats` collects the in-memory
  // counter deltas; `metering` receives the write's units, as Apply
  // describes. REQUIRES: metering != nullptr.
  struct StatsDelta {
    const TableInfo* table;
    int64_t items;
    int64_t bytes;
    uint64_t hash;  // the item's partition hash
    std::vector<PartitionSizeDelta> gsi_sizes;
    // The item once the batch commits, for the ItemSizeCache, and the
    // store's ItemsBulkGeneration read before the write was staged.
    std::string_view item_key;  // the caller's, alive until the write returns
    ItemSizeCache::Known after;
    uint64_t generation;
    // Whether the table's items are remembered (no index, no stream); if
    // not, what was remembered of the item is forgotten.
    bool remember;
  };
  Result<std::optional<Item>> Stage(const TableInfo& table,
                                    const std::string& item_key,
                                    const ItemMutation& mutation,
                                    IndexWriter::Txn* txn, WriteBatch* batch,
                                    std::vector<StatsDelta>* stats,
                                    Metering* metering,
                                    std::vector<PendingStreamRecord>* records,
                                    const std::optional<StreamUserIdentity>& user_identity,
                                    bool mutation_reads_old = true,
                                    const ReplicatedChange* replicated = nullptr);
  // The item before a staged write: read from the store, or only its size
  // and existence when that is all the write needs and it is remembered.
  struct Before {
    std::optional<StreamViewType> stream_view;  // set when the change has a record
    bool rememberable = false;  // the table's items are remembered (StatsDelta)
    uint64_t generation = 0;    // the store's ItemsBulkGeneration before the read
    std::optional<std::string> bytes;  // kept: a stream record's old image
    std::optional<Item> item;          // decoded unless only the size matters
    int64_t size = 0;
    bool exists = false;
  };
  Result<Before> ReadBefore(const TableInfo& table, const std::string& item_key,
                            IndexWriter::Txn* txn, bool mutation_reads_old);
  // Stage's second half: the new item (or its deletion), its PITR and
  // stream records and its counters, added to `batch` and `stats`.
  Status StageAfter(const TableInfo& table, const std::string& item_key,
                    const Before& before, const Item* new_item, int64_t new_size,
                    std::vector<PartitionSizeDelta> gsi_sizes, const Metering& m,
                    WriteBatch* batch, std::vector<StatsDelta>* stats,
                    std::vector<PendingStreamRecord>* records,
                    const std::optional<StreamUserIdentity>& user_identity,
                    const ReplicatedChange* replicated);
  // Store::Write, through the stream log when there are stream records.
  Status Commit(WriteBatch* batch, const std::vector<PendingStreamRecord>& records);
  // Apply, charged (a client's write) or not (ApplyAsService).
  Result<std::optional<Item>> ApplyOne(
      const TableInfo& table, const std::string& item_key,
      const ItemMutation& mutation, Metering* metering, bool charged,
      const std::optional<StreamUserIdentity>& user_identity,
      bool mutation_reads_old = true, const ReplicatedChange* replicated = nullptr);
  bool throttling() const {
    return throughput_ != nullptr && throttling_ != nullptr &&
           throttling_->load(std::memory_order_relaxed);
  }
  // Charges a staged write: AdmitWrite with throttling on (the throttle is
  // returned), Charge otherwise (after the commit).
  Status Admit(const CapacityCharge& charge);
  void ChargeUnthrottled(const CapacityCharge& charge);
  // Mirrors committed counter and partition-size changes, and remembers the
  // items' new states. REQUIRES: the items' stripes are locked.
  void Committed(const std::vector<StatsDelta>& stats);
  // A batch that failed to commit: what was remembered of its items is
  // dropped. REQUIRES: the items' stripes are locked.
  void NotCommitted(const std::vector<StatsDelta>& stats);
  // A write of a member of a strongly consistent global table: the item
  // in `table` and in each of `replicas`, in one batch (ApplyManyLocal).
  Result<std::optional<Item>> ApplyStrong(
      const TableInfo& table, const std::string& item_key, const ItemMutation& mutation,
      Metering* metering, const std::vector<std::shared_ptr<const TableInfo>>& replicas);
  // ApplyMany with the writes of strongly consistent tables' items
  // extended to their replicas (nullopt: none is such a write).
  Result<std::optional<std::vector<std::optional<Item>>>> ApplyManyStrong(
      const std::vector<ItemWrite>& writes, std::vector<Metering>* metering,
      std::vector<bool>* throttled, const ApplyManyOptions& options);
  // ApplyMany as documented, without replicas.
  Result<std::vector<std::optional<Item>>> ApplyManyLocal(
      const std::vector<ItemWrite>& writes, std::vector<Metering>* metering,
      std::vector<bool>* throttled, const ApplyManyOptions& options);
  // ApplyMany's transactional mode. REQUIRES: the stripes are locked.
  Result<std::vector<std::optional<Item>>> ApplyTransactional(
      const std::vector<ItemWrite>& writes, std::vector<Metering>* metering,
      const ApplyManyOptions& options);

  // ApplyMany's steps (non-transactional). REQUIRES: the stripes are locked.
  // One WriteBatch being built: the index changes, the batch, the counter
  // deltas and the stream records of the writes staged so far.
  struct StagedBatch {
    explicit StagedBatch(IndexWriter* indexes)
        : txn(std::in_place, indexes), batch(std::in_place) {}
    // Forgets everything staged (a restage starts over).
    void Reset(IndexWriter* indexes);
    std::optional<IndexWriter::Txn> txn;
    std::optional<WriteBatch> batch;  // optional: a WriteBatch is not assignable
    std::vector<StatsDelta> stats;
    std::vector<PendingStreamRecord> records;
  };
  // Marks `skipped` the writes whose items a transaction holds (each
  // refused, as throttled, when `throttled` is given). Returns how many;
  // kTransactionConflict when there is no `throttled` to report them in, or
  // when every write is held.
  Result<size_t> SkipHeldItems(const std::vector<ItemWrite>& writes,
                               std::vector<bool>* throttled, std::vector<bool>* skipped);
  // Stages every write not skipped, metering each into `staged` (one entry
  // per write; skipped ones empty). A failed condition is charged as
  // Apply's (with throttling on, a throttle is returned first) and ends
  // the batch with its error.
  Status StageAll(const std::vector<ItemWrite>& writes, const std::vector<bool>& skipped,
                  const ApplyManyOptions& options, bool throttle, StagedBatch* staged_batch,
                  std::vector<std::optional<Item>>* old_items, std::vector<Metering>* staged);
  // With throttling on, admits the staged writes in request order, marking
  // the refused ones in `throttled`. Returns how many were admitted; the
  // first throttle when none was (or when `throttled` is null).
  Result<size_t> AdmitStaged(const std::vector<ItemWrite>& writes,
                             const std::vector<bool>& skipped,
                             const std::vector<Metering>& staged, std::vector<bool>* throttled);
  // Stages the writes not in `throttled` again, alone: the refused ones
  // leave no trace. The items are still locked, so they stage as before.
  Status Restage(const std::vector<ItemWrite>& writes, const std::vector<bool>& throttled,
                 StagedBatch* staged_batch, std::vector<std::optional<Item>>* old_items);

  Store* store_;
  ItemLocks* locks_;
  IndexWriter* indexes_;
  ItemSizeCache known_;
  StreamLog* streams_ = nullptr;
  LaggingReplica* replica_ = nullptr;
  std::vector<ChangeHook*> hooks_;
  SynchronousReplicas* sync_ = nullptr;
  ThroughputController* throughput_ = nullptr;
  const std::atomic<bool>* throttling_ = nullptr;
};

// ReturnItemCollectionMetrics = SIZE: the item collection of partition key
// `pk` after a write, reported for tables with LSIs only, as DynamoDB does;
// nullopt otherwise.
Result<std::optional<ItemCollectionMetrics>> CollectionMetrics(
    const IndexWriter& writer, const TableInfo& table,
    ReturnItemCollectionMetrics what, const AttributeValue& pk);

// kTransactionConflict "Transaction is ongoing for the item".
Status TransactionConflict();

// Reads and decodes the item at `item_key`; nullopt when absent.
Result<std::optional<Item>> ReadItem(const StoreReader& store,
                                     const std::string& item_key);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_DATA_WRITE_PATH_H_
