// TransactWriteItems, TransactGetItems.
//
// The request's shape (api/validate: TransactItems 1..100, each element's
// members and their constraints, ClientRequestToken 1..36 characters),
// then each action's AttributeValues in order. Every element must hold
// exactly one action. The engine checks expressions, keys, sizes and
// duplicate items, and runs the transaction (engine/transactions/transactions.h).
// A cancelled transaction's CancellationReasons are rendered by api/error.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/ops/item_collection_metrics.h"
#include "api/ops/decode.h"
#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/ops/return_consumed_capacity.h"
#include "api/validate.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;
using ActionKind = TransactWriteAction::Kind;

Member RvoccfMember() {
  return Member{.name = "ReturnValuesOnConditionCheckFailure",
                .shape = &kStringShape, .enum_values = {"ALL_OLD", "NONE"}};
}

// One of Put, Update, Delete, ConditionCheck: `item_member` ("Item" or
// "Key") and the members every action has.
Shape ActionShape(std::string_view java_class, std::string_view item_member,
                  bool condition_required, bool update) {
  Shape s{.kind = Kind::kStructure,
          .java_class = java_class,
          .members = {
              Member{.name = item_member, .shape = &kAttributeMapShape,
                     .required = true},
          }};
  if (update) {
    s.members.push_back(Member{.name = "UpdateExpression",
                               .shape = &kStringShape, .required = true});
  }
  s.members.push_back(TableNameMember());
  s.members.push_back(Member{.name = "ConditionExpression",
                             .shape = &kStringShape,
                             .required = condition_required});
  s.members.push_back(
      Member{.name = "ExpressionAttributeNames", .shape = &kStringMapShape});
  s.members.push_back(Member{.name = "ExpressionAttributeValues",
                             .shape = &kAttributeMapShape});
  s.members.push_back(RvoccfMember());
  return s;
}

const Shape kConditionCheckShape = ActionShape(
    "com.amazonaws.dynamodb.v20120810.ConditionCheck", "Key", true, false);
const Shape kPutShape =
    ActionShape("com.amazonaws.dynamodb.v20120810.Put", "Item", false, false);
const Shape kDeleteShape =
    ActionShape("com.amazonaws.dynamodb.v20120810.Delete", "Key", false, false);
const Shape kUpdateShape =
    ActionShape("com.amazonaws.dynamodb.v20120810.Update", "Key", false, true);

const Shape kTransactWriteItemShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.TransactWriteItem",
    .members = {
        Member{.name = "ConditionCheck", .shape = &kConditionCheckShape},
        Member{.name = "Put", .shape = &kPutShape},
        Member{.name = "Delete", .shape = &kDeleteShape},
        Member{.name = "Update", .shape = &kUpdateShape},
    }};

const Shape kTransactWriteItemListShape{
    .kind = Kind::kList,
    .java_class =
        "java.util.List<com.amazonaws.dynamodb.v20120810.TransactWriteItem>",
    .element = &kTransactWriteItemShape};

const Shape kTransactWriteItemsInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "TransactItems", .shape = &kTransactWriteItemListShape,
               .required = true, .min_length = 1, .max_length = 100},
        ReturnConsumedCapacityMember(),
        ReturnItemCollectionMetricsMember(),
        Member{.name = "ClientRequestToken", .shape = &kStringShape,
               .min_length = 1, .max_length = 36},
    }};

const Shape kGetShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.Get",
    .members = {
        Member{.name = "Key", .shape = &kAttributeMapShape, .required = true},
        TableNameMember(),
        Member{.name = "ProjectionExpression", .shape = &kStringShape},
        Member{.name = "ExpressionAttributeNames", .shape = &kStringMapShape},
    }};

const Shape kTransactGetItemShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.TransactGetItem",
    .members = {Member{.name = "Get", .shape = &kGetShape, .required = true}}};

const Shape kTransactGetItemListShape{
    .kind = Kind::kList,
    .java_class =
        "java.util.List<com.amazonaws.dynamodb.v20120810.TransactGetItem>",
    .element = &kTransactGetItemShape};

const Shape kTransactGetItemsInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "TransactItems", .shape = &kTransactGetItemListShape,
               .required = true, .min_length = 1, .max_length = 100},
        ReturnConsumedCapacityMember(),
    }};

// "TransactItems can only contain one of Check, Put, Update or Delete".
Status OneActionPerItem() {
  return Status::Validation(
      "TransactItems can only contain one of Check, Put, Update or Delete");
}

Result<TransactWriteAction> DecodeAction(const Json& element) {
  struct Candidate {
    std::string_view member;
    ActionKind kind;
  };
  static constexpr Candidate kCandidates[] = {
      {"ConditionCheck", ActionKind::kConditionCheck},
      {"Put", ActionKind::kPut},
      {"Delete", ActionKind::kDelete},
      {"Update", ActionKind::kUpdate},
  };
  const Json* body = nullptr;
  TransactWriteAction a;
  for (const Candidate& c : kCandidates) {
    if (const Json* m = Field(element, c.member)) {
      if (body != nullptr) return OneActionPerItem();
      body = m;
      a.kind = c.kind;
    }
  }
  if (body == nullptr) return OneActionPerItem();
  a.table_name = StringOr(*body, "TableName");
  a.update_expression = OptionalString(*body, "UpdateExpression");
  a.condition_expression = OptionalString(*body, "ConditionExpression");
  a.expression_attribute_names = DecodeNames(*body);
  if (StringOr(*body, "ReturnValuesOnConditionCheckFailure") == "ALL_OLD") {
    a.return_values_on_condition_check_failure =
        ReturnValuesOnConditionCheckFailure::kAllOld;
  }
  if (a.kind == ActionKind::kPut) {
    DR_ASSIGN_OR_RETURN(a.item, DecodeItem(*Field(*body, "Item")));
  } else {
    DR_ASSIGN_OR_RETURN(a.key, DecodeItem(*Field(*body, "Key")));
  }
  DR_ASSIGN_OR_RETURN(a.expression_attribute_values, DecodeValues(*body));
  return a;
}

}  // namespace

Result<Json> TransactWriteItems(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kTransactWriteItemsInput));
  TransactWriteItemsRequest req;
  req.scope = ctx.scope;
  for (const Json& element : *Field(request, "TransactItems")) {
    DR_ASSIGN_OR_RETURN(TransactWriteAction a, DecodeAction(element));
    req.actions.push_back(std::move(a));
  }
  req.client_request_token = OptionalString(request, "ClientRequestToken");
  req.return_item_collection_metrics = DecodeReturnItemCollectionMetrics(request);
  DR_ASSIGN_OR_RETURN(TransactWriteItemsResult result,
                      ctx.engine->TransactWriteItems(req));
  Json out = Json::object();
  AddItemCollectionMetrics(result.item_collection_metrics, &out);
  AddConsumedCapacity(request, result.consumed_capacity, &out);
  return out;
}

Result<Json> TransactGetItems(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kTransactGetItemsInput));
  TransactGetItemsRequest req;
  req.scope = ctx.scope;
  for (const Json& element : *Field(request, "TransactItems")) {
    const Json& get = *Field(element, "Get");
    TransactGetAction a;
    a.table_name = StringOr(get, "TableName");
    a.projection_expression = OptionalString(get, "ProjectionExpression");
    a.expression_attribute_names = DecodeNames(get);
    DR_ASSIGN_OR_RETURN(a.key, DecodeItem(*Field(get, "Key")));
    req.actions.push_back(std::move(a));
  }
  DR_ASSIGN_OR_RETURN(TransactGetItemsResult result,
                      ctx.engine->TransactGetItems(req));
  Json responses = Json::array();
  for (const std::optional<Item>& item : result.responses) {
    Json entry = Json::object();
    if (item) entry["Item"] = EncodeItem(*item);
    responses.push_back(std::move(entry));
  }
  Json out{{"Responses", std::move(responses)}};
  AddConsumedCapacity(request, result.consumed_capacity, &out);
  return out;
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kTransactOperationsRows[] = {
    Operation{"TransactGetItems", &TransactGetItems},
    Operation{"TransactWriteItems", &TransactWriteItems},
};
const std::span<const Operation> kTransactOperations = kTransactOperationsRows;

}  // namespace dynarock::api::ops
