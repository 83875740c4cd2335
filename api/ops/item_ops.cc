// PutItem, GetItem, DeleteItem.

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/validate.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

// --- Input shapes (DynamoDB's model; enum orders as DynamoDB prints them,
// mhart/dynalite validations/putItem.js) -----------------------------------

Member ReturnValuesMember() {
  return Member{.name = "ReturnValues", .shape = &kStringShape,
                .enum_values = {"ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE",
                                "UPDATED_NEW"}};
}
Member ReturnConsumedCapacityMember() {
  return Member{.name = "ReturnConsumedCapacity", .shape = &kStringShape,
                .enum_values = {"INDEXES", "TOTAL", "NONE"}};
}
Member ReturnItemCollectionMetricsMember() {
  return Member{.name = "ReturnItemCollectionMetrics", .shape = &kStringShape,
                .enum_values = {"SIZE", "NONE"}};
}
Member ReturnValuesOnConditionCheckFailureMember() {
  return Member{.name = "ReturnValuesOnConditionCheckFailure",
                .shape = &kStringShape, .enum_values = {"ALL_OLD", "NONE"}};
}

const Shape kExpectedAttributeValueShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.ExpectedAttributeValue"};
const Shape kExpectedShape{.kind = Kind::kMap,
                           .element = &kExpectedAttributeValueShape};

// Conditions arrive with the expression issue; until then a request that
// carries one is refused, never run unconditionally.
const std::string_view kConditionMembers[] = {
    "ConditionExpression", "Expected", "ConditionalOperator",
    "ExpressionAttributeNames", "ExpressionAttributeValues"};
const std::string_view kProjectionMembers[] = {
    "ProjectionExpression", "AttributesToGet", "ExpressionAttributeNames"};

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

template <size_t N>
Status RefuseUnsupported(const Json& request, const std::string_view (&members)[N]) {
  for (std::string_view m : members) {
    if (Field(request, m) != nullptr) return UnsupportedParameter(m);
  }
  return Status::OK();
}

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

Json AttributesResponse(const std::optional<Item>& attributes) {
  Json out = Json::object();
  if (attributes) out["Attributes"] = EncodeItem(*attributes);
  return out;
}

}  // namespace

Result<Json> PutItem(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kPutItemInput));
  DR_RETURN_IF_ERROR(RefuseUnsupported(request, kConditionMembers));
  PutItemRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  DR_ASSIGN_OR_RETURN(req.item, DecodeItem(*Field(request, "Item")));
  req.return_values = DecodeReturnValues(request);
  DR_ASSIGN_OR_RETURN(PutItemResult result, ctx.engine->PutItem(req));
  return AttributesResponse(result.attributes);
}

Result<Json> GetItem(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kGetItemInput));
  DR_RETURN_IF_ERROR(RefuseUnsupported(request, kProjectionMembers));
  GetItemRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  DR_ASSIGN_OR_RETURN(req.key, DecodeItem(*Field(request, "Key")));
  req.consistent_read = OptionalBool(request, "ConsistentRead").value_or(false);
  DR_ASSIGN_OR_RETURN(GetItemResult result, ctx.engine->GetItem(req));
  Json out = Json::object();
  if (result.item) out["Item"] = EncodeItem(*result.item);
  return out;
}

Result<Json> DeleteItem(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDeleteItemInput));
  DR_RETURN_IF_ERROR(RefuseUnsupported(request, kConditionMembers));
  DeleteItemRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  DR_ASSIGN_OR_RETURN(req.key, DecodeItem(*Field(request, "Key")));
  req.return_values = DecodeReturnValues(request);
  DR_ASSIGN_OR_RETURN(DeleteItemResult result, ctx.engine->DeleteItem(req));
  return AttributesResponse(result.attributes);
}

}  // namespace dynarock::api::ops
