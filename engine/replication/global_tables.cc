#include "engine/replication/global_tables.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "engine/clock.h"
#include "engine/keys/key_codec.h"
#include "engine/util/coding.h"
#include "engine/util/crash_points.h"

namespace dynarock {
namespace {

constexpr char kMemberPrefix = 'G';
constexpr uint8_t kMemberVersion = 3;
constexpr uint8_t kLegacyFlag = 1;
constexpr uint8_t kLeavingFlag = 2;
constexpr char kGlobalTableVersion[] = "2019.11.21";
constexpr char kLegacyGlobalTableVersion[] = "2017.11.29";
// Replication records written per batch while a new replica is filled.
constexpr size_t kCopyBatch = 1000;

// A read override in a member record: which members are set, both values.
constexpr uint8_t kOverridesRead = 1;
constexpr uint8_t kOverridesMaxRead = 2;

void PutReadOverride(const ReadOverride& o, RecordWriter* w) {
  w->Byte(static_cast<uint8_t>((o.read_capacity_units ? kOverridesRead : 0) |
                               (o.max_read_request_units ? kOverridesMaxRead : 0)));
  w->Signed(o.read_capacity_units.value_or(0));
  w->Signed(o.max_read_request_units.value_or(0));
}

ReadOverride GetReadOverride(RecordReader* r) {
  ReadOverride o;
  const uint8_t set = r->Byte();
  const int64_t read = r->Signed();
  const int64_t max_read = r->Signed();
  if (set & kOverridesRead) o.read_capacity_units = read;
  if (set & kOverridesMaxRead) o.max_read_request_units = max_read;
  return o;
}

// A new replica's (or its GSI's) OnDemandThroughput: the source's maxima
// in force, the read one overridden by `read`; unset with neither.
std::optional<OnDemandThroughput> OnDemandThroughputOf(const ThroughputSettings& source,
                                                       const ReadOverride& read) {
  OnDemandThroughput out;
  if (read.max_read_request_units) {
    out.max_read_request_units = read.max_read_request_units;
  } else if (source.max_read_request_units > 0) {
    out.max_read_request_units = source.max_read_request_units;
  }
  if (source.max_write_request_units > 0) {
    out.max_write_request_units = source.max_write_request_units;
  }
  if (!out.max_read_request_units && !out.max_write_request_units) return std::nullopt;
  return out;
}

// A new replica's (or its GSI's) WarmThroughput: the source's recorded one
// (synchronized across replicas), the read units at least `min_read` (an
// overridden read capacity: warm throughput is never below it).
std::optional<WarmThroughput> WarmThroughputOf(const ThroughputSettings& source,
                                               int64_t min_read) {
  WarmThroughput out;
  if (source.warm_read_units_per_second > 0) {
    out.read_units_per_second = std::max(source.warm_read_units_per_second, min_read);
  }
  if (source.warm_write_units_per_second > 0) {
    out.write_units_per_second = source.warm_write_units_per_second;
  }
  if (!out.read_units_per_second && !out.write_units_per_second) return std::nullopt;
  return out;
}

// The CreateTable of a replica of the table `d` describes: its definition
// and the settings synchronized across replicas; the read settings too,
// unless `action` overrides them. (No scope, no stream, no encryption.)
CreateTableRequest ReplicaTable(const TableDescription& d, const ReplicationGroupUpdate& action) {
  CreateTableRequest c;
  c.table_name = d.table_name;
  c.attribute_definitions = d.attribute_definitions;
  c.key_schema = d.key_schema;
  c.billing_mode = d.billing_mode;
  const bool provisioned = d.billing_mode == BillingMode::kProvisioned;
  const ReadOverride& read = action.read_override;
  if (provisioned) {
    c.provisioned_throughput = ProvisionedThroughput{
        read.read_capacity_units.value_or(d.provisioned_throughput.read_capacity_units),
        d.provisioned_throughput.write_capacity_units};
  } else {
    c.on_demand_throughput = OnDemandThroughputOf(d.settings, read);
  }
  c.warm_throughput = WarmThroughputOf(
      d.settings, c.provisioned_throughput ? c.provisioned_throughput->read_capacity_units : 0);
  for (const auto& l : d.local_secondary_indexes) c.local_secondary_indexes.push_back(l.def);
  for (const auto& g : d.global_secondary_indexes) {
    GlobalSecondaryIndexDef def = g.def;
    ReadOverride index_read;
    for (const ReplicaIndexOverride& o : action.global_secondary_indexes) {
      if (o.index_name == g.def.index_name) index_read = o.read;
    }
    if (provisioned) {
      def.provisioned_throughput = ProvisionedThroughput{
          index_read.read_capacity_units.value_or(g.provisioned_throughput.read_capacity_units),
          g.provisioned_throughput.write_capacity_units};
      def.on_demand_throughput.reset();
    } else {
      def.provisioned_throughput.reset();
      def.on_demand_throughput = OnDemandThroughputOf(g.settings, index_read);
    }
    def.warm_throughput = WarmThroughputOf(
        g.settings, def.provisioned_throughput ? def.provisioned_throughput->read_capacity_units : 0);
    c.global_secondary_indexes.push_back(std::move(def));
  }
  for (const auto& v : d.vector_indexes) c.vector_indexes.push_back(v.def);
  return c;
}

std::string MemberKey(uint32_t id) {
  std::string key(1, kMemberPrefix);
  PutFixed32BE(&key, id);
  return key;
}

// A replica being created: "J" source id (4 BE) region -> 1 | ns | name.
constexpr char kJoinPrefix = 'J';
// Version 2 adds the Create action's read overrides (as a member record
// keeps them), so that a join finished at open lists them.
constexpr uint8_t kJoinVersion = 2;

std::string JoinKey(uint32_t source_id, std::string_view region) {
  std::string key(1, kJoinPrefix);
  PutFixed32BE(&key, source_id);
  key.append(region);
  return key;
}

Status InUse(std::string_view what, std::string_view name) {
  return Status::ResourceInUse(
      "Attempt to change a resource which is still in use: Table is being " +
      std::string(what) + ": " + std::string(name));
}

// The Regions DynamoDB serves (AWS Regions, GovCloud, China), 2026.
constexpr std::array<std::string_view, 38> kRegions = {
    "us-east-1",      "us-east-2",      "us-west-1",      "us-west-2",
    "af-south-1",     "ap-east-1",      "ap-east-2",      "ap-south-1",
    "ap-south-2",     "ap-southeast-1", "ap-southeast-2", "ap-southeast-3",
    "ap-southeast-4", "ap-southeast-5", "ap-southeast-7", "ap-northeast-1",
    "ap-northeast-2", "ap-northeast-3", "ca-central-1",   "ca-west-1",
    "eu-central-1",   "eu-central-2",   "eu-west-1",      "eu-west-2",
    "eu-west-3",      "eu-south-1",     "eu-south-2",     "eu-north-1",
    "il-central-1",   "me-south-1",     "me-central-1",   "mx-central-1",
    "sa-east-1",      "us-gov-east-1",  "us-gov-west-1",  "cn-north-1",
    "cn-northwest-1", "ap-southeast-6"};

}  // namespace

bool IsKnownRegion(std::string_view region) {
  return std::find(kRegions.begin(), kRegions.end(), region) != kRegions.end();
}

Result<std::unique_ptr<GlobalTables>> GlobalTables::Open(Store* store, Clock* clock,
                                                         const Catalog* catalog,
                                                         TableLifecycle* tables,
                                                         ItemLocks* locks, ReplicationLog* log,
                                                         const Replicator* replicator) {
  std::unique_ptr<GlobalTables> g(
      new GlobalTables(store, clock, catalog, tables, locks, log, replicator));
  auto it = store->NewIterator(Cf::kMeta, std::string(1, kMemberPrefix),
                               std::string(1, kMemberPrefix + 1));
  MutexLock lock(&g->mu_);
  WriteBatch stale;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (it->key().size() != 5) return Status::Corruption("bad global table member key");
    const uint32_t id = DecodeFixed32BE(it->key().data() + 1);
    RecordReader r(it->value());
    Member m;
    const uint8_t version = r.Byte();
    if (version < 1 || version > kMemberVersion) {
      return Status::Corruption("bad global table member record");
    }
    m.group = static_cast<uint32_t>(r.Varint());
    m.region = r.String();
    m.ns = r.String();
    m.name = r.String();
    m.copied_until = r.Signed();
    if (version >= 2) {
      const uint8_t flags = r.Byte();
      m.legacy = (flags & kLegacyFlag) != 0;
      m.leaving = (flags & kLeavingFlag) != 0;
      m.created_micros = r.Signed();
    }
    if (version >= 3) {
      m.read = GetReadOverride(&r);
      for (uint64_t n = r.Varint(); n > 0 && r.ok; --n) {
        std::string index = r.String();
        m.index_reads[index] = GetReadOverride(&r);
      }
    }
    if (!r.ok) return Status::Corruption("truncated global table member record");
    // A member whose table is gone (a crash between the two, or a replica
    // shown DELETING until then) is not one: its record goes.
    std::shared_ptr<const TableInfo> t = catalog->Find(m.ns, m.name);
    if (!t || t->id != id) {
      stale.Delete(Cf::kMeta, MemberKey(id));
      continue;
    }
    (m.leaving ? g->leaving_ : g->members_)[id] = std::move(m);
  }
  DR_RETURN_IF_ERROR(it->status());
  DR_RETURN_IF_ERROR(store->Write(&stale));
  g->PublishLocked();
  // Replicas whose creation a crash cut short: finished, or forgotten when
  // their table was not made.
  std::vector<std::pair<std::string, std::string>> joins;
  auto jt = store->NewIterator(Cf::kMeta, std::string(1, kJoinPrefix),
                               std::string(1, kJoinPrefix + 1));
  for (jt->SeekToFirst(); jt->Valid(); jt->Next()) {
    joins.emplace_back(std::string(jt->key()), std::string(jt->value()));
  }
  DR_RETURN_IF_ERROR(jt->status());
  for (const auto& [key, value] : joins) {
    if (key.size() < 5) return Status::Corruption("bad global table join key");
    RecordReader r(value);
    const uint8_t version = r.Byte();
    if (version < 1 || version > kJoinVersion) {
      return Status::Corruption("bad global table join record");
    }
    const std::string ns = r.String();
    const std::string name = r.String();
    ReplicationGroupUpdate overrides;
    if (version >= 2) {
      overrides.read_override = GetReadOverride(&r);
      for (uint64_t n = r.Varint(); n > 0 && r.ok; --n) {
        std::string index = r.String();
        overrides.global_secondary_indexes.push_back({std::move(index), GetReadOverride(&r)});
      }
    }
    if (!r.ok) return Status::Corruption("truncated global table join record");
    DR_RETURN_IF_ERROR(g->RecoverJoin(DecodeFixed32BE(key.data() + 1), key.substr(5), ns, name,
                                      overrides));
  }
  g->Settle();  // a source left alone by a forgotten join is a plain table again
  return g;
}

Status GlobalTables::RecoverJoin(uint32_t source_id, const std::string& region,
                                 const std::string& ns, const std::string& name,
                                 const ReplicationGroupUpdate& overrides) {
  auto self = members_.find(source_id);
  std::shared_ptr<const TableInfo> source =
      self == members_.end() ? nullptr : catalog_->Find(self->second.ns, self->second.name);
  std::shared_ptr<const TableInfo> replica = catalog_->Find(ns, name);
  if (source && source->id == source_id && !source->deleting_since_micros && replica &&
      !replica->deleting_since_micros && !members_.count(replica->id) &&
      !leaving_.count(replica->id)) {
    // The table was made, its membership not (or not all of its items
    // copied): join it now, from a snapshot taken now.
    return JoinReplica(*source, self->second.region, region, *replica, &overrides);
  }
  WriteBatch batch;
  batch.Delete(Cf::kMeta, JoinKey(source_id, region));
  return store_->Write(&batch);
}

void GlobalTables::PutMember(uint32_t id, const Member& m, WriteBatch* batch) {
  std::string value;
  RecordWriter w(&value);
  w.Byte(kMemberVersion);
  w.Varint(m.group);
  w.String(m.region);
  w.String(m.ns);
  w.String(m.name);
  w.Signed(m.copied_until);
  w.Byte(static_cast<uint8_t>((m.legacy ? kLegacyFlag : 0) | (m.leaving ? kLeavingFlag : 0)));
  w.Signed(m.created_micros);
  PutReadOverride(m.read, &w);
  w.Varint(m.index_reads.size());
  for (const auto& [index, o] : m.index_reads) {
    w.String(index);
    PutReadOverride(o, &w);
  }
  batch->Put(Cf::kMeta, MemberKey(id), value);
}

void GlobalTables::PublishLocked() {
  for (const auto& [id, m] : members_) {
    if (is_strong_ && is_strong_(id)) {
      log_->RemoveMember(id);
      continue;
    }
    std::vector<ReplicationTarget> targets;
    for (const auto& [other_id, o] : members_) {
      if (other_id == id || o.group != m.group) continue;
      targets.push_back({other_id, o.region, o.ns, o.name});
    }
    log_->SetMember(id, m.region, std::move(targets));
  }
}

Status GlobalTables::Publish(const std::function<Status()>& while_stopped) {
  // Every write holds its item's stripe from staging to commit: with all of
  // them held, none is between reading the targets and committing.
  for (size_t i = 0; i < ItemLocks::kStripes; ++i) locks_->Stripe(i).lock();
  PublishLocked();
  Status s = while_stopped ? while_stopped() : Status::OK();
  for (size_t i = ItemLocks::kStripes; i-- > 0;) locks_->Stripe(i).unlock();
  return s;
}

std::map<uint32_t, GlobalTables::Member>::const_iterator GlobalTables::InRegion(
    uint32_t source_id, std::string_view region) const {
  auto self = members_.find(source_id);
  if (self == members_.end()) return members_.end();
  for (auto it = members_.begin(); it != members_.end(); ++it) {
    if (it->second.group == self->second.group && it->second.region == region) return it;
  }
  return members_.end();
}

std::string GlobalTables::AccessKeyOf(const Scope& caller) {
  if (!caller.access_key.empty()) return caller.access_key;
  const std::string suffix = "_" + caller.region;
  if (caller.ns.size() > suffix.size() && caller.ns.ends_with(suffix)) {
    return caller.ns.substr(0, caller.ns.size() - suffix.size());
  }
  return caller.access_key;
}

Scope GlobalTables::ScopeOf(const Scope& caller, const Member& m) {
  Scope s = caller;
  s.ns = m.ns;
  s.region = m.region;
  return s;
}

Result<TableDescription> GlobalTables::UpdateReplicas(const UpdateTableRequest& req) {
  MutexLock lock(&mu_);
  if (req.scope.ns.empty()) {
    return Status::Validation(
        "Global tables need a set of tables per access key and Region: replicas are not "
        "available with a shared database (--shared-db) or to unsigned calls");
  }
  if (req.replica_updates->empty()) {
    return Status::Validation(
        "1 validation error detected: Value '[]' at 'replicaUpdates' failed to satisfy "
        "constraint: Member must have length greater than or equal to 1");
  }
  for (const ReplicationGroupUpdate& u : *req.replica_updates) {
    if (u.region_name == req.scope.region) {
      return Status::Validation(
          "Cannot add, delete, or update the local region through ReplicaUpdates. Use "
          "CreateTable, DeleteTable, or UpdateTable as required.");
    }
    if (!IsKnownRegion(u.region_name)) {
      return Status::Validation("The provided region is not a valid AWS region: " +
                                u.region_name);
    }
  }
  TableStatus status;
  std::shared_ptr<const TableInfo> table = tables_->Find(req.scope, req.table_name, &status);
  if (!table) return TableNotFound(req.table_name);
  if (status == TableStatus::kCreating) return InUse("created", req.table_name);
  if (status == TableStatus::kDeleting) return InUse("deleted", req.table_name);
  if (status == TableStatus::kUpdating) return InUse("updated", req.table_name);
  Settle();
  if (auto self = members_.find(table->id); self != members_.end() && self->second.legacy) {
    return Status::Validation(
        "Table " + req.table_name + " is a global table version 2017.11.29: change its "
        "replicas with UpdateGlobalTable");
  }
  for (const ReplicationGroupUpdate& u : *req.replica_updates) {
    switch (u.action) {
      case ReplicationGroupUpdate::Action::kCreate:
        DR_RETURN_IF_ERROR(CreateReplica(req, *table, u));
        break;
      case ReplicationGroupUpdate::Action::kUpdate:
        DR_RETURN_IF_ERROR(UpdateReplica(req, *table, u));
        break;
      case ReplicationGroupUpdate::Action::kDelete:
        DR_RETURN_IF_ERROR(DeleteReplica(req, *table, u));
        break;
    }
  }
  DescribeTableRequest d;
  d.scope = req.scope;
  d.table_name = req.table_name;
  return tables_->Describe(d);
}

Status GlobalTables::CheckUpdate(const TableInfo& table, const UpdateTableRequest& req) const {
  if (req.stream_specification && !req.stream_specification->stream_enabled) {
    MutexLock lock(&mu_);
    if (members_.find(table.id) != members_.end()) {
      return Status::Validation(
          "One or more parameter values were invalid: Disabling Stream is not allowed for a "
          "Global Table replica.");
    }
  }
  return CheckSynchronized(table, req);
}

Status GlobalTables::CreateReplica(const UpdateTableRequest& req, const TableInfo& source,
                                   const ReplicationGroupUpdate& action) {
  const std::string access_key = AccessKeyOf(req.scope);
  const std::string replica_ns = NamespaceFor(access_key, action.region_name);
  const Status exists = Status::Validation(
      "Failed to create a the new replica of table with name: '" + req.table_name +
      "' because one or more replicas already existed as tables.");
  if (InRegion(source.id, action.region_name) != members_.end()) return exists;
  Scope replica_scope = req.scope;
  replica_scope.ns = replica_ns;
  replica_scope.region = action.region_name;
  TableStatus replica_status;
  // TableLifecycle's lookup forgets a deleted table whose delay has passed.
  if (tables_->Find(replica_scope, req.table_name, &replica_status)) return exists;
  const TableDescription& d = source.desc;
  DR_RETURN_IF_ERROR(CheckOverrides(d, action));

  CreateTableRequest c = ReplicaTable(d, action);
  c.scope = req.scope;
  c.scope.ns = replica_ns;
  c.scope.region = action.region_name;
  c.scope.access_key = access_key;
  // The stream as it is now: an earlier Create of the same request may have
  // enabled it since `source` was read.
  std::shared_ptr<const TableInfo> current = catalog_->Find(source.ns, source.desc.table_name);
  const std::optional<StreamSpecification>& stream =
      current ? current->desc.stream_specification : d.stream_specification;
  if (stream && stream->stream_enabled) {
    c.stream_specification = stream;
  } else if (req.multi_region_consistency != MultiRegionConsistency::kStrong) {
    // A global table always streams: DynamoDB enables NEW_AND_OLD_IMAGES on
    // a table without a stream when it gets a replica, and on the replica
    // (a stream it has, even KEYS_ONLY, stays as it is). Not so for multi-
    // Region strong consistency: "Streams are not enabled by default on
    // MRSC replicas" (developer guide, How global tables work).
    c.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
    UpdateTableRequest enable;
    enable.scope = req.scope;
    enable.table_name = req.table_name;
    enable.stream_specification = c.stream_specification;
    DR_RETURN_IF_ERROR(tables_->Update(enable).status());
  }
  if (action.table_class_override) {
    c.table_class = action.table_class_override;
  } else if (d.table_class_summary) {
    c.table_class = d.table_class_summary->table_class;
  }
  if (action.kms_master_key_id || d.sse_description) {
    SseSpecification sse;
    sse.enabled = true;
    sse.kms_master_key_id = action.kms_master_key_id;
    c.sse_specification = sse;
  }
  // Creating a replica is several writes: the intent to join (with the
  // source's own membership) in one batch, the table, then the copy and the
  // replica's membership, which deletes the intent in its batch. A crash in
  // between leaves the intent, and the next open finishes the join, or
  // forgets it if the table was not made (RecoverJoin).
  {
    WriteBatch batch;
    std::optional<Member> self;
    if (members_.find(source.id) == members_.end()) {
      self = Member{source.id, req.scope.region, source.ns, source.desc.table_name, 0};
      PutMember(source.id, *self, &batch);
    }
    std::string intent;
    RecordWriter w(&intent);
    w.Byte(kJoinVersion);
    w.String(replica_ns);
    w.String(req.table_name);
    PutReadOverride(action.read_override, &w);
    w.Varint(action.global_secondary_indexes.size());
    for (const ReplicaIndexOverride& o : action.global_secondary_indexes) {
      w.String(o.index_name);
      PutReadOverride(o.read, &w);
    }
    batch.Put(Cf::kMeta, JoinKey(source.id, action.region_name), intent);
    DR_RETURN_IF_ERROR(store_->Write(&batch));
    if (self) members_[source.id] = std::move(*self);
  }
  DR_RETURN_IF_ERROR(CrashPoint("global_tables.replica_join_recorded"));
  Status made = tables_->Create(c).status();
  std::shared_ptr<const TableInfo> created = catalog_->Find(replica_ns, req.table_name);
  if (!made.ok() || !created) {
    WriteBatch batch;
    batch.Delete(Cf::kMeta, JoinKey(source.id, action.region_name));
    DR_RETURN_IF_ERROR(store_->Write(&batch));
    Settle();
    return made.ok() ? Status::Internal("the new replica table is missing") : made;
  }
  DR_RETURN_IF_ERROR(CrashPoint("global_tables.replica_table_created"));
  return JoinReplica(source, req.scope.region, action.region_name, *created, &action);
}

Status GlobalTables::JoinReplica(const TableInfo& source, const std::string& source_region,
                                 const std::string& region, const TableInfo& created,
                                 const ReplicationGroupUpdate* overrides) {
  Member replica{members_[source.id].group, region, created.ns, created.desc.table_name,
                 clock_->NowMicros()};
  if (overrides) {
    replica.read = overrides->read_override;
    for (const ReplicaIndexOverride& o : overrides->global_secondary_indexes) {
      replica.index_reads[o.index_name] = o.read;
    }
  }
  members_[created.id] = replica;
  // From here every write of the group fans out to the new replica too; the
  // snapshot holds every write before.
  std::unique_ptr<StoreSnapshot> snapshot;
  DR_RETURN_IF_ERROR(Publish([&] {
    snapshot = store_->NewSnapshot();
    return Status::OK();
  }));
  DR_RETURN_IF_ERROR(CopyItems(*snapshot, source, source_region, created.id));
  DR_RETURN_IF_ERROR(CrashPoint("global_tables.replica_items_copied"));
  WriteBatch batch;
  PutMember(created.id, replica, &batch);
  batch.Delete(Cf::kMeta, JoinKey(source.id, region));
  return store_->Write(&batch);
}

Status GlobalTables::CopyItems(const StoreReader& snapshot, const TableInfo& source,
                               const std::string& source_region, uint32_t target_id) {
  std::optional<WriteBatch> batch(std::in_place);  // not assignable
  size_t staged = 0;
  auto flush = [&]() -> Status {
    if (staged == 0) return Status::OK();
    staged = 0;
    Status s = store_->Write(&*batch);
    batch.emplace();
    return s;
  };
  auto add = [&](std::string key, std::string value) -> Status {
    batch->Put(Cf::kMeta, key, value);
    if (++staged == kCopyBatch) return flush();
    return Status::OK();
  };
  const std::string prefix = keys::TablePrefix(source.id);
  // The items, with their versions (those written before the table was
  // global have none: the oldest stamp).
  {
    auto it = snapshot.NewIterator(Cf::kItems, prefix, keys::TableEnd(source.id));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string_view suffix = it->key().substr(prefix.size());
      ItemVersion v{0, source_region};
      DR_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                          snapshot.Get(Cf::kMeta, ReplicationLog::VersionKey(source.id, suffix)));
      if (stored) {
        DR_ASSIGN_OR_RETURN(v, ReplicationLog::DecodeVersion(*stored));
      }
      const std::string item(it->value());
      DR_RETURN_IF_ERROR(add(ReplicationLog::LogKey(target_id, v.stamp_micros, v.origin_region,
                                                    suffix),
                             ReplicationLog::RecordValue(&item)));
    }
    DR_RETURN_IF_ERROR(it->status());
  }
  // The tombstones: deletions an older write must not undo on the replica.
  {
    auto it = snapshot.NewIterator(Cf::kMeta, ReplicationLog::VersionsBegin(source.id),
                                   ReplicationLog::VersionsEnd(source.id));
    const size_t key_prefix = ReplicationLog::VersionsBegin(source.id).size();
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      const std::string_view suffix = it->key().substr(key_prefix);
      DR_ASSIGN_OR_RETURN(std::optional<std::string> item,
                          snapshot.Get(Cf::kItems, prefix + std::string(suffix)));
      if (item) continue;
      DR_ASSIGN_OR_RETURN(ItemVersion v, ReplicationLog::DecodeVersion(it->value()));
      DR_RETURN_IF_ERROR(add(ReplicationLog::LogKey(target_id, v.stamp_micros, v.origin_region,
                                                    suffix),
                             ReplicationLog::RecordValue(nullptr)));
    }
    DR_RETURN_IF_ERROR(it->status());
  }
  // The changes of other replicas still on their way to the source.
  {
    auto it = snapshot.NewIterator(Cf::kMeta, ReplicationLog::LogBegin(source.id),
                                   ReplicationLog::LogBegin(source.id + 1));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      DR_ASSIGN_OR_RETURN(ReplicationLog::Record r,
                          ReplicationLog::ParseRecord(it->key(), it->value()));
      DR_RETURN_IF_ERROR(add(ReplicationLog::LogKey(target_id, r.stamp_micros, r.origin,
                                                    r.suffix),
                             std::string(it->value())));
    }
    DR_RETURN_IF_ERROR(it->status());
  }
  return flush();
}

Status GlobalTables::UpdateReplica(const UpdateTableRequest& req, const TableInfo& source,
                                   const ReplicationGroupUpdate& action) {
  auto it = InRegion(source.id, action.region_name);
  if (it == members_.end()) {
    return Status::Validation("Update global table operation failed: replica in region " +
                              action.region_name + " does not exist");
  }
  DR_RETURN_IF_ERROR(CheckOverrides(source.desc, action));
  {
    Scope scope = ScopeOf(req.scope, it->second);
    TableStatus status;
    std::shared_ptr<const TableInfo> table = tables_->Find(scope, it->second.name, &status);
    if (!table) return TableNotFound(it->second.name);
    DR_RETURN_IF_ERROR(ApplyOverrides(req.scope, it->first, *table, action));
  }
  if (!action.table_class_override && !action.kms_master_key_id) return Status::OK();
  UpdateTableRequest u;
  u.scope = ScopeOf(req.scope, it->second);
  u.table_name = it->second.name;
  u.table_class = action.table_class_override;
  if (action.kms_master_key_id) u.sse_specification = SseSpecification{true, action.kms_master_key_id};
  return tables_->Update(u).status();
}

Status GlobalTables::DeleteReplica(const UpdateTableRequest& req, const TableInfo& source,
                                   const ReplicationGroupUpdate& action) {
  auto it = InRegion(source.id, action.region_name);
  if (it == members_.end()) {
    return Status::Validation("Update global table operation failed: replica in region " +
                              action.region_name + " does not exist");
  }
  const uint32_t id = it->first;
  DeleteTableRequest del;
  del.scope = ScopeOf(req.scope, it->second);
  del.table_name = it->second.name;
  DR_RETURN_IF_ERROR(tables_->Delete(del).status());
  WriteBatch batch;
  DR_RETURN_IF_ERROR(Publish([&]() REQUIRES(mu_) {
    Leave(id, &batch);
    PublishLocked();
    return Status::OK();
  }));
  return store_->Write(&batch);
}

void GlobalTables::Leave(uint32_t id, WriteBatch* batch, bool until_table_gone) {
  auto it = members_.find(id);
  if (it == members_.end()) return;
  const uint32_t group = it->second.group;
  std::vector<uint32_t> leaving{id};
  std::vector<uint32_t> rest;
  for (const auto& [other, m] : members_) {
    if (other != id && m.group == group) rest.push_back(other);
  }
  // A global table of one Region is a plain table again (a legacy one
  // stays a global table: CreateGlobalTable may make one of one Region);
  // Settle does it once a member shown DELETING is gone.
  if (rest.size() == 1 && !it->second.legacy && !until_table_gone) {
    leaving.push_back(rest.front());
  }
  for (uint32_t l : leaving) {
    Member m = std::move(members_[l]);
    members_.erase(l);
    log_->RemoveMember(l);
    if (l == id && until_table_gone) {
      m.leaving = true;
      PutMember(l, m, batch);
      leaving_[l] = std::move(m);
    } else {
      batch->Delete(Cf::kMeta, MemberKey(l));
    }
    batch->DeleteRange(Cf::kMeta, ReplicationLog::LogBegin(l), ReplicationLog::LogBegin(l + 1));
    batch->DeleteRange(Cf::kMeta, ReplicationLog::VersionsBegin(l),
                       ReplicationLog::VersionsEnd(l));
  }
}

void GlobalTables::Settle() {
  WriteBatch batch;
  bool changed = false;
  for (auto it = leaving_.begin(); it != leaving_.end();) {
    Scope scope;
    scope.ns = it->second.ns;
    scope.region = it->second.region;
    TableStatus status;
    std::shared_ptr<const TableInfo> t = tables_->Find(scope, it->second.name, &status);
    if (t && t->id == it->first) {
      ++it;
      continue;
    }
    batch.Delete(Cf::kMeta, MemberKey(it->first));
    it = leaving_.erase(it);
    changed = true;
  }
  std::map<uint32_t, int> sizes;  // by group: 1 per member, 2 per leaving one
  for (const auto& [id, m] : members_) sizes[m.group] += 1;
  for (const auto& [id, m] : leaving_) sizes[m.group] += 2;
  for (auto it = members_.begin(); it != members_.end();) {
    if (sizes[it->second.group] != 1 || it->second.legacy) {
      ++it;
      continue;
    }
    // A global table of one Region is a plain table again.
    log_->RemoveMember(it->first);
    batch.Delete(Cf::kMeta, MemberKey(it->first));
    batch.DeleteRange(Cf::kMeta, ReplicationLog::LogBegin(it->first),
                      ReplicationLog::LogBegin(it->first + 1));
    batch.DeleteRange(Cf::kMeta, ReplicationLog::VersionsBegin(it->first),
                      ReplicationLog::VersionsEnd(it->first));
    it = members_.erase(it);
    changed = true;
  }
  // A failed write is redone by the next Settle, from the same memory.
  if (changed) (void)store_->Write(&batch);
}

Status GlobalTables::TableDeleted(const TableInfo& table) {
  MutexLock lock(&mu_);
  if (members_.find(table.id) == members_.end()) return Status::OK();
  WriteBatch batch;
  DR_RETURN_IF_ERROR(Publish([&]() REQUIRES(mu_) {
    Leave(table.id, &batch);
    PublishLocked();
    return Status::OK();
  }));
  return store_->Write(&batch);
}

void GlobalTables::SetStrong(std::function<bool(uint32_t table_id)> is_strong) {
  MutexLock lock(&mu_);
  is_strong_ = std::move(is_strong);
}

Status GlobalTables::Republish() {
  MutexLock lock(&mu_);
  return Publish(nullptr);
}

std::vector<ReplicationTarget> GlobalTables::Group(const TableInfo& table) const {
  MutexLock lock(&mu_);
  std::vector<ReplicationTarget> out;
  auto self = members_.find(table.id);
  if (self == members_.end()) return out;
  auto add = [&](uint32_t id, const Member& m) {
    out.push_back(ReplicationTarget{id, m.region, m.ns, m.name});
  };
  add(self->first, self->second);
  for (const auto& [id, m] : members_) {
    if (id != table.id && m.group == self->second.group) add(id, m);
  }
  return out;
}

void GlobalTables::Describe(const TableInfo& table, TableDescription* desc) {
  MutexLock lock(&mu_);
  Settle();
  auto self = members_.find(table.id);
  if (self == members_.end()) return;
  desc->global_table_version =
      self->second.legacy ? kLegacyGlobalTableVersion : kGlobalTableVersion;
  for (const auto& [id, m] : members_) {
    if (id == table.id || m.group != self->second.group) continue;
    Scope scope;
    scope.ns = m.ns;
    scope.region = m.region;
    TableStatus status;
    std::shared_ptr<const TableInfo> t = tables_->Find(scope, m.name, &status);
    if (!t || t->id != id) continue;
    ReplicaDescription r;
    r.region_name = m.region;
    r.replica_status = ReplicaStatus::kActive;
    Result<bool> copying = replicator_->HasPendingUpTo(id, m.copied_until);
    if (status == TableStatus::kCreating || !copying.ok() || *copying) {
      r.replica_status = ReplicaStatus::kCreating;
    } else if (status == TableStatus::kDeleting) {
      r.replica_status = ReplicaStatus::kDeleting;
    } else if (status == TableStatus::kUpdating) {
      r.replica_status = ReplicaStatus::kUpdating;
    }
    if (t->desc.sse_description) r.kms_master_key_id = t->desc.sse_description->kms_master_key_arn;
    r.replica_table_class_summary = t->desc.table_class_summary;
    r.read_override = m.read;
    for (const auto& [index, o] : m.index_reads) {
      // An index deleted since (a synchronized GSI delete) has none.
      if (o.empty() || !t->FindIndex(index)) continue;
      r.global_secondary_indexes.push_back(ReplicaIndexOverride{index, o});
    }
    desc->replicas.push_back(std::move(r));
  }
  // The replicas being deleted: DELETING until their tables are gone.
  for (const auto& [id, m] : leaving_) {
    if (m.group != self->second.group) continue;
    ReplicaDescription r;
    r.region_name = m.region;
    r.replica_status = ReplicaStatus::kDeleting;
    desc->replicas.push_back(std::move(r));
  }
}

}  // namespace dynarock
