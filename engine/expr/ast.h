// engine/expr/ast.h
//
// The syntax trees of DynamoDB's five expression kinds: ConditionExpression,
// FilterExpression and KeyConditionExpression (one condition grammar),
// UpdateExpression and ProjectionExpression. parser.h builds them from text;
// resolve.h substitutes #name and :value placeholders and checks the rules
// that need those values; evaluate.h and key_condition.h use resolved trees.
//
// Trees are plain values. Once built they are never modified, so a parsed or
// resolved tree may be shared (e.g. as std::shared_ptr<const T>) and read by
// any number of threads at once.

#ifndef DYNAROCK_ENGINE_EXPR_AST_H_
#define DYNAROCK_ENGINE_EXPR_AST_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/types.h"

namespace dynarock::expr {

// Which request parameter an expression came from. It selects the grammar
// and the prefix of every error message ("Invalid <Name>: ...").
enum class ExpressionKind : uint8_t {
  kCondition,     // ConditionExpression (PutItem, UpdateItem, DeleteItem, ...)
  kFilter,        // FilterExpression (Query, Scan)
  kKeyCondition,  // KeyConditionExpression (Query)
  kUpdate,        // UpdateExpression (UpdateItem)
  kProjection,    // ProjectionExpression (GetItem, Query, Scan, ...)
};

// "ConditionExpression", "FilterExpression", "KeyConditionExpression",
// "UpdateExpression", "ProjectionExpression".
std::string_view ExpressionKindName(ExpressionKind kind);

// DynamoDB's limits on expressions.
inline constexpr size_t kMaxExpressionBytes = 4096;
inline constexpr int kMaxOperators = 300;
inline constexpr int kMaxPathDepth = 32;         // elements in one document path
inline constexpr int kMaxInOperands = 100;       // the left operand included
inline constexpr int64_t kMaxListIndex = 2147483647;

// One step of a document path: an attribute (map key) name or a list index.
struct PathElement {
  enum class Kind : uint8_t { kName, kIndex };
  Kind kind = Kind::kName;
  // kName: the attribute name. Empty for a placeholder that is not resolved
  // yet; after resolution, the name the placeholder stands for.
  std::string name;
  // kName written as "#n": the placeholder token, kept after resolution for
  // rendering. Empty for a name written literally.
  std::string placeholder;
  // kIndex: the list index.
  uint32_t index = 0;

  static PathElement Name(std::string name);
  static PathElement Placeholder(std::string token);
  static PathElement Index(uint32_t index);

  bool is_name() const { return kind == Kind::kName; }
  bool is_index() const { return kind == Kind::kIndex; }
};

// A document path: a top-level attribute followed by map keys and list
// indexes ("a.b[3].c"). The first element is always a name.
struct Path {
  std::vector<PathElement> elements;

  // The top-level attribute name. REQUIRES: resolved, non-empty.
  const std::string& top() const { return elements.front().name; }
};

// Functions of the expression languages. Names are case-sensitive.
enum class Function : uint8_t {
  kUnknown,
  // Condition functions.
  kAttributeExists,
  kAttributeNotExists,
  kAttributeType,
  kBeginsWith,
  kContains,
  kSize,
  // Update (SET) functions.
  kIfNotExists,
  kListAppend,
};

// The function called `name`, or kUnknown.
Function FunctionFromName(std::string_view name);
// True for functions that return a boolean (usable as a whole condition).
bool IsBooleanFunction(Function f);
// True for size(), attribute_exists(), ... (allowed in conditions only).
bool IsConditionFunction(Function f);
// True for if_not_exists() and list_append() (allowed in SET values only).
bool IsUpdateFunction(Function f);

// A value-producing term: a document path, a :value placeholder, a function
// call, or (UpdateExpression SET only) a sum or difference of two operands.
struct Operand {
  enum class Kind : uint8_t { kPath, kValue, kCall, kPlus, kMinus };
  Kind kind = Kind::kPath;
  // kPath.
  Path path;
  // kValue: the placeholder token (":v") and, once resolved, its value.
  std::string value_name;
  std::optional<AttributeValue> value;
  // kCall: the function name as written and what it names.
  std::string function_name;
  Function function = Function::kUnknown;
  // kCall: the arguments. kPlus/kMinus: the two operands.
  std::vector<Operand> args;

  static Operand MakePath(Path path);
  static Operand MakeValue(std::string token);
  static Operand MakeCall(std::string name, std::vector<Operand> args);
  static Operand MakeArithmetic(Kind kind, Operand left, Operand right);
};

enum class CompareOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };
// "=", "<>", "<", "<=", ">", ">=".
std::string_view CompareOpText(CompareOp op);

// A condition (ConditionExpression, FilterExpression, KeyConditionExpression).
struct Condition {
  enum class Kind : uint8_t {
    kCompare,   // operands[0] op operands[1]
    kBetween,   // operands[0] BETWEEN operands[1] AND operands[2]
    kIn,        // operands[0] IN (operands[1], ...)
    kFunction,  // operands[0] is a kCall of a boolean function
    kAnd,       // children[0] AND children[1]
    kOr,        // children[0] OR children[1]
    kNot,       // NOT children[0]
  };
  Kind kind = Kind::kCompare;
  CompareOp op = CompareOp::kEq;
  std::vector<Operand> operands;
  std::vector<Condition> children;
};

// A parsed (and possibly resolved) condition with the kind of expression it
// came from.
struct ConditionExpression {
  ExpressionKind kind = ExpressionKind::kCondition;
  Condition root;
  bool resolved = false;
};

enum class UpdateClause : uint8_t { kSet, kRemove, kAdd, kDelete };
// "SET", "REMOVE", "ADD", "DELETE".
std::string_view UpdateClauseName(UpdateClause clause);

// One action of an UpdateExpression: "SET path = value", "REMOVE path",
// "ADD path :value", "DELETE path :value".
struct UpdateAction {
  UpdateClause clause = UpdateClause::kSet;
  Path path;
  Operand value;  // unused for kRemove; a kValue operand for kAdd, kDelete
};

// An UpdateExpression: its actions in the order written. Actions of one
// clause are contiguous (each clause appears at most once).
struct UpdateExpression {
  std::vector<UpdateAction> actions;
  bool resolved = false;
};

// A ProjectionExpression: the paths in the order written.
struct ProjectionExpression {
  std::vector<Path> paths;
  bool resolved = false;
};

}  // namespace dynarock::expr

#endif  // DYNAROCK_ENGINE_EXPR_AST_H_
