// GlobalTables: the settings of a global table's replicas (global_tables.h).
// What DynamoDB keeps the same on every replica, and what a replica may
// override, is the developer guide's "How DynamoDB global tables work",
// Settings synchronization:
//   always synchronized: capacity mode, table provisioned write capacity,
//     key schema, GSI definitions and their provisioned write capacity, SSE
//     type, streams (MREC), Time to Live, warm throughput, on-demand maximum
//     write throughput;
//   synchronized, overridable per replica: table and GSI provisioned read
//     capacity, table class, on-demand maximum read throughput ("Overridable
//     setting values are changed if the setting is modified on any other
//     replica");
//   never: deletion protection, PITR, tags, contributor insights, Kinesis,
//     resource policies, streams (MRSC).
// Streams are kept by CheckUpdate (a member cannot disable its stream) and
// by CreateReplica; Time to Live lives above this module (engine/ttl/), so
// the facade applies it to SynchronizedWith's members.

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "engine/index/gsi_update_plan.h"
#include "engine/replication/global_tables.h"

namespace dynarock {
namespace {

// Whether `req` changes a setting DynamoDB synchronizes across replicas
// (overridable ones included). Also what a replica's own UpdateTable must
// ask for: UpdateTable refuses a request that changes nothing.
bool ChangesSynchronized(const UpdateTableRequest& req) {
  return req.billing_mode || req.provisioned_throughput || req.on_demand_throughput ||
         req.warm_throughput || req.table_class || req.sse_specification ||
         (req.global_secondary_index_updates && !req.global_secondary_index_updates->empty());
}

const GlobalSecondaryIndexDescription* FindGsi(const TableDescription& d,
                                               std::string_view name) {
  for (const GlobalSecondaryIndexDescription& g : d.global_secondary_indexes) {
    if (g.def.index_name == name) return &g;
  }
  return nullptr;
}

// A maximum as ThroughputSettings keeps it (0 = none) from a request's
// member (-1 removes it).
int64_t MaximumOf(int64_t requested) { return requested < 0 ? 0 : requested; }

// The warm throughput `want` asks of a replica whose settings are `have`:
// without the members that would lower it (warm throughput is never
// decreased; a replica's overridden read capacity may have raised it).
std::optional<WarmThroughput> WarmFor(const WarmThroughput& want, const ThroughputSettings& have) {
  WarmThroughput out = want;
  if (out.read_units_per_second && *out.read_units_per_second < have.warm_read_units_per_second) {
    out.read_units_per_second.reset();
  }
  if (out.write_units_per_second &&
      *out.write_units_per_second < have.warm_write_units_per_second) {
    out.write_units_per_second.reset();
  }
  if (!out.read_units_per_second && !out.write_units_per_second) return std::nullopt;
  return out;
}

// The on-demand maxima `want` asks of a replica: the write maximum always,
// the read one when `before` (the changed member as it was) changed it.
std::optional<OnDemandThroughput> OnDemandFor(const OnDemandThroughput& want,
                                              const ThroughputSettings& before,
                                              bool* read_changed) {
  OnDemandThroughput out;
  out.max_write_request_units = want.max_write_request_units;
  *read_changed = want.max_read_request_units &&
                  MaximumOf(*want.max_read_request_units) != before.max_read_request_units;
  if (*read_changed) out.max_read_request_units = want.max_read_request_units;
  if (!out.max_read_request_units && !out.max_write_request_units) return std::nullopt;
  return out;
}

// What an UpdateTable of a member changed of the overridable read settings
// (set on every member, such a change ends their overrides of it).
struct SyncPlan {
  bool read_changed = false;      // the table's provisioned read units
  bool max_read_changed = false;  // its on-demand maximum read units
  bool to_on_demand = false;
  bool to_provisioned = false;
  // By GSI: the read units set (read_capacity_units) and whether the
  // maximum read units changed (max_read_request_units set, to 0).
  std::map<std::string, ReadOverride, std::less<>> index_read_changed;
  std::set<std::string, std::less<>> index_deleted;
};

SyncPlan PlanSync(const TableDescription& was, const UpdateTableRequest& req) {
  SyncPlan plan;
  plan.to_on_demand = req.billing_mode == BillingMode::kPayPerRequest;
  plan.to_provisioned = req.billing_mode == BillingMode::kProvisioned;
  plan.read_changed = req.provisioned_throughput &&
                      (was.billing_mode != BillingMode::kProvisioned ||
                       req.provisioned_throughput->read_capacity_units !=
                           was.provisioned_throughput.read_capacity_units);
  if (req.on_demand_throughput) {
    (void)OnDemandFor(*req.on_demand_throughput, was.settings, &plan.max_read_changed);
  }
  if (!req.global_secondary_index_updates) return plan;
  for (const GlobalSecondaryIndexUpdate& u : *req.global_secondary_index_updates) {
    if (u.del) plan.index_deleted.insert(u.del->index_name);
    const GlobalSecondaryIndexDescription* g = u.update ? FindGsi(was, u.update->index_name)
                                                        : nullptr;
    if (!g) continue;
    ReadOverride& changed = plan.index_read_changed[u.update->index_name];
    const std::optional<ProvisionedThroughput>& pt = u.update->provisioned_throughput;
    if (pt && pt->read_capacity_units != g->provisioned_throughput.read_capacity_units) {
      changed.read_capacity_units = pt->read_capacity_units;
    }
    bool changed_max = false;
    if (u.update->on_demand_throughput) {
      (void)OnDemandFor(*u.update->on_demand_throughput, g->settings, &changed_max);
    }
    if (changed_max) changed.max_read_request_units = 0;
  }
  return plan;
}

// Ends the overrides of a member (`read`, `index_reads`) that `plan` set
// on every member, and those of deleted indexes.
void EndOverrides(const SyncPlan& plan, ReadOverride* read,
                  std::map<std::string, ReadOverride, std::less<>>* index_reads) {
  if (plan.read_changed || plan.to_on_demand) read->read_capacity_units.reset();
  if (plan.max_read_changed || plan.to_provisioned) read->max_read_request_units.reset();
  for (auto it = index_reads->begin(); it != index_reads->end();) {
    auto changed = plan.index_read_changed.find(it->first);
    if (changed != plan.index_read_changed.end()) {
      if (changed->second.read_capacity_units) it->second.read_capacity_units.reset();
      if (changed->second.max_read_request_units) it->second.max_read_request_units.reset();
    }
    if (plan.to_on_demand) it->second.read_capacity_units.reset();
    if (plan.to_provisioned) it->second.max_read_request_units.reset();
    if (plan.index_deleted.count(it->first) || it->second.empty()) {
      it = index_reads->erase(it);
    } else {
      ++it;
    }
  }
}

// The GSI Update of `gu` for a replica's index `g` (`was_g`: the changed
// member's, as it was); nothing when the replica's index has it already.
std::optional<GlobalSecondaryIndexUpdate> IndexUpdateFor(
    const SyncPlan& plan, const GlobalSecondaryIndexUpdate::UpdateAction& gu,
    const GlobalSecondaryIndexDescription* was_g, const GlobalSecondaryIndexDescription& g) {
  GlobalSecondaryIndexUpdate::UpdateAction a{.index_name = gu.index_name};
  auto changed = plan.index_read_changed.find(gu.index_name);
  const std::optional<int64_t> read =
      changed == plan.index_read_changed.end() ? std::nullopt : changed->second.read_capacity_units;
  if (gu.provisioned_throughput) {
    const ProvisionedThroughput want{read.value_or(g.provisioned_throughput.read_capacity_units),
                                     gu.provisioned_throughput->write_capacity_units};
    if (want.read_capacity_units != g.provisioned_throughput.read_capacity_units ||
        want.write_capacity_units != g.provisioned_throughput.write_capacity_units) {
      a.provisioned_throughput = want;
    }
  }
  if (gu.on_demand_throughput) {
    bool unused = false;
    a.on_demand_throughput =
        OnDemandFor(*gu.on_demand_throughput, was_g ? was_g->settings : g.settings, &unused);
  }
  if (gu.warm_throughput) a.warm_throughput = WarmFor(*gu.warm_throughput, g.settings);
  if (!a.provisioned_throughput && !a.on_demand_throughput && !a.warm_throughput) {
    return std::nullopt;
  }
  GlobalSecondaryIndexUpdate update;
  update.update = std::move(a);
  return update;
}

// The GSI creates, deletes and updates of `req` for a replica described by
// `d` (`was`: the changed member as it was). Sets `u`'s members.
void IndexUpdatesFor(const SyncPlan& plan, const TableDescription& was,
                     const UpdateTableRequest& req, const TableDescription& d,
                     UpdateTableRequest* u) {
  u->global_secondary_index_updates.emplace();
  for (const GlobalSecondaryIndexUpdate& gu : *req.global_secondary_index_updates) {
    if (gu.create) {
      if (FindGsi(d, gu.create->index_name)) continue;
      u->attribute_definitions = req.attribute_definitions;
      u->global_secondary_index_updates->push_back(gu);
    } else if (gu.del) {
      if (FindGsi(d, gu.del->index_name)) u->global_secondary_index_updates->push_back(gu);
    } else if (gu.update) {
      const GlobalSecondaryIndexDescription* g = FindGsi(d, gu.update->index_name);
      if (!g) continue;
      std::optional<GlobalSecondaryIndexUpdate> update =
          IndexUpdateFor(plan, *gu.update, FindGsi(was, gu.update->index_name), *g);
      if (update) u->global_secondary_index_updates->push_back(std::move(*update));
    }
  }
}

// The UpdateTable (without its scope and table name) that brings a replica
// described by `d` the synchronized settings `req` changed on the member
// `was` describes; a member it already has is left out.
UpdateTableRequest ReplicaUpdate(const SyncPlan& plan, const TableDescription& was,
                                 const UpdateTableRequest& req, const TableDescription& d) {
  UpdateTableRequest u;
  if (req.provisioned_throughput) {
    // The read capacity the replica had stays unless `req` changed it.
    const bool keeps_read = !plan.read_changed && d.billing_mode == BillingMode::kProvisioned;
    const ProvisionedThroughput want{
        keeps_read ? d.provisioned_throughput.read_capacity_units
                   : req.provisioned_throughput->read_capacity_units,
        req.provisioned_throughput->write_capacity_units};
    if (d.billing_mode != BillingMode::kProvisioned ||
        want.read_capacity_units != d.provisioned_throughput.read_capacity_units ||
        want.write_capacity_units != d.provisioned_throughput.write_capacity_units) {
      u.provisioned_throughput = want;
    }
  }
  if (req.billing_mode && (*req.billing_mode != d.billing_mode || u.provisioned_throughput)) {
    u.billing_mode = req.billing_mode;
  }
  if (req.on_demand_throughput) {
    bool unused = false;
    u.on_demand_throughput = OnDemandFor(*req.on_demand_throughput, was.settings, &unused);
  }
  if (req.warm_throughput) u.warm_throughput = WarmFor(*req.warm_throughput, d.settings);
  if (req.table_class &&
      (!d.table_class_summary || d.table_class_summary->table_class != *req.table_class)) {
    u.table_class = req.table_class;
  }
  if (req.sse_specification) {
    // The type (a KMS key or DynamoDB's own) is synchronized; the key is
    // each replica's (KMSMasterKeyId of its Create or Update).
    if (req.sse_specification->enabled && !d.sse_description) {
      u.sse_specification = SseSpecification{true, std::nullopt};
    } else if (!req.sse_specification->enabled && d.sse_description) {
      u.sse_specification = SseSpecification{false, std::nullopt};
    }
  }
  if (req.global_secondary_index_updates) IndexUpdatesFor(plan, was, req, d, &u);
  return u;
}

}  // namespace

Status GlobalTables::CheckOverrides(const TableDescription& source,
                                    const ReplicationGroupUpdate& action) {
  const bool provisioned = source.billing_mode == BillingMode::kProvisioned;
  auto check = [&](const ReadOverride& o, std::string_view where) -> Status {
    if (o.read_capacity_units && !provisioned) {
      return Status::Validation(
          "One or more parameter values were invalid: ProvisionedThroughputOverride" +
          std::string(where) + " can only be specified for a table in PROVISIONED billing mode");
    }
    if (o.max_read_request_units && provisioned) {
      return Status::Validation(
          "One or more parameter values were invalid: OnDemandThroughputOverride" +
          std::string(where) +
          " can only be specified for a table in PAY_PER_REQUEST billing mode");
    }
    return Status::OK();
  };
  DR_RETURN_IF_ERROR(check(action.read_override, ""));
  for (size_t i = 0; i < action.global_secondary_indexes.size(); ++i) {
    const ReplicaIndexOverride& o = action.global_secondary_indexes[i];
    for (size_t j = 0; j < i; ++j) {
      if (action.global_secondary_indexes[j].index_name == o.index_name) {
        return Status::Validation(
            "One or more parameter values were invalid: Duplicate index name in the "
            "replica's GlobalSecondaryIndexes: " + o.index_name);
      }
    }
    if (!FindGsi(source, o.index_name)) return GsiNotFound(o.index_name, source.table_name);
    DR_RETURN_IF_ERROR(check(o.read, " of index " + o.index_name));
  }
  return Status::OK();
}

Status GlobalTables::ApplyOverrides(const Scope& caller, uint32_t id, const TableInfo& table,
                                    const ReplicationGroupUpdate& action) {
  const TableDescription& d = table.desc;
  UpdateTableRequest base;
  base.scope = ScopeOf(caller, members_.at(id));
  base.table_name = d.table_name;
  // The GSIs' read settings in one request; the table's with them when it
  // is provisioned (its new units make it UPDATING: a second request would
  // find it busy), after them when it is on demand (OnDemandThroughput
  // goes with no index update).
  UpdateTableRequest indexes = base;
  indexes.global_secondary_index_updates.emplace();
  for (const ReplicaIndexOverride& o : action.global_secondary_indexes) {
    const GlobalSecondaryIndexDescription* g = FindGsi(d, o.index_name);
    if (!g) return GsiNotFound(o.index_name, d.table_name);
    GlobalSecondaryIndexUpdate::UpdateAction u{.index_name = o.index_name};
    if (o.read.read_capacity_units &&
        *o.read.read_capacity_units != g->provisioned_throughput.read_capacity_units) {
      u.provisioned_throughput = ProvisionedThroughput{
          *o.read.read_capacity_units, g->provisioned_throughput.write_capacity_units};
    }
    if (o.read.max_read_request_units &&
        MaximumOf(*o.read.max_read_request_units) != g->settings.max_read_request_units) {
      u.on_demand_throughput = OnDemandThroughput{o.read.max_read_request_units, std::nullopt};
    }
    if (u.provisioned_throughput || u.on_demand_throughput) {
      GlobalSecondaryIndexUpdate update;
      update.update = std::move(u);
      indexes.global_secondary_index_updates->push_back(std::move(update));
    }
  }
  UpdateTableRequest own = base;
  const ReadOverride& read = action.read_override;
  if (read.read_capacity_units &&
      *read.read_capacity_units != d.provisioned_throughput.read_capacity_units) {
    own.provisioned_throughput = ProvisionedThroughput{
        *read.read_capacity_units, d.provisioned_throughput.write_capacity_units};
  }
  if (read.max_read_request_units &&
      MaximumOf(*read.max_read_request_units) != d.settings.max_read_request_units) {
    own.on_demand_throughput = OnDemandThroughput{read.max_read_request_units, std::nullopt};
  }
  if (own.provisioned_throughput) {
    indexes.provisioned_throughput = own.provisioned_throughput;
    own.provisioned_throughput.reset();
  }
  if (ChangesSynchronized(indexes)) DR_RETURN_IF_ERROR(tables_->Update(indexes).status());
  if (ChangesSynchronized(own)) DR_RETURN_IF_ERROR(tables_->Update(own).status());
  WriteBatch batch;
  RecordOverrides(id, action, &batch);
  return store_->Write(&batch);
}

void GlobalTables::RecordOverrides(uint32_t id, const ReplicationGroupUpdate& action,
                                   WriteBatch* batch) {
  Member& m = members_.at(id);
  auto merge = [](const ReadOverride& from, ReadOverride* into) {
    if (from.read_capacity_units) into->read_capacity_units = from.read_capacity_units;
    if (from.max_read_request_units) into->max_read_request_units = from.max_read_request_units;
  };
  merge(action.read_override, &m.read);
  for (const ReplicaIndexOverride& o : action.global_secondary_indexes) {
    merge(o.read, &m.index_reads[o.index_name]);
  }
  PutMember(id, m, batch);
}

std::vector<ReplicationTarget> GlobalTables::SynchronizedWith(const TableInfo& table) const {
  MutexLock lock(&mu_);
  std::vector<ReplicationTarget> out;
  auto self = members_.find(table.id);
  if (self == members_.end() || self->second.legacy) return out;
  for (const auto& [id, m] : members_) {
    if (id != table.id && m.group == self->second.group) {
      out.push_back(ReplicationTarget{id, m.region, m.ns, m.name});
    }
  }
  return out;
}

Status GlobalTables::CheckSynchronized(const TableInfo& table,
                                       const UpdateTableRequest& req) const {
  if (!ChangesSynchronized(req)) return Status::OK();
  for (const ReplicationTarget& t : SynchronizedWith(table)) {
    Scope scope = req.scope;
    scope.ns = t.ns;
    scope.region = t.region;
    TableStatus status;
    std::shared_ptr<const TableInfo> other = tables_->Find(scope, t.table_name, &status);
    if (other && status == TableStatus::kActive) continue;
    return Status::ResourceInUse(
        "Attempt to change a resource which is still in use: the replica of table " +
        req.table_name + " in region " + t.region + " is not ACTIVE");
  }
  return Status::OK();
}

Status GlobalTables::Synchronize(const TableInfo& before, const UpdateTableRequest& req) {
  if (!ChangesSynchronized(req)) return Status::OK();
  const std::vector<ReplicationTarget> others = SynchronizedWith(before);
  if (others.empty()) return Status::OK();
  MutexLock lock(&mu_);
  const SyncPlan plan = PlanSync(before.desc, req);
  WriteBatch batch;
  if (auto self = members_.find(before.id); self != members_.end()) {
    EndOverrides(plan, &self->second.read, &self->second.index_reads);
    PutMember(self->first, self->second, &batch);
  }
  Status result = Status::OK();
  for (const ReplicationTarget& target : others) {
    auto member = members_.find(target.table_id);
    if (member == members_.end()) continue;
    Scope scope = ScopeOf(req.scope, member->second);
    TableStatus status;
    std::shared_ptr<const TableInfo> table = tables_->Find(scope, target.table_name, &status);
    if (!table) continue;
    UpdateTableRequest u = ReplicaUpdate(plan, before.desc, req, table->desc);
    u.scope = scope;
    u.table_name = target.table_name;
    EndOverrides(plan, &member->second.read, &member->second.index_reads);
    PutMember(member->first, member->second, &batch);
    if (!ChangesSynchronized(u)) continue;
    result = tables_->Update(u).status();
    if (!result.ok()) break;
  }
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  return result;
}

}  // namespace dynarock
