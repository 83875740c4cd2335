// ExecuteStatement, BatchExecuteStatement, ExecuteTransaction (PartiQL).
//
// Only the JSON mapping lives here: the request's shape (api/validate),
// Parameters decoded as AttributeValues, NextToken <-> the engine's
// exclusive start key, and the responses. Parsing, planning and running
// the statements is the engine's (engine/partiql/statement_runner.h).

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/ops/decode.h"
#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/ops/return_consumed_capacity.h"
#include "api/validate.h"
#include "engine/util/base64.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

Member StatementMember() {
  return Member{.name = "Statement", .shape = &kStringShape, .required = true,
                .min_length = 1, .max_length = 8192};
}
Member ParametersMember() {
  return Member{.name = "Parameters", .shape = &kAttributeValueListShape,
                .min_length = 1};
}
Member RvoccfMember() {
  return Member{.name = "ReturnValuesOnConditionCheckFailure",
                .shape = &kStringShape, .enum_values = {"ALL_OLD", "NONE"}};
}

const Shape kExecuteStatementInput{
    .kind = Kind::kStructure,
    .members = {
        StatementMember(),
        ParametersMember(),
        Member{.name = "ConsistentRead", .shape = &kBooleanShape},
        Member{.name = "NextToken", .shape = &kStringShape, .min_length = 1,
               .max_length = 32768},
        ReturnConsumedCapacityMember(),
        Member{.name = "Limit", .shape = &kIntegerShape, .min_value = 1},
        RvoccfMember(),
    }};

const Shape kBatchStatementRequestShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.BatchStatementRequest",
    .members = {
        StatementMember(),
        ParametersMember(),
        Member{.name = "ConsistentRead", .shape = &kBooleanShape},
        RvoccfMember(),
    }};

const Shape kBatchStatementListShape{
    .kind = Kind::kList,
    .java_class =
        "java.util.List<com.amazonaws.dynamodb.v20120810.BatchStatementRequest>",
    .element = &kBatchStatementRequestShape};

const Shape kBatchExecuteStatementInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "Statements", .shape = &kBatchStatementListShape,
               .required = true, .min_length = 1, .max_length = 25},
        ReturnConsumedCapacityMember(),
    }};

const Shape kParameterizedStatementShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.ParameterizedStatement",
    .members = {StatementMember(), ParametersMember(), RvoccfMember()}};

const Shape kParameterizedStatementListShape{
    .kind = Kind::kList,
    .java_class =
        "java.util.List<com.amazonaws.dynamodb.v20120810.ParameterizedStatement>",
    .element = &kParameterizedStatementShape};

const Shape kExecuteTransactionInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "TransactStatements",
               .shape = &kParameterizedStatementListShape, .required = true,
               .min_length = 1, .max_length = 100},
        Member{.name = "ClientRequestToken", .shape = &kStringShape,
               .min_length = 1, .max_length = 36},
        ReturnConsumedCapacityMember(),
    }};

ReturnValuesOnConditionCheckFailure DecodeRvoccf(const Json& object) {
  return StringOr(object, "ReturnValuesOnConditionCheckFailure") == "ALL_OLD"
             ? ReturnValuesOnConditionCheckFailure::kAllOld
             : ReturnValuesOnConditionCheckFailure::kNone;
}

Result<std::vector<AttributeValue>> DecodeParameters(const Json& object) {
  const Json* list = Field(object, "Parameters");
  if (list == nullptr) return std::vector<AttributeValue>();
  return DecodeValueList(*list);
}

Status InvalidNextToken() {
  return Status::Validation("The provided starting key is invalid");
}

// NextToken: the page's LastEvaluatedKey as base64 of its JSON.
std::string EncodeNextToken(const Item& key) {
  return Base64Encode(DumpJson(EncodeItem(key)));
}
Result<Item> DecodeNextToken(const std::string& token) {
  Result<std::string> text = Base64Decode(token);
  if (!text.ok()) return InvalidNextToken();
  Result<Json> json = ParseRequestBody(*text);
  if (!json.ok()) return InvalidNextToken();
  for (const auto& entry : json->items()) {
    if (!CheckAttributeValueTypes(entry.value()).ok()) return InvalidNextToken();
  }
  Result<Item> key = DecodeItem(*json);
  if (!key.ok()) return InvalidNextToken();
  return key;
}

// BatchStatementError's Code for a statement's failure.
std::string_view BatchErrorCode(ErrorCode code) {
  switch (code) {
    case ErrorCode::kConditionalCheckFailed:
      return "ConditionalCheckFailed";
    case ErrorCode::kItemCollectionSizeLimitExceeded:
      return "ItemCollectionSizeLimitExceeded";
    case ErrorCode::kRequestLimitExceeded:
      return "RequestLimitExceeded";
    case ErrorCode::kValidation:
      return "ValidationError";
    case ErrorCode::kProvisionedThroughputExceeded:
      return "ProvisionedThroughputExceeded";
    case ErrorCode::kTransactionConflict:
      return "TransactionConflict";
    case ErrorCode::kThrottling:
      return "ThrottlingError";
    case ErrorCode::kResourceNotFound:
      return "ResourceNotFound";
    case ErrorCode::kDuplicateItem:
      return "DuplicateItem";
    default:
      return "InternalServerError";
  }
}

Json EncodeItems(const std::vector<Item>& items) {
  Json out = Json::array();
  for (const Item& item : items) out.push_back(EncodeItem(item));
  return out;
}

}  // namespace

Result<Json> ExecuteStatement(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kExecuteStatementInput));
  ExecuteStatementRequest req;
  req.scope = ctx.scope;
  req.statement = StringOr(request, "Statement");
  req.consistent_read = OptionalBool(request, "ConsistentRead").value_or(false);
  req.limit = OptionalInt(request, "Limit");
  req.return_values_on_condition_check_failure = DecodeRvoccf(request);
  DR_ASSIGN_OR_RETURN(req.parameters, DecodeParameters(request));
  if (std::optional<std::string> token = OptionalString(request, "NextToken")) {
    DR_ASSIGN_OR_RETURN(req.exclusive_start_key, DecodeNextToken(*token));
  }
  DR_ASSIGN_OR_RETURN(ExecuteStatementResult result,
                      ctx.engine->ExecuteStatement(req));
  Json out{{"Items", EncodeItems(result.items)}};
  if (result.last_evaluated_key) {
    out["NextToken"] = EncodeNextToken(*result.last_evaluated_key);
    out["LastEvaluatedKey"] = EncodeItem(*result.last_evaluated_key);
  }
  AddConsumedCapacity(request, result.consumed_capacity, &out);
  return out;
}

Result<Json> BatchExecuteStatement(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kBatchExecuteStatementInput));
  BatchExecuteStatementRequest req;
  req.scope = ctx.scope;
  for (const Json& element : *Field(request, "Statements")) {
    BatchStatement s;
    s.statement = StringOr(element, "Statement");
    s.consistent_read = OptionalBool(element, "ConsistentRead").value_or(false);
    s.return_values_on_condition_check_failure = DecodeRvoccf(element);
    DR_ASSIGN_OR_RETURN(s.parameters, DecodeParameters(element));
    req.statements.push_back(std::move(s));
  }
  DR_ASSIGN_OR_RETURN(BatchExecuteStatementResult result,
                      ctx.engine->BatchExecuteStatement(req));
  Json responses = Json::array();
  for (const BatchStatementResponse& r : result.responses) {
    Json entry = Json::object();
    if (!r.table_name.empty()) entry["TableName"] = r.table_name;
    if (r.item) entry["Item"] = EncodeItem(*r.item);
    if (!r.error.ok()) {
      Json error{{"Code", BatchErrorCode(r.error.code())},
                 {"Message", r.error.message()}};
      if (r.error.item() != nullptr) error["Item"] = EncodeItem(*r.error.item());
      entry["Error"] = std::move(error);
    }
    responses.push_back(std::move(entry));
  }
  Json out{{"Responses", std::move(responses)}};
  AddConsumedCapacity(request, result.consumed_capacity, &out);
  return out;
}

Result<Json> ExecuteTransaction(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kExecuteTransactionInput));
  ExecuteTransactionRequest req;
  req.scope = ctx.scope;
  for (const Json& element : *Field(request, "TransactStatements")) {
    ParameterizedStatement s;
    s.statement = StringOr(element, "Statement");
    s.return_values_on_condition_check_failure = DecodeRvoccf(element);
    DR_ASSIGN_OR_RETURN(s.parameters, DecodeParameters(element));
    req.statements.push_back(std::move(s));
  }
  req.client_request_token = OptionalString(request, "ClientRequestToken");
  DR_ASSIGN_OR_RETURN(ExecuteTransactionResult result,
                      ctx.engine->ExecuteTransaction(req));
  Json out = Json::object();
  if (result.reads) {
    Json responses = Json::array();
    for (const std::optional<Item>& item : result.responses) {
      Json entry = Json::object();
      if (item) entry["Item"] = EncodeItem(*item);
      responses.push_back(std::move(entry));
    }
    out["Responses"] = std::move(responses);
  }
  AddConsumedCapacity(request, result.consumed_capacity, &out);
  return out;
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kPartiqlOperationsRows[] = {
    Operation{"BatchExecuteStatement", &BatchExecuteStatement},
    Operation{"ExecuteStatement", &ExecuteStatement},
    Operation{"ExecuteTransaction", &ExecuteTransaction},
};
const std::span<const Operation> kPartiqlOperations = kPartiqlOperationsRows;

}  // namespace dynarock::api::ops
