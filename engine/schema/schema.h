// engine/schema/schema.h
//
// Table definitions and primary keys: the semantic checks DynamoDB makes on
// CreateTable (key schema vs attribute definitions, indexes, billing mode)
// and on the keys of items and Key parameters, with DynamoDB's exact
// ValidationException messages. Request-shape checks (JSON members, lengths,
// enums) are api/validate's.

#ifndef DYNAROCK_ENGINE_SCHEMA_SCHEMA_H_
#define DYNAROCK_ENGINE_SCHEMA_SCHEMA_H_

#include <string_view>
#include <vector>

#include "engine/requests/table_requests.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

inline constexpr int kMaxLocalSecondaryIndexes = 5;
inline constexpr int kMaxGlobalSecondaryIndexes = 20;
inline constexpr size_t kMaxPartitionKeyBytes = 2048;
inline constexpr size_t kMaxSortKeyBytes = 1024;
// The longest name (UTF-8 bytes) an index Projection's NonKeyAttributes may
// list; CreateTable and UpdateTable refuse longer ones.
inline constexpr size_t kMaxProjectedAttributeNameBytes = 255;

// Table names: 3..255 characters of [A-Za-z0-9_.-].
bool IsValidTableName(std::string_view name);

// The most units a ProvisionedThroughput may ask for.
inline constexpr int64_t kMaxProvisionedUnits = 1000000000000;
// Errors: kValidation "Given value N for ReadCapacityUnits is out of
// bounds" (then WriteCapacityUnits) past kMaxProvisionedUnits.
Status CheckThroughputBounds(const ProvisionedThroughput& t);

// Checks a CreateTable request as DynamoDB does. Errors: kValidation.
Status ValidateCreateTable(const CreateTableRequest& req);

// The checks CreateTable makes on one GSI's key schema and projection,
// against `definitions` (UpdateTable's index Create). A GSI key may have
// several attributes (multi-attribute keys): 1..4 HASH elements, then 0..4
// RANGE elements, all distinct and defined. Errors: kValidation.
Status ValidateGlobalSecondaryIndexKeys(
    const GlobalSecondaryIndexDef& gsi,
    const std::vector<AttributeDefinition>& definitions);

// DynamoDB's limit on NonKeyAttributes summed over every secondary index of
// a table (an attribute projected into two indexes counts twice).
inline constexpr size_t kMaxProjectedAttributes = 100;
// Errors: kValidation when `total` passes kMaxProjectedAttributes.
Status CheckProjectedAttributeCount(size_t total);

// The key of a table or index from its key schema and the table's attribute
// definitions. REQUIRES: the schema passed ValidateCreateTable.
KeyDef ResolveKeyDef(const std::vector<KeySchemaElement>& key_schema,
                     const std::vector<AttributeDefinition>& definitions);

// A primary key found in an item or a Key parameter; pointers into it.
struct PrimaryKey {
  const AttributeValue* hash = nullptr;
  const AttributeValue* range = nullptr;  // null when the table has none
};

// The key of an item to be written (PutItem): key attributes present, of
// the defined types, non-empty and within the size limits.
Result<PrimaryKey> KeyOfItem(const KeyDef& key, const Item& item);

// A Key parameter (GetItem, DeleteItem, ...): exactly the key attributes,
// of the defined types. Errors: kValidation ("The provided key element does
// not match the schema" and the empty-value and size messages).
Result<PrimaryKey> KeyOfKeyParameter(const KeyDef& key, const Item& key_param);

// "The provided key element does not match the schema": a key (Key
// parameter, start key, BatchWriteItem item) whose attributes are not the
// key schema's or not of its types.
Status KeyElementMismatch();

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_SCHEMA_SCHEMA_H_
