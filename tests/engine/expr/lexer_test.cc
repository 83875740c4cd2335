#include "engine/expr/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

namespace dynarock::expr {
namespace {

std::string KindName(TokenKind k) {
  switch (k) {
    case TokenKind::kIdentifier:
      return "ID";
    case TokenKind::kNameRef:
      return "NAME";
    case TokenKind::kValueRef:
      return "VALUE";
    case TokenKind::kNumber:
      return "NUM";
    case TokenKind::kLParen:
      return "(";
    case TokenKind::kRParen:
      return ")";
    case TokenKind::kLBracket:
      return "[";
    case TokenKind::kRBracket:
      return "]";
    case TokenKind::kComma:
      return ",";
    case TokenKind::kDot:
      return ".";
    case TokenKind::kEq:
      return "=";
    case TokenKind::kNe:
      return "<>";
    case TokenKind::kLt:
      return "<";
    case TokenKind::kLe:
      return "<=";
    case TokenKind::kGt:
      return ">";
    case TokenKind::kGe:
      return ">=";
    case TokenKind::kPlus:
      return "+";
    case TokenKind::kMinus:
      return "-";
    case TokenKind::kInvalid:
      return "BAD";
    case TokenKind::kEnd:
      return "END";
  }
  return "?";
}

// Renders tokens as "KIND:text@begin" separated by spaces; punctuation
// prints only its kind.
std::string LexText(std::string_view text) {
  std::string out;
  for (const Token& t : Lex(text)) {
    if (!out.empty()) out += " ";
    out += KindName(t.kind);
    switch (t.kind) {
      case TokenKind::kIdentifier:
      case TokenKind::kNameRef:
      case TokenKind::kValueRef:
      case TokenKind::kNumber:
      case TokenKind::kInvalid:
        out += ":" + std::string(t.text);
        break;
      default:
        break;
    }
    out += "@" + std::to_string(t.begin);
  }
  return out;
}

struct LexCase {
  std::string_view text;
  std::string_view tokens;
};

constexpr LexCase kLexCases[] = {
    {"", "END@0"},
    {"   ", "END@3"},
    {"a", "ID:a@0 END@1"},
    {" \t\r\na \n", "ID:a@4 END@7"},
    {"abc_12 = :v1", "ID:abc_12@0 =@7 VALUE::v1@9 END@12"},
    {"#n.#m", "NAME:#n@0 .@2 NAME:#m@3 END@5"},
    {"#123 #_ #a_b", "NAME:#123@0 NAME:#_@5 NAME:#a_b@8 END@12"},
    {":123 :_ :a_B", "VALUE::123@0 VALUE::_@5 VALUE::a_B@8 END@12"},
    {"a[12]", "ID:a@0 [@1 NUM:12@2 ]@4 END@5"},
    {"a[007]", "ID:a@0 [@1 NUM:007@2 ]@5 END@6"},
    {"=<><<=>>=", "=@0 <>@1 <@3 <=@4 >@6 >=@7 END@9"},
    {"< >", "<@0 >@2 END@3"},
    {"< =", "<@0 =@2 END@3"},
    {"a+b-c", "ID:a@0 +@1 ID:b@2 -@3 ID:c@4 END@5"},
    {"f(a, b)", "ID:f@0 (@1 ID:a@2 ,@3 ID:b@5 )@6 END@7"},
    {"_a", "BAD:_@0 ID:a@1 END@2"},
    {"_123", "BAD:_@0 NUM:123@1 END@4"},
    {"123abc", "NUM:123@0 ID:abc@3 END@6"},
    {"#", "BAD:#@0 END@1"},
    {":", "BAD::@0 END@1"},
    {"# a", "BAD:#@0 ID:a@2 END@3"},
    {"#-a", "BAD:#@0 -@1 ID:a@2 END@3"},
    {"a!=b", "ID:a@0 BAD:!@1 =@2 ID:b@3 END@4"},
    {"a$b", "ID:a@0 BAD:$@1 ID:b@2 END@3"},
    {"'x'", "BAD:'@0 ID:x@1 BAD:'@2 END@3"},
    {"\"x\"", "BAD:\"@0 ID:x@1 BAD:\"@2 END@3"},
    {"a;b", "ID:a@0 BAD:;@1 ID:b@2 END@3"},
    {"a*b/c", "ID:a@0 BAD:*@1 ID:b@2 BAD:/@3 ID:c@4 END@5"},
    {"a{b}", "ID:a@0 BAD:{@1 ID:b@2 BAD:}@3 END@4"},
    // Non-ASCII: one token per UTF-8 sequence; a broken sequence is one byte.
    {"\xC3\xA9", "BAD:\xC3\xA9@0 END@2"},
    {"a\xE2\x82\xAC" "b", "ID:a@0 BAD:\xE2\x82\xAC@1 ID:b@4 END@5"},
    {"\xF0\x9F\x98\x80", "BAD:\xF0\x9F\x98\x80@0 END@4"},
    {"\xC3", "BAD:\xC3@0 END@1"},
    {"\xC3(", "BAD:\xC3@0 (@1 END@2"},
    {"\x80\x80", "BAD:\x80@0 BAD:\x80@1 END@2"},
    // Keywords are identifiers; the parser decides.
    {"SET a = b AND c", "ID:SET@0 ID:a@4 =@6 ID:b@8 ID:AND@10 ID:c@14 END@15"},
    {"a.b[1].c", "ID:a@0 .@1 ID:b@2 [@3 NUM:1@4 ]@5 .@6 ID:c@7 END@8"},
};

TEST(LexerTest, Table) {
  for (const LexCase& c : kLexCases) {
    EXPECT_EQ(c.tokens, LexText(c.text)) << "text: " << c.text;
  }
}

TEST(LexerTest, TokensAreViewsIntoTheText) {
  std::string text = "abc = :v";
  std::vector<Token> tokens = Lex(text);
  ASSERT_EQ(4u, tokens.size());
  EXPECT_EQ(text.data(), tokens[0].text.data());
  EXPECT_EQ(3u, tokens[0].end);
  EXPECT_EQ(text.data() + 6, tokens[2].text.data());
  EXPECT_EQ(8u, tokens[3].begin);
  EXPECT_TRUE(tokens[3].text.empty());
}

TEST(LexerTest, IsComparison) {
  for (TokenKind k : {TokenKind::kEq, TokenKind::kNe, TokenKind::kLt,
                      TokenKind::kLe, TokenKind::kGt, TokenKind::kGe}) {
    EXPECT_TRUE(IsComparison(k));
  }
  for (TokenKind k : {TokenKind::kPlus, TokenKind::kMinus, TokenKind::kComma,
                      TokenKind::kIdentifier, TokenKind::kEnd}) {
    EXPECT_FALSE(IsComparison(k));
  }
}

TEST(LexerTest, EveryByteLexesWithoutLoopingOrCrashing) {
  for (int c = 0; c < 256; ++c) {
    std::string text(1, static_cast<char>(c));
    text += "a";
    std::vector<Token> tokens = Lex(text);
    ASSERT_FALSE(tokens.empty());
    EXPECT_EQ(TokenKind::kEnd, tokens.back().kind);
    uint32_t covered = 0;
    for (const Token& t : tokens) {
      EXPECT_GE(t.begin, covered);
      covered = t.end;
    }
    EXPECT_EQ(text.size(), covered);
  }
}

}  // namespace
}  // namespace dynarock::expr
