#include "api/ops/decode.h"

#include <utility>

#include "api/ops/fields.h"
#include "engine/expr/request_expressions.h"

namespace dynarock::api::ops {

using Kind = Shape::Kind;

// Enum orders as DynamoDB prints them (mhart/dynalite validations/*.js).
const Shape kAttributeValueListShape{.kind = Kind::kList,
                                     .element = &kAttributeValueShape};

namespace {
const Shape kConditionShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.Condition",
    .members = {
        Member{.name = "AttributeValueList", .shape = &kAttributeValueListShape},
        Member{.name = "ComparisonOperator", .shape = &kStringShape,
               .required = true,
               .enum_values = {"IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS",
                               "EQ", "GT", "NOT_NULL", "NE", "LE",
                               "BEGINS_WITH", "GE", "CONTAINS"}},
    }};
}  // namespace

const Shape kConditionMapShape{.kind = Kind::kMap, .element = &kConditionShape};

Member ReturnConsumedCapacityMember() {
  return Member{.name = "ReturnConsumedCapacity", .shape = &kStringShape,
                .enum_values = {"INDEXES", "TOTAL", "NONE"}};
}

Member ReturnItemCollectionMetricsMember() {
  return Member{.name = "ReturnItemCollectionMetrics", .shape = &kStringShape,
                .enum_values = {"SIZE", "NONE"}};
}

Member SelectMember() {
  return Member{.name = "Select", .shape = &kStringShape,
                .enum_values = {"SPECIFIC_ATTRIBUTES", "COUNT",
                                "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES"}};
}

ComparisonOperator DecodeComparisonOperator(std::string_view name) {
  static constexpr std::pair<std::string_view, ComparisonOperator> kNames[] = {
      {"EQ", ComparisonOperator::kEq},
      {"NE", ComparisonOperator::kNe},
      {"LE", ComparisonOperator::kLe},
      {"LT", ComparisonOperator::kLt},
      {"GE", ComparisonOperator::kGe},
      {"GT", ComparisonOperator::kGt},
      {"NOT_NULL", ComparisonOperator::kNotNull},
      {"NULL", ComparisonOperator::kNull},
      {"CONTAINS", ComparisonOperator::kContains},
      {"NOT_CONTAINS", ComparisonOperator::kNotContains},
      {"BEGINS_WITH", ComparisonOperator::kBeginsWith},
      {"IN", ComparisonOperator::kIn},
      {"BETWEEN", ComparisonOperator::kBetween},
  };
  for (const auto& [n, op] : kNames) {
    if (n == name) return op;
  }
  return ComparisonOperator::kEq;  // unreachable: the enum was validated
}

Select DecodeSelect(std::string_view name) {
  if (name == "COUNT") return Select::kCount;
  if (name == "SPECIFIC_ATTRIBUTES") return Select::kSpecificAttributes;
  if (name == "ALL_PROJECTED_ATTRIBUTES") return Select::kAllProjectedAttributes;
  return Select::kAllAttributes;
}

std::optional<ExpressionAttributeNames> DecodeNames(const Json& request) {
  const Json* names = Field(request, "ExpressionAttributeNames");
  if (names == nullptr) return std::nullopt;
  ExpressionAttributeNames out;
  for (const auto& [key, value] : names->items()) {
    if (value.is_string()) out.emplace(key, value.get<std::string>());
  }
  return out;
}

std::optional<std::vector<std::string>> DecodeStringList(const Json& request,
                                                         std::string_view name) {
  const Json* list = Field(request, name);
  if (list == nullptr) return std::nullopt;
  std::vector<std::string> out;
  for (const Json& n : *list) {
    if (n.is_string()) out.push_back(n.get<std::string>());
  }
  return out;
}

Result<std::vector<AttributeValue>> DecodeValueList(const Json& list) {
  std::vector<AttributeValue> out;
  out.reserve(list.size());
  for (const Json& v : list) {
    Result<AttributeValue> value = DecodeAttributeValue(v);
    if (!value.ok()) return value.status();
    out.push_back(std::move(value).value());
  }
  return out;
}

namespace {

// DynamoDB checks ExpressionAttributeNames and the keys of
// ExpressionAttributeValues before the values: {":b": {"a": ""}, "b": ...}
// is "ExpressionAttributeValues contains invalid key: Syntax error; key:
// \"b\"" (dynalite's deleteItem and updateItem tests, recorded against
// DynamoDB). The engine makes these checks (CheckAttributeMaps); when a
// value fails to decode they are made here first, with the values left
// out (each a NULL).
Status CheckMapsBeforeValues(const Json& request, const Json& values) {
  std::optional<ExpressionAttributeNames> names = DecodeNames(request);
  ExpressionAttributeValues placeholders;
  for (const auto& [key, v] : values.items()) {
    placeholders.emplace(key, AttributeValue::Null());
  }
  expr::RequestExpressions exprs(names ? &*names : nullptr, &placeholders);
  return exprs.CheckAttributeMaps();
}

}  // namespace

Result<std::optional<ExpressionAttributeValues>> DecodeValues(
    const Json& request) {
  const Json* values = Field(request, "ExpressionAttributeValues");
  if (values == nullptr) return std::optional<ExpressionAttributeValues>();
  ExpressionAttributeValues out;
  for (const auto& [key, v] : values->items()) {
    Result<AttributeValue> value = DecodeAttributeValue(v);
    if (!value.ok()) {
      DR_RETURN_IF_ERROR(CheckMapsBeforeValues(request, *values));
      return expr::InvalidExpressionAttributeValue(key, value.status());
    }
    out.emplace(key, std::move(value).value());
  }
  return std::optional<ExpressionAttributeValues>(std::move(out));
}

Result<std::optional<LegacyConditions>> DecodeConditions(
    const Json& request, std::string_view name) {
  const Json* conditions = Field(request, name);
  if (conditions == nullptr) return std::optional<LegacyConditions>();
  LegacyConditions out;
  for (const auto& [attr, c] : conditions->items()) {
    LegacyCondition condition;
    condition.comparison_operator =
        DecodeComparisonOperator(StringOr(c, "ComparisonOperator"));
    if (const Json* list = Field(c, "AttributeValueList")) {
      DR_ASSIGN_OR_RETURN(condition.attribute_value_list, DecodeValueList(*list));
    }
    out.emplace_back(attr, std::move(condition));
  }
  return std::optional<LegacyConditions>(std::move(out));
}

}  // namespace dynarock::api::ops
