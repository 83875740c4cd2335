// engine/expr/lexer.h
//
// The one lexer of all five expression kinds. Lex() never fails: a character
// that starts no token becomes a kInvalid token, which no grammar accepts, so
// the parser reports it as DynamoDB does (Syntax error; token: "_", ...).
// Keywords (AND, SET, BETWEEN, ...) are lexed as identifiers; the parser
// decides by context, because a word that is a keyword in one expression
// kind is an attribute name in another.
//
// Tokens are views into the lexed text, which must outlive them.
// Stateless; thread-safe.

#ifndef DYNAROCK_ENGINE_EXPR_LEXER_H_
#define DYNAROCK_ENGINE_EXPR_LEXER_H_

#include <cstdint>
#include <string_view>
#include <vector>

namespace dynarock::expr {

enum class TokenKind : uint8_t {
  kIdentifier,  // [A-Za-z][A-Za-z0-9_]*  (attribute, function or keyword)
  kNameRef,     // #[A-Za-z0-9_]+
  kValueRef,    // :[A-Za-z0-9_]+
  kNumber,      // [0-9]+  (list indexes only)
  kLParen,      // (
  kRParen,      // )
  kLBracket,    // [
  kRBracket,    // ]
  kComma,       // ,
  kDot,         // .
  kEq,          // =
  kNe,          // <>
  kLt,          // <
  kLe,          // <=
  kGt,          // >
  kGe,          // >=
  kPlus,        // +
  kMinus,       // -
  kInvalid,     // one character (one UTF-8 sequence) that starts no token
  kEnd,         // end of input; text is empty
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string_view text;
  uint32_t begin = 0;  // byte offsets into the lexed text
  uint32_t end = 0;
};

// Splits `text` into tokens, skipping spaces, tabs, CR and LF. The result
// always ends with one kEnd token.
// REQUIRES: text.size() < 2^32
std::vector<Token> Lex(std::string_view text);

// True if `kind` is one of the comparison operators = <> < <= > >=.
bool IsComparison(TokenKind kind);

}  // namespace dynarock::expr

#endif  // DYNAROCK_ENGINE_EXPR_LEXER_H_
