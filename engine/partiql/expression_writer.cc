#include "engine/partiql/expression_writer.h"

#include <string>
#include <string_view>
#include <vector>

namespace dynarock::partiql {

std::string ExpressionWriter::Name(const std::string& name) {
  auto it = name_refs_.find(name);
  if (it != name_refs_.end()) return it->second;
  std::string ref = "#n" + std::to_string(name_refs_.size());
  name_refs_.emplace(name, ref);
  names_[ref] = name;
  return ref;
}

std::string ExpressionWriter::Value(const AttributeValue& v) {
  std::string ref = ":v" + std::to_string(values_.size());
  values_[ref] = v;
  return ref;
}

std::string ExpressionWriter::PathText(const Path& path) {
  std::string out;
  for (const PathElement& e : path) {
    if (e.index) {
      out += "[" + std::to_string(*e.index) + "]";
    } else {
      if (!out.empty()) out += ".";
      out += Name(e.name);
    }
  }
  return out;
}

std::string ExpressionWriter::OperandText(const Operand& o) {
  switch (o.kind) {
    case Operand::Kind::kPath:
      return PathText(o.path);
    case Operand::Kind::kSize:
      return "size(" + PathText(o.path) + ")";
    case Operand::Kind::kValue:
      break;
  }
  return Value(o.value);
}

std::string ExpressionWriter::ConditionText(const Condition& c) {
  switch (c.kind) {
    case Condition::Kind::kAnd:
    case Condition::Kind::kOr: {
      std::string out;
      for (const auto& child : c.children) {
        if (!out.empty()) out += c.kind == Condition::Kind::kAnd ? " AND " : " OR ";
        out += "(" + ConditionText(*child) + ")";
      }
      return out;
    }
    case Condition::Kind::kNot:
      return "NOT (" + ConditionText(*c.children[0]) + ")";
    case Condition::Kind::kCompare: {
      std::string out = OperandText(c.operands[0]);
      out += " " + c.op + " ";
      out += OperandText(c.operands[1]);
      return out;
    }
    case Condition::Kind::kBetween: {
      std::string out = OperandText(c.operands[0]);
      out += " BETWEEN ";
      out += OperandText(c.operands[1]);
      out += " AND ";
      out += OperandText(c.operands[2]);
      return out;
    }
    case Condition::Kind::kIn: {
      std::string out = OperandText(c.operands[0]) + " IN (";
      for (size_t i = 1; i < c.operands.size(); ++i) {
        if (i > 1) out += ", ";
        out += OperandText(c.operands[i]);
      }
      return out + ")";
    }
    case Condition::Kind::kFunction: {
      std::string out = c.op + "(";
      out += OperandText(c.operands[0]);
      out += ", ";
      out += OperandText(c.operands[1]);
      return out + ")";
    }
    case Condition::Kind::kIsMissing:
      return "attribute_not_exists(" + PathText(c.operands[0].path) + ")";
    case Condition::Kind::kIsNotMissing:
      return "attribute_exists(" + PathText(c.operands[0].path) + ")";
    case Condition::Kind::kIsNull:
    case Condition::Kind::kIsNotNull: {
      // An attribute of type NULL; a missing attribute is not NULL (that
      // is IS MISSING), so IS NOT NULL holds for it.
      std::string out = c.kind == Condition::Kind::kIsNull ? "" : "NOT ";
      out += "attribute_type(" + PathText(c.operands[0].path) + ", ";
      return out + Value(AttributeValue::S("NULL")) + ")";
    }
  }
  return {};
}

std::string ExpressionWriter::Disjunction(const std::vector<std::vector<const Condition*>>& branches) {
  std::string out;
  for (const auto& branch : branches) {
    if (!out.empty()) out += " OR ";
    out += "(" + Conjunction(branch) + ")";
  }
  return out;
}

std::string ExpressionWriter::Conjunction(const std::vector<const Condition*>& parts) {
  std::string out;
  for (const Condition* c : parts) {
    if (!out.empty()) out += " AND ";
    out += parts.size() == 1 ? ConditionText(*c) : "(" + ConditionText(*c) + ")";
  }
  return out;
}

std::optional<ExpressionAttributeNames> ExpressionWriter::names() const {
  if (names_.empty()) return std::nullopt;
  return names_;
}

std::optional<ExpressionAttributeValues> ExpressionWriter::values() const {
  if (values_.empty()) return std::nullopt;
  return values_;
}

std::optional<std::string> ExpressionWriter::ProjectionText(const Statement& s) {
  if (s.projection.empty()) return std::nullopt;
  std::string out;
  for (const Path& p : s.projection) {
    if (!out.empty()) out += ", ";
    out += PathText(p);
  }
  return out;
}

std::string ExpressionWriter::UpdateText(const Statement& s) {
  std::string set;
  std::string remove;
  std::string add;
  std::string del;
  auto append = [](std::string* clause, const std::string& text) {
    if (!clause->empty()) *clause += ", ";
    *clause += text;
  };
  for (const UpdateAction& a : s.actions) {
    const std::string path = PathText(a.path);
    // One operand rendered per statement: placeholders number in order.
    std::string first;
    std::string text;
    switch (a.kind) {
      case UpdateAction::Kind::kSet:
        append(&set, path + " = " + OperandText(a.operands[0]));
        break;
      case UpdateAction::Kind::kSetPlus:
      case UpdateAction::Kind::kSetMinus:
        first = OperandText(a.operands[0]);
        text = path + " = " + first +
               (a.kind == UpdateAction::Kind::kSetPlus ? " + " : " - ");
        text += OperandText(a.operands[1]);
        append(&set, text);
        break;
      case UpdateAction::Kind::kListAppend:
        first = OperandText(a.operands[0]);
        text = path + " = list_append(" + first + ", ";
        text += OperandText(a.operands[1]);
        append(&set, text + ")");
        break;
      case UpdateAction::Kind::kSetAdd:
        append(&add, path + " " + OperandText(a.operands[1]));
        break;
      case UpdateAction::Kind::kSetDelete:
        append(&del, path + " " + OperandText(a.operands[1]));
        break;
      case UpdateAction::Kind::kRemove:
        append(&remove, path);
        break;
    }
  }
  std::string out;
  auto clause = [&out](std::string_view word, const std::string& body) {
    if (body.empty()) return;
    if (!out.empty()) out += " ";
    out += std::string(word) + " " + body;
  };
  clause("SET", set);
  clause("REMOVE", remove);
  clause("ADD", add);
  clause("DELETE", del);
  return out;
}

}  // namespace dynarock::partiql
