// engine/requests.h
//
// Plain request and result structs for the engine's operations, one pair per
// DynamoDB operation. No JSON here: api/ fills these from DynamoDB JSON and
// renders the results back. Every request names the Scope it runs in.

#ifndef DYNAROCK_ENGINE_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/types.h"

namespace dynarock {

// Which set of tables a request sees, and how their ARNs read. DynamoDB Local
// (and `dynarock serve` without --shared-db) gives each access key id +
// region its own set of tables; `ns` is that key, empty for the shared set.
struct Scope {
  std::string ns;
  std::string region = "ddblocal";
  std::string account = "000000000000";
};

// ReturnValues. UPDATED_* only apply to UpdateItem.
enum class ReturnValues { kNone, kAllOld, kUpdatedOld, kAllNew, kUpdatedNew };

// --- Tables -----------------------------------------------------------

struct CreateTableRequest {
  Scope scope;
  std::string table_name;
  std::vector<AttributeDefinition> attribute_definitions;
  std::vector<KeySchemaElement> key_schema;
  std::vector<LocalSecondaryIndexDef> local_secondary_indexes;
  std::vector<GlobalSecondaryIndexDef> global_secondary_indexes;
  // Unset means PROVISIONED, as in DynamoDB.
  std::optional<BillingMode> billing_mode;
  std::optional<ProvisionedThroughput> provisioned_throughput;
  bool deletion_protection_enabled = false;
};

struct DescribeTableRequest {
  Scope scope;
  std::string table_name;
};

struct ListTablesRequest {
  Scope scope;
  std::optional<int> limit;  // 1..100; unset = 100
  std::optional<std::string> exclusive_start_table_name;
};

struct ListTablesResult {
  std::vector<std::string> table_names;
  std::optional<std::string> last_evaluated_table_name;
};

struct UpdateTableRequest {
  Scope scope;
  std::string table_name;
  std::optional<BillingMode> billing_mode;
  std::optional<ProvisionedThroughput> provisioned_throughput;
  std::optional<bool> deletion_protection_enabled;
  // AttributeDefinitions accompany index changes (secondary-index issue).
  std::vector<AttributeDefinition> attribute_definitions;
};

struct DeleteTableRequest {
  Scope scope;
  std::string table_name;
};

// --- Items ------------------------------------------------------------

struct PutItemRequest {
  Scope scope;
  std::string table_name;
  Item item;
  ReturnValues return_values = ReturnValues::kNone;  // NONE or ALL_OLD
};

struct PutItemResult {
  std::optional<Item> attributes;  // the old item, for ALL_OLD
};

struct GetItemRequest {
  Scope scope;
  std::string table_name;
  Item key;
  bool consistent_read = false;
};

struct GetItemResult {
  std::optional<Item> item;
};

struct DeleteItemRequest {
  Scope scope;
  std::string table_name;
  Item key;
  ReturnValues return_values = ReturnValues::kNone;  // NONE or ALL_OLD
};

struct DeleteItemResult {
  std::optional<Item> attributes;  // the old item, for ALL_OLD
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_H_
