#include "engine/index/secondary_indexes.h"

#include <cmath>
#include <map>

#include "engine/clock.h"
#include "engine/index/gsi_update_plan.h"
#include "engine/index/index_entry.h"
#include "engine/index/vector_update_plan.h"
#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"

namespace dynarock {
namespace {

void AddIndexDeletion(const IndexInfo& index, WriteBatch* batch) {
  batch->DeleteRange(Cf::kIndexes, keys::TablePrefix(index.id),
                     keys::TableEnd(index.id));
  Catalog::RemoveIndexStats(index.id, batch);
  if (index.global) {
    batch->DeleteRange(Cf::kGsiLog, keys::TablePrefix(index.id),
                       keys::TableEnd(index.id));
    batch->Delete(Cf::kMeta, BackfillCursorKey(index.id));
  }
}

}  // namespace

SecondaryIndexes::SecondaryIndexes(Store* store, Catalog* catalog, Clock* clock,
                                   const SecondaryIndexOptions& options)
    : store_(store),
      catalog_(catalog),
      clock_(clock),
      options_(options),
      propagator_(store, clock,
                  PropagatorOptions{
                      .default_lag_micros = options.gsi_lag_micros,
                      .backfill_chunk_items = options.backfill_chunk_items}),
      writer_(store, clock, &propagator_,
              options.item_collection_size_limit_bytes) {
  propagator_.SetVectorGraphs(&vectors_);
}

Status SecondaryIndexes::LoadVectorGraphs(const TableInfo& table) {
  for (const IndexInfo& index : table.indexes) {
    if (!index.vector || index.id == 0 || vectors_.Has(index.id)) continue;
    vectors_.Register(index.id, index.vector);
    DR_RETURN_IF_ERROR(vectors_.Load(*store_, index.id));
  }
  return Status::OK();
}

SecondaryIndexes::~SecondaryIndexes() { Stop(); }

void SecondaryIndexes::Stop() { propagator_.Stop(); }

Result<std::unique_ptr<SecondaryIndexes>> SecondaryIndexes::Open(
    Store* store, Catalog* catalog, Clock* clock,
    const SecondaryIndexOptions& options) {
  std::unique_ptr<SecondaryIndexes> si(
      new SecondaryIndexes(store, catalog, clock, options));
  DR_RETURN_IF_ERROR(si->propagator_.Recover());
  for (std::shared_ptr<const TableInfo> table : catalog->All()) {
    if (table->deleting_since_micros) continue;  // items and indexes are gone
    if (table->needs_index_rebuild) {
      DR_ASSIGN_OR_RETURN(table, si->Rebuild(*table));
    }
    auto paused = si->propagator_.PauseApply();
    {
      auto excluded = si->writer_.ExcludeWriters();
      si->writer_.SetTable(excluded, *table);
    }
    // The graphs are rebuilt from the entries, before any record applies.
    DR_RETURN_IF_ERROR(si->LoadVectorGraphs(*table));
    for (const IndexInfo& index : table->indexes) {
      if (!index.global) continue;
      DR_ASSIGN_OR_RETURN(auto cursor,
                          store->Get(Cf::kMeta, BackfillCursorKey(index.id)));
      if (cursor) {
        si->propagator_.StartBackfill(
            paused, BackfillTask{table->id, table->key, index});
      }
    }
  }
  if (!options.deterministic) si->propagator_.Start();
  return si;
}

void AddIndexEntriesOf(const TableInfo& table, const Item& item, WriteBatch* batch,
                       std::map<std::string, int64_t>* collections) {
  int64_t collection = 0;
  for (const IndexInfo& index : table.indexes) {
    if (!CheckIndexKeysOf(index, item).ok()) continue;
    if (std::optional<IndexEntry> e = EntryOf(index, table.key, item)) {
      batch->Put(Cf::kIndexes, e->key, e->value);
      Catalog::AddStats(index.id, 1, e->size, batch);
      if (!index.global) collection += e->size;
    }
  }
  if (table.has_lsi()) {
    collection += ItemSize(item);
    (*collections)[ItemCollectionSizeKey(table.id, item.at(table.key.hash_name))] +=
        collection;
  }
}

Result<std::shared_ptr<const TableInfo>> SecondaryIndexes::Rebuild(
    const TableInfo& table) {
  auto next = std::make_shared<TableInfo>(table);
  next->index_ids.clear();
  for (const IndexInfo& index : table.indexes) {
    DR_ASSIGN_OR_RETURN(uint32_t id, catalog_->ReserveId());
    next->index_ids[index.name] = id;
  }
  next->needs_index_rebuild = false;
  ResolveIndexes(next.get());
  // Nothing writes while the engine opens: read every item once, write its
  // entries and, for LSIs, the item-collection sizes.
  std::map<std::string, int64_t> collections;
  auto it = store_->NewIterator(Cf::kItems, keys::TablePrefix(table.id),
                                keys::TableEnd(table.id));
  auto batch = std::make_unique<WriteBatch>();
  int64_t in_batch = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    DR_ASSIGN_OR_RETURN(Item item, DecodeItem(it->value()));
    AddIndexEntriesOf(*next, item, batch.get(), &collections);
    if (++in_batch == 1000) {
      DR_RETURN_IF_ERROR(store_->Write(batch.get()));
      batch = std::make_unique<WriteBatch>();
      in_batch = 0;
    }
  }
  DR_RETURN_IF_ERROR(it->status());
  // Counters from an earlier, interrupted rebuild are replaced.
  batch->DeleteRange(Cf::kMeta, ItemCollectionSizeBegin(table.id),
                     ItemCollectionSizeEnd(table.id));
  DR_RETURN_IF_ERROR(store_->Write(batch.get()));
  WriteBatch final_batch;
  for (const auto& [key, bytes] : collections)
    final_batch.AddToCounter(key, bytes);
  DR_RETURN_IF_ERROR(catalog_->Replace(next, &final_batch));
  return std::shared_ptr<const TableInfo>(next);
}

void SecondaryIndexes::Pump() {
  if (options_.deterministic) propagator_.RunDue().ok();  // errors are sticky
}

Status SecondaryIndexes::TableCreated(const TableInfo& table) {
  if (table.indexes.empty()) return Status::OK();
  auto paused = propagator_.PauseApply();
  // A restored table's entries are stored already: its graphs load them.
  DR_RETURN_IF_ERROR(LoadVectorGraphs(table));
  auto excluded = writer_.ExcludeWriters();
  writer_.SetTable(excluded, table);
  return Status::OK();
}

void SecondaryIndexes::Describe(const TableInfo& table,
                                TableDescription* d) const {
  // ItemCount and IndexSizeBytes: live counters (DynamoDB refreshes them
  // about every six hours); a GSI's count what the propagator has applied.
  // A counter that cannot be read shows 0, as before it existed.
  auto counters = [&](const std::string& name, int64_t* items, int64_t* bytes) {
    auto id = table.index_ids.find(name);
    if (id == table.index_ids.end()) return;
    Result<std::pair<int64_t, int64_t>> stats = Catalog::IndexStats(*store_, id->second);
    if (!stats.ok()) return;
    *items = stats->first;
    *bytes = stats->second;
  };
  for (auto& g : d->global_secondary_indexes) {
    auto id = table.index_ids.find(g.def.index_name);
    if (id != table.index_ids.end() && propagator_.Backfilling(id->second)) {
      g.index_status = TableStatus::kCreating;
      g.backfilling = true;
    }
    counters(g.def.index_name, &g.item_count, &g.index_size_bytes);
  }
  for (auto& l : d->local_secondary_indexes) {
    counters(l.def.index_name, &l.item_count, &l.index_size_bytes);
  }
  for (auto& v : d->vector_indexes) {
    auto id = table.index_ids.find(v.def.index_name);
    if (id != table.index_ids.end() && propagator_.Backfilling(id->second)) {
      v.index_status = TableStatus::kCreating;
      v.backfilling = true;
    }
    counters(v.def.index_name, &v.item_count, &v.index_size_bytes);
  }
}

Status SecondaryIndexes::CheckReadable(const TableInfo& table,
                                       const IndexInfo* index) const {
  (void)table;
  if (index != nullptr && index->vector) {
    // DynamoDB documents the refusal ("Vector indexes do not support Query
    // or Scan operations"), not its text: docs/compatibility.md.
    return Status::Validation("Vector indexes do not support Query or Scan operations. "
                              "Use the SearchVectors API to read from vector index: " +
                              index->name);
  }
  if (index != nullptr && index->global && propagator_.Backfilling(index->id)) {
    // The text boto3 shows for DynamoDB's refusal (aws-cloudformation/
    // cloudformation-coverage-roadmap#1075).
    return Status::Validation(
        "Cannot read from backfilling global secondary index");
  }
  return Status::OK();
}

Status SecondaryIndexes::PlanGsiUpdates(const UpdateTableRequest& req,
                                        const TableInfo& current, int64_t now,
                                        const CapacityOptions& capacity,
                                        TableInfo* next, GsiChanges* changes) {
  GsiUpdateContext context{current, now, capacity, false,
                           [this] { return catalog_->ReserveId(); }};
  for (const IndexInfo& index : current.indexes) {
    if (index.global && propagator_.Backfilling(index.id)) context.backfilling = true;
  }
  DR_RETURN_IF_ERROR(dynarock::PlanGsiUpdates(req, context, next, changes));
  return PlanVectorUpdates(req, context, next, changes);
}

Status SecondaryIndexes::Publish(const TableInfo& current,
                                 std::shared_ptr<const TableInfo> next,
                                 const GsiChanges& changes, WriteBatch* batch) {
  auto paused = propagator_.PauseApply();
  // Two UpdateTables that read the same version must not both publish: the
  // second would drop the first one's changes (and an index the writer and
  // propagator already know). REQUIRES: `current` is the catalog's object.
  auto published = catalog_->Find(current.ns, current.desc.table_name);
  if (published.get() != &current) {
    return Status::ResourceInUse(
        "Attempt to change a resource which is still in use: Table is being "
        "updated: " +
        current.desc.table_name);
  }
  if (!changes.changes_index_set())
    return catalog_->Replace(std::move(next), batch);

  auto excluded = writer_.ExcludeWriters();
  std::optional<IndexInfo> created;
  if (changes.created) {
    created = *next->FindIndex(*changes.created);
    // The cursor marks the backfill unfinished until its last step.
    batch->Put(Cf::kMeta, BackfillCursorKey(created->id), std::string());
  }
  if (changes.deleted) AddIndexDeletion(*changes.deleted, batch);
  DR_RETURN_IF_ERROR(catalog_->Replace(next, batch));
  writer_.SetTable(excluded, *next);
  if (changes.deleted) {
    propagator_.ForgetIndex(paused, changes.deleted->id);
    vectors_.Drop(changes.deleted->id);
  }
  if (created && created->vector) vectors_.Register(created->id, created->vector);
  if (created) {
    propagator_.StartBackfill(paused,
                              BackfillTask{next->id, next->key, *created});
  }
  return Status::OK();
}

Status SecondaryIndexes::PublishTableDeletion(
    const TableInfo& table, std::shared_ptr<const TableInfo> next,
    WriteBatch* batch) {
  auto paused = propagator_.PauseApply();
  for (const IndexInfo& index : table.indexes) {
    if (index.global && propagator_.Backfilling(index.id)) {
      return Status::ResourceInUse(
          "Attempt to change a resource which is still in use: Cannot delete "
          "table "
          "while indexes are being created, updated, or deleted.");
    }
  }
  auto excluded = writer_.ExcludeWriters();
  for (const IndexInfo& index : table.indexes) {
    if (index.id != 0) AddIndexDeletion(index, batch);
  }
  batch->DeleteRange(Cf::kMeta, ItemCollectionSizeBegin(table.id),
                     ItemCollectionSizeEnd(table.id));
  DR_RETURN_IF_ERROR(catalog_->Replace(std::move(next), batch));
  writer_.RemoveTable(excluded, table.id);
  for (const IndexInfo& index : table.indexes) {
    if (index.global) propagator_.ForgetIndex(paused, index.id);
    if (index.vector) vectors_.Drop(index.id);
  }
  return Status::OK();
}

Status SecondaryIndexes::SetLag(const TableInfo& table,
                                const std::string& index_name,
                                int64_t lag_micros) {
  const IndexInfo* index = table.FindIndex(index_name);
  if (index == nullptr) return GsiNotFound(index_name, table.desc.table_name);
  if (!index->global) {
    return Status::Validation("Index " + index_name +
                              " is a local secondary index, which is updated "
                              "synchronously and has no lag");
  }
  propagator_.SetLag(index->id, lag_micros);
  return Status::OK();
}

}  // namespace dynarock
