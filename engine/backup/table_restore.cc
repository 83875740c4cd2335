#include "engine/backup/table_restore.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "engine/clock.h"
#include "engine/index/index_writer.h"
#include "engine/index/secondary_indexes.h"
#include "engine/keys/key_codec.h"
#include "engine/schema/arns.h"
#include "engine/schema/schema.h"
#include "engine/util/uuid.h"
#include "engine/value/encoded_item.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"
#include "engine/vector/vector_index_rules.h"

namespace dynarock {
namespace {

ProvisionedThroughputDescription ThroughputOf(const std::optional<ProvisionedThroughput>& t) {
  ProvisionedThroughputDescription d;
  if (t) {
    d.read_capacity_units = t->read_capacity_units;
    d.write_capacity_units = t->write_capacity_units;
  }
  return d;
}

// Every key attribute of `schema` must be defined.
Status CheckDefined(const std::vector<KeySchemaElement>& schema,
                    const std::vector<AttributeDefinition>& defs) {
  for (const KeySchemaElement& k : schema) {
    bool found = false;
    for (const AttributeDefinition& d : defs) found |= d.attribute_name == k.attribute_name;
    if (!found) {
      return Status::Validation(
          "One or more parameter values were invalid: Some index key attributes "
          "are not defined in AttributeDefinitions. Keys: [" +
          k.attribute_name + "]");
    }
  }
  return Status::OK();
}

// An index override must be one of the source's indexes, perhaps renamed:
// the same key schema and projection (DynamoDB's rule and text, recorded
// October 2026 by the AWS controllers' API-quirks lab).
template <typename Def, typename SourceIndexes>
Status CheckOverrideMatches(const Def& index, const SourceIndexes& source) {
  for (const auto& s : source) {
    if (s.def.key_schema == index.key_schema && s.def.projection == index.projection) {
      return Status::OK();
    }
  }
  return Status::Validation("Invalid Request: Index " + index.index_name +
                            " does not match a secondary index that existed in the source "
                            "table and cannot be created during the restore operation");
}

// A VectorIndexOverride element must be one of the source's vector indexes,
// as it was defined (name, attribute, dimensions, distance function, search
// schema, projection). DynamoDB documents the rule, not its text: the text
// is the secondary indexes' one (above), naming a vector index.
Status CheckVectorOverride(const VectorIndexDef& index, const TableDescription& source) {
  for (const VectorIndexDescription& s : source.vector_indexes) {
    if (s.def == index) return Status::OK();
  }
  return Status::Validation("Invalid Request: Index " + index.index_name +
                            " does not match a vector index that existed in the source "
                            "table and cannot be created during the restore operation");
}

}  // namespace

Status TableRestorer::CheckTarget(const Scope& scope, const std::string& name) {
  TableStatus status;
  if (tables_->Find(scope, name, &status) == nullptr) return Status::OK();
  if (status == TableStatus::kCreating || status == TableStatus::kDeleting) {
    return Status(ErrorCode::kTableInUse, "Table is being " +
                                              std::string(status == TableStatus::kCreating
                                                              ? "created"
                                                              : "deleted") +
                                              ": " + name);
  }
  return Status(ErrorCode::kTableAlreadyExists, "Table already exists: " + name);
}

namespace {

// The restored table's billing mode, throughput and on-demand maxima: the
// source's, or the overrides'. Sets `*keeps_maxima` when the source's
// on-demand maxima come along (its GSIs' too).
Status RestoreBilling(const TableDescription& source, const RestoreOverrides& overrides,
                      int64_t now, TableDescription* d, bool* keeps_maxima) {
  d->billing_mode = overrides.billing_mode.value_or(source.billing_mode);
  if (d->billing_mode == BillingMode::kPayPerRequest) {
    d->last_update_to_pay_per_request_micros = now;
  } else if (overrides.provisioned_throughput) {
    d->provisioned_throughput = ThroughputOf(overrides.provisioned_throughput);
  } else if (source.billing_mode == BillingMode::kProvisioned) {
    d->provisioned_throughput.read_capacity_units =
        source.provisioned_throughput.read_capacity_units;
    d->provisioned_throughput.write_capacity_units =
        source.provisioned_throughput.write_capacity_units;
  } else {
    return Status::Validation(
        "One or more parameter values were invalid: ReadCapacityUnits and "
        "WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
  }
  // The OnDemandThroughput maxima come along (an on-demand source restored
  // on demand); the table class does not (a restored table is STANDARD,
  // as DynamoDB's: recorded October 2026 by the AWS controllers' API-quirks
  // lab), and the warm throughput starts at the new table's default.
  *keeps_maxima = d->billing_mode == BillingMode::kPayPerRequest &&
                  source.billing_mode == BillingMode::kPayPerRequest;
  if (*keeps_maxima) {
    d->settings.max_read_request_units = source.settings.max_read_request_units;
    d->settings.max_write_request_units = source.settings.max_write_request_units;
  }
  const auto& o = overrides.on_demand_throughput;
  if (!o || (!o->max_read_request_units && !o->max_write_request_units)) return Status::OK();
  // DynamoDB's texts (recorded for a PROVISIONED backup restored without a
  // BillingModeOverride); an on-demand restore may set the maxima.
  if (d->billing_mode != BillingMode::kPayPerRequest) {
    return Status::Validation(
        std::string("Cannot override ") +
        (o->max_read_request_units ? "MaxReadRequestUnits" : "MaxWriteRequestUnits") +
        " for OnDemandThroughput unless BillingModeOverride is PAY_PER_REQUEST");
  }
  auto apply = [](const std::optional<int64_t>& value, const char* member, int64_t* in_force) {
    if (!value) return Status::OK();
    if (*value < 1) {
      return Status::Validation(std::string("Invalid Request: Requested ") + member +
                                " for OnDemandThroughput is outside of valid range");
    }
    *in_force = *value;
    return Status::OK();
  };
  DR_RETURN_IF_ERROR(apply(o->max_read_request_units, "MaxReadRequestUnits",
                           &d->settings.max_read_request_units));
  return apply(o->max_write_request_units, "MaxWriteRequestUnits",
               &d->settings.max_write_request_units);
}

// The restored GSIs: the source's, or GlobalSecondaryIndexOverride's (each
// one of the source's), with the restored table's throughput.
Status RestoreGsis(const TableDescription& source, const RestoreOverrides& overrides,
                   bool keeps_maxima, TableDescription* d) {
  const bool provisioned = d->billing_mode == BillingMode::kProvisioned;
  std::vector<GlobalSecondaryIndexDef> gsis;
  if (overrides.global_secondary_indexes) {
    gsis = *overrides.global_secondary_indexes;
  } else {
    for (const auto& g : source.global_secondary_indexes) gsis.push_back(g.def);
  }
  for (GlobalSecondaryIndexDef& g : gsis) {
    if (overrides.global_secondary_indexes) {
      DR_RETURN_IF_ERROR(CheckOverrideMatches(g, source.global_secondary_indexes));
    }
    DR_RETURN_IF_ERROR(CheckDefined(g.key_schema, d->attribute_definitions));
    if (!provisioned) {
      g.provisioned_throughput.reset();
    } else if (!g.provisioned_throughput) {
      g.provisioned_throughput = ProvisionedThroughput{
          d->provisioned_throughput.read_capacity_units,
          d->provisioned_throughput.write_capacity_units};
    }
    GlobalSecondaryIndexDescription desc;
    desc.def = g;
    desc.index_arn = IndexArn(d->table_arn, g.index_name);
    desc.provisioned_throughput = ThroughputOf(g.provisioned_throughput);
    for (const auto& src : source.global_secondary_indexes) {
      if (keeps_maxima && src.def.index_name == g.index_name) {
        desc.settings.max_read_request_units = src.settings.max_read_request_units;
        desc.settings.max_write_request_units = src.settings.max_write_request_units;
      }
    }
    d->global_secondary_indexes.push_back(std::move(desc));
  }
  return Status::OK();
}

// The restored LSIs: the source's, or LocalSecondaryIndexOverride's.
Status RestoreLsis(const TableDescription& source, const RestoreOverrides& overrides,
                   TableDescription* d) {
  std::vector<LocalSecondaryIndexDef> lsis;
  if (overrides.local_secondary_indexes) {
    lsis = *overrides.local_secondary_indexes;
  } else {
    for (const auto& l : source.local_secondary_indexes) lsis.push_back(l.def);
  }
  for (const LocalSecondaryIndexDef& l : lsis) {
    if (overrides.local_secondary_indexes) {
      DR_RETURN_IF_ERROR(CheckOverrideMatches(l, source.local_secondary_indexes));
    }
    DR_RETURN_IF_ERROR(CheckDefined(l.key_schema, d->attribute_definitions));
    LocalSecondaryIndexDescription desc;
    desc.def = l;
    desc.index_arn = IndexArn(d->table_arn, l.index_name);
    d->local_secondary_indexes.push_back(std::move(desc));
  }
  return Status::OK();
}

// Vector indexes: the source's, or those of VectorIndexOverride (each one
// of the source's: "The indexes provided must match existing vector
// indexes from the backup", API reference); their graphs are built from
// the restored entries when the table is published.
Status RestoreVectorIndexes(const TableDescription& source, const RestoreOverrides& overrides,
                            TableDescription* d) {
  std::vector<VectorIndexDef> vectors;
  if (overrides.vector_indexes) {
    vectors = *overrides.vector_indexes;
  } else {
    for (const auto& v : source.vector_indexes) vectors.push_back(v.def);
  }
  std::set<std::string> vector_names;
  for (const VectorIndexDef& v : vectors) {
    if (overrides.vector_indexes) DR_RETURN_IF_ERROR(CheckVectorOverride(v, source));
    if (!vector_names.insert(v.index_name).second) {
      return Status::Validation("One or more parameter values were invalid: Duplicate index "
                                "name: " + v.index_name);
    }
  }
  if (!vectors.empty() && d->billing_mode != BillingMode::kPayPerRequest) {
    return vector::OnDemandOnly();
  }
  for (VectorIndexDef& v : vectors) {
    VectorIndexDescription desc;
    desc.index_arn = IndexArn(d->table_arn, v.index_name);
    desc.def = std::move(v);
    d->vector_indexes.push_back(std::move(desc));
  }
  return Status::OK();
}

}  // namespace

Result<TableInfo> TableRestorer::Definition(const Scope& scope, const std::string& target,
                                            const TableDescription& source,
                                            const RestoreOverrides& overrides) const {
  const int64_t now = clock_->NowMicros();
  TableInfo info;
  info.ns = scope.ns;
  TableDescription& d = info.desc;
  d.table_name = target;
  d.table_arn = TableArn(scope, target);
  d.table_id = NewUuid();
  d.key_schema = source.key_schema;
  d.attribute_definitions = source.attribute_definitions;
  d.creation_date_time_micros = now;
  if (overrides.sse_specification) {
    if (overrides.sse_specification->enabled) {
      d.sse_description =
          SseDescription{KmsKeyArn(scope, overrides.sse_specification->kms_master_key_id)};
    }
  } else {
    d.sse_description = source.sse_description;
  }
  bool keeps_maxima = false;
  DR_RETURN_IF_ERROR(RestoreBilling(source, overrides, now, &d, &keeps_maxima));
  DR_RETURN_IF_ERROR(RestoreGsis(source, overrides, keeps_maxima, &d));
  DR_RETURN_IF_ERROR(RestoreLsis(source, overrides, &d));
  DR_RETURN_IF_ERROR(RestoreVectorIndexes(source, overrides, &d));
  info.key = ResolveKeyDef(d.key_schema, d.attribute_definitions);
  return info;
}

Result<TableDescription> TableRestorer::Restore(TableInfo def,
                                                const RestoreItemSource& items) {
  // Ids first (never reused), so the data can be written before the table
  // is published.
  DR_ASSIGN_OR_RETURN(def.id, catalog_->ReserveId());
  for (const auto& g : def.desc.global_secondary_indexes) {
    DR_ASSIGN_OR_RETURN(def.index_ids[g.def.index_name], catalog_->ReserveId());
  }
  for (const auto& l : def.desc.local_secondary_indexes) {
    DR_ASSIGN_OR_RETURN(def.index_ids[l.def.index_name], catalog_->ReserveId());
  }
  for (const auto& v : def.desc.vector_indexes) {
    DR_ASSIGN_OR_RETURN(def.index_ids[v.def.index_name], catalog_->ReserveId());
  }
  ResolveIndexes(&def);
  const uint32_t id = def.id;
  const std::string dir = store_->path() + "/restore";
  const std::string file = dir + "/" + std::to_string(id) + ".sst";

  auto cleanup = [&]() {
    WriteBatch batch;
    batch.DeleteRange(Cf::kItems, keys::TablePrefix(id), keys::TableEnd(id));
    for (const IndexInfo& index : def.indexes) {
      batch.DeleteRange(Cf::kIndexes, keys::TablePrefix(index.id), keys::TableEnd(index.id));
    }
    batch.DeleteRange(Cf::kMeta, ItemCollectionSizeBegin(id), ItemCollectionSizeEnd(id));
    Catalog::AddStats(id, -def.stats->item_count.load(), -def.stats->size_bytes.load(),
                      &batch);
    store_->Write(&batch).ok();
    store_->RemoveAll(file).ok();
  };
  def.stats = std::make_shared<TableStats>();

  auto run = [&]() -> Status {
    DR_RETURN_IF_ERROR(store_->CreateDirs(dir));
    std::unique_ptr<SstWriter> writer = store_->NewSstWriter(file);
    std::map<std::string, int64_t> collections;
    auto batch = std::make_unique<WriteBatch>();
    int64_t in_batch = 0, count = 0, bytes = 0;
    const std::string prefix = keys::TablePrefix(id);
    std::string key;
    DR_RETURN_IF_ERROR(items([&](std::string_view suffix, std::string_view value) -> Status {
      key.assign(prefix);
      key.append(suffix);
      DR_RETURN_IF_ERROR(writer->Put(key, value));
      ++count;
      if (def.indexes.empty()) {
        DR_ASSIGN_OR_RETURN(int64_t size, EncodedItemSize(value));
        bytes += size;
        return Status::OK();
      }
      DR_ASSIGN_OR_RETURN(Item item, DecodeItem(value));
      bytes += ItemSize(item);
      AddIndexEntriesOf(def, item, batch.get(), &collections);
      if (++in_batch == 1000) {
        DR_RETURN_IF_ERROR(store_->Write(batch.get()));
        batch = std::make_unique<WriteBatch>();
        in_batch = 0;
      }
      return Status::OK();
    }));
    DR_RETURN_IF_ERROR(writer->Finish());
    if (writer->entries() > 0) {
      DR_RETURN_IF_ERROR(store_->Ingest(Cf::kItems, {file}, /*move=*/true));
    }
    for (const auto& [k, size] : collections) batch->AddToCounter(k, size);
    Catalog::AddStats(id, count, bytes, batch.get());
    DR_RETURN_IF_ERROR(store_->Write(batch.get()));
    def.stats->item_count = count;
    def.stats->size_bytes = bytes;
    return Status::OK();
  };
  Status s = run();
  if (!s.ok()) {
    cleanup();
    return s;
  }
  store_->RemoveAll(file).ok();  // moved when ingested; a leftover otherwise
  Result<TableDescription> published = tables_->PublishRestored(def);
  if (!published.ok()) cleanup();
  return published;
}

Result<TableExport> ExportTableItems(const Store& store, const StoreSnapshot& snapshot,
                                     uint32_t table_id, const std::string& file) {
  TableExport out;
  std::unique_ptr<SstWriter> writer = store.NewSstWriter(file);
  auto it = snapshot.NewIterator(Cf::kItems, keys::TablePrefix(table_id),
                                 keys::TableEnd(table_id));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    DR_RETURN_IF_ERROR(writer->Put(it->key().substr(4), it->value()));
    DR_ASSIGN_OR_RETURN(int64_t size, EncodedItemSize(it->value()));
    ++out.items;
    out.bytes += size;
  }
  DR_RETURN_IF_ERROR(it->status());
  DR_RETURN_IF_ERROR(writer->Finish());
  return out;
}

RestoreItemSource ItemsOfFile(const Store* store, std::string file) {
  return [store, file = std::move(file)](const RestoreItemVisitor& visit) -> Status {
    if (!store->FileExists(file)) return Status::OK();
    return store->ReadSst(file, visit);
  };
}

}  // namespace dynarock
