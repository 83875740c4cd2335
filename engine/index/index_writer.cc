#include "engine/index/index_writer.h"

#include "engine/clock.h"
#include "engine/index/gsi_log.h"
#include "engine/index/index_entry.h"
#include "engine/index/propagator.h"
#include "engine/keys/key_codec.h"

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
  if (writer_ != nullptr) lock_ = std::shared_lock<std::shared_mutex>(writer_->mu_);
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

void IndexWriter::RemoveTable(const std::unique_lock<std::shared_mutex>& excluded,
                              uint32_t table_id) {
  (void)excluded;
  tables_.erase(table_id);
}

Result<int64_t> IndexWriter::ItemCollectionSize(uint32_t table_id,
                                                const AttributeValue& pk) const {
  return store_->GetCounter(ItemCollectionSizeKey(table_id, pk));
}

Status IndexWriter::Stage(Txn* txn, uint32_t table_id,
                          const std::optional<Item>& old_item,
                          const std::optional<Item>& new_item, int64_t old_size,
                          int64_t new_size, WriteBatch* batch) {
  auto found = tables_.find(table_id);  // under txn's shared lock
  if (found == tables_.end()) return Status::OK();
  const TableIndexes& t = *found->second;
  if (new_item) DR_RETURN_IF_ERROR(CheckIndexKeys(t.indexes, *new_item));
  int64_t collection_delta = t.has_lsi ? new_size - old_size : 0;
  std::optional<SequenceTracker::Ticket> ticket;
  for (const IndexInfo& index : t.indexes) {
    std::optional<IndexEntry> before =
        old_item ? EntryOf(index, t.table_key, *old_item) : std::nullopt;
    std::optional<IndexEntry> after =
        new_item ? EntryOf(index, t.table_key, *new_item) : std::nullopt;
    if (before == after) continue;
    // A key change is a delete plus a put; a value change alone is a put.
    const bool delete_old = before && (!after || before->key != after->key);
    if (!index.global) {
      if (delete_old) batch->Delete(Cf::kIndexes, before->key);
      if (after) batch->Put(Cf::kIndexes, after->key, after->value);
      collection_delta += (after ? after->size : 0) - (before ? before->size : 0);
      continue;
    }
    if (!ticket) {
      ticket = propagator_->sequences()->Reserve(clock_->NowMicros());
      txn->seqs_.push_back(ticket->seq);
    }
    GsiLogRecord record;
    record.time_micros = ticket->time_micros;
    if (delete_old) record.delete_key = std::move(before->key);
    if (after) {
      record.put_key = std::move(after->key);
      record.put_value = std::move(after->value);
    }
    std::string value;
    EncodeGsiLogRecord(record, &value);
    batch->Put(Cf::kGsiLog, GsiLogKey(index.id, ticket->seq), value);
    txn->logged_indexes_.push_back(index.id);
  }
  if (collection_delta != 0) {
    const Item& any = new_item ? *new_item : *old_item;
    const std::string key =
        ItemCollectionSizeKey(table_id, any.at(t.table_key.hash_name));
    if (collection_delta > 0) {
      DR_ASSIGN_OR_RETURN(int64_t current, store_->GetCounter(key));
      if (current + collection_delta > item_collection_limit_bytes_) {
        return Status(ErrorCode::kItemCollectionSizeLimitExceeded,
                      "Collection size exceeded.");
      }
    }
    batch->AddToCounter(key, collection_delta);
  }
  return Status::OK();
}

}  // namespace dynarock
