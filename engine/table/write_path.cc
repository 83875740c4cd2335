#include "engine/table/write_path.h"

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

Result<std::optional<Item>> WritePath::Apply(const TableInfo& table,
                                             const std::string& item_key,
                                             const ItemMutation& mutation) {
  std::lock_guard<std::mutex> lock(locks_->For(item_key));
  DR_ASSIGN_OR_RETURN(std::optional<Item> old_item, ReadItem(*store_, item_key));
  DR_ASSIGN_OR_RETURN(ItemChange change, mutation(old_item));
  if (change.unchanged) return old_item;

  const int64_t old_size = old_item ? ItemSize(*old_item) : 0;
  int64_t new_size = 0;
  WriteBatch batch;
  if (change.new_item) {
    new_size = ItemSize(*change.new_item);
    std::string value;
    EncodeItem(*change.new_item, &value);
    batch.Put(Cf::kItems, item_key, value);
  } else if (old_item) {
    batch.Delete(Cf::kItems, item_key);
  } else {
    return old_item;  // deleting an absent item changes nothing
  }
  const int64_t item_delta =
      (change.new_item ? 1 : 0) - (old_item ? 1 : 0);
  Catalog::AddStats(table.id, item_delta, new_size - old_size, &batch);
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  Catalog::ApplyStats(table, item_delta, new_size - old_size);
  return old_item;
}

}  // namespace dynarock
