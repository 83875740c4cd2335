// api/ops/ops.h
//
// The operation table's rows, a list per handler file: each api/ops/*_ops.cc
// defines its handlers (see api/dispatch.h for the contract: check the
// request's shape with api/validate.h, build the engine request, call the
// engine, render DynamoDB's response JSON) and, at its end, its rows
// (name, handler, optional one-pass text handler). api/dispatch.cc joins
// the lists into the one table. Adding an operation to a file adds its row
// there; nothing here changes. Thread-safe.

#ifndef DYNAROCK_API_OPS_OPS_H_
#define DYNAROCK_API_OPS_OPS_H_

#include <span>

#include "api/dispatch.h"

namespace dynarock::api::ops {

extern const std::span<const Operation> kBackupOperations;  // backup_ops.cc
extern const std::span<const Operation> kBatchOperations;  // batch_ops.cc
extern const std::span<const Operation> kBulkOperations;  // bulk_ops.cc
extern const std::span<const Operation> kCapacityOperations;  // capacity_ops.cc
extern const std::span<const Operation> kClockOperations;  // clock_ops.cc
extern const std::span<const Operation> kExportOperations;  // export_ops.cc
extern const std::span<const Operation> kFaultOperations;  // fault_ops.cc
extern const std::span<const Operation> kGlobalTableOperations;  // global_table_ops.cc
extern const std::span<const Operation> kImportOperations;  // import_ops.cc
extern const std::span<const Operation> kIndexOperations;  // index_ops.cc
extern const std::span<const Operation> kInsightsOperations;  // insights_ops.cc
extern const std::span<const Operation> kItemOperations;  // item_ops.cc
extern const std::span<const Operation> kPartiqlOperations;  // partiql_ops.cc
extern const std::span<const Operation> kPolicyOperations;  // policy_ops.cc
extern const std::span<const Operation> kQueryOperations;  // query_ops.cc
extern const std::span<const Operation> kReplicationOperations;  // replication_ops.cc
extern const std::span<const Operation> kSnapshotOperations;  // snapshot_ops.cc
extern const std::span<const Operation> kStreamOperations;  // stream_ops.cc
extern const std::span<const Operation> kTableOperations;  // table_ops.cc
extern const std::span<const Operation> kTagOperations;  // tag_ops.cc
extern const std::span<const Operation> kTransactOperations;  // transact_ops.cc
extern const std::span<const Operation> kTtlOperations;  // ttl_ops.cc
extern const std::span<const Operation> kVectorOperations;  // vector_ops.cc

}  // namespace dynarock::api::ops

#endif  // DYNAROCK_API_OPS_OPS_H_
