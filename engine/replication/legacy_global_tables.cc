// Global tables version 2017.11.29 (Legacy): CreateGlobalTable,
// DescribeGlobalTable, ListGlobalTables, UpdateGlobalTable and the global
// table settings, on GlobalTables' membership (global_tables.h). A legacy
// group is made of tables that exist, one per Region, each empty, with the
// same key schema and a NEW_AND_OLD_IMAGES stream (the API reference's
// rules for CreateGlobalTable); once members they replicate through the
// same ReplicationLog as 2019.11.21 replicas. Names are the access key's:
// a global table's ARN has no Region, and each call finds the group by its
// name among the access key's tables of every Region.

#include <algorithm>
#include <set>

#include "engine/clock.h"
#include "engine/replication/global_tables.h"

namespace dynarock {
namespace {

constexpr int kDefaultListLimit = 100;

Status GlobalTableNotFound(std::string_view name) {
  return Status(ErrorCode::kGlobalTableNotFound,
                "Global table not found: Global table with name: '" + std::string(name) +
                    "' does not exist.");
}

// DynamoDB's text, as SDK users report it (aws-controllers-k8s/community
// #1034, hashicorp/terraform-provider-aws#11982).
Status LegacyTableNotFound(std::string_view name, std::string_view region) {
  return Status(ErrorCode::kTableNotFound, "Table not found: Table: '" + std::string(name) +
                                               "' not found in region: '" +
                                               std::string(region) + "'.");
}

bool SameKeySchema(const TableDescription& a, const TableDescription& b) {
  if (a.key_schema.size() != b.key_schema.size()) return false;
  for (size_t i = 0; i < a.key_schema.size(); ++i) {
    if (a.key_schema[i].attribute_name != b.key_schema[i].attribute_name ||
        a.key_schema[i].key_type != b.key_schema[i].key_type) {
      return false;
    }
  }
  return true;
}

bool HasNewAndOldImages(const TableDescription& d) {
  return d.stream_specification && d.stream_specification->stream_enabled &&
         d.stream_specification->stream_view_type == StreamViewType::kNewAndOldImages;
}

ReplicaStatus ReplicaStatusOf(TableStatus status) {
  switch (status) {
    case TableStatus::kCreating:
      return ReplicaStatus::kCreating;
    case TableStatus::kUpdating:
      return ReplicaStatus::kUpdating;
    case TableStatus::kDeleting:
      return ReplicaStatus::kDeleting;
    default:
      return ReplicaStatus::kActive;
  }
}

// Checks the Region names of a request: each one DynamoDB serves, none twice.
Status CheckRegions(const std::vector<std::string>& regions) {
  std::set<std::string_view> seen;
  for (const std::string& region : regions) {
    if (!IsKnownRegion(region)) {
      return Status::Validation("The provided region is not a valid AWS region: " + region);
    }
    if (!seen.insert(region).second) {
      return Status::Validation("One or more parameter values were invalid: Region " + region +
                                " is listed more than once");
    }
  }
  return Status::OK();
}

}  // namespace

Status GlobalTables::WithWritesStopped(const std::function<Status()>& fn) {
  for (size_t i = 0; i < ItemLocks::kStripes; ++i) locks_->Stripe(i).lock();
  Status s = fn();
  for (size_t i = ItemLocks::kStripes; i-- > 0;) locks_->Stripe(i).unlock();
  return s;
}

Result<uint32_t> GlobalTables::LegacyGroup(const Scope& caller, std::string_view name) const {
  const std::string key = AccessKeyOf(caller);
  for (const auto& [id, m] : members_) {
    if (m.legacy && m.name == name && m.ns == NamespaceFor(key, m.region)) return m.group;
  }
  return GlobalTableNotFound(name);
}

GlobalTableDescription GlobalTables::DescribeLegacy(const Scope& caller, uint32_t group) const {
  GlobalTableDescription d;
  for (const auto& [id, m] : members_) {
    if (m.group != group) continue;
    d.global_table_name = m.name;
    d.creation_date_time_micros = m.created_micros;
    d.replication_group.push_back(m.region);
  }
  std::sort(d.replication_group.begin(), d.replication_group.end());
  d.global_table_arn = "arn:aws:dynamodb::" + caller.account + ":global-table/" +
                       d.global_table_name;
  // CREATING for as long as a new table is (the engine's create delay).
  d.global_table_status =
      clock_->NowMicros() < d.creation_date_time_micros + tables_->create_delay_micros()
          ? GlobalTableStatus::kCreating
          : GlobalTableStatus::kActive;
  return d;
}

Result<std::shared_ptr<const TableInfo>> GlobalTables::Joiner(const Scope& caller,
                                                              std::string_view name,
                                                              const std::string& region,
                                                              const TableInfo* like) {
  Scope scope = caller;
  scope.region = region;
  scope.ns = NamespaceFor(AccessKeyOf(caller), region);
  TableStatus status;
  std::shared_ptr<const TableInfo> t = tables_->Find(scope, name, &status);
  if (!t || status == TableStatus::kDeleting) return LegacyTableNotFound(name, region);
  if (status == TableStatus::kCreating) {
    return Status::ResourceInUse(
        "Attempt to change a resource which is still in use: Table is being created: " +
        std::string(name));
  }
  if (auto m = members_.find(t->id); m != members_.end()) {
    if (m->second.legacy) {
      return Status(ErrorCode::kReplicaAlreadyExists,
                    "Replica already exists: Table " + std::string(name) + " in region " +
                        region + " is already a replica of global table " + m->second.name);
    }
    return Status::Validation("One or more parameter values were invalid: Table " +
                              std::string(name) + " in region " + region +
                              " is a replica of a global table version 2019.11.21");
  }
  if (!HasNewAndOldImages(t->desc)) {
    return Status::Validation("One or more parameter values were invalid: Table " +
                              std::string(name) + " in region " + region +
                              " must have DynamoDB Streams enabled with StreamViewType "
                              "NEW_AND_OLD_IMAGES");
  }
  if (like && !SameKeySchema(t->desc, like->desc)) {
    return Status::Validation("One or more parameter values were invalid: Table " +
                              std::string(name) + " in region " + region +
                              " does not have the same key schema as the other replicas");
  }
  return t;
}

Status GlobalTables::Join(uint32_t group,
                          const std::vector<std::shared_ptr<const TableInfo>>& joining,
                          const std::vector<std::string>& regions) {
  const int64_t now = clock_->NowMicros();
  int64_t created = now;
  for (const auto& [id, m] : members_) {
    if (m.group == group) created = m.created_micros;
  }
  return WithWritesStopped([&]() REQUIRES(mu_) -> Status {
    // Under every stripe no write is in flight: a table empty now stays
    // empty until the group replicates to it.
    for (size_t i = 0; i < joining.size(); ++i) {
      if (joining[i]->stats->item_count.load() != 0) {
        return Status::Validation("One or more parameter values were invalid: Table " +
                                  joining[i]->desc.table_name + " in region " + regions[i] +
                                  " is not empty: replicas of a global table version "
                                  "2017.11.29 must contain no items");
      }
    }
    WriteBatch batch;
    for (size_t i = 0; i < joining.size(); ++i) {
      PutMember(joining[i]->id,
                Member{group, regions[i], joining[i]->ns, joining[i]->desc.table_name, 0, true,
                       created},
                &batch);
    }
    DR_RETURN_IF_ERROR(store_->Write(&batch));
    for (size_t i = 0; i < joining.size(); ++i) {
      members_[joining[i]->id] =
          Member{group, regions[i], joining[i]->ns, joining[i]->desc.table_name, 0, true, created};
    }
    PublishLocked();
    return Status::OK();
  });
}

Result<GlobalTableDescription> GlobalTables::CreateGlobalTable(
    const CreateGlobalTableRequest& req) {
  MutexLock lock(&mu_);
  if (req.scope.ns.empty()) {
    return Status::Validation(
        "Global tables need a set of tables per access key and Region: they are not "
        "available with a shared database (--shared-db) or to unsigned calls");
  }
  DR_RETURN_IF_ERROR(CheckRegions(req.replication_group));
  if (std::find(req.replication_group.begin(), req.replication_group.end(),
                req.scope.region) == req.replication_group.end()) {
    return Status::Validation(
        "One or more parameter values were invalid: the ReplicationGroup must include the "
        "Region of the call (" + req.scope.region + ")");
  }
  if (LegacyGroup(req.scope, req.global_table_name).ok()) {
    return Status(ErrorCode::kGlobalTableAlreadyExists,
                  "Global table with this name already exists: " + req.global_table_name);
  }
  // The caller's table first: the others must share its key schema, and
  // its id names the group.
  std::vector<std::string> regions{req.scope.region};
  for (const std::string& r : req.replication_group) {
    if (r != req.scope.region) regions.push_back(r);
  }
  std::vector<std::shared_ptr<const TableInfo>> joining;
  for (const std::string& region : regions) {
    DR_ASSIGN_OR_RETURN(
        std::shared_ptr<const TableInfo> t,
        Joiner(req.scope, req.global_table_name, region,
               joining.empty() ? nullptr : joining.front().get()));
    joining.push_back(std::move(t));
  }
  const uint32_t group = joining.front()->id;
  DR_RETURN_IF_ERROR(Join(group, joining, regions));
  return DescribeLegacy(req.scope, group);
}

Result<GlobalTableDescription> GlobalTables::DescribeGlobalTable(
    const DescribeGlobalTableRequest& req) {
  MutexLock lock(&mu_);
  DR_ASSIGN_OR_RETURN(uint32_t group, LegacyGroup(req.scope, req.global_table_name));
  return DescribeLegacy(req.scope, group);
}

Result<ListGlobalTablesResult> GlobalTables::ListGlobalTables(
    const ListGlobalTablesRequest& req) {
  MutexLock lock(&mu_);
  if (req.region_name && !IsKnownRegion(*req.region_name)) {
    return Status::Validation("The provided region is not a valid AWS region: " +
                              *req.region_name);
  }
  const std::string key = AccessKeyOf(req.scope);
  std::map<std::string, uint32_t> groups;  // by name
  for (const auto& [id, m] : members_) {
    if (!m.legacy || m.ns != NamespaceFor(key, m.region)) continue;
    if (req.region_name && m.region != *req.region_name) continue;
    groups.emplace(m.name, m.group);
  }
  const size_t limit =
      static_cast<size_t>(std::clamp(req.limit.value_or(kDefaultListLimit), 1, kDefaultListLimit));
  ListGlobalTablesResult out;
  for (const auto& [name, group] : groups) {
    if (req.exclusive_start_global_table_name && name <= *req.exclusive_start_global_table_name) {
      continue;
    }
    if (out.global_tables.size() == limit) {
      out.last_evaluated_global_table_name = out.global_tables.back().global_table_name;
      break;
    }
    GlobalTableDescription d = DescribeLegacy(req.scope, group);
    out.global_tables.push_back({name, std::move(d.replication_group)});
  }
  return out;
}

Result<GlobalTableDescription> GlobalTables::UpdateGlobalTable(
    const UpdateGlobalTableRequest& req) {
  MutexLock lock(&mu_);
  DR_ASSIGN_OR_RETURN(uint32_t group, LegacyGroup(req.scope, req.global_table_name));
  std::vector<std::string> regions;
  for (const GlobalTableReplicaUpdate& u : req.replica_updates) regions.push_back(u.region_name);
  DR_RETURN_IF_ERROR(CheckRegions(regions));
  auto member_in = [&](const std::string& region) REQUIRES(mu_) {
    for (auto it = members_.begin(); it != members_.end(); ++it) {
      if (it->second.group == group && it->second.region == region) return it;
    }
    return members_.end();
  };
  // Every update is checked before any is made.
  std::shared_ptr<const TableInfo> like;
  for (const auto& [id, m] : members_) {
    if (m.group != group) continue;
    like = catalog_->Find(m.ns, m.name);
    if (like) break;
  }
  std::vector<std::shared_ptr<const TableInfo>> joining;
  std::vector<std::string> joining_regions;
  std::vector<uint32_t> removing;
  for (const GlobalTableReplicaUpdate& u : req.replica_updates) {
    auto it = member_in(u.region_name);
    if (u.create) {
      if (it != members_.end()) {
        return Status(ErrorCode::kReplicaAlreadyExists,
                      "Replica already exists in region " + u.region_name + " for global table " +
                          req.global_table_name);
      }
      DR_ASSIGN_OR_RETURN(std::shared_ptr<const TableInfo> t,
                          Joiner(req.scope, req.global_table_name, u.region_name, like.get()));
      joining.push_back(std::move(t));
      joining_regions.push_back(u.region_name);
    } else {
      if (it == members_.end()) {
        return Status(ErrorCode::kReplicaNotFound,
                      "Replica not found in region " + u.region_name + " for global table " +
                          req.global_table_name);
      }
      removing.push_back(it->first);
    }
  }
  Scope caller = req.scope;
  GlobalTableDescription before = DescribeLegacy(caller, group);
  if (!joining.empty()) DR_RETURN_IF_ERROR(Join(group, joining, joining_regions));
  if (!removing.empty()) {
    // The Region's table stays, a plain table; its pending changes go.
    WriteBatch batch;
    DR_RETURN_IF_ERROR(WithWritesStopped([&]() REQUIRES(mu_) {
      for (uint32_t id : removing) Leave(id, &batch, /*until_table_gone=*/false);
      PublishLocked();
      return Status::OK();
    }));
    DR_RETURN_IF_ERROR(store_->Write(&batch));
  }
  for (const auto& [id, m] : members_) {
    if (m.group == group) return DescribeLegacy(caller, group);
  }
  // Every Region left: the global table is gone.
  before.replication_group.clear();
  before.global_table_status = GlobalTableStatus::kDeleting;
  return before;
}

Result<GlobalTableSettings> GlobalTables::DescribeSettings(const DescribeGlobalTableRequest& req) {
  MutexLock lock(&mu_);
  DR_ASSIGN_OR_RETURN(uint32_t group, LegacyGroup(req.scope, req.global_table_name));
  GlobalTableSettings out;
  out.global_table_name = req.global_table_name;
  for (const auto& [id, m] : members_) {
    if (m.group != group) continue;
    DescribeTableRequest d;
    d.scope = ScopeOf(req.scope, m);
    d.table_name = m.name;
    Result<TableDescription> desc = tables_->Describe(d);
    if (!desc.ok()) continue;  // deleted meanwhile: no member any more
    ReplicaSettings r;
    r.region_name = m.region;
    r.replica_status = ReplicaStatusOf(desc->table_status);
    r.table = std::move(*desc);
    out.replica_settings.push_back(std::move(r));
  }
  std::sort(out.replica_settings.begin(), out.replica_settings.end(),
            [](const ReplicaSettings& a, const ReplicaSettings& b) {
              return a.region_name < b.region_name;
            });
  return out;
}

namespace {

const int64_t* UnitsFor(const std::vector<UpdateGlobalTableSettingsRequest::IndexUnits>& list,
                        std::string_view index) {
  for (const auto& u : list) {
    if (u.index_name == index && u.units) return &*u.units;
  }
  return nullptr;
}

// The one UpdateTable that gives `d` (a Region's table) the request's
// capacity settings, or nothing when they are already its own.
std::optional<UpdateTableRequest> CapacityUpdate(
    const UpdateGlobalTableSettingsRequest& req,
    const UpdateGlobalTableSettingsRequest::Replica* replica, const TableDescription& d) {
  UpdateTableRequest u;
  const BillingMode mode = req.billing_mode.value_or(d.billing_mode);
  bool changes = false;
  if (mode != d.billing_mode) {
    u.billing_mode = mode;
    changes = true;
  }
  if (mode == BillingMode::kProvisioned) {
    const bool switching = d.billing_mode != BillingMode::kProvisioned;
    const int64_t write = req.write_capacity_units.value_or(d.provisioned_throughput.write_capacity_units);
    int64_t read = d.provisioned_throughput.read_capacity_units;
    if (replica && replica->read_capacity_units) read = *replica->read_capacity_units;
    if (switching && !(replica && replica->read_capacity_units)) read = write;
    if (switching || read != d.provisioned_throughput.read_capacity_units ||
        write != d.provisioned_throughput.write_capacity_units) {
      u.provisioned_throughput = ProvisionedThroughput{read, write};
      changes = true;
    }
    std::vector<GlobalSecondaryIndexUpdate> gsis;
    for (const GlobalSecondaryIndexDescription& g : d.global_secondary_indexes) {
      const std::string& name = g.def.index_name;
      const int64_t* gw = UnitsFor(req.index_write_capacity_units, name);
      const int64_t* gr = replica ? UnitsFor(replica->index_read_capacity_units, name) : nullptr;
      const int64_t gwrite =
          gw ? *gw : (switching ? write : g.provisioned_throughput.write_capacity_units);
      const int64_t gread =
          gr ? *gr : (switching ? read : g.provisioned_throughput.read_capacity_units);
      if (!switching && gwrite == g.provisioned_throughput.write_capacity_units &&
          gread == g.provisioned_throughput.read_capacity_units) {
        continue;
      }
      GlobalSecondaryIndexUpdate gu;
      gu.update = GlobalSecondaryIndexUpdate::UpdateAction{name, ProvisionedThroughput{gread, gwrite},
                                                           std::nullopt, std::nullopt};
      gsis.push_back(std::move(gu));
    }
    if (!gsis.empty()) {
      u.global_secondary_index_updates = std::move(gsis);
      changes = true;
    }
  }
  if (!changes) return std::nullopt;
  return u;
}

}  // namespace

Result<GlobalTableSettings> GlobalTables::UpdateSettings(
    const UpdateGlobalTableSettingsRequest& req) {
  DescribeGlobalTableRequest describe{req.scope, req.global_table_name};
  {
    MutexLock lock(&mu_);
    DR_ASSIGN_OR_RETURN(uint32_t group, LegacyGroup(req.scope, req.global_table_name));
    std::vector<const Member*> members;
    for (const auto& [id, m] : members_) {
      if (m.group == group) members.push_back(&m);
    }
    // Everything is checked before any table changes.
    auto find = [&](const std::string& region) -> const Member* {
      for (const Member* m : members) {
        if (m->region == region) return m;
      }
      return nullptr;
    };
    std::vector<std::shared_ptr<const TableInfo>> tables;
    for (const Member* m : members) {
      std::shared_ptr<const TableInfo> t = catalog_->Find(m->ns, m->name);
      if (!t) return GlobalTableNotFound(req.global_table_name);
      tables.push_back(std::move(t));
    }
    auto has_index = [&](const std::string& index) {
      for (const auto& t : tables) {
        for (const auto& g : t->desc.global_secondary_indexes) {
          if (g.def.index_name == index) return true;
        }
      }
      return false;
    };
    std::vector<std::string> indexes;
    for (const auto& u : req.index_write_capacity_units) indexes.push_back(u.index_name);
    for (const auto& r : req.replicas) {
      if (!find(r.region_name)) {
        return Status(ErrorCode::kReplicaNotFound,
                      "Replica not found in region " + r.region_name + " for global table " +
                          req.global_table_name);
      }
      for (const auto& u : r.index_read_capacity_units) indexes.push_back(u.index_name);
    }
    for (const std::string& index : indexes) {
      if (!has_index(index)) {
        return Status(ErrorCode::kIndexNotFound,
                      "Requested resource not found: Index: " + index + " not found for global "
                      "table " + req.global_table_name);
      }
    }
    if (req.billing_mode == BillingMode::kPayPerRequest &&
        (req.write_capacity_units || !req.index_write_capacity_units.empty())) {
      return Status::Validation(
          "One or more parameter values were invalid: Neither ReadCapacityUnits nor "
          "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
    }
    // Each Region's table through UpdateTable: the table class alone (as
    // UpdateTable wants it), then the capacity in one call.
    for (size_t i = 0; i < members.size(); ++i) {
      const Member& m = *members[i];
      const UpdateGlobalTableSettingsRequest::Replica* replica = nullptr;
      for (const auto& r : req.replicas) {
        if (r.region_name == m.region) replica = &r;
      }
      const TableDescription& d = tables[i]->desc;
      if (replica && replica->table_class &&
          (!d.table_class_summary || d.table_class_summary->table_class != *replica->table_class)) {
        UpdateTableRequest u;
        u.scope = ScopeOf(req.scope, m);
        u.table_name = m.name;
        u.table_class = replica->table_class;
        DR_RETURN_IF_ERROR(tables_->Update(u).status());
      }
      if (std::optional<UpdateTableRequest> u = CapacityUpdate(req, replica, d)) {
        u->scope = ScopeOf(req.scope, m);
        u->table_name = m.name;
        DR_RETURN_IF_ERROR(tables_->Update(*u).status());
      }
    }
  }
  return DescribeSettings(describe);
}

}  // namespace dynarock
