// engine/expr/evaluate.h
//
// Evaluation of resolved expressions against items: conditions (also
// filters), updates and projections, by DynamoDB's rules. Every function
// here only reads its expression argument, so one resolved expression may
// be evaluated by many threads at once, against many items (parse once,
// evaluate many). REQUIRES for all: the expression is resolved (resolve.h).

#ifndef DYNAROCK_ENGINE_EXPR_EVALUATE_H_
#define DYNAROCK_ENGINE_EXPR_EVALUATE_H_

#include <string>
#include <vector>

#include "engine/expr/ast.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock::expr {

// The value at `path` in `item`, or null if a step is missing or of the
// wrong kind (a key of a non-map, an index of a non-list or past its end).
// The result points into `item`.
const AttributeValue* FindPath(const Item& item, const Path& path);

// --- Conditions ------------------------------------------------------------

// True if `item` satisfies the condition; `item` null means no item exists
// (every attribute is absent). Evaluation never fails: every check DynamoDB
// turns into a ValidationException was made by Resolve(); anything else that
// does not apply (comparing different types, < on a list, size() of a
// number, a missing attribute) makes that comparison false, except that
// "<>" with a missing operand is true.
//
//   =, <>       any types; deep equality, sets compared as sets
//   < <= > >=   N numerically, S and B by unsigned bytes
//   BETWEEN     lower <= x <= upper, all three of one of those types
//   IN          equal to any listed operand
//   attribute_exists / attribute_not_exists / attribute_type(x, :type)
//   begins_with(x, p)  S or B prefix
//   contains(x, v)     substring of S or B; member of SS, NS, BS; element
//                      of L
//   size(x)            bytes of S and B, members of sets, elements of L and M
bool EvaluateCondition(const ConditionExpression& condition, const Item* item);

// --- Updates ---------------------------------------------------------------

// Applies `update` to `item` and returns the new item. For an item that
// does not exist yet, pass an item holding only its key attributes and
// item_exists = false (DynamoDB then ignores REMOVE of a path below a
// missing attribute instead of rejecting it).
//
// Every operand is read from `item` as it was before the update ("SET a =
// b, b = a" swaps). SET of a list index past the end appends (several in
// index order); list indexes of SET and REMOVE refer to the list as it was
// (REMOVE a[1], a[2] removes both original elements). ADD to a missing
// attribute creates it; DELETE that empties a set removes the attribute;
// numbers are exact (Number::Add / Subtract).
//
// Errors (kValidation, no "Invalid UpdateExpression:" prefix, as DynamoDB):
//   "The provided expression refers to an attribute that does not exist in
//    the item"                       - SET reads a missing attribute
//   "An operand in the update expression has an incorrect data type"
//                                    - + - on non-numbers, list_append of a
//                                      non-list, ADD/DELETE on another type
//   "The document path provided in the update expression is invalid for
//    update"                         - a path through a missing attribute or
//                                      an attribute of the wrong type
//   Number's range and precision errors from + - and ADD.
// Key attributes are not protected here: callers reject updates that touch
// them, using UpdatedAttributes().
Result<Item> ApplyUpdate(const UpdateExpression& update, const Item& item,
                         bool item_exists = true);

// The top-level attributes `update` writes or removes, sorted, without
// duplicates.
std::vector<std::string> UpdatedAttributes(const UpdateExpression& update);

// The paths `update` writes or removes, in the order written. Projecting
// the old or new item onto them gives ReturnValues UPDATED_OLD / UPDATED_NEW.
std::vector<Path> UpdatedPaths(const UpdateExpression& update);

// --- Projections -----------------------------------------------------------

// The parts of `item` named by the paths, nested as in `item`: "a.b[2].c"
// yields {a: {b: [{c: ...}]}}; list elements keep their order, so "l[3],
// l[1]" yields the two elements in list order. Paths that do not resolve
// are left out; the result may be empty.
// REQUIRES: no two paths overlap or conflict (Resolve() checks this).
Item ProjectItem(const Item& item, const std::vector<Path>& paths);
Item ProjectItem(const Item& item, const ProjectionExpression& projection);

}  // namespace dynarock::expr

#endif  // DYNAROCK_ENGINE_EXPR_EVALUATE_H_
