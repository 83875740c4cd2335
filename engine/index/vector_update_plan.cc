#include "engine/index/vector_update_plan.h"

#include <algorithm>

#include "engine/schema/arns.h"
#include "engine/vector/vector_index_rules.h"

namespace dynarock {
namespace {

Status Invalid(const std::string& text) {
  return Status::Validation("One or more parameter values were invalid: " + text);
}

}  // namespace

Status CheckVectorUpdateActions(const std::vector<VectorIndexUpdate>& updates) {
  if (updates.empty()) return Invalid("List of VectorIndexUpdates is empty");
  for (const VectorIndexUpdate& u : updates) {
    if (u.create.has_value() == u.del.has_value()) {
      return Invalid("One of the vector index actions Create or Delete must be provided, "
                     "and only one");
    }
  }
  if (updates.size() > 1) {
    return Invalid("Only one vector index can be created or deleted per UpdateTable");
  }
  return Status::OK();
}

Status PlanVectorUpdates(const UpdateTableRequest& req, const GsiUpdateContext& context,
                         TableInfo* next, GsiChanges* changes) {
  TableDescription& d = next->desc;
  if (d.billing_mode != BillingMode::kPayPerRequest && !d.vector_indexes.empty()) {
    return vector::OnDemandOnly();  // a switch to PROVISIONED
  }
  if (!req.vector_index_updates) return Status::OK();
  const VectorIndexUpdate& u = req.vector_index_updates->front();
  if (changes->changes_index_set() || context.backfilling) {
    return Status(ErrorCode::kLimitExceeded,
                  "Subscriber limit exceeded: Only 1 online index can be created or "
                  "deleted simultaneously per table");
  }
  auto named = [&](const std::string& name) {
    return std::find_if(d.vector_indexes.begin(), d.vector_indexes.end(),
                        [&](const auto& v) { return v.def.index_name == name; });
  };
  if (u.del) {
    auto it = named(*u.del);
    if (it == d.vector_indexes.end()) return GsiNotFound(*u.del, d.table_name);
    const IndexInfo* index = context.current.FindIndex(*u.del);
    if (index != nullptr) changes->deleted = *index;
    d.vector_indexes.erase(it);
    next->index_ids.erase(*u.del);
    ResolveIndexes(next);
    return Status::OK();
  }
  const VectorIndexDef& def = *u.create;
  if (d.billing_mode != BillingMode::kPayPerRequest) return vector::OnDemandOnly();
  // The search schema's attributes come with the request's definitions.
  std::vector<AttributeDefinition> definitions = d.attribute_definitions;
  for (const SearchSchemaElement& e : def.search_schema) {
    for (const AttributeDefinition& a : req.attribute_definitions) {
      if (a.attribute_name != e.attribute_name) continue;
      auto known = std::find_if(definitions.begin(), definitions.end(),
                                [&](const auto& k) { return k.attribute_name == a.attribute_name; });
      if (known == definitions.end()) definitions.push_back(a);
    }
  }
  DR_RETURN_IF_ERROR(vector::CheckVectorIndexDef(def, definitions, d.key_schema));
  if (named(def.index_name) != d.vector_indexes.end() ||
      context.current.FindIndex(def.index_name) != nullptr) {
    return Status::Validation("One or more parameter values were invalid: Index with name: " +
                              def.index_name + " already exists");
  }
  if (d.vector_indexes.size() >= vector::kMaxVectorIndexesPerTable) {
    return Status(ErrorCode::kLimitExceeded,
                  "VectorIndex count exceeds the per-table limit of " +
                      std::to_string(vector::kMaxVectorIndexesPerTable));
  }
  std::sort(definitions.begin(), definitions.end(),
            [](const auto& a, const auto& b) { return a.attribute_name < b.attribute_name; });
  d.attribute_definitions = std::move(definitions);
  VectorIndexDescription v;
  v.def = def;
  v.index_arn = IndexArn(d.table_arn, def.index_name);
  v.index_status = TableStatus::kCreating;
  v.backfilling = false;  // present: the index was added by UpdateTable
  d.vector_indexes.push_back(std::move(v));
  DR_ASSIGN_OR_RETURN(uint32_t id, context.reserve_id());
  next->index_ids[def.index_name] = id;
  changes->created = def.index_name;
  ResolveIndexes(next);
  return Status::OK();
}

}  // namespace dynarock
