// engine/expr/legacy.h
//
// DynamoDB's legacy (non-expression) parameters, translated into the same
// resolved trees as the expressions, so that one evaluator serves both:
//
//   Expected + ConditionalOperator  -> ConditionExpression (kCondition)
//   QueryFilter / ScanFilter + ConditionalOperator
//                                   -> ConditionExpression (kFilter)
//   KeyConditions                   -> KeyQuery (as BindKeyCondition)
//   AttributeUpdates                -> UpdateExpression
//   AttributesToGet                 -> ProjectionExpression
//
// Each translation first checks its parameter with DynamoDB's messages
// (kValidation), in DynamoDB's order. Attribute names of legacy parameters
// are top-level names taken literally: "a.b" is the attribute named "a.b",
// never a path, and reserved words need no placeholder.
//
// The comparison operators mean what DynamoDB's documentation says they
// mean, which is not always what the expression operator of the same name
// does: NOT_NULL / NULL test existence (not the NULL type), and NOT_CONTAINS
// is false for a missing attribute (NE is true).
//
// Stateless functions; thread-safe. The returned trees are resolved and
// self-contained.

#ifndef DYNAROCK_ENGINE_EXPR_LEGACY_H_
#define DYNAROCK_ENGINE_EXPR_LEGACY_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/expr/ast.h"
#include "engine/expr/key_condition.h"
#include "engine/requests/legacy_parameters.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock::expr {

// Expected (+ ConditionalOperator) of PutItem, UpdateItem, DeleteItem.
// Returns nullopt when there is no condition (no Expected, or an empty
// one). Errors (kValidation):
//   "ConditionalOperator cannot be used without Filter or Expected"
//   "ConditionalOperator can only be used when Filter or Expected has two or
//    more elements"
//   then for each entry, "One or more parameter values were invalid: ..."
//   "Value and AttributeValueList cannot be used together for Attribute: a"
//   "Exists and ComparisonOperator cannot be used together for Attribute: a"
//   "Value or AttributeValueList must be used with ComparisonOperator: LT
//    for Attribute: a"
//   "Invalid number of argument(s) for the LT ComparisonOperator"
//   "AttributeValues inside AttributeValueList must be of same type"
//   "ComparisonOperator LT is not valid for SS AttributeValue type"
//   "The BETWEEN condition was provided a range where the lower bound is
//    greater than the upper bound" (no prefix)
//   "AttributeValueList can only be used with a ComparisonOperator for
//    Attribute: a"
//   "Value must be provided when Exists is null for Attribute: a" (or true)
//   "Value cannot be used when Exists is false for Attribute: a"
// and the value checks of ValidateAttributeValue.
Result<std::optional<ConditionExpression>> TranslateExpected(
    const std::optional<ExpectedConditions>& expected,
    std::optional<ConditionalOperator> conditional_operator);

// QueryFilter or ScanFilter (+ ConditionalOperator): as TranslateExpected,
// for the "Condition" shape (ComparisonOperator required, no Value/Exists).
// The tree's kind is kFilter. nullopt when there is no filter.
Result<std::optional<ConditionExpression>> TranslateFilter(
    const std::optional<LegacyConditions>& filter,
    std::optional<ConditionalOperator> conditional_operator);

// Checks one Condition-shaped map (KeyConditions, QueryFilter, ScanFilter):
// values, then per entry the argument count, one type for all values, the
// types the operator takes and BETWEEN's bounds, with the messages above.
Status ValidateLegacyConditions(const LegacyConditions& conditions);

// KeyConditions of a Query against the key of the table or index queried,
// checked as DynamoDB checks them, per key attribute (partition key first):
//   "Query key condition not supported"      (more conditions than keys,
//                                             or a partition key not EQ)
//   "Query condition missed key schema element: <name>"
//   "Attempted conditional constraint is not an indexable operation"
//                                            (NULL, NOT_NULL, NE, CONTAINS,
//                                             NOT_CONTAINS, IN)
//   "One or more parameter values were invalid: Condition parameter type
//    does not match schema type"
// REQUIRES: ValidateLegacyConditions(key_conditions) is OK.
Result<KeyQuery> BindKeyConditions(const LegacyConditions& key_conditions,
                                   const KeyDef& key);

// AttributeUpdates of UpdateItem. PUT -> SET a = v; DELETE without a value
// -> REMOVE a; DELETE with a set -> DELETE a v; ADD of a number or set ->
// ADD a v; ADD of a list appends to the list (creating it when missing).
// Errors (kValidation, "One or more parameter values were invalid: ..."):
//   "Only DELETE action is allowed when no attribute value is specified"
//   "DELETE action with value is not supported for the type S"
//   "ADD action is not supported for the type S"
// and the checks of ValidateAttributeName (each attribute) and
// ValidateAttributeValue.
Result<UpdateExpression> TranslateAttributeUpdates(
    const AttributeUpdates& updates);

// The error of applying an AttributeUpdates translation, as DynamoDB words
// it for the legacy parameter: a type mismatch ("An operand in the update
// expression has an incorrect data type" for UpdateExpression) is "Type
// mismatch for attribute to update". Other errors pass through.
Status AttributeUpdatesError(const Status& apply_error);

// AttributesToGet. Errors: ValidateAttributeName's, then "One or more
// parameter values were invalid: Duplicate value in attribute name: a".
Result<ProjectionExpression> TranslateAttributesToGet(
    const std::vector<std::string>& names);

}  // namespace dynarock::expr

#endif  // DYNAROCK_ENGINE_EXPR_LEGACY_H_
