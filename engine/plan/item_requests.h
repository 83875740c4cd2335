// engine/plan/item_requests.h
//
// The expression side of the single-item operations (PutItem, UpdateItem,
// DeleteItem, GetItem). Prepare*() checks a request's condition, update and
// projection parameters as DynamoDB does (before any table is read) and
// returns resolved trees; the other functions are the steps a write runs
// inside WritePath::Apply's mutation, i.e. under the item's lock against
// the item as stored. Where each expression is parsed, resolved and
// evaluated:
//
//   text --parse (cache)--> tree --Resolver (names, values)--> resolved tree
//     --EvaluateCondition / ApplyUpdate / ProjectItem--> result
//
// Stateless functions; thread-safe. Prepared trees are immutable.

#ifndef DYNAROCK_ENGINE_PLAN_ITEM_REQUESTS_H_
#define DYNAROCK_ENGINE_PLAN_ITEM_REQUESTS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/expr/ast.h"
#include "engine/expr/request_expressions.h"
#include "engine/requests/item_requests.h"
#include "engine/requests/write_returns.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

// A write request's expressions, resolved.
struct PreparedWrite {
  // ConditionExpression or Expected; none when the write is unconditional.
  std::optional<expr::ConditionExpression> condition;
  // UpdateItem: UpdateExpression or AttributeUpdates; none when it has
  // neither.
  std::optional<expr::UpdateExpression> update;
  // ReturnValuesOnConditionCheckFailure = ALL_OLD.
  bool return_old_item_on_failure = false;
  // `update` came from AttributeUpdates (its type errors are worded apart).
  bool legacy_update = false;
};

// Each checks, in DynamoDB's order: the mix of expression and legacy
// parameters, (PutItem) the item's values and size, ReturnValues (Put and
// Delete: NONE or ALL_OLD, "Return values set to invalid value"), the legacy
// parameters, ExpressionAttributeNames and ExpressionAttributeValues, then
// parses and resolves the expressions and checks that every name and value is
// used. Errors: kValidation.
Result<PreparedWrite> PreparePutItem(const PutItemRequest& req);
Result<PreparedWrite> PrepareDeleteItem(const DeleteItemRequest& req);
Result<PreparedWrite> PrepareUpdateItem(const UpdateItemRequest& req);

// The first check of each Prepare*() alone (CheckExpressionParameters with
// the operation's parameter lists): it reads only which members are set.
// For the api, which must report it before it decodes any AttributeValue.
Status CheckParameterUse(const PutItemRequest& req);
Status CheckParameterUse(const DeleteItemRequest& req);
Status CheckParameterUse(const UpdateItemRequest& req);
Status CheckParameterUse(const GetItemRequest& req);

// GetItem: the projection to apply, or nullopt for the whole item.
Result<std::optional<expr::ProjectionExpression>> PrepareGetItem(
    const GetItemRequest& req);

// The projection step of every read (GetItem; Query, Scan and BatchGetItem
// use it too): the ProjectionExpression resolved with the request's
// `exprs`, or AttributesToGet, or nullopt (all attributes). Run it at the
// projection's place in the request's order of checks.
// REQUIRES: expression and legacy parameters are not both set
// (CheckExpressionParameters).
Result<std::optional<expr::ProjectionExpression>> PrepareProjection(
    const std::optional<std::string>& projection_expression,
    const std::optional<std::vector<std::string>>& attributes_to_get,
    expr::RequestExpressions& exprs);

// UpdateItem may not write or remove a key attribute. Errors: kValidation
// "One or more parameter values were invalid: Cannot update attribute pk.
// This attribute is part of the key".
Status CheckKeyNotUpdated(const expr::UpdateExpression& update,
                          const KeyDef& key);

// Inside a mutation: OK when the write has no condition or the condition
// holds for `old_item` (nullopt: no item). Otherwise kConditionalCheckFailed
// ("The conditional request failed"), carrying the old item when the
// request asked for ALL_OLD and there is one.
Status CheckCondition(const PreparedWrite& write,
                      const std::optional<Item>& old_item);

// Inside UpdateItem's mutation: the item after the update, or nullopt when
// there is none. A missing item starts as `key` (upsert) — except that an
// update made only of removals (REMOVE, DELETE from a set, AttributeUpdates
// DELETE) leaves a missing item missing, as DynamoDB does; an update with no
// action at all still creates it. The result is validated as a whole (sets,
// nesting, "Item size to update has exceeded the maximum allowed size").
// Errors: kValidation from ApplyUpdate (for AttributeUpdates, a type
// mismatch is "Type mismatch for attribute to update") and the validation.
Result<std::optional<Item>> UpdatedItem(const PreparedWrite& write,
                                        const Item& key,
                                        const std::optional<Item>& old_item);

// What UpdateItem returns for `rv`: the old or new item, or (UPDATED_*)
// their parts at the updated paths; nullopt when that is nothing.
std::optional<Item> UpdateReturnValues(ReturnValues rv,
                                       const PreparedWrite& write,
                                       const std::optional<Item>& old_item,
                                       const std::optional<Item>& new_item);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_PLAN_ITEM_REQUESTS_H_
