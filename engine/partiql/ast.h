// engine/partiql/ast.h
//
// The parsed form of one PartiQL statement as DynamoDB accepts it (SELECT,
// INSERT, UPDATE, DELETE, and EXISTS for ExecuteTransaction). Parameters
// (`?`) are bound while parsing, so every value here is an AttributeValue.
// The planner (statement_planner.h) turns a Statement into the request types the
// engine already executes; nothing evaluates this tree directly.
//
// Trees are at most kMaxPartiqlNesting levels deep (the parser refuses
// deeper input), so walking them recursively is bounded.

#ifndef DYNAROCK_ENGINE_PARTIQL_AST_H_
#define DYNAROCK_ENGINE_PARTIQL_AST_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/types.h"

namespace dynarock::partiql {

// Nesting (parentheses, NOT, nested literals) deeper than this is refused.
inline constexpr int kMaxPartiqlNesting = 64;

// One step of a document path: an attribute name, or a list index.
struct PathElement {
  std::string name;
  std::optional<int64_t> index;  // set for [n]
  bool operator==(const PathElement&) const = default;
};
using Path = std::vector<PathElement>;

// An operand of a comparison: a path, a value, or size(path).
struct Operand {
  enum class Kind : uint8_t { kPath, kValue, kSize };
  Kind kind = Kind::kValue;
  Path path;
  AttributeValue value;
};

// A WHERE condition.
struct Condition {
  enum class Kind : uint8_t {
    kAnd,         // children
    kOr,          // children
    kNot,         // children[0]
    kCompare,     // operands[0] op operands[1]
    kBetween,     // operands[0] BETWEEN operands[1] AND operands[2]
    kIn,          // operands[0] IN [operands[1..]]
    kFunction,    // function(operands...): begins_with, contains, attribute_type
    kIsMissing,   // operands[0] IS MISSING
    kIsNotMissing,
    kIsNull,      // operands[0] IS NULL: the attribute is of type NULL
    kIsNotNull,   // operands[0] IS NOT NULL: NOT (IS NULL)
  };
  Kind kind = Kind::kCompare;
  std::string op;        // kCompare: = <> < <= > >= ; kFunction: the name
  std::vector<Operand> operands;
  std::vector<std::unique_ptr<Condition>> children;
};

// One SET or REMOVE of an UPDATE.
struct UpdateAction {
  enum class Kind : uint8_t {
    kSet,        // path = operands[0]
    kSetPlus,    // path = operands[0] + operands[1]
    kSetMinus,   // path = operands[0] - operands[1]
    kListAppend, // path = list_append(operands[0], operands[1])
    kSetAdd,     // path = set_add(path, operands[1])
    kSetDelete,  // path = set_delete(path, operands[1])
    kRemove,     // REMOVE path
  };
  Kind kind = Kind::kSet;
  Path path;
  std::vector<Operand> operands;
};

// RETURNING ... *
enum class Returning : uint8_t { kNone, kAllOld, kModifiedOld, kAllNew, kModifiedNew };

struct Statement {
  enum class Kind : uint8_t { kSelect, kInsert, kUpdate, kDelete, kExists };
  Kind kind = Kind::kSelect;
  std::string table_name;
  std::optional<std::string> index_name;  // SELECT ... FROM "T"."Index"
  // SELECT: the projected paths; empty for *.
  std::vector<Path> projection;
  std::unique_ptr<Condition> where;  // null without WHERE
  // SELECT ... ORDER BY <path> [ASC|DESC] {, <path> [ASC|DESC]}
  struct OrderKey {
    Path path;
    bool descending = false;
  };
  std::vector<OrderKey> order_by;
  // INSERT ... VALUE {...}
  Item item;
  std::vector<UpdateAction> actions;  // UPDATE
  Returning returning = Returning::kNone;
};

}  // namespace dynarock::partiql

#endif  // DYNAROCK_ENGINE_PARTIQL_AST_H_
