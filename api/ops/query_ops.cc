// Query, Scan.
//
// As the item handlers: the request's shape (api/validate), then which
// expression and legacy parameters it carries and Select
// (CheckParameterUse, before any AttributeValue is decoded), then the
// AttributeValues in DynamoDB's order (the legacy filter with its checks
// and AttributesToGet's, ExclusiveStartKey, ExpressionAttributeValues,
// KeyConditions; DecodeReadValues). The engine checks, plans and
// reads the page; nothing here interprets an expression.

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "api/encoded_item_json.h"
#include "api/ops/return_consumed_capacity.h"
#include "api/ops/decode.h"
#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/validate.h"
#include "engine/plan/query_requests.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

// --- Input shapes -----------------------------------------------------------
//
// Constraint members first, in the order dynalite recorded DynamoDB's
// aggregated messages for Query (test/query.js "incorrect attributes") and
// Scan (test/scan.js); Limit and TotalSegments at least 1, TotalSegments
// at most 1,000,000 and Segment 0..999,999 (DynamoDB's API reference).

Member LimitMember() {
  return Member{.name = "Limit", .shape = &kIntegerShape, .min_value = 1};
}
// Query's Limit: at least 1, checked after the other members, in today's
// form (CheckQueryLimit).
Member QueryLimitMember() { return Member{.name = "Limit", .shape = &kIntegerShape}; }

// "1 validation error detected: Value at 'Limit' failed to satisfy
// constraint: Member must have value greater than or equal to 1"
// (nubo-db/dynamodb-conformance tier3 error-messages/query, 2025; dynalite
// recorded it among the other violations as "Value '-1' at 'limit' ...",
// docs/compatibility.md).
Status CheckQueryLimit(const Json& request) {
  std::optional<int64_t> limit = OptionalInt(request, "Limit");
  if (!limit || *limit >= 1) return Status::OK();
  return ValidationErrors({ValuelessConstraintViolation("Limit", ValueAtLeast(1))});
}
Member ConditionalOperatorMember() {
  return Member{.name = "ConditionalOperator", .shape = &kStringShape,
                .enum_values = {"OR", "AND"}};
}
Member AttributesToGetMember() {
  return Member{.name = "AttributesToGet", .shape = &kStringListShape,
                .min_length = 1, .max_length = 255};
}
Member IndexNameMember() { return CreateTableNameMember("IndexName", false); }

// The members without constraints that Query and Scan share.
void AddReadMembers(std::vector<Member>* members) {
  for (Member m : {
           Member{.name = "ExclusiveStartKey", .shape = &kAttributeMapShape},
           Member{.name = "ConsistentRead", .shape = &kBooleanShape},
           Member{.name = "FilterExpression", .shape = &kStringShape},
           Member{.name = "ProjectionExpression", .shape = &kStringShape},
           Member{.name = "ExpressionAttributeNames", .shape = &kStringMapShape},
           Member{.name = "ExpressionAttributeValues",
                  .shape = &kAttributeMapShape},
       }) {
    members->push_back(std::move(m));
  }
}

Shape QueryInput() {
  Shape s{.kind = Kind::kStructure,
          .members = {
              QueryLimitMember(),
              Member{.name = "KeyConditions", .shape = &kConditionMapShape},
              Member{.name = "QueryFilter", .shape = &kConditionMapShape},
              ConditionalOperatorMember(),
              ReturnConsumedCapacityMember(),
              AttributesToGetMember(),
              TableNameMember(),
              SelectMember(),
              IndexNameMember(),
              Member{.name = "ScanIndexForward", .shape = &kBooleanShape},
              Member{.name = "KeyConditionExpression", .shape = &kStringShape},
          }};
  AddReadMembers(&s.members);
  return s;
}

Shape ScanInput() {
  Shape s{.kind = Kind::kStructure,
          .members = {
              SelectMember(),
              IndexNameMember(),
              Member{.name = "TotalSegments", .shape = &kIntegerShape,
                     .min_value = 1, .max_value = 1000000},
              ReturnConsumedCapacityMember(),
              TableNameMember(),
              ConditionalOperatorMember(),
              Member{.name = "ScanFilter", .shape = &kConditionMapShape},
              Member{.name = "Segment", .shape = &kIntegerShape,
                     .min_value = 0, .max_value = 999999},
              AttributesToGetMember(),
              LimitMember(),
          }};
  AddReadMembers(&s.members);
  return s;
}

const Shape kQueryInput = QueryInput();
const Shape kScanInput = ScanInput();

// --- Decoding ---------------------------------------------------------------

// The members that hold no AttributeValue; the legacy filter is marked
// present, its values come later (DecodeReadValues).
void DecodeReadShape(const Json& request, std::string_view filter_name,
                     ReadPageParameters* p) {
  p->index_name = OptionalString(request, "IndexName");
  p->filter_expression = OptionalString(request, "FilterExpression");
  if (Field(request, filter_name) != nullptr) p->legacy_filter.emplace();
  if (std::optional<std::string> op =
          OptionalString(request, "ConditionalOperator")) {
    p->conditional_operator =
        *op == "OR" ? ConditionalOperator::kOr : ConditionalOperator::kAnd;
  }
  p->projection_expression = OptionalString(request, "ProjectionExpression");
  p->attributes_to_get = DecodeStringList(request, "AttributesToGet");
  if (std::optional<std::string> select = OptionalString(request, "Select")) {
    p->select = DecodeSelect(*select);
  }
  p->expression_attribute_names = DecodeNames(request);
  if (Field(request, "ExpressionAttributeValues") != nullptr) {
    p->expression_attribute_values.emplace();
  }
  p->consistent_read = OptionalBool(request, "ConsistentRead").value_or(false);
  p->limit = OptionalInt(request, "Limit");
  if (Field(request, "ExclusiveStartKey") != nullptr) {
    p->exclusive_start_key.emplace();
  }
}

// A malformed start-key value is reported with the start-key prefix.
Result<std::optional<Item>> DecodeStartKey(const Json& request) {
  const Json* key = Field(request, "ExclusiveStartKey");
  if (key == nullptr) return std::optional<Item>();
  Item out;
  for (const auto& [name, v] : key->items()) {
    Result<AttributeValue> value = DecodeAttributeValue(v);
    if (!value.ok()) return InvalidStartKeyValue(value.status());
    out.emplace(name, std::move(value).value());
  }
  return std::optional<Item>(std::move(out));
}

// Query checks its filter before AttributesToGet, Scan after; both before
// the start key's values (dynalite's query and scan tests, recorded against
// DynamoDB: a filter with the wrong number of arguments is reported over a
// malformed ExclusiveStartKey, a duplicate in AttributesToGet over both or
// after the filter).
enum class FilterFirst { kYes, kNo };

Status DecodeReadValues(const Json& request, std::string_view filter_name,
                        FilterFirst filter_first, ReadPageParameters* p) {
  if (filter_first == FilterFirst::kNo) {
    DR_RETURN_IF_ERROR(CheckAttributesToGet(*p));
  }
  DR_ASSIGN_OR_RETURN(p->legacy_filter, DecodeConditions(request, filter_name));
  DR_RETURN_IF_ERROR(CheckLegacyFilter(*p));
  if (filter_first == FilterFirst::kYes) {
    DR_RETURN_IF_ERROR(CheckAttributesToGet(*p));
  }
  DR_ASSIGN_OR_RETURN(p->exclusive_start_key, DecodeStartKey(request));
  DR_ASSIGN_OR_RETURN(p->expression_attribute_values, DecodeValues(request));
  return Status::OK();
}

// The response members that sort before and after "Items" (a Json object
// keeps its members in name order): ConsumedCapacity, Count | Items |
// LastEvaluatedKey, ScannedCount.
Json BeforeItems(const Json& request, const ReadPageResult& r) {
  Json out = Json::object();
  out["Count"] = r.count;
  AddConsumedCapacity(request, r.consumed_capacity, &out);
  return out;
}
Json AfterItems(const ReadPageResult& r) {
  Json out = Json::object();
  out["ScannedCount"] = r.scanned_count;
  if (r.last_evaluated_key) {
    out["LastEvaluatedKey"] = EncodeItem(*r.last_evaluated_key);
  }
  return out;
}

// PageResponse's text for a page whose items came encoded: the same
// members in the same order, "Items" rendered from the encodings and
// spliced between the members around it.
Result<std::string> EncodedPageResponse(const Json& request,
                                        const ReadPageResult& r) {
  std::string out = DumpJson(BeforeItems(request, r));
  out.pop_back();  // the closing brace; Count is always there before it
  out += R"(,"Items":[)";
  for (size_t i = 0; i < r.encoded_items.size(); ++i) {
    if (i > 0) out.push_back(',');
    DR_RETURN_IF_ERROR(AppendEncodedItemJson(r.encoded_items[i], &out));
  }
  out += "],";
  const std::string after = DumpJson(AfterItems(r));
  out.append(after, 1);  // without its opening brace; ScannedCount is there
  return out;
}

Json PageResponse(const Json& request, const ReadPageResult& r) {
  Json out = BeforeItems(request, r);
  if (!r.count_only) {
    Json items = Json::array();
    for (const Item& item : r.items) items.push_back(EncodeItem(item));
    out["Items"] = std::move(items);
  }
  out.update(AfterItems(r));
  return out;
}

// The response: rendered into ctx.body_text when the items came encoded
// (or the page returned none); otherwise as Json. Only a caller that takes
// text asks the engine for encodings (encoded_items), so a Json caller
// always gets Items.
Result<Json> Respond(const RequestContext& ctx, const Json& request,
                     const ReadPageResult& r) {
  if (ctx.body_text != nullptr && !r.count_only && r.items.empty()) {
    DR_ASSIGN_OR_RETURN(*ctx.body_text, EncodedPageResponse(request, r));
    return Json::object();
  }
  return PageResponse(request, r);
}

}  // namespace

Result<Json> Query(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kQueryInput));
  DR_RETURN_IF_ERROR(CheckQueryLimit(request));
  QueryRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  DecodeReadShape(request, "QueryFilter", &req.read);
  req.key_condition_expression =
      OptionalString(request, "KeyConditionExpression");
  if (Field(request, "KeyConditions") != nullptr) req.key_conditions.emplace();
  req.scan_index_forward =
      OptionalBool(request, "ScanIndexForward").value_or(true);
  DR_RETURN_IF_ERROR(CheckParameterUse(req));
  DR_RETURN_IF_ERROR(
      DecodeReadValues(request, "QueryFilter", FilterFirst::kYes, &req.read));
  DR_ASSIGN_OR_RETURN(req.key_conditions,
                      DecodeConditions(request, "KeyConditions"));
  req.read.encoded_items = ctx.body_text != nullptr;
  DR_ASSIGN_OR_RETURN(QueryResult result, ctx.engine->Query(req));
  return Respond(ctx, request, result);
}

Result<Json> Scan(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kScanInput));
  ScanRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  DecodeReadShape(request, "ScanFilter", &req.read);
  req.segment = OptionalInt(request, "Segment");
  req.total_segments = OptionalInt(request, "TotalSegments");
  DR_RETURN_IF_ERROR(CheckParameterUse(req));
  DR_RETURN_IF_ERROR(
      DecodeReadValues(request, "ScanFilter", FilterFirst::kNo, &req.read));
  req.read.encoded_items = ctx.body_text != nullptr;
  DR_ASSIGN_OR_RETURN(ScanResult result, ctx.engine->Scan(req));
  return Respond(ctx, request, result);
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kQueryOperationsRows[] = {
    Operation{"Query", &Query},
    Operation{"Scan", &Scan},
};
const std::span<const Operation> kQueryOperations = kQueryOperationsRows;

}  // namespace dynarock::api::ops
