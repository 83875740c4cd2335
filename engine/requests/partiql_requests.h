// engine/requests/partiql_requests.h
//
// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction
// (engine/partiql/). A statement is parsed and planned into one of the item,
// query, scan or transaction requests and runs exactly as that request would.

#ifndef DYNAROCK_ENGINE_REQUESTS_PARTIQL_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_PARTIQL_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/capacity/capacity_charge.h"
#include "engine/capacity/consumed_capacity.h"
#include "engine/requests/scope.h"
#include "engine/requests/write_returns.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

struct ExecuteStatementRequest {
  Scope scope;
  std::string statement;
  std::vector<AttributeValue> parameters;  // bound to `?` in order
  bool consistent_read = false;
  std::optional<int64_t> limit;
  // The decoded NextToken: where the previous page of a SELECT stopped.
  std::optional<Item> exclusive_start_key;
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};

struct ExecuteStatementResult {
  // SELECT: the page's items; UPDATE / DELETE with RETURNING: the item.
  std::vector<Item> items;
  // Set when a SELECT page stopped early (the NextToken).
  std::optional<Item> last_evaluated_key;
  ConsumedCapacity consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

// One statement of BatchExecuteStatement.
struct BatchStatement {
  std::string statement;
  std::vector<AttributeValue> parameters;
  bool consistent_read = false;
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};

struct BatchExecuteStatementRequest {
  Scope scope;
  std::vector<BatchStatement> statements;  // 1..25
};

// One statement's outcome: its table and item (a read that found one), or
// its error (the Status, whose item is the old item for ALL_OLD).
struct BatchStatementResponse {
  std::string table_name;
  std::optional<Item> item;
  Status error;
};

struct BatchExecuteStatementResult {
  std::vector<BatchStatementResponse> responses;  // in statement order
  // One per table, in order of first appearance.
  std::vector<ConsumedCapacity> consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

// One statement of ExecuteTransaction.
struct ParameterizedStatement {
  std::string statement;
  std::vector<AttributeValue> parameters;
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};

struct ExecuteTransactionRequest {
  Scope scope;
  std::vector<ParameterizedStatement> statements;  // 1..100
  std::optional<std::string> client_request_token;
};

struct ExecuteTransactionResult {
  // Reads only: one per statement, nullopt for a missing item.
  std::vector<std::optional<Item>> responses;
  bool reads = false;
  std::vector<ConsumedCapacity> consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_PARTIQL_REQUESTS_H_
