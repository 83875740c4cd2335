#include "engine/expr/parser.h"

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/expr/lexer.h"
#include "engine/expr/messages.h"
#include "engine/expr/reserved_words.h"

namespace dynarock::expr {

namespace {

// Recursion bound. Valid expressions nest far less deeply (every level of a
// 4 KB expression needs an operator, and there are at most 300); the bound
// only keeps pathological input from exhausting the stack.
constexpr int kMaxNesting = 400;

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'a' && x <= 'z') x = static_cast<char>(x - 'a' + 'A');
    if (y >= 'a' && y <= 'z') y = static_cast<char>(y - 'a' + 'A');
    if (x != y) return false;
  }
  return true;
}

// A rule violation that is not a syntax error: reported only when the whole
// text parsed, and then by category in DynamoDB's order. Each slot keeps
// the first violation of its category, in textual order.
struct Deferred {
  std::optional<Status> parens;
  std::optional<Status> unknown_function;
  std::optional<Status> misused_function;
  std::optional<Status> reserved;
  std::optional<Status> section;

  static void Note(std::optional<Status>& slot, Status s) {
    if (!slot.has_value()) slot = std::move(s);
  }
};

// What a condition-grammar rule produced: a condition, or an operand that
// may still become one side of a comparison ("(a) = b") or, for a function
// call, a whole condition ("attribute_exists(a)").
struct Node {
  bool is_operand = false;
  Operand operand;
  Condition condition;
  // Produced directly by a parenthesis group: wrapping it again is
  // "redundant parentheses".
  bool wrapped = false;
};

class Parser {
 public:
  Parser(std::string_view text, ExpressionKind kind)
      : text_(text), kind_(kind), tokens_(Lex(text)) {}

  Result<Condition> ParseConditionRoot();
  Result<UpdateExpression> ParseUpdateRoot();
  Result<ProjectionExpression> ParseProjectionRoot();

 private:
  // Increments the nesting depth for its lifetime.
  class DepthGuard {
   public:
    explicit DepthGuard(Parser* p) : p_(p) { ++p_->depth_; }
    ~DepthGuard() { --p_->depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    bool exceeded() const { return p_->depth_ > kMaxNesting; }

   private:
    Parser* p_;
  };

  const Token& Peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  void Advance() {
    if (pos_ + 1 < tokens_.size()) ++pos_;
  }
  bool At(TokenKind kind) const { return Peek().kind == kind; }
  bool AtKeyword(std::string_view word) const {
    return Peek().kind == TokenKind::kIdentifier &&
           EqualsIgnoreCase(Peek().text, word);
  }
  // True if `t` is a keyword of this expression kind's grammar (and so can
  // never be an attribute or function name here).
  bool IsKeyword(const Token& t) const;
  std::optional<UpdateClause> ClauseKeyword(const Token& t) const;

  Status SyntaxError() const { return SyntaxErrorAt(pos_); }
  Status SyntaxErrorAt(size_t index) const;
  Status Expect(TokenKind kind) {
    if (!At(kind)) return SyntaxError();
    Advance();
    return Status::OK();
  }
  Status CountOperator();

  // Paths.
  Result<Path> ParsePath();
  Status AddPathElement(Path& path, PathElement element);
  Result<PathElement> ParseNameElement();

  // Conditions.
  Result<Node> ParseOr();
  Result<Node> ParseAnd();
  Result<Node> ParseNot();
  Result<Node> ParsePrimary();
  Result<Node> ContinuePredicate(Node left);
  Status MakeCondition(Node& node);
  Result<Operand> ParseConditionOperand(bool* wrapped);
  Result<Operand> ParseCall(bool in_update);
  Result<Operand> ParseAtom(bool in_update);

  // Updates.
  Result<UpdateAction> ParseUpdateAction(UpdateClause clause);
  Result<Operand> ParseSetValue();
  Result<Operand> ParseUpdateTerm();
  Result<Operand> FinishArithmetic(Operand left);

  // Post-parse checks.
  void CheckConditionFunctions(const Condition& c);
  void CheckConditionOperand(const Operand& o);
  void CheckUpdateOperand(const Operand& o, bool inside_list_append);
  Status FirstDeferred(std::initializer_list<std::optional<Status>*> order);

  std::string_view text_;
  ExpressionKind kind_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
  int operators_ = 0;
  Deferred deferred_;
};

bool Parser::IsKeyword(const Token& t) const {
  if (t.kind != TokenKind::kIdentifier) return false;
  switch (kind_) {
    case ExpressionKind::kCondition:
    case ExpressionKind::kFilter:
    case ExpressionKind::kKeyCondition:
      for (std::string_view w : {"AND", "OR", "NOT", "BETWEEN", "IN"}) {
        if (EqualsIgnoreCase(t.text, w)) return true;
      }
      return false;
    case ExpressionKind::kUpdate:
      return ClauseKeyword(t).has_value();
    case ExpressionKind::kProjection:
      return false;
  }
  return false;
}

std::optional<UpdateClause> Parser::ClauseKeyword(const Token& t) const {
  if (t.kind != TokenKind::kIdentifier) return std::nullopt;
  for (UpdateClause c : {UpdateClause::kSet, UpdateClause::kRemove,
                         UpdateClause::kAdd, UpdateClause::kDelete}) {
    if (EqualsIgnoreCase(t.text, UpdateClauseName(c))) return c;
  }
  return std::nullopt;
}

// DynamoDB quotes the offending token and the text from the token before it
// to the token after it: 'token: "1", near: "VALUE 1"' for "SET a = VALUE 1".
Status Parser::SyntaxErrorAt(size_t index) const {
  const Token& bad = tokens_[index];
  uint32_t begin = index > 0 ? tokens_[index - 1].begin : bad.begin;
  if (index == 0 && bad.kind == TokenKind::kEnd) begin = 0;  // blank text
  uint32_t end;
  std::string_view token;
  if (bad.kind == TokenKind::kEnd) {
    token = "<EOF>";
    end = static_cast<uint32_t>(text_.size());
  } else {
    token = bad.text;
    end = (index + 1 < tokens_.size() &&
           tokens_[index + 1].kind != TokenKind::kEnd)
              ? tokens_[index + 1].end
              : bad.end;
  }
  return msg::SyntaxError(kind_, token, text_.substr(begin, end - begin));
}

Status Parser::CountOperator() {
  if (++operators_ > kMaxOperators) {
    return msg::TooManyOperators(kind_, operators_);
  }
  return Status::OK();
}

// --- Paths ---------------------------------------------------------------

Result<PathElement> Parser::ParseNameElement() {
  const Token& t = Peek();
  if (t.kind == TokenKind::kNameRef) {
    Advance();
    return PathElement::Placeholder(std::string(t.text));
  }
  if (t.kind == TokenKind::kIdentifier && !IsKeyword(t)) {
    if (IsReservedWord(t.text)) {
      Deferred::Note(deferred_.reserved, msg::ReservedKeyword(kind_, t.text));
    }
    Advance();
    return PathElement::Name(std::string(t.text));
  }
  return SyntaxError();
}

Status Parser::AddPathElement(Path& path, PathElement element) {
  path.elements.push_back(std::move(element));
  const int levels = static_cast<int>(path.elements.size());
  if (levels > kMaxPathDepth) return msg::PathTooDeep(kind_, levels);
  return Status::OK();
}

Result<Path> Parser::ParsePath() {
  Path path;
  DR_ASSIGN_OR_RETURN(PathElement head, ParseNameElement());
  DR_RETURN_IF_ERROR(AddPathElement(path, std::move(head)));
  while (true) {
    if (At(TokenKind::kDot)) {
      Advance();
      DR_ASSIGN_OR_RETURN(PathElement e, ParseNameElement());
      DR_RETURN_IF_ERROR(AddPathElement(path, std::move(e)));
    } else if (At(TokenKind::kLBracket)) {
      Advance();
      if (!At(TokenKind::kNumber)) return SyntaxError();
      std::string_view digits = Peek().text;
      int64_t index = 0;
      if (digits.size() > 10) return msg::ListIndexOutOfRange(kind_, digits);
      for (char c : digits) index = index * 10 + (c - '0');
      if (index > kMaxListIndex) return msg::ListIndexOutOfRange(kind_, digits);
      Advance();
      DR_RETURN_IF_ERROR(Expect(TokenKind::kRBracket));
      DR_RETURN_IF_ERROR(AddPathElement(
          path, PathElement::Index(static_cast<uint32_t>(index))));
    } else {
      return path;
    }
  }
}

// --- Operands ------------------------------------------------------------

// name '(' argument { ',' argument } ')'; the caller checked the name and
// the parenthesis. Arguments are condition operands (which may be
// parenthesized) or, in an update, terms.
Result<Operand> Parser::ParseCall(bool in_update) {
  const Token name = Peek();
  DepthGuard guard(this);
  if (guard.exceeded()) {
    // Give the error DynamoDB gives for such nesting at any depth.
    switch (FunctionFromName(name.text)) {
      case Function::kUnknown:
        return msg::InvalidFunctionName(kind_, name.text);
      case Function::kSize:  // size(size(x)): size() of a number
        return msg::OperandType(kind_, name.text, AttrType::kN);
      default:
        return msg::FunctionMisused(kind_, name.text);
    }
  }
  Advance();  // name
  Advance();  // (
  if (in_update) DR_RETURN_IF_ERROR(CountOperator());
  std::vector<Operand> args;
  while (true) {
    if (in_update) {
      DR_ASSIGN_OR_RETURN(Operand arg, ParseUpdateTerm());
      args.push_back(std::move(arg));
    } else {
      bool wrapped = false;
      DR_ASSIGN_OR_RETURN(Operand arg, ParseConditionOperand(&wrapped));
      args.push_back(std::move(arg));
    }
    if (At(TokenKind::kComma)) {
      Advance();
      continue;
    }
    DR_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    return Operand::MakeCall(std::string(name.text), std::move(args));
  }
}

// path | :value | function call.
Result<Operand> Parser::ParseAtom(bool in_update) {
  const Token& t = Peek();
  if (t.kind == TokenKind::kValueRef) {
    Advance();
    return Operand::MakeValue(std::string(t.text));
  }
  if (t.kind == TokenKind::kIdentifier && !IsKeyword(t) &&
      Peek(1).kind == TokenKind::kLParen) {
    return ParseCall(in_update);
  }
  DR_ASSIGN_OR_RETURN(Path path, ParsePath());
  return Operand::MakePath(std::move(path));
}

// operand := '(' operand ')' | atom. Sets *wrapped if the operand was
// enclosed in parentheses; two pairs around one operand are redundant.
Result<Operand> Parser::ParseConditionOperand(bool* wrapped) {
  *wrapped = false;
  if (!At(TokenKind::kLParen)) return ParseAtom(/*in_update=*/false);
  DepthGuard guard(this);
  if (guard.exceeded()) return msg::RedundantParentheses(kind_);
  Advance();
  bool inner_wrapped = false;
  DR_ASSIGN_OR_RETURN(Operand inner, ParseConditionOperand(&inner_wrapped));
  DR_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  if (inner_wrapped) {
    Deferred::Note(deferred_.parens, msg::RedundantParentheses(kind_));
  }
  *wrapped = true;
  return inner;
}

// --- Conditions ----------------------------------------------------------

// Turns a node into a condition where a condition is required: a function
// call becomes a function condition; any other operand is a syntax error at
// the token after it (an operator was expected there).
Status Parser::MakeCondition(Node& node) {
  if (!node.is_operand) return Status::OK();
  if (node.operand.kind != Operand::Kind::kCall) return SyntaxError();
  node.condition.kind = Condition::Kind::kFunction;
  node.condition.operands.push_back(std::move(node.operand));
  node.operand = Operand();
  node.is_operand = false;
  return Status::OK();
}

Result<Condition> Parser::ParseConditionRoot() {
  DR_ASSIGN_OR_RETURN(Node node, ParseOr());
  DR_RETURN_IF_ERROR(MakeCondition(node));
  if (!At(TokenKind::kEnd)) return SyntaxError();
  CheckConditionFunctions(node.condition);
  DR_RETURN_IF_ERROR(FirstDeferred({&deferred_.parens,
                                    &deferred_.unknown_function,
                                    &deferred_.misused_function,
                                    &deferred_.reserved}));
  return std::move(node.condition);
}

Result<Node> Parser::ParseOr() {
  DR_ASSIGN_OR_RETURN(Node left, ParseAnd());
  while (AtKeyword("OR")) {
    DR_RETURN_IF_ERROR(MakeCondition(left));
    Advance();
    DR_RETURN_IF_ERROR(CountOperator());
    DR_ASSIGN_OR_RETURN(Node right, ParseAnd());
    DR_RETURN_IF_ERROR(MakeCondition(right));
    Node n;
    n.condition.kind = Condition::Kind::kOr;
    n.condition.children.push_back(std::move(left.condition));
    n.condition.children.push_back(std::move(right.condition));
    left = std::move(n);
  }
  return left;
}

Result<Node> Parser::ParseAnd() {
  DR_ASSIGN_OR_RETURN(Node left, ParseNot());
  while (AtKeyword("AND")) {
    DR_RETURN_IF_ERROR(MakeCondition(left));
    Advance();
    DR_RETURN_IF_ERROR(CountOperator());
    DR_ASSIGN_OR_RETURN(Node right, ParseNot());
    DR_RETURN_IF_ERROR(MakeCondition(right));
    Node n;
    n.condition.kind = Condition::Kind::kAnd;
    n.condition.children.push_back(std::move(left.condition));
    n.condition.children.push_back(std::move(right.condition));
    left = std::move(n);
  }
  return left;
}

// NOT binds tighter than AND and looser than comparisons; "NOT NOT a < b"
// is allowed. Iterative, so long NOT chains cannot exhaust the stack.
Result<Node> Parser::ParseNot() {
  int nots = 0;
  while (AtKeyword("NOT")) {
    Advance();
    DR_RETURN_IF_ERROR(CountOperator());
    ++nots;
  }
  DR_ASSIGN_OR_RETURN(Node node, ParsePrimary());
  if (nots == 0) return node;
  DR_RETURN_IF_ERROR(MakeCondition(node));
  for (int i = 0; i < nots; ++i) {
    Condition c;
    c.kind = Condition::Kind::kNot;
    c.children.push_back(std::move(node.condition));
    node.condition = std::move(c);
  }
  node.wrapped = false;
  return node;
}

Result<Node> Parser::ParsePrimary() {
  if (At(TokenKind::kLParen)) {
    DepthGuard guard(this);
    if (guard.exceeded()) return msg::RedundantParentheses(kind_);
    Advance();
    DR_ASSIGN_OR_RETURN(Node inner, ParseOr());
    DR_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    if (inner.wrapped) {
      Deferred::Note(deferred_.parens, msg::RedundantParentheses(kind_));
    }
    inner.wrapped = true;
    if (!inner.is_operand) return inner;
    return ContinuePredicate(std::move(inner));
  }
  Node node;
  node.is_operand = true;
  DR_ASSIGN_OR_RETURN(node.operand, ParseAtom(/*in_update=*/false));
  return ContinuePredicate(std::move(node));
}

// After an operand: a comparison, BETWEEN or IN makes it a condition;
// otherwise it is returned as is, for the caller to decide.
Result<Node> Parser::ContinuePredicate(Node left) {
  const Token& t = Peek();
  Node n;
  Condition& c = n.condition;
  if (IsComparison(t.kind)) {
    switch (t.kind) {
      case TokenKind::kEq:
        c.op = CompareOp::kEq;
        break;
      case TokenKind::kNe:
        c.op = CompareOp::kNe;
        break;
      case TokenKind::kLt:
        c.op = CompareOp::kLt;
        break;
      case TokenKind::kLe:
        c.op = CompareOp::kLe;
        break;
      case TokenKind::kGt:
        c.op = CompareOp::kGt;
        break;
      default:
        c.op = CompareOp::kGe;
        break;
    }
    Advance();
    DR_RETURN_IF_ERROR(CountOperator());
    bool wrapped = false;
    DR_ASSIGN_OR_RETURN(Operand right, ParseConditionOperand(&wrapped));
    c.kind = Condition::Kind::kCompare;
    c.operands.push_back(std::move(left.operand));
    c.operands.push_back(std::move(right));
    return n;
  }
  if (AtKeyword("BETWEEN")) {
    Advance();
    DR_RETURN_IF_ERROR(CountOperator());
    bool wrapped = false;
    DR_ASSIGN_OR_RETURN(Operand lower, ParseConditionOperand(&wrapped));
    if (!AtKeyword("AND")) return SyntaxError();
    Advance();
    DR_ASSIGN_OR_RETURN(Operand upper, ParseConditionOperand(&wrapped));
    c.kind = Condition::Kind::kBetween;
    c.operands.push_back(std::move(left.operand));
    c.operands.push_back(std::move(lower));
    c.operands.push_back(std::move(upper));
    return n;
  }
  if (AtKeyword("IN")) {
    Advance();
    DR_RETURN_IF_ERROR(CountOperator());
    DR_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
    c.kind = Condition::Kind::kIn;
    c.operands.push_back(std::move(left.operand));
    while (true) {
      bool wrapped = false;
      DR_ASSIGN_OR_RETURN(Operand o, ParseConditionOperand(&wrapped));
      c.operands.push_back(std::move(o));
      if (!At(TokenKind::kComma)) break;
      Advance();
    }
    DR_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    const int count = static_cast<int>(c.operands.size());
    if (count > kMaxInOperands) return msg::TooManyInOperands(kind_, count);
    return n;
  }
  return left;
}

// --- Updates -------------------------------------------------------------

Result<UpdateExpression> Parser::ParseUpdateRoot() {
  UpdateExpression update;
  bool seen[4] = {false, false, false, false};
  do {
    std::optional<UpdateClause> clause = ClauseKeyword(Peek());
    if (!clause.has_value()) return SyntaxError();
    if (seen[static_cast<int>(*clause)]) {
      Deferred::Note(deferred_.section, msg::DuplicateSection(kind_, *clause));
    }
    seen[static_cast<int>(*clause)] = true;
    Advance();
    while (true) {
      DR_ASSIGN_OR_RETURN(UpdateAction action, ParseUpdateAction(*clause));
      update.actions.push_back(std::move(action));
      if (!At(TokenKind::kComma)) break;
      Advance();
    }
  } while (!At(TokenKind::kEnd));
  for (const UpdateAction& a : update.actions) {
    if (a.clause == UpdateClause::kSet) {
      CheckUpdateOperand(a.value, /*inside_list_append=*/false);
    }
  }
  DR_RETURN_IF_ERROR(FirstDeferred({&deferred_.reserved,
                                    &deferred_.unknown_function,
                                    &deferred_.section,
                                    &deferred_.misused_function}));
  return update;
}

Result<UpdateAction> Parser::ParseUpdateAction(UpdateClause clause) {
  UpdateAction action;
  action.clause = clause;
  DR_ASSIGN_OR_RETURN(action.path, ParsePath());
  switch (clause) {
    case UpdateClause::kSet: {
      DR_RETURN_IF_ERROR(Expect(TokenKind::kEq));
      DR_ASSIGN_OR_RETURN(action.value, ParseSetValue());
      break;
    }
    case UpdateClause::kRemove:
      break;
    case UpdateClause::kAdd:
    case UpdateClause::kDelete:
      if (!At(TokenKind::kValueRef)) return SyntaxError();
      action.value = Operand::MakeValue(std::string(Peek().text));
      Advance();
      break;
  }
  return action;
}

// If '+' or '-' follows, parses the right term of a sum or difference.
Result<Operand> Parser::FinishArithmetic(Operand left) {
  if (!At(TokenKind::kPlus) && !At(TokenKind::kMinus)) return left;
  const Operand::Kind kind =
      At(TokenKind::kPlus) ? Operand::Kind::kPlus : Operand::Kind::kMinus;
  Advance();
  DR_RETURN_IF_ERROR(CountOperator());
  DR_ASSIGN_OR_RETURN(Operand right, ParseUpdateTerm());
  return Operand::MakeArithmetic(kind, std::move(left), std::move(right));
}

// value := term [op term] | '(' term op term ')'. "(a)" and "(a) + b" are
// terms; "a + b + c" and "f(a + b)" are syntax errors, as in DynamoDB.
Result<Operand> Parser::ParseSetValue() {
  if (!At(TokenKind::kLParen)) {
    DR_ASSIGN_OR_RETURN(Operand first, ParseUpdateTerm());
    return FinishArithmetic(std::move(first));
  }
  DepthGuard guard(this);
  if (guard.exceeded()) return msg::RedundantParentheses(kind_);
  Advance();
  DR_ASSIGN_OR_RETURN(Operand first, ParseUpdateTerm());
  if (At(TokenKind::kPlus) || At(TokenKind::kMinus)) {
    DR_ASSIGN_OR_RETURN(Operand sum, FinishArithmetic(std::move(first)));
    DR_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    return sum;
  }
  DR_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  return FinishArithmetic(std::move(first));
}

// term := '(' atom ')' | atom.
Result<Operand> Parser::ParseUpdateTerm() {
  if (!At(TokenKind::kLParen)) return ParseAtom(/*in_update=*/true);
  Advance();
  DR_ASSIGN_OR_RETURN(Operand inner, ParseAtom(/*in_update=*/true));
  DR_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  return inner;
}

// --- Projections ---------------------------------------------------------

Result<ProjectionExpression> Parser::ParseProjectionRoot() {
  ProjectionExpression projection;
  while (true) {
    DR_ASSIGN_OR_RETURN(Path path, ParsePath());
    projection.paths.push_back(std::move(path));
    if (!At(TokenKind::kComma)) break;
    Advance();
  }
  if (!At(TokenKind::kEnd)) return SyntaxError();
  DR_RETURN_IF_ERROR(FirstDeferred({&deferred_.reserved}));
  return projection;
}

// --- Post-parse checks ---------------------------------------------------

Status Parser::FirstDeferred(
    std::initializer_list<std::optional<Status>*> order) {
  for (std::optional<Status>* slot : order) {
    if (slot->has_value()) return **slot;
  }
  return Status::OK();
}

// Function rules of conditions: names must be known; if_not_exists and
// list_append belong to updates; a boolean function is a whole condition,
// never an operand; size() is an operand, never a whole condition.
void Parser::CheckConditionFunctions(const Condition& c) {
  switch (c.kind) {
    case Condition::Kind::kAnd:
    case Condition::Kind::kOr:
    case Condition::Kind::kNot:
      for (const Condition& child : c.children) CheckConditionFunctions(child);
      return;
    case Condition::Kind::kFunction: {
      const Operand& call = c.operands[0];
      if (call.function == Function::kUnknown) {
        Deferred::Note(deferred_.unknown_function,
                       msg::InvalidFunctionName(kind_, call.function_name));
      } else if (IsUpdateFunction(call.function)) {
        Deferred::Note(
            deferred_.misused_function,
            msg::FunctionNotAllowedInCondition(kind_, call.function_name));
      } else if (!IsBooleanFunction(call.function)) {
        Deferred::Note(deferred_.misused_function,
                       msg::FunctionMisused(kind_, call.function_name));
      }
      for (const Operand& arg : call.args) {
        CheckConditionOperand(arg);
      }
      return;
    }
    default:
      for (const Operand& o : c.operands) {
        CheckConditionOperand(o);
      }
      return;
  }
}

void Parser::CheckConditionOperand(const Operand& o) {
  if (o.kind != Operand::Kind::kCall) return;
  if (o.function == Function::kUnknown) {
    Deferred::Note(deferred_.unknown_function,
                   msg::InvalidFunctionName(kind_, o.function_name));
  } else if (IsUpdateFunction(o.function)) {
    Deferred::Note(deferred_.misused_function,
                   msg::FunctionNotAllowedInCondition(kind_, o.function_name));
  } else if (IsBooleanFunction(o.function)) {
    Deferred::Note(deferred_.misused_function,
                   msg::FunctionMisused(kind_, o.function_name));
  }
  for (const Operand& arg : o.args) CheckConditionOperand(arg);
}

// Function rules of SET values: names must be known; condition functions
// are not allowed; list_append may not be nested in list_append.
void Parser::CheckUpdateOperand(const Operand& o, bool inside_list_append) {
  if (o.kind == Operand::Kind::kPlus || o.kind == Operand::Kind::kMinus) {
    for (const Operand& arg : o.args) CheckUpdateOperand(arg, false);
    return;
  }
  if (o.kind != Operand::Kind::kCall) return;
  if (o.function == Function::kUnknown) {
    Deferred::Note(deferred_.unknown_function,
                   msg::InvalidFunctionName(kind_, o.function_name));
  } else if (IsConditionFunction(o.function)) {
    Deferred::Note(deferred_.misused_function,
                   msg::FunctionNotAllowedInUpdate(kind_, o.function_name));
  } else if (o.function == Function::kListAppend && inside_list_append) {
    Deferred::Note(deferred_.misused_function,
                   msg::FunctionMisused(kind_, o.function_name));
  }
  const bool is_list_append = o.function == Function::kListAppend;
  for (const Operand& arg : o.args) CheckUpdateOperand(arg, is_list_append);
}

// Empty and oversized texts are rejected before anything else.
Status CheckText(std::string_view text, ExpressionKind kind) {
  if (text.empty()) return msg::Empty(kind);
  if (text.size() > kMaxExpressionBytes) return msg::TooLong(kind, text.size());
  return Status::OK();
}

}  // namespace

Result<ConditionExpression> ParseCondition(std::string_view text,
                                           ExpressionKind kind) {
  assert(kind == ExpressionKind::kCondition || kind == ExpressionKind::kFilter ||
         kind == ExpressionKind::kKeyCondition);
  DR_RETURN_IF_ERROR(CheckText(text, kind));
  Parser parser(text, kind);
  DR_ASSIGN_OR_RETURN(Condition root, parser.ParseConditionRoot());
  ConditionExpression out;
  out.kind = kind;
  out.root = std::move(root);
  return out;
}

Result<UpdateExpression> ParseUpdate(std::string_view text) {
  DR_RETURN_IF_ERROR(CheckText(text, ExpressionKind::kUpdate));
  Parser parser(text, ExpressionKind::kUpdate);
  return parser.ParseUpdateRoot();
}

Result<ProjectionExpression> ParseProjection(std::string_view text) {
  DR_RETURN_IF_ERROR(CheckText(text, ExpressionKind::kProjection));
  Parser parser(text, ExpressionKind::kProjection);
  return parser.ParseProjectionRoot();
}

}  // namespace dynarock::expr
