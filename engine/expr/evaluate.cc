// Condition evaluation, path lookup and projection. Updates are applied in
// apply_update.cc.

#include "engine/expr/evaluate.h"

#include <cassert>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "engine/expr/value_ops.h"

namespace dynarock::expr {

namespace {

const AttributeValue* Step(const AttributeValue& v, const PathElement& e) {
  if (e.is_name()) {
    if (v.type() != AttrType::kM) return nullptr;
    auto it = v.m().find(e.name);
    return it == v.m().end() ? nullptr : &it->second;
  }
  if (v.type() != AttrType::kL || e.index >= v.l().size()) return nullptr;
  return &v.l()[e.index];
}

// A non-negative count as a Number.
Number CountNumber(size_t n) {
  if (n == 0) return Number();
  std::string digits = std::to_string(n);
  const int exponent = static_cast<int>(digits.size());
  while (digits.back() == '0') digits.pop_back();
  return Number::FromParts(false, std::move(digits), exponent);
}

// size(): bytes of S and B, members of sets, elements of L and M.
std::optional<size_t> SizeOf(const AttributeValue& v) {
  switch (v.type()) {
    case AttrType::kS:
    case AttrType::kB:
      return v.s().size();
    case AttrType::kSS:
    case AttrType::kBS:
      return v.ss().size();
    case AttrType::kNS:
      return v.ns().size();
    case AttrType::kL:
      return v.l().size();
    case AttrType::kM:
      return v.m().size();
    default:
      return std::nullopt;
  }
}

bool Contains(const AttributeValue& x, const AttributeValue& v) {
  switch (x.type()) {
    case AttrType::kS:
    case AttrType::kB:
      return v.type() == x.type() &&
             std::string_view(x.s()).find(v.s()) != std::string_view::npos;
    case AttrType::kSS:
    case AttrType::kBS:
      if (!((x.type() == AttrType::kSS && v.type() == AttrType::kS) ||
            (x.type() == AttrType::kBS && v.type() == AttrType::kB))) {
        return false;
      }
      for (const std::string& m : x.ss()) {
        if (m == v.s()) return true;
      }
      return false;
    case AttrType::kNS:
      if (v.type() != AttrType::kN) return false;
      for (const Number& m : x.ns()) {
        if (m == v.n()) return true;
      }
      return false;
    case AttrType::kL:
      for (const AttributeValue& e : x.l()) {
        if (e == v) return true;
      }
      return false;
    default:
      return false;
  }
}

class ConditionEvaluator {
 public:
  explicit ConditionEvaluator(const Item* item) : item_(item) {}

  bool Eval(const Condition& c) {
    switch (c.kind) {
      case Condition::Kind::kAnd:
        return Eval(c.children[0]) && Eval(c.children[1]);
      case Condition::Kind::kOr:
        return Eval(c.children[0]) || Eval(c.children[1]);
      case Condition::Kind::kNot:
        return !Eval(c.children[0]);
      case Condition::Kind::kCompare: {
        AttributeValue s1, s2;
        const AttributeValue* a = Value(c.operands[0], s1);
        const AttributeValue* b = Value(c.operands[1], s2);
        if (c.op == CompareOp::kNe) return a == nullptr || b == nullptr || *a != *b;
        if (a == nullptr || b == nullptr) return false;
        if (c.op == CompareOp::kEq) return *a == *b;
        std::optional<int> cmp = CompareOrdered(*a, *b);
        if (!cmp.has_value()) return false;
        switch (c.op) {
          case CompareOp::kLt:
            return *cmp < 0;
          case CompareOp::kLe:
            return *cmp <= 0;
          case CompareOp::kGt:
            return *cmp > 0;
          default:
            return *cmp >= 0;
        }
      }
      case Condition::Kind::kBetween: {
        AttributeValue s1, s2, s3;
        const AttributeValue* x = Value(c.operands[0], s1);
        const AttributeValue* lo = Value(c.operands[1], s2);
        const AttributeValue* hi = Value(c.operands[2], s3);
        if (x == nullptr || lo == nullptr || hi == nullptr) return false;
        std::optional<int> above = CompareOrdered(*x, *lo);
        std::optional<int> below = CompareOrdered(*x, *hi);
        return above.has_value() && below.has_value() && *above >= 0 &&
               *below <= 0;
      }
      case Condition::Kind::kIn: {
        AttributeValue s1;
        const AttributeValue* x = Value(c.operands[0], s1);
        if (x == nullptr) return false;
        for (size_t i = 1; i < c.operands.size(); ++i) {
          AttributeValue s2;
          const AttributeValue* v = Value(c.operands[i], s2);
          if (v != nullptr && *v == *x) return true;
        }
        return false;
      }
      case Condition::Kind::kFunction:
        return EvalFunction(c.operands[0]);
    }
    return false;
  }

 private:
  // The operand's value, or null if it has none (a missing attribute, size()
  // of a type without a size). Computed values are stored in `scratch`.
  const AttributeValue* Value(const Operand& o, AttributeValue& scratch) {
    switch (o.kind) {
      case Operand::Kind::kPath:
        return item_ == nullptr ? nullptr : FindPath(*item_, o.path);
      case Operand::Kind::kValue:
        return &*o.value;
      case Operand::Kind::kCall: {
        if (o.function != Function::kSize) return nullptr;
        AttributeValue inner;
        const AttributeValue* arg = Value(o.args[0], inner);
        if (arg == nullptr) return nullptr;
        std::optional<size_t> n = SizeOf(*arg);
        if (!n.has_value()) return nullptr;
        scratch = AttributeValue::N(CountNumber(*n));
        return &scratch;
      }
      default:
        return nullptr;
    }
  }

  bool EvalFunction(const Operand& call) {
    AttributeValue s1, s2;
    switch (call.function) {
      case Function::kAttributeExists:
        return Value(call.args[0], s1) != nullptr;
      case Function::kAttributeNotExists:
        return Value(call.args[0], s1) == nullptr;
      case Function::kAttributeType: {
        const AttributeValue* x = Value(call.args[0], s1);
        const AttributeValue* t = Value(call.args[1], s2);
        return x != nullptr && t != nullptr && t->type() == AttrType::kS &&
               AttrTypeName(x->type()) == t->s();
      }
      case Function::kBeginsWith: {
        const AttributeValue* x = Value(call.args[0], s1);
        const AttributeValue* p = Value(call.args[1], s2);
        if (x == nullptr || p == nullptr || x->type() != p->type()) return false;
        if (x->type() != AttrType::kS && x->type() != AttrType::kB) return false;
        return std::string_view(x->s()).starts_with(p->s());
      }
      case Function::kContains: {
        const AttributeValue* x = Value(call.args[0], s1);
        const AttributeValue* v = Value(call.args[1], s2);
        return x != nullptr && v != nullptr && Contains(*x, *v);
      }
      default:
        return false;
    }
  }

  const Item* item_;
};

// --- Projection ------------------------------------------------------------

// The union of the projected paths as a tree.
struct ProjectionNode {
  bool whole = false;
  std::map<std::string, ProjectionNode, std::less<>> keys;
  std::map<uint32_t, ProjectionNode> indexes;
};

std::optional<AttributeValue> Materialize(const AttributeValue& v,
                                          const ProjectionNode& node) {
  if (node.whole) return v;
  if (v.type() == AttrType::kM && !node.keys.empty()) {
    AttributeValue::Map out;
    for (const auto& [key, child] : node.keys) {
      auto it = v.m().find(key);
      if (it == v.m().end()) continue;
      std::optional<AttributeValue> part = Materialize(it->second, child);
      if (part.has_value()) out.emplace(key, std::move(*part));
    }
    if (!out.empty()) return AttributeValue::M(std::move(out));
  } else if (v.type() == AttrType::kL && !node.indexes.empty()) {
    AttributeValue::List out;
    for (const auto& [index, child] : node.indexes) {
      if (index >= v.l().size()) break;
      std::optional<AttributeValue> part = Materialize(v.l()[index], child);
      if (part.has_value()) out.push_back(std::move(*part));
    }
    if (!out.empty()) return AttributeValue::L(std::move(out));
  }
  return std::nullopt;
}

}  // namespace

const AttributeValue* FindPath(const Item& item, const Path& path) {
  assert(!path.elements.empty() && path.elements[0].is_name());
  auto it = item.find(path.elements[0].name);
  if (it == item.end()) return nullptr;
  const AttributeValue* v = &it->second;
  for (size_t i = 1; i < path.elements.size() && v != nullptr; ++i) {
    v = Step(*v, path.elements[i]);
  }
  return v;
}

bool EvaluateCondition(const ConditionExpression& condition, const Item* item) {
  assert(condition.resolved);
  ConditionEvaluator evaluator(item);
  return evaluator.Eval(condition.root);
}

Item ProjectItem(const Item& item, const std::vector<Path>& paths) {
  ProjectionNode root;
  for (const Path& path : paths) {
    ProjectionNode* node = &root;
    for (const PathElement& e : path.elements) {
      node = e.is_name() ? &node->keys[e.name] : &node->indexes[e.index];
    }
    node->whole = true;
  }
  Item out;
  for (const auto& [name, child] : root.keys) {
    auto it = item.find(name);
    if (it == item.end()) continue;
    std::optional<AttributeValue> part = Materialize(it->second, child);
    if (part.has_value()) out.emplace(name, std::move(*part));
  }
  return out;
}

Item ProjectItem(const Item& item, const ProjectionExpression& projection) {
  assert(projection.resolved);
  return ProjectItem(item, projection.paths);
}

}  // namespace dynarock::expr
