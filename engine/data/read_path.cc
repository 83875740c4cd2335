#include "engine/data/read_path.h"

#include <utility>

#include "engine/expr/evaluate.h"
#include "engine/keys/key_codec.h"
#include "engine/storage/store.h"
#include "engine/data/write_path.h"
#include "engine/value/encoded_item.h"
#include "engine/value/item_size.h"

namespace dynarock {
namespace {

// What a read is expected to cost before it happens (the throttled units a
// refused read counts): one item's minimum.
double MinimumReadUnits(bool consistent_read) {
  return consistent_read ? 1.0 : 0.5;
}

}  // namespace

const StoreReader& ReadPath::ReaderFor(
    bool consistent_read, std::shared_ptr<const StoreSnapshot>* view) const {
  if (!consistent_read && replica_ != nullptr && replica_->lagging()) {
    *view = replica_->View();
    if (*view != nullptr) return **view;
  }
  return *store_;
}

Status ReadPath::Admit(const TableInfo& table, const IndexInfo* index,
                       uint64_t hash, bool consistent_read) const {
  if (consistent_read && sync_ != nullptr) DR_RETURN_IF_ERROR(sync_->CheckStrongRead(table));
  if (!throttling()) return Status::OK();
  return throughput_->CheckRead(table.id, index ? index->id : 0, hash,
                                MinimumReadUnits(consistent_read));
}

Result<std::optional<std::string>> ReadPath::GetItem(const TableInfo& table,
                                                     const std::string& item_key,
                                                     bool consistent_read,
                                                     Metering* metering) {
  DR_RETURN_IF_ERROR(
      Admit(table, nullptr, keys::HashOfKey(item_key), consistent_read));
  std::shared_ptr<const StoreSnapshot> view;
  DR_ASSIGN_OR_RETURN(std::optional<std::string> item,
                      ReaderFor(consistent_read, &view).Get(Cf::kItems, item_key));
  int64_t size = 0;
  if (item) {
    DR_ASSIGN_OR_RETURN(size, EncodedItemSize(*item));
  }
  *metering = MeterItemRead(table, item_key, size, consistent_read);
  throughput_->Charge(metering->charge);
  return item;
}

Result<Page> ReadPath::ReadPage(const TableInfo& table,
                                const PageRequest& request, PageKind kind,
                                bool consistent_read, Metering* metering) {
  // A Query's range starts at its partition key; a Scan page where it
  // resumes.
  const std::string& start =
      request.exclusive_start ? *request.exclusive_start : request.range.lower;
  DR_RETURN_IF_ERROR(
      Admit(table, request.index, keys::HashOfKey(start), consistent_read));
  // A GSI is always read eventually consistent, and lags by its own
  // propagation; the table and its LSIs may lag as a replica.
  const bool global = request.index != nullptr && request.index->global;
  std::shared_ptr<const StoreSnapshot> view;
  const StoreReader& reader = ReaderFor(consistent_read || global, &view);
  Page page;
  if (view != nullptr) {
    DR_ASSIGN_OR_RETURN(page, dynarock::ReadPage(reader, request));
  } else if (request.count_only) {
    // Read before reading: a write landing during the read moves it past
    // what the page is remembered at (Store::WriteGeneration).
    const uint64_t generation = store_->WriteGeneration();
    if (std::optional<Page> known = page_memo_.Find(request, generation)) {
      page = std::move(*known);
    } else {
      DR_ASSIGN_OR_RETURN(page, dynarock::ReadPage(*store_, request));
      page_memo_.Remember(request, generation, page);
    }
  } else {
    DR_ASSIGN_OR_RETURN(page, dynarock::ReadPage(*store_, request));
  }
  std::vector<uint64_t> partition_begins;
  if (kind == PageKind::kScan) {
    partition_begins = throughput_->PartitionBegins(
        table.id, request.index != nullptr ? request.index->id : 0);
  }
  *metering = MeterPage(table, request, page, kind, consistent_read, partition_begins);
  throughput_->Charge(metering->charge);
  return page;
}

Result<BatchGetItemResult> ReadPath::BatchGet(
    const BatchGetItemRequest& req,
    const std::vector<std::shared_ptr<const TableInfo>>& tables,
    const std::vector<std::vector<std::string>>& item_keys,
    const PreparedBatchGet& projections) {
  BatchGetItemResult result;
  int64_t response_bytes = 0;
  bool full = false;
  Status first_throttle;
  size_t keys_read = 0;
  for (size_t i = 0; i < req.request_items.size(); ++i) {
    const auto& [name, t] = req.request_items[i];
    const TableInfo& table = *tables[i];
    std::vector<Item>& items =
        result.responses.emplace_back(name, std::vector<Item>()).second;
    KeysAndAttributes unprocessed;
    std::shared_ptr<const StoreSnapshot> view;
    const StoreReader& reader = ReaderFor(t.consistent_read, &view);
    // Each key read is rounded on its own, found or not.
    Metering metering;
    metering.consumed.table_name = name;
    metering.charge.table_id = table.id;
    for (size_t k = 0; k < t.keys.size(); ++k) {
      if (!full) {
        const std::string& item_key = item_keys[i][k];
        Status admitted = Admit(table, nullptr, keys::HashOfKey(item_key),
                                t.consistent_read);
        if (!admitted.ok()) {
          if (first_throttle.ok()) first_throttle = std::move(admitted);
          unprocessed.keys.push_back(t.keys[k]);
          continue;
        }
        DR_ASSIGN_OR_RETURN(std::optional<Item> item, ReadItem(reader, item_key));
        const int64_t read_bytes = item ? ItemSize(*item) : 0;
        std::optional<int64_t> returned_bytes;
        if (item) {
          if (projections[i]) *item = expr::ProjectItem(*item, *projections[i]);
          returned_bytes = ItemSize(*item);
          full = response_bytes + *returned_bytes > kMaxBatchGetResponseBytes;
        }
        if (!full) {
          // Charged key by key, so the next keys' admissions see it.
          Metering key_metering =
              MeterItemRead(table, item_key, read_bytes, t.consistent_read);
          throughput_->Charge(key_metering.charge);
          metering.Merge(key_metering);
          ++keys_read;
          if (item) {
            response_bytes += *returned_bytes;
            items.push_back(std::move(*item));
          }
          continue;
        }
      }
      unprocessed.keys.push_back(t.keys[k]);
    }
    result.consumed_capacity.push_back(std::move(metering.consumed));
    result.capacity_charges.push_back(std::move(metering.charge));
    if (!unprocessed.keys.empty()) {
      unprocessed.projection_expression = t.projection_expression;
      unprocessed.attributes_to_get = t.attributes_to_get;
      unprocessed.expression_attribute_names = t.expression_attribute_names;
      unprocessed.consistent_read = t.consistent_read;
      result.unprocessed_keys.emplace_back(name, std::move(unprocessed));
    }
  }
  if (keys_read == 0 && !first_throttle.ok()) return first_throttle;
  return result;
}

}  // namespace dynarock
