// tests/engine/expr/expr_test_util.h
//
// Helpers for the expression tests: parse (and resolve) text and return the
// canonical rendering, or the error message, as one string, so that test
// tables read {input, expected output or exact error}.

#ifndef DYNAROCK_TESTS_ENGINE_EXPR_EXPR_TEST_UTIL_H_
#define DYNAROCK_TESTS_ENGINE_EXPR_EXPR_TEST_UTIL_H_

#include <map>
#include <string>
#include <string_view>

#include "engine/expr/parser.h"
#include "engine/expr/render.h"
#include "engine/status.h"
#include "engine/types.h"
#include "engine/value/number.h"

namespace dynarock::expr::testing {

inline std::string ParseConditionText(
    std::string_view text, ExpressionKind kind = ExpressionKind::kCondition) {
  Result<ConditionExpression> r = ParseCondition(text, kind);
  return r.ok() ? Render(*r) : r.status().message();
}

inline std::string ParseUpdateText(std::string_view text) {
  Result<UpdateExpression> r = ParseUpdate(text);
  return r.ok() ? Render(*r) : r.status().message();
}

inline std::string ParseProjectionText(std::string_view text) {
  Result<ProjectionExpression> r = ParseProjection(text);
  return r.ok() ? Render(*r) : r.status().message();
}

// Value builders for test tables.
inline AttributeValue S(std::string s) { return AttributeValue::S(std::move(s)); }
inline AttributeValue B(std::string s) { return AttributeValue::B(std::move(s)); }
inline AttributeValue N(std::string_view text) {
  return AttributeValue::N(Number::Parse(text).value());
}
inline AttributeValue Bool(bool b) { return AttributeValue::Bool(b); }
inline AttributeValue Null() { return AttributeValue::Null(); }
inline AttributeValue L(AttributeValue::List l) {
  return AttributeValue::L(std::move(l));
}
inline AttributeValue M(AttributeValue::Map m) {
  return AttributeValue::M(std::move(m));
}
inline AttributeValue SS(std::vector<std::string> v) {
  return AttributeValue::SS(std::move(v));
}
inline AttributeValue BS(std::vector<std::string> v) {
  return AttributeValue::BS(std::move(v));
}
inline AttributeValue NS(std::vector<std::string_view> v) {
  std::vector<Number> ns;
  for (std::string_view t : v) ns.push_back(Number::Parse(t).value());
  return AttributeValue::NS(std::move(ns));
}

}  // namespace dynarock::expr::testing

#endif  // DYNAROCK_TESTS_ENGINE_EXPR_EXPR_TEST_UTIL_H_
