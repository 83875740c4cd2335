#include "engine/plan/item_requests.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "engine/expr/evaluate.h"
#include "engine/expr/legacy.h"
#include "engine/value/attribute_value_validation.h"

namespace dynarock {

namespace {

// "Return values set to invalid value": PutItem and DeleteItem take NONE or
// ALL_OLD only (boto/boto3#4499, taoensso/faraday#64 quote DynamoDB).
Status CheckPutOrDeleteReturnValues(ReturnValues rv) {
  if (rv != ReturnValues::kNone && rv != ReturnValues::kAllOld) {
    return Status::Validation("Return values set to invalid value");
  }
  return Status::OK();
}

// "One or more parameter values were invalid: Cannot update attribute pk.
// This attribute is part of the key" (quoted from DynamoDB by moto's and
// dynoxide's conformance tests).
Status KeyAttributeUpdated(std::string_view name) {
  return Status::Validation(
      "One or more parameter values were invalid: Cannot update attribute " +
      std::string(name) + ". This attribute is part of the key");
}

template <typename T>
const T* OrNull(const std::optional<T>& o) {
  return o.has_value() ? &*o : nullptr;
}

// The condition of a write: Expected or ConditionExpression, resolved with
// `exprs` (whose maps are checked already). Expected must be translated
// before the maps are checked, so it is done by the callers.
Status ResolveCondition(const WriteCondition& c,
                        expr::RequestExpressions& exprs, PreparedWrite* out) {
  if (c.condition_expression.has_value()) {
    DR_ASSIGN_OR_RETURN(out->condition,
                        exprs.Condition(*c.condition_expression));
  }
  return Status::OK();
}

// Put and Delete have the same parameters.
Status CheckConditionalWriteParameters(
    const WriteCondition& c,
    const std::optional<ExpressionAttributeNames>& names,
    const std::optional<ExpressionAttributeValues>& values) {
  return expr::CheckExpressionParameters(
      {{"ConditionExpression", c.condition_expression.has_value()}},
      {{"Expected", c.expected.has_value()},
       {"ConditionalOperator", c.conditional_operator.has_value()}},
      names.has_value(), values.has_value());
}

// Put and Delete share every step.
Result<PreparedWrite> PrepareConditionalWrite(
    const WriteCondition& c, ReturnValues rv,
    const std::optional<ExpressionAttributeNames>& names,
    const std::optional<ExpressionAttributeValues>& values) {
  DR_RETURN_IF_ERROR(CheckConditionalWriteParameters(c, names, values));
  DR_RETURN_IF_ERROR(CheckPutOrDeleteReturnValues(rv));
  PreparedWrite out;
  out.return_old_item_on_failure = c.return_values_on_condition_check_failure ==
                                   ReturnValuesOnConditionCheckFailure::kAllOld;
  DR_ASSIGN_OR_RETURN(out.condition, expr::TranslateExpected(
                                         c.expected, c.conditional_operator));
  expr::RequestExpressions exprs(OrNull(names), OrNull(values));
  DR_RETURN_IF_ERROR(exprs.CheckAttributeMaps());
  DR_RETURN_IF_ERROR(ResolveCondition(c, exprs, &out));
  DR_RETURN_IF_ERROR(exprs.CheckAllUsed());
  return out;
}

}  // namespace

Result<PreparedWrite> PreparePutItem(const PutItemRequest& req) {
  // The item's values and size come right after the parameter mix, as on
  // DynamoDB (its key attributes are checked against the table later).
  DR_RETURN_IF_ERROR(CheckParameterUse(req));
  DR_RETURN_IF_ERROR(ValidateItem(req.item));
  return PrepareConditionalWrite(req.condition, req.return_values,
                                 req.expression_attribute_names,
                                 req.expression_attribute_values);
}

Result<PreparedWrite> PrepareDeleteItem(const DeleteItemRequest& req) {
  return PrepareConditionalWrite(req.condition, req.return_values,
                                 req.expression_attribute_names,
                                 req.expression_attribute_values);
}

Status CheckParameterUse(const PutItemRequest& req) {
  return CheckConditionalWriteParameters(req.condition,
                                         req.expression_attribute_names,
                                         req.expression_attribute_values);
}

Status CheckParameterUse(const DeleteItemRequest& req) {
  return CheckConditionalWriteParameters(req.condition,
                                         req.expression_attribute_names,
                                         req.expression_attribute_values);
}

Status CheckParameterUse(const UpdateItemRequest& req) {
  const WriteCondition& c = req.condition;
  return expr::CheckExpressionParameters(
      {{"UpdateExpression", req.update_expression.has_value()},
       {"ConditionExpression", c.condition_expression.has_value()}},
      {{"AttributeUpdates", req.attribute_updates.has_value()},
       {"Expected", c.expected.has_value()},
       {"ConditionalOperator", c.conditional_operator.has_value()}},
      req.expression_attribute_names.has_value(),
      req.expression_attribute_values.has_value());
}

Status CheckParameterUse(const GetItemRequest& req) {
  return expr::CheckExpressionParameters(
      {{"ProjectionExpression", req.projection_expression.has_value()}},
      {{"AttributesToGet", req.attributes_to_get.has_value()}},
      req.expression_attribute_names.has_value(), /*values_present=*/false);
}

Result<PreparedWrite> PrepareUpdateItem(const UpdateItemRequest& req) {
  const WriteCondition& c = req.condition;
  DR_RETURN_IF_ERROR(CheckParameterUse(req));
  PreparedWrite out;
  out.return_old_item_on_failure = c.return_values_on_condition_check_failure ==
                                   ReturnValuesOnConditionCheckFailure::kAllOld;
  if (req.attribute_updates.has_value()) {
    DR_ASSIGN_OR_RETURN(
        out.update, expr::TranslateAttributeUpdates(*req.attribute_updates));
    out.legacy_update = true;
  }
  DR_ASSIGN_OR_RETURN(out.condition, expr::TranslateExpected(
                                         c.expected, c.conditional_operator));
  expr::RequestExpressions exprs(OrNull(req.expression_attribute_names),
                                 OrNull(req.expression_attribute_values));
  DR_RETURN_IF_ERROR(exprs.CheckAttributeMaps());
  if (req.update_expression.has_value()) {
    DR_ASSIGN_OR_RETURN(out.update, exprs.Update(*req.update_expression));
  }
  DR_RETURN_IF_ERROR(ResolveCondition(c, exprs, &out));
  DR_RETURN_IF_ERROR(exprs.CheckAllUsed());
  return out;
}

Result<std::optional<expr::ProjectionExpression>> PrepareGetItem(
    const GetItemRequest& req) {
  DR_RETURN_IF_ERROR(CheckParameterUse(req));
  expr::RequestExpressions exprs(OrNull(req.expression_attribute_names),
                                 nullptr);
  // AttributesToGet's duplicates come before the maps' checks.
  if (req.attributes_to_get.has_value()) {
    return PrepareProjection(std::nullopt, req.attributes_to_get, exprs);
  }
  DR_RETURN_IF_ERROR(exprs.CheckAttributeMaps());
  DR_ASSIGN_OR_RETURN(
      std::optional<expr::ProjectionExpression> projection,
      PrepareProjection(req.projection_expression, std::nullopt, exprs));
  DR_RETURN_IF_ERROR(exprs.CheckAllUsed());
  return projection;
}

Result<std::optional<expr::ProjectionExpression>> PrepareProjection(
    const std::optional<std::string>& projection_expression,
    const std::optional<std::vector<std::string>>& attributes_to_get,
    expr::RequestExpressions& exprs) {
  if (projection_expression.has_value()) {
    DR_ASSIGN_OR_RETURN(expr::ProjectionExpression p,
                        exprs.Projection(*projection_expression));
    return std::optional<expr::ProjectionExpression>(std::move(p));
  }
  if (attributes_to_get.has_value()) {
    DR_ASSIGN_OR_RETURN(expr::ProjectionExpression p,
                        expr::TranslateAttributesToGet(*attributes_to_get));
    return std::optional<expr::ProjectionExpression>(std::move(p));
  }
  return std::optional<expr::ProjectionExpression>();
}

Status CheckKeyNotUpdated(const expr::UpdateExpression& update,
                          const KeyDef& key) {
  for (const std::string& name : expr::UpdatedAttributes(update)) {
    if (name == key.hash_name || name == key.range_name) {
      return KeyAttributeUpdated(name);
    }
  }
  return Status::OK();
}

Status CheckCondition(const PreparedWrite& write,
                      const std::optional<Item>& old_item) {
  if (!write.condition.has_value()) return Status::OK();
  const Item* item = old_item.has_value() ? &*old_item : nullptr;
  if (expr::EvaluateCondition(*write.condition, item)) return Status::OK();
  std::shared_ptr<const Item> returned;
  if (write.return_old_item_on_failure && old_item.has_value()) {
    returned = std::make_shared<const Item>(*old_item);
  }
  return Status::ConditionalCheckFailed(std::move(returned));
}

Result<std::optional<Item>> UpdatedItem(const PreparedWrite& write,
                                        const Item& key,
                                        const std::optional<Item>& old_item) {
  if (!old_item.has_value() && write.update.has_value() &&
      !write.update->actions.empty() &&
      std::all_of(write.update->actions.begin(), write.update->actions.end(),
                  [](const expr::UpdateAction& a) {
                    return a.clause == expr::UpdateClause::kRemove ||
                           a.clause == expr::UpdateClause::kDelete;
                  })) {
    return std::optional<Item>();
  }
  const Item& base = old_item.has_value() ? *old_item : key;
  if (!write.update.has_value()) return std::optional<Item>(base);
  Result<Item> next =
      expr::ApplyUpdate(*write.update, base, old_item.has_value());
  if (!next.ok()) {
    if (write.legacy_update) {
      return expr::AttributeUpdatesError(next.status());
    }
    return next.status();
  }
  DR_RETURN_IF_ERROR(ValidateUpdatedItem(*next));
  return std::optional<Item>(std::move(next).value());
}

std::optional<Item> UpdateReturnValues(ReturnValues rv,
                                       const PreparedWrite& write,
                                       const std::optional<Item>& old_item,
                                       const std::optional<Item>& new_item) {
  switch (rv) {
    case ReturnValues::kNone:
      return std::nullopt;
    case ReturnValues::kAllOld:
      return old_item;
    case ReturnValues::kAllNew:
      return new_item;
    case ReturnValues::kUpdatedOld:
    case ReturnValues::kUpdatedNew: {
      const std::optional<Item>& source =
          rv == ReturnValues::kUpdatedOld ? old_item : new_item;
      if (!source.has_value() || !write.update.has_value()) {
        return std::nullopt;
      }
      Item projected =
          expr::ProjectItem(*source, expr::UpdatedPaths(*write.update));
      if (projected.empty()) return std::nullopt;
      return projected;
    }
  }
  return std::nullopt;
}

}  // namespace dynarock
