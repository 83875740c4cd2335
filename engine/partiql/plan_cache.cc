#include "engine/partiql/plan_cache.h"

#include <utility>

#include "engine/partiql/statement_parser.h"

namespace dynarock::partiql {

namespace {

// The marker bound to parameter `i` while planning a template: a string no
// statement is expected to hold. Should one hold it, binding would not
// reproduce the slow path's plan and the text is not cached.
AttributeValue Marker(size_t i) {
  std::string s(1, '\0');
  s += "\x01" "partiql-parameter#";
  s += std::to_string(i);
  return AttributeValue::S(std::move(s));
}

// Where a parameter goes in a bound plan: the value of `name` in the
// GetItem's key, or in the Query's ExpressionAttributeValues.
struct Slot {
  std::string name;
  size_t parameter = 0;
};

// The values of a read plan that parameters can stand in.
const Item* KeyOf(const Plan& plan) {
  return plan.kind == Plan::Kind::kGet ? &plan.get.key : nullptr;
}
const ExpressionAttributeValues* ValuesOf(const Plan& plan) {
  if (plan.kind != Plan::Kind::kQuery) return nullptr;
  const auto& v = plan.query.read.expression_attribute_values;
  return v ? &*v : nullptr;
}

bool SameScope(const Scope& a, const Scope& b) {
  return a.ns == b.ns && a.region == b.region && a.account == b.account;
}

bool SameRead(const ReadPageParameters& a, const ReadPageParameters& b) {
  // The planner sets none of the legacy members; they must stay unset.
  return a.index_name == b.index_name && a.filter_expression == b.filter_expression &&
         !a.legacy_filter && !b.legacy_filter && !a.conditional_operator &&
         !b.conditional_operator && a.projection_expression == b.projection_expression &&
         a.attributes_to_get == b.attributes_to_get && a.select == b.select &&
         a.expression_attribute_names == b.expression_attribute_names &&
         a.expression_attribute_values == b.expression_attribute_values &&
         a.consistent_read == b.consistent_read && a.limit == b.limit &&
         a.exclusive_start_key == b.exclusive_start_key &&
         a.encoded_items == b.encoded_items;
}

// Whether two read plans are the same request, member by member.
bool SamePlan(const Plan& a, const Plan& b) {
  if (a.kind != b.kind || a.table_name != b.table_name || a.returning != b.returning ||
      a.leaves != b.leaves) {
    return false;
  }
  if (a.kind == Plan::Kind::kGet) {
    return SameScope(a.get.scope, b.get.scope) && a.get.table_name == b.get.table_name &&
           a.get.key == b.get.key && a.get.consistent_read == b.get.consistent_read &&
           a.get.projection_expression == b.get.projection_expression &&
           a.get.attributes_to_get == b.get.attributes_to_get &&
           a.get.expression_attribute_names == b.get.expression_attribute_names;
  }
  if (a.kind == Plan::Kind::kQuery) {
    return SameScope(a.query.scope, b.query.scope) &&
           a.query.table_name == b.query.table_name &&
           a.query.key_condition_expression == b.query.key_condition_expression &&
           !a.query.key_conditions && !b.query.key_conditions &&
           a.query.scan_index_forward == b.query.scan_index_forward &&
           a.query.filter_may_name_key_attributes == b.query.filter_may_name_key_attributes &&
           SameRead(a.query.read, b.query.read);
  }
  return false;
}

}  // namespace

struct PlanCache::Template {
  // False for a text that cannot be cached: Bind misses at once and
  // Remember does not plan it again.
  bool usable = false;
  std::string table_name;
  std::optional<std::string> index_name;
  KeyDef key;  // the key the plan was made for
  size_t parameter_count = 0;
  Plan plan;  // without the slots' entries (DropSlots)
  std::vector<Slot> slots;
};

namespace {

// Sets `*plan` (a default Plan) to the template's plan with `parameters`
// and `options` in place. The template holds no entry for a slot (see
// DropSlots): copying a marker only to overwrite it would cost an
// allocation per parameter.
void BindTemplate(const Plan& without_slots, const std::vector<Slot>& slots,
                  const std::vector<AttributeValue>& parameters,
                  const PlanOptions& options, Plan* plan) {
  plan->kind = without_slots.kind;
  plan->table_name = without_slots.table_name;
  plan->leaves = without_slots.leaves;
  if (plan->kind == Plan::Kind::kGet) {
    plan->get = without_slots.get;
    for (const Slot& s : slots) plan->get.key.emplace(s.name, parameters[s.parameter]);
  } else {
    plan->query = without_slots.query;
    for (const Slot& s : slots) {
      plan->query.read.expression_attribute_values->emplace(s.name,
                                                            parameters[s.parameter]);
    }
  }
  ApplyReadOptions(options, plan);
}

// Where each marker of `plan` stands; false unless every parameter stands
// exactly once as a whole value of the key or of the expression values.
bool FindSlots(const Plan& plan, size_t parameter_count, std::vector<Slot>* slots) {
  std::vector<int> seen(parameter_count, 0);
  auto visit = [&](const std::string& name, const AttributeValue& v) {
    for (size_t i = 0; i < parameter_count; ++i) {
      if (v == Marker(i)) {
        ++seen[i];
        slots->push_back(Slot{name, i});
      }
    }
  };
  if (const Item* key = KeyOf(plan)) {
    for (const auto& [name, v] : *key) visit(name, v);
  }
  if (const ExpressionAttributeValues* values = ValuesOf(plan)) {
    for (const auto& [name, v] : *values) visit(name, v);
  }
  for (int n : seen) {
    if (n != 1) return false;
  }
  return true;
}

// Removes the slots' entries from `plan`; BindTemplate adds them back.
void DropSlots(const std::vector<Slot>& slots, Plan* plan) {
  for (const Slot& s : slots) {
    if (plan->kind == Plan::Kind::kGet) {
      plan->get.key.erase(s.name);
    } else {
      plan->query.read.expression_attribute_values->erase(s.name);
    }
  }
}

}  // namespace

std::shared_ptr<const PlanCache::Template> PlanCache::Find(std::string_view text) const {
  ReaderMutexLock lock(&mu_);
  auto it = templates_.find(text);
  return it == templates_.end() ? nullptr : it->second;
}

bool PlanCache::Bind(std::string_view text, const std::vector<AttributeValue>& parameters,
                     const KeyLookup& keys, const PlanOptions& options, Plan* plan) const {
  std::shared_ptr<const Template> t = Find(text);
  if (t == nullptr || !t->usable || parameters.size() != t->parameter_count) {
    return false;
  }
  Result<KeyDef> key = keys(t->table_name, t->index_name);
  if (!key.ok() || *key != t->key) return false;
  BindTemplate(t->plan, t->slots, parameters, options, plan);
  return true;
}

void PlanCache::Remember(std::string_view text,
                         const std::vector<AttributeValue>& parameters,
                         const KeyLookup& keys, const PlanOptions& options,
                         const Plan& plan) {
  if (plan.kind != Plan::Kind::kGet && plan.kind != Plan::Kind::kQuery) return;
  // A text found uncacheable once is not planned again (a usable template
  // that missed, because the table's key changed, is replaced).
  if (std::shared_ptr<const Template> existing = Find(text);
      existing != nullptr && !existing->usable) {
    return;
  }
  auto t = std::make_shared<Template>();
  t->parameter_count = parameters.size();
  [&] {
    // Set literals look at their members' types: never cached.
    if (text.find("<<") != std::string_view::npos) return;
    std::vector<AttributeValue> markers;
    markers.reserve(parameters.size());
    for (size_t i = 0; i < parameters.size(); ++i) markers.push_back(Marker(i));
    Result<Statement> statement = Parse(text, markers);
    if (!statement.ok() || statement->kind != Statement::Kind::kSelect) return;
    Result<KeyDef> key = keys(statement->table_name, statement->index_name);
    if (!key.ok()) return;
    Result<Plan> with_markers = PlanStatement(*statement, keys, PlanOptions{});
    if (!with_markers.ok()) return;
    std::vector<Slot> slots;
    if (!FindSlots(*with_markers, parameters.size(), &slots)) return;
    DropSlots(slots, &*with_markers);
    Plan bound;
    BindTemplate(*with_markers, slots, parameters, options, &bound);
    if (!SamePlan(bound, plan)) return;
    t->usable = true;
    t->table_name = statement->table_name;
    t->index_name = statement->index_name;
    t->key = std::move(*key);
    t->plan = std::move(*with_markers);
    t->slots = std::move(slots);
  }();
  WriterMutexLock lock(&mu_);
  if (templates_.size() >= kMaxEntries) templates_.clear();
  templates_[std::string(text)] = std::move(t);
}

size_t PlanCache::size() const {
  ReaderMutexLock lock(&mu_);
  return templates_.size();
}

}  // namespace dynarock::partiql
