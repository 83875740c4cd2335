#include "engine/expr/key_range.h"

#include <utility>

namespace dynarock::expr {
namespace {

std::string WithSortKey(const std::string& prefix, const AttributeValue& sk) {
  std::string key = prefix;
  keys::AppendOrdered(sk, &key);
  return key;
}

// The first key after `key` and, for an index entry key, after every key
// that starts with it. In a base table, a key that starts with `key` but
// is longer cannot exist; any key greater than `key` that does not start
// with it is also greater than key + "\0".
std::string Past(std::string key, AfterSortKey after) {
  if (after == AfterSortKey::kNothing) {
    key.push_back('\0');
    return key;
  }
  // Only empty for all-0xff keys, which an index id prefix never is.
  return PrefixSuccessor(std::move(key));
}

}  // namespace

KeyRange SortKeyRange(const std::string& prefix, const KeyConditionTerm* sort,
                      AfterSortKey after) {
  KeyRange all{prefix, PrefixSuccessor(prefix)};
  if (sort == nullptr) return all;
  const AttributeValue& v = sort->values[0];
  switch (sort->op) {
    case KeyOp::kEq: {
      std::string key = WithSortKey(prefix, v);
      std::string end = Past(key, after);
      return {std::move(key), std::move(end)};
    }
    case KeyOp::kLt:
      return {all.lower, WithSortKey(prefix, v)};
    case KeyOp::kLe:
      return {all.lower, Past(WithSortKey(prefix, v), after)};
    case KeyOp::kGt:
      return {Past(WithSortKey(prefix, v), after), all.upper};
    case KeyOp::kGe:
      return {WithSortKey(prefix, v), all.upper};
    case KeyOp::kBetween:
      return {WithSortKey(prefix, v), Past(WithSortKey(prefix, sort->values[1]), after)};
    case KeyOp::kBeginsWith: {
      // The escaped bytes of `v` without the 00 01 terminator of S / B.
      std::string begin = WithSortKey(prefix, v);
      begin.resize(begin.size() - 2);
      std::string end = PrefixSuccessor(begin);
      return {std::move(begin), end.empty() ? all.upper : std::move(end)};
    }
  }
  return all;
}

}  // namespace dynarock::expr
