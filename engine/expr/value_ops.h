// engine/expr/value_ops.h
//
// Comparisons of attribute values as the expression languages define them,
// shared by resolve.cc (checks on constants) and evaluate.cc. Stateless;
// thread-safe.

#ifndef DYNAROCK_ENGINE_EXPR_VALUE_OPS_H_
#define DYNAROCK_ENGINE_EXPR_VALUE_OPS_H_

#include <optional>

#include "engine/types.h"

namespace dynarock::expr {

// N, S and B are ordered; no other type is.
bool IsOrderable(AttrType type);

// <0, 0, >0 if `a` and `b` have the same orderable type: numbers
// numerically, strings and binaries by unsigned bytes (for strings that is
// the order of their UTF-8 encodings, i.e. of code points). nullopt if the
// types differ or are not orderable.
std::optional<int> CompareOrdered(const AttributeValue& a,
                                  const AttributeValue& b);

}  // namespace dynarock::expr

#endif  // DYNAROCK_ENGINE_EXPR_VALUE_OPS_H_
