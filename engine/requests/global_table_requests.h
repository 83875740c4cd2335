// engine/requests/global_table_requests.h
//
// The operations of global tables version 2017.11.29 (Legacy), as DynamoDB
// still serves them: CreateGlobalTable, DescribeGlobalTable,
// ListGlobalTables, UpdateGlobalTable, DescribeGlobalTableSettings and
// UpdateGlobalTableSettings. A legacy global table is a group of tables of
// one name, one per Region, made a group by these calls instead of by
// UpdateTable's ReplicaUpdates; it replicates exactly as a 2019.11.21 one
// (engine/replication/global_tables.h). Each call acts in the caller's
// Region (docs/global-tables.md).

#ifndef DYNAROCK_ENGINE_REQUESTS_GLOBAL_TABLE_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_GLOBAL_TABLE_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/requests/scope.h"
#include "engine/types.h"

namespace dynarock {

// GlobalTableStatus.
enum class GlobalTableStatus : uint8_t { kCreating, kActive, kDeleting, kUpdating };

// GlobalTableDescription: the group's Regions (ReplicationGroup, in Region
// name order), its ARN (arn:aws:dynamodb::<account>:global-table/<name>)
// and when CreateGlobalTable made it.
struct GlobalTableDescription {
  std::string global_table_name;
  std::string global_table_arn;
  int64_t creation_date_time_micros = 0;
  GlobalTableStatus global_table_status = GlobalTableStatus::kActive;
  std::vector<std::string> replication_group;
};

struct CreateGlobalTableRequest {
  Scope scope;
  std::string global_table_name;
  std::vector<std::string> replication_group;  // Region names
};

// DescribeGlobalTable and DescribeGlobalTableSettings.
struct DescribeGlobalTableRequest {
  Scope scope;
  std::string global_table_name;
};

struct ListGlobalTablesRequest {
  Scope scope;
  std::optional<std::string> region_name;
  std::optional<std::string> exclusive_start_global_table_name;
  std::optional<int> limit;  // 1..100, default 100
};

struct ListGlobalTablesResult {
  struct Entry {
    std::string global_table_name;
    std::vector<std::string> replication_group;
  };
  std::vector<Entry> global_tables;
  std::optional<std::string> last_evaluated_global_table_name;
};

// One entry of UpdateGlobalTable's ReplicaUpdates: Create or Delete the
// Region's replica (a table of that name that exists there).
struct GlobalTableReplicaUpdate {
  bool create = false;
  std::string region_name;
};

struct UpdateGlobalTableRequest {
  Scope scope;
  std::string global_table_name;
  std::vector<GlobalTableReplicaUpdate> replica_updates;
};

// One Region's settings (ReplicaSettingsDescription): its table's
// description, from which the billing mode, capacity, GSIs and table class
// are rendered.
struct ReplicaSettings {
  std::string region_name;
  ReplicaStatus replica_status = ReplicaStatus::kActive;
  TableDescription table;
};

struct GlobalTableSettings {
  std::string global_table_name;
  std::vector<ReplicaSettings> replica_settings;  // Region name order
};

// UpdateGlobalTableSettings: write capacity for every Region (table and
// GSIs), read capacity and table class per Region. Auto scaling settings
// are refused before the engine is asked (dynarock has no auto scaling).
struct UpdateGlobalTableSettingsRequest {
  struct IndexUnits {
    std::string index_name;
    std::optional<int64_t> units;
  };
  struct Replica {
    std::string region_name;
    std::optional<int64_t> read_capacity_units;
    std::vector<IndexUnits> index_read_capacity_units;
    std::optional<TableClass> table_class;
  };
  Scope scope;
  std::string global_table_name;
  std::optional<BillingMode> billing_mode;
  std::optional<int64_t> write_capacity_units;
  std::vector<IndexUnits> index_write_capacity_units;
  std::vector<Replica> replicas;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_GLOBAL_TABLE_REQUESTS_H_
