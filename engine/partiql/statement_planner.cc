#include "engine/partiql/statement_planner.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/expr/messages.h"
#include "engine/keys/key_codec.h"
#include "engine/partiql/expression_writer.h"
#include "engine/partiql/statement_parser.h"

namespace dynarock::partiql {

namespace {

// The top-level conjuncts of a WHERE clause (one for a non-AND condition).
std::vector<const Condition*> Conjuncts(const Condition* where) {
  std::vector<const Condition*> out;
  if (where == nullptr) return out;
  if (where->kind == Condition::Kind::kAnd) {
    for (const auto& c : where->children) out.push_back(c.get());
  } else {
    out.push_back(where);
  }
  return out;
}

bool IsAttribute(const Operand& o, const std::string& name) {
  return o.kind == Operand::Kind::kPath && o.path.size() == 1 &&
         !o.path[0].index && o.path[0].name == name;
}

// `name = value` (either way round): the value, or null.
const AttributeValue* EqualityOn(const Condition& c, const std::string& name) {
  if (c.kind != Condition::Kind::kCompare || c.op != "=") return nullptr;
  if (IsAttribute(c.operands[0], name) &&
      c.operands[1].kind == Operand::Kind::kValue) {
    return &c.operands[1].value;
  }
  if (IsAttribute(c.operands[1], name) &&
      c.operands[0].kind == Operand::Kind::kValue) {
    return &c.operands[0].value;
  }
  return nullptr;
}

// Whether `c` can be a sort-key condition of a Query on `name`.
bool IsSortKeyCondition(const Condition& c, const std::string& name) {
  switch (c.kind) {
    case Condition::Kind::kCompare:
      return c.op != "<>" && IsAttribute(c.operands[0], name) &&
             c.operands[1].kind == Operand::Kind::kValue;
    case Condition::Kind::kBetween:
      return IsAttribute(c.operands[0], name) &&
             c.operands[1].kind == Operand::Kind::kValue &&
             c.operands[2].kind == Operand::Kind::kValue;
    case Condition::Kind::kFunction:
      return c.op == "begins_with" && IsAttribute(c.operands[0], name) &&
             c.operands[1].kind == Operand::Kind::kValue;
    default:
      return false;
  }
}

// The full primary key from the WHERE's top-level equalities, and the
// conjuncts left over.
struct KeyedWhere {
  Item key;
  std::vector<const Condition*> rest;
};
Result<KeyedWhere> FullKey(const Condition* where, const KeyDef& key) {
  KeyedWhere out;
  const Condition* hash = nullptr;
  const Condition* range = nullptr;
  for (const Condition* c : Conjuncts(where)) {
    if (hash == nullptr && EqualityOn(*c, key.hash_name) != nullptr) {
      hash = c;
    } else if (key.range_name && range == nullptr &&
               EqualityOn(*c, *key.range_name) != nullptr) {
      range = c;
    } else {
      out.rest.push_back(c);
    }
  }
  if (hash == nullptr || (key.range_name && range == nullptr)) {
    return Status::Validation(std::string(kNeedsFullKey));
  }
  out.key[key.hash_name] = *EqualityOn(*hash, key.hash_name);
  if (range != nullptr) out.key[*key.range_name] = *EqualityOn(*range, *key.range_name);
  return out;
}

// The values `c` gives the partition key `name`: `name = v` (either way
// round) or `name IN [v, ...]` of values; empty for any other condition.
std::vector<const AttributeValue*> KeyValues(const Condition& c, const std::string& name) {
  std::vector<const AttributeValue*> out;
  if (const AttributeValue* v = EqualityOn(c, name)) {
    out.push_back(v);
  } else if (c.kind == Condition::Kind::kIn && IsAttribute(c.operands[0], name)) {
    for (size_t i = 1; i < c.operands.size(); ++i) {
      if (c.operands[i].kind != Operand::Kind::kValue) return {};
      out.push_back(&c.operands[i].value);
    }
  }
  return out;
}

// One partition-key value of a multi-partition SELECT and the conjuncts
// its items must also meet.
struct Branch {
  const AttributeValue* value = nullptr;
  std::vector<const Condition*> conjuncts;
};

// `conjuncts` without the one at `skip`, followed by `extra`.
std::vector<const Condition*> Without(const std::vector<const Condition*>& conjuncts,
                                      size_t skip,
                                      const std::vector<const Condition*>& extra = {}) {
  std::vector<const Condition*> out;
  for (size_t i = 0; i < conjuncts.size(); ++i) {
    if (i != skip) out.push_back(conjuncts[i]);
  }
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

// The branches of a WHERE that gives the partition key several values: a
// top-level conjunct `pk IN [...]`, or a top-level conjunct (or the whole
// WHERE) that is an OR whose every branch has a conjunct `pk = v` or `pk IN
// [...]`. Empty when the WHERE is not of that form (then it is a Scan).
std::vector<Branch> PartitionBranches(const Condition* where, const std::string& name) {
  const std::vector<const Condition*> top = Conjuncts(where);
  for (size_t j = 0; j < top.size(); ++j) {
    std::vector<Branch> out;
    const std::vector<const AttributeValue*> values = KeyValues(*top[j], name);
    if (!values.empty()) {
      const std::vector<const Condition*> rest = Without(top, j);
      for (const AttributeValue* v : values) out.push_back(Branch{v, rest});
      return out;
    }
    if (top[j]->kind != Condition::Kind::kOr) continue;
    bool every = true;
    for (const auto& child : top[j]->children) {
      const std::vector<const Condition*> inner = Conjuncts(child.get());
      bool found = false;
      for (size_t k = 0; k < inner.size() && !found; ++k) {
        const std::vector<const AttributeValue*> branch_values = KeyValues(*inner[k], name);
        if (branch_values.empty()) continue;
        found = true;
        const std::vector<const Condition*> rest = Without(inner, k, Without(top, j));
        for (const AttributeValue* v : branch_values) out.push_back(Branch{v, rest});
      }
      if (!found) {
        every = false;
        break;
      }
    }
    if (every) return out;
  }
  return {};
}

std::string OrderedBytes(const AttributeValue& v) {
  std::string out;
  keys::AppendOrdered(v, &out);
  return out;
}

// How ORDER BY asks for the results: partitions in descending key order,
// items of a partition in descending sort-key order. Errors: DynamoDB's
// ORDER BY messages.
struct Ordering {
  bool partitions_descending = false;
  bool descending = false;
};
Result<Ordering> OrderingOf(const Statement& s, const KeyDef& key, bool keyed) {
  Ordering out;
  if (s.order_by.empty()) return out;
  if (!keyed) {
    return Status::Validation(
        "Must have WHERE clause in the statement when using ORDER BY clause.");
  }
  bool hash_seen = false;
  bool range_seen = false;
  for (const Statement::OrderKey& k : s.order_by) {
    const bool single = k.path.size() == 1 && !k.path[0].index;
    if (single && k.path[0].name == key.hash_name && !hash_seen) {
      hash_seen = true;
      out.partitions_descending = k.descending;
    } else if (single && key.range_name && k.path[0].name == *key.range_name &&
               !range_seen) {
      range_seen = true;
      out.descending = k.descending;
    } else {
      return Status::Validation(
          "Order by is only supported on the key attributes of the table or index");
    }
  }
  return out;
}

// One Query of a partition, given the conjunctions its items must meet (one
// of them). With one conjunction, its first sort-key condition completes the
// key condition and the others are the filter; with several, the filter is
// their OR. None: every item of the partition.
QueryRequest PartitionQuery(const Statement& s, const KeyDef& key,
                            const AttributeValue& value,
                            const std::vector<std::vector<const Condition*>>& branches,
                            bool descending) {
  ExpressionWriter r;
  QueryRequest q;
  q.table_name = s.table_name;
  std::string kc = r.Name(key.hash_name) + " = " + r.Value(value);
  std::string filter;
  if (branches.size() == 1) {
    std::vector<const Condition*> rest;
    bool range_found = false;
    for (const Condition* c : branches[0]) {
      if (!range_found && key.range_name && IsSortKeyCondition(*c, *key.range_name)) {
        range_found = true;
        kc += " AND " + r.ConditionText(*c);
      } else {
        rest.push_back(c);
      }
    }
    filter = r.Conjunction(rest);
  } else if (branches.size() > 1) {
    filter = r.Disjunction(branches);
  }
  q.key_condition_expression = std::move(kc);
  q.scan_index_forward = !descending;
  q.filter_may_name_key_attributes = true;
  q.read.index_name = s.index_name;
  if (!filter.empty()) q.read.filter_expression = std::move(filter);
  q.read.projection_expression = r.ProjectionText(s);
  q.read.expression_attribute_names = r.names();
  q.read.expression_attribute_values = r.values();
  return q;
}

// A SELECT over several partition-key values: one Query per distinct value.
// A value named by several OR branches is one Query whose filter is the OR
// of the branches' conditions, so no item is returned twice.
Result<Plan> PlanMultiQuery(const Statement& s, const KeyDef& key,
                            std::vector<Branch> branches, const PlanOptions& o) {
  if (branches.size() > kMaxPartitionKeyValues) {
    return Status::Validation(
        "The IN operator accepts at most 50 values of the partition key attribute");
  }
  for (const Branch& b : branches) {
    if (b.value->type() != key.hash_type) return expr::msg::KeyTypeMismatch();
  }
  DR_ASSIGN_OR_RETURN(Ordering ordering, OrderingOf(s, key, true));
  std::vector<std::pair<std::string, size_t>> order;  // (key bytes, branch)
  order.reserve(branches.size());
  for (size_t i = 0; i < branches.size(); ++i) {
    order.emplace_back(OrderedBytes(*branches[i].value), i);
  }
  std::stable_sort(order.begin(), order.end(), [&](const auto& a, const auto& b) {
    return ordering.partitions_descending ? a.first > b.first : a.first < b.first;
  });
  Plan plan;
  plan.kind = Plan::Kind::kMultiQuery;
  plan.table_name = s.table_name;
  plan.partition_key_name = key.hash_name;
  for (size_t i = 0; i < order.size();) {
    // The branches of one value: [i, end).
    size_t end = i + 1;
    while (end < order.size() && order[end].first == order[i].first) ++end;
    std::vector<std::vector<const Condition*>> group;
    bool unconditional = false;
    for (size_t j = i; j < end; ++j) {
      const std::vector<const Condition*>& c = branches[order[j].second].conjuncts;
      if (c.empty()) unconditional = true;
      if (std::find(group.begin(), group.end(), c) == group.end()) group.push_back(c);
    }
    if (unconditional) group.clear();
    const AttributeValue& value = *branches[order[i].second].value;
    Plan::Partition partition{value,
                              PartitionQuery(s, key, value, group, ordering.descending)};
    plan.partitions.push_back(std::move(partition));
    i = end;
  }
  ApplyReadOptions(o, &plan);
  return plan;
}

// The rest of a Query or Scan plan's read (`read`, in `plan`): the index,
// the conjuncts left out of the key condition as the filter, the
// projection, the placeholders `r` rendered, and the request's options.
void FinishRead(const Statement& s, const std::vector<const Condition*>& rest, ExpressionWriter* r,
                ReadPageParameters* read, const PlanOptions& o, Plan* plan) {
  read->index_name = s.index_name;
  if (!rest.empty()) read->filter_expression = r->Conjunction(rest);
  read->projection_expression = r->ProjectionText(s);
  read->expression_attribute_names = r->names();
  read->expression_attribute_values = r->values();
  ApplyReadOptions(o, plan);
}

// The read of a SELECT on a GSI with a multi-attribute key (several HASH
// or RANGE attributes). A Query when the WHERE's top-level conjuncts give
// every partition-key attribute an equality; its key condition takes, of
// the sort-key attributes in KeySchema order, the equalities of a leading
// run and then at most one range condition on the next attribute, as
// DynamoDB's Query rules for such keys; the other conjuncts are the filter
// (one naming a key attribute is the engine's ValidationException, as in a
// Query: DynamoDB does not document PartiQL on such keys, so the Query
// API's rule stands, unlike for single-attribute keys). Otherwise a Scan of
// the index with the WHERE as the filter; IN and OR over partition-key
// values scan too. ORDER BY may name key attributes
// (two at most, as for any table: the parser's bound); its sort-key
// attributes must all go one way (the index's order or its reverse).
Result<Plan> PlanMultiAttributeRead(const Statement& s, const KeyDef& key,
                                    const PlanOptions& o) {
  std::vector<const Condition*> conjuncts = Conjuncts(s.where.get());
  std::vector<bool> used(conjuncts.size(), false);
  // The first unused conjunct that `fits`, marked used; null if none.
  auto take = [&](auto fits) -> const Condition* {
    for (size_t i = 0; i < conjuncts.size(); ++i) {
      if (!used[i] && fits(*conjuncts[i])) {
        used[i] = true;
        return conjuncts[i];
      }
    }
    return nullptr;
  };
  std::vector<const Condition*> key_conditions;
  for (size_t i = 0; i < key.hash_count(); ++i) {
    const std::string& name = key.hash_name_at(i);
    const Condition* c =
        take([&](const Condition& x) { return EqualityOn(x, name) != nullptr; });
    if (c == nullptr) break;
    key_conditions.push_back(c);
  }
  const bool keyed = key_conditions.size() == key.hash_count();
  if (keyed) {
    for (size_t i = 0; i < key.range_count(); ++i) {
      const std::string& name = key.range_name_at(i);
      if (const Condition* eq =
              take([&](const Condition& x) { return EqualityOn(x, name) != nullptr; })) {
        key_conditions.push_back(eq);
        continue;
      }
      if (const Condition* range =
              take([&](const Condition& x) { return IsSortKeyCondition(x, name); })) {
        key_conditions.push_back(range);
      }
      break;
    }
  }
  Ordering ordering;
  if (!s.order_by.empty()) {
    if (!keyed) {
      return Status::Validation(
          "Must have WHERE clause in the statement when using ORDER BY clause.");
    }
    std::optional<bool> descending;
    std::set<std::string, std::less<>> seen;
    for (const Statement::OrderKey& k : s.order_by) {
      const bool single = k.path.size() == 1 && !k.path[0].index;
      const std::string* name = single ? &k.path[0].name : nullptr;
      bool is_hash = false;
      bool is_range = false;
      for (size_t i = 0; name != nullptr && i < key.hash_count(); ++i) {
        is_hash = is_hash || key.hash_name_at(i) == *name;
      }
      for (size_t i = 0; name != nullptr && i < key.range_count(); ++i) {
        is_range = is_range || key.range_name_at(i) == *name;
      }
      if ((!is_hash && !is_range) || !seen.insert(*name).second ||
          (is_range && descending && *descending != k.descending)) {
        return Status::Validation(
            "Order by is only supported on the key attributes of the table or index");
      }
      if (is_range) descending = k.descending;
    }
    ordering.descending = descending.value_or(false);
  }
  Plan plan;
  plan.table_name = s.table_name;
  ExpressionWriter r;
  std::vector<const Condition*> rest;
  ReadPageParameters* read = nullptr;
  if (keyed) {
    for (size_t i = 0; i < conjuncts.size(); ++i) {
      if (!used[i]) rest.push_back(conjuncts[i]);
    }
    plan.kind = Plan::Kind::kQuery;
    QueryRequest& q = plan.query;
    q.table_name = s.table_name;
    std::string kc;
    for (const Condition* c : key_conditions) {
      if (!kc.empty()) kc += " AND ";
      kc += r.ConditionText(*c);
    }
    q.key_condition_expression = std::move(kc);
    q.scan_index_forward = !ordering.descending;
    read = &q.read;
  } else {
    rest = std::move(conjuncts);
    plan.kind = Plan::Kind::kScan;
    plan.scan.table_name = s.table_name;
    read = &plan.scan.read;
  }
  FinishRead(s, rest, &r, read, o, &plan);
  return plan;
}

// The read a SELECT plans into, without its leaves.
Result<Plan> PlanRead(const Statement& s, const KeyDef& key, const PlanOptions& o) {
  if (key.multi_attribute()) return PlanMultiAttributeRead(s, key, o);
  Plan plan;
  plan.table_name = s.table_name;
  ExpressionWriter r;
  std::vector<const Condition*> rest;
  const Condition* hash = nullptr;
  const Condition* range = nullptr;
  for (const Condition* c : Conjuncts(s.where.get())) {
    if (hash == nullptr && EqualityOn(*c, key.hash_name) != nullptr) {
      hash = c;
    } else if (key.range_name && range == nullptr &&
               IsSortKeyCondition(*c, *key.range_name)) {
      range = c;
    } else {
      rest.push_back(c);
    }
  }
  if (hash == nullptr && s.where != nullptr) {
    std::vector<Branch> branches = PartitionBranches(s.where.get(), key.hash_name);
    if (!branches.empty()) return PlanMultiQuery(s, key, std::move(branches), o);
  }
  DR_ASSIGN_OR_RETURN(Ordering ordering, OrderingOf(s, key, hash != nullptr));
  const bool full_key_only =
      hash != nullptr && rest.empty() && !s.index_name &&
      (!key.range_name || (range != nullptr && EqualityOn(*range, *key.range_name)));
  if (full_key_only) {
    plan.kind = Plan::Kind::kGet;
    GetItemRequest& g = plan.get;
    g.table_name = s.table_name;
    g.key[key.hash_name] = *EqualityOn(*hash, key.hash_name);
    if (range != nullptr) g.key[*key.range_name] = *EqualityOn(*range, *key.range_name);
    g.projection_expression = r.ProjectionText(s);
    g.expression_attribute_names = r.names();
    ApplyReadOptions(o, &plan);
    return plan;
  }
  ReadPageParameters* read = nullptr;
  if (hash != nullptr) {
    plan.kind = Plan::Kind::kQuery;
    QueryRequest& q = plan.query;
    q.table_name = s.table_name;
    std::string kc = r.Name(key.hash_name);
    kc += " = ";
    kc += r.Value(*EqualityOn(*hash, key.hash_name));
    if (range != nullptr) kc += " AND " + r.ConditionText(*range);
    q.key_condition_expression = std::move(kc);
    q.scan_index_forward = !ordering.descending;
    q.filter_may_name_key_attributes = true;
    read = &q.read;
  } else {
    plan.kind = Plan::Kind::kScan;
    plan.scan.table_name = s.table_name;
    read = &plan.scan.read;
    if (range != nullptr) rest.insert(rest.begin(), range);
  }
  FinishRead(s, rest, &r, read, o, &plan);
  return plan;
}

// The leaves of a SELECT's projection (Plan::leaves): none when every path
// is a top-level name. Refuses two paths of one name, as DynamoDB does
// (also two equal top-level names: `SELECT a, a`).
Result<std::vector<Plan::Leaf>> LeavesOf(const std::vector<Path>& projection) {
  std::vector<Plan::Leaf> leaves;
  std::set<std::string, std::less<>> names;
  bool nested = false;
  for (const Path& p : projection) {
    std::string name = ProjectedName(p);
    if (!names.insert(name).second) {
      return Status::Validation("Duplicate identifiers in select clause: " + name);
    }
    nested = nested || p.size() > 1;
    leaves.push_back(Plan::Leaf{std::move(name), p});
  }
  if (!nested) return std::vector<Plan::Leaf>{};
  // A list index becomes its rank among the distinct indexes projected from
  // the same list: those of the paths that share the prefix before it.
  for (size_t l = 0; l < leaves.size(); ++l) {
    const Path& written = projection[l];
    for (size_t i = 0; i < written.size(); ++i) {
      if (!written[i].index) continue;
      std::set<int64_t> smaller;
      for (const Path& other : projection) {
        if (other.size() > i && other[i].index && *other[i].index < *written[i].index &&
            std::equal(written.begin(), written.begin() + static_cast<std::ptrdiff_t>(i),
                       other.begin())) {
          smaller.insert(*other[i].index);
        }
      }
      leaves[l].path[i].index = static_cast<int64_t>(smaller.size());
    }
  }
  return leaves;
}

Result<Plan> PlanSelect(const Statement& s, const KeyLookup& keys,
                        const PlanOptions& o) {
  DR_ASSIGN_OR_RETURN(KeyDef key, keys(s.table_name, s.index_name));
  DR_ASSIGN_OR_RETURN(std::vector<Plan::Leaf> leaves, LeavesOf(s.projection));
  DR_ASSIGN_OR_RETURN(Plan plan, PlanRead(s, key, o));
  plan.leaves = std::move(leaves);
  return plan;
}

// attribute_exists(pk) AND the rest: the item must exist and match.
std::string ExistingItemCondition(const KeyDef& key,
                                  const std::vector<const Condition*>& rest,
                                  ExpressionWriter* r) {
  std::string out = "attribute_exists(" + r->Name(key.hash_name) + ")";
  if (!rest.empty()) out += " AND (" + r->Conjunction(rest) + ")";
  return out;
}

std::string_view ReturningText(Returning returning) {
  switch (returning) {
    case Returning::kAllOld:
      return "ALL OLD";
    case Returning::kModifiedOld:
      return "MODIFIED OLD";
    case Returning::kAllNew:
      return "ALL NEW";
    case Returning::kModifiedNew:
      return "MODIFIED NEW";
    case Returning::kNone:
      break;
  }
  return "";
}

ReturnValues ReturnValuesOf(Returning returning) {
  switch (returning) {
    case Returning::kNone:
      return ReturnValues::kNone;
    case Returning::kAllOld:
      return ReturnValues::kAllOld;
    case Returning::kModifiedOld:
      return ReturnValues::kUpdatedOld;
    case Returning::kAllNew:
      return ReturnValues::kAllNew;
    case Returning::kModifiedNew:
      return ReturnValues::kUpdatedNew;
  }
  return ReturnValues::kNone;
}

}  // namespace

void ApplyReadOptions(const PlanOptions& o, Plan* plan) {
  switch (plan->kind) {
    case Plan::Kind::kGet:
      plan->get.scope = o.scope;
      plan->get.consistent_read = o.consistent_read;
      return;
    case Plan::Kind::kMultiQuery:
      for (Plan::Partition& p : plan->partitions) {
        p.query.scope = o.scope;
        p.query.read.consistent_read = o.consistent_read;
      }
      plan->limit = o.limit;
      plan->exclusive_start_key = o.exclusive_start_key;
      return;
    case Plan::Kind::kQuery:
    case Plan::Kind::kScan: {
      ReadPageParameters& read =
          plan->kind == Plan::Kind::kQuery ? plan->query.read : plan->scan.read;
      (plan->kind == Plan::Kind::kQuery ? plan->query.scope : plan->scan.scope) =
          o.scope;
      read.consistent_read = o.consistent_read;
      read.limit = o.limit;
      read.exclusive_start_key = o.exclusive_start_key;
      return;
    }
    default:
      return;
  }
}

std::string ProjectedName(const Path& path) {
  std::string name;
  for (const PathElement& e : path) {
    if (e.index) {
      name += "[" + std::to_string(*e.index) + "]";
    } else {
      name = e.name;
    }
  }
  return name;
}

Result<Plan> PlanStatement(const Statement& s, const KeyLookup& keys,
                           const PlanOptions& o) {
  if (s.kind == Statement::Kind::kSelect) return PlanSelect(s, keys, o);
  if (s.index_name) {
    return Status::Validation("This operation is not supported on an index");
  }
  DR_ASSIGN_OR_RETURN(KeyDef key, keys(s.table_name, std::nullopt));
  Plan plan;
  plan.table_name = s.table_name;
  ExpressionWriter r;
  WriteCondition condition;
  condition.return_values_on_condition_check_failure =
      o.return_values_on_condition_check_failure;
  switch (s.kind) {
    case Statement::Kind::kInsert: {
      // DynamoDB's PartiQL checks the item's key attributes itself, in its
      // own words, before the PutItem's checks.
      for (size_t i = 0; i < 1 + (key.range_name ? 1 : 0); ++i) {
        const std::string& name = i == 0 ? key.hash_name : *key.range_name;
        auto it = s.item.find(name);
        if (it == s.item.end()) {
          return Status::Validation(std::string(kInsertKeyMessagePrefix) +
                                    " should be present in the item: Key " + name);
        }
        if (it->second.type() != (i == 0 ? key.hash_type : key.range_type)) {
          return Status::Validation(std::string(kInsertKeyMessagePrefix) +
                                    "'s data type should match its data type in table's "
                                    "schema: Key " + name);
        }
      }
      plan.kind = Plan::Kind::kPut;
      PutItemRequest& p = plan.put;
      p.scope = o.scope;
      p.table_name = s.table_name;
      p.item = s.item;
      condition.condition_expression =
          "attribute_not_exists(" + r.Name(key.hash_name) + ")";
      p.condition = condition;
      p.expression_attribute_names = r.names();
      return plan;
    }
    case Statement::Kind::kUpdate: {
      DR_ASSIGN_OR_RETURN(KeyedWhere w, FullKey(s.where.get(), key));
      plan.kind = Plan::Kind::kUpdate;
      UpdateItemRequest& u = plan.update;
      u.scope = o.scope;
      u.table_name = s.table_name;
      u.key = std::move(w.key);
      u.update_expression = r.UpdateText(s);
      condition.condition_expression = ExistingItemCondition(key, w.rest, &r);
      u.condition = condition;
      u.return_values = ReturnValuesOf(s.returning);
      plan.returning = s.returning != Returning::kNone;
      u.expression_attribute_names = r.names();
      u.expression_attribute_values = r.values();
      return plan;
    }
    case Statement::Kind::kDelete: {
      if (s.returning != Returning::kNone && s.returning != Returning::kAllOld) {
        return Status::Validation("Invalid returning clause: RETURNING " +
                                  std::string(ReturningText(s.returning)) +
                                  " *. Only RETURNING ALL OLD * is allowed in DELETE "
                                  "statements.");
      }
      DR_ASSIGN_OR_RETURN(KeyedWhere w, FullKey(s.where.get(), key));
      plan.kind = Plan::Kind::kDelete;
      DeleteItemRequest& d = plan.del;
      d.scope = o.scope;
      d.table_name = s.table_name;
      d.key = std::move(w.key);
      if (!w.rest.empty()) condition.condition_expression = r.Conjunction(w.rest);
      d.condition = condition;
      d.return_values = ReturnValuesOf(s.returning);
      plan.returning = s.returning != Returning::kNone;
      d.expression_attribute_names = r.names();
      d.expression_attribute_values = r.values();
      return plan;
    }
    case Statement::Kind::kExists: {
      DR_ASSIGN_OR_RETURN(KeyedWhere w, FullKey(s.where.get(), key));
      plan.kind = Plan::Kind::kConditionCheck;
      TransactWriteAction& c = plan.check;
      c.kind = TransactWriteAction::Kind::kConditionCheck;
      c.table_name = s.table_name;
      c.key = std::move(w.key);
      c.condition_expression = ExistingItemCondition(key, w.rest, &r);
      c.return_values_on_condition_check_failure =
          o.return_values_on_condition_check_failure;
      c.expression_attribute_names = r.names();
      c.expression_attribute_values = r.values();
      return plan;
    }
    case Statement::Kind::kSelect:
      break;
  }
  return Status::Internal("unreachable statement kind");
}

TransactWriteAction ToTransactWrite(const Plan& plan) {
  TransactWriteAction a;
  a.table_name = plan.table_name;
  switch (plan.kind) {
    case Plan::Kind::kPut:
      a.kind = TransactWriteAction::Kind::kPut;
      a.item = plan.put.item;
      a.condition_expression = plan.put.condition.condition_expression;
      a.expression_attribute_names = plan.put.expression_attribute_names;
      a.expression_attribute_values = plan.put.expression_attribute_values;
      a.return_values_on_condition_check_failure =
          plan.put.condition.return_values_on_condition_check_failure;
      break;
    case Plan::Kind::kUpdate:
      a.kind = TransactWriteAction::Kind::kUpdate;
      a.key = plan.update.key;
      a.update_expression = plan.update.update_expression;
      a.condition_expression = plan.update.condition.condition_expression;
      a.expression_attribute_names = plan.update.expression_attribute_names;
      a.expression_attribute_values = plan.update.expression_attribute_values;
      a.return_values_on_condition_check_failure =
          plan.update.condition.return_values_on_condition_check_failure;
      break;
    case Plan::Kind::kDelete:
      a.kind = TransactWriteAction::Kind::kDelete;
      a.key = plan.del.key;
      a.condition_expression = plan.del.condition.condition_expression;
      a.expression_attribute_names = plan.del.expression_attribute_names;
      a.expression_attribute_values = plan.del.expression_attribute_values;
      a.return_values_on_condition_check_failure =
          plan.del.condition.return_values_on_condition_check_failure;
      break;
    default:
      a = plan.check;
      break;
  }
  return a;
}

}  // namespace dynarock::partiql
