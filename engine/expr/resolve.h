// engine/expr/resolve.h
//
// Resolution turns a parsed expression into one that can be evaluated: each
// #name placeholder is replaced by the attribute name it stands for and each
// :value placeholder gets its value, from the request's
// ExpressionAttributeNames and ExpressionAttributeValues. Resolution then
// checks the rules that need those names and values, with DynamoDB's
// messages and in DynamoDB's order:
//
//   conditions:  undefined names or values (the first in the text); then
//                the number of function operands; operands that must
//                differ ("a = a");
//                operand types of constants (begins_with(a, :number),
//                a < :list, size(:number), attribute_type(a, :bad)), paths
//                required (attribute_exists(:v)), BETWEEN bounds of
//                different types or in the wrong order.
//   updates:     undefined names, then values; overlapping paths, then
//                conflicting paths; ADD/DELETE operand types; function
//                operands (if_not_exists, list_append, + and -).
//   projections: undefined names; overlapping, then conflicting paths.
//
// DynamoDB rejects a request whose ExpressionAttributeNames or
// ExpressionAttributeValues hold an entry that none of its expressions uses.
// A Resolver therefore serves one whole request: resolve each of the
// request's expressions with it (e.g. ConditionExpression and
// UpdateExpression, or KeyConditionExpression, FilterExpression and
// ProjectionExpression), then call CheckAllUsed() once.
//
//   Resolver resolver(&request.names, &request.values);
//   DR_ASSIGN_OR_RETURN(UpdateExpression update, resolver.Resolve(parsed_update));
//   DR_ASSIGN_OR_RETURN(ConditionExpression cond, resolver.Resolve(parsed_cond));
//   DR_RETURN_IF_ERROR(resolver.CheckAllUsed());
//
// A Resolver is not thread-safe; use one per request. The resolved trees it
// returns are self-contained (values are copied) and immutable.

#ifndef DYNAROCK_ENGINE_EXPR_RESOLVE_H_
#define DYNAROCK_ENGINE_EXPR_RESOLVE_H_

#include <map>
#include <set>
#include <string>

#include "engine/expr/ast.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock::expr {

// ExpressionAttributeNames: "#n" -> attribute name.
using NameMap = std::map<std::string, std::string>;
// ExpressionAttributeValues: ":v" -> value.
using ValueMap = std::map<std::string, AttributeValue>;

class Resolver {
 public:
  // Either map may be null when the request has none. The maps must outlive
  // the Resolver.
  Resolver(const NameMap* names, const ValueMap* values);

  Resolver(const Resolver&) = delete;
  Resolver& operator=(const Resolver&) = delete;

  // Each returns the resolved copy of `parsed`, or a kValidation Status
  // ("Invalid <Kind>: ..."). REQUIRES: `parsed` is not resolved.
  Result<ConditionExpression> Resolve(const ConditionExpression& parsed);
  Result<UpdateExpression> Resolve(const UpdateExpression& parsed);
  Result<ProjectionExpression> Resolve(const ProjectionExpression& parsed);

  // After all of the request's expressions are resolved: kValidation if an
  // entry of ExpressionAttributeNames, or else of ExpressionAttributeValues,
  // was never used ("Value provided in ExpressionAttributeNames unused in
  // expressions: keys: {#a, #b}").
  Status CheckAllUsed() const;

  // Placeholders used so far.
  const std::set<std::string>& used_names() const { return used_names_; }
  const std::set<std::string>& used_values() const { return used_values_; }

 private:
  Status ResolvePath(ExpressionKind kind, Path& path);
  Status ResolveNames(ExpressionKind kind, Operand& operand);
  Status ResolveValues(ExpressionKind kind, Operand& operand);
  Status ResolveAll(ExpressionKind kind, Operand& operand);
  Status ResolveAll(ExpressionKind kind, Condition& condition);

  const NameMap* names_;
  const ValueMap* values_;
  std::set<std::string> used_names_;
  std::set<std::string> used_values_;
};

}  // namespace dynarock::expr

#endif  // DYNAROCK_ENGINE_EXPR_RESOLVE_H_
