#include "engine/schema/arns.h"

namespace dynarock {

std::string TableArn(const Scope& scope, std::string_view name) {
  return "arn:aws:dynamodb:" + scope.region + ":" + scope.account + ":table/" +
         std::string(name);
}

std::string IndexArn(std::string_view table_arn, std::string_view index_name) {
  std::string arn(table_arn);
  arn += "/index/";
  arn += index_name;
  return arn;
}

}  // namespace dynarock
