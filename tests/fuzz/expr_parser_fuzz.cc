// tests/fuzz/expr_parser_fuzz.cc
//
// libFuzzer target for the expression languages. Every input is parsed as
// each expression kind. Whatever parses must render to text that parses
// back to the same rendering; it is then resolved (every #name and :value
// in the text defined, values of varied types), evaluated against a fixed
// item, applied as an update, used as a projection and as a key condition.
// Any crash, sanitizer report or broken round trip is a finding.
//
// Build: clang, -DDYNAROCK_BUILD_FUZZERS=ON (see tests/fuzz/CMakeLists.txt).
// Run:   ./expr_parser_fuzz -max_total_time=60 corpus_dir \
//            ../tests/fuzz/corpus/expr_parser

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "engine/expr/evaluate.h"
#include "engine/expr/key_condition.h"
#include "engine/expr/lexer.h"
#include "engine/expr/parser.h"
#include "engine/expr/render.h"
#include "engine/expr/resolve.h"
#include "engine/types.h"
#include "engine/value/number.h"

namespace {

using dynarock::AttributeValue;
using dynarock::AttrType;
using dynarock::Item;
using dynarock::KeyDef;
using dynarock::Number;
using dynarock::Result;
namespace expr = dynarock::expr;

Number Dec(std::string_view text) { return Number::Parse(text).value(); }
AttributeValue Num(std::string_view text) { return AttributeValue::N(Dec(text)); }

const Item& FixedItem() {
  static const Item* item = new Item{
      {"a", Num("1")},
      {"b", AttributeValue::S("hello")},
      {"c", AttributeValue::L({Num("1"), AttributeValue::S("x"),
                               AttributeValue::L({})})},
      {"d", AttributeValue::M({{"e", Num("2")},
                               {"f", AttributeValue::M({})}})},
      {"s", AttributeValue::SS({"x", "y"})},
      {"n", AttributeValue::NS({Dec("1"), Dec("2")})},
      {"x", AttributeValue::B("\x01\x02")},
      {"t", AttributeValue::Bool(true)},
      {"z", AttributeValue::Null()},
  };
  return *item;
}

// A value for placeholder `token`, its type chosen by the token's text.
AttributeValue ValueFor(std::string_view token) {
  size_t h = 0;
  for (char c : token) h = h * 31 + static_cast<unsigned char>(c);
  switch (h % 12) {
    case 0:
      return Num("5");
    case 1:
      return AttributeValue::S("hello");
    case 2:
      return AttributeValue::B("\x01");
    case 3:
      return AttributeValue::Bool(false);
    case 4:
      return AttributeValue::Null();
    case 5:
      return AttributeValue::L({Num("1")});
    case 6:
      return AttributeValue::M({{"e", Num("1")}});
    case 7:
      return AttributeValue::SS({"x", "p", "q"});
    case 8:
      return AttributeValue::NS({Dec("3")});
    case 9:
      return AttributeValue::BS({"y", "\x01", "z"});
    case 10:
      return AttributeValue::S("N");
    default:
      return Num("9.9999999999999999999999999999999999999E+125");
  }
}

[[noreturn]] void Fail(const char* what, std::string_view a,
                       std::string_view b) {
  std::fprintf(stderr, "%s\n  first:  %.*s\n  second: %.*s\n", what,
               static_cast<int>(a.size()), a.data(),
               static_cast<int>(b.size()), b.data());
  std::abort();
}

// Rendering must parse back to the same rendering.
template <typename T, typename ParseFn>
void CheckRoundTrip(const T& tree, ParseFn parse) {
  const std::string rendered = expr::Render(tree);
  if (rendered.size() > expr::kMaxExpressionBytes) return;
  Result<T> again = parse(rendered);
  if (!again.ok()) {
    Fail("rendering does not parse", rendered, again.status().message());
  }
  const std::string twice = expr::Render(*again);
  if (twice != rendered) Fail("round trip changed the rendering", rendered, twice);
}

void Exercise(std::string_view text) {
  expr::NameMap names;
  expr::ValueMap values;
  for (const expr::Token& t : expr::Lex(text)) {
    if (t.kind == expr::TokenKind::kNameRef) {
      names.emplace(std::string(t.text), std::string(t.text.substr(1)));
    } else if (t.kind == expr::TokenKind::kValueRef) {
      values.emplace(std::string(t.text), ValueFor(t.text));
    }
  }
  const Item& item = FixedItem();

  for (expr::ExpressionKind kind :
       {expr::ExpressionKind::kCondition, expr::ExpressionKind::kFilter,
        expr::ExpressionKind::kKeyCondition}) {
    Result<expr::ConditionExpression> c = expr::ParseCondition(text, kind);
    if (!c.ok()) continue;
    CheckRoundTrip(*c, [kind](std::string_view s) {
      return expr::ParseCondition(s, kind);
    });
    expr::Resolver resolver(&names, &values);
    Result<expr::ConditionExpression> r = resolver.Resolve(*c);
    if (!r.ok()) continue;
    (void)expr::RenderResolved(*r);
    (void)resolver.CheckAllUsed();
    (void)expr::EvaluateCondition(*r, &item);
    (void)expr::EvaluateCondition(*r, nullptr);
    if (kind == expr::ExpressionKind::kKeyCondition) {
      Result<expr::KeyCondition> kc = expr::AnalyzeKeyCondition(*r);
      if (kc.ok()) {
        KeyDef key;
        key.hash_name = "a";
        key.hash_type = AttrType::kN;
        key.range_name = "b";
        key.range_type = AttrType::kS;
        Result<expr::KeyQuery> q = expr::BindKeyCondition(*kc, key);
        if (q.ok() && q->sort.has_value()) {
          (void)expr::MatchesSortCondition(*q->sort, item.at("b"));
        }
      }
    }
  }

  Result<expr::UpdateExpression> u = expr::ParseUpdate(text);
  if (u.ok()) {
    CheckRoundTrip(*u, [](std::string_view s) { return expr::ParseUpdate(s); });
    expr::Resolver resolver(&names, &values);
    Result<expr::UpdateExpression> r = resolver.Resolve(*u);
    if (r.ok()) {
      (void)expr::RenderResolved(*r);
      Result<Item> out = expr::ApplyUpdate(*r, item);
      if (out.ok()) {
        (void)expr::ProjectItem(*out, expr::UpdatedPaths(*r));
        (void)expr::ApplyUpdate(*r, *out);
      }
      (void)expr::ApplyUpdate(*r, Item{}, /*item_exists=*/false);
      (void)expr::UpdatedAttributes(*r);
    }
  }

  Result<expr::ProjectionExpression> p = expr::ParseProjection(text);
  if (p.ok()) {
    CheckRoundTrip(*p,
                   [](std::string_view s) { return expr::ParseProjection(s); });
    expr::Resolver resolver(&names, nullptr);
    Result<expr::ProjectionExpression> r = resolver.Resolve(*p);
    if (r.ok()) (void)expr::ProjectItem(item, *r);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Exercise(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
