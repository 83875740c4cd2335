#include "engine/table/write_path.h"

#include <algorithm>

#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"

namespace dynarock {

Result<std::optional<Item>> ReadItem(const Store& store,
                                     const std::string& item_key) {
  DR_ASSIGN_OR_RETURN(auto bytes, store.Get(Cf::kItems, item_key));
  if (!bytes) return std::optional<Item>();
  DR_ASSIGN_OR_RETURN(Item item, DecodeItem(*bytes));
  return std::optional<Item>(std::move(item));
}

Result<std::optional<Item>> WritePath::Stage(const TableInfo& table,
                                             const std::string& item_key,
                                             const ItemMutation& mutation,
                                             IndexWriter::Txn* txn,
                                             WriteBatch* batch,
                                             std::vector<StatsDelta>* stats,
                                             Metering* metering) {
  DR_ASSIGN_OR_RETURN(std::optional<Item> old_item, ReadItem(*store_, item_key));
  const int64_t old_size = old_item ? ItemSize(*old_item) : 0;
  // The base table's part comes first; the index parts follow it.
  Metering m;
  m.consumed.table_name = table.desc.table_name;
  m.charge.table_id = table.id;
  auto meter_base = [&](int64_t bytes) {
    m.consumed.table.write_units = WriteUnits(bytes);
    m.charge.parts.push_back(PartOfStorageKey(0, item_key, table.key.hash_type,
                                              0, m.consumed.table.write_units));
  };
  Result<ItemChange> changed = mutation(old_item);
  if (!changed.ok()) {
    // DynamoDB charges a refused conditional write the item it read.
    if (changed.status().code() == ErrorCode::kConditionalCheckFailed) {
      meter_base(old_size);
      *metering = std::move(m);
    }
    return changed.status();
  }
  ItemChange change = std::move(changed).value();
  if (change.unchanged || (!change.new_item && !old_item)) {
    // Nothing to write (or nothing to delete): still one read item's worth.
    meter_base(old_size);
    *metering = std::move(m);
    return old_item;
  }

  const int64_t new_size = change.new_item ? ItemSize(*change.new_item) : 0;
  meter_base(std::max(old_size, new_size));
  if (indexes_ != nullptr) {
    DR_RETURN_IF_ERROR(indexes_->Stage(txn, table.id, old_item, change.new_item,
                                       old_size, new_size, batch, &m));
  }
  if (change.new_item) {
    std::string value;
    EncodeItem(*change.new_item, &value);
    batch->Put(Cf::kItems, item_key, value);
  } else {
    batch->Delete(Cf::kItems, item_key);
  }
  const int64_t item_delta = (change.new_item ? 1 : 0) - (old_item ? 1 : 0);
  Catalog::AddStats(table.id, item_delta, new_size - old_size, batch);
  stats->push_back({&table, item_delta, new_size - old_size});
  *metering = std::move(m);
  return old_item;
}

Result<std::optional<Item>> WritePath::Apply(const TableInfo& table,
                                             const std::string& item_key,
                                             const ItemMutation& mutation,
                                             Metering* metering) {
  std::lock_guard<std::mutex> lock(locks_->For(item_key));
  IndexWriter::Txn txn(indexes_);
  WriteBatch batch;
  std::vector<StatsDelta> stats;
  // Always metered, whether or not the caller wants it: once staged, the
  // charge is complete (an admission check belongs right here).
  Metering staged;
  Result<std::optional<Item>> old_item =
      Stage(table, item_key, mutation, &txn, &batch, &stats, &staged);
  if (metering != nullptr) *metering = staged;
  if (!old_item.ok() || batch.empty()) return old_item;
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  txn.Committed();
  for (const StatsDelta& d : stats) Catalog::ApplyStats(*d.table, d.items, d.bytes);
  return std::move(old_item).value();
}

Result<std::vector<std::optional<Item>>> WritePath::ApplyMany(
    const std::vector<ItemWrite>& writes, std::vector<Metering>* metering) {
  if (metering != nullptr) metering->clear();
  // Distinct stripes in address order: a total order every writer shares.
  std::vector<std::mutex*> stripes;
  for (const ItemWrite& w : writes) stripes.push_back(&locks_->For(w.item_key));
  std::sort(stripes.begin(), stripes.end());
  stripes.erase(std::unique(stripes.begin(), stripes.end()), stripes.end());
  for (std::mutex* m : stripes) m->lock();
  struct Unlock {
    std::vector<std::mutex*>& stripes;
    ~Unlock() {
      for (auto it = stripes.rbegin(); it != stripes.rend(); ++it) (*it)->unlock();
    }
  } unlock{stripes};

  IndexWriter::Txn txn(indexes_);
  WriteBatch batch;
  std::vector<StatsDelta> stats;
  std::vector<std::optional<Item>> old_items;
  old_items.reserve(writes.size());
  std::vector<Metering> staged;
  staged.reserve(writes.size());
  for (const ItemWrite& w : writes) {
    Metering m;
    Result<std::optional<Item>> old_item =
        Stage(*w.table, w.item_key, w.mutation, &txn, &batch, &stats, &m);
    if (old_item.ok() || !m.charge.parts.empty()) staged.push_back(std::move(m));
    if (!old_item.ok()) {
      if (metering != nullptr) *metering = std::move(staged);
      return old_item.status();
    }
    old_items.push_back(std::move(old_item).value());
  }
  // Every write is staged and metered: an admission check belongs here.
  if (metering != nullptr) *metering = std::move(staged);
  if (!batch.empty()) {
    DR_RETURN_IF_ERROR(store_->Write(&batch));
    txn.Committed();
    for (const StatsDelta& d : stats) Catalog::ApplyStats(*d.table, d.items, d.bytes);
  }
  return old_items;
}

}  // namespace dynarock
