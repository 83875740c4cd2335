#include "engine/schema/arns.h"

#include <vector>

namespace dynarock {

namespace {

bool IsTableNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '.' || c == '-';
}

bool IsTableName(std::string_view s) {
  if (s.size() < 3 || s.size() > 255) return false;
  for (char c : s) {
    if (!IsTableNameChar(c)) return false;
  }
  return true;
}

}  // namespace

std::string TableArn(const Scope& scope, std::string_view name) {
  return "arn:aws:dynamodb:" + scope.region + ":" + scope.account + ":table/" +
         std::string(name);
}

std::string KmsKeyArn(const Scope& scope, const std::optional<std::string>& key_id) {
  const std::string prefix = "arn:aws:kms:" + scope.region + ":" + scope.account + ":";
  if (!key_id) return prefix + "key/00000000-0000-4000-8000-00000000d0d0";
  if (key_id->rfind("arn:", 0) == 0) return *key_id;
  if (key_id->rfind("alias/", 0) == 0) return prefix + *key_id;
  return prefix + "key/" + *key_id;
}

std::string IndexArn(std::string_view table_arn, std::string_view index_name) {
  std::string arn(table_arn);
  arn += "/index/";
  arn += index_name;
  return arn;
}

std::optional<DynamoDbArn> ParseArn(std::string_view arn) {
  std::vector<std::string_view> parts;
  std::string_view rest = arn;
  for (int i = 0; i < 5; ++i) {
    const size_t colon = rest.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    parts.push_back(rest.substr(0, colon));
    rest.remove_prefix(colon + 1);
  }
  constexpr std::string_view kTable = "table/";
  if (parts[0] != "arn" || parts[1].empty() || parts[2] != "dynamodb" ||
      rest.substr(0, kTable.size()) != kTable) {
    return std::nullopt;
  }
  rest.remove_prefix(kTable.size());
  DynamoDbArn out;
  out.partition = parts[1];
  out.region = parts[3];
  out.account = parts[4];
  const size_t slash = rest.find('/');
  out.table = rest.substr(0, slash);
  if (!IsTableName(out.table)) return std::nullopt;
  if (slash != std::string_view::npos) {
    std::string_view sub = rest.substr(slash + 1);
    const size_t next = sub.find('/');
    if (next == std::string_view::npos || next == 0 || next + 1 >= sub.size()) {
      return std::nullopt;
    }
    out.sub_type = sub.substr(0, next);
    out.sub_name = sub.substr(next + 1);
  }
  return out;
}

bool LooksLikeArn(std::string_view s) { return s.substr(0, 4) == "arn:"; }

Result<std::string> TableNameOfArn(const Scope& scope, std::string_view arn,
                                   std::string_view operation) {
  std::optional<DynamoDbArn> parsed = ParseArn(arn);
  if (!parsed || !parsed->sub_type.empty()) {
    return Status::Validation("Invalid TableArn: Invalid ResourceArn provided as input " +
                              std::string(arn));
  }
  DR_RETURN_IF_ERROR(CheckArnAccount(scope, arn, operation));
  if (parsed->region != scope.region) {
    return Status::Validation("Invalid TableArn: Invalid ResourceArn provided as input " +
                              std::string(arn));
  }
  return std::move(parsed->table);
}

Status CheckArnAccount(const Scope& scope, std::string_view arn,
                       std::string_view operation) {
  std::optional<DynamoDbArn> parsed = ParseArn(arn);
  if (!parsed || parsed->account == scope.account) return Status::OK();
  std::string action = "dynamodb:";
  action += operation;
  return Status(ErrorCode::kAccessDenied,
                "User: arn:aws:iam::" + scope.account +
                    ":root is not authorized to perform: " + action +
                    " on resource: " + std::string(arn) +
                    " because no resource-based policy allows the " + action +
                    " action");
}

}  // namespace dynarock
