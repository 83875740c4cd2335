// engine/expr/parse_cache.h
//
// A process-wide, bounded cache of parsed (unresolved) expression trees,
// keyed by expression kind and text: applications send the same few
// expressions again and again with different values, so each text is
// parsed once. Only successful parses are kept. When a kind's cache is
// full, an arbitrary entry makes room.
//
// Trees are shared immutable values (ast.h); callers resolve a copy.
// Thread-safe.

#ifndef DYNAROCK_ENGINE_EXPR_PARSE_CACHE_H_
#define DYNAROCK_ENGINE_EXPR_PARSE_CACHE_H_

#include <cstddef>
#include <memory>
#include <string_view>

#include "engine/expr/ast.h"
#include "engine/status.h"

namespace dynarock::expr {

// Entries kept per expression kind.
inline constexpr size_t kParseCacheEntries = 1024;

// As ParseCondition / ParseUpdate / ParseProjection (parser.h), through the
// cache.
Result<std::shared_ptr<const ConditionExpression>> CachedParseCondition(
    std::string_view text, ExpressionKind kind);
Result<std::shared_ptr<const UpdateExpression>> CachedParseUpdate(
    std::string_view text);
Result<std::shared_ptr<const ProjectionExpression>> CachedParseProjection(
    std::string_view text);

// Entries currently cached, all kinds together (for tests).
size_t TEST_ParseCacheSize();

}  // namespace dynarock::expr

#endif  // DYNAROCK_ENGINE_EXPR_PARSE_CACHE_H_
