#include "engine/partiql/statement_parser.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "engine/value/number.h"

namespace dynarock::partiql {

namespace {

enum class Tok : uint8_t {
  kIdent,     // bare word: name, keyword or function
  kQuoted,    // "double-quoted name"
  kString,    // 'string'
  kNumber,    // 12, 1.5, 2e10
  kParam,     // ?
  kLParen, kRParen, kLBracket, kRBracket, kLBrace, kRBrace,
  kBagOpen,   // <<
  kBagClose,  // >>
  kComma, kDot, kColon, kStar, kSemicolon,
  kEq, kNe, kLt, kLe, kGt, kGe, kPlus, kMinus,
  kInvalid,
  kEnd,
};

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;  // names and strings unescaped
  bool unterminated = false;
};

bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Reads a quoted token starting at text[i] (the quote); doubled quotes
// stand for one.
Token LexQuoted(std::string_view text, size_t* i, char quote, Tok kind) {
  Token t{kind, {}, false};
  size_t p = *i + 1;
  while (true) {
    if (p >= text.size()) {
      t.unterminated = true;
      break;
    }
    if (text[p] == quote) {
      if (p + 1 < text.size() && text[p + 1] == quote) {
        t.text.push_back(quote);
        p += 2;
        continue;
      }
      ++p;
      break;
    }
    t.text.push_back(text[p++]);
  }
  *i = p;
  return t;
}

std::vector<Token> Lex(std::string_view text) {
  std::vector<Token> out;
  size_t i = 0;
  auto one = [&](Tok kind, size_t len) {
    out.push_back(Token{kind, std::string(text.substr(i, len)), false});
    i += len;
  };
  while (i < text.size()) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++i;
    } else if (IsIdentStart(c)) {
      size_t e = i + 1;
      while (e < text.size() && (IsIdentStart(text[e]) || IsDigit(text[e]))) ++e;
      one(Tok::kIdent, e - i);
    } else if (IsDigit(c)) {
      size_t e = i;
      while (e < text.size() && IsDigit(text[e])) ++e;
      if (e + 1 < text.size() && text[e] == '.' && IsDigit(text[e + 1])) {
        ++e;
        while (e < text.size() && IsDigit(text[e])) ++e;
      }
      if (e < text.size() && (text[e] == 'e' || text[e] == 'E')) {
        size_t f = e + 1;
        if (f < text.size() && (text[f] == '+' || text[f] == '-')) ++f;
        if (f < text.size() && IsDigit(text[f])) {
          while (f < text.size() && IsDigit(text[f])) ++f;
          e = f;
        }
      }
      one(Tok::kNumber, e - i);
    } else if (c == '"') {
      out.push_back(LexQuoted(text, &i, '"', Tok::kQuoted));
    } else if (c == '\'') {
      out.push_back(LexQuoted(text, &i, '\'', Tok::kString));
    } else if (c == '<' && next == '<') {
      one(Tok::kBagOpen, 2);
    } else if (c == '>' && next == '>') {
      one(Tok::kBagClose, 2);
    } else if (c == '<' && next == '>') {
      one(Tok::kNe, 2);
    } else if (c == '!' && next == '=') {
      one(Tok::kNe, 2);
    } else if (c == '<' && next == '=') {
      one(Tok::kLe, 2);
    } else if (c == '>' && next == '=') {
      one(Tok::kGe, 2);
    } else {
      Tok kind = Tok::kInvalid;
      switch (c) {
        case '?': kind = Tok::kParam; break;
        case '(': kind = Tok::kLParen; break;
        case ')': kind = Tok::kRParen; break;
        case '[': kind = Tok::kLBracket; break;
        case ']': kind = Tok::kRBracket; break;
        case '{': kind = Tok::kLBrace; break;
        case '}': kind = Tok::kRBrace; break;
        case ',': kind = Tok::kComma; break;
        case '.': kind = Tok::kDot; break;
        case ':': kind = Tok::kColon; break;
        case '*': kind = Tok::kStar; break;
        case ';': kind = Tok::kSemicolon; break;
        case '=': kind = Tok::kEq; break;
        case '<': kind = Tok::kLt; break;
        case '>': kind = Tok::kGt; break;
        case '+': kind = Tok::kPlus; break;
        case '-': kind = Tok::kMinus; break;
        default: break;
      }
      one(kind, 1);
    }
  }
  out.push_back(Token{Tok::kEnd, {}, false});
  return out;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i];
    char y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

class Parser {
 public:
  Parser(std::string_view text, const std::vector<AttributeValue>& parameters)
      : tokens_(Lex(text)), parameters_(parameters) {}

  Result<Statement> Run() {
    Statement s;
    DR_RETURN_IF_ERROR(ParseStatement(&s));
    if (Peek().kind == Tok::kSemicolon) ++pos_;
    if (Peek().kind != Tok::kEnd) return Unexpected();
    if (next_param_ != parameters_.size()) return ParameterCount();
    return s;
  }

 private:
  // Counts nesting for its lifetime.
  class DepthGuard {
   public:
    explicit DepthGuard(Parser* p) : p_(p) { ++p_->depth_; }
    ~DepthGuard() { --p_->depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
    bool exceeded() const { return p_->depth_ > kMaxPartiqlNesting; }

   private:
    Parser* p_;
  };

  const Token& Peek(size_t ahead = 0) const {
    const size_t i = pos_ + ahead;
    return tokens_[i < tokens_.size() ? i : tokens_.size() - 1];
  }
  bool IsKeyword(std::string_view word, size_t ahead = 0) const {
    const Token& t = Peek(ahead);
    return t.kind == Tok::kIdent && EqualsIgnoreCase(t.text, word);
  }
  bool Accept(Tok kind) {
    if (Peek().kind != kind) return false;
    ++pos_;
    return true;
  }
  bool AcceptKeyword(std::string_view word) {
    if (!IsKeyword(word)) return false;
    ++pos_;
    return true;
  }
  Status Expect(Tok kind) { return Accept(kind) ? Status::OK() : Unexpected(); }
  Status ExpectKeyword(std::string_view word) {
    return AcceptKeyword(word) ? Status::OK() : Unexpected();
  }

  Status Unexpected() const {
    const Token& t = Peek();
    if (t.unterminated) return Malformed("Unterminated quoted text");
    if (t.kind == Tok::kEnd) return Malformed("Unexpected end of statement");
    return Malformed("Unexpected token: " + t.text);
  }
  static Status TooDeep() { return Malformed("Statement is nested too deeply"); }
  static Status ParameterCount() {
    return Status::Validation(
        "Number of parameters in request and statement don't match.");
  }

  Status ParseStatement(Statement* s) {
    if (AcceptKeyword("SELECT")) {
      s->kind = Statement::Kind::kSelect;
      return ParseSelect(s);
    }
    if (AcceptKeyword("INSERT")) {
      s->kind = Statement::Kind::kInsert;
      DR_RETURN_IF_ERROR(ExpectKeyword("INTO"));
      DR_RETURN_IF_ERROR(ParseTable(s, false));
      DR_RETURN_IF_ERROR(ExpectKeyword("VALUE"));
      if (Peek().kind != Tok::kLBrace) return Unexpected();
      DR_ASSIGN_OR_RETURN(AttributeValue v, ParseValue());
      s->item = Item(v.m());
      return Status::OK();
    }
    if (AcceptKeyword("UPDATE")) {
      s->kind = Statement::Kind::kUpdate;
      DR_RETURN_IF_ERROR(ParseTable(s, true));
      DR_RETURN_IF_ERROR(ParseUpdateClauses(s));
      DR_RETURN_IF_ERROR(ExpectKeyword("WHERE"));
      DR_ASSIGN_OR_RETURN(s->where, ParseCondition());
      return ParseReturning(s);
    }
    if (AcceptKeyword("DELETE")) {
      s->kind = Statement::Kind::kDelete;
      DR_RETURN_IF_ERROR(ExpectKeyword("FROM"));
      DR_RETURN_IF_ERROR(ParseTable(s, true));
      DR_RETURN_IF_ERROR(ExpectKeyword("WHERE"));
      DR_ASSIGN_OR_RETURN(s->where, ParseCondition());
      return ParseReturning(s);
    }
    if (AcceptKeyword("EXISTS")) {
      s->kind = Statement::Kind::kExists;
      DR_RETURN_IF_ERROR(Expect(Tok::kLParen));
      DR_RETURN_IF_ERROR(ExpectKeyword("SELECT"));
      DR_RETURN_IF_ERROR(Expect(Tok::kStar));
      DR_RETURN_IF_ERROR(ExpectKeyword("FROM"));
      DR_RETURN_IF_ERROR(ParseTable(s, false));
      DR_RETURN_IF_ERROR(ExpectKeyword("WHERE"));
      DR_ASSIGN_OR_RETURN(s->where, ParseCondition());
      return Expect(Tok::kRParen);
    }
    return Malformed("Expected data manipulation");
  }

  Status ParseSelect(Statement* s) {
    if (!Accept(Tok::kStar)) {
      do {
        DR_ASSIGN_OR_RETURN(Path p, ParsePath());
        s->projection.push_back(std::move(p));
      } while (Accept(Tok::kComma));
    }
    DR_RETURN_IF_ERROR(ExpectKeyword("FROM"));
    DR_RETURN_IF_ERROR(ParseTable(s, true));
    if (AcceptKeyword("WHERE")) {
      DR_ASSIGN_OR_RETURN(s->where, ParseCondition());
    }
    if (AcceptKeyword("ORDER")) {
      DR_RETURN_IF_ERROR(ExpectKeyword("BY"));
      do {
        // More keys than a table has are refused here; which keys, by the
        // planner.
        if (s->order_by.size() == 2) return Unexpected();
        Statement::OrderKey key;
        DR_ASSIGN_OR_RETURN(key.path, ParsePath());
        if (AcceptKeyword("DESC")) {
          key.descending = true;
        } else {
          AcceptKeyword("ASC");
        }
        s->order_by.push_back(std::move(key));
      } while (Accept(Tok::kComma));
    }
    return Status::OK();
  }

  // A table name, bare or quoted, and "T"."Index". UPDATE and DELETE take
  // the index form and the planner refuses it (DynamoDB: "This operation is
  // not supported on an index"); INSERT refuses it here.
  Status ParseTable(Statement* s, bool index_allowed) {
    DR_ASSIGN_OR_RETURN(s->table_name, ParseTableName());
    if (Peek().kind != Tok::kDot) return Status::OK();
    if (!index_allowed) {
      return Malformed("FROM clause may only contain a single table name");
    }
    ++pos_;
    DR_ASSIGN_OR_RETURN(std::string index, ParseTableName());
    s->index_name = std::move(index);
    if (Peek().kind == Tok::kDot) {
      return Status::Validation("A path may contain at most 2 components in the FROM clause");
    }
    return Status::OK();
  }
  Result<std::string> ParseTableName() {
    const Token& t = Peek();
    if (t.kind == Tok::kQuoted && !t.unterminated && t.text.empty()) {
      return Status::Validation("Path component cannot be an empty string");
    }
    return ParseName();
  }

  // PartiQL's keywords are names only when double-quoted.
  static bool IsReserved(std::string_view word) {
    static constexpr std::string_view kReserved[] = {
        "and", "between", "by", "delete", "exists", "false", "from", "in",
        "insert", "into", "is", "missing", "not", "null", "or", "order",
        "remove", "returning", "select", "set", "true", "update", "value",
        "where"};
    for (std::string_view r : kReserved) {
      if (EqualsIgnoreCase(word, r)) return true;
    }
    return false;
  }

  Result<std::string> ParseName() {
    const Token& t = Peek();
    if (t.unterminated) return Unexpected();
    if (t.kind != Tok::kIdent && t.kind != Tok::kQuoted) return Unexpected();
    if (t.kind == Tok::kIdent && IsReserved(t.text)) return Unexpected();
    if (t.kind == Tok::kQuoted && t.text.empty()) {
      return Malformed("Empty identifier");
    }
    ++pos_;
    return t.text;
  }

  Result<Path> ParsePath() {
    Path path;
    DR_ASSIGN_OR_RETURN(std::string first, ParseName());
    path.push_back(PathElement{std::move(first), std::nullopt});
    while (true) {
      if (Accept(Tok::kDot)) {
        DR_ASSIGN_OR_RETURN(std::string name, ParseName());
        path.push_back(PathElement{std::move(name), std::nullopt});
      } else if (Peek().kind == Tok::kLBracket) {
        ++pos_;
        const Token& t = Peek();
        if (t.kind == Tok::kString) {
          ++pos_;
          path.push_back(PathElement{t.text, std::nullopt});
        } else if (t.kind == Tok::kNumber && t.text.find_first_not_of(
                                                 "0123456789") == std::string::npos &&
                   t.text.size() <= 9) {
          ++pos_;
          path.push_back(PathElement{{}, std::stoll(t.text)});
        } else {
          return Unexpected();
        }
        DR_RETURN_IF_ERROR(Expect(Tok::kRBracket));
      } else {
        break;
      }
      if (path.size() > static_cast<size_t>(kMaxPartiqlNesting)) return TooDeep();
    }
    return path;
  }

  // --- values -------------------------------------------------------------

  bool StartsValue() const {
    const Token& t = Peek();
    switch (t.kind) {
      case Tok::kString:
      case Tok::kNumber:
      case Tok::kParam:
      case Tok::kLBrace:
      case Tok::kLBracket:
      case Tok::kBagOpen:
      case Tok::kMinus:
        return true;
      case Tok::kIdent:
        return IsKeyword("TRUE") || IsKeyword("FALSE") || IsKeyword("NULL");
      default:
        return false;
    }
  }

  Result<AttributeValue> ParseValue() {
    DepthGuard guard(this);
    if (guard.exceeded()) return TooDeep();
    const Token& t = Peek();
    if (t.unterminated) return Unexpected();
    switch (t.kind) {
      case Tok::kString:
        ++pos_;
        return AttributeValue::S(t.text);
      case Tok::kMinus:
      case Tok::kPlus: {
        const bool negative = t.kind == Tok::kMinus;
        ++pos_;
        if (Peek().kind != Tok::kNumber) return Unexpected();
        return ParseNumber(negative);
      }
      case Tok::kNumber:
        return ParseNumber(false);
      case Tok::kParam:
        ++pos_;
        if (next_param_ >= parameters_.size()) return ParameterCount();
        return parameters_[next_param_++];
      case Tok::kLBrace:
        return ParseMap();
      case Tok::kLBracket: {
        ++pos_;
        AttributeValue::List list;
        if (!Accept(Tok::kRBracket)) {
          do {
            DR_ASSIGN_OR_RETURN(AttributeValue v, ParseValue());
            list.push_back(std::move(v));
          } while (Accept(Tok::kComma));
          DR_RETURN_IF_ERROR(Expect(Tok::kRBracket));
        }
        return AttributeValue::L(std::move(list));
      }
      case Tok::kBagOpen:
        return ParseSet();
      case Tok::kIdent:
        if (AcceptKeyword("TRUE")) return AttributeValue::Bool(true);
        if (AcceptKeyword("FALSE")) return AttributeValue::Bool(false);
        if (AcceptKeyword("NULL")) return AttributeValue::Null();
        return Unexpected();
      default:
        return Unexpected();
    }
  }

  Result<AttributeValue> ParseNumber(bool negative) {
    const Token& t = Peek();
    ++pos_;
    Result<Number> n = Number::Parse(negative ? "-" + t.text : t.text);
    if (!n.ok()) return Malformed("Invalid number: " + t.text);
    return AttributeValue::N(std::move(*n));
  }

  Result<AttributeValue> ParseMap() {
    ++pos_;  // {
    AttributeValue::Map map;
    if (Accept(Tok::kRBrace)) return AttributeValue::M(std::move(map));
    do {
      const Token& key = Peek();
      if (key.kind != Tok::kString || key.unterminated) return Unexpected();
      ++pos_;
      DR_RETURN_IF_ERROR(Expect(Tok::kColon));
      DR_ASSIGN_OR_RETURN(AttributeValue v, ParseValue());
      if (!map.emplace(key.text, std::move(v)).second) {
        return Malformed("Duplicate key in tuple: " + key.text);
      }
    } while (Accept(Tok::kComma));
    DR_RETURN_IF_ERROR(Expect(Tok::kRBrace));
    return AttributeValue::M(std::move(map));
  }

  // <<v, ...>>: a string, number or binary set, all members one type.
  Result<AttributeValue> ParseSet() {
    ++pos_;  // <<
    std::vector<AttributeValue> members;
    if (Peek().kind != Tok::kBagClose) {
      do {
        DR_ASSIGN_OR_RETURN(AttributeValue v, ParseValue());
        members.push_back(std::move(v));
      } while (Accept(Tok::kComma));
    }
    DR_RETURN_IF_ERROR(Expect(Tok::kBagClose));
    if (members.empty()) return Malformed("Empty set is not supported");
    const AttrType type = members.front().type();
    for (const AttributeValue& m : members) {
      if (m.type() != type || !m.is_scalar_key_type()) {
        return Malformed(
            "A set must contain members of one type: string, number or binary");
      }
    }
    if (type == AttrType::kS) {
      std::vector<std::string> v;
      for (AttributeValue& m : members) v.push_back(m.s());
      return AttributeValue::SS(std::move(v));
    }
    if (type == AttrType::kN) {
      std::vector<Number> v;
      for (AttributeValue& m : members) v.push_back(m.n());
      return AttributeValue::NS(std::move(v));
    }
    std::vector<std::string> v;
    for (AttributeValue& m : members) v.push_back(m.b());
    return AttributeValue::BS(std::move(v));
  }

  // --- conditions ---------------------------------------------------------

  Result<Operand> ParseOperand() {
    Operand o;
    if (StartsValue()) {
      o.kind = Operand::Kind::kValue;
      DR_ASSIGN_OR_RETURN(o.value, ParseValue());
      return o;
    }
    if (IsKeyword("size") && Peek(1).kind == Tok::kLParen) {
      pos_ += 2;
      o.kind = Operand::Kind::kSize;
      DR_ASSIGN_OR_RETURN(o.path, ParsePath());
      DR_RETURN_IF_ERROR(Expect(Tok::kRParen));
      return o;
    }
    o.kind = Operand::Kind::kPath;
    DR_ASSIGN_OR_RETURN(o.path, ParsePath());
    return o;
  }

  // Nesting is counted in ParseNot, which every nested condition passes.
  Result<std::unique_ptr<Condition>> ParseCondition() {
    DR_ASSIGN_OR_RETURN(std::unique_ptr<Condition> first, ParseAnd());
    if (!IsKeyword("OR")) return first;
    auto node = std::make_unique<Condition>();
    node->kind = Condition::Kind::kOr;
    node->children.push_back(std::move(first));
    while (AcceptKeyword("OR")) {
      DR_ASSIGN_OR_RETURN(std::unique_ptr<Condition> next, ParseAnd());
      node->children.push_back(std::move(next));
    }
    return node;
  }

  Result<std::unique_ptr<Condition>> ParseAnd() {
    DR_ASSIGN_OR_RETURN(std::unique_ptr<Condition> first, ParseNot());
    if (!IsKeyword("AND")) return first;
    auto node = std::make_unique<Condition>();
    node->kind = Condition::Kind::kAnd;
    node->children.push_back(std::move(first));
    while (AcceptKeyword("AND")) {
      DR_ASSIGN_OR_RETURN(std::unique_ptr<Condition> next, ParseNot());
      node->children.push_back(std::move(next));
    }
    return node;
  }

  Result<std::unique_ptr<Condition>> ParseNot() {
    DepthGuard guard(this);
    if (guard.exceeded()) return TooDeep();
    if (AcceptKeyword("NOT")) {
      DR_ASSIGN_OR_RETURN(std::unique_ptr<Condition> inner, ParseNot());
      return Negate(std::move(inner));
    }
    return ParsePrimary();
  }

  static std::unique_ptr<Condition> Negate(std::unique_ptr<Condition> inner) {
    auto node = std::make_unique<Condition>();
    node->kind = Condition::Kind::kNot;
    node->children.push_back(std::move(inner));
    return node;
  }

  Result<std::unique_ptr<Condition>> ParsePrimary() {
    if (Accept(Tok::kLParen)) {
      DR_ASSIGN_OR_RETURN(std::unique_ptr<Condition> inner, ParseCondition());
      DR_RETURN_IF_ERROR(Expect(Tok::kRParen));
      return inner;
    }
    auto node = std::make_unique<Condition>();
    for (std::string_view f : {"begins_with", "contains", "attribute_type"}) {
      if (IsKeyword(f) && Peek(1).kind == Tok::kLParen) {
        pos_ += 2;
        node->kind = Condition::Kind::kFunction;
        node->op = std::string(f);
        DR_ASSIGN_OR_RETURN(Operand path, ParseOperand());
        if (path.kind != Operand::Kind::kPath) return Unexpected();
        DR_RETURN_IF_ERROR(Expect(Tok::kComma));
        DR_ASSIGN_OR_RETURN(Operand arg, ParseOperand());
        DR_RETURN_IF_ERROR(Expect(Tok::kRParen));
        node->operands.push_back(std::move(path));
        node->operands.push_back(std::move(arg));
        return node;
      }
    }
    DR_ASSIGN_OR_RETURN(Operand left, ParseOperand());
    node->operands.push_back(std::move(left));
    const Tok op = Peek().kind;
    if (op == Tok::kEq || op == Tok::kNe || op == Tok::kLt || op == Tok::kLe ||
        op == Tok::kGt || op == Tok::kGe) {
      node->kind = Condition::Kind::kCompare;
      node->op = op == Tok::kNe ? "<>" : Peek().text;
      ++pos_;
      DR_ASSIGN_OR_RETURN(Operand right, ParseOperand());
      node->operands.push_back(std::move(right));
      return node;
    }
    if (AcceptKeyword("IS")) {
      if (node->operands[0].kind != Operand::Kind::kPath) return Unexpected();
      const bool negated = AcceptKeyword("NOT");
      if (AcceptKeyword("MISSING")) {
        node->kind = negated ? Condition::Kind::kIsNotMissing
                             : Condition::Kind::kIsMissing;
      } else {
        DR_RETURN_IF_ERROR(ExpectKeyword("NULL"));
        node->kind = negated ? Condition::Kind::kIsNotNull : Condition::Kind::kIsNull;
      }
      return node;
    }
    const bool negated = AcceptKeyword("NOT");
    if (AcceptKeyword("BETWEEN")) {
      node->kind = Condition::Kind::kBetween;
      DR_ASSIGN_OR_RETURN(Operand low, ParseOperand());
      DR_RETURN_IF_ERROR(ExpectKeyword("AND"));
      DR_ASSIGN_OR_RETURN(Operand high, ParseOperand());
      node->operands.push_back(std::move(low));
      node->operands.push_back(std::move(high));
    } else if (AcceptKeyword("IN")) {
      node->kind = Condition::Kind::kIn;
      const Tok open = Peek().kind;
      if (open != Tok::kLBracket && open != Tok::kLParen) return Unexpected();
      ++pos_;
      do {
        DR_ASSIGN_OR_RETURN(Operand v, ParseOperand());
        node->operands.push_back(std::move(v));
      } while (Accept(Tok::kComma));
      DR_RETURN_IF_ERROR(
          Expect(open == Tok::kLBracket ? Tok::kRBracket : Tok::kRParen));
    } else {
      return Unexpected();
    }
    if (negated) return Negate(std::move(node));
    return node;
  }

  // --- UPDATE ---------------------------------------------------------------

  Status ParseUpdateClauses(Statement* s) {
    bool any = false;
    while (true) {
      if (AcceptKeyword("SET")) {
        do {
          DR_RETURN_IF_ERROR(ParseAssignment(s));
        } while (Accept(Tok::kComma));
      } else if (AcceptKeyword("REMOVE")) {
        do {
          UpdateAction a;
          a.kind = UpdateAction::Kind::kRemove;
          DR_ASSIGN_OR_RETURN(a.path, ParsePath());
          s->actions.push_back(std::move(a));
        } while (Accept(Tok::kComma));
      } else {
        break;
      }
      any = true;
    }
    return any ? Status::OK() : Unexpected();
  }

  Status ParseAssignment(Statement* s) {
    UpdateAction a;
    DR_ASSIGN_OR_RETURN(a.path, ParsePath());
    DR_RETURN_IF_ERROR(Expect(Tok::kEq));
    struct Fn {
      std::string_view name;
      UpdateAction::Kind kind;
    };
    static constexpr Fn kFunctions[] = {
        {"list_append", UpdateAction::Kind::kListAppend},
        {"set_add", UpdateAction::Kind::kSetAdd},
        {"set_delete", UpdateAction::Kind::kSetDelete},
    };
    for (const Fn& f : kFunctions) {
      if (IsKeyword(f.name) && Peek(1).kind == Tok::kLParen) {
        pos_ += 2;
        a.kind = f.kind;
        DR_ASSIGN_OR_RETURN(Operand first, ParseOperand());
        DR_RETURN_IF_ERROR(Expect(Tok::kComma));
        DR_ASSIGN_OR_RETURN(Operand second, ParseOperand());
        DR_RETURN_IF_ERROR(Expect(Tok::kRParen));
        a.operands.push_back(std::move(first));
        a.operands.push_back(std::move(second));
        s->actions.push_back(std::move(a));
        return Status::OK();
      }
    }
    DR_ASSIGN_OR_RETURN(Operand first, ParseOperand());
    a.operands.push_back(std::move(first));
    if (Accept(Tok::kPlus)) {
      a.kind = UpdateAction::Kind::kSetPlus;
    } else if (Accept(Tok::kMinus)) {
      a.kind = UpdateAction::Kind::kSetMinus;
    } else {
      a.kind = UpdateAction::Kind::kSet;
      s->actions.push_back(std::move(a));
      return Status::OK();
    }
    DR_ASSIGN_OR_RETURN(Operand second, ParseOperand());
    a.operands.push_back(std::move(second));
    s->actions.push_back(std::move(a));
    return Status::OK();
  }

  Status ParseReturning(Statement* s) {
    if (!AcceptKeyword("RETURNING")) return Status::OK();
    bool all = false;
    if (AcceptKeyword("ALL")) {
      all = true;
    } else {
      DR_RETURN_IF_ERROR(ExpectKeyword("MODIFIED"));
    }
    bool old_values = false;
    if (AcceptKeyword("OLD")) {
      old_values = true;
    } else {
      DR_RETURN_IF_ERROR(ExpectKeyword("NEW"));
    }
    DR_RETURN_IF_ERROR(Expect(Tok::kStar));
    s->returning = all ? (old_values ? Returning::kAllOld : Returning::kAllNew)
                       : (old_values ? Returning::kModifiedOld
                                     : Returning::kModifiedNew);
    return Status::OK();
  }

  std::vector<Token> tokens_;
  const std::vector<AttributeValue>& parameters_;
  size_t pos_ = 0;
  size_t next_param_ = 0;
  int depth_ = 0;
};

}  // namespace

Status Malformed(std::string_view detail) {
  std::string message = "Statement wasn't well formed, can't be processed: ";
  message += detail;
  return Status::Validation(std::move(message));
}

Result<Statement> Parse(std::string_view text,
                        const std::vector<AttributeValue>& parameters) {
  return Parser(text, parameters).Run();
}

}  // namespace dynarock::partiql
