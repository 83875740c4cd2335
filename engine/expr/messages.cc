#include "engine/expr/messages.h"

#include <string>
#include <utility>

namespace dynarock::expr::msg {

namespace {

Status Invalid(ExpressionKind kind, std::string detail) {
  std::string m = "Invalid ";
  m += ExpressionKindName(kind);
  m += ": ";
  m += detail;
  return Status::Validation(std::move(m));
}

std::string Str(std::string_view s) { return std::string(s); }

// ADD and DELETE spell the operand type out.
std::string_view LongTypeName(AttrType type) {
  switch (type) {
    case AttrType::kS:
      return "STRING";
    case AttrType::kN:
      return "NUMBER";
    case AttrType::kB:
      return "BINARY";
    case AttrType::kBool:
      return "BOOLEAN";
    case AttrType::kNull:
      return "NULL";
    case AttrType::kL:
      return "LIST";
    case AttrType::kM:
      return "MAP";
    case AttrType::kSS:
      return "STRING_SET";
    case AttrType::kNS:
      return "NUMBER_SET";
    case AttrType::kBS:
      return "BINARY_SET";
  }
  return "";
}

}  // namespace

std::string PathForMessage(const Path& path) {
  std::string out = "[";
  for (size_t i = 0; i < path.elements.size(); ++i) {
    if (i > 0) out += ", ";
    const PathElement& e = path.elements[i];
    if (e.is_index()) {
      out += "[" + std::to_string(e.index) + "]";
    } else {
      out += e.name.empty() ? e.placeholder : e.name;
    }
  }
  out += "]";
  return out;
}

// Parse-time messages. Wording: DynamoDB Local's DbValidationError table and
// errors quoted by scylladb test/alternator (run against DynamoDB), e.g.
//   Syntax error; token: "<EOF>", near: "foo"
//   Expression size has exceeded the maximum allowed size; expression size: 200004
//   The expression contains too many operators; operator count: 301
//   The document path has too many nesting levels; nesting levels: 33
//   The "ADD" section can only be used once in an update expression;
Status Empty(ExpressionKind kind) {
  return Invalid(kind, "The expression can not be empty;");
}

Status TooLong(ExpressionKind kind, size_t bytes) {
  return Invalid(kind,
                 "Expression size has exceeded the maximum allowed size; "
                 "expression size: " +
                     std::to_string(bytes));
}

Status SyntaxError(ExpressionKind kind, std::string_view token,
                   std::string_view near) {
  return Invalid(kind, "Syntax error; token: \"" + Str(token) + "\", near: \"" +
                           Str(near) + "\"");
}

Status TooManyOperators(ExpressionKind kind, int count) {
  return Invalid(kind,
                 "The expression contains too many operators; operator count: " +
                     std::to_string(count));
}

Status TooManyInOperands(ExpressionKind kind, int count) {
  return Invalid(kind,
                 "The IN operator is provided with too many operands; number "
                 "of operands: " +
                     std::to_string(count));
}

Status PathTooDeep(ExpressionKind kind, int levels) {
  return Invalid(kind,
                 "The document path has too many nesting levels; nesting "
                 "levels: " +
                     std::to_string(levels));
}

Status ListIndexOutOfRange(ExpressionKind kind, std::string_view digits) {
  return Invalid(kind,
                 "List index is not within the allowable range; index: [" +
                     Str(digits) + "]");
}

Status RedundantParentheses(ExpressionKind kind) {
  return Invalid(kind, "The expression has redundant parentheses;");
}

Status ReservedKeyword(ExpressionKind kind, std::string_view word) {
  return Invalid(kind, "Attribute name is a reserved keyword; reserved "
                       "keyword: " +
                           Str(word));
}

Status InvalidFunctionName(ExpressionKind kind, std::string_view name) {
  return Invalid(kind, "Invalid function name; function: " + Str(name));
}

Status FunctionNotAllowedInCondition(ExpressionKind kind,
                                     std::string_view name) {
  return Invalid(kind,
                 "The function is not allowed in a condition expression; "
                 "function: " +
                     Str(name));
}

Status FunctionNotAllowedInUpdate(ExpressionKind kind, std::string_view name) {
  return Invalid(kind,
                 "The function is not allowed in an update expression; "
                 "function: " +
                     Str(name));
}

Status FunctionMisused(ExpressionKind kind, std::string_view name) {
  return Invalid(kind,
                 "The function is not allowed to be used this way in an "
                 "expression; function: " +
                     Str(name));
}

Status DuplicateSection(ExpressionKind kind, UpdateClause clause) {
  return Invalid(kind, "The \"" + Str(UpdateClauseName(clause)) +
                           "\" section can only be used once in an update "
                           "expression;");
}

// Resolve-time messages. Quoted against DynamoDB by scylladb test/alternator
// and moto's aws_verified tests, e.g.
//   Value provided in ExpressionAttributeValues unused in expressions: keys: {:val1}
//   Incorrect operand type for operator or function; operator or function: list_append, operand type: S
//   Incorrect operand type for operator or function; operator: ADD, operand type: STRING
//   Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a, b]
Status UndefinedName(ExpressionKind kind, std::string_view token) {
  return Invalid(kind,
                 "An expression attribute name used in the document path is "
                 "not defined; attribute name: " +
                     Str(token));
}

Status UndefinedValue(ExpressionKind kind, std::string_view token) {
  return Invalid(kind,
                 "An expression attribute value used in expression is not "
                 "defined; attribute value: " +
                     Str(token));
}

Status OperandCount(ExpressionKind kind, std::string_view function, int n) {
  return Invalid(kind,
                 "Incorrect number of operands for operator or function; "
                 "operator or function: " +
                     Str(function) +
                     ", number of operands: " + std::to_string(n));
}

Status OperandType(ExpressionKind kind, std::string_view function,
                   AttrType type) {
  return OperandTypeText(kind, function, AttrTypeName(type));
}

Status OperandTypeText(ExpressionKind kind, std::string_view function,
                       std::string_view type) {
  return Invalid(kind,
                 "Incorrect operand type for operator or function; operator "
                 "or function: " +
                     Str(function) + ", operand type: " + Str(type));
}

Status UpdateOperandType(UpdateClause clause, AttrType type) {
  return Invalid(ExpressionKind::kUpdate,
                 "Incorrect operand type for operator or function; operator: " +
                     Str(UpdateClauseName(clause)) +
                     ", operand type: " + Str(LongTypeName(type)));
}

Status RequiresPath(ExpressionKind kind, std::string_view function) {
  return Invalid(kind,
                 "Operator or function requires a document path; operator or "
                 "function: " +
                     Str(function));
}

Status InvalidTypeName(ExpressionKind kind, std::string_view type) {
  return Invalid(kind, "Invalid attribute type name found; type: " + Str(type) +
                           ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
}

Status NotDistinct(ExpressionKind kind, std::string_view op,
                   const Path& first) {
  return Invalid(kind,
                 "The first operand must be distinct from the remaining "
                 "operands for this operator or function; operator: " +
                     Str(op) + ", first operand: " + PathForMessage(first));
}

Status BetweenTypes(ExpressionKind kind, const AttributeValue& lower,
                    const AttributeValue& upper) {
  return Invalid(kind,
                 "The BETWEEN operator requires same data type for lower and "
                 "upper bounds; lower bound operand: AttributeValue: " +
                     ValueForMessage(lower) +
                     ", upper bound operand: AttributeValue: " +
                     ValueForMessage(upper));
}

Status BetweenOrder(ExpressionKind kind, const AttributeValue& lower,
                    const AttributeValue& upper) {
  return Invalid(kind,
                 "The BETWEEN operator requires upper bound to be greater than "
                 "or equal to lower bound; lower bound operand: "
                 "AttributeValue: " +
                     ValueForMessage(lower) +
                     ", upper bound operand: AttributeValue: " +
                     ValueForMessage(upper));
}

Status PathsOverlap(ExpressionKind kind, const Path& one, const Path& two) {
  return Invalid(kind,
                 "Two document paths overlap with each other; must remove or "
                 "rewrite one of these paths; path one: " +
                     PathForMessage(one) + ", path two: " + PathForMessage(two));
}

Status PathsConflict(ExpressionKind kind, const Path& one, const Path& two) {
  return Invalid(kind,
                 "Two document paths conflict with each other; must remove or "
                 "rewrite one of these paths; path one: " +
                     PathForMessage(one) + ", path two: " + PathForMessage(two));
}

namespace {
std::string JoinKeys(const std::set<std::string>& keys) {
  std::string out = "{";
  bool first = true;
  for (const std::string& k : keys) {
    if (!first) out += ", ";
    out += k;
    first = false;
  }
  out += "}";
  return out;
}
}  // namespace

Status UnusedNames(const std::set<std::string>& keys) {
  return Status::Validation(
      "Value provided in ExpressionAttributeNames unused in expressions: "
      "keys: " +
      JoinKeys(keys));
}

Status UnusedValues(const std::set<std::string>& keys) {
  return Status::Validation(
      "Value provided in ExpressionAttributeValues unused in expressions: "
      "keys: " +
      JoinKeys(keys));
}

// Update-time messages, as DynamoDB returns them (no prefix), e.g.
//   "An error occurred (ValidationException) when calling the UpdateItem
//    operation: The document path provided in the update expression is
//    invalid for update" (quoted in scylladb test_update_expression.py).
Status MissingAttribute() {
  return Status::Validation(
      "The provided expression refers to an attribute that does not exist in "
      "the item");
}

Status InvalidUpdatePath() {
  return Status::Validation(
      "The document path provided in the update expression is invalid for "
      "update");
}

Status IncorrectOperandType() {
  return Status::Validation(
      "An operand in the update expression has an incorrect data type");
}

// KeyConditionExpression messages (dynalite's query validation, which was
// written against DynamoDB; and DynamoDB error reports).
Status KeyInvalidOperator(std::string_view op) {
  return Status::Validation(
      "Invalid operator used in KeyConditionExpression: " + Str(op));
}

Status KeyNestedOperations() {
  return Status::Validation(
      "KeyConditionExpressions cannot contain nested operations");
}

Status KeyFirstOperand(std::string_view op) {
  return Status::Validation("Invalid condition in KeyConditionExpression: " +
                            Str(op) +
                            " operator must have the key attribute as its "
                            "first operand");
}

Status KeyMultipleNames() {
  return Status::Validation(
      "Invalid condition in KeyConditionExpression: Multiple attribute names "
      "used in one condition");
}

Status KeyNestedAttributes() {
  return Status::Validation(
      "KeyConditionExpressions cannot have conditions on nested attributes");
}

Status KeyNoAttribute() {
  return Status::Validation(
      "Invalid condition in KeyConditionExpression: No key attribute "
      "specified");
}

Status KeyOneConditionPerKey() {
  return Status::Validation(
      "KeyConditionExpressions must only contain one condition per key");
}

Status KeyConditionCount() {
  return Status::Validation("Conditions can be of length 1 or 2 only");
}

Status KeyMissedSchemaElement(std::string_view name) {
  return Status::Validation("Query condition missed key schema element: " +
                            Str(name));
}

Status KeyConditionNotSupported() {
  return Status::Validation("Query key condition not supported");
}

Status MultiKeyHashNeedsEquality(std::string_view name) {
  return Status::Validation(
      "Query key condition not supported: every HASH key attribute needs an equality "
      "condition; attribute: " + Str(name));
}

Status MultiKeyRangeOutOfOrder(std::string_view name) {
  return Status::Validation(
      "Query key condition not supported: RANGE key attributes are conditioned left to "
      "right, each before the last with an equality condition; attribute: " + Str(name));
}

Status KeyTypeMismatch() {
  return Status::Validation(
      "One or more parameter values were invalid: Condition parameter type "
      "does not match schema type");
}

}  // namespace dynarock::expr::msg
