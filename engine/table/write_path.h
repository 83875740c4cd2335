// engine/table/write_path.h
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
// staging and Store::Write the charge is complete: that is where an
// admission check (throttling) belongs.

#ifndef DYNAROCK_ENGINE_TABLE_WRITE_PATH_H_
#define DYNAROCK_ENGINE_TABLE_WRITE_PATH_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/capacity/capacity_charge.h"
#include "engine/index/index_writer.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/table/item_locks.h"
#include "engine/types.h"

namespace dynarock {

// What a mutation decided: write `new_item`, delete the item (nullopt), or
// leave it untouched (`unchanged`).
struct ItemChange {
  std::optional<Item> new_item;
  bool unchanged = false;
};

// Computes the change from the old item (nullopt when absent). Returning an
// error aborts the write with nothing changed.
using ItemMutation =
    std::function<Result<ItemChange>(const std::optional<Item>& old_item)>;

class WritePath {
 public:
  // `indexes` (not owned) maintains secondary indexes; null: none.
  WritePath(Store* store, ItemLocks* locks, IndexWriter* indexes = nullptr)
      : store_(store), locks_(locks), indexes_(indexes) {}

  // Applies `mutation` to the item stored at `item_key` of `table`.
  // Returns the old item (nullopt when there was none). When `metering` is
  // not null it receives what the write consumed: on success, and on
  // kConditionalCheckFailed (the old item's size); it is left empty on any
  // other error.
  Result<std::optional<Item>> Apply(const TableInfo& table,
                                    const std::string& item_key,
                                    const ItemMutation& mutation,
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
  // condition failed).
  Result<std::vector<std::optional<Item>>> ApplyMany(
      const std::vector<ItemWrite>& writes,
      std::vector<Metering>* metering = nullptr);

 private:
  // Reads the old item, runs the mutation and adds the change (item,
  // counters, index changes) to `batch`; `stats` collects the in-memory
  // counter deltas; `metering` receives the write's units, as Apply
  // describes. REQUIRES: metering != nullptr.
  struct StatsDelta {
    const TableInfo* table;
    int64_t items;
    int64_t bytes;
  };
  Result<std::optional<Item>> Stage(const TableInfo& table,
                                    const std::string& item_key,
                                    const ItemMutation& mutation,
                                    IndexWriter::Txn* txn, WriteBatch* batch,
                                    std::vector<StatsDelta>* stats,
                                    Metering* metering);

  Store* store_;
  ItemLocks* locks_;
  IndexWriter* indexes_;
};

// Reads and decodes the item at `item_key`; nullopt when absent.
Result<std::optional<Item>> ReadItem(const Store& store,
                                     const std::string& item_key);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TABLE_WRITE_PATH_H_
