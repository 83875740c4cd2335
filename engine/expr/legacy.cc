#include "engine/expr/legacy.h"

#include <set>
#include <string>
#include <utility>

#include "engine/expr/messages.h"
#include "engine/expr/value_ops.h"
#include "engine/value/attribute_value_validation.h"

namespace dynarock::expr {

namespace {

// --- DynamoDB's messages, one place each -----------------------------------
//
// Texts recorded against DynamoDB by mhart/dynalite's test suite
// (test/putItem.js, test/updateItem.js, test/deleteItem.js, test/scan.js,
// test/query.js: the Expected, AttributeUpdates, ScanFilter and
// KeyConditions validations), by scylladb's test/alternator/test_expected.py
// (which of them DynamoDB rejects), and listed in DynamoDB Local's error
// table (ConditionalOperator, "not an indexable operation"); the
// ConditionalOperator wording and precedence were checked against DynamoDB
// by extenddb's legacy-parameter tests.

constexpr std::string_view kInvalidPrefix =
    "One or more parameter values were invalid: ";

Status Invalid(std::string detail) {
  return Status::Validation(std::string(kInvalidPrefix) + detail);
}

Status ConditionalOperatorWithoutConditions() {
  return Status::Validation(
      "ConditionalOperator cannot be used without Filter or Expected");
}

Status ConditionalOperatorWithOneCondition() {
  return Status::Validation(
      "ConditionalOperator can only be used when Filter or Expected has two "
      "or more elements");
}

Status ValueAndListTogether(std::string_view attr) {
  return Invalid(
      "Value and AttributeValueList cannot be used together for "
      "Attribute: " +
      std::string(attr));
}

Status ExistsAndOperatorTogether(std::string_view attr) {
  return Invalid(
      "Exists and ComparisonOperator cannot be used together for "
      "Attribute: " +
      std::string(attr));
}

Status OperatorWithoutValues(ComparisonOperator op, std::string_view attr) {
  return Invalid(
      "Value or AttributeValueList must be used with "
      "ComparisonOperator: " +
      std::string(ComparisonOperatorName(op)) +
      " for Attribute: " + std::string(attr));
}

Status ArgumentCount(ComparisonOperator op) {
  return Invalid("Invalid number of argument(s) for the " +
                 std::string(ComparisonOperatorName(op)) +
                 " ComparisonOperator");
}

Status MixedTypes() {
  return Invalid(
      "AttributeValues inside AttributeValueList must be of same type");
}

Status OperatorNotValidForType(ComparisonOperator op, AttrType type) {
  return Invalid("ComparisonOperator " +
                 std::string(ComparisonOperatorName(op)) +
                 " is not valid for " + std::string(AttrTypeName(type)) +
                 " AttributeValue type");
}

Status BetweenBoundsReversed() {
  return Status::Validation(
      "The BETWEEN condition was provided a range where the lower bound is "
      "greater than the upper bound");
}

Status ListWithoutOperator(std::string_view attr) {
  return Invalid(
      "AttributeValueList can only be used with a ComparisonOperator for "
      "Attribute: " +
      std::string(attr));
}

Status ValueRequired(std::optional<bool> exists, std::string_view attr) {
  return Invalid("Value must be provided when Exists is " +
                 std::string(exists.has_value() ? "true" : "null") +
                 " for Attribute: " + std::string(attr));
}

Status ValueWithExistsFalse(std::string_view attr) {
  return Invalid("Value cannot be used when Exists is false for Attribute: " +
                 std::string(attr));
}

Status NotIndexable() {
  return Status::Validation(
      "Attempted conditional constraint is not an indexable operation");
}

Status DeleteWithoutValueOnly() {
  return Invalid(
      "Only DELETE action is allowed when no attribute value is specified");
}

Status DeleteNotSupported(AttrType type) {
  return Invalid("DELETE action with value is not supported for the type " +
                 std::string(AttrTypeName(type)));
}

Status AddNotSupported(AttrType type) {
  return Invalid("ADD action is not supported for the type " +
                 std::string(AttrTypeName(type)));
}

Status DuplicateAttributeName(std::string_view name) {
  return Invalid("Duplicate value in attribute name: " + std::string(name));
}

// --- Checks --------------------------------------------------------------

bool IsScalar(AttrType t) {
  return t == AttrType::kS || t == AttrType::kN || t == AttrType::kB;
}

// The argument counts each operator takes: [min, max].
std::pair<size_t, size_t> Arity(ComparisonOperator op) {
  switch (op) {
    case ComparisonOperator::kNull:
    case ComparisonOperator::kNotNull:
      return {0, 0};
    case ComparisonOperator::kIn:
      return {1, static_cast<size_t>(-1)};
    case ComparisonOperator::kBetween:
      return {2, 2};
    default:
      return {1, 1};
  }
}

// The value types an operator compares with (DynamoDB's documentation of
// the Condition shape: EQ and NE take every type, lists and maps included).
bool TakesType(ComparisonOperator op, AttrType t) {
  switch (op) {
    case ComparisonOperator::kEq:
    case ComparisonOperator::kNe:
      return true;
    case ComparisonOperator::kBeginsWith:
      return t == AttrType::kS || t == AttrType::kB;
    default:
      return IsScalar(t);
  }
}

// The checks shared by Expected's ComparisonOperator form and the Condition
// shape, on the values the operator is given.
Status CheckOperatorValues(ComparisonOperator op,
                           const std::vector<AttributeValue>& values) {
  const auto [min, max] = Arity(op);
  if (values.size() < min || values.size() > max) return ArgumentCount(op);
  if (values.empty()) return Status::OK();
  const AttrType type = values.front().type();
  for (const AttributeValue& v : values) {
    if (v.type() != type) return MixedTypes();
  }
  for (const AttributeValue& v : values) {
    if (!TakesType(op, v.type())) return OperatorNotValidForType(op, v.type());
  }
  if (op == ComparisonOperator::kBetween) {
    std::optional<int> c = CompareOrdered(values[0], values[1]);
    if (c.has_value() && *c > 0) return BetweenBoundsReversed();
  }
  return Status::OK();
}

Status ValidateValues(const std::vector<AttributeValue>& values) {
  for (const AttributeValue& v : values) {
    DR_RETURN_IF_ERROR(ValidateAttributeValue(v));
  }
  return Status::OK();
}

Status CheckConditionalOperator(std::optional<ConditionalOperator> op,
                                size_t conditions) {
  if (!op.has_value()) return Status::OK();
  if (conditions == 0) return ConditionalOperatorWithoutConditions();
  if (conditions == 1) return ConditionalOperatorWithOneCondition();
  return Status::OK();
}

// --- Tree building ------------------------------------------------------

// Builds resolved trees; value operands get synthetic names (:legacy0,
// :legacy1, ...) so that the trees render readably.
class Builder {
 public:
  Operand Attr(const std::string& name) {
    Path p;
    p.elements.push_back(PathElement::Name(name));
    return Operand::MakePath(std::move(p));
  }

  Operand Value(const AttributeValue& v) {
    Operand o = Operand::MakeValue(":legacy" + std::to_string(next_++));
    o.value = v;
    return o;
  }

  static Condition Compare(CompareOp op, Operand a, Operand b) {
    Condition c;
    c.kind = Condition::Kind::kCompare;
    c.op = op;
    c.operands.push_back(std::move(a));
    c.operands.push_back(std::move(b));
    return c;
  }

  static Condition Call(std::string name, std::vector<Operand> args) {
    Condition c;
    c.kind = Condition::Kind::kFunction;
    c.operands.push_back(Operand::MakeCall(std::move(name), std::move(args)));
    return c;
  }

  static Condition Junction(Condition::Kind kind, Condition a, Condition b) {
    Condition c;
    c.kind = kind;
    c.children.push_back(std::move(a));
    c.children.push_back(std::move(b));
    return c;
  }

  static Condition Not(Condition a) {
    Condition c;
    c.kind = Condition::Kind::kNot;
    c.children.push_back(std::move(a));
    return c;
  }

  // `attr` <op> `values`. REQUIRES: CheckOperatorValues passed.
  Condition Comparison(const std::string& attr, ComparisonOperator op,
                       const std::vector<AttributeValue>& values) {
    switch (op) {
      case ComparisonOperator::kEq:
        return Compare(CompareOp::kEq, Attr(attr), Value(values[0]));
      case ComparisonOperator::kNe:
        return Compare(CompareOp::kNe, Attr(attr), Value(values[0]));
      case ComparisonOperator::kLe:
        return Compare(CompareOp::kLe, Attr(attr), Value(values[0]));
      case ComparisonOperator::kLt:
        return Compare(CompareOp::kLt, Attr(attr), Value(values[0]));
      case ComparisonOperator::kGe:
        return Compare(CompareOp::kGe, Attr(attr), Value(values[0]));
      case ComparisonOperator::kGt:
        return Compare(CompareOp::kGt, Attr(attr), Value(values[0]));
      case ComparisonOperator::kNotNull:
        return Call("attribute_exists", {Attr(attr)});
      case ComparisonOperator::kNull:
        return Call("attribute_not_exists", {Attr(attr)});
      case ComparisonOperator::kContains:
        return Call("contains", {Attr(attr), Value(values[0])});
      case ComparisonOperator::kNotContains:
        // False for a missing attribute, unlike NOT contains(...).
        return Junction(Condition::Kind::kAnd,
                        Call("attribute_exists", {Attr(attr)}),
                        Not(Call("contains", {Attr(attr), Value(values[0])})));
      case ComparisonOperator::kBeginsWith:
        return Call("begins_with", {Attr(attr), Value(values[0])});
      case ComparisonOperator::kIn: {
        Condition c;
        c.kind = Condition::Kind::kIn;
        c.operands.push_back(Attr(attr));
        for (const AttributeValue& v : values) c.operands.push_back(Value(v));
        return c;
      }
      case ComparisonOperator::kBetween: {
        Condition c;
        c.kind = Condition::Kind::kBetween;
        c.operands.push_back(Attr(attr));
        c.operands.push_back(Value(values[0]));
        c.operands.push_back(Value(values[1]));
        return c;
      }
    }
    return Condition();
  }

 private:
  int next_ = 0;
};

// Joins the conditions with AND or OR, in order, as a balanced tree: a
// request may hold many thousands of conditions (Expected, QueryFilter and
// ScanFilter have no count limit), and a left-deep chain of that length
// would exhaust the stack of whatever walks the tree (evaluate, render,
// resolve, the destructor). Adjacent pairs are joined round by round, so
// the depth is ceil(log2(n)) and the order of evaluation is unchanged.
ConditionExpression Combine(ExpressionKind kind, std::vector<Condition> parts,
                            std::optional<ConditionalOperator> op) {
  const Condition::Kind junction = op == ConditionalOperator::kOr
                                       ? Condition::Kind::kOr
                                       : Condition::Kind::kAnd;
  while (parts.size() > 1) {
    std::vector<Condition> joined;
    joined.reserve((parts.size() + 1) / 2);
    for (size_t i = 0; i + 1 < parts.size(); i += 2) {
      joined.push_back(Builder::Junction(junction, std::move(parts[i]),
                                         std::move(parts[i + 1])));
    }
    if (parts.size() % 2 == 1) joined.push_back(std::move(parts.back()));
    parts = std::move(joined);
  }
  ConditionExpression out;
  out.kind = kind;
  out.root = std::move(parts[0]);
  out.resolved = true;
  return out;
}

Status CheckExpectedEntry(const std::string& attr,
                          const ExpectedAttributeValue& e) {
  if (e.value.has_value()) DR_RETURN_IF_ERROR(ValidateAttributeValue(*e.value));
  if (e.attribute_value_list.has_value()) {
    DR_RETURN_IF_ERROR(ValidateValues(*e.attribute_value_list));
  }
  if (e.attribute_value_list.has_value() && e.value.has_value()) {
    return ValueAndListTogether(attr);
  }
  if (e.comparison_operator.has_value()) {
    const ComparisonOperator op = *e.comparison_operator;
    if (e.exists.has_value()) return ExistsAndOperatorTogether(attr);
    if (op != ComparisonOperator::kNull && op != ComparisonOperator::kNotNull &&
        !e.attribute_value_list.has_value() && !e.value.has_value()) {
      return OperatorWithoutValues(op, attr);
    }
    if (e.value.has_value()) return CheckOperatorValues(op, {*e.value});
    return CheckOperatorValues(
        op, e.attribute_value_list.value_or(std::vector<AttributeValue>{}));
  }
  if (e.attribute_value_list.has_value()) return ListWithoutOperator(attr);
  const bool exists = e.exists.value_or(true);
  if (exists && !e.value.has_value()) return ValueRequired(e.exists, attr);
  if (!exists && e.value.has_value()) return ValueWithExistsFalse(attr);
  return Status::OK();
}

}  // namespace

Result<std::optional<ConditionExpression>> TranslateExpected(
    const std::optional<ExpectedConditions>& expected,
    std::optional<ConditionalOperator> conditional_operator) {
  const size_t n = expected.has_value() ? expected->size() : 0;
  DR_RETURN_IF_ERROR(CheckConditionalOperator(conditional_operator, n));
  if (n == 0) return std::optional<ConditionExpression>();
  for (const auto& [attr, e] : *expected) {
    DR_RETURN_IF_ERROR(CheckExpectedEntry(attr, e));
  }
  Builder b;
  std::vector<Condition> parts;
  parts.reserve(n);
  for (const auto& [attr, e] : *expected) {
    if (e.comparison_operator.has_value()) {
      std::vector<AttributeValue> values;
      if (e.value.has_value()) {
        values.push_back(*e.value);
      } else if (e.attribute_value_list.has_value()) {
        values = *e.attribute_value_list;
      }
      parts.push_back(b.Comparison(attr, *e.comparison_operator, values));
    } else if (e.exists.value_or(true)) {
      parts.push_back(
          Builder::Compare(CompareOp::kEq, b.Attr(attr), b.Value(*e.value)));
    } else {
      parts.push_back(Builder::Call("attribute_not_exists", {b.Attr(attr)}));
    }
  }
  return std::optional<ConditionExpression>(Combine(
      ExpressionKind::kCondition, std::move(parts), conditional_operator));
}

Status ValidateLegacyConditions(const LegacyConditions& conditions) {
  for (const auto& [attr, c] : conditions) {
    DR_RETURN_IF_ERROR(ValidateValues(c.attribute_value_list));
  }
  for (const auto& [attr, c] : conditions) {
    DR_RETURN_IF_ERROR(
        CheckOperatorValues(c.comparison_operator, c.attribute_value_list));
  }
  return Status::OK();
}

Result<std::optional<ConditionExpression>> TranslateFilter(
    const std::optional<LegacyConditions>& filter,
    std::optional<ConditionalOperator> conditional_operator) {
  const size_t n = filter.has_value() ? filter->size() : 0;
  DR_RETURN_IF_ERROR(CheckConditionalOperator(conditional_operator, n));
  if (n == 0) return std::optional<ConditionExpression>();
  DR_RETURN_IF_ERROR(ValidateLegacyConditions(*filter));
  Builder b;
  std::vector<Condition> parts;
  parts.reserve(n);
  for (const auto& [attr, c] : *filter) {
    parts.push_back(
        b.Comparison(attr, c.comparison_operator, c.attribute_value_list));
  }
  return std::optional<ConditionExpression>(
      Combine(ExpressionKind::kFilter, std::move(parts), conditional_operator));
}

namespace {

// A KeyConditions operator as a key-condition operator; nullopt for those
// no key condition may use.
std::optional<KeyOp> KeyOpOf(ComparisonOperator op) {
  switch (op) {
    case ComparisonOperator::kEq:
      return KeyOp::kEq;
    case ComparisonOperator::kLe:
      return KeyOp::kLe;
    case ComparisonOperator::kLt:
      return KeyOp::kLt;
    case ComparisonOperator::kGe:
      return KeyOp::kGe;
    case ComparisonOperator::kGt:
      return KeyOp::kGt;
    case ComparisonOperator::kBeginsWith:
      return KeyOp::kBeginsWith;
    case ComparisonOperator::kBetween:
      return KeyOp::kBetween;
    default:
      return std::nullopt;
  }
}

}  // namespace

Result<KeyQuery> BindKeyConditions(const LegacyConditions& key_conditions,
                                   const KeyDef& key) {
  if (key.multi_attribute()) {
    // The same terms as a KeyConditionExpression, bound by the same rules.
    KeyCondition condition;
    for (const auto& [attr, c] : key_conditions) {
      std::optional<KeyOp> op = KeyOpOf(c.comparison_operator);
      if (!op) return NotIndexable();
      condition.terms.push_back(KeyConditionTerm{attr, *op, c.attribute_value_list});
    }
    return BindKeyCondition(condition, key);
  }
  if (key_conditions.size() > 2) return msg::KeyConditionCount();
  auto find = [&](const std::string& name) -> const LegacyCondition* {
    for (const auto& [attr, c] : key_conditions) {
      if (attr == name) return &c;
    }
    return nullptr;
  };
  const size_t n = key_conditions.size();
  KeyQuery q;
  struct KeyPart {
    const std::string* name;
    AttrType type;
    bool is_hash;
  };
  std::vector<KeyPart> parts = {{&key.hash_name, key.hash_type, true}};
  if (key.range_name.has_value()) {
    parts.push_back({&*key.range_name, key.range_type, false});
  }
  for (const KeyPart& part : parts) {
    if (part.is_hash && parts.size() == 1 && n > 1) {
      return msg::KeyConditionNotSupported();
    }
    const LegacyCondition* c = find(*part.name);
    if (c == nullptr) {
      if (part.is_hash || n > 1) {
        return msg::KeyMissedSchemaElement(*part.name);
      }
      continue;
    }
    const ComparisonOperator op = c->comparison_operator;
    KeyOp key_op;
    switch (op) {
      case ComparisonOperator::kEq:
        key_op = KeyOp::kEq;
        break;
      case ComparisonOperator::kLe:
        key_op = KeyOp::kLe;
        break;
      case ComparisonOperator::kLt:
        key_op = KeyOp::kLt;
        break;
      case ComparisonOperator::kGe:
        key_op = KeyOp::kGe;
        break;
      case ComparisonOperator::kGt:
        key_op = KeyOp::kGt;
        break;
      case ComparisonOperator::kBeginsWith:
        key_op = KeyOp::kBeginsWith;
        break;
      case ComparisonOperator::kBetween:
        key_op = KeyOp::kBetween;
        break;
      default:
        return NotIndexable();
    }
    for (const AttributeValue& v : c->attribute_value_list) {
      if (v.type() != part.type) return msg::KeyTypeMismatch();
    }
    if (part.is_hash) {
      if (key_op != KeyOp::kEq) return msg::KeyConditionNotSupported();
      q.partition = c->attribute_value_list[0];
    } else {
      q.sort = KeyConditionTerm{*part.name, key_op, c->attribute_value_list};
    }
  }
  // A condition on an attribute that is not part of the key.
  const size_t bound = 1 + (q.sort.has_value() ? 1 : 0);
  if (n > bound) return msg::KeyConditionNotSupported();
  return q;
}

Result<UpdateExpression> TranslateAttributeUpdates(
    const AttributeUpdates& updates) {
  for (const auto& [attr, u] : updates) {
    DR_RETURN_IF_ERROR(ValidateAttributeName(attr));
    if (u.value.has_value()) {
      DR_RETURN_IF_ERROR(ValidateAttributeValue(*u.value));
    }
    if (!u.value.has_value() && u.action != AttributeAction::kDelete) {
      return DeleteWithoutValueOnly();
    }
    if (u.value.has_value() && u.action == AttributeAction::kDelete) {
      const AttrType t = u.value->type();
      if (t != AttrType::kSS && t != AttrType::kNS && t != AttrType::kBS) {
        return DeleteNotSupported(t);
      }
    }
    if (u.value.has_value() && u.action == AttributeAction::kAdd) {
      const AttrType t = u.value->type();
      if (t != AttrType::kL && t != AttrType::kSS && t != AttrType::kNS &&
          t != AttrType::kBS && t != AttrType::kN) {
        return AddNotSupported(t);
      }
    }
  }
  // Actions of one clause are contiguous in an UpdateExpression.
  Builder b;
  UpdateExpression out;
  for (UpdateClause clause : {UpdateClause::kSet, UpdateClause::kRemove,
                              UpdateClause::kAdd, UpdateClause::kDelete}) {
    for (const auto& [attr, u] : updates) {
      UpdateAction a;
      a.path = b.Attr(attr).path;
      const bool add_list =
          u.action == AttributeAction::kAdd && u.value->type() == AttrType::kL;
      switch (clause) {
        case UpdateClause::kSet:
          if (u.action == AttributeAction::kPut) {
            a.value = b.Value(*u.value);
          } else if (add_list) {
            // a = list_append(if_not_exists(a, []), v)
            a.value = Operand::MakeCall(
                "list_append",
                {Operand::MakeCall(
                     "if_not_exists",
                     {b.Attr(attr), b.Value(AttributeValue::L({}))}),
                 b.Value(*u.value)});
          } else {
            continue;
          }
          break;
        case UpdateClause::kRemove:
          if (u.action != AttributeAction::kDelete || u.value.has_value()) {
            continue;
          }
          break;
        case UpdateClause::kAdd:
          if (u.action != AttributeAction::kAdd || add_list) continue;
          a.value = b.Value(*u.value);
          break;
        case UpdateClause::kDelete:
          if (u.action != AttributeAction::kDelete || !u.value.has_value()) {
            continue;
          }
          a.value = b.Value(*u.value);
          break;
      }
      a.clause = clause;
      out.actions.push_back(std::move(a));
    }
  }
  out.resolved = true;
  return out;
}

Status AttributeUpdatesError(const Status& apply_error) {
  // dynalite's AttributeUpdates code (written against DynamoDB) and the
  // UpdateItem API reference's list of ValidationException messages.
  if (apply_error.message() == msg::IncorrectOperandType().message()) {
    return Status::Validation("Type mismatch for attribute to update");
  }
  return apply_error;
}

Result<ProjectionExpression> TranslateAttributesToGet(
    const std::vector<std::string>& names) {
  std::set<std::string_view> seen;
  for (const std::string& name : names) {
    DR_RETURN_IF_ERROR(ValidateAttributeName(name));
    if (!seen.insert(name).second) return DuplicateAttributeName(name);
  }
  Builder b;
  ProjectionExpression out;
  out.paths.reserve(names.size());
  for (const std::string& name : names) out.paths.push_back(b.Attr(name).path);
  out.resolved = true;
  return out;
}

}  // namespace dynarock::expr
