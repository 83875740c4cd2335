// ApplyUpdate() and friends (declared in evaluate.h): UpdateExpression
// semantics. The update is applied in two phases, as DynamoDB does: first
// every new value is computed from the item as it was, then all writes and
// removals are applied.

#include <algorithm>
#include <cassert>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/expr/evaluate.h"
#include "engine/expr/messages.h"

namespace dynarock::expr {

namespace {

// Computes a SET value from the old item.
Result<AttributeValue> SetValue(const Operand& o, const Item& item) {
  switch (o.kind) {
    case Operand::Kind::kPath: {
      const AttributeValue* v = FindPath(item, o.path);
      if (v == nullptr) return msg::MissingAttribute();
      return *v;
    }
    case Operand::Kind::kValue:
      return *o.value;
    case Operand::Kind::kPlus:
    case Operand::Kind::kMinus: {
      DR_ASSIGN_OR_RETURN(AttributeValue a, SetValue(o.args[0], item));
      DR_ASSIGN_OR_RETURN(AttributeValue b, SetValue(o.args[1], item));
      if (a.type() != AttrType::kN || b.type() != AttrType::kN) {
        return msg::IncorrectOperandType();
      }
      DR_ASSIGN_OR_RETURN(Number n, o.kind == Operand::Kind::kPlus
                                        ? Number::Add(a.n(), b.n())
                                        : Number::Subtract(a.n(), b.n()));
      return AttributeValue::N(std::move(n));
    }
    case Operand::Kind::kCall:
      if (o.function == Function::kIfNotExists) {
        const AttributeValue* v = FindPath(item, o.args[0].path);
        if (v != nullptr) return *v;
        return SetValue(o.args[1], item);
      }
      if (o.function == Function::kListAppend) {
        DR_ASSIGN_OR_RETURN(AttributeValue a, SetValue(o.args[0], item));
        DR_ASSIGN_OR_RETURN(AttributeValue b, SetValue(o.args[1], item));
        if (a.type() != AttrType::kL || b.type() != AttrType::kL) {
          return msg::IncorrectOperandType();
        }
        AttributeValue::List out = std::move(a.mutable_l());
        out.reserve(out.size() + b.l().size());
        for (AttributeValue& e : b.mutable_l()) out.push_back(std::move(e));
        return AttributeValue::L(std::move(out));
      }
      break;
  }
  assert(false && "unresolved or invalid update operand");
  return Status::Internal("invalid update operand");
}

bool SameSetType(AttrType a, AttrType b) {
  return a == b && (a == AttrType::kSS || a == AttrType::kNS ||
                    a == AttrType::kBS);
}

// Members of `a` followed by those of `b` that `a` lacks.
AttributeValue SetUnion(const AttributeValue& a, const AttributeValue& b) {
  if (a.type() == AttrType::kNS) {
    std::vector<Number> out = a.ns();
    for (const Number& n : b.ns()) {
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
    }
    return AttributeValue::NS(std::move(out));
  }
  // The views point into `a` and `b`, which stay put while `out` grows.
  std::set<std::string_view> seen(a.ss().begin(), a.ss().end());
  std::vector<std::string> out = a.ss();
  for (const std::string& s : b.ss()) {
    if (seen.insert(s).second) out.push_back(s);
  }
  return a.type() == AttrType::kSS ? AttributeValue::SS(std::move(out))
                                   : AttributeValue::BS(std::move(out));
}

// Members of `a` that `b` lacks; nullopt if none remain.
std::optional<AttributeValue> SetDifference(const AttributeValue& a,
                                            const AttributeValue& b) {
  if (a.type() == AttrType::kNS) {
    std::vector<Number> out;
    for (const Number& n : a.ns()) {
      if (std::find(b.ns().begin(), b.ns().end(), n) == b.ns().end()) {
        out.push_back(n);
      }
    }
    if (out.empty()) return std::nullopt;
    return AttributeValue::NS(std::move(out));
  }
  std::set<std::string_view> drop(b.ss().begin(), b.ss().end());
  std::vector<std::string> out;
  for (const std::string& s : a.ss()) {
    if (!drop.contains(s)) out.push_back(s);
  }
  if (out.empty()) return std::nullopt;
  return a.type() == AttrType::kSS ? AttributeValue::SS(std::move(out))
                                   : AttributeValue::BS(std::move(out));
}

// One change to apply: put `value` at `path`, or remove what is there.
struct Write {
  const Path* path;
  AttributeValue value;
};

// Orders paths element by element; list indexes numerically, so that SETs
// past the end of a list append in index order.
bool PathLess(const Path& a, const Path& b) {
  const size_t n = std::min(a.elements.size(), b.elements.size());
  for (size_t i = 0; i < n; ++i) {
    const PathElement& x = a.elements[i];
    const PathElement& y = b.elements[i];
    if (x.kind != y.kind) return x.is_name();
    if (x.is_index()) {
      if (x.index != y.index) return x.index < y.index;
    } else if (x.name != y.name) {
      return x.name < y.name;
    }
  }
  return a.elements.size() < b.elements.size();
}

// The container holding the last element of `path`: a map (for a name) or
// a list (for an index). Null if a step on the way is missing or of the
// wrong type.
struct Parent {
  AttributeValue::Map* map = nullptr;
  AttributeValue::List* list = nullptr;
};

std::optional<Parent> FindParent(Item& item, const Path& path) {
  Parent parent;
  parent.map = &item;
  const std::vector<PathElement>& elements = path.elements;
  for (size_t i = 0; i + 1 < elements.size(); ++i) {
    const PathElement& e = elements[i];
    AttributeValue* child = nullptr;
    if (e.is_name()) {
      auto it = parent.map->find(e.name);
      if (it != parent.map->end()) child = &it->second;
    } else if (e.index < parent.list->size()) {
      child = &(*parent.list)[e.index];
    }
    if (child == nullptr) return std::nullopt;
    parent = Parent();
    if (elements[i + 1].is_name()) {
      if (child->type() != AttrType::kM) return std::nullopt;
      parent.map = &child->mutable_m();
    } else {
      if (child->type() != AttrType::kL) return std::nullopt;
      parent.list = &child->mutable_l();
    }
  }
  return parent;
}

Status Put(Item& item, const Path& path, AttributeValue value) {
  std::optional<Parent> parent = FindParent(item, path);
  if (!parent.has_value()) return msg::InvalidUpdatePath();
  const PathElement& last = path.elements.back();
  if (last.is_name()) {
    auto it = parent->map->find(last.name);
    if (it != parent->map->end()) {
      it->second = std::move(value);
    } else {
      parent->map->emplace(last.name, std::move(value));
    }
  } else if (last.index < parent->list->size()) {
    (*parent->list)[last.index] = std::move(value);
  } else {
    parent->list->push_back(std::move(value));
  }
  return Status::OK();
}

Status Remove(Item& item, const Path& path, bool item_exists) {
  std::optional<Parent> parent = FindParent(item, path);
  if (!parent.has_value()) {
    return item_exists ? msg::InvalidUpdatePath() : Status::OK();
  }
  const PathElement& last = path.elements.back();
  if (last.is_name()) {
    auto it = parent->map->find(last.name);
    if (it != parent->map->end()) parent->map->erase(it);
  } else if (last.index < parent->list->size()) {
    parent->list->erase(parent->list->begin() + last.index);
  }
  return Status::OK();
}

}  // namespace

Result<Item> ApplyUpdate(const UpdateExpression& update, const Item& item,
                         bool item_exists) {
  assert(update.resolved);
  // Phase 1: compute every change from the item as it was.
  std::vector<Write> puts;
  std::vector<const Path*> removes;
  for (const UpdateAction& a : update.actions) {
    switch (a.clause) {
      case UpdateClause::kSet: {
        DR_ASSIGN_OR_RETURN(AttributeValue v, SetValue(a.value, item));
        puts.push_back(Write{&a.path, std::move(v)});
        break;
      }
      case UpdateClause::kRemove:
        removes.push_back(&a.path);
        break;
      case UpdateClause::kAdd: {
        const AttributeValue& operand = *a.value.value;
        const AttributeValue* old = FindPath(item, a.path);
        if (old == nullptr) {
          puts.push_back(Write{&a.path, operand});
        } else if (operand.type() == AttrType::kN &&
                   old->type() == AttrType::kN) {
          DR_ASSIGN_OR_RETURN(Number n, Number::Add(old->n(), operand.n()));
          puts.push_back(Write{&a.path, AttributeValue::N(std::move(n))});
        } else if (SameSetType(old->type(), operand.type())) {
          puts.push_back(Write{&a.path, SetUnion(*old, operand)});
        } else {
          return msg::IncorrectOperandType();
        }
        break;
      }
      case UpdateClause::kDelete: {
        const AttributeValue& operand = *a.value.value;
        const AttributeValue* old = FindPath(item, a.path);
        if (old == nullptr) {
          // Nothing to delete from; the path must still be valid.
          removes.push_back(&a.path);
        } else if (SameSetType(old->type(), operand.type())) {
          std::optional<AttributeValue> rest = SetDifference(*old, operand);
          if (rest.has_value()) {
            puts.push_back(Write{&a.path, std::move(*rest)});
          } else {
            removes.push_back(&a.path);
          }
        } else {
          return msg::IncorrectOperandType();
        }
        break;
      }
    }
  }
  // Phase 2: writes (list appends in index order), then removals from the
  // highest list index down, so that every index refers to the old list.
  Item out = item;
  std::stable_sort(puts.begin(), puts.end(), [](const Write& a, const Write& b) {
    return PathLess(*a.path, *b.path);
  });
  for (Write& w : puts) {
    DR_RETURN_IF_ERROR(Put(out, *w.path, std::move(w.value)));
  }
  std::stable_sort(removes.begin(), removes.end(),
                   [](const Path* a, const Path* b) { return PathLess(*b, *a); });
  for (const Path* p : removes) {
    DR_RETURN_IF_ERROR(Remove(out, *p, item_exists));
  }
  return out;
}

std::vector<std::string> UpdatedAttributes(const UpdateExpression& update) {
  std::set<std::string> names;
  for (const UpdateAction& a : update.actions) names.insert(a.path.top());
  return std::vector<std::string>(names.begin(), names.end());
}

std::vector<Path> UpdatedPaths(const UpdateExpression& update) {
  std::vector<Path> paths;
  paths.reserve(update.actions.size());
  for (const UpdateAction& a : update.actions) paths.push_back(a.path);
  return paths;
}

}  // namespace dynarock::expr
