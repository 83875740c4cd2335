// engine/control/table_lifecycle.h
//
// TableLifecycle is the life of a table: CreateTable, DescribeTable,
// ListTables, UpdateTable and DeleteTable with DynamoDB's validation and
// messages; the table's status on the engine clock (CREATING, UPDATING and
// DELETING for the configured delays, then ACTIVE or gone); and the lookups
// every other operation starts with. It keeps the throughput controller in
// step with each table version (register, re-rate, remove) and has the
// secondary indexes publish each new version, so a table definition changes
// in one place.
//
// Thread-safe: the catalog publishes immutable TableInfo versions.

#ifndef DYNAROCK_ENGINE_CONTROL_TABLE_LIFECYCLE_H_
#define DYNAROCK_ENGINE_CONTROL_TABLE_LIFECYCLE_H_

#include <cstdint>
#include <memory>
#include <string_view>

#include "engine/capacity/throughput_controller.h"
#include "engine/index/secondary_indexes.h"
#include "engine/requests/scope.h"
#include "engine/requests/table_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/stream/stream_log.h"
#include "engine/types.h"

namespace dynarock {

class Clock;

struct TableLifecycleOptions {
  // How long a new (or updated) table shows CREATING (UPDATING), and a
  // deleted one DELETING before it is gone.
  int64_t create_delay_micros = 50'000;
  int64_t delete_delay_micros = 50'000;
};

class TableLifecycle {
 public:
  // None of the pointers is owned; all must outlive this.
  // `streams` may be null (no DynamoDB Streams).
  TableLifecycle(const TableLifecycleOptions& options, Clock* clock,
                 Catalog* catalog, SecondaryIndexes* indexes,
                 ThroughputController* throughput, StreamLog* streams = nullptr)
      : options_(options),
        clock_(clock),
        catalog_(catalog),
        indexes_(indexes),
        throughput_(throughput),
        streams_(streams) {}

  // --- The operations (Engine's contracts) ---
  Result<TableDescription> Create(const CreateTableRequest& req);
  // The definition CreateTable would publish for `req` (no id yet, no
  // stream): what ImportTable builds its table from.
  // REQUIRES: `req` passed ValidateCreateTable. Errors: kValidation (the
  // throughput settings).
  Result<TableInfo> Define(const CreateTableRequest& req) const;
  Result<TableDescription> Describe(const DescribeTableRequest& req);
  Result<ListTablesResult> List(const ListTablesRequest& req);
  Result<TableDescription> Update(const UpdateTableRequest& req);
  // Removes the items, index entries and GSI log records in one batch; the
  // definition stays (DELETING) until the delete delay passes.
  Result<TableDescription> Delete(const DeleteTableRequest& req);

  // A restored table (engine/backup/table_restore.h): `info` comes with its
  // ids reserved and its items, index entries and counters already stored.
  // Publishes it (CREATING for the create delay, like a new table) and has
  // the indexes and the throughput model take it up.
  // Errors: kTableAlreadyExists ("Table already exists: <name>") when the
  // name was taken meanwhile; storage errors.
  Result<TableDescription> PublishRestored(TableInfo info);
  // How long a new table stays CREATING after its creation time.
  int64_t create_delay_micros() const { return options_.create_delay_micros; }

  // --- Lookups ---
  // The table named `name` with its status now; nullptr when absent. A
  // table whose DELETING delay has passed is forgotten here (its catalog
  // record removed), and reported absent.
  std::shared_ptr<const TableInfo> Find(const Scope& scope,
                                        std::string_view name,
                                        TableStatus* status);
  // Find for control-plane extensions: DescribeTable's ResourceNotFound
  // message when absent.
  Result<std::shared_ptr<const TableInfo>> FindOrNotFound(
      const Scope& scope, std::string_view name);
  // The table of a data-plane call (items, queries, batches): it exists
  // and is ACTIVE or UPDATING, else DynamoDB's short ResourceNotFound. A
  // failed GSI propagation is reported here, by every data-plane call.
  Result<std::shared_ptr<const TableInfo>> ForData(const Scope& scope,
                                                   std::string_view name);

 private:
  TableStatus StatusOf(const TableInfo& t, int64_t now) const;
  TableDescription DescriptionOf(const TableInfo& t, TableStatus status) const;
  bool Expired(const TableInfo& t, int64_t now) const;
  // Enables or disables `t`'s stream and sets its description's stream
  // members (the caller persists them).
  Status ApplyStream(const Scope& scope, const TableInfo& t,
                     const StreamSpecification& spec, TableDescription* desc);

  const TableLifecycleOptions options_;
  Clock* const clock_;
  Catalog* const catalog_;
  SecondaryIndexes* const indexes_;
  ThroughputController* const throughput_;
  StreamLog* const streams_;
};

// DescribeTable's (and the control plane's) ResourceNotFoundException.
Status TableNotFound(std::string_view name);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CONTROL_TABLE_LIFECYCLE_H_
