// engine/requests/table_requests.h
//
// The table operations: CreateTable, DescribeTable, ListTables,
// UpdateTable (with its GlobalSecondaryIndexUpdates), DeleteTable. Their
// answer is the TableDescription (engine/types.h).

#ifndef DYNAROCK_ENGINE_REQUESTS_TABLE_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_TABLE_REQUESTS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/requests/scope.h"
#include "engine/types.h"

namespace dynarock {

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
  std::optional<StreamSpecification> stream_specification;
  std::vector<Tag> tags;
  std::optional<TableClass> table_class;
  std::optional<SseSpecification> sse_specification;
  std::optional<OnDemandThroughput> on_demand_throughput;
  std::optional<WarmThroughput> warm_throughput;
  std::vector<VectorIndexDef> vector_indexes;
  // A resource-based policy to attach to the new table (its document as
  // the api checked and stored it: engine/control/resource_policies.h).
  std::optional<std::string> resource_policy;
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

// One entry of UpdateTable's GlobalSecondaryIndexUpdates. DynamoDB wants
// exactly one action per entry; the engine reports none or several.
struct GlobalSecondaryIndexUpdate {
  // At least one of the three settings; the engine reports DynamoDB's
  // message for a missing one.
  struct UpdateAction {
    std::string index_name;
    std::optional<ProvisionedThroughput> provisioned_throughput;
    std::optional<OnDemandThroughput> on_demand_throughput;
    std::optional<WarmThroughput> warm_throughput;
  };
  struct DeleteAction {
    std::string index_name;
  };
  std::optional<GlobalSecondaryIndexDef> create;
  std::optional<UpdateAction> update;
  std::optional<DeleteAction> del;
};

// One entry of UpdateTable's VectorIndexUpdates: exactly one of Create or
// Delete (the engine reports none or both).
struct VectorIndexUpdate {
  std::optional<VectorIndexDef> create;
  std::optional<std::string> del;  // the index name
};

// One entry of UpdateTable's ReplicaUpdates (global tables version
// 2019.11.21): exactly one of Create, Update or Delete, each naming the
// replica's Region (the api checks the shape).
struct ReplicationGroupUpdate {
  enum class Action { kCreate, kUpdate, kDelete };
  Action action = Action::kCreate;
  std::string region_name;
  // Create and Update: the replica's own KMS key and table class.
  std::optional<std::string> kms_master_key_id;
  std::optional<TableClass> table_class_override;
  // Create and Update: the replica's own read settings
  // (ProvisionedThroughputOverride, OnDemandThroughputOverride) and its
  // GSIs' (GlobalSecondaryIndexes: each names an index of the table).
  ReadOverride read_override;
  std::vector<ReplicaIndexOverride> global_secondary_indexes;
};

// One entry of UpdateTable's GlobalTableWitnessUpdates: the witness Region
// of a multi-Region strongly consistent global table, added or removed.
struct WitnessUpdate {
  enum class Action { kCreate, kDelete };
  Action action = Action::kCreate;
  std::string region_name;
};

struct UpdateTableRequest {
  Scope scope;
  std::string table_name;
  std::optional<BillingMode> billing_mode;
  std::optional<ProvisionedThroughput> provisioned_throughput;
  std::optional<bool> deletion_protection_enabled;
  // AttributeDefinitions accompany an index Create: the new key attributes.
  std::vector<AttributeDefinition> attribute_definitions;
  // Unset when the request has no GlobalSecondaryIndexUpdates member (an
  // empty list is an error of its own).
  std::optional<std::vector<GlobalSecondaryIndexUpdate>> global_secondary_index_updates;
  std::optional<StreamSpecification> stream_specification;
  std::optional<TableClass> table_class;
  std::optional<SseSpecification> sse_specification;
  std::optional<OnDemandThroughput> on_demand_throughput;
  std::optional<WarmThroughput> warm_throughput;
  // Unset when the request has no VectorIndexUpdates member.
  std::optional<std::vector<VectorIndexUpdate>> vector_index_updates;
  // Unset when the request has no ReplicaUpdates member.
  std::optional<std::vector<ReplicationGroupUpdate>> replica_updates;
  // MultiRegionConsistency: the mode of the global table the ReplicaUpdates'
  // Create actions make (unset: EVENTUAL).
  std::optional<MultiRegionConsistency> multi_region_consistency;
  // Unset when the request has no GlobalTableWitnessUpdates member.
  std::optional<std::vector<WitnessUpdate>> witness_updates;
};

struct DeleteTableRequest {
  Scope scope;
  std::string table_name;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_TABLE_REQUESTS_H_
