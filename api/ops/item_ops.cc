// PutItem, GetItem, UpdateItem, DeleteItem.
//
// Each handler fills the engine request in DynamoDB's order of checks: the
// request's shape (api/validate), then which expression and legacy
// parameters it carries (CheckParameterUse, before any AttributeValue is
// decoded, because DynamoDB reports a mix of the two first), then the
// AttributeValues (Key or Item, AttributeUpdates, Expected,
// ExpressionAttributeValues). The engine parses, resolves and evaluates the
// expressions; nothing here interprets them.

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/encoded_item_json.h"
#include "api/ops/item_collection_metrics.h"
#include "api/ops/item_request_reader.h"
#include "api/ops/return_consumed_capacity.h"
#include "api/ops/decode.h"
#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/validate.h"
#include "engine/expr/request_expressions.h"
#include "engine/plan/item_requests.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

// --- Input shapes (DynamoDB's model; enum orders as DynamoDB prints them,
// mhart/dynalite validations/*.js) ------------------------------------------

Member ReturnValuesMember() {
  return Member{.name = "ReturnValues", .shape = &kStringShape,
                .enum_values = {"ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE",
                                "UPDATED_NEW"}};
}
Member ReturnValuesOnConditionCheckFailureMember() {
  return Member{.name = "ReturnValuesOnConditionCheckFailure",
                .shape = &kStringShape, .enum_values = {"ALL_OLD", "NONE"}};
}


const Shape kExpectedAttributeValueShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.ExpectedAttributeValue",
    .members = {
        Member{.name = "AttributeValueList", .shape = &kAttributeValueListShape},
        Member{.name = "ComparisonOperator", .shape = &kStringShape,
               .enum_values = {"IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS",
                               "EQ", "GT", "NOT_NULL", "NE", "LE",
                               "BEGINS_WITH", "GE", "CONTAINS"}},
        Member{.name = "Exists", .shape = &kBooleanShape},
        Member{.name = "Value", .shape = &kAttributeValueShape},
    }};
const Shape kExpectedShape{.kind = Kind::kMap,
                           .element = &kExpectedAttributeValueShape};

const Shape kAttributeValueUpdateShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.AttributeValueUpdate",
    .members = {
        Member{.name = "Action", .shape = &kStringShape,
               .enum_values = {"ADD", "PUT", "DELETE"}},
        Member{.name = "Value", .shape = &kAttributeValueShape},
    }};
const Shape kAttributeUpdatesShape{.kind = Kind::kMap,
                                   .element = &kAttributeValueUpdateShape};

std::vector<Member> ConditionMembers() {
  return {
      Member{.name = "ConditionExpression", .shape = &kStringShape},
      Member{.name = "Expected", .shape = &kExpectedShape},
      Member{.name = "ConditionalOperator", .shape = &kStringShape,
             .enum_values = {"OR", "AND"}},
      Member{.name = "ExpressionAttributeNames", .shape = &kStringMapShape},
      Member{.name = "ExpressionAttributeValues", .shape = &kAttributeMapShape},
  };
}

Shape WriteInput(std::string_view item_member) {
  Shape s{.kind = Kind::kStructure,
          .members = {
              TableNameMember(),
              Member{.name = item_member, .shape = &kAttributeMapShape,
                     .required = true},
              ReturnValuesMember(),
              ReturnConsumedCapacityMember(),
              ReturnItemCollectionMetricsMember(),
              ReturnValuesOnConditionCheckFailureMember(),
          }};
  for (Member& m : ConditionMembers()) s.members.push_back(std::move(m));
  return s;
}

const Shape kPutItemInput = WriteInput("Item");
const Shape kDeleteItemInput = WriteInput("Key");

// In the order dynalite recorded DynamoDB's constraint messages for
// UpdateItem (test/updateItem.js).
Shape UpdateInput() {
  Shape s{.kind = Kind::kStructure,
          .members = {
              ReturnConsumedCapacityMember(),
              TableNameMember(),
              ReturnItemCollectionMetricsMember(),
              ReturnValuesMember(),
              Member{.name = "Key", .shape = &kAttributeMapShape,
                     .required = true},
              Member{.name = "AttributeUpdates",
                     .shape = &kAttributeUpdatesShape},
              Member{.name = "UpdateExpression", .shape = &kStringShape},
              ReturnValuesOnConditionCheckFailureMember(),
          }};
  for (Member& m : ConditionMembers()) s.members.push_back(std::move(m));
  return s;
}

const Shape kUpdateItemInput = UpdateInput();

const Shape kGetItemInput{
    .kind = Kind::kStructure,
    .members = {
        TableNameMember(),
        Member{.name = "Key", .shape = &kAttributeMapShape, .required = true},
        Member{.name = "ConsistentRead", .shape = &kBooleanShape},
        ReturnConsumedCapacityMember(),
        Member{.name = "AttributesToGet", .shape = &kStringListShape,
               .min_length = 1},
        Member{.name = "ProjectionExpression", .shape = &kStringShape},
        Member{.name = "ExpressionAttributeNames", .shape = &kStringMapShape},
    }};

// --- Decoding (the members' JSON types were checked by ValidateRequest) ---

// The member's enum constraint has already admitted the text; which values
// an operation accepts is the engine's rule.
ReturnValues DecodeReturnValues(const Json& request) {
  const std::string rv = StringOr(request, "ReturnValues", "NONE");
  if (rv == "ALL_OLD") return ReturnValues::kAllOld;
  if (rv == "UPDATED_OLD") return ReturnValues::kUpdatedOld;
  if (rv == "ALL_NEW") return ReturnValues::kAllNew;
  if (rv == "UPDATED_NEW") return ReturnValues::kUpdatedNew;
  return ReturnValues::kNone;
}

// Fills the members that hold no AttributeValue: the expressions, the
// names, ConditionalOperator, ReturnValuesOnConditionCheckFailure. Expected
// is marked present; its values come later (DecodeExpectedValues).
void DecodeConditionShape(const Json& request, WriteCondition* c) {
  c->condition_expression = OptionalString(request, "ConditionExpression");
  if (Field(request, "Expected") != nullptr) c->expected.emplace();
  if (std::optional<std::string> op =
          OptionalString(request, "ConditionalOperator")) {
    c->conditional_operator =
        *op == "OR" ? ConditionalOperator::kOr : ConditionalOperator::kAnd;
  }
  if (StringOr(request, "ReturnValuesOnConditionCheckFailure") == "ALL_OLD") {
    c->return_values_on_condition_check_failure =
        ReturnValuesOnConditionCheckFailure::kAllOld;
  }
}

Status DecodeExpectedValues(const Json& request, WriteCondition* c) {
  const Json* expected = Field(request, "Expected");
  if (expected == nullptr) return Status::OK();
  for (const auto& [name, e] : expected->items()) {
    ExpectedAttributeValue out;
    if (const Json* v = Field(e, "Value")) {
      DR_ASSIGN_OR_RETURN(out.value, DecodeAttributeValue(*v));
    }
    out.exists = OptionalBool(e, "Exists");
    if (std::optional<std::string> op = OptionalString(e, "ComparisonOperator")) {
      out.comparison_operator = DecodeComparisonOperator(*op);
    }
    if (const Json* list = Field(e, "AttributeValueList")) {
      DR_ASSIGN_OR_RETURN(out.attribute_value_list, DecodeValueList(*list));
    }
    c->expected->emplace_back(name, std::move(out));
  }
  return Status::OK();
}

Result<AttributeUpdates> DecodeAttributeUpdates(const Json& updates) {
  AttributeUpdates out;
  for (const auto& [name, u] : updates.items()) {
    AttributeValueUpdate update;
    if (const Json* v = Field(u, "Value")) {
      DR_ASSIGN_OR_RETURN(update.value, DecodeAttributeValue(*v));
    }
    const std::string action = StringOr(u, "Action", "PUT");
    if (action == "ADD") update.action = AttributeAction::kAdd;
    if (action == "DELETE") update.action = AttributeAction::kDelete;
    out.emplace_back(name, std::move(update));
  }
  return out;
}


Json AttributesResponse(const std::optional<Item>& attributes,
                        const std::optional<ItemCollectionMetrics>& metrics) {
  Json out = Json::object();
  if (attributes) out["Attributes"] = EncodeItem(*attributes);
  if (metrics) out["ItemCollectionMetrics"] = EncodeItemCollectionMetrics(*metrics);
  return out;
}

}  // namespace

Result<Json> PutItem(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kPutItemInput));
  PutItemRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  req.return_values = DecodeReturnValues(request);
  DecodeConditionShape(request, &req.condition);
  req.expression_attribute_names = DecodeNames(request);
  if (Field(request, "ExpressionAttributeValues") != nullptr) {
    req.expression_attribute_values.emplace();
  }
  DR_RETURN_IF_ERROR(CheckParameterUse(req));
  DR_ASSIGN_OR_RETURN(req.item, DecodeItem(*Field(request, "Item")));
  DR_RETURN_IF_ERROR(DecodeExpectedValues(request, &req.condition));
  DR_ASSIGN_OR_RETURN(req.expression_attribute_values, DecodeValues(request));
  req.return_item_collection_metrics = DecodeReturnItemCollectionMetrics(request);
  DR_ASSIGN_OR_RETURN(PutItemResult result, ctx.engine->PutItem(req));
  Json out = AttributesResponse(result.attributes, result.item_collection_metrics);
  AddConsumedCapacity(request, result.consumed_capacity, &out);
  return out;
}

Result<Json> GetItem(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kGetItemInput));
  GetItemRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  req.consistent_read = OptionalBool(request, "ConsistentRead").value_or(false);
  req.projection_expression = OptionalString(request, "ProjectionExpression");
  if (const Json* names = Field(request, "AttributesToGet")) {
    req.attributes_to_get.emplace();
    for (const Json& n : *names) {
      if (n.is_string()) req.attributes_to_get->push_back(n.get<std::string>());
    }
  }
  req.expression_attribute_names = DecodeNames(request);
  DR_RETURN_IF_ERROR(CheckParameterUse(req));
  DR_ASSIGN_OR_RETURN(req.key, DecodeItem(*Field(request, "Key")));
  DR_ASSIGN_OR_RETURN(GetItemResult result, ctx.engine->GetItem(req));
  Json out = Json::object();
  if (result.item) out["Item"] = EncodeItem(*result.item);
  AddConsumedCapacity(request, result.consumed_capacity, &out);
  return out;
}

std::optional<Result<std::string>> PutItemText(const RequestContext& ctx,
                                               std::string_view body) {
  std::optional<PutItemRequest> req = ReadPutItemRequest(body);
  if (!req) return std::nullopt;
  req->scope = ctx.scope;
  // PutItem's steps after ValidateRequest, which the reader's shape passes.
  if (Status use = CheckParameterUse(*req); !use.ok()) return Result<std::string>(use);
  Result<PutItemResult> result = ctx.engine->PutItem(*req);
  if (!result.ok()) return Result<std::string>(result.status());
  if (!result->attributes && !result->item_collection_metrics) {
    return Result<std::string>(std::string("{}"));
  }
  return Result<std::string>(DumpJson(
      AttributesResponse(result->attributes, result->item_collection_metrics)));
}

std::optional<Result<std::string>> GetItemText(const RequestContext& ctx,
                                               std::string_view body) {
  std::optional<GetItemRequest> req = ReadGetItemRequest(body);
  if (!req) return std::nullopt;
  req->scope = ctx.scope;
  req->encoded_item = true;
  if (Status use = CheckParameterUse(*req); !use.ok()) return Result<std::string>(use);
  Result<GetItemResult> result = ctx.engine->GetItem(*req);
  if (!result.ok()) return Result<std::string>(result.status());
  std::string out;
  if (result->encoded_item) {
    out = R"({"Item":)";
    if (Status s = AppendEncodedItemJson(*result->encoded_item, &out); !s.ok()) {
      return Result<std::string>(s);
    }
    out.push_back('}');
  } else if (result->item) {
    out = R"({"Item":)";
    AppendItemJson(*result->item, &out);
    out.push_back('}');
  } else {
    out = "{}";
  }
  return Result<std::string>(std::move(out));
}

Result<Json> UpdateItem(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kUpdateItemInput));
  UpdateItemRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  req.return_values = DecodeReturnValues(request);
  req.update_expression = OptionalString(request, "UpdateExpression");
  const Json* updates = Field(request, "AttributeUpdates");
  if (updates != nullptr) req.attribute_updates.emplace();
  DecodeConditionShape(request, &req.condition);
  req.expression_attribute_names = DecodeNames(request);
  if (Field(request, "ExpressionAttributeValues") != nullptr) {
    req.expression_attribute_values.emplace();
  }
  DR_RETURN_IF_ERROR(CheckParameterUse(req));
  DR_ASSIGN_OR_RETURN(req.key, DecodeItem(*Field(request, "Key")));
  if (updates != nullptr) {
    DR_ASSIGN_OR_RETURN(req.attribute_updates, DecodeAttributeUpdates(*updates));
  }
  DR_RETURN_IF_ERROR(DecodeExpectedValues(request, &req.condition));
  DR_ASSIGN_OR_RETURN(req.expression_attribute_values, DecodeValues(request));
  req.return_item_collection_metrics = DecodeReturnItemCollectionMetrics(request);
  DR_ASSIGN_OR_RETURN(UpdateItemResult result, ctx.engine->UpdateItem(req));
  Json out = AttributesResponse(result.attributes, result.item_collection_metrics);
  AddConsumedCapacity(request, result.consumed_capacity, &out);
  return out;
}

Result<Json> DeleteItem(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDeleteItemInput));
  DeleteItemRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  req.return_values = DecodeReturnValues(request);
  DecodeConditionShape(request, &req.condition);
  req.expression_attribute_names = DecodeNames(request);
  if (Field(request, "ExpressionAttributeValues") != nullptr) {
    req.expression_attribute_values.emplace();
  }
  DR_RETURN_IF_ERROR(CheckParameterUse(req));
  DR_ASSIGN_OR_RETURN(req.key, DecodeItem(*Field(request, "Key")));
  DR_RETURN_IF_ERROR(DecodeExpectedValues(request, &req.condition));
  DR_ASSIGN_OR_RETURN(req.expression_attribute_values, DecodeValues(request));
  req.return_item_collection_metrics = DecodeReturnItemCollectionMetrics(request);
  DR_ASSIGN_OR_RETURN(DeleteItemResult result, ctx.engine->DeleteItem(req));
  Json out = AttributesResponse(result.attributes, result.item_collection_metrics);
  AddConsumedCapacity(request, result.consumed_capacity, &out);
  return out;
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kItemOperationsRows[] = {
    Operation{"DeleteItem", &DeleteItem},
    Operation{"GetItem", &GetItem, &GetItemText},
    Operation{"PutItem", &PutItem, &PutItemText},
    Operation{"UpdateItem", &UpdateItem},
};
const std::span<const Operation> kItemOperations = kItemOperationsRows;

}  // namespace dynarock::api::ops
