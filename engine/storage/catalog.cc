#include "engine/storage/catalog.h"

#include "engine/schema/schema.h"
#include "engine/util/coding.h"

namespace dynarock {
namespace {

// Meta column family keys:
//   "t" ns "\0" name   -> table record (EncodeTable)
//   "n"                -> next table id (4 bytes BE)
//   "c" id(4 BE) "i"   -> item count counter
//   "c" id(4 BE) "b"   -> size-in-bytes counter
constexpr char kTablePrefix = 't';
constexpr char kNextIdKey[] = "n";
// Version 1: no index ids. Version 2 appends the index ids (name, id).
// Version 3 appends Time to Live (enabled, attribute name, last change).
// Version 4 appends the tags (count, then key and value of each).
// Version 5 appends the stream: specification (present, enabled, view
// type) and the latest stream's ARN and label.
// Version 6 appends contributor insights (count, then per resource its name,
// a byte on/off, and the micros of its last change). The byte's bit 1 holds
// the THROTTLED_KEYS mode: a reader that only tests the byte for zero still
// reads on/off right, so records of any version stay readable by older
// builds.
// Version 7 appends the table class (present, class, last update) and the
// throughput settings (OnDemandThroughput maxima, warm throughput) of the
// table, then of each GSI in the order of the GSI list.
// Version 8 adds nothing but may hold GSI key schemas of several HASH or
// RANGE elements (multi-attribute keys), which a reader of version 7 would
// misread as a one- or two-attribute key; it is written only by tables that
// have such an index, so every other table stays readable by older builds.
// Version 9 appends the vector indexes (count, then per index its name,
// vector attribute, dimensions, distance function, search schema,
// projection, ARN and whether it was added by UpdateTable); it is written
// only by tables that have one, so every other table stays readable by
// older builds.
// Version 10 appends the KMS key of server-side encryption (present, key
// ARN) after the vector indexes (their count always written); written only
// by tables encrypted with a KMS key.
// Version 11 writes the KMS key as present (a byte) and key ARN, then
// appends the table class update before the last (present, micros);
// written only by tables whose class changed twice.
constexpr uint8_t kRecordVersion = 11;
constexpr uint8_t kSseKeyVersion = 10;
constexpr uint8_t kVectorIndexesVersion = 9;
constexpr uint8_t kMultiAttributeKeysVersion = 8;
constexpr uint8_t kSingleAttributeKeysVersion = 7;

bool HasMultiAttributeKey(const TableDescription& d) {
  for (const auto& g : d.global_secondary_indexes) {
    size_t hashes = 0, ranges = 0;
    for (const auto& e : g.def.key_schema) {
      (e.key_type == KeyType::kHash ? hashes : ranges) += 1;
    }
    if (hashes > 1 || ranges > 1) return true;
  }
  return false;
}

std::string TableKey(std::string_view ns, std::string_view name) {
  std::string key(1, kTablePrefix);
  key.append(ns);
  key.push_back('\0');
  key.append(name);
  return key;
}

std::string CounterKey(uint32_t id, char which) {
  std::string key(1, 'c');
  PutFixed32BE(&key, id);
  key.push_back(which);
  return key;
}

// --- record encoding (on disk; append fields only at the end) ---------

void PutKeySchema(RecordWriter& w, const std::vector<KeySchemaElement>& ks) {
  w.Varint(ks.size());
  for (const auto& e : ks) {
    w.String(e.attribute_name);
    w.Byte(e.key_type);
  }
}

void PutProjection(RecordWriter& w, const Projection& p) {
  w.Byte(p.type);
  w.Varint(p.non_key_attributes.size());
  for (const auto& a : p.non_key_attributes) w.String(a);
}

void PutThroughput(RecordWriter& w, const ProvisionedThroughputDescription& t) {
  w.Signed(t.read_capacity_units);
  w.Signed(t.write_capacity_units);
  w.Signed(t.number_of_decreases_today);
  w.OptionalSigned(t.last_increase_micros);
  w.OptionalSigned(t.last_decrease_micros);
}

void PutSettings(RecordWriter& w, const ThroughputSettings& s) {
  w.Signed(s.max_read_request_units);
  w.Signed(s.max_write_request_units);
  w.Signed(s.warm_read_units_per_second);
  w.Signed(s.warm_write_units_per_second);
}

// Version 1's GSIs and LSIs.
void PutSecondaryIndexes(RecordWriter& w, const TableDescription& d) {
  w.Varint(d.global_secondary_indexes.size());
  for (const auto& g : d.global_secondary_indexes) {
    w.String(g.def.index_name);
    PutKeySchema(w, g.def.key_schema);
    PutProjection(w, g.def.projection);
    w.Bool(g.def.provisioned_throughput.has_value());
    if (g.def.provisioned_throughput) {
      w.Signed(g.def.provisioned_throughput->read_capacity_units);
      w.Signed(g.def.provisioned_throughput->write_capacity_units);
    }
    w.String(g.index_arn);
    w.Byte(g.index_status);
    w.Bool(g.backfilling);
    PutThroughput(w, g.provisioned_throughput);
  }
  w.Varint(d.local_secondary_indexes.size());
  for (const auto& l : d.local_secondary_indexes) {
    w.String(l.def.index_name);
    PutKeySchema(w, l.def.key_schema);
    PutProjection(w, l.def.projection);
    w.String(l.index_arn);
  }
}

// What versions 2 to 6 added: index ids, Time to Live, tags, the stream,
// contributor insights.
void PutVersionsTwoToSix(RecordWriter& w, const TableInfo& t) {
  const TableDescription& d = t.desc;
  // Version 2.
  w.Varint(t.index_ids.size());
  for (const auto& [name, id] : t.index_ids) {
    w.String(name);
    w.Varint(id);
  }
  // Version 3.
  w.Bool(t.ttl.enabled);
  w.String(t.ttl.attribute_name);
  w.OptionalSigned(t.ttl.last_change_micros);
  // Version 4.
  w.Varint(t.tags.size());
  for (const auto& [key, value] : t.tags) {
    w.String(key);
    w.String(value);
  }
  // Version 5.
  w.Bool(d.stream_specification.has_value());
  if (d.stream_specification) {
    w.Bool(d.stream_specification->stream_enabled);
    w.Byte(
        d.stream_specification->stream_view_type
            ? static_cast<uint8_t>(*d.stream_specification->stream_view_type)
            : 0);
  }
  w.String(d.latest_stream_arn);
  w.String(d.latest_stream_label);
  // Version 6.
  w.Varint(t.contributor_insights.size());
  for (const auto& [resource, setting] : t.contributor_insights) {
    w.String(resource);
    const bool throttled_only = setting.mode == ContributorInsightsMode::kThrottledKeys;
    w.Byte((setting.enabled ? 1 : 0) | (throttled_only ? 2 : 0));
    w.Signed(setting.last_change_micros);
  }
}

// Version 9's vector indexes.
void PutVectorIndexes(RecordWriter& w, const TableDescription& d) {
  w.Varint(d.vector_indexes.size());
  for (const auto& v : d.vector_indexes) {
    w.String(v.def.index_name);
    w.String(v.def.vector_attribute);
    w.Signed(v.def.dimensions);
    w.Byte(static_cast<uint8_t>(v.def.distance_function));
    w.Varint(v.def.search_schema.size());
    for (const auto& e : v.def.search_schema) {
      w.String(e.attribute_name);
      w.Byte(static_cast<uint8_t>(e.type));
    }
    PutProjection(w, v.def.projection);
    w.String(v.index_arn);
    w.Bool(v.backfilling.has_value());
  }
}

std::string EncodeTableImpl(const TableInfo& t) {
  const TableDescription& d = t.desc;
  std::string out;
  RecordWriter w(&out);
  const bool two_class_updates =
      d.table_class_summary && d.table_class_summary->previous_update_micros;
  const uint8_t version = two_class_updates           ? kRecordVersion
                          : d.sse_description         ? kSseKeyVersion
                          : !d.vector_indexes.empty() ? kVectorIndexesVersion
                          : HasMultiAttributeKey(d)   ? kMultiAttributeKeysVersion
                                                      : kSingleAttributeKeysVersion;
  w.Byte(version);
  w.Varint(t.id);
  w.String(t.ns);
  w.String(d.table_name);
  w.String(d.table_arn);
  w.String(d.table_id);
  w.Signed(d.creation_date_time_micros);
  w.Byte(d.billing_mode);
  w.OptionalSigned(d.last_update_to_pay_per_request_micros);
  PutThroughput(w, d.provisioned_throughput);
  PutKeySchema(w, d.key_schema);
  w.Varint(d.attribute_definitions.size());
  for (const auto& a : d.attribute_definitions) {
    w.String(a.attribute_name);
    w.Byte(a.attribute_type);
  }
  PutSecondaryIndexes(w, d);
  w.Bool(d.deletion_protection_enabled);
  w.OptionalSigned(t.updating_since_micros);
  w.OptionalSigned(t.deleting_since_micros);
  PutVersionsTwoToSix(w, t);
  // Version 7.
  w.Bool(d.table_class_summary.has_value());
  if (d.table_class_summary) {
    w.Byte(d.table_class_summary->table_class);
    w.OptionalSigned(d.table_class_summary->last_update_micros);
  }
  PutSettings(w, d.settings);
  for (const auto& g : d.global_secondary_indexes) PutSettings(w, g.settings);
  // Version 9.
  if (version >= kVectorIndexesVersion) PutVectorIndexes(w, d);
  // Version 10.
  if (version == kSseKeyVersion) w.String(d.sse_description->kms_master_key_arn);
  // Version 11.
  if (version >= kRecordVersion) {
    w.Bool(d.sse_description.has_value());
    if (d.sse_description) w.String(d.sse_description->kms_master_key_arn);
    w.OptionalSigned(d.table_class_summary->previous_update_micros);
  }
  return out;
}

// RecordReader plus the catalog's composite fields.
struct Reader : RecordReader {
  using RecordReader::RecordReader;

  std::vector<KeySchemaElement> KeySchema() {
    std::vector<KeySchemaElement> ks(Count());
    for (auto& e : ks) {
      e.attribute_name = String();
      e.key_type = static_cast<KeyType>(Byte());
    }
    return ks;
  }
  Projection ReadProjection() {
    Projection p;
    p.type = static_cast<ProjectionType>(Byte());
    p.non_key_attributes.resize(Count());
    for (auto& a : p.non_key_attributes) a = String();
    return p;
  }
  ThroughputSettings Settings() {
    ThroughputSettings s;
    s.max_read_request_units = Signed();
    s.max_write_request_units = Signed();
    s.warm_read_units_per_second = Signed();
    s.warm_write_units_per_second = Signed();
    return s;
  }
  ProvisionedThroughputDescription Throughput() {
    ProvisionedThroughputDescription t;
    t.read_capacity_units = Signed();
    t.write_capacity_units = Signed();
    t.number_of_decreases_today = Signed();
    t.last_increase_micros = OptionalSigned();
    t.last_decrease_micros = OptionalSigned();
    return t;
  }
};

// Version 1's GSIs and LSIs (PutSecondaryIndexes).
void ReadSecondaryIndexes(Reader& r, TableDescription* out) {
  TableDescription& d = *out;
  d.global_secondary_indexes.resize(r.Count());
  for (auto& g : d.global_secondary_indexes) {
    g.def.index_name = r.String();
    g.def.key_schema = r.KeySchema();
    g.def.projection = r.ReadProjection();
    if (r.Byte()) {
      ProvisionedThroughput pt;
      pt.read_capacity_units = r.Signed();
      pt.write_capacity_units = r.Signed();
      g.def.provisioned_throughput = pt;
    }
    g.index_arn = r.String();
    g.index_status = static_cast<TableStatus>(r.Byte());
    g.backfilling = r.Byte() != 0;
    g.provisioned_throughput = r.Throughput();
  }
  d.local_secondary_indexes.resize(r.Count());
  for (auto& l : d.local_secondary_indexes) {
    l.def.index_name = r.String();
    l.def.key_schema = r.KeySchema();
    l.def.projection = r.ReadProjection();
    l.index_arn = r.String();
  }
}

// PutVersionsTwoToSix's fields, as far as `version` has them; a version 1
// record's indexes must be rebuilt (it kept no index ids).
void ReadVersionsTwoToSix(Reader& r, uint8_t version, TableInfo* out) {
  TableInfo& t = *out;
  TableDescription& d = t.desc;
  if (version >= 2) {
    const uint64_t n = r.Count();
    for (uint64_t i = 0; i < n && r.ok; ++i) {
      std::string name = r.String();
      t.index_ids[std::move(name)] = static_cast<uint32_t>(r.Varint());
    }
  } else {
    t.needs_index_rebuild = !d.global_secondary_indexes.empty() ||
                            !d.local_secondary_indexes.empty();
  }
  if (version >= 3) {
    t.ttl.enabled = r.Byte() != 0;
    t.ttl.attribute_name = r.String();
    t.ttl.last_change_micros = r.OptionalSigned();
  }
  if (version >= 4) {
    const uint64_t n = r.Count();
    for (uint64_t i = 0; i < n && r.ok; ++i) {
      std::string key = r.String();
      t.tags[std::move(key)] = r.String();
    }
  }
  if (version >= 5 && r.Byte() != 0) {
    StreamSpecification spec;
    spec.stream_enabled = r.Byte() != 0;
    const uint8_t view = r.Byte();
    if (view != 0) spec.stream_view_type = static_cast<StreamViewType>(view);
    d.stream_specification = spec;
  }
  if (version >= 5) {
    d.latest_stream_arn = r.String();
    d.latest_stream_label = r.String();
  }
  if (version >= 6) {
    const uint64_t n = r.Count();
    for (uint64_t i = 0; i < n && r.ok; ++i) {
      std::string resource = r.String();
      const uint8_t flags = r.Byte();
      ContributorInsightsSetting setting;
      setting.enabled = (flags & 1) != 0;
      setting.mode = (flags & 2) != 0 ? ContributorInsightsMode::kThrottledKeys
                                      : ContributorInsightsMode::kAccessedAndThrottledKeys;
      setting.last_change_micros = r.Signed();
      t.contributor_insights[std::move(resource)] = setting;
    }
  }
}

// PutVectorIndexes.
void ReadVectorIndexes(Reader& r, TableDescription* out) {
  TableDescription& d = *out;
  d.vector_indexes.resize(r.Count());
  for (auto& v : d.vector_indexes) {
    v.def.index_name = r.String();
    v.def.vector_attribute = r.String();
    v.def.dimensions = r.Signed();
    v.def.distance_function = static_cast<VectorDistanceFunction>(r.Byte());
    v.def.search_schema.resize(r.Count());
    for (auto& e : v.def.search_schema) {
      e.attribute_name = r.String();
      e.type = static_cast<SearchSchemaElementType>(r.Byte());
    }
    v.def.projection = r.ReadProjection();
    v.index_arn = r.String();
    if (r.Byte() != 0) v.backfilling = false;
  }
}

Result<TableInfo> DecodeTableImpl(std::string_view bytes) {
  Reader r{bytes};
  const uint8_t version = r.Byte();
  if (version < 1 || version > kRecordVersion) {
    return Status::Corruption("unknown table record version");
  }
  TableInfo t;
  TableDescription& d = t.desc;
  t.id = static_cast<uint32_t>(r.Varint());
  t.ns = r.String();
  d.table_name = r.String();
  d.table_arn = r.String();
  d.table_id = r.String();
  d.creation_date_time_micros = r.Signed();
  d.billing_mode = static_cast<BillingMode>(r.Byte());
  d.last_update_to_pay_per_request_micros = r.OptionalSigned();
  d.provisioned_throughput = r.Throughput();
  d.key_schema = r.KeySchema();
  d.attribute_definitions.resize(r.Count());
  for (auto& a : d.attribute_definitions) {
    a.attribute_name = r.String();
    a.attribute_type = static_cast<AttrType>(r.Byte());
  }
  ReadSecondaryIndexes(r, &d);
  d.deletion_protection_enabled = r.Byte() != 0;
  t.updating_since_micros = r.OptionalSigned();
  t.deleting_since_micros = r.OptionalSigned();
  ReadVersionsTwoToSix(r, version, &t);
  if (version >= 7) {
    if (r.Byte() != 0) {
      TableClassSummary summary;
      summary.table_class = static_cast<TableClass>(r.Byte());
      summary.last_update_micros = r.OptionalSigned();
      d.table_class_summary = summary;
    }
    d.settings = r.Settings();
    for (auto& g : d.global_secondary_indexes) g.settings = r.Settings();
  }
  if (version >= 9) ReadVectorIndexes(r, &d);
  if (version == kSseKeyVersion) d.sse_description = SseDescription{r.String()};
  if (version >= kRecordVersion) {
    if (r.Byte() != 0) d.sse_description = SseDescription{r.String()};
    const std::optional<int64_t> previous = r.OptionalSigned();
    if (d.table_class_summary) d.table_class_summary->previous_update_micros = previous;
  }
  if (!r.ok) return Status::Corruption("truncated table record");
  t.key = ResolveKeyDef(d.key_schema, d.attribute_definitions);
  ResolveIndexes(&t);
  return t;
}

// The settings only UpdateSettings changes.
bool SameSettings(const TableInfo& a, const TableInfo& b) {
  return a.ttl.enabled == b.ttl.enabled &&
         a.ttl.attribute_name == b.ttl.attribute_name &&
         a.ttl.last_change_micros == b.ttl.last_change_micros && a.tags == b.tags &&
         a.contributor_insights == b.contributor_insights;
}

void CopySettings(const TableInfo& from, TableInfo* to) {
  to->ttl = from.ttl;
  to->tags = from.tags;
  to->contributor_insights = from.contributor_insights;
}

}  // namespace

std::string EncodeTableRecord(const TableInfo& t) { return EncodeTableImpl(t); }
Result<TableInfo> DecodeTableRecord(std::string_view bytes) {
  return DecodeTableImpl(bytes);
}

const IndexInfo* TableInfo::FindIndex(std::string_view name) const {
  for (const IndexInfo& index : indexes) {
    if (index.name == name) return &index;
  }
  return nullptr;
}

void ResolveIndexes(TableInfo* info) {
  const TableDescription& d = info->desc;
  info->indexes.clear();
  auto id_of = [&](const std::string& name) -> uint32_t {
    auto it = info->index_ids.find(name);
    return it == info->index_ids.end() ? 0 : it->second;
  };
  for (const auto& g : d.global_secondary_indexes) {
    IndexInfo index;
    index.id = id_of(g.def.index_name);
    index.name = g.def.index_name;
    index.global = true;
    index.key = ResolveKeyDef(g.def.key_schema, d.attribute_definitions);
    index.projection = g.def.projection;
    info->indexes.push_back(std::move(index));
  }
  for (const auto& l : d.local_secondary_indexes) {
    IndexInfo index;
    index.id = id_of(l.def.index_name);
    index.name = l.def.index_name;
    index.global = false;
    index.key = ResolveKeyDef(l.def.key_schema, d.attribute_definitions);
    index.projection = l.def.projection;
    info->indexes.push_back(std::move(index));
  }
  for (const auto& v : d.vector_indexes) {
    IndexInfo index;
    index.id = id_of(v.def.index_name);
    index.name = v.def.index_name;
    index.global = true;  // kept from the GSI log, like a GSI
    index.projection = v.def.projection;
    index.vector = std::make_shared<const VectorIndexDef>(v.def);
    // key: the HASH attribute of the search schema, if any (hash_name
    // stays empty without one).
    for (const auto& e : v.def.search_schema) {
      if (e.type != SearchSchemaElementType::kHash) continue;
      index.key.hash_name = e.attribute_name;
      for (const auto& a : d.attribute_definitions) {
        if (a.attribute_name == e.attribute_name) index.key.hash_type = a.attribute_type;
      }
    }
    info->indexes.push_back(std::move(index));
  }
}

Result<std::unique_ptr<Catalog>> Catalog::Load(Store* store) {
  std::unique_ptr<Catalog> catalog(new Catalog(store));
  // Not yet shared with any thread; held so the analysis sees it.
  WriterMutexLock lock(&catalog->mu_);
  auto it = store->NewIterator(Cf::kMeta, std::string(1, kTablePrefix),
                               std::string(1, kTablePrefix + 1));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    DR_ASSIGN_OR_RETURN(TableInfo info, DecodeTableRecord(it->value()));
    info.stats = std::make_shared<TableStats>();
    DR_ASSIGN_OR_RETURN(int64_t items, store->GetCounter(CounterKey(info.id, 'i')));
    DR_ASSIGN_OR_RETURN(int64_t bytes, store->GetCounter(CounterKey(info.id, 'b')));
    info.stats->item_count = items;
    info.stats->size_bytes = bytes;
    catalog->next_id_ = std::max(catalog->next_id_, info.id + 1);
    for (const auto& [name, id] : info.index_ids) {
      catalog->next_id_ = std::max(catalog->next_id_, id + 1);
    }
    NameKey name{info.ns, info.desc.table_name};
    catalog->tables_[std::move(name)] =
        std::make_shared<const TableInfo>(std::move(info));
  }
  DR_RETURN_IF_ERROR(it->status());
  DR_ASSIGN_OR_RETURN(auto next, store->Get(Cf::kMeta, kNextIdKey));
  if (next && next->size() == 4) {
    catalog->next_id_ = std::max(catalog->next_id_, DecodeFixed32BE(next->data()));
  }
  return catalog;
}

std::shared_ptr<const TableInfo> Catalog::Find(std::string_view ns,
                                               std::string_view name) const {
  ReaderMutexLock lock(&mu_);
  auto it = tables_.find(std::make_pair(std::string(ns), std::string(name)));
  return it == tables_.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const TableInfo>> Catalog::List(
    std::string_view ns) const {
  std::vector<std::shared_ptr<const TableInfo>> out;
  ReaderMutexLock lock(&mu_);
  for (auto it = tables_.lower_bound(std::make_pair(std::string(ns), std::string()));
       it != tables_.end() && it->first.first == ns; ++it) {
    out.push_back(it->second);
  }
  return out;
}

std::vector<std::shared_ptr<const TableInfo>> Catalog::All() const {
  std::vector<std::shared_ptr<const TableInfo>> out;
  ReaderMutexLock lock(&mu_);
  for (const auto& [name, table] : tables_) out.push_back(table);
  return out;
}

Result<std::shared_ptr<const TableInfo>> Catalog::Create(TableInfo info) {
  WriterMutexLock lock(&mu_);
  NameKey name{info.ns, info.desc.table_name};
  if (tables_.count(name)) {
    return Status::ResourceInUse("Table already exists: " + info.desc.table_name);
  }
  uint32_t next_id = next_id_;
  if (info.id == 0) {
    info.id = next_id++;
    info.index_ids.clear();
    for (const auto& g : info.desc.global_secondary_indexes) {
      info.index_ids[g.def.index_name] = next_id++;
    }
    for (const auto& v : info.desc.vector_indexes) {
      info.index_ids[v.def.index_name] = next_id++;
    }
    for (const auto& l : info.desc.local_secondary_indexes) {
      info.index_ids[l.def.index_name] = next_id++;
    }
  }
  info.needs_index_rebuild = false;
  ResolveIndexes(&info);
  if (!info.stats) info.stats = std::make_shared<TableStats>();
  WriteBatch batch;
  batch.Put(Cf::kMeta, TableKey(info.ns, info.desc.table_name), EncodeTableRecord(info));
  std::string next;
  PutFixed32BE(&next, next_id);
  batch.Put(Cf::kMeta, kNextIdKey, next);
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  next_id_ = next_id;
  auto published = std::make_shared<const TableInfo>(std::move(info));
  tables_[std::move(name)] = published;
  return published;
}

Status Catalog::Replace(std::shared_ptr<const TableInfo> info, WriteBatch* batch) {
  WriterMutexLock lock(&mu_);
  auto current = tables_.find(NameKey{info->ns, info->desc.table_name});
  if (current != tables_.end() && current->second->id == info->id &&
      !SameSettings(*current->second, *info)) {
    auto kept = std::make_shared<TableInfo>(*info);
    CopySettings(*current->second, kept.get());
    info = std::move(kept);
  }
  batch->Put(Cf::kMeta, TableKey(info->ns, info->desc.table_name), EncodeTableRecord(*info));
  DR_RETURN_IF_ERROR(store_->Write(batch));
  tables_[NameKey{info->ns, info->desc.table_name}] = std::move(info);
  return Status::OK();
}

Result<std::shared_ptr<const TableInfo>> Catalog::UpdateSettings(
    std::string_view ns, std::string_view name, uint32_t id,
    const std::function<Status(TableInfo*)>& change) {
  WriterMutexLock lock(&mu_);
  auto it = tables_.find(NameKey{std::string(ns), std::string(name)});
  if (it == tables_.end() || it->second->id != id) {
    return Status::ResourceNotFound("Requested resource not found");
  }
  auto next = std::make_shared<TableInfo>(*it->second);
  DR_RETURN_IF_ERROR(change(next.get()));
  WriteBatch batch;
  batch.Put(Cf::kMeta, TableKey(next->ns, next->desc.table_name), EncodeTableRecord(*next));
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  it->second = next;
  return std::shared_ptr<const TableInfo>(std::move(next));
}

Result<uint32_t> Catalog::ReserveId() {
  WriterMutexLock lock(&mu_);
  WriteBatch batch;
  std::string next;
  PutFixed32BE(&next, next_id_ + 1);
  batch.Put(Cf::kMeta, kNextIdKey, next);
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  return next_id_++;
}

Status Catalog::Remove(const TableInfo& info, WriteBatch* batch) {
  WriterMutexLock lock(&mu_);
  batch->Delete(Cf::kMeta, TableKey(info.ns, info.desc.table_name));
  batch->Delete(Cf::kMeta, CounterKey(info.id, 'i'));
  batch->Delete(Cf::kMeta, CounterKey(info.id, 'b'));
  DR_RETURN_IF_ERROR(store_->Write(batch));
  auto it = tables_.find(NameKey{info.ns, info.desc.table_name});
  // Only forget the entry if it is still this table (not a successor with
  // the same name).
  if (it != tables_.end() && it->second->id == info.id) tables_.erase(it);
  return Status::OK();
}

void Catalog::AddStats(uint32_t id, int64_t items, int64_t bytes,
                       WriteBatch* batch) {
  if (items != 0) batch->AddToCounter(CounterKey(id, 'i'), items);
  if (bytes != 0) batch->AddToCounter(CounterKey(id, 'b'), bytes);
}

Result<std::pair<int64_t, int64_t>> Catalog::IndexStats(const Store& store,
                                                       uint32_t index_id) {
  DR_ASSIGN_OR_RETURN(int64_t items, store.GetCounter(CounterKey(index_id, 'i')));
  DR_ASSIGN_OR_RETURN(int64_t bytes, store.GetCounter(CounterKey(index_id, 'b')));
  return std::pair<int64_t, int64_t>{items, bytes};
}

void Catalog::RemoveIndexStats(uint32_t index_id, WriteBatch* batch) {
  batch->Delete(Cf::kMeta, CounterKey(index_id, 'i'));
  batch->Delete(Cf::kMeta, CounterKey(index_id, 'b'));
}

void Catalog::ApplyStats(const TableInfo& info, int64_t items, int64_t bytes) {
  info.stats->item_count.fetch_add(items, std::memory_order_relaxed);
  info.stats->size_bytes.fetch_add(bytes, std::memory_order_relaxed);
}

}  // namespace dynarock
