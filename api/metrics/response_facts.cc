// api/metrics/response_facts.cc

#include "api/metrics/response_facts.h"

#include <cstddef>

namespace dynarock::api::metrics {
namespace {

size_t SkipSpace(std::string_view text, size_t pos) {
  while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                               text[pos] == '\r' || text[pos] == '\n')) {
    ++pos;
  }
  return pos;
}

bool IsTableNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '.' || c == '-';
}

// The position just after `"key"` followed by optional space and ':' (and
// the space after it), searching from `from`; npos when there is none. A
// quote preceded by a backslash is inside a string and does not count.
size_t FindMember(std::string_view text, std::string_view quoted_key, size_t from) {
  for (size_t at = text.find(quoted_key, from); at != std::string_view::npos;
       at = text.find(quoted_key, at + 1)) {
    if (at > 0 && text[at - 1] == '\\') continue;
    size_t pos = SkipSpace(text, at + quoted_key.size());
    if (pos < text.size() && text[pos] == ':') return SkipSpace(text, pos + 1);
  }
  return std::string_view::npos;
}

// A valid table name in quotes at `pos`, or nullopt.
std::optional<std::string_view> QuotedTableName(std::string_view text, size_t pos) {
  if (pos >= text.size() || text[pos] != '"') return std::nullopt;
  size_t end = pos + 1;
  while (end < text.size() && IsTableNameChar(text[end])) ++end;
  const size_t length = end - pos - 1;
  if (end >= text.size() || text[end] != '"' || length < 3 || length > 255) {
    return std::nullopt;
  }
  return text.substr(pos + 1, length);
}

}  // namespace

std::optional<std::string_view> TableNameOf(std::string_view body) {
  constexpr std::string_view kTableName = "\"TableName\"";
  for (size_t pos = FindMember(body, kTableName, 0); pos != std::string_view::npos;
       pos = FindMember(body, kTableName, pos)) {
    // A string value is the name; any other value (an attribute named
    // TableName holds an object) is not.
    if (pos < body.size() && body[pos] == '"') return QuotedTableName(body, pos);
  }
  size_t pos = FindMember(body, "\"RequestItems\"", 0);
  if (pos == std::string_view::npos || pos >= body.size() || body[pos] != '{') {
    return std::nullopt;
  }
  return QuotedTableName(body, SkipSpace(body, pos + 1));
}

std::string_view ErrorTypeOf(std::string_view body) {
  const size_t pos = FindMember(body, "\"__type\"", 0);
  if (pos == std::string_view::npos || pos >= body.size() || body[pos] != '"') return {};
  const size_t end = body.find('"', pos + 1);
  if (end == std::string_view::npos) return {};
  std::string_view type = body.substr(pos + 1, end - pos - 1);
  const size_t hash = type.rfind('#');
  return hash == std::string_view::npos ? type : type.substr(hash + 1);
}

std::optional<int64_t> CountOf(std::string_view body) {
  constexpr std::string_view kCount = "\"Count\"";
  for (size_t pos = FindMember(body, kCount, 0); pos != std::string_view::npos;
       pos = FindMember(body, kCount, pos)) {
    if (pos >= body.size() || body[pos] < '0' || body[pos] > '9') continue;
    int64_t count = 0;
    for (; pos < body.size() && body[pos] >= '0' && body[pos] <= '9'; ++pos) {
      if (count > (INT64_MAX - 9) / 10) return std::nullopt;
      count = count * 10 + (body[pos] - '0');
    }
    return count;
  }
  return std::nullopt;
}

int64_t TransactionConflictsOf(std::string_view body) {
  constexpr std::string_view kConflict = "\"TransactionConflict\"";
  int64_t count = 0;
  for (size_t at = body.find(kConflict); at != std::string_view::npos;
       at = body.find(kConflict, at + kConflict.size())) {
    ++count;
  }
  return count;
}

}  // namespace dynarock::api::metrics
