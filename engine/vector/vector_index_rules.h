// engine/vector/vector_index_rules.h
//
// DynamoDB's rules for declaring vector indexes (CreateTable's
// VectorIndexes, UpdateTable's CreateVectorIndexAction) and the limits
// docs/vector-search.md cites: on-demand tables only, search-schema
// attributes defined in AttributeDefinitions, at most one HASH element,
// Dimensions >= 1. Pure functions; thread-safe.

#ifndef DYNAROCK_ENGINE_VECTOR_VECTOR_INDEX_RULES_H_
#define DYNAROCK_ENGINE_VECTOR_VECTOR_INDEX_RULES_H_

#include <cstdint>
#include <vector>

#include "engine/requests/table_requests.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock::vector {

// Limits DynamoDB documents only as "see Quotas" (not found: the values a
// DynamoDB user would expect; docs/vector-search.md).
inline constexpr int64_t kMaxDimensions = 4096;
inline constexpr size_t kMaxVectorIndexesPerTable = 20;
inline constexpr size_t kMaxInlineFilters = 10;
// Documented: TopK from 1 to 100.
inline constexpr int64_t kMinTopK = 1;
inline constexpr int64_t kMaxTopK = 100;

// One index against the table's attribute definitions and key schema.
// Errors: kValidation.
Status CheckVectorIndexDef(const VectorIndexDef& def,
                           const std::vector<AttributeDefinition>& definitions,
                           const std::vector<KeySchemaElement>& table_key);

// CreateTable's VectorIndexes: each index, the billing mode, duplicate
// names (among every index of the request), the count. Errors: kValidation.
Status CheckCreateTableVectorIndexes(const CreateTableRequest& req);

// The message of a vector index on a table that is not on-demand.
Status OnDemandOnly();

}  // namespace dynarock::vector

#endif  // DYNAROCK_ENGINE_VECTOR_VECTOR_INDEX_RULES_H_
