#include "engine/index/secondary_indexes.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "engine/capacity/throughput_settings.h"
#include "engine/clock.h"
#include "engine/index/index_entry.h"
#include "engine/keys/key_codec.h"
#include "engine/schema/arns.h"
#include "engine/schema/schema.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"

namespace dynarock {
namespace {

constexpr std::string_view kInvalid =
    "One or more parameter values were invalid: ";

Status Invalid(const std::string& detail) {
  return Status::Validation(std::string(kInvalid) + detail);
}

Status OnlyOneOnlineIndex() {
  return Status(
      ErrorCode::kLimitExceeded,
      "Subscriber limit exceeded: Only 1 online index can be created or "
      "deleted simultaneously per table");
}

Status IndexNotFound(const std::string& index, const std::string& table) {
  return Status::ResourceNotFound("Requested resource not found: Index " +
                                  index + " for table " + table);
}

ProvisionedThroughputDescription ToDescription(
    const std::optional<ProvisionedThroughput>& t) {
  ProvisionedThroughputDescription d;
  if (t) {
    d.read_capacity_units = t->read_capacity_units;
    d.write_capacity_units = t->write_capacity_units;
  }
  return d;
}

const std::string* ActionIndexName(const GlobalSecondaryIndexUpdate& u) {
  if (u.create) return &u.create->index_name;
  if (u.update) return &u.update->index_name;
  if (u.del) return &u.del->index_name;
  return nullptr;
}

GlobalSecondaryIndexDescription* FindGsi(TableDescription* d,
                                         const std::string& name) {
  for (auto& g : d->global_secondary_indexes) {
    if (g.def.index_name == name) return &g;
  }
  return nullptr;
}

bool IndexNameTaken(const TableDescription& d, const std::string& name) {
  for (const auto& g : d.global_secondary_indexes) {
    if (g.def.index_name == name) return true;
  }
  for (const auto& l : d.local_secondary_indexes) {
    if (l.def.index_name == name) return true;
  }
  return false;
}

// DynamoDB keeps only the attribute definitions some key uses: a deleted
// index's attributes go with it.
void PruneAttributeDefinitions(TableDescription* d) {
  std::set<std::string> used;
  for (const auto& e : d->key_schema) used.insert(e.attribute_name);
  for (const auto& g : d->global_secondary_indexes) {
    for (const auto& e : g.def.key_schema) used.insert(e.attribute_name);
  }
  for (const auto& l : d->local_secondary_indexes) {
    for (const auto& e : l.def.key_schema) used.insert(e.attribute_name);
  }
  std::erase_if(d->attribute_definitions, [&](const AttributeDefinition& a) {
    return !used.count(a.attribute_name);
  });
}

// "Schema:[SchemaElement: key{xyz:S:HASH}]", as DynamoDB prints a key
// schema in "Attributes cannot be redefined" (scylladb/scylladb
// test/alternator/test_gsi_updatetable.py records the message).
std::string RenderSchema(const std::vector<KeySchemaElement>& schema,
                         const std::vector<AttributeDefinition>& definitions) {
  std::string out = "Schema:[";
  for (size_t i = 0; i < schema.size(); ++i) {
    if (i) out += ", ";
    std::string_view type = "S";
    for (const AttributeDefinition& a : definitions) {
      if (a.attribute_name == schema[i].attribute_name)
        type = AttrTypeName(a.attribute_type);
    }
    out += "SchemaElement: key{" + schema[i].attribute_name + ":" +
           std::string(type) + ":" +
           (schema[i].key_type == KeyType::kHash ? "HASH" : "RANGE") + "}";
  }
  return out + "]";
}

// A new GSI key attribute that the table already defines with another type.
Status CheckNoRedefinition(const TableDescription& d,
                           const GlobalSecondaryIndexDef& def,
                           const std::vector<AttributeDefinition>& requested) {
  for (const KeySchemaElement& e : def.key_schema) {
    const AttributeDefinition* existing = nullptr;
    const AttributeDefinition* wanted = nullptr;
    for (const auto& a : d.attribute_definitions) {
      if (a.attribute_name == e.attribute_name) existing = &a;
    }
    for (const auto& a : requested) {
      if (a.attribute_name == e.attribute_name) wanted = &a;
    }
    if (existing == nullptr || wanted == nullptr ||
        existing->attribute_type == wanted->attribute_type) {
      continue;
    }
    // The existing schema that uses the attribute.
    const std::vector<KeySchemaElement>* old_schema = &d.key_schema;
    auto uses = [&](const std::vector<KeySchemaElement>& ks) {
      return std::any_of(ks.begin(), ks.end(), [&](const KeySchemaElement& k) {
        return k.attribute_name == e.attribute_name;
      });
    };
    if (!uses(d.key_schema)) {
      for (const auto& g : d.global_secondary_indexes) {
        if (uses(g.def.key_schema)) old_schema = &g.def.key_schema;
      }
      for (const auto& l : d.local_secondary_indexes) {
        if (uses(l.def.key_schema)) old_schema = &l.def.key_schema;
      }
    }
    return Invalid(
        "Attributes cannot be redefined. Please check that your attribute has "
        "the same "
        "type as previously defined. Existing schema: " +
        RenderSchema(*old_schema, d.attribute_definitions) +
        " New schema: " + RenderSchema(def.key_schema, requested));
  }
  return Status::OK();
}

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
              options.item_collection_size_limit_bytes) {}

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

void SecondaryIndexes::TableCreated(const TableInfo& table) {
  if (table.indexes.empty()) return;
  auto excluded = writer_.ExcludeWriters();
  writer_.SetTable(excluded, table);
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
}

Status SecondaryIndexes::CheckReadable(const TableInfo& table,
                                       const IndexInfo* index) const {
  (void)table;
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
  TableDescription& d = next->desc;
  const std::string& table_name = d.table_name;
  const bool provisioned = d.billing_mode == BillingMode::kProvisioned;
  const bool to_provisioned =
      provisioned && current.desc.billing_mode != BillingMode::kProvisioned;
  const bool to_on_demand =
      !provisioned && current.desc.billing_mode == BillingMode::kProvisioned;
  std::set<std::string> throughput_given;

  if (req.global_secondary_index_updates) {
    const auto& updates = *req.global_secondary_index_updates;
    if (updates.empty())
      return Invalid("List of GlobalSecondaryIndexUpdates is empty");
    std::set<std::string> names;
    int online = 0;
    for (const GlobalSecondaryIndexUpdate& u : updates) {
      const int actions =
          (u.create ? 1 : 0) + (u.update ? 1 : 0) + (u.del ? 1 : 0);
      if (actions == 0) {
        return Invalid(
            "One of GlobalSecondaryIndexUpdate.Update, "
            "GlobalSecondaryIndexUpdate.Create, "
            "GlobalSecondaryIndexUpdate.Delete must not be null");
      }
      if (actions > 1) {
        return Invalid(
            "Only one global secondary index action is allowed per "
            "GlobalSecondaryIndexUpdate object");
      }
      const std::string& name = *ActionIndexName(u);
      if (!names.insert(name).second) {
        return Invalid(
            "Only one global secondary index update per index is allowed "
            "simultaneously. Index: " +
            name);
      }
      if (u.create || u.del) ++online;
    }
    if (online > 1) return OnlyOneOnlineIndex();
    if (online == 1) {
      for (const IndexInfo& index : current.indexes) {
        if (index.global && propagator_.Backfilling(index.id))
          return OnlyOneOnlineIndex();
      }
    }
    for (const GlobalSecondaryIndexUpdate& u : updates) {
      if (!u.create) continue;
      if (req.provisioned_throughput) {
        return Status::Validation(
            "You cannot create or delete index while updating table IOPS");
      }
      if (req.deletion_protection_enabled) {
        return Status::Validation(
            "DeletionProtection modification must be the only operation in the "
            "request");
      }
    }

    // Checked whole before anything changes.
    for (const GlobalSecondaryIndexUpdate& u : updates) {
      if (u.create) {
        const GlobalSecondaryIndexDef& def = *u.create;
        if (IndexNameTaken(current.desc, def.index_name)) {
          return Status::Validation(
              "Attempting to create an index which already exists");
        }
        if (current.desc.global_secondary_indexes.size() >=
            static_cast<size_t>(kMaxGlobalSecondaryIndexes)) {
          return Status(
              ErrorCode::kLimitExceeded,
              "Subscriber limit exceeded: Number of global secondary indexes "
              "exceeds per-table limit of 20");
        }
        if (req.attribute_definitions.empty()) {
          return Invalid("AttributeDefinitions is not specified for index: " +
                         def.index_name);
        }
        DR_RETURN_IF_ERROR(
            CheckNoRedefinition(current.desc, def, req.attribute_definitions));
        // The new key attributes are defined by the request or already by
        // the table (only a new attribute must be sent).
        std::vector<AttributeDefinition> defined =
            current.desc.attribute_definitions;
        for (const AttributeDefinition& a : req.attribute_definitions) {
          if (std::none_of(defined.begin(), defined.end(), [&](const auto& d) {
                return d.attribute_name == a.attribute_name;
              })) {
            defined.push_back(a);
          }
        }
        DR_RETURN_IF_ERROR(ValidateGlobalSecondaryIndexKeys(def, defined));
        size_t projected = def.projection.non_key_attributes.size();
        for (const auto& g : current.desc.global_secondary_indexes) {
          projected += g.def.projection.non_key_attributes.size();
        }
        for (const auto& l : current.desc.local_secondary_indexes) {
          projected += l.def.projection.non_key_attributes.size();
        }
        DR_RETURN_IF_ERROR(CheckProjectedAttributeCount(projected));
        if (provisioned && !def.provisioned_throughput) {
          return Invalid(
              "Both ReadCapacityUnits and WriteCapacityUnits must be specified "
              "for index: " +
              def.index_name);
        }
        if (!provisioned && def.provisioned_throughput) {
          return Invalid(
              "ProvisionedThroughput should not be specified for index: " +
              def.index_name + " when BillingMode is PAY_PER_REQUEST");
        }
        DR_RETURN_IF_ERROR(NewThroughputSettings(
                               def.index_name, d.billing_mode,
                               def.provisioned_throughput, def.on_demand_throughput,
                               def.warm_throughput, capacity, req.scope.region)
                               .status());
        continue;
      }
      const std::string& name = *ActionIndexName(u);
      GlobalSecondaryIndexDescription* g = FindGsi(&d, name);
      if (g == nullptr) return IndexNotFound(name, table_name);
      if (u.update && !u.update->provisioned_throughput && provisioned &&
          !u.update->on_demand_throughput && !u.update->warm_throughput) {
        return Invalid("ProvisionedThroughput must be specified for index: " + name);
      }
      if (u.update && u.update->provisioned_throughput) {
        if (!provisioned) {
          return Invalid(
              "The only Updates for index: " + name +
              " when TableThroughputMode is PAY_PER_REQUEST can be to "
              "OnDemandThroughput, WarmThroughput");
        }
        const auto& cur = g->provisioned_throughput;
        const auto& want = *u.update->provisioned_throughput;
        if (!to_provisioned &&
            cur.read_capacity_units == want.read_capacity_units &&
            cur.write_capacity_units == want.write_capacity_units) {
          const std::string r = std::to_string(cur.read_capacity_units);
          const std::string w = std::to_string(cur.write_capacity_units);
          return Status::Validation(
              "The provisioned throughput for the index " + name +
              " will not change. The requested value equals the current value. "
              "Current ReadCapacityUnits provisioned for index " +
              name + ": " + r + ". Requested ReadCapacityUnits: " + r +
              ". Current WriteCapacityUnits provisioned for index " + name +
              ": " + w + ". Requested WriteCapacityUnits: " + w +
              ". Refer to the Amazon DynamoDB Developer Guide for current "
              "limits and "
              "how to request higher limits.");
        }
      }
      if (u.update) {
        ThroughputSettings probe = g->settings;
        DR_RETURN_IF_ERROR(UpdateThroughputSettings(
            name, d.billing_mode, g->provisioned_throughput,
            u.update->on_demand_throughput, u.update->warm_throughput, capacity,
            req.scope.region, &probe));
      }
    }

    for (const GlobalSecondaryIndexUpdate& u : updates) {
      if (u.create) {
        const GlobalSecondaryIndexDef& def = *u.create;
        // Only the new key attributes matter (DynamoDB ignores the rest of
        // the list); one the table already defines has the same type.
        for (const KeySchemaElement& e : def.key_schema) {
          auto known =
              std::find_if(d.attribute_definitions.begin(),
                           d.attribute_definitions.end(), [&](const auto& a) {
                             return a.attribute_name == e.attribute_name;
                           });
          if (known != d.attribute_definitions.end()) continue;
          for (const AttributeDefinition& a : req.attribute_definitions) {
            if (a.attribute_name == e.attribute_name)
              d.attribute_definitions.push_back(a);
          }
        }
        std::sort(d.attribute_definitions.begin(),
                  d.attribute_definitions.end(),
                  [](const auto& a, const auto& b) {
                    return a.attribute_name < b.attribute_name;
                  });
        GlobalSecondaryIndexDescription g;
        g.def = def;
        g.index_arn = IndexArn(d.table_arn, def.index_name);
        g.index_status =
            TableStatus::kActive;  // CREATING comes from the backfill
        g.provisioned_throughput = ToDescription(def.provisioned_throughput);
        DR_ASSIGN_OR_RETURN(
            g.settings,
            NewThroughputSettings(def.index_name, d.billing_mode,
                                  def.provisioned_throughput, def.on_demand_throughput,
                                  def.warm_throughput, capacity, req.scope.region));
        d.global_secondary_indexes.push_back(std::move(g));
        DR_ASSIGN_OR_RETURN(uint32_t id, catalog_->ReserveId());
        next->index_ids[def.index_name] = id;
        changes->created = def.index_name;
        throughput_given.insert(def.index_name);
      } else if (u.update) {
        GlobalSecondaryIndexDescription* g = FindGsi(&d, u.update->index_name);
        DR_RETURN_IF_ERROR(UpdateThroughputSettings(
            u.update->index_name, d.billing_mode, g->provisioned_throughput,
            u.update->on_demand_throughput, u.update->warm_throughput, capacity,
            req.scope.region, &g->settings));
        if (!u.update->provisioned_throughput) continue;
        auto& cur = g->provisioned_throughput;
        const auto& want = *u.update->provisioned_throughput;
        if (want.read_capacity_units > cur.read_capacity_units ||
            want.write_capacity_units > cur.write_capacity_units) {
          cur.last_increase_micros = now;
        }
        if (want.read_capacity_units < cur.read_capacity_units ||
            want.write_capacity_units < cur.write_capacity_units) {
          cur.last_decrease_micros = now;
          ++cur.number_of_decreases_today;
        }
        cur.read_capacity_units = want.read_capacity_units;
        cur.write_capacity_units = want.write_capacity_units;
        g->def.provisioned_throughput = want;
        throughput_given.insert(u.update->index_name);
      } else {
        const std::string& name = u.del->index_name;
        const IndexInfo* index = current.FindIndex(name);
        if (index != nullptr) changes->deleted = *index;
        std::erase_if(d.global_secondary_indexes,
                      [&](const auto& g) { return g.def.index_name == name; });
        next->index_ids.erase(name);
        PruneAttributeDefinitions(&d);
      }
    }
  }

  if (to_provisioned) {
    for (const auto& g : d.global_secondary_indexes) {
      if (!throughput_given.count(g.def.index_name)) {
        return Invalid("ProvisionedThroughput must be specified for index: " +
                       g.def.index_name);
      }
    }
  }
  if (to_on_demand) {
    for (auto& g : d.global_secondary_indexes) {
      g.def.provisioned_throughput.reset();
      g.provisioned_throughput.read_capacity_units = 0;
      g.provisioned_throughput.write_capacity_units = 0;
    }
  }
  // The warm throughput follows each GSI's capacity (its new units, a
  // billing switch); one raised by this request counts as in force before.
  for (auto& g : d.global_secondary_indexes) {
    const GlobalSecondaryIndexDescription* was = nullptr;
    for (const auto& c : current.desc.global_secondary_indexes) {
      if (c.def.index_name == g.def.index_name) was = &c;
    }
    const WarmUnits before = EffectiveWarm(
        g.settings, current.desc.billing_mode,
        was ? was->provisioned_throughput : g.provisioned_throughput, capacity);
    FollowCapacity(before, d.billing_mode, g.provisioned_throughput, capacity,
                   &g.settings);
  }
  ResolveIndexes(next);
  return Status::OK();
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
  if (changes.deleted) propagator_.ForgetIndex(paused, changes.deleted->id);
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
  }
  return Status::OK();
}

Status SecondaryIndexes::SetLag(const TableInfo& table,
                                const std::string& index_name,
                                int64_t lag_micros) {
  const IndexInfo* index = table.FindIndex(index_name);
  if (index == nullptr) return IndexNotFound(index_name, table.desc.table_name);
  if (!index->global) {
    return Status::Validation("Index " + index_name +
                              " is a local secondary index, which is updated "
                              "synchronously and has no lag");
  }
  propagator_.SetLag(index->id, lag_micros);
  return Status::OK();
}

}  // namespace dynarock
