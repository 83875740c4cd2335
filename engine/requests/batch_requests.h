// engine/requests/batch_requests.h
//
// BatchGetItem and BatchWriteItem.
//
// Every result carries what the request consumed, always filled (metering
// is always on): `consumed_capacity` in DynamoDB's units (the api shows it
// when ReturnConsumedCapacity asks), and `capacity_charges`, one per table
// touched, saying at which partitions the units were taken
// (engine/capacity/capacity_charge.h).

#ifndef DYNAROCK_ENGINE_REQUESTS_BATCH_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_BATCH_REQUESTS_H_

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

// The keys BatchGetItem reads from one table, and how (DynamoDB's
// KeysAndAttributes).
struct KeysAndAttributes {
  std::vector<Item> keys;
  std::optional<std::string> projection_expression;
  std::optional<std::vector<std::string>> attributes_to_get;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  bool consistent_read = false;
};

// Tables in the order given; each table once (a JSON object's keys).
struct BatchGetItemRequest {
  Scope scope;
  std::vector<std::pair<std::string, KeysAndAttributes>> request_items;
};

struct BatchGetItemResult {
  // Every requested table, with the items found (projected), in request
  // order; missing items are simply absent.
  std::vector<std::pair<std::string, std::vector<Item>>> responses;
  // Keys not read because the response reached 16 MB, with each table's
  // projection and ConsistentRead, ready to be sent again.
  std::vector<std::pair<std::string, KeysAndAttributes>> unprocessed_keys;
  // One per table, in request order: each key read (found or not) rounded
  // on its own; unprocessed keys cost nothing.
  std::vector<ConsumedCapacity> consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

// One request of BatchWriteItem: exactly one of PutRequest (the item) and
// DeleteRequest (the key).
struct WriteRequest {
  std::optional<Item> put_item;
  std::optional<Item> delete_key;
};

struct BatchWriteItemRequest {
  Scope scope;
  std::vector<std::pair<std::string, std::vector<WriteRequest>>> request_items;
  ReturnItemCollectionMetrics return_item_collection_metrics =
      ReturnItemCollectionMetrics::kNone;
};

struct BatchWriteItemResult {
  // Requests not applied because their table, index or partition was
  // throttled (throttling on), grouped by table in request order: retry them.
  std::vector<std::pair<std::string, std::vector<WriteRequest>>>
      unprocessed_items;
  // One per table, in request order: each request rounded on its own.
  std::vector<ConsumedCapacity> consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
  // ReturnItemCollectionMetrics = SIZE: per table with LSIs (request order),
  // the collections the applied requests wrote, each once, after the write.
  std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>
      item_collection_metrics;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_BATCH_REQUESTS_H_
