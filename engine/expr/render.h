// engine/expr/render.h
//
// Canonical text of expression trees, for tests, logs and parse-cache keys.
// Render() prints an expression as written but normalized: single spaces,
// keywords in upper case, and every AND, OR, NOT and arithmetic operation in
// parentheses, so precedence is visible:
//
//   Render(ParseCondition("a<b or not c=:v and begins_with(d,:p)").value())
//       == "(a < b OR ((NOT c = :v) AND begins_with(d, :p)))"
//   Render(ParseUpdate("SET a = a + :v").value()) == "SET a = (a + :v)"
//
// Placeholders print as written (#n, :v). RenderResolved() prints what a
// resolved tree holds instead: attribute names and values ({N:5}, {S:x},
// {L:[{N:1}]}, ...). Stateless; thread-safe.

#ifndef DYNAROCK_ENGINE_EXPR_RENDER_H_
#define DYNAROCK_ENGINE_EXPR_RENDER_H_

#include <string>

#include "engine/expr/ast.h"
#include "engine/types.h"
#include "engine/value/value_text.h"

namespace dynarock::expr {

std::string Render(const Path& path);
std::string Render(const Operand& operand);
std::string Render(const Condition& condition);
std::string Render(const ConditionExpression& condition);
std::string Render(const UpdateExpression& update);
std::string Render(const ProjectionExpression& projection);

// REQUIRES: the tree is resolved.
std::string RenderResolved(const Path& path);
std::string RenderResolved(const Operand& operand);
std::string RenderResolved(const ConditionExpression& condition);
std::string RenderResolved(const UpdateExpression& update);
std::string RenderResolved(const ProjectionExpression& projection);

// Values print in the compact form of engine/value/value_text.h ({S:x},
// {N:1.5}, {L:[{N:1}]}, ...), which the expression code names as its own.
using ::dynarock::RenderItem;
using ::dynarock::RenderValue;

}  // namespace dynarock::expr

#endif  // DYNAROCK_ENGINE_EXPR_RENDER_H_
