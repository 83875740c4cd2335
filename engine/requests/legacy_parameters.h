// engine/requests/legacy_parameters.h
//
// The legacy (non-expression) parameters older clients and SDK mappers
// still send: Expected, KeyConditions, QueryFilter, ScanFilter,
// AttributeUpdates. The engine translates them into the same trees as the
// expressions (engine/expr/legacy.h), with DynamoDB's validation messages.
// Maps are vectors of (name, value) so that the first offending entry is the
// first in the caller's order.

#ifndef DYNAROCK_ENGINE_REQUESTS_LEGACY_PARAMETERS_H_
#define DYNAROCK_ENGINE_REQUESTS_LEGACY_PARAMETERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/types.h"

namespace dynarock {

// Comparison operators of Expected, KeyConditions, QueryFilter, ScanFilter.
enum class ComparisonOperator : uint8_t {
  kEq,
  kNe,
  kLe,
  kLt,
  kGe,
  kGt,
  kNotNull,
  kNull,
  kContains,
  kNotContains,
  kBeginsWith,
  kIn,
  kBetween,
};

// ConditionalOperator: how several Expected / filter conditions combine.
enum class ConditionalOperator : uint8_t { kAnd, kOr };

// One entry of Expected: either Value and/or Exists, or ComparisonOperator
// with AttributeValueList (or Value). Unset members were absent.
struct ExpectedAttributeValue {
  std::optional<AttributeValue> value;
  std::optional<bool> exists;
  std::optional<ComparisonOperator> comparison_operator;
  std::optional<std::vector<AttributeValue>> attribute_value_list;
};
using ExpectedConditions =
    std::vector<std::pair<std::string, ExpectedAttributeValue>>;

// One entry of KeyConditions, QueryFilter or ScanFilter (DynamoDB's
// "Condition" shape).
struct LegacyCondition {
  ComparisonOperator comparison_operator = ComparisonOperator::kEq;
  std::vector<AttributeValue> attribute_value_list;
};
using LegacyConditions = std::vector<std::pair<std::string, LegacyCondition>>;

// One entry of AttributeUpdates. DynamoDB's default action is PUT.
enum class AttributeAction : uint8_t { kPut, kAdd, kDelete };
struct AttributeValueUpdate {
  std::optional<AttributeValue> value;
  AttributeAction action = AttributeAction::kPut;
};
using AttributeUpdates =
    std::vector<std::pair<std::string, AttributeValueUpdate>>;

// "EQ", "NE", "LE", ..., "BETWEEN": DynamoDB's names.
std::string_view ComparisonOperatorName(ComparisonOperator op);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_LEGACY_PARAMETERS_H_
