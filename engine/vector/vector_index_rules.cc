#include "engine/vector/vector_index_rules.h"

#include <algorithm>
#include <set>
#include <string>

namespace dynarock::vector {
namespace {

Status Invalid(const std::string& text) {
  return Status::Validation("One or more parameter values were invalid: " + text);
}

bool ValidIndexName(const std::string& name) {
  if (name.size() < 3 || name.size() > 255) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  });
}

}  // namespace

Status OnDemandOnly() {
  // Documented (Requirements and limitations): vector indexes only on
  // tables in on-demand capacity mode. The text is ours.
  return Invalid(
      "Vector indexes are supported only on tables that use on-demand capacity mode "
      "(BillingMode PAY_PER_REQUEST)");
}

Status CheckVectorIndexDef(const VectorIndexDef& def,
                           const std::vector<AttributeDefinition>& definitions,
                           const std::vector<KeySchemaElement>& table_key) {
  if (!ValidIndexName(def.index_name)) {
    return Invalid("IndexName must be at least 3 characters long and at most 255 "
                   "characters long, and may only contain [A-Za-z0-9_.-]: " +
                   def.index_name);
  }
  if (def.vector_attribute.empty()) {
    return Invalid("VectorAttribute AttributeName must not be empty. IndexName: " +
                   def.index_name);
  }
  if (def.dimensions < 1 || def.dimensions > kMaxDimensions) {
    return Invalid("Dimensions must be between 1 and " + std::to_string(kMaxDimensions) +
                   ". IndexName: " + def.index_name);
  }
  size_t hashes = 0, filters = 0;
  std::set<std::string> seen;
  for (const SearchSchemaElement& e : def.search_schema) {
    if (!seen.insert(e.attribute_name).second) {
      return Invalid("Duplicate attribute in SearchSchema: " + e.attribute_name);
    }
    auto known = std::find_if(definitions.begin(), definitions.end(), [&](const auto& a) {
      return a.attribute_name == e.attribute_name;
    });
    if (known == definitions.end()) {
      // Documented (Troubleshooting vector indexes).
      return Status::Validation(
          "One element in SearchSchema is not defined in attribute definitions");
    }
    if (e.attribute_name == def.vector_attribute) {
      return Invalid("The VectorAttribute cannot also be in the SearchSchema. IndexName: " +
                     def.index_name);
    }
    (e.type == SearchSchemaElementType::kHash ? hashes : filters) += 1;
  }
  if (hashes > 1) {
    return Invalid("SearchSchema can contain at most one HASH element. IndexName: " +
                   def.index_name);
  }
  if (filters > kMaxInlineFilters) {
    return Invalid("SearchSchema can contain at most " + std::to_string(kMaxInlineFilters) +
                   " INLINE_FILTER elements. IndexName: " + def.index_name);
  }
  for (const KeySchemaElement& k : table_key) {
    if (k.attribute_name == def.vector_attribute) {
      return Invalid("The VectorAttribute cannot be a key attribute of the table. "
                     "IndexName: " + def.index_name);
    }
  }
  if (def.projection.type == ProjectionType::kInclude &&
      def.projection.non_key_attributes.empty()) {
    return Invalid("NonKeyAttributes must be specified when ProjectionType is INCLUDE. "
                   "IndexName: " + def.index_name);
  }
  if (def.projection.type != ProjectionType::kInclude &&
      !def.projection.non_key_attributes.empty()) {
    return Invalid("ProjectionType is " +
                   std::string(def.projection.type == ProjectionType::kAll ? "ALL" : "KEYS_ONLY") +
                   ", but NonKeyAttributes is specified");
  }
  return Status::OK();
}

Status CheckCreateTableVectorIndexes(const CreateTableRequest& req) {
  if (req.vector_indexes.empty()) return Status::OK();
  if (req.billing_mode.value_or(BillingMode::kProvisioned) != BillingMode::kPayPerRequest) {
    return OnDemandOnly();
  }
  if (req.vector_indexes.size() > kMaxVectorIndexesPerTable) {
    return Invalid("VectorIndex count exceeds the per-table limit of " +
                   std::to_string(kMaxVectorIndexesPerTable));
  }
  std::set<std::string> names;
  for (const auto& g : req.global_secondary_indexes) names.insert(g.index_name);
  for (const auto& l : req.local_secondary_indexes) names.insert(l.index_name);
  for (const VectorIndexDef& def : req.vector_indexes) {
    DR_RETURN_IF_ERROR(CheckVectorIndexDef(def, req.attribute_definitions, req.key_schema));
    if (!names.insert(def.index_name).second) {
      return Invalid("Duplicate index name: " + def.index_name);
    }
  }
  return Status::OK();
}

}  // namespace dynarock::vector
