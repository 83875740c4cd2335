// engine/partiql/statement_planner.h
//
// The PartiQL planner: a parsed Statement -> the one engine request that
// runs it, written with the engine's own expression language (conditions,
// key conditions, projections and updates as expression text with
// ExpressionAttributeNames / Values), so the engine's expression machinery
// checks and evaluates every statement; nothing here evaluates anything.
//
//   SELECT, WHERE = exactly the full primary key (no index)  -> GetItem
//   SELECT, WHERE fixing the partition key (top-level AND)    -> Query: the
//     partition-key equality and one sort-key comparison, BETWEEN or
//     begins_with become the KeyConditionExpression, the rest the filter
//     (which may name key attributes: `sk IN [..]`, `sk <> v`, a second
//     range; QueryRequest::filter_may_name_key_attributes);
//     ORDER BY the sort key sets ScanIndexForward
//   SELECT, WHERE giving the partition key several values: a top-level
//     `pk IN [v, ...]`, or an OR each of whose branches fixes pk (`pk = v
//     [AND ...]`)                                            -> MultiQuery:
//     one Query per distinct value, each with its branch's sort-key
//     condition and filter; run in ascending key order (descending for
//     ORDER BY pk DESC) by the runner, which pages across them
//   SELECT, anything else                                    -> Scan + filter
//   INSERT   -> PutItem with attribute_not_exists(pk) (duplicate: the
//               executor reports DuplicateItemException)
//   UPDATE   -> UpdateItem; WHERE needs pk (and sk) equalities, the rest and
//               attribute_exists(pk) are the condition (a missing item fails)
//   DELETE   -> DeleteItem; the rest of WHERE is the condition
//   EXISTS   -> a ConditionCheck (ExecuteTransaction)
//
// Stateless; thread-safe.

#ifndef DYNAROCK_ENGINE_PARTIQL_STATEMENT_PLANNER_H_
#define DYNAROCK_ENGINE_PARTIQL_STATEMENT_PLANNER_H_

#include <functional>
#include <optional>
#include <string_view>

#include "engine/partiql/ast.h"
#include "engine/requests/item_requests.h"
#include "engine/requests/query_scan_requests.h"
#include "engine/requests/scope.h"
#include "engine/requests/transaction_requests.h"
#include "engine/requests/write_returns.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock::partiql {

// The key of `table` (of its index `index` when set). Errors: the engine's
// ResourceNotFound for the table, ValidationException for a missing index.
using KeyLookup = std::function<Result<KeyDef>(
    std::string_view table, std::optional<std::string_view> index)>;

// What the plan needs beyond the statement: the request's read options.
struct PlanOptions {
  Scope scope;
  bool consistent_read = false;
  std::optional<int64_t> limit;
  std::optional<Item> exclusive_start_key;
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};

// At most this many partition-key values in one SELECT (DynamoDB's limit
// for IN on a hash key; non-key IN lists are the expression limit of 100).
inline constexpr size_t kMaxPartitionKeyValues = 50;

struct Plan {
  enum class Kind : uint8_t {
    kGet, kQuery, kScan, kMultiQuery, kPut, kUpdate, kDelete, kConditionCheck
  };
  // kMultiQuery: one partition-key value and the Query that reads it.
  struct Partition {
    AttributeValue value;
    QueryRequest query;
  };
  Kind kind = Kind::kGet;
  std::string table_name;
  GetItemRequest get;
  QueryRequest query;
  ScanRequest scan;
  PutItemRequest put;          // INSERT: put.condition guards a duplicate
  UpdateItemRequest update;
  DeleteItemRequest del;
  TransactWriteAction check;   // EXISTS: kind kConditionCheck
  // kMultiQuery: the Queries in the order they run (distinct values), the
  // partition key's name (of the index for an index read), and the page's
  // Limit and start (the decoded NextToken), which the runner spreads over
  // the Queries; the Queries themselves carry neither.
  std::vector<Partition> partitions;
  std::string partition_key_name;
  std::optional<int64_t> limit;
  std::optional<Item> exclusive_start_key;
  // UPDATE / DELETE with RETURNING: the result's attributes are the items.
  bool returning = false;
  // SELECT projecting a nested path: where each projected value is in the
  // engine's projected item, and the name the result gives it. DynamoDB's
  // PartiQL returns `a.b` as {"b": ...}, not in the item's shape as
  // ProjectionExpression does; the runner moves each value to its name.
  // Empty when every projected path is a top-level attribute (the
  // projected item is then the result as it is).
  struct Leaf {
    std::string name;  // ProjectedName of the statement's path
    // The path in the projected item: as written, but each list index is
    // its rank among the indexes projected from that list, since the
    // projection keeps only the elements it names, in order.
    Path path;
    bool operator==(const Leaf&) const = default;
  };
  std::vector<Leaf> leaves;

  bool is_read() const {
    return kind == Kind::kGet || kind == Kind::kQuery || kind == Kind::kScan ||
           kind == Kind::kMultiQuery;
  }
};

// Plans `statement`. Errors: kValidation (DynamoDB's messages for a WHERE
// that does not give the full key, ORDER BY misuse, RETURNING misuse, two
// projected paths of one ProjectedName), and
// whatever `keys` returns.
Result<Plan> PlanStatement(const Statement& statement, const KeyLookup& keys,
                           const PlanOptions& options);

// The name DynamoDB's PartiQL gives the value of a projected path: its last
// attribute name followed by the list indexes after it (`a.b` -> "b",
// `a.b[1]` -> "b[1]", `a[0][2]` -> "a[0][2]", `a[0].c` -> "c"). Two
// projected paths of one name are refused ("Duplicate identifiers in select
// clause: <name>").
std::string ProjectedName(const Path& path);

// Sets `options`' scope and read options (ConsistentRead, Limit,
// ExclusiveStartKey) on the request of a read plan (on every Query of a
// MultiQuery, whose Limit and start are the plan's); nothing on a write plan.
void ApplyReadOptions(const PlanOptions& options, Plan* plan);

// The transaction action a write plan (Put, Update, Delete, ConditionCheck)
// stands for. REQUIRES: !plan.is_read().
TransactWriteAction ToTransactWrite(const Plan& plan);

// The start of both messages of an INSERT whose item lacks a key attribute
// ("Key attribute should be present in the item: Key <name>") or has it of
// another type ("Key attribute's data type should match its data type in
// table's schema: Key <name>").
inline constexpr std::string_view kInsertKeyMessagePrefix = "Key attribute";

// The message of a WHERE clause that does not fix the whole primary key.
inline constexpr std::string_view kNeedsFullKey =
    "Where clause does not contain a mandatory equality on all key attributes";

}  // namespace dynarock::partiql

#endif  // DYNAROCK_ENGINE_PARTIQL_STATEMENT_PLANNER_H_
