// engine/requests/item_requests.h
//
// The single-item operations: PutItem, GetItem, DeleteItem, UpdateItem,
// and the condition members the writes share.
//
// Every result carries what the request consumed, always filled (metering
// is always on): `consumed_capacity` in DynamoDB's units (the api shows it
// when ReturnConsumedCapacity asks), and `capacity_charges`, one per table
// touched, saying at which partitions the units were taken
// (engine/capacity/capacity_charge.h).

#ifndef DYNAROCK_ENGINE_REQUESTS_ITEM_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_ITEM_REQUESTS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/capacity/capacity_charge.h"
#include "engine/capacity/consumed_capacity.h"
#include "engine/requests/expression_parameters.h"
#include "engine/requests/legacy_parameters.h"
#include "engine/requests/scope.h"
#include "engine/requests/write_returns.h"
#include "engine/types.h"

namespace dynarock {

// The condition members shared by PutItem, UpdateItem and DeleteItem: a
// ConditionExpression, or the legacy Expected (+ ConditionalOperator). The
// condition is evaluated against the item as stored, under the item's lock;
// when it is false nothing is written and the call fails with
// kConditionalCheckFailed.
struct WriteCondition {
  std::optional<std::string> condition_expression;
  std::optional<ExpectedConditions> expected;
  std::optional<ConditionalOperator> conditional_operator;
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};

struct PutItemRequest {
  Scope scope;
  std::string table_name;
  Item item;
  ReturnValues return_values = ReturnValues::kNone;  // NONE or ALL_OLD
  WriteCondition condition;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  std::optional<ExpressionAttributeValues> expression_attribute_values;
  ReturnItemCollectionMetrics return_item_collection_metrics =
      ReturnItemCollectionMetrics::kNone;
};

struct PutItemResult {
  std::optional<Item> attributes;  // the old item, for ALL_OLD
  // SIZE on a table with local secondary indexes.
  std::optional<ItemCollectionMetrics> item_collection_metrics;
  ConsumedCapacity consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

struct GetItemRequest {
  Scope scope;
  std::string table_name;
  Item key;
  bool consistent_read = false;
  // Which attributes to return: a ProjectionExpression, or the legacy
  // AttributesToGet; all of them when neither is set.
  std::optional<std::string> projection_expression;
  std::optional<std::vector<std::string>> attributes_to_get;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  // Return the item as its stored encoding (GetItemResult::encoded_item;
  // decode with DecodeItem, engine/value/item_codec.h, or walk with
  // engine/value/encoded_item.h) instead of an Item, when the whole item is
  // returned (no projection). Otherwise ignored. Saves building the Item;
  // everything else in the result is the same either way.
  bool encoded_item = false;
};

struct GetItemResult {
  std::optional<Item> item;
  // Instead of `item` when the request asked for encoded_item and returns
  // the whole item (then `item` is nullopt): the item as EncodeItem wrote
  // it; nullopt when there is no item.
  std::optional<std::string> encoded_item;
  ConsumedCapacity consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

struct DeleteItemRequest {
  Scope scope;
  std::string table_name;
  Item key;
  ReturnValues return_values = ReturnValues::kNone;  // NONE or ALL_OLD
  WriteCondition condition;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  std::optional<ExpressionAttributeValues> expression_attribute_values;
  ReturnItemCollectionMetrics return_item_collection_metrics =
      ReturnItemCollectionMetrics::kNone;
};

struct DeleteItemResult {
  std::optional<Item> attributes;  // the old item, for ALL_OLD
  // SIZE on a table with local secondary indexes.
  std::optional<ItemCollectionMetrics> item_collection_metrics;
  ConsumedCapacity consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

// UpdateItem: an UpdateExpression, or the legacy AttributeUpdates, applied
// to the item with `key`; a missing item is created from the key first
// (upsert). With neither, the item is written with what it has (only its
// key when it was missing).
struct UpdateItemRequest {
  Scope scope;
  std::string table_name;
  Item key;
  std::optional<std::string> update_expression;
  std::optional<AttributeUpdates> attribute_updates;
  WriteCondition condition;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  std::optional<ExpressionAttributeValues> expression_attribute_values;
  ReturnValues return_values = ReturnValues::kNone;  // any of the five
  ReturnItemCollectionMetrics return_item_collection_metrics =
      ReturnItemCollectionMetrics::kNone;
};

struct UpdateItemResult {
  // ALL_OLD / ALL_NEW: the whole item before / after; UPDATED_OLD /
  // UPDATED_NEW: only the updated paths. Unset when there is nothing to
  // return (no old item, or none of the paths present).
  std::optional<Item> attributes;
  // SIZE on a table with local secondary indexes.
  std::optional<ItemCollectionMetrics> item_collection_metrics;
  ConsumedCapacity consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_ITEM_REQUESTS_H_
