// engine/expr/key_condition.h
//
// KeyConditionExpression: the condition grammar restricted to "partition
// key = value" and optionally one sort-key condition (=, <, <=, >, >=,
// BETWEEN, begins_with), joined by AND. Query parses it with
// ParseCondition(text, ExpressionKind::kKeyCondition), resolves it with the
// request's Resolver, then:
//
//   DR_ASSIGN_OR_RETURN(KeyCondition kc, AnalyzeKeyCondition(resolved));
//   DR_ASSIGN_OR_RETURN(KeyQuery q, BindKeyCondition(kc, index_key_def));
//   ... read partition q.partition, keep items whose sort key
//       MatchesSortCondition(*q.sort, value) ...
//
// Errors are kValidation with DynamoDB's messages (no "Invalid
// KeyConditionExpression:" prefix, as DynamoDB). Value types; thread-safe.

#ifndef DYNAROCK_ENGINE_EXPR_KEY_CONDITION_H_
#define DYNAROCK_ENGINE_EXPR_KEY_CONDITION_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/expr/ast.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock::expr {

enum class KeyOp : uint8_t { kEq, kLt, kLe, kGt, kGe, kBetween, kBeginsWith };
// "EQ", "LT", "LE", "GT", "GE", "BETWEEN", "BEGINS_WITH" (the legacy
// KeyConditions ComparisonOperator names).
std::string_view KeyOpName(KeyOp op);

// One condition on one key attribute: attribute op values[0] (values[1] is
// the upper bound of BETWEEN). "value < attr" is stored as "attr > value".
struct KeyConditionTerm {
  std::string attribute;
  KeyOp op = KeyOp::kEq;
  std::vector<AttributeValue> values;
};

// The terms of a key condition in the order written (one or two).
struct KeyCondition {
  std::vector<KeyConditionTerm> terms;
};

// Checks the shape of a resolved key condition. Errors (kValidation):
//   OR, NOT, IN, <>, attribute_exists, attribute_not_exists, attribute_type,
//   contains -> "Invalid operator used in KeyConditionExpression: <op>"
//   size()   -> "KeyConditionExpressions cannot contain nested operations"
//   "Invalid condition in KeyConditionExpression: BETWEEN operator must have
//    the key attribute as its first operand" (also begins_with)
//   "Invalid condition in KeyConditionExpression: Multiple attribute names
//    used in one condition"
//   "KeyConditionExpressions cannot have conditions on nested attributes"
//   "Invalid condition in KeyConditionExpression: No key attribute specified"
//   "KeyConditionExpressions must only contain one condition per key"
//   "Conditions can be of length 1 or 2 only" (more than
//                                  kMaxKeyConditionTerms; more than 2 is
//                                  refused with it by BindKeyCondition on a
//                                  key of one attribute of each kind)
// REQUIRES: condition.resolved, condition.kind == kKeyCondition.
Result<KeyCondition> AnalyzeKeyCondition(const ConditionExpression& condition);

// What a Query reads: one partition, optionally narrowed by a sort-key
// condition. On a multi-attribute key, `partition` is the first
// partition-key attribute's value and `extra_partition` the others' (in
// KeySchema order); `sort_equal` holds equality values for the leading
// sort-key attributes, and `sort` (any operator, `=` included) applies to
// the sort-key attribute after them.
struct KeyQuery {
  AttributeValue partition;
  std::optional<KeyConditionTerm> sort;
  std::vector<AttributeValue> extra_partition;
  std::vector<AttributeValue> sort_equal;
};

// The most terms a key condition may have: four partition-key and four
// sort-key attributes of a multi-attribute GSI key.
inline constexpr size_t kMaxKeyConditionTerms = 8;

// Matches the terms to the queried table's or index's key. Errors
// (kValidation):
//   "Query condition missed key schema element: <name>"
//   "Query key condition not supported"   (partition key not compared with
//                                          =, or a sort condition on a
//                                          table without sort key)
//   "One or more parameter values were invalid: Condition parameter type
//    does not match schema type"
// On a multi-attribute key every partition-key attribute needs `=`, and the
// sort-key conditions must be on a leading run of the sort-key attributes,
// `=` on all but the last: a skipped attribute is "Query condition missed
// key schema element: <the skipped one>", a condition after a range
// condition "Query key condition not supported".
Result<KeyQuery> BindKeyCondition(const KeyCondition& condition,
                                  const KeyDef& key);

// True if a sort-key value satisfies `term`.
bool MatchesSortCondition(const KeyConditionTerm& term,
                          const AttributeValue& value);

}  // namespace dynarock::expr

#endif  // DYNAROCK_ENGINE_EXPR_KEY_CONDITION_H_
