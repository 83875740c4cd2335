#include "engine/expr/key_condition.h"

#include <cassert>
#include <string_view>
#include <utility>

#include "engine/expr/messages.h"
#include "engine/expr/value_ops.h"

namespace dynarock::expr {

namespace {

// The operator seen from the other side: "value < attr" is "attr > value".
KeyOp Flip(KeyOp op) {
  switch (op) {
    case KeyOp::kLt:
      return KeyOp::kGt;
    case KeyOp::kLe:
      return KeyOp::kGe;
    case KeyOp::kGt:
      return KeyOp::kLt;
    case KeyOp::kGe:
      return KeyOp::kLe;
    default:
      return op;
  }
}

class Analyzer {
 public:
  Status Walk(const Condition& c) {
    switch (c.kind) {
      case Condition::Kind::kAnd:
        for (const Condition& child : c.children) DR_RETURN_IF_ERROR(Walk(child));
        return Status::OK();
      case Condition::Kind::kOr:
        return msg::KeyInvalidOperator("OR");
      case Condition::Kind::kNot:
        return msg::KeyInvalidOperator("NOT");
      case Condition::Kind::kIn:
        return msg::KeyInvalidOperator("IN");
      case Condition::Kind::kCompare: {
        KeyOp op;
        switch (c.op) {
          case CompareOp::kNe:
            return msg::KeyInvalidOperator("<>");
          case CompareOp::kEq:
            op = KeyOp::kEq;
            break;
          case CompareOp::kLt:
            op = KeyOp::kLt;
            break;
          case CompareOp::kLe:
            op = KeyOp::kLe;
            break;
          case CompareOp::kGt:
            op = KeyOp::kGt;
            break;
          default:
            op = KeyOp::kGe;
            break;
        }
        return Term(op, c.operands);
      }
      case Condition::Kind::kBetween:
        if (c.operands[0].kind != Operand::Kind::kPath) {
          return msg::KeyFirstOperand("BETWEEN");
        }
        return Term(KeyOp::kBetween, c.operands);
      case Condition::Kind::kFunction: {
        const Operand& call = c.operands[0];
        switch (call.function) {
          case Function::kBeginsWith:
            if (call.args[0].kind != Operand::Kind::kPath) {
              return msg::KeyFirstOperand(call.function_name);
            }
            return Term(KeyOp::kBeginsWith, call.args);
          case Function::kSize:
            return msg::KeyNestedOperations();
          default:
            return msg::KeyInvalidOperator(call.function_name);
        }
      }
    }
    return Status::OK();
  }

  KeyCondition Take() { return std::move(result_); }

 private:
  Status Term(KeyOp op, const std::vector<Operand>& operands) {
    const Path* path = nullptr;
    size_t path_index = 0;
    for (size_t i = 0; i < operands.size(); ++i) {
      const Operand& o = operands[i];
      if (o.kind == Operand::Kind::kPath) {
        if (path != nullptr) return msg::KeyMultipleNames();
        if (o.path.elements.size() > 1) return msg::KeyNestedAttributes();
        path = &o.path;
        path_index = i;
      } else if (o.kind == Operand::Kind::kCall) {
        return msg::KeyNestedOperations();
      }
    }
    if (path == nullptr) return msg::KeyNoAttribute();
    const std::string& name = path->top();
    for (const KeyConditionTerm& t : result_.terms) {
      if (t.attribute == name) return msg::KeyOneConditionPerKey();
    }
    KeyConditionTerm term;
    term.attribute = name;
    term.op = path_index == 0 ? op : Flip(op);
    for (size_t i = 0; i < operands.size(); ++i) {
      if (i != path_index) term.values.push_back(*operands[i].value);
    }
    result_.terms.push_back(std::move(term));
    return Status::OK();
  }

  KeyCondition result_;
};

const KeyConditionTerm* FindTerm(const KeyCondition& c, std::string_view name) {
  for (const KeyConditionTerm& t : c.terms) {
    if (t.attribute == name) return &t;
  }
  return nullptr;
}

}  // namespace

std::string_view KeyOpName(KeyOp op) {
  switch (op) {
    case KeyOp::kEq:
      return "EQ";
    case KeyOp::kLt:
      return "LT";
    case KeyOp::kLe:
      return "LE";
    case KeyOp::kGt:
      return "GT";
    case KeyOp::kGe:
      return "GE";
    case KeyOp::kBetween:
      return "BETWEEN";
    case KeyOp::kBeginsWith:
      return "BEGINS_WITH";
  }
  return "";
}

Result<KeyCondition> AnalyzeKeyCondition(const ConditionExpression& condition) {
  assert(condition.resolved);
  Analyzer analyzer;
  DR_RETURN_IF_ERROR(analyzer.Walk(condition.root));
  KeyCondition out = analyzer.Take();
  if (out.terms.size() > kMaxKeyConditionTerms) return msg::KeyConditionCount();
  return out;
}

namespace {

// BindKeyCondition on a multi-attribute key (see the header).
Result<KeyQuery> BindMultiAttributeKey(const KeyCondition& condition,
                                       const KeyDef& key) {
  KeyQuery q;
  size_t used = 0;
  for (size_t i = 0; i < key.hash_count(); ++i) {
    const KeyConditionTerm* t = FindTerm(condition, key.hash_name_at(i));
    if (t == nullptr || t->op != KeyOp::kEq) {
      return msg::MultiKeyHashNeedsEquality(key.hash_name_at(i));
    }
    if (t->values[0].type() != key.hash_type_at(i)) return msg::KeyTypeMismatch();
    (i == 0 ? q.partition : q.extra_partition.emplace_back()) = t->values[0];
    ++used;
  }
  std::vector<const KeyConditionTerm*> sort_terms;
  std::optional<size_t> first_missing;
  for (size_t i = 0; i < key.range_count(); ++i) {
    const KeyConditionTerm* t = FindTerm(condition, key.range_name_at(i));
    if (t == nullptr) {
      if (!first_missing) first_missing = i;
      continue;
    }
    // Conditions on the sort key read left to right: none may skip one.
    if (first_missing) return msg::MultiKeyRangeOutOfOrder(key.range_name_at(*first_missing));
    if (!sort_terms.empty() && sort_terms.back()->op != KeyOp::kEq) {
      return msg::MultiKeyRangeOutOfOrder(key.range_name_at(i));
    }
    for (const AttributeValue& v : t->values) {
      if (v.type() != key.range_type_at(i)) return msg::KeyTypeMismatch();
    }
    sort_terms.push_back(t);
    ++used;
  }
  if (used != condition.terms.size()) {
    // A condition on an attribute that is not part of the key.
    if (first_missing) return msg::MultiKeyRangeOutOfOrder(key.range_name_at(*first_missing));
    return msg::KeyConditionNotSupported();
  }
  if (!sort_terms.empty()) {
    for (size_t i = 0; i + 1 < sort_terms.size(); ++i) {
      q.sort_equal.push_back(sort_terms[i]->values[0]);
    }
    q.sort = *sort_terms.back();
  }
  return q;
}

}  // namespace

Result<KeyQuery> BindKeyCondition(const KeyCondition& condition,
                                  const KeyDef& key) {
  if (key.multi_attribute()) return BindMultiAttributeKey(condition, key);
  if (condition.terms.size() > 2) return msg::KeyConditionCount();
  const KeyConditionTerm* hash = FindTerm(condition, key.hash_name);
  if (hash == nullptr) return msg::KeyMissedSchemaElement(key.hash_name);
  const KeyConditionTerm* range = nullptr;
  if (condition.terms.size() > 1) {
    if (!key.range_name.has_value()) return msg::KeyConditionNotSupported();
    range = FindTerm(condition, *key.range_name);
    if (range == nullptr) return msg::KeyMissedSchemaElement(*key.range_name);
  }
  if (hash->op != KeyOp::kEq) return msg::KeyConditionNotSupported();
  if (hash->values[0].type() != key.hash_type) return msg::KeyTypeMismatch();
  KeyQuery q;
  q.partition = hash->values[0];
  if (range != nullptr) {
    for (const AttributeValue& v : range->values) {
      if (v.type() != key.range_type) return msg::KeyTypeMismatch();
    }
    q.sort = *range;
  }
  return q;
}

bool MatchesSortCondition(const KeyConditionTerm& term,
                          const AttributeValue& value) {
  if (term.op == KeyOp::kBeginsWith) {
    const AttributeValue& prefix = term.values[0];
    return value.type() == prefix.type() &&
           (value.type() == AttrType::kS || value.type() == AttrType::kB) &&
           std::string_view(value.s()).starts_with(prefix.s());
  }
  std::optional<int> c = CompareOrdered(value, term.values[0]);
  if (!c.has_value()) return false;
  switch (term.op) {
    case KeyOp::kEq:
      return *c == 0;
    case KeyOp::kLt:
      return *c < 0;
    case KeyOp::kLe:
      return *c <= 0;
    case KeyOp::kGt:
      return *c > 0;
    case KeyOp::kGe:
      return *c >= 0;
    case KeyOp::kBetween: {
      std::optional<int> upper = CompareOrdered(value, term.values[1]);
      return *c >= 0 && upper.has_value() && *upper <= 0;
    }
    case KeyOp::kBeginsWith:
      break;
  }
  return false;
}

}  // namespace dynarock::expr
