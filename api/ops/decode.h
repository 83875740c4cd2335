// api/ops/decode.h
//
// Pieces of DynamoDB's input model and decoders shared by several operation
// handlers: the Condition shape (Expected, KeyConditions, QueryFilter,
// ScanFilter), ExpressionAttributeNames / Values, AttributesToGet, Select.
// Decoders run after ValidateRequest, so member JSON types are known good;
// AttributeValues are decoded here with DynamoDB's value errors.
//
// Stateless; thread-safe.

#ifndef DYNAROCK_API_OPS_DECODE_H_
#define DYNAROCK_API_OPS_DECODE_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json_codec.h"
#include "api/validate.h"
#include "engine/requests/expression_parameters.h"
#include "engine/requests/legacy_parameters.h"
#include "engine/requests/query_scan_requests.h"
#include "engine/status.h"

namespace dynarock::api::ops {

// Shapes.
extern const Shape kAttributeValueListShape;  // list of AttributeValue
// Map of name -> Condition {AttributeValueList, ComparisonOperator (required)}.
extern const Shape kConditionMapShape;
Member ReturnConsumedCapacityMember();
Member ReturnItemCollectionMetricsMember();
Member SelectMember();

// "EQ" -> kEq, ... REQUIRES: `name` passed the enum constraint.
ComparisonOperator DecodeComparisonOperator(std::string_view name);
// "COUNT" -> kCount, ... REQUIRES: `name` passed the enum constraint.
Select DecodeSelect(std::string_view name);

// ExpressionAttributeNames, or nullopt when absent.
std::optional<ExpressionAttributeNames> DecodeNames(const Json& request);
// A list of string members (AttributesToGet), or nullopt when absent.
std::optional<std::vector<std::string>> DecodeStringList(const Json& request,
                                                         std::string_view name);

Result<std::vector<AttributeValue>> DecodeValueList(const Json& list);

// ExpressionAttributeValues; a malformed value is reported as DynamoDB
// reports it: "ExpressionAttributeValues contains invalid value: <why> for
// key :v".
Result<std::optional<ExpressionAttributeValues>> DecodeValues(
    const Json& request);

// A Condition-shaped map (KeyConditions, QueryFilter, ScanFilter), in the
// map's key order; nullopt when absent.
Result<std::optional<LegacyConditions>> DecodeConditions(
    const Json& request, std::string_view name);

}  // namespace dynarock::api::ops

#endif  // DYNAROCK_API_OPS_DECODE_H_
