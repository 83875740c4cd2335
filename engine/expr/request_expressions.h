// engine/expr/request_expressions.h
//
// The expression parameters of ONE request, checked and turned into
// resolved trees in DynamoDB's order:
//
//   1. CheckExpressionParameters: legacy and expression parameters not
//      mixed; ExpressionAttributeNames/Values only with expressions.
//   2. (the operation's legacy parameters, engine/expr/legacy.h)
//   3. RequestExpressions::CheckAttributeMaps: the two maps not empty, keys
//      well formed (#name, :value), values valid.
//   4. Parse + resolve each expression, in the operation's order
//      (UpdateExpression, ConditionExpression, KeyConditionExpression,
//      FilterExpression, ProjectionExpression), all with one Resolver.
//   5. RequestExpressions::CheckAllUsed: no unused name or value.
//
//   RequestExpressions exprs(names, values);
//   DR_RETURN_IF_ERROR(exprs.CheckAttributeMaps());
//   DR_ASSIGN_OR_RETURN(UpdateExpression u, exprs.Update(update_text));
//   DR_ASSIGN_OR_RETURN(ConditionExpression c, exprs.Condition(cond_text));
//   DR_RETURN_IF_ERROR(exprs.CheckAllUsed());
//
// Parsed trees come from a process-wide bounded cache keyed by expression
// text (parse once, evaluate many); resolution is per request.
//
// A RequestExpressions is not thread-safe (one per request); the free
// functions are.

#ifndef DYNAROCK_ENGINE_EXPR_REQUEST_EXPRESSIONS_H_
#define DYNAROCK_ENGINE_EXPR_REQUEST_EXPRESSIONS_H_

#include <initializer_list>
#include <string_view>

#include "engine/expr/ast.h"
#include "engine/expr/resolve.h"
#include "engine/status.h"

namespace dynarock::expr {

// One expression or legacy parameter of a request ("UpdateExpression",
// "Expected") and whether the request carries it.
struct Parameter {
  std::string_view name;
  bool present = false;
};

// Step 1. `expressions` and `non_expressions` list the operation's
// parameters in DynamoDB's order (the order its messages name them in).
// Errors (kValidation):
//   "Can not use both expression and non-expression parameters in the same
//    request: Non-expression parameters: {Expected, ConditionalOperator}
//    Expression parameters: {ConditionExpression}"
//   "ExpressionAttributeNames can only be specified when using expressions"
//   "ExpressionAttributeValues can only be specified when using expressions:
//    UpdateExpression and ConditionExpression are null" (the expressions
//    that can use values; ProjectionExpression cannot)
Status CheckExpressionParameters(
    std::initializer_list<Parameter> expressions,
    std::initializer_list<Parameter> non_expressions, bool names_present,
    bool values_present);

// "ExpressionAttributeValues contains invalid value: <cause's message> for
// key :v": a value of ExpressionAttributeValues that is malformed (found by
// the api's decoder) or invalid (found here).
Status InvalidExpressionAttributeValue(std::string_view key,
                                       const Status& cause);

class RequestExpressions {
 public:
  // Either map may be null when the request has none; both must outlive
  // this object.
  RequestExpressions(const NameMap* names, const ValueMap* values);

  RequestExpressions(const RequestExpressions&) = delete;
  RequestExpressions& operator=(const RequestExpressions&) = delete;

  // Step 3. Errors (kValidation):
  //   "ExpressionAttributeNames must not be empty"
  //   "ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\""
  //   "ExpressionAttributeNames contains invalid value: Empty attribute name
  //    for key #a"
  //   ValidateAttributeName's for a name over 65535 bytes
  //   "ExpressionAttributeValues must not be empty"
  //   "ExpressionAttributeValues contains invalid key: Syntax error; key:
  //   \"b\"" InvalidExpressionAttributeValue (empty sets, duplicates, nesting)
  Status CheckAttributeMaps() const;

  // Step 4: parse (or find in the cache) and resolve. Errors: the parser's
  // and the Resolver's (kValidation).
  // REQUIRES for Condition: kind is kCondition, kFilter or kKeyCondition.
  Result<ConditionExpression> Condition(
      std::string_view text, ExpressionKind kind = ExpressionKind::kCondition);
  Result<UpdateExpression> Update(std::string_view text);
  Result<ProjectionExpression> Projection(std::string_view text);

  // Step 5.
  Status CheckAllUsed() const { return resolver_.CheckAllUsed(); }

 private:
  const NameMap* names_;
  const ValueMap* values_;
  Resolver resolver_;
};

}  // namespace dynarock::expr

#endif  // DYNAROCK_ENGINE_EXPR_REQUEST_EXPRESSIONS_H_
