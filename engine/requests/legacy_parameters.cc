#include "engine/requests/legacy_parameters.h"

#include <string_view>

namespace dynarock {

std::string_view ComparisonOperatorName(ComparisonOperator op) {
  switch (op) {
    case ComparisonOperator::kEq:
      return "EQ";
    case ComparisonOperator::kNe:
      return "NE";
    case ComparisonOperator::kLe:
      return "LE";
    case ComparisonOperator::kLt:
      return "LT";
    case ComparisonOperator::kGe:
      return "GE";
    case ComparisonOperator::kGt:
      return "GT";
    case ComparisonOperator::kNotNull:
      return "NOT_NULL";
    case ComparisonOperator::kNull:
      return "NULL";
    case ComparisonOperator::kContains:
      return "CONTAINS";
    case ComparisonOperator::kNotContains:
      return "NOT_CONTAINS";
    case ComparisonOperator::kBeginsWith:
      return "BEGINS_WITH";
    case ComparisonOperator::kIn:
      return "IN";
    case ComparisonOperator::kBetween:
      return "BETWEEN";
  }
  return "";
}

}  // namespace dynarock
