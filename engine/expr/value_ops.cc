#include "engine/expr/value_ops.h"

#include <string_view>

namespace dynarock::expr {

bool IsOrderable(AttrType type) {
  return type == AttrType::kN || type == AttrType::kS || type == AttrType::kB;
}

std::optional<int> CompareOrdered(const AttributeValue& a,
                                  const AttributeValue& b) {
  if (a.type() != b.type()) return std::nullopt;
  switch (a.type()) {
    case AttrType::kN:
      return a.n().Compare(b.n());
    case AttrType::kS:
    case AttrType::kB: {
      // std::char_traits<char>::compare orders as unsigned char.
      const int c = std::string_view(a.s()).compare(std::string_view(b.s()));
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace dynarock::expr
