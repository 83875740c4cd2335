// engine/expr/parser.h
//
// Hand-written recursive-descent parsers for DynamoDB's expression languages.
// A parser checks everything that the text alone decides, in DynamoDB's
// order: emptiness and the 4 KB limit, then syntax (the first unexpected
// token), then limits met while parsing (list index range, 32 path levels,
// 300 operators, 100 IN operands), then the rules of the grammar that are
// not syntax (redundant parentheses, unknown or misplaced functions,
// reserved words used as names, repeated update clauses). Rules that need
// ExpressionAttributeNames/Values (undefined placeholders, operand types,
// overlapping paths, ...) are checked by resolve.h.
//
// Condition grammar (precedence from loosest to tightest):
//   condition  := and { OR and }
//   and        := not { AND not }
//   not        := { NOT } primary
//   primary    := '(' condition ')' | operand comparator operand
//               | operand BETWEEN operand AND operand
//               | operand IN '(' operand { ',' operand } ')'
//               | function '(' operand { ',' operand } ')'
//   operand    := '(' operand ')' | path | :value | function-call
// Update grammar:
//   update     := clause { clause }      each of SET REMOVE ADD DELETE once
//   SET path = value {, ...}   REMOVE path {, ...}
//   ADD path :value {, ...}    DELETE path :value {, ...}
//   value      := term [ ('+'|'-') term ] | '(' term ('+'|'-') term ')'
//   term       := '(' operand ')' | operand
// Projection grammar:
//   projection := path { ',' path }
// Paths:  name-or-#ref { '.' name-or-#ref | '[' digits ']' }
//
// Every function returns a kValidation Status with DynamoDB's message on
// failure ("Invalid <Kind>: ..."). Stateless; thread-safe.

#ifndef DYNAROCK_ENGINE_EXPR_PARSER_H_
#define DYNAROCK_ENGINE_EXPR_PARSER_H_

#include <string_view>

#include "engine/expr/ast.h"
#include "engine/status.h"

namespace dynarock::expr {

// Parses a ConditionExpression, FilterExpression or KeyConditionExpression
// (all three share the condition grammar; `kind` selects the messages).
// REQUIRES: kind is kCondition, kFilter or kKeyCondition.
Result<ConditionExpression> ParseCondition(
    std::string_view text, ExpressionKind kind = ExpressionKind::kCondition);

// Parses an UpdateExpression.
Result<UpdateExpression> ParseUpdate(std::string_view text);

// Parses a ProjectionExpression.
Result<ProjectionExpression> ParseProjection(std::string_view text);

}  // namespace dynarock::expr

#endif  // DYNAROCK_ENGINE_EXPR_PARSER_H_
