#include "engine/expr/ast.h"

#include <utility>

namespace dynarock::expr {

std::string_view ExpressionKindName(ExpressionKind kind) {
  switch (kind) {
    case ExpressionKind::kCondition:
      return "ConditionExpression";
    case ExpressionKind::kFilter:
      return "FilterExpression";
    case ExpressionKind::kKeyCondition:
      return "KeyConditionExpression";
    case ExpressionKind::kUpdate:
      return "UpdateExpression";
    case ExpressionKind::kProjection:
      return "ProjectionExpression";
  }
  return "";
}

PathElement PathElement::Name(std::string name) {
  PathElement e;
  e.kind = Kind::kName;
  e.name = std::move(name);
  return e;
}

PathElement PathElement::Placeholder(std::string token) {
  PathElement e;
  e.kind = Kind::kName;
  e.placeholder = std::move(token);
  return e;
}

PathElement PathElement::Index(uint32_t index) {
  PathElement e;
  e.kind = Kind::kIndex;
  e.index = index;
  return e;
}

namespace {

struct FunctionEntry {
  std::string_view name;
  Function function;
};

constexpr FunctionEntry kFunctions[] = {
    {"attribute_exists", Function::kAttributeExists},
    {"attribute_not_exists", Function::kAttributeNotExists},
    {"attribute_type", Function::kAttributeType},
    {"begins_with", Function::kBeginsWith},
    {"contains", Function::kContains},
    {"size", Function::kSize},
    {"if_not_exists", Function::kIfNotExists},
    {"list_append", Function::kListAppend},
};

}  // namespace

Function FunctionFromName(std::string_view name) {
  for (const FunctionEntry& e : kFunctions) {
    if (e.name == name) return e.function;
  }
  return Function::kUnknown;
}

bool IsBooleanFunction(Function f) {
  switch (f) {
    case Function::kAttributeExists:
    case Function::kAttributeNotExists:
    case Function::kAttributeType:
    case Function::kBeginsWith:
    case Function::kContains:
      return true;
    default:
      return false;
  }
}

bool IsConditionFunction(Function f) {
  return IsBooleanFunction(f) || f == Function::kSize;
}

bool IsUpdateFunction(Function f) {
  return f == Function::kIfNotExists || f == Function::kListAppend;
}

Operand Operand::MakePath(Path path) {
  Operand o;
  o.kind = Kind::kPath;
  o.path = std::move(path);
  return o;
}

Operand Operand::MakeValue(std::string token) {
  Operand o;
  o.kind = Kind::kValue;
  o.value_name = std::move(token);
  return o;
}

Operand Operand::MakeCall(std::string name, std::vector<Operand> args) {
  Operand o;
  o.kind = Kind::kCall;
  o.function = FunctionFromName(name);
  o.function_name = std::move(name);
  o.args = std::move(args);
  return o;
}

Operand Operand::MakeArithmetic(Kind kind, Operand left, Operand right) {
  Operand o;
  o.kind = kind;
  o.args.reserve(2);
  o.args.push_back(std::move(left));
  o.args.push_back(std::move(right));
  return o;
}

std::string_view CompareOpText(CompareOp op) {
  switch (op) {
    case CompareOp::kEq:
      return "=";
    case CompareOp::kNe:
      return "<>";
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLe:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGe:
      return ">=";
  }
  return "";
}

std::string_view UpdateClauseName(UpdateClause clause) {
  switch (clause) {
    case UpdateClause::kSet:
      return "SET";
    case UpdateClause::kRemove:
      return "REMOVE";
    case UpdateClause::kAdd:
      return "ADD";
    case UpdateClause::kDelete:
      return "DELETE";
  }
  return "";
}

}  // namespace dynarock::expr
