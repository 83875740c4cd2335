#include "engine/expr/resolve.h"

#include <cassert>
#include <optional>
#include <utility>
#include <vector>

#include "engine/expr/messages.h"
#include "engine/expr/value_ops.h"

namespace dynarock::expr {

namespace {

// Errors found after placeholders are resolved, by category; each slot
// keeps the first error of its category in textual order, and categories
// are reported in DynamoDB's order.
struct Found {
  std::optional<Status> count;     // wrong number of function operands
  std::optional<Status> distinct;  // "a = a"
  std::optional<Status> overlap;   // overlapping update/projection paths
  std::optional<Status> conflict;  // conflicting update/projection paths
  std::optional<Status> operand;   // ADD/DELETE operand types
  std::optional<Status> function;  // function and operator operand rules

  static void Note(std::optional<Status>& slot, Status s) {
    if (!slot.has_value()) slot = std::move(s);
  }
  static Status First(std::initializer_list<const std::optional<Status>*> in) {
    for (const std::optional<Status>* slot : in) {
      if (slot->has_value()) return **slot;
    }
    return Status::OK();
  }
};

// The type an operand is known to have before any item is read: a value's
// type, or N for size(). nullopt for paths and other calls.
std::optional<AttrType> KnownType(const Operand& o) {
  if (o.kind == Operand::Kind::kValue && o.value.has_value()) {
    return o.value->type();
  }
  if (o.kind == Operand::Kind::kCall && o.function == Function::kSize) {
    return AttrType::kN;
  }
  return std::nullopt;
}

// A value operand's type (update rules look only at immediate values).
std::optional<AttrType> ValueType(const Operand& o) {
  if (o.kind == Operand::Kind::kValue && o.value.has_value()) {
    return o.value->type();
  }
  return std::nullopt;
}

bool SamePath(const Path& a, const Path& b) {
  if (a.elements.size() != b.elements.size()) return false;
  for (size_t i = 0; i < a.elements.size(); ++i) {
    const PathElement& x = a.elements[i];
    const PathElement& y = b.elements[i];
    if (x.kind != y.kind) return false;
    if (x.is_index() ? x.index != y.index : x.name != y.name) return false;
  }
  return true;
}

// Two paths used together in one update or projection:
//   overlap  - one is the other or contains it ([a] and [a, b]);
//   conflict - at the first step where they differ, one names a map key
//              and the other a list index ([a, b] and [a, [1]]).
enum class PathRelation { kIndependent, kOverlap, kConflict };

PathRelation Relate(const Path& a, const Path& b) {
  const size_t n = std::min(a.elements.size(), b.elements.size());
  for (size_t i = 0; i < n; ++i) {
    const PathElement& x = a.elements[i];
    const PathElement& y = b.elements[i];
    if (x.kind != y.kind) return PathRelation::kConflict;
    if (x.is_index() ? x.index != y.index : x.name != y.name) {
      return PathRelation::kIndependent;
    }
  }
  return PathRelation::kOverlap;
}

void CheckPaths(ExpressionKind kind, const std::vector<const Path*>& paths,
                Found& found) {
  for (size_t j = 1; j < paths.size(); ++j) {
    for (size_t i = 0; i < j; ++i) {
      switch (Relate(*paths[i], *paths[j])) {
        case PathRelation::kOverlap:
          Found::Note(found.overlap,
                      msg::PathsOverlap(kind, *paths[i], *paths[j]));
          break;
        case PathRelation::kConflict:
          Found::Note(found.conflict,
                      msg::PathsConflict(kind, *paths[i], *paths[j]));
          break;
        case PathRelation::kIndependent:
          break;
      }
    }
  }
}

// --- Condition rules -----------------------------------------------------

class ConditionChecker {
 public:
  explicit ConditionChecker(ExpressionKind kind) : kind_(kind) {}

  void Check(const Condition& c) {
    switch (c.kind) {
      case Condition::Kind::kAnd:
      case Condition::Kind::kOr:
      case Condition::Kind::kNot:
        for (const Condition& child : c.children) Check(child);
        return;
      case Condition::Kind::kFunction:
        Call(c.operands[0]);
        return;
      case Condition::Kind::kCompare:
        Operands(c.operands);
        if (c.op != CompareOp::kEq && c.op != CompareOp::kNe) {
          for (const Operand& o : c.operands) Orderable(CompareOpText(c.op), o);
        }
        Distinct(CompareOpText(c.op), c.operands);
        return;
      case Condition::Kind::kBetween:
        Operands(c.operands);
        for (const Operand& o : c.operands) Orderable("BETWEEN", o);
        Bounds(c.operands[1], c.operands[2]);
        Distinct("BETWEEN", c.operands);
        return;
      case Condition::Kind::kIn:
        Operands(c.operands);
        Distinct("IN", c.operands);
        return;
    }
  }

  Status Outcome() const {
    return Found::First({&found_.count, &found_.distinct, &found_.function});
  }

 private:
  void Operands(const std::vector<Operand>& operands) {
    for (const Operand& o : operands) {
      if (o.kind == Operand::Kind::kCall) Call(o);
    }
  }

  // Constants compared with <, <=, >, >= or BETWEEN must be N, S or B.
  void Orderable(std::string_view op, const Operand& o) {
    std::optional<AttrType> t = ValueType(o);
    if (t.has_value() && !IsOrderable(*t)) {
      Found::Note(found_.function, msg::OperandType(kind_, op, *t));
    }
  }

  // Two constant bounds must have one type and be in order.
  void Bounds(const Operand& lower, const Operand& upper) {
    if (lower.kind != Operand::Kind::kValue ||
        upper.kind != Operand::Kind::kValue) {
      return;
    }
    const AttributeValue& lo = *lower.value;
    const AttributeValue& hi = *upper.value;
    if (!IsOrderable(lo.type()) || !IsOrderable(hi.type())) return;
    if (lo.type() != hi.type()) {
      Found::Note(found_.function, msg::BetweenTypes(kind_, lo, hi));
      return;
    }
    if (*CompareOrdered(lo, hi) > 0) {
      Found::Note(found_.function, msg::BetweenOrder(kind_, lo, hi));
    }
  }

  // The first operand, if a path, must differ from the other path operands.
  void Distinct(std::string_view op, const std::vector<Operand>& operands) {
    if (operands.empty() || operands[0].kind != Operand::Kind::kPath) return;
    for (size_t i = 1; i < operands.size(); ++i) {
      if (operands[i].kind == Operand::Kind::kPath &&
          SamePath(operands[0].path, operands[i].path)) {
        Found::Note(found_.distinct,
                    msg::NotDistinct(kind_, op, operands[0].path));
        return;
      }
    }
  }

  void Call(const Operand& call) {
    for (const Operand& arg : call.args) {
      if (arg.kind == Operand::Kind::kCall) Call(arg);
    }
    const std::string& name = call.function_name;
    const int n = static_cast<int>(call.args.size());
    int want = 0;
    switch (call.function) {
      case Function::kAttributeExists:
      case Function::kAttributeNotExists:
      case Function::kSize:
        want = 1;
        break;
      case Function::kAttributeType:
      case Function::kBeginsWith:
      case Function::kContains:
        want = 2;
        break;
      default:
        return;  // the parser rejected every other function
    }
    if (n != want) {
      Found::Note(found_.count, msg::OperandCount(kind_, name, n));
      return;
    }
    if (n == 2) Distinct(name, call.args);
    switch (call.function) {
      case Function::kAttributeExists:
      case Function::kAttributeNotExists:
        if (call.args[0].kind != Operand::Kind::kPath) {
          Found::Note(found_.function, msg::RequiresPath(kind_, name));
        }
        return;
      case Function::kAttributeType: {
        const Operand& type = call.args[1];
        std::optional<AttrType> t = KnownType(type);
        if (!t.has_value()) {
          Found::Note(found_.function,
                      msg::OperandTypeText(kind_, name,
                                           "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"));
        } else if (*t != AttrType::kS) {
          Found::Note(found_.function, msg::OperandType(kind_, name, *t));
        } else if (type.kind == Operand::Kind::kValue &&
                   !AttrTypeFromName(type.value->s()).has_value()) {
          Found::Note(found_.function,
                      msg::InvalidTypeName(kind_, type.value->s()));
        }
        return;
      }
      case Function::kBeginsWith:
        for (const Operand& arg : call.args) {
          std::optional<AttrType> t = KnownType(arg);
          if (t.has_value() && *t != AttrType::kS && *t != AttrType::kB) {
            Found::Note(found_.function, msg::OperandType(kind_, name, *t));
            return;
          }
        }
        return;
      case Function::kSize: {
        std::optional<AttrType> t = KnownType(call.args[0]);
        if (t == AttrType::kN || t == AttrType::kBool || t == AttrType::kNull) {
          Found::Note(found_.function, msg::OperandType(kind_, name, *t));
        }
        return;
      }
      default:
        return;
    }
  }

  ExpressionKind kind_;
  Found found_;
};

// --- Update rules --------------------------------------------------------

void CheckUpdateValue(const Operand& o, Found& found) {
  if (o.kind != Operand::Kind::kCall && o.kind != Operand::Kind::kPlus &&
      o.kind != Operand::Kind::kMinus) {
    return;
  }
  for (const Operand& arg : o.args) CheckUpdateValue(arg, found);
  const ExpressionKind kind = ExpressionKind::kUpdate;
  if (o.kind == Operand::Kind::kPlus || o.kind == Operand::Kind::kMinus) {
    const std::string_view op = o.kind == Operand::Kind::kPlus ? "+" : "-";
    for (const Operand& arg : o.args) {
      std::optional<AttrType> t = ValueType(arg);
      if (t.has_value() && *t != AttrType::kN) {
        Found::Note(found.function, msg::OperandType(kind, op, *t));
        return;
      }
    }
    return;
  }
  const std::string& name = o.function_name;
  const int n = static_cast<int>(o.args.size());
  if ((o.function == Function::kIfNotExists ||
       o.function == Function::kListAppend) &&
      n != 2) {
    Found::Note(found.function, msg::OperandCount(kind, name, n));
    return;
  }
  if (o.function == Function::kIfNotExists) {
    if (o.args[0].kind != Operand::Kind::kPath) {
      Found::Note(found.function, msg::RequiresPath(kind, name));
    }
  } else if (o.function == Function::kListAppend) {
    for (const Operand& arg : o.args) {
      std::optional<AttrType> t = ValueType(arg);
      if (t.has_value() && *t != AttrType::kL) {
        Found::Note(found.function, msg::OperandType(kind, name, *t));
        return;
      }
    }
  }
}

}  // namespace

Resolver::Resolver(const NameMap* names, const ValueMap* values)
    : names_(names), values_(values) {}

Status Resolver::ResolvePath(ExpressionKind kind, Path& path) {
  for (PathElement& e : path.elements) {
    if (!e.is_name() || e.placeholder.empty()) continue;
    auto it = names_ != nullptr ? names_->find(e.placeholder)
                                : NameMap::const_iterator();
    if (names_ == nullptr || it == names_->end()) {
      return msg::UndefinedName(kind, e.placeholder);
    }
    e.name = it->second;
    used_names_.insert(e.placeholder);
  }
  return Status::OK();
}

Status Resolver::ResolveNames(ExpressionKind kind, Operand& operand) {
  if (operand.kind == Operand::Kind::kPath) {
    return ResolvePath(kind, operand.path);
  }
  for (Operand& arg : operand.args) DR_RETURN_IF_ERROR(ResolveNames(kind, arg));
  return Status::OK();
}

Status Resolver::ResolveValues(ExpressionKind kind, Operand& operand) {
  if (operand.kind == Operand::Kind::kValue) {
    auto it = values_ != nullptr ? values_->find(operand.value_name)
                                 : ValueMap::const_iterator();
    if (values_ == nullptr || it == values_->end()) {
      return msg::UndefinedValue(kind, operand.value_name);
    }
    operand.value = it->second;
    used_values_.insert(operand.value_name);
    return Status::OK();
  }
  for (Operand& arg : operand.args) {
    DR_RETURN_IF_ERROR(ResolveValues(kind, arg));
  }
  return Status::OK();
}

// Conditions resolve names and values in one pass in textual order, so the
// first undefined placeholder of either kind is the one reported.
Status Resolver::ResolveAll(ExpressionKind kind, Operand& operand) {
  if (operand.kind == Operand::Kind::kPath) {
    return ResolvePath(kind, operand.path);
  }
  if (operand.kind == Operand::Kind::kValue) return ResolveValues(kind, operand);
  for (Operand& arg : operand.args) DR_RETURN_IF_ERROR(ResolveAll(kind, arg));
  return Status::OK();
}

Status Resolver::ResolveAll(ExpressionKind kind, Condition& condition) {
  for (Operand& o : condition.operands) DR_RETURN_IF_ERROR(ResolveAll(kind, o));
  for (Condition& c : condition.children) {
    DR_RETURN_IF_ERROR(ResolveAll(kind, c));
  }
  return Status::OK();
}

Result<ConditionExpression> Resolver::Resolve(
    const ConditionExpression& parsed) {
  assert(!parsed.resolved);
  ConditionExpression out = parsed;
  DR_RETURN_IF_ERROR(ResolveAll(out.kind, out.root));
  ConditionChecker checker(out.kind);
  checker.Check(out.root);
  DR_RETURN_IF_ERROR(checker.Outcome());
  out.resolved = true;
  return out;
}

Result<UpdateExpression> Resolver::Resolve(const UpdateExpression& parsed) {
  assert(!parsed.resolved);
  const ExpressionKind kind = ExpressionKind::kUpdate;
  UpdateExpression out = parsed;
  for (UpdateAction& a : out.actions) {
    DR_RETURN_IF_ERROR(ResolvePath(kind, a.path));
    if (a.clause == UpdateClause::kSet) {
      DR_RETURN_IF_ERROR(ResolveNames(kind, a.value));
    }
  }
  for (UpdateAction& a : out.actions) {
    if (a.clause != UpdateClause::kRemove) {
      DR_RETURN_IF_ERROR(ResolveValues(kind, a.value));
    }
  }
  Found found;
  std::vector<const Path*> paths;
  paths.reserve(out.actions.size());
  for (const UpdateAction& a : out.actions) paths.push_back(&a.path);
  CheckPaths(kind, paths, found);
  for (const UpdateAction& a : out.actions) {
    if (a.clause == UpdateClause::kAdd || a.clause == UpdateClause::kDelete) {
      const AttrType t = a.value.value->type();
      const bool ok = t == AttrType::kSS || t == AttrType::kNS ||
                      t == AttrType::kBS ||
                      (a.clause == UpdateClause::kAdd && t == AttrType::kN);
      if (!ok) Found::Note(found.operand, msg::UpdateOperandType(a.clause, t));
    } else if (a.clause == UpdateClause::kSet) {
      CheckUpdateValue(a.value, found);
    }
  }
  DR_RETURN_IF_ERROR(Found::First(
      {&found.overlap, &found.conflict, &found.operand, &found.function}));
  out.resolved = true;
  return out;
}

Result<ProjectionExpression> Resolver::Resolve(
    const ProjectionExpression& parsed) {
  assert(!parsed.resolved);
  const ExpressionKind kind = ExpressionKind::kProjection;
  ProjectionExpression out = parsed;
  for (Path& p : out.paths) DR_RETURN_IF_ERROR(ResolvePath(kind, p));
  Found found;
  std::vector<const Path*> paths;
  paths.reserve(out.paths.size());
  for (const Path& p : out.paths) paths.push_back(&p);
  CheckPaths(kind, paths, found);
  DR_RETURN_IF_ERROR(Found::First({&found.overlap, &found.conflict}));
  out.resolved = true;
  return out;
}

Status Resolver::CheckAllUsed() const {
  if (names_ != nullptr) {
    std::set<std::string> unused;
    for (const auto& [key, name] : *names_) {
      if (!used_names_.contains(key)) unused.insert(key);
    }
    if (!unused.empty()) return msg::UnusedNames(unused);
  }
  if (values_ != nullptr) {
    std::set<std::string> unused;
    for (const auto& [key, value] : *values_) {
      if (!used_values_.contains(key)) unused.insert(key);
    }
    if (!unused.empty()) return msg::UnusedValues(unused);
  }
  return Status::OK();
}

}  // namespace dynarock::expr
