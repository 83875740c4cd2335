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

// Whether `req` changes a setting DynamoDB synchronizes across replicas.
bool ChangesSynchronized(const UpdateTableRequest& req) {
  return req.billing_mode || req.provisioned_throughput || req.on_demand_throughput ||
         req.warm_throughput || req.table_class || req.sse_specification ||
         (req.global_secondary_index_updates && !req.global_secondary_index_updates->empty());
}

// Whether `u` asks for any change (UpdateTable refuses an empty request).
bool ChangesAnything(const UpdateTableRequest& u) {
  return u.billing_mode || u.provisioned_throughput || u.on_demand_throughput ||
         u.warm_throughput || u.table_class || u.sse_specification ||
         (u.global_secondary_index_updates && !u.global_secondary_index_updates->empty());
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
  if (ChangesAnything(indexes)) DR_RETURN_IF_ERROR(tables_->Update(indexes).status());
  if (ChangesAnything(own)) DR_RETURN_IF_ERROR(tables_->Update(own).status());
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
  const TableDescription& was = before.desc;
  // What `req` changed of the overridable read settings: set on every
  // member, it ends their overrides of it (the caller's own included).
  const bool to_on_demand = req.billing_mode == BillingMode::kPayPerRequest;
  const bool read_changed =
      req.provisioned_throughput &&
      (was.billing_mode != BillingMode::kProvisioned ||
       req.provisioned_throughput->read_capacity_units !=
           was.provisioned_throughput.read_capacity_units);
  bool max_read_changed = false;
  if (req.on_demand_throughput) (void)OnDemandFor(*req.on_demand_throughput, was.settings,
                                                  &max_read_changed);
  std::map<std::string, ReadOverride> index_read_changed;  // members set: changed
  std::set<std::string> index_deleted;
  if (req.global_secondary_index_updates) {
    for (const GlobalSecondaryIndexUpdate& u : *req.global_secondary_index_updates) {
      if (u.del) index_deleted.insert(u.del->index_name);
      if (!u.update) continue;
      const GlobalSecondaryIndexDescription* g = FindGsi(was, u.update->index_name);
      if (!g) continue;
      ReadOverride& changed = index_read_changed[u.update->index_name];
      if (u.update->provisioned_throughput &&
          u.update->provisioned_throughput->read_capacity_units !=
              g->provisioned_throughput.read_capacity_units) {
        changed.read_capacity_units = u.update->provisioned_throughput->read_capacity_units;
      }
      bool changed_max = false;
      if (u.update->on_demand_throughput) {
        (void)OnDemandFor(*u.update->on_demand_throughput, g->settings, &changed_max);
      }
      if (changed_max) changed.max_read_request_units = 0;
    }
  }
  auto end_overrides = [&](Member* m) {
    if (read_changed || to_on_demand) m->read.read_capacity_units.reset();
    if (max_read_changed || req.billing_mode == BillingMode::kProvisioned) {
      m->read.max_read_request_units.reset();
    }
    for (auto it = m->index_reads.begin(); it != m->index_reads.end();) {
      auto changed = index_read_changed.find(it->first);
      if (changed != index_read_changed.end()) {
        if (changed->second.read_capacity_units) it->second.read_capacity_units.reset();
        if (changed->second.max_read_request_units) it->second.max_read_request_units.reset();
      }
      if (to_on_demand) it->second.read_capacity_units.reset();
      if (req.billing_mode == BillingMode::kProvisioned) it->second.max_read_request_units.reset();
      if (index_deleted.count(it->first) || it->second.empty()) {
        it = m->index_reads.erase(it);
      } else {
        ++it;
      }
    }
  };

  WriteBatch batch;
  if (auto self = members_.find(before.id); self != members_.end()) {
    end_overrides(&self->second);
    PutMember(self->first, self->second, &batch);
  }
  Status result = Status::OK();
  for (const ReplicationTarget& target : others) {
    auto member = members_.find(target.table_id);
    if (member == members_.end()) continue;
    UpdateTableRequest u;
    u.scope = ScopeOf(req.scope, member->second);
    u.table_name = target.table_name;
    TableStatus status;
    std::shared_ptr<const TableInfo> table = tables_->Find(u.scope, u.table_name, &status);
    if (!table) continue;
    const TableDescription& d = table->desc;
    if (req.provisioned_throughput) {
      // The read capacity the replica had stays unless `req` changed it.
      const bool keeps_read = !read_changed && d.billing_mode == BillingMode::kProvisioned;
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
    if (req.global_secondary_index_updates) {
      u.global_secondary_index_updates.emplace();
      for (const GlobalSecondaryIndexUpdate& gu : *req.global_secondary_index_updates) {
        if (gu.create) {
          if (FindGsi(d, gu.create->index_name)) continue;
          u.attribute_definitions = req.attribute_definitions;
          u.global_secondary_index_updates->push_back(gu);
        } else if (gu.del) {
          if (FindGsi(d, gu.del->index_name)) u.global_secondary_index_updates->push_back(gu);
        } else if (gu.update) {
          const GlobalSecondaryIndexDescription* g = FindGsi(d, gu.update->index_name);
          if (!g) continue;
          const ReadOverride& changed = index_read_changed[gu.update->index_name];
          GlobalSecondaryIndexUpdate::UpdateAction a{.index_name = gu.update->index_name};
          if (gu.update->provisioned_throughput) {
            const ProvisionedThroughput want{
                changed.read_capacity_units ? *changed.read_capacity_units
                                            : g->provisioned_throughput.read_capacity_units,
                gu.update->provisioned_throughput->write_capacity_units};
            if (want.read_capacity_units != g->provisioned_throughput.read_capacity_units ||
                want.write_capacity_units != g->provisioned_throughput.write_capacity_units) {
              a.provisioned_throughput = want;
            }
          }
          if (gu.update->on_demand_throughput) {
            bool unused = false;
            a.on_demand_throughput = OnDemandFor(*gu.update->on_demand_throughput,
                                                 FindGsi(was, a.index_name)
                                                     ? FindGsi(was, a.index_name)->settings
                                                     : g->settings,
                                                 &unused);
          }
          if (gu.update->warm_throughput) {
            a.warm_throughput = WarmFor(*gu.update->warm_throughput, g->settings);
          }
          if (a.provisioned_throughput || a.on_demand_throughput || a.warm_throughput) {
            GlobalSecondaryIndexUpdate update;
            update.update = std::move(a);
            u.global_secondary_index_updates->push_back(std::move(update));
          }
        }
      }
    }
    end_overrides(&member->second);
    PutMember(member->first, member->second, &batch);
    if (!ChangesAnything(u)) continue;
    Status s = tables_->Update(u).status();
    if (!s.ok()) {
      result = s;
      break;
    }
  }
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  return result;
}

}  // namespace dynarock
