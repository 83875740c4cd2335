#include "engine/expr/request_expressions.h"

#include <string>
#include <utility>
#include <vector>

#include "engine/expr/parse_cache.h"
#include "engine/value/attribute_value_validation.h"

namespace dynarock::expr {

namespace {

// Messages: mhart/dynalite's tests recorded against DynamoDB
// (test/updateItem.js, test/deleteItem.js, test/query.js: "should return
// ValidationException if expression and non-expression", "... for empty
// ExpressionAttributeNames", "... for invalid keys in
// ExpressionAttributeValues", "... for invalid values in
// ExpressionAttributeValues"), and extenddb's tests run against DynamoDB for
// the parameter lists (ConditionalOperator counts as non-expression).

std::string JoinNames(const std::vector<std::string_view>& names,
                      std::string_view separator) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += separator;
    out += names[i];
  }
  return out;
}

// #name and :value placeholders: the marker and then [0-9A-Za-z_]+.
bool IsPlaceholderKey(std::string_view key, char marker) {
  if (key.size() < 2 || key[0] != marker) return false;
  for (char c : key.substr(1)) {
    const bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                    (c >= 'A' && c <= 'Z') || c == '_';
    if (!ok) return false;
  }
  return true;
}

Status InvalidKey(std::string_view map, std::string_view key) {
  return Status::Validation(std::string(map) +
                            " contains invalid key: Syntax error; key: \"" +
                            std::string(key) + "\"");
}

}  // namespace

Status CheckExpressionParameters(
    std::initializer_list<Parameter> expressions,
    std::initializer_list<Parameter> non_expressions, bool names_present,
    bool values_present) {
  std::vector<std::string_view> present_expressions;
  std::vector<std::string_view> value_expressions;
  bool value_expression_present = false;
  for (const Parameter& p : expressions) {
    if (p.present) present_expressions.push_back(p.name);
    if (p.name != "ProjectionExpression") {
      value_expressions.push_back(p.name);
      value_expression_present = value_expression_present || p.present;
    }
  }
  if (!present_expressions.empty()) {
    std::vector<std::string_view> present_legacy;
    for (const Parameter& p : non_expressions) {
      if (p.present) present_legacy.push_back(p.name);
    }
    if (!present_legacy.empty()) {
      return Status::Validation(
          "Can not use both expression and non-expression parameters in the "
          "same request: Non-expression parameters: {" +
          JoinNames(present_legacy, ", ") + "} Expression parameters: {" +
          JoinNames(present_expressions, ", ") + "}");
    }
  }
  if (names_present && present_expressions.empty()) {
    return Status::Validation(
        "ExpressionAttributeNames can only be specified when using "
        "expressions");
  }
  if (values_present && !value_expressions.empty() &&
      !value_expression_present) {
    return Status::Validation(
        "ExpressionAttributeValues can only be specified when using "
        "expressions: " +
        JoinNames(value_expressions, " and ") +
        (value_expressions.size() > 1 ? " are null" : " is null"));
  }
  return Status::OK();
}

Status InvalidExpressionAttributeValue(std::string_view key,
                                       const Status& cause) {
  return Status::Validation(
      "ExpressionAttributeValues contains invalid value: " + cause.message() +
      " for key " + std::string(key));
}

RequestExpressions::RequestExpressions(const NameMap* names,
                                       const ValueMap* values)
    : names_(names), values_(values), resolver_(names, values) {}

Status RequestExpressions::CheckAttributeMaps() const {
  if (names_ != nullptr) {
    if (names_->empty()) {
      return Status::Validation("ExpressionAttributeNames must not be empty");
    }
    for (const auto& [key, name] : *names_) {
      if (!IsPlaceholderKey(key, '#')) {
        return InvalidKey("ExpressionAttributeNames", key);
      }
      // Quoted from DynamoDB in application code that handles it.
      if (name.empty()) {
        return Status::Validation(
            "ExpressionAttributeNames contains invalid value: Empty attribute "
            "name for key " +
            key);
      }
      // Too long: DynamoDB's message names no key (ValidateAttributeName).
      DR_RETURN_IF_ERROR(ValidateAttributeName(name));
    }
  }
  if (values_ != nullptr) {
    if (values_->empty()) {
      return Status::Validation("ExpressionAttributeValues must not be empty");
    }
    for (const auto& [key, value] : *values_) {
      if (!IsPlaceholderKey(key, ':')) {
        return InvalidKey("ExpressionAttributeValues", key);
      }
    }
    for (const auto& [key, value] : *values_) {
      Status s = ValidateAttributeValue(value);
      if (!s.ok()) return InvalidExpressionAttributeValue(key, s);
    }
  }
  return Status::OK();
}

Result<ConditionExpression> RequestExpressions::Condition(std::string_view text,
                                                          ExpressionKind kind) {
  DR_ASSIGN_OR_RETURN(auto parsed, CachedParseCondition(text, kind));
  return resolver_.Resolve(*parsed);
}

Result<UpdateExpression> RequestExpressions::Update(std::string_view text) {
  DR_ASSIGN_OR_RETURN(auto parsed, CachedParseUpdate(text));
  return resolver_.Resolve(*parsed);
}

Result<ProjectionExpression> RequestExpressions::Projection(
    std::string_view text) {
  DR_ASSIGN_OR_RETURN(auto parsed, CachedParseProjection(text));
  return resolver_.Resolve(*parsed);
}

}  // namespace dynarock::expr
