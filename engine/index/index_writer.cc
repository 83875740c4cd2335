#include "engine/index/index_writer.h"

#include <algorithm>
#include <array>

#include "engine/clock.h"
#include "engine/index/gsi_log.h"
#include "engine/index/index_entry.h"
#include "engine/index/propagator.h"
#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"

namespace dynarock {

std::string ItemCollectionSizeKey(uint32_t table_id, const AttributeValue& pk) {
  return "k" + keys::ItemKey(table_id, pk, nullptr);
}

std::string ItemCollectionSizeBegin(uint32_t table_id) {
  return "k" + keys::TablePrefix(table_id);
}

std::string ItemCollectionSizeEnd(uint32_t table_id) {
  return "k" + keys::TableEnd(table_id);
}

IndexWriter::IndexWriter(Store* store, Clock* clock, Propagator* propagator,
                         int64_t item_collection_limit_bytes)
    : store_(store),
      clock_(clock),
      propagator_(propagator),
      item_collection_limit_bytes_(item_collection_limit_bytes) {}

IndexWriter::Txn::Txn(IndexWriter* writer) : writer_(writer) {
  if (writer_ != nullptr)
    lock_ = std::shared_lock<std::shared_mutex>(writer_->mu_);
}

IndexWriter::Txn::~Txn() {
  if (writer_ == nullptr || seqs_.empty()) return;
  // Settle the sequence numbers first: once the propagator is told, it may
  // scan past them.
  for (uint64_t seq : seqs_) writer_->propagator_->sequences()->Release(seq);
  if (committed_) writer_->propagator_->Notify(logged_indexes_);
}

std::unique_lock<std::shared_mutex> IndexWriter::ExcludeWriters() {
  return std::unique_lock<std::shared_mutex>(mu_);
}

void IndexWriter::SetTable(const std::unique_lock<std::shared_mutex>& excluded,
                           const TableInfo& table) {
  (void)excluded;
  auto t = std::make_shared<TableIndexes>();
  t->table_key = table.key;
  for (const IndexInfo& index : table.indexes) {
    if (index.id == 0) continue;
    t->indexes.push_back(index);
    if (!index.global) t->has_lsi = true;
  }
  if (t->indexes.empty()) {
    tables_.erase(table.id);
  } else {
    tables_[table.id] = std::move(t);
  }
}

void IndexWriter::RemoveTable(
    const std::unique_lock<std::shared_mutex>& excluded, uint32_t table_id) {
  (void)excluded;
  tables_.erase(table_id);
}

Result<int64_t> IndexWriter::ItemCollectionSize(
    uint32_t table_id, const AttributeValue& pk) const {
  return store_->GetCounter(ItemCollectionSizeKey(table_id, pk));
}

namespace {

// One side (old or new) of an item change, with what several indexes share:
// the whole item encoded once for every ALL projection.
struct Side {
  const Item* item = nullptr;  // null: absent
  int64_t size = 0;            // ItemSize(*item)
  std::optional<std::string> encoded;

  const std::string& Encoded() {
    if (!encoded) {
      encoded.emplace();
      EncodeItem(*item, &*encoded);
    }
    return *encoded;
  }
};

// The entry's value and size (LSIs count it in the item collection; both
// kinds meter it).
void FillEntry(const IndexInfo& index, const KeyDef& table_key, Side* side,
               IndexEntry* entry) {
  if (index.projection.type == ProjectionType::kAll) {
    entry->value = side->Encoded();
    entry->size = side->size + kIndexEntryOverheadBytes;
    return;
  }
  const Item projected = ProjectForIndex(index, table_key, *side->item);
  EncodeItem(projected, &entry->value);
  entry->size = ItemSize(projected) + kIndexEntryOverheadBytes;
}

// The size of the entry of `side` without encoding it (a GSI entry that is
// deleted is never encoded).
int64_t EntrySize(const IndexInfo& index, const KeyDef& table_key,
                  const Side& side) {
  if (index.projection.type == ProjectionType::kAll) {
    return side.size + kIndexEntryOverheadBytes;
  }
  return ItemSize(ProjectForIndex(index, table_key, *side.item)) +
         kIndexEntryOverheadBytes;
}

// Write units of an entry of `size` (IndexEntry::size): capacity is metered
// on the projected item, without the storage overhead.
double EntryWriteUnits(int64_t size) {
  return WriteUnits(size - kIndexEntryOverheadBytes);
}

// Adds `units` written at the entry of `item` to `metering`.
void MeterEntry(const IndexInfo& index, const Item& item, double units,
                Metering* metering) {
  auto& by_name = index.global ? metering->consumed.global_secondary_indexes
                               : metering->consumed.local_secondary_indexes;
  by_name[index.name].write_units += units;
  if (!index.key.multi_attribute()) {
    metering->charge.parts.push_back(
        PartOf(index.id, item.at(index.key.hash_name), 0, units));
    return;
  }
  // A multi-attribute partition: hashed and rendered from the entry key's
  // prefix, which holds every partition-key value.
  std::array<const AttributeValue*, kMaxKeyAttributesPerKind> parts{};
  const size_t n = index.key.hash_count();
  for (size_t i = 0; i < n; ++i) parts[i] = &item.at(index.key.hash_name_at(i));
  const std::vector<AttrType> types = index.key.hash_types();
  metering->charge.parts.push_back(PartOfStorageKey(
      index.id, keys::PartitionPrefix(index.id, {parts.data(), n}), types, 0,
      units));
}

// Meters one index's change of an item: a vector index in the bytes
// replicated to it (VectorWriteRequestBytes: the entry written, or the one
// removed), never in write units nor on the table's partitions; a GSI or
// LSI in write units of the entry deleted and of the one written.
// `deleted` sizes the deleted entry (lazily: only some paths need it).
template <typename DeletedSize>
void MeterIndexWrite(const IndexInfo& index, const Item* old_item, const Item* new_item,
                     bool delete_old, bool has, int64_t before_size, int64_t after_size,
                     DeletedSize& deleted, Metering* metering) {
  if (index.vector) {
    const int64_t bytes = has ? after_size : deleted();
    metering->consumed.vector_indexes[index.name] +=
        static_cast<double>(bytes - kIndexEntryOverheadBytes);
    return;
  }
  if (delete_old) MeterEntry(index, *old_item, EntryWriteUnits(deleted()), metering);
  if (has) {
    const int64_t size = delete_old ? after_size : std::max(before_size, after_size);
    MeterEntry(index, *new_item, EntryWriteUnits(size), metering);
  }
}

// Adds `delta` bytes to an item collection's size (an LSI table's), in
// `batch`; a growth past `limit` is refused as DynamoDB refuses it.
Status StageCollectionSize(const Store& store, int64_t limit, const std::string& key,
                           int64_t delta, WriteBatch* batch) {
  if (delta > 0) {
    DR_ASSIGN_OR_RETURN(int64_t current, store.GetCounter(key));
    if (current + delta > limit) {
      return Status(ErrorCode::kItemCollectionSizeLimitExceeded, "Collection size exceeded.");
    }
  }
  batch->AddToCounter(key, delta);
  return Status::OK();
}

}  // namespace

bool IndexWriter::HasIndexes(const Txn& /*txn: holds the shared lock*/,
                             uint32_t table_id) const {
  auto found = tables_.find(table_id);
  return found != tables_.end() &&
         (!found->second->indexes.empty() || found->second->has_lsi);
}

Status IndexWriter::Stage(Txn* txn, uint32_t table_id,
                          const std::optional<Item>& old_item,
                          const Item* new_item, int64_t old_size,
                          int64_t new_size, WriteBatch* batch,
                          Metering* metering,
                          std::vector<PartitionSizeDelta>* gsi_sizes) {
  auto found = tables_.find(table_id);  // under txn's shared lock
  if (found == tables_.end()) return Status::OK();
  const TableIndexes& t = *found->second;
  if (new_item != nullptr) DR_RETURN_IF_ERROR(CheckIndexKeys(t.indexes, *new_item));
  int64_t collection_delta = t.has_lsi ? new_size - old_size : 0;
  Side old_side{old_item ? &*old_item : nullptr, old_size, std::nullopt};
  Side new_side{new_item, new_size, std::nullopt};
  std::optional<SequenceTracker::Ticket> ticket;
  for (const IndexInfo& index : t.indexes) {
    const bool had = old_side.item && HasIndexKey(index, *old_side.item);
    const bool has = new_side.item && HasIndexKey(index, *new_side.item);
    if (!had && !has) continue;
    IndexEntry before, after;
    if (had) before.key = IndexEntryKey(index, t.table_key, *old_side.item);
    if (has) after.key = IndexEntryKey(index, t.table_key, *new_side.item);
    // A key change is a delete plus a put; a value change alone is a put.
    const bool delete_old = had && (!has || before.key != after.key);
    // The old value matters for an unchanged key (is there a change at
    // all?) and, for LSIs, for the collection size.
    if (had && (!delete_old || !index.global)) {
      FillEntry(index, t.table_key, &old_side, &before);
    }
    if (has) FillEntry(index, t.table_key, &new_side, &after);
    if (!delete_old && had && has && before.value == after.value) continue;
    // A deleted GSI entry was not filled (nothing needs its value).
    std::optional<int64_t> deleted_size;
    auto deleted = [&] {
      if (!deleted_size) {
        deleted_size = index.global ? EntrySize(index, t.table_key, old_side)
                                    : before.size;
      }
      return *deleted_size;
    };
    if (metering != nullptr) {
      MeterIndexWrite(index, old_side.item, new_side.item, delete_old, has, before.size,
                      after.size, deleted, metering);
    }
    if (index.global && !index.vector && gsi_sizes != nullptr) {
      // The entry key carries its partition's hash (of every partition-key
      // attribute of a multi-attribute key).
      if (delete_old) {
        gsi_sizes->push_back(
            {index.id, keys::HashOfKey(before.key), -1, -deleted()});
      }
      if (has) {
        gsi_sizes->push_back(
            {index.id, keys::HashOfKey(after.key),
             delete_old ? 1 : (had ? 0 : 1),
             after.size - (had && !delete_old ? before.size : 0)});
      }
    }
    if (!index.global) {
      if (delete_old) batch->Delete(Cf::kIndexes, before.key);
      if (has) batch->Put(Cf::kIndexes, after.key, after.value);
      const int64_t size_delta = (has ? after.size : 0) - (had ? before.size : 0);
      collection_delta += size_delta;
      // An LSI's counters change with its entries, in the item's batch
      // (a GSI's when the propagator applies its records).
      Catalog::AddStats(index.id, (has ? 1 : 0) - (had ? 1 : 0), size_delta, batch);
      continue;
    }
    if (!ticket) {
      ticket = propagator_->sequences()->Reserve(clock_->NowMicros());
      txn->seqs_.push_back(ticket->seq);
    }
    GsiLogRecord record;
    record.time_micros = ticket->time_micros;
    // When this record applies, the records of the item's earlier writes
    // have applied before it (they hold lower sequence numbers), so the
    // index holds the entry of `old_item`, as sized here: unless a backfill
    // runs (it may have read the item in a later state, or not yet at all)
    // or the old item is one the backfill left out (a key attribute
    // written, before the index existed, of a type or value CheckIndexKeys
    // refuses). Then the propagator reads what is there.
    record.sizes_known =
        !propagator_->Backfilling(index.id) &&
        (!had || CheckIndexKeysOf(index, *old_side.item).ok());
    if (record.sizes_known) {
      if (delete_old) record.deleted_size = deleted();
      record.overwritten_size = had && !delete_old ? before.size : -1;
    }
    if (delete_old) record.delete_key = std::move(before.key);
    if (has) {
      record.put_key = std::move(after.key);
      record.put_value = std::move(after.value);
    }
    std::string value;
    EncodeGsiLogRecord(record, &value);
    batch->Put(Cf::kGsiLog, GsiLogKey(index.id, ticket->seq), value);
    txn->logged_indexes_.push_back(index.id);
  }
  if (collection_delta == 0) return Status::OK();
  const Item& any = new_item != nullptr ? *new_item : *old_item;
  return StageCollectionSize(*store_, item_collection_limit_bytes_,
                             ItemCollectionSizeKey(table_id, any.at(t.table_key.hash_name)),
                             collection_delta, batch);
}

}  // namespace dynarock
