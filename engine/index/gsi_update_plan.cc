#include "engine/index/gsi_update_plan.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <vector>

#include "engine/capacity/throughput_settings.h"
#include "engine/index/index_descriptions.h"
#include "engine/schema/schema.h"

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
  for (const auto& v : d->vector_indexes) {
    for (const auto& e : v.def.search_schema) used.insert(e.attribute_name);
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

// The key schema of `d` (the table's or an index's) that uses `attribute`.
const std::vector<KeySchemaElement>& SchemaUsing(const TableDescription& d,
                                                 const std::string& attribute) {
  auto uses = [&](const std::vector<KeySchemaElement>& ks) {
    return std::any_of(ks.begin(), ks.end(), [&](const KeySchemaElement& k) {
      return k.attribute_name == attribute;
    });
  };
  const std::vector<KeySchemaElement>* schema = &d.key_schema;
  if (uses(d.key_schema)) return *schema;
  for (const auto& g : d.global_secondary_indexes) {
    if (uses(g.def.key_schema)) schema = &g.def.key_schema;
  }
  for (const auto& l : d.local_secondary_indexes) {
    if (uses(l.def.key_schema)) schema = &l.def.key_schema;
  }
  return *schema;
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
    return Invalid(
        "Attributes cannot be redefined. Please check that your attribute has "
        "the same "
        "type as previously defined. Existing schema: " +
        RenderSchema(SchemaUsing(d, e.attribute_name), d.attribute_definitions) +
        " New schema: " + RenderSchema(def.key_schema, requested));
  }
  return Status::OK();
}

// At most one Create or Delete (and none while a GSI is backfilling).
Status CheckActions(const std::vector<GlobalSecondaryIndexUpdate>& updates,
                    bool backfilling) {
  DR_RETURN_IF_ERROR(CheckGsiUpdateActions(updates));
  int online = 0;
  for (const GlobalSecondaryIndexUpdate& u : updates) {
    if (u.create || u.del) ++online;
  }
  if (online > 1) return OnlyOneOnlineIndex();
  if (online == 1 && backfilling) return OnlyOneOnlineIndex();
  return Status::OK();
}

}  // namespace

Status CheckGsiUpdateActions(const std::vector<GlobalSecondaryIndexUpdate>& updates) {
  std::set<std::string> names;
  for (const GlobalSecondaryIndexUpdate& u : updates) {
    const int actions = (u.create ? 1 : 0) + (u.update ? 1 : 0) + (u.del ? 1 : 0);
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
  }
  return Status::OK();
}

namespace {

// A Create goes with no table-level throughput or deletion-protection change.
Status CheckCreatesAlone(const UpdateTableRequest& req) {
  for (const GlobalSecondaryIndexUpdate& u : *req.global_secondary_index_updates) {
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
  return Status::OK();
}

// The new index's key attributes: defined by the request or already by the
// table (only a new attribute must be sent).
Status CheckCreateKeys(const UpdateTableRequest& req, const TableDescription& current,
                       const GlobalSecondaryIndexDef& def) {
  if (req.attribute_definitions.empty()) {
    return Invalid("AttributeDefinitions is not specified for index: " +
                   def.index_name);
  }
  DR_RETURN_IF_ERROR(CheckNoRedefinition(current, def, req.attribute_definitions));
  std::vector<AttributeDefinition> defined = current.attribute_definitions;
  for (const AttributeDefinition& a : req.attribute_definitions) {
    if (std::none_of(defined.begin(), defined.end(), [&](const auto& d) {
          return d.attribute_name == a.attribute_name;
        })) {
      defined.push_back(a);
    }
  }
  return ValidateGlobalSecondaryIndexKeys(def, defined);
}

Status CheckCreate(const UpdateTableRequest& req, const GsiUpdateContext& context,
                   const TableDescription& next, const GlobalSecondaryIndexDef& def) {
  const TableDescription& current = context.current.desc;
  const bool provisioned = next.billing_mode == BillingMode::kProvisioned;
  if (IndexNameTaken(current, def.index_name)) {
    return Status::Validation("Attempting to create an index which already exists");
  }
  if (current.global_secondary_indexes.size() >=
      static_cast<size_t>(kMaxGlobalSecondaryIndexes)) {
    return Status(ErrorCode::kLimitExceeded,
                  "Subscriber limit exceeded: Number of global secondary indexes "
                  "exceeds per-table limit of 20");
  }
  DR_RETURN_IF_ERROR(CheckCreateKeys(req, current, def));
  size_t projected = def.projection.non_key_attributes.size();
  for (const auto& g : current.global_secondary_indexes) {
    projected += g.def.projection.non_key_attributes.size();
  }
  for (const auto& l : current.local_secondary_indexes) {
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
    return Invalid("ProvisionedThroughput should not be specified for index: " +
                   def.index_name + " when BillingMode is PAY_PER_REQUEST");
  }
  return NewThroughputSettings(def.index_name, next.billing_mode,
                               def.provisioned_throughput, def.on_demand_throughput,
                               def.warm_throughput, context.capacity, req.scope.region)
      .status();
}

Status UnchangedIndexThroughput(const std::string& name,
                                const ProvisionedThroughputDescription& cur) {
  const std::string r = std::to_string(cur.read_capacity_units);
  const std::string w = std::to_string(cur.write_capacity_units);
  return Status::Validation(
      "The provisioned throughput for the index " + name +
      " will not change. The requested value equals the current value. "
      "Current ReadCapacityUnits provisioned for index " +
      name + ": " + r + ". Requested ReadCapacityUnits: " + r +
      ". Current WriteCapacityUnits provisioned for index " + name + ": " + w +
      ". Requested WriteCapacityUnits: " + w +
      ". Refer to the Amazon DynamoDB Developer Guide for current "
      "limits and "
      "how to request higher limits.");
}

// An Update or a Delete: the index exists, and an Update's settings fit the
// table's billing mode and change something.
Status CheckUpdateOrDelete(const UpdateTableRequest& req, const GsiUpdateContext& context,
                           TableDescription* next, const GlobalSecondaryIndexUpdate& u) {
  const bool provisioned = next->billing_mode == BillingMode::kProvisioned;
  const bool to_provisioned =
      provisioned && context.current.desc.billing_mode != BillingMode::kProvisioned;
  const std::string& name = *ActionIndexName(u);
  GlobalSecondaryIndexDescription* g = FindGsi(next, name);
  if (g == nullptr) return GsiNotFound(name, next->table_name);
  if (!u.update) return Status::OK();
  const GlobalSecondaryIndexUpdate::UpdateAction& update = *u.update;
  if (!update.provisioned_throughput && provisioned && !update.on_demand_throughput &&
      !update.warm_throughput) {
    return Invalid("ProvisionedThroughput must be specified for index: " + name);
  }
  if (update.provisioned_throughput) {
    if (!provisioned) {
      return Invalid("The only Updates for index: " + name +
                     " when TableThroughputMode is PAY_PER_REQUEST can be to "
                     "OnDemandThroughput, WarmThroughput");
    }
    const auto& cur = g->provisioned_throughput;
    const auto& want = *update.provisioned_throughput;
    if (!to_provisioned && cur.read_capacity_units == want.read_capacity_units &&
        cur.write_capacity_units == want.write_capacity_units) {
      return UnchangedIndexThroughput(name, cur);
    }
  }
  ThroughputSettings probe = g->settings;
  return UpdateThroughputSettings(name, next->billing_mode, g->provisioned_throughput,
                                  update.on_demand_throughput, update.warm_throughput,
                                  context.capacity, req.scope.region, &probe);
}

// Only the new key attributes matter (DynamoDB ignores the rest of the
// list); one the table already defines has the same type.
void AddKeyDefinitions(const UpdateTableRequest& req, const GlobalSecondaryIndexDef& def,
                       TableDescription* d) {
  for (const KeySchemaElement& e : def.key_schema) {
    auto known = std::find_if(
        d->attribute_definitions.begin(), d->attribute_definitions.end(),
        [&](const auto& a) { return a.attribute_name == e.attribute_name; });
    if (known != d->attribute_definitions.end()) continue;
    for (const AttributeDefinition& a : req.attribute_definitions) {
      if (a.attribute_name == e.attribute_name) d->attribute_definitions.push_back(a);
    }
  }
  std::sort(d->attribute_definitions.begin(), d->attribute_definitions.end(),
            [](const auto& a, const auto& b) { return a.attribute_name < b.attribute_name; });
}

Status ApplyCreate(const UpdateTableRequest& req, const GsiUpdateContext& context,
                   const GlobalSecondaryIndexDef& def, TableInfo* next,
                   GsiChanges* changes) {
  TableDescription& d = next->desc;
  AddKeyDefinitions(req, def, &d);
  DR_ASSIGN_OR_RETURN(GlobalSecondaryIndexDescription g,
                      NewGsiDescription(d.table_arn, def, d.billing_mode,
                                        context.capacity, req.scope.region));
  d.global_secondary_indexes.push_back(std::move(g));
  DR_ASSIGN_OR_RETURN(uint32_t id, context.reserve_id());
  next->index_ids[def.index_name] = id;
  changes->created = def.index_name;
  return Status::OK();
}

Status ApplyUpdate(const UpdateTableRequest& req, const GsiUpdateContext& context,
                   const GlobalSecondaryIndexUpdate::UpdateAction& update,
                   TableDescription* d) {
  GlobalSecondaryIndexDescription* g = FindGsi(d, update.index_name);
  DR_RETURN_IF_ERROR(UpdateThroughputSettings(
      update.index_name, d->billing_mode, g->provisioned_throughput,
      update.on_demand_throughput, update.warm_throughput, context.capacity,
      req.scope.region, &g->settings));
  if (!update.provisioned_throughput) return Status::OK();
  auto& cur = g->provisioned_throughput;
  const auto& want = *update.provisioned_throughput;
  if (want.read_capacity_units > cur.read_capacity_units ||
      want.write_capacity_units > cur.write_capacity_units) {
    cur.last_increase_micros = context.now_micros;
  }
  if (want.read_capacity_units < cur.read_capacity_units ||
      want.write_capacity_units < cur.write_capacity_units) {
    cur.last_decrease_micros = context.now_micros;
    ++cur.number_of_decreases_today;
  }
  cur.read_capacity_units = want.read_capacity_units;
  cur.write_capacity_units = want.write_capacity_units;
  g->def.provisioned_throughput = want;
  return Status::OK();
}

void ApplyDelete(const GsiUpdateContext& context, const std::string& name,
                 TableInfo* next, GsiChanges* changes) {
  TableDescription& d = next->desc;
  const IndexInfo* index = context.current.FindIndex(name);
  if (index != nullptr) changes->deleted = *index;
  std::erase_if(d.global_secondary_indexes,
                [&](const auto& g) { return g.def.index_name == name; });
  next->index_ids.erase(name);
  PruneAttributeDefinitions(&d);
}

// Checks every update, then applies them; returns the GSIs whose
// provisioned throughput the request gave.
Result<std::set<std::string>> ApplyUpdates(const UpdateTableRequest& req,
                                           const GsiUpdateContext& context,
                                           TableInfo* next, GsiChanges* changes) {
  const auto& updates = *req.global_secondary_index_updates;
  if (updates.empty()) return Invalid("List of GlobalSecondaryIndexUpdates is empty");
  DR_RETURN_IF_ERROR(CheckActions(updates, context.backfilling));
  DR_RETURN_IF_ERROR(CheckCreatesAlone(req));
  for (const GlobalSecondaryIndexUpdate& u : updates) {
    DR_RETURN_IF_ERROR(u.create ? CheckCreate(req, context, next->desc, *u.create)
                                : CheckUpdateOrDelete(req, context, &next->desc, u));
  }
  std::set<std::string> throughput_given;
  for (const GlobalSecondaryIndexUpdate& u : updates) {
    if (u.create) {
      DR_RETURN_IF_ERROR(ApplyCreate(req, context, *u.create, next, changes));
      throughput_given.insert(u.create->index_name);
    } else if (u.update) {
      DR_RETURN_IF_ERROR(ApplyUpdate(req, context, *u.update, &next->desc));
      if (u.update->provisioned_throughput) throughput_given.insert(u.update->index_name);
    } else {
      ApplyDelete(context, u.del->index_name, next, changes);
    }
  }
  return throughput_given;
}

// A switch to PROVISIONED needs every GSI's throughput; a switch to
// PAY_PER_REQUEST drops it.
Status SettleBillingSwitch(const GsiUpdateContext& context,
                           const std::set<std::string>& throughput_given,
                           TableDescription* d) {
  const BillingMode was = context.current.desc.billing_mode;
  if (d->billing_mode == BillingMode::kProvisioned && was != BillingMode::kProvisioned) {
    for (const auto& g : d->global_secondary_indexes) {
      if (!throughput_given.count(g.def.index_name)) {
        return Invalid("ProvisionedThroughput must be specified for index: " +
                       g.def.index_name);
      }
    }
  }
  if (d->billing_mode != BillingMode::kProvisioned && was == BillingMode::kProvisioned) {
    for (auto& g : d->global_secondary_indexes) {
      g.def.provisioned_throughput.reset();
      g.provisioned_throughput.read_capacity_units = 0;
      g.provisioned_throughput.write_capacity_units = 0;
    }
  }
  return Status::OK();
}

// The warm throughput follows each GSI's capacity (its new units, a
// billing switch); one raised by this request counts as in force before.
void FollowWarmThroughput(const GsiUpdateContext& context, TableDescription* d) {
  const TableDescription& current = context.current.desc;
  for (auto& g : d->global_secondary_indexes) {
    const GlobalSecondaryIndexDescription* was = nullptr;
    for (const auto& c : current.global_secondary_indexes) {
      if (c.def.index_name == g.def.index_name) was = &c;
    }
    const WarmUnits before = EffectiveWarm(
        g.settings, current.billing_mode,
        was ? was->provisioned_throughput : g.provisioned_throughput, context.capacity);
    FollowCapacity(before, d->billing_mode, g.provisioned_throughput, context.capacity,
                   &g.settings);
  }
}

}  // namespace

Status GsiNotFound(const std::string& index, const std::string& table) {
  return Status::ResourceNotFound("Requested resource not found: Index " + index +
                                  " for table " + table);
}

Status PlanGsiUpdates(const UpdateTableRequest& req, const GsiUpdateContext& context,
                      TableInfo* next, GsiChanges* changes) {
  std::set<std::string> throughput_given;
  if (req.global_secondary_index_updates) {
    DR_ASSIGN_OR_RETURN(throughput_given, ApplyUpdates(req, context, next, changes));
  }
  DR_RETURN_IF_ERROR(SettleBillingSwitch(context, throughput_given, &next->desc));
  FollowWarmThroughput(context, &next->desc);
  ResolveIndexes(next);
  return Status::OK();
}

}  // namespace dynarock
