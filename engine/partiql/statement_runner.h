// engine/partiql/statement_runner.h
//
// Runs PartiQL requests on an Engine: each statement is parsed
// (engine/partiql/statement_parser.h) and planned
// (engine/partiql/statement_planner.h) into the
// engine's own request types, then executed through the Engine's ordinary
// operations, so a statement behaves, costs and fails exactly as the
// GetItem / Query / Scan / PutItem / UpdateItem / DeleteItem it stands for,
// and ExecuteTransaction is TransactWriteItems / TransactGetItems (the same
// coordinator, idempotency and cancellation reasons). The Engine's
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction call these.
// Repeated SELECT texts are bound from the Engine's `cache` instead of being
// parsed and planned again (engine/partiql/plan_cache.h).
//
// Thread-safe (as the Engine is).

#ifndef DYNAROCK_ENGINE_PARTIQL_STATEMENT_RUNNER_H_
#define DYNAROCK_ENGINE_PARTIQL_STATEMENT_RUNNER_H_

#include "engine/engine.h"
#include "engine/partiql/plan_cache.h"
#include "engine/partiql/statement_planner.h"
#include "engine/requests/partiql_requests.h"
#include "engine/status.h"

namespace dynarock {

// DuplicateItemException's message.
inline constexpr std::string_view kDuplicateItemMessage =
    "Duplicate primary key exists in table";

Result<ExecuteStatementResult> RunExecuteStatement(
    Engine& engine, const partiql::KeyLookup& keys, partiql::PlanCache& cache,
    const ExecuteStatementRequest& req);

Result<BatchExecuteStatementResult> RunBatchExecuteStatement(
    Engine& engine, const partiql::KeyLookup& keys, partiql::PlanCache& cache,
    const BatchExecuteStatementRequest& req);

Result<ExecuteTransactionResult> RunExecuteTransaction(
    Engine& engine, const partiql::KeyLookup& keys, partiql::PlanCache& cache,
    const ExecuteTransactionRequest& req);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_PARTIQL_STATEMENT_RUNNER_H_
