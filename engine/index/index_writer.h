// engine/index/index_writer.h
//
// IndexWriter adds a base write's index changes to the write's own
// WriteBatch (engine/data/write_path.h calls it from WritePath::Stage):
//
//   - LSI entries, synchronously: delete the item's old entry, put the new
//     one (nothing when the entry did not change);
//   - GSI log records (gsi_log.h) for every GSI whose entry changes, applied
//     later by the propagator;
//   - for tables with LSIs, the item collection's size counter, refusing a
//     write that would take the collection past the limit.
//
// It keeps its own registry of every table's indexes, changed only while
// writers are excluded (ExcludeWriters): a write stages against the index
// set that is current while it holds its Txn, so a write can never straddle
// the creation or deletion of an index. That is what lets a backfill (or a
// deletion) know that every write after its start logs for the new index
// (or no longer touches the old one).
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_INDEX_INDEX_WRITER_H_
#define DYNAROCK_ENGINE_INDEX_INDEX_WRITER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "engine/capacity/capacity_charge.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/types.h"

namespace dynarock {

class Clock;
class Propagator;

// The meta-column-family key of the size counter of the item collection
// with partition key `pk` in table `table_id`.
std::string ItemCollectionSizeKey(uint32_t table_id, const AttributeValue& pk);
// [begin, end) of every item-collection counter of a table.
std::string ItemCollectionSizeBegin(uint32_t table_id);
std::string ItemCollectionSizeEnd(uint32_t table_id);

// One write's change to the size of an index partition (IndexWriter::Stage).
struct PartitionSizeDelta {
  uint32_t index_id = 0;
  uint64_t hash = 0;  // keys::PartitionHash of the index's partition key
  int64_t items = 0;
  int64_t bytes = 0;
};

class IndexWriter {
 public:
  // `propagator` (not owned) numbers the GSI log records and is told when
  // committed records wait. `item_collection_limit_bytes` is the 10 GB
  // limit of tables with LSIs.
  IndexWriter(Store* store, Clock* clock, Propagator* propagator,
              int64_t item_collection_limit_bytes);

  // One write's index work: holds writers' shared lock (so the index set
  // cannot change under it) and the log sequence numbers it reserved, until
  // it is destroyed. Call Committed() once the batch is written.
  class Txn {
   public:
    explicit Txn(IndexWriter* writer);  // writer may be null: no indexes
    ~Txn();
    Txn(const Txn&) = delete;
    Txn& operator=(const Txn&) = delete;
    void Committed() { committed_ = true; }

   private:
    friend class IndexWriter;
    IndexWriter* writer_;
    std::shared_lock<std::shared_mutex> lock_;
    std::vector<uint64_t> seqs_;
    std::vector<uint32_t> logged_indexes_;
    bool committed_ = false;
  };

  // Whether table `table_id` has any index (GSI or LSI) whose entries a
  // write must change, as of `txn` (which holds the index set still).
  bool HasIndexes(const Txn& txn, uint32_t table_id) const;

  // Adds to `batch` the index changes of one item of table `table_id`
  // going from `old_item` to `new_item` (nullopt: absent), whose base sizes
  // are `old_size` and `new_size`. Errors: kValidation (CheckIndexKeys on
  // the new item), kItemCollectionSizeLimitExceeded, storage errors.
  //
  // `metering` (nullable) receives the index writes' units, by index name,
  // and one part per entry put or deleted (on the index's partition key):
  // a new entry costs WriteUnits(its size), a removed one WriteUnits(the
  // old entry's size), a key change both, a changed value under the same
  // key WriteUnits(max of both); an unchanged entry costs nothing and its
  // index is not listed. Entry sizes are the projected items' sizes
  // (without the 100-byte storage overhead).
  //
  // `gsi_sizes` (nullable) receives, for every GSI entry put or deleted, the
  // change of its index partition's size: items +1 / -1 (0 for a new value
  // under the same key) and bytes in IndexEntry::size (with the 100-byte
  // overhead), at the entry's partition hash. The throughput controller
  // keeps GSI partition sizes with them (LSI entries are not counted: an
  // LSI lives in its table's partitions, which count base items).
  Status Stage(Txn* txn, uint32_t table_id, const std::optional<Item>& old_item,
               const Item* new_item, int64_t old_size,
               int64_t new_size, WriteBatch* batch,
               Metering* metering = nullptr,
               std::vector<PartitionSizeDelta>* gsi_sizes = nullptr);

  // The bytes of an item collection (items + LSI entries) as counted.
  Result<int64_t> ItemCollectionSize(uint32_t table_id,
                                     const AttributeValue& pk) const;

  // --- the registry -------------------------------------------------------
  // Excludes every writer while the caller holds the returned lock.
  std::unique_lock<std::shared_mutex> ExcludeWriters();
  // Sets the indexes that writes to `table` maintain (those with an id).
  // `excluded` is the caller's ExcludeWriters() lock.
  void SetTable(const std::unique_lock<std::shared_mutex>& excluded,
                const TableInfo& table);
  void RemoveTable(const std::unique_lock<std::shared_mutex>& excluded,
                   uint32_t table_id);

 private:
  struct TableIndexes {
    KeyDef table_key;
    std::vector<IndexInfo> indexes;
    bool has_lsi = false;
  };

  Store* store_;
  Clock* clock_;
  Propagator* propagator_;
  const int64_t item_collection_limit_bytes_;
  std::shared_mutex mu_;  // writers shared, registry changes exclusive
  std::map<uint32_t, std::shared_ptr<const TableIndexes>>
      tables_;  // guarded by mu_
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_INDEX_INDEX_WRITER_H_
