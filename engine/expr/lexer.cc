#include "engine/expr/lexer.h"

#include <cassert>

namespace dynarock::expr {

namespace {

bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsWordChar(char c) { return IsAlpha(c) || IsDigit(c) || c == '_'; }
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Length of the UTF-8 sequence starting at text[i] (1 for anything that is
// not a well-formed lead byte, so that lexing always advances).
size_t Utf8Length(std::string_view text, size_t i) {
  const auto lead = static_cast<uint8_t>(text[i]);
  size_t n = 1;
  if (lead >= 0xF0 && lead <= 0xF4) {
    n = 4;
  } else if (lead >= 0xE0) {
    n = lead <= 0xEF ? 3 : 1;
  } else if (lead >= 0xC2) {
    n = 2;
  }
  if (i + n > text.size()) return 1;
  for (size_t k = 1; k < n; ++k) {
    if ((static_cast<uint8_t>(text[i + k]) & 0xC0) != 0x80) return 1;
  }
  return n;
}

}  // namespace

bool IsComparison(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEq:
    case TokenKind::kNe:
    case TokenKind::kLt:
    case TokenKind::kLe:
    case TokenKind::kGt:
    case TokenKind::kGe:
      return true;
    default:
      return false;
  }
}

std::vector<Token> Lex(std::string_view text) {
  assert(text.size() < (size_t{1} << 32));
  std::vector<Token> tokens;
  tokens.reserve(text.size() / 3 + 2);
  size_t i = 0;
  const size_t n = text.size();
  auto push = [&](TokenKind kind, size_t begin, size_t end) {
    tokens.push_back(Token{kind, text.substr(begin, end - begin),
                           static_cast<uint32_t>(begin),
                           static_cast<uint32_t>(end)});
  };
  while (i < n) {
    const char c = text[i];
    if (IsSpace(c)) {
      ++i;
      continue;
    }
    const size_t start = i;
    if (IsAlpha(c)) {
      while (i < n && IsWordChar(text[i])) ++i;
      push(TokenKind::kIdentifier, start, i);
      continue;
    }
    if (IsDigit(c)) {
      while (i < n && IsDigit(text[i])) ++i;
      push(TokenKind::kNumber, start, i);
      continue;
    }
    if (c == '#' || c == ':') {
      size_t j = i + 1;
      while (j < n && IsWordChar(text[j])) ++j;
      if (j == i + 1) {
        push(TokenKind::kInvalid, start, i + 1);
        i = j;
      } else {
        push(c == '#' ? TokenKind::kNameRef : TokenKind::kValueRef, start, j);
        i = j;
      }
      continue;
    }
    TokenKind kind = TokenKind::kInvalid;
    size_t len = 1;
    switch (c) {
      case '(':
        kind = TokenKind::kLParen;
        break;
      case ')':
        kind = TokenKind::kRParen;
        break;
      case '[':
        kind = TokenKind::kLBracket;
        break;
      case ']':
        kind = TokenKind::kRBracket;
        break;
      case ',':
        kind = TokenKind::kComma;
        break;
      case '.':
        kind = TokenKind::kDot;
        break;
      case '=':
        kind = TokenKind::kEq;
        break;
      case '+':
        kind = TokenKind::kPlus;
        break;
      case '-':
        kind = TokenKind::kMinus;
        break;
      case '<':
        if (i + 1 < n && text[i + 1] == '>') {
          kind = TokenKind::kNe;
          len = 2;
        } else if (i + 1 < n && text[i + 1] == '=') {
          kind = TokenKind::kLe;
          len = 2;
        } else {
          kind = TokenKind::kLt;
        }
        break;
      case '>':
        if (i + 1 < n && text[i + 1] == '=') {
          kind = TokenKind::kGe;
          len = 2;
        } else {
          kind = TokenKind::kGt;
        }
        break;
      default:
        len = Utf8Length(text, i);
        break;
    }
    push(kind, start, start + len);
    i = start + len;
  }
  tokens.push_back(Token{TokenKind::kEnd, text.substr(n, 0),
                         static_cast<uint32_t>(n), static_cast<uint32_t>(n)});
  return tokens;
}

}  // namespace dynarock::expr
