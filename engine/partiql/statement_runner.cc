#include "engine/partiql/statement_runner.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/expr/ast.h"
#include "engine/partiql/statement_parser.h"
#include "engine/schema/arns.h"
#include "engine/plan/batch_requests.h"

namespace dynarock {

namespace {

using partiql::Plan;

Status DuplicateItem() {
  return Status(ErrorCode::kDuplicateItem, std::string(kDuplicateItemMessage));
}

// Sets `*plan` (a default Plan) to the plan of one statement: bound from
// `cache` when it holds the text, else parsed and planned (and offered to
// the cache).
Status PlanText(const std::string& text, const std::vector<AttributeValue>& parameters,
                const partiql::KeyLookup& keys, partiql::PlanCache& cache,
                const partiql::PlanOptions& options, bool exists_allowed, Plan* plan) {
  if (cache.Bind(text, parameters, keys, options, plan)) return Status::OK();
  DR_ASSIGN_OR_RETURN(partiql::Statement statement,
                      partiql::Parse(text, parameters));
  if (statement.kind == partiql::Statement::Kind::kExists && !exists_allowed) {
    return partiql::Malformed(
        "EXISTS is only supported in ExecuteTransaction statements");
  }
  if (LooksLikeArn(statement.table_name)) {
    // FROM "arn:aws:dynamodb:<region>:<account>:table/<name>" (a table ARN
    // names the table in PartiQL too). Such a text is never a usable cached
    // plan: the cache looks its table up by the ARN and finds none.
    static constexpr std::string_view kActions[] = {"PartiQLSelect", "PartiQLInsert",
                                                    "PartiQLUpdate", "PartiQLDelete",
                                                    "PartiQLSelect"};
    DR_ASSIGN_OR_RETURN(statement.table_name,
                        TableNameOfArn(options.scope, statement.table_name,
                                       kActions[static_cast<int>(statement.kind)]));
  }
  DR_ASSIGN_OR_RETURN(*plan, partiql::PlanStatement(statement, keys, options));
  cache.Remember(text, parameters, keys, options, *plan);
  return Status::OK();
}

// Adds `c` to the per-table list, merging with the same table's entry.
void AddCapacity(const ConsumedCapacity& c, std::vector<ConsumedCapacity>* out) {
  for (ConsumedCapacity& existing : *out) {
    if (existing.table_name == c.table_name) {
      existing.Merge(c);
      return;
    }
  }
  out->push_back(c);
}

void AddCharges(std::vector<CapacityCharge> charges,
                std::vector<CapacityCharge>* out) {
  for (CapacityCharge& c : charges) out->push_back(std::move(c));
}

// A page of a MultiQuery runs the Queries of at most this many partitions
// (DynamoDB: "Results are returned in pages of up to 10 items. If the IN
// list contains more values, you must use the NextToken").
constexpr size_t kPartitionsPerPage = 10;

Status InvalidStartKey() {
  return Status::Validation("The provided starting key is invalid");
}

// Runs a page of a MultiQuery: the partitions' Queries in order, from where
// the NextToken points, while the Limit (items read, over all of them) lasts
// and no Query stops early. The capacity is the sum of the Queries'.
//
// The NextToken (last_evaluated_key) is where the next page starts: the
// LastEvaluatedKey of the Query that stopped, which names its partition; or,
// when the next page starts a partition afresh, that partition's key
// attribute alone. A read whose keys are only the partition key (a table
// without sort key) never needs the former: its partitions hold one item,
// so a Query that stopped on it has finished its partition.
Result<ExecuteStatementResult> RunMultiQuery(Engine& engine, const Plan& plan) {
  const std::vector<Plan::Partition>& parts = plan.partitions;
  size_t first = 0;
  std::optional<Item> start;
  if (plan.exclusive_start_key) {
    const Item& token = *plan.exclusive_start_key;
    auto it = token.find(plan.partition_key_name);
    if (it == token.end()) return InvalidStartKey();
    while (first < parts.size() && !(parts[first].value == it->second)) ++first;
    if (first == parts.size()) return InvalidStartKey();
    if (token.size() > 1) start = token;
  }
  auto start_of = [&](size_t i) {
    return Item{{plan.partition_key_name, parts[i].value}};
  };
  ExecuteStatementResult out;
  std::optional<int64_t> remaining = plan.limit;
  size_t i = first;
  for (; i < parts.size() && i - first < kPartitionsPerPage; ++i) {
    QueryRequest q = parts[i].query;
    if (i == first) q.read.exclusive_start_key = std::move(start);
    q.read.limit = remaining;
    DR_ASSIGN_OR_RETURN(ReadPageResult r, engine.Query(q));
    for (Item& item : r.items) out.items.push_back(std::move(item));
    if (i == first) {
      out.consumed_capacity = std::move(r.consumed_capacity);
    } else {
      out.consumed_capacity.Merge(r.consumed_capacity);
    }
    AddCharges(std::move(r.capacity_charges), &out.capacity_charges);
    if (remaining) *remaining -= r.scanned_count;
    if (r.last_evaluated_key && r.last_evaluated_key->size() > 1) {
      out.last_evaluated_key = std::move(r.last_evaluated_key);
      return out;
    }
    if (r.last_evaluated_key || (remaining && *remaining <= 0)) {
      ++i;
      break;
    }
  }
  if (i < parts.size()) out.last_evaluated_key = start_of(i);
  return out;
}

// The primary key of the item a batch statement's plan (a GetItem, or a
// write) reads or writes.
Result<Item> ItemKeyOf(const Plan& plan, const partiql::KeyLookup& keys) {
  switch (plan.kind) {
    case Plan::Kind::kGet:
      return plan.get.key;
    case Plan::Kind::kUpdate:
      return plan.update.key;
    case Plan::Kind::kDelete:
      return plan.del.key;
    case Plan::Kind::kPut: {
      DR_ASSIGN_OR_RETURN(KeyDef key, keys(plan.table_name, std::nullopt));
      Item out;
      for (const std::string* name : {&key.hash_name, key.range_name ? &*key.range_name : nullptr}) {
        if (name == nullptr) continue;
        if (auto it = plan.put.item.find(*name); it != plan.put.item.end()) {
          out.emplace(*name, it->second);
        }
      }
      return out;
    }
    default:
      return Item();
  }
}

// A batch names each item at most once, as BatchGetItem and BatchWriteItem
// do ("Provided list of item keys contains duplicates"); checked before any
// statement runs.
Status CheckNoItemTwice(const std::vector<Result<Plan>>& plans,
                        const partiql::KeyLookup& keys) {
  std::vector<std::pair<const std::string*, Item>> seen;
  for (const Result<Plan>& plan : plans) {
    if (!plan.ok()) continue;
    Result<Item> key = ItemKeyOf(*plan, keys);
    if (!key.ok()) continue;  // the statement reports it when it runs
    for (const auto& [table, other] : seen) {
      if (*table == plan->table_name && other == *key) return DuplicateItemKeys();
    }
    seen.emplace_back(&plan->table_name, std::move(*key));
  }
  return Status::OK();
}

// An error of the request a statement ran as, in PartiQL's words: the
// expression checks' messages ("Invalid FilterExpression: Incorrect operand
// type ...") name an expression the client never wrote, and DynamoDB's
// PartiQL answer is the detail alone.
Status InStatementWords(Status status) {
  if (status.code() != ErrorCode::kValidation) return status;
  for (expr::ExpressionKind kind :
       {expr::ExpressionKind::kCondition, expr::ExpressionKind::kFilter,
        expr::ExpressionKind::kKeyCondition, expr::ExpressionKind::kUpdate,
        expr::ExpressionKind::kProjection}) {
    const std::string prefix = "Invalid " + std::string(expr::ExpressionKindName(kind)) + ": ";
    if (status.message().starts_with(prefix)) {
      return Status::Validation(status.message().substr(prefix.size()));
    }
  }
  return status;
}

// Query's refusal of a consistent read of a GSI (engine/plan/
// query_requests.cc); statement_runner_test fails should the two drift.
constexpr std::string_view kQueryGsiConsistentRead =
    "Consistent reads are not supported on global secondary indexes";

// The index a read plan reads; null for the table (and for writes).
const std::optional<std::string>* IndexOf(const Plan& plan) {
  const std::optional<std::string>* index = nullptr;
  switch (plan.kind) {
    case Plan::Kind::kQuery:
      index = &plan.query.read.index_name;
      break;
    case Plan::Kind::kScan:
      index = &plan.scan.read.index_name;
      break;
    case Plan::Kind::kMultiQuery:
      index = &plan.partitions.front().query.read.index_name;
      break;
    default:
      return nullptr;
  }
  return index->has_value() ? index : nullptr;
}

// The value at `path` in `item`, moved out; nullopt when absent.
std::optional<AttributeValue> TakeAt(const partiql::Path& path, Item* item) {
  auto top = item->find(path.front().name);
  if (top == item->end()) return std::nullopt;
  AttributeValue* at = &top->second;
  for (size_t i = 1; i < path.size(); ++i) {
    const partiql::PathElement& step = path[i];
    if (step.index) {
      if (at->type() != AttrType::kL) return std::nullopt;
      AttributeValue::List& list = at->mutable_l();
      if (*step.index >= static_cast<int64_t>(list.size())) return std::nullopt;
      at = &list[static_cast<size_t>(*step.index)];
    } else {
      if (at->type() != AttrType::kM) return std::nullopt;
      AttributeValue::Map& map = at->mutable_m();
      auto it = map.find(step.name);
      if (it == map.end()) return std::nullopt;
      at = &it->second;
    }
  }
  return std::move(*at);
}

// A projected item (the engine's projection of the leaves' paths) as the
// statement's result: each projected value under its own name
// (Plan::leaves). The leaves' paths never overlap (the projection refuses
// that), so moving one value out leaves the others in place.
Item Unnest(const std::vector<Plan::Leaf>& leaves, Item item) {
  if (leaves.empty()) return item;
  Item out;
  for (const Plan::Leaf& leaf : leaves) {
    if (std::optional<AttributeValue> v = TakeAt(leaf.path, &item)) {
      out.emplace(leaf.name, std::move(*v));
    }
  }
  return out;
}

Result<ExecuteStatementResult> RunOperation(Engine& engine, const Plan& plan);

// Runs one planned statement: its operation, then (a SELECT of nested
// paths) the unnesting of each item.
Result<ExecuteStatementResult> RunPlan(Engine& engine, const Plan& plan) {
  if (plan.leaves.empty()) return RunOperation(engine, plan);
  DR_ASSIGN_OR_RETURN(ExecuteStatementResult out, RunOperation(engine, plan));
  for (Item& item : out.items) item = Unnest(plan.leaves, std::move(item));
  return out;
}

// Runs one planned statement through the engine's operation, without the
// unnesting of a nested projection.
Result<ExecuteStatementResult> RunOperation(Engine& engine, const Plan& plan) {
  ExecuteStatementResult out;
  switch (plan.kind) {
    case Plan::Kind::kMultiQuery:
      return RunMultiQuery(engine, plan);
    case Plan::Kind::kGet: {
      DR_ASSIGN_OR_RETURN(GetItemResult r, engine.GetItem(plan.get));
      if (r.item) out.items.push_back(std::move(*r.item));
      out.consumed_capacity = std::move(r.consumed_capacity);
      out.capacity_charges = std::move(r.capacity_charges);
      return out;
    }
    case Plan::Kind::kQuery:
    case Plan::Kind::kScan: {
      DR_ASSIGN_OR_RETURN(ReadPageResult r, plan.kind == Plan::Kind::kQuery
                                                ? engine.Query(plan.query)
                                                : engine.Scan(plan.scan));
      out.items = std::move(r.items);
      out.last_evaluated_key = std::move(r.last_evaluated_key);
      out.consumed_capacity = std::move(r.consumed_capacity);
      out.capacity_charges = std::move(r.capacity_charges);
      return out;
    }
    case Plan::Kind::kPut: {
      Result<PutItemResult> r = engine.PutItem(plan.put);
      if (!r.ok()) {
        if (r.status().code() == ErrorCode::kConditionalCheckFailed) {
          return DuplicateItem();
        }
        return r.status();
      }
      out.consumed_capacity = std::move(r->consumed_capacity);
      out.capacity_charges = std::move(r->capacity_charges);
      return out;
    }
    case Plan::Kind::kUpdate: {
      DR_ASSIGN_OR_RETURN(UpdateItemResult r, engine.UpdateItem(plan.update));
      if (plan.returning && r.attributes) out.items.push_back(std::move(*r.attributes));
      out.consumed_capacity = std::move(r.consumed_capacity);
      out.capacity_charges = std::move(r.capacity_charges);
      return out;
    }
    case Plan::Kind::kDelete: {
      DR_ASSIGN_OR_RETURN(DeleteItemResult r, engine.DeleteItem(plan.del));
      if (plan.returning && r.attributes) out.items.push_back(std::move(*r.attributes));
      out.consumed_capacity = std::move(r.consumed_capacity);
      out.capacity_charges = std::move(r.capacity_charges);
      return out;
    }
    case Plan::Kind::kConditionCheck:
      break;
  }
  return Status::Internal("unexpected PartiQL plan");
}

}  // namespace

Result<ExecuteStatementResult> RunExecuteStatement(
    Engine& engine, const partiql::KeyLookup& keys, partiql::PlanCache& cache,
    const ExecuteStatementRequest& req) {
  partiql::PlanOptions options;
  options.scope = req.scope;
  options.consistent_read = req.consistent_read;
  options.limit = req.limit;
  options.exclusive_start_key = req.exclusive_start_key;
  options.return_values_on_condition_check_failure =
      req.return_values_on_condition_check_failure;
  Plan plan;
  DR_RETURN_IF_ERROR(
      PlanText(req.statement, req.parameters, keys, cache, options, false, &plan));
  Result<ExecuteStatementResult> result = RunPlan(engine, plan);
  if (result.ok()) return result;
  // A consistent read of a GSI: PartiQL words the Query's refusal its own way.
  if (req.consistent_read && IndexOf(plan) != nullptr &&
      result.status().message() == kQueryGsiConsistentRead) {
    return Status::Validation(
        "Strongly consistent read is not supported on Global Secondary Indexes");
  }
  return InStatementWords(result.status());
}

Result<BatchExecuteStatementResult> RunBatchExecuteStatement(
    Engine& engine, const partiql::KeyLookup& keys, partiql::PlanCache& cache,
    const BatchExecuteStatementRequest& req) {
  // Plan every statement first: a batch is all reads or all writes.
  std::vector<Result<Plan>> plans;
  bool any_read = false;
  bool any_write = false;
  for (const BatchStatement& s : req.statements) {
    partiql::PlanOptions options;
    options.scope = req.scope;
    options.consistent_read = s.consistent_read;
    options.return_values_on_condition_check_failure =
        s.return_values_on_condition_check_failure;
    Result<Plan> plan = Plan();
    if (Status planned =
            PlanText(s.statement, s.parameters, keys, cache, options, false, &*plan);
        !planned.ok()) {
      plan = std::move(planned);
    }
    if (plan.ok()) {
      (plan->is_read() ? any_read : any_write) = true;
      if (plan->is_read() && plan->kind != Plan::Kind::kGet) {
        plan = Status::Validation(
            "Select statements within BatchExecuteStatement must specify the "
            "primary key in the where clause.");
      }
    }
    plans.push_back(std::move(plan));
  }
  if (any_read && any_write) {
    return Status::Validation(
        "Statements in a BatchExecuteStatement request must be all reads or "
        "all writes");
  }
  DR_RETURN_IF_ERROR(CheckNoItemTwice(plans, keys));
  BatchExecuteStatementResult out;
  for (size_t i = 0; i < plans.size(); ++i) {
    BatchStatementResponse response;
    if (!plans[i].ok()) {
      response.error = plans[i].status();
      out.responses.push_back(std::move(response));
      continue;
    }
    const Plan& plan = *plans[i];
    response.table_name = plan.table_name;
    Result<ExecuteStatementResult> r = RunPlan(engine, plan);
    if (!r.ok()) {
      response.error = InStatementWords(r.status());
    } else {
      // A read's item, or the item an UPDATE / DELETE RETURNING gave back
      // (none for an empty MODIFIED projection).
      if (!r->items.empty() && !r->items.front().empty()) {
        response.item = std::move(r->items.front());
      }
      AddCapacity(r->consumed_capacity, &out.consumed_capacity);
      AddCharges(std::move(r->capacity_charges), &out.capacity_charges);
    }
    out.responses.push_back(std::move(response));
  }
  return out;
}

Result<ExecuteTransactionResult> RunExecuteTransaction(
    Engine& engine, const partiql::KeyLookup& keys, partiql::PlanCache& cache,
    const ExecuteTransactionRequest& req) {
  std::vector<Plan> plans;
  bool any_read = false;
  bool any_write = false;
  for (const ParameterizedStatement& s : req.statements) {
    partiql::PlanOptions options;
    options.scope = req.scope;
    options.return_values_on_condition_check_failure =
        s.return_values_on_condition_check_failure;
    Plan plan;
    if (Status planned = PlanText(s.statement, s.parameters, keys, cache, options, true, &plan);
        !planned.ok()) {
      // An INSERT's missing or mistyped key attribute cancels the
      // transaction, that statement's reason a ValidationError, as DynamoDB
      // Local's PartiQL does; other planning errors refuse the request.
      if (planned.code() == ErrorCode::kValidation &&
          planned.message().starts_with(partiql::kInsertKeyMessagePrefix)) {
        std::vector<CancellationReason> reasons(req.statements.size());
        reasons[plans.size()].code = "ValidationError";
        reasons[plans.size()].message = planned.message();
        return Status::TransactionCanceled(std::move(reasons));
      }
      return planned;
    }
    // DynamoDB's words for the statements a transaction cannot run.
    const std::string where =
        "Validation failed in TransactStatements[" + std::to_string(plans.size()) + "]: ";
    if (plan.returning) {
      return Status::Validation(where +
                                "RETURNING clause is not supported in ExecuteTransaction.");
    }
    if (plan.is_read() && IndexOf(plan) != nullptr) {
      return Status::Validation(where +
                                "Reads on indices are not supported within transactions.");
    }
    if (plan.is_read()) {
      if (plan.kind != Plan::Kind::kGet) {
        return Status::Validation(
            where + "Select statements within ExecuteTransaction must specify the "
                    "primary key in the where clause.");
      }
      any_read = true;
    } else {
      any_write = true;
    }
    plans.push_back(std::move(plan));
  }
  if (any_read && any_write) {
    return Status::Validation(
        "Statements in an ExecuteTransaction request must be all reads or all "
        "writes");
  }
  ExecuteTransactionResult out;
  if (any_read) {
    TransactGetItemsRequest get;
    get.scope = req.scope;
    for (const Plan& plan : plans) {
      TransactGetAction a;
      a.table_name = plan.get.table_name;
      a.key = plan.get.key;
      a.projection_expression = plan.get.projection_expression;
      a.expression_attribute_names = plan.get.expression_attribute_names;
      get.actions.push_back(std::move(a));
    }
    DR_ASSIGN_OR_RETURN(TransactGetItemsResult r, engine.TransactGetItems(get));
    out.reads = true;
    out.responses = std::move(r.responses);
    for (size_t i = 0; i < out.responses.size() && i < plans.size(); ++i) {
      if (out.responses[i]) {
        *out.responses[i] = Unnest(plans[i].leaves, std::move(*out.responses[i]));
      }
    }
    out.consumed_capacity = std::move(r.consumed_capacity);
    out.capacity_charges = std::move(r.capacity_charges);
    return out;
  }
  TransactWriteItemsRequest write;
  write.scope = req.scope;
  write.client_request_token = req.client_request_token;
  for (const Plan& plan : plans) write.actions.push_back(partiql::ToTransactWrite(plan));
  Result<TransactWriteItemsResult> r = engine.TransactWriteItems(write);
  if (!r.ok()) {
    if (r.status().code() != ErrorCode::kTransactionCanceled) return r.status();
    // An INSERT whose item exists is DuplicateItem, not a failed condition.
    std::vector<CancellationReason> reasons = r.status().cancellation_reasons();
    for (size_t i = 0; i < reasons.size() && i < plans.size(); ++i) {
      if (plans[i].kind == Plan::Kind::kPut &&
          reasons[i].code == "ConditionalCheckFailed") {
        reasons[i].code = "DuplicateItem";
        reasons[i].message = std::string(kDuplicateItemMessage);
        reasons[i].item = nullptr;
      }
    }
    return Status::TransactionCanceled(std::move(reasons));
  }
  out.consumed_capacity = std::move(r->consumed_capacity);
  out.capacity_charges = std::move(r->capacity_charges);
  return out;
}

}  // namespace dynarock
