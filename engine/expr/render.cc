#include "engine/expr/render.h"

#include <string>

#include "engine/expr/messages.h"
#include "engine/value/value_text.h"

namespace dynarock::expr {

namespace {

class Renderer {
 public:
  explicit Renderer(bool resolved) : resolved_(resolved) {}

  void PathText(const expr::Path& path) {
    for (size_t i = 0; i < path.elements.size(); ++i) {
      const PathElement& e = path.elements[i];
      if (e.is_index()) {
        out_ += "[" + std::to_string(e.index) + "]";
        continue;
      }
      if (i > 0) out_ += ".";
      if (resolved_ || e.placeholder.empty()) {
        out_ += e.name;
      } else {
        out_ += e.placeholder;
      }
    }
  }

  void OperandText(const expr::Operand& o) {
    switch (o.kind) {
      case Operand::Kind::kPath:
        PathText(o.path);
        return;
      case Operand::Kind::kValue:
        if (resolved_ && o.value.has_value()) {
          out_ += RenderValue(*o.value);
        } else {
          out_ += o.value_name;
        }
        return;
      case Operand::Kind::kCall:
        out_ += o.function_name;
        out_ += "(";
        for (size_t i = 0; i < o.args.size(); ++i) {
          if (i > 0) out_ += ", ";
          OperandText(o.args[i]);
        }
        out_ += ")";
        return;
      case Operand::Kind::kPlus:
      case Operand::Kind::kMinus:
        out_ += "(";
        OperandText(o.args[0]);
        out_ += o.kind == Operand::Kind::kPlus ? " + " : " - ";
        OperandText(o.args[1]);
        out_ += ")";
        return;
    }
  }

  void ConditionText(const expr::Condition& c) {
    switch (c.kind) {
      case Condition::Kind::kCompare:
        OperandText(c.operands[0]);
        out_ += " ";
        out_ += CompareOpText(c.op);
        out_ += " ";
        OperandText(c.operands[1]);
        return;
      case Condition::Kind::kBetween:
        OperandText(c.operands[0]);
        out_ += " BETWEEN ";
        OperandText(c.operands[1]);
        out_ += " AND ";
        OperandText(c.operands[2]);
        return;
      case Condition::Kind::kIn:
        OperandText(c.operands[0]);
        out_ += " IN (";
        for (size_t i = 1; i < c.operands.size(); ++i) {
          if (i > 1) out_ += ", ";
          OperandText(c.operands[i]);
        }
        out_ += ")";
        return;
      case Condition::Kind::kFunction:
        OperandText(c.operands[0]);
        return;
      case Condition::Kind::kAnd:
      case Condition::Kind::kOr:
        out_ += "(";
        ConditionText(c.children[0]);
        out_ += c.kind == Condition::Kind::kAnd ? " AND " : " OR ";
        ConditionText(c.children[1]);
        out_ += ")";
        return;
      case Condition::Kind::kNot:
        out_ += "(NOT ";
        ConditionText(c.children[0]);
        out_ += ")";
        return;
    }
  }

  void UpdateText(const UpdateExpression& u) {
    for (size_t i = 0; i < u.actions.size(); ++i) {
      const UpdateAction& a = u.actions[i];
      if (i == 0 || u.actions[i - 1].clause != a.clause) {
        if (i > 0) out_ += " ";
        out_ += UpdateClauseName(a.clause);
        out_ += " ";
      } else {
        out_ += ", ";
      }
      PathText(a.path);
      switch (a.clause) {
        case UpdateClause::kSet:
          out_ += " = ";
          OperandText(a.value);
          break;
        case UpdateClause::kRemove:
          break;
        case UpdateClause::kAdd:
        case UpdateClause::kDelete:
          out_ += " ";
          OperandText(a.value);
          break;
      }
    }
  }

  void ProjectionText(const ProjectionExpression& p) {
    for (size_t i = 0; i < p.paths.size(); ++i) {
      if (i > 0) out_ += ", ";
      PathText(p.paths[i]);
    }
  }

  std::string Take() { return std::move(out_); }

 private:
  bool resolved_;
  std::string out_;
};

}  // namespace

std::string Render(const Path& path) {
  Renderer r(false);
  r.PathText(path);
  return r.Take();
}

std::string Render(const Operand& operand) {
  Renderer r(false);
  r.OperandText(operand);
  return r.Take();
}

std::string Render(const Condition& condition) {
  Renderer r(false);
  r.ConditionText(condition);
  return r.Take();
}

std::string Render(const ConditionExpression& condition) {
  return Render(condition.root);
}

std::string Render(const UpdateExpression& update) {
  Renderer r(false);
  r.UpdateText(update);
  return r.Take();
}

std::string Render(const ProjectionExpression& projection) {
  Renderer r(false);
  r.ProjectionText(projection);
  return r.Take();
}

std::string RenderResolved(const Path& path) {
  Renderer r(true);
  r.PathText(path);
  return r.Take();
}

std::string RenderResolved(const Operand& operand) {
  Renderer r(true);
  r.OperandText(operand);
  return r.Take();
}

std::string RenderResolved(const ConditionExpression& condition) {
  Renderer r(true);
  r.ConditionText(condition.root);
  return r.Take();
}

std::string RenderResolved(const UpdateExpression& update) {
  Renderer r(true);
  r.UpdateText(update);
  return r.Take();
}

std::string RenderResolved(const ProjectionExpression& projection) {
  Renderer r(true);
  r.ProjectionText(projection);
  return r.Take();
}

}  // namespace dynarock::expr
