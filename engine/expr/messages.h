// engine/expr/messages.h
//
// Every error message of the expression languages, one named function per
// message, so that a conformance failure points at one line. All return
// kValidation Statuses. Sources for the exact wording (DynamoDB error
// strings quoted by tests that ran against DynamoDB, and DynamoDB Local's
// message table) are listed in docs beside each group in messages.cc.
//
// DynamoDB builds most messages as "<base>;" or "<base>; <detail>", and
// prefixes problems found in an expression's text with "Invalid <Kind>: ".
// Problems found while applying an update to an item, unused placeholders
// and key-condition shape errors carry no prefix.

#ifndef DYNAROCK_ENGINE_EXPR_MESSAGES_H_
#define DYNAROCK_ENGINE_EXPR_MESSAGES_H_

#include <set>
#include <string>
#include <string_view>

#include "engine/expr/ast.h"
#include "engine/status.h"
#include "engine/types.h"
#include "engine/value/value_text.h"

namespace dynarock::expr::msg {

// --- Found while parsing: "Invalid <Kind>: ..." -------------------------
Status Empty(ExpressionKind kind);
Status TooLong(ExpressionKind kind, size_t bytes);
// `token` is the offending token ("<EOF>" at the end), `near` the source
// text around it.
Status SyntaxError(ExpressionKind kind, std::string_view token,
                   std::string_view near);
Status TooManyOperators(ExpressionKind kind, int count);
Status TooManyInOperands(ExpressionKind kind, int count);
Status PathTooDeep(ExpressionKind kind, int levels);
Status ListIndexOutOfRange(ExpressionKind kind, std::string_view digits);
Status RedundantParentheses(ExpressionKind kind);
Status ReservedKeyword(ExpressionKind kind, std::string_view word);
Status InvalidFunctionName(ExpressionKind kind, std::string_view name);
Status FunctionNotAllowedInCondition(ExpressionKind kind,
                                     std::string_view name);
Status FunctionNotAllowedInUpdate(ExpressionKind kind, std::string_view name);
Status FunctionMisused(ExpressionKind kind, std::string_view name);
Status DuplicateSection(ExpressionKind kind, UpdateClause clause);

// --- Found while resolving: "Invalid <Kind>: ..." -----------------------
Status UndefinedName(ExpressionKind kind, std::string_view token);
Status UndefinedValue(ExpressionKind kind, std::string_view token);
Status OperandCount(ExpressionKind kind, std::string_view function, int n);
// `type` is a short type name ("S", "L", "BOOL").
Status OperandType(ExpressionKind kind, std::string_view function,
                   AttrType type);
// As OperandType, with the type as text: attribute_type() given a path as
// its type operand names all types, "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}".
Status OperandTypeText(ExpressionKind kind, std::string_view function,
                       std::string_view type);
// ADD and DELETE name the operand type in words ("STRING", "NUMBER").
Status UpdateOperandType(UpdateClause clause, AttrType type);
Status RequiresPath(ExpressionKind kind, std::string_view function);
Status InvalidTypeName(ExpressionKind kind, std::string_view type);
Status NotDistinct(ExpressionKind kind, std::string_view op,
                   const Path& first);
Status BetweenTypes(ExpressionKind kind, const AttributeValue& lower,
                    const AttributeValue& upper);
Status BetweenOrder(ExpressionKind kind, const AttributeValue& lower,
                    const AttributeValue& upper);
Status PathsOverlap(ExpressionKind kind, const Path& one, const Path& two);
Status PathsConflict(ExpressionKind kind, const Path& one, const Path& two);

// --- Unused placeholders (no prefix) -------------------------------------
Status UnusedNames(const std::set<std::string>& keys);
Status UnusedValues(const std::set<std::string>& keys);

// --- Applying an update to an item (no prefix) ---------------------------
Status MissingAttribute();
Status InvalidUpdatePath();
Status IncorrectOperandType();

// --- KeyConditionExpression shape and schema (no prefix) -----------------
Status KeyInvalidOperator(std::string_view op);
Status KeyNestedOperations();
Status KeyFirstOperand(std::string_view op);
Status KeyMultipleNames();
Status KeyNestedAttributes();
Status KeyNoAttribute();
Status KeyOneConditionPerKey();
Status KeyConditionCount();
Status KeyMissedSchemaElement(std::string_view name);
Status KeyConditionNotSupported();
// A multi-attribute key's Query: a partition-key (HASH) attribute without
// `=`; a sort-key (RANGE) attribute skipped, or conditioned after a range
// condition. DynamoDB documents the rules, not its texts; these carry the
// words scylladb's test_gsi_composite_keys.py (run against DynamoDB) looks
// for ("HASH ... equality", "RANGE ... equality"). Unverified.
Status MultiKeyHashNeedsEquality(std::string_view name);
Status MultiKeyRangeOutOfOrder(std::string_view name);
Status KeyTypeMismatch();

// --- Helpers shared with render.cc ---------------------------------------
// "[a, b, [3]]": a resolved path as DynamoDB prints it in messages.
std::string PathForMessage(const Path& path);
// "{N:5}", "{S:dog}", "{B:<base64>}": a scalar as DynamoDB prints it
// (engine/value/value_text.h).
using ::dynarock::ValueForMessage;

}  // namespace dynarock::expr::msg

#endif  // DYNAROCK_ENGINE_EXPR_MESSAGES_H_
