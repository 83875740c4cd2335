// engine/requests/transaction_requests.h
//
// TransactWriteItems and TransactGetItems (engine/transactions/transactions.h).
//
// Every result carries what the request consumed, always filled (metering
// is always on): `consumed_capacity` in DynamoDB's units (the api shows it
// when ReturnConsumedCapacity asks), and `capacity_charges`, one per table
// touched, saying at which partitions the units were taken
// (engine/capacity/capacity_charge.h).

#ifndef DYNAROCK_ENGINE_REQUESTS_TRANSACTION_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_TRANSACTION_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/capacity/capacity_charge.h"
#include "engine/capacity/consumed_capacity.h"
#include "engine/requests/expression_parameters.h"
#include "engine/requests/scope.h"
#include "engine/requests/write_returns.h"
#include "engine/types.h"

namespace dynarock {

// One action of TransactWriteItems (exactly one of DynamoDB's Put, Update,
// Delete and ConditionCheck).
struct TransactWriteAction {
  enum class Kind : uint8_t { kConditionCheck, kPut, kDelete, kUpdate };
  Kind kind = Kind::kPut;
  std::string table_name;
  Item item;  // Put: the item
  Item key;   // Update, Delete, ConditionCheck: the key
  std::optional<std::string> update_expression;     // Update
  std::optional<std::string> condition_expression;  // required for ConditionCheck
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  std::optional<ExpressionAttributeValues> expression_attribute_values;
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};

// TransactWriteItems: up to 100 actions on distinct items, applied all
// together or not at all.
struct TransactWriteItemsRequest {
  Scope scope;
  std::vector<TransactWriteAction> actions;
  // Makes the call idempotent for 10 minutes (engine/transactions/
  // idempotency_cache.h). Unset: none.
  std::optional<std::string> client_request_token;
  ReturnItemCollectionMetrics return_item_collection_metrics =
      ReturnItemCollectionMetrics::kNone;
};

struct TransactWriteItemsResult {
  // One per table, in order of first appearance: 2 x the units the same
  // plain writes would consume (ConditionCheck billed as a write). A
  // replayed request (same ClientRequestToken) reports the read units of
  // reading its items instead, and writes nothing.
  std::vector<ConsumedCapacity> consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
  // SIZE: per table with local secondary indexes, one entry per item
  // collection written, after the write.
  std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>
      item_collection_metrics;
  bool replayed = false;
};

// One Get of TransactGetItems.
struct TransactGetAction {
  std::string table_name;
  Item key;
  std::optional<std::string> projection_expression;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
};

// TransactGetItems: up to 100 items read at one point in time.
struct TransactGetItemsRequest {
  Scope scope;
  std::vector<TransactGetAction> actions;
};

struct TransactGetItemsResult {
  // In action order; nullopt for a missing item.
  std::vector<std::optional<Item>> responses;
  // One per table, in order of first appearance: 2 x the strongly
  // consistent read units of each item (4 KB rounding, 1 unit at least).
  std::vector<ConsumedCapacity> consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_TRANSACTION_REQUESTS_H_
