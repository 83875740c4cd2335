#include "engine/control/table_tags.h"

#include <optional>
#include <utility>

#include "engine/schema/arns.h"

namespace dynarock {
namespace {

constexpr std::string_view kReservedPrefix = "aws:";

// Messages as DynamoDB answered them in us-east-1 and us-west-2, October
// 2026 (the AWS controllers' API-quirks lab), except InvalidArn, recorded
// earlier (dynalite) and kept for ARNs of other shapes.
Status InvalidArn(const std::string& arn) {
  if (arn.compare(0, 4, "arn:") != 0) {
    return Status::Validation(
        "One or more parameter values were invalid: ARNs must start with 'arn:': " + arn);
  }
  return Status::Validation("Invalid TableArn: Invalid ResourceArn provided as input " + arn);
}

Status ArnNotFound(const std::string& arn) {
  return Status::ResourceNotFound("Requested resource not found: ResourceArn: " + arn +
                                  " not found");
}

// The characters AWS allows in tag keys and values: Unicode letters,
// digits and white space, and _ . : / = + - @ (the tagging guide's
// [\p{L}\p{Z}\p{N}_.:/=+\-@]*). Non-ASCII characters are all taken for
// letters (no Unicode tables here); ASCII control characters and other
// punctuation are refused.
bool IsTagText(std::string_view s) {
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c >= 0x80) continue;  // a byte of a UTF-8 sequence
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == ' ' || c == '_' || c == '.' ||
                    c == ':' || c == '/' || c == '=' || c == '+' || c == '-' || c == '@';
    if (!ok) return false;
  }
  return true;
}

// The table name of a table's own ARN, or empty when `arn` is not one.
std::string NameOfTableArn(const std::string& arn) {
  std::optional<DynamoDbArn> parsed = ParseArn(arn);
  return parsed && parsed->sub_type.empty() ? parsed->table : "";
}

}  // namespace

Status CheckNewTags(const std::vector<Tag>& added,
                    const std::map<std::string, std::string>& existing) {
  size_t count = existing.size();
  std::map<std::string, bool> seen;
  for (const Tag& t : added) {
    if (t.key.compare(0, kReservedPrefix.size(), kReservedPrefix) == 0) {
      return Status::Validation(
          "One or more parameter values were invalid: Tag keys starting with "
          "the aws: prefix are reserved for AWS use");
    }
    if (!IsTagText(t.key) || !IsTagText(t.value)) {
      return Status::Validation(
          "One or more parameter values were invalid: Tag keys and values may only "
          "contain letters, digits, white space and _ . : / = + - @");
    }
    if (!existing.count(t.key) && seen.emplace(t.key, true).second) ++count;
  }
  if (count > kMaxTagsPerTable) {
    return Status::Validation(
        "One or more parameter values were invalid: The number of tags on a "
        "resource cannot exceed 50");
  }
  return Status::OK();
}

Result<std::shared_ptr<const TableInfo>> TableTags::TableOfArn(const Scope& scope,
                                                               const std::string& arn) {
  const std::string name = NameOfTableArn(arn);
  if (name.empty()) return InvalidArn(arn);
  Result<std::shared_ptr<const TableInfo>> table = tables_->FindOrNotFound(scope, name);
  // Another region's or account's ARN names no table of this scope.
  if (!table.ok() || (*table)->desc.table_arn != arn) return ArnNotFound(arn);
  return table;
}

Status TableTags::Change(
    const Scope& scope, const std::string& arn,
    const std::function<Status(std::map<std::string, std::string>*)>& change) {
  DR_ASSIGN_OR_RETURN(auto table, TableOfArn(scope, arn));
  Result<std::shared_ptr<const TableInfo>> changed = catalog_->UpdateSettings(
      scope.ns, table->desc.table_name, table->id,
      [&](TableInfo* t) { return change(&t->tags); });
  if (!changed.ok() && changed.status().code() == ErrorCode::kResourceNotFound) {
    return ArnNotFound(arn);
  }
  return changed.status();
}

Status TableTags::Tag(const TagResourceRequest& req) {
  // DynamoDB checks the ARN, then that there are tags, then the table.
  if (NameOfTableArn(req.resource_arn).empty()) return InvalidArn(req.resource_arn);
  if (req.tags.empty()) {
    return Status::Validation("Atleast one Tag needs to be provided as Input.");
  }
  return Change(req.scope, req.resource_arn,
                [&](std::map<std::string, std::string>* tags) -> Status {
                  DR_RETURN_IF_ERROR(CheckNewTags(req.tags, *tags));
                  for (const dynarock::Tag& t : req.tags) (*tags)[t.key] = t.value;
                  return Status::OK();
                });
}

Status TableTags::Untag(const UntagResourceRequest& req) {
  if (NameOfTableArn(req.resource_arn).empty()) return InvalidArn(req.resource_arn);
  if (req.tag_keys.empty()) {
    return Status::Validation("Atleast one Tag Key needs to be provided as Input.");
  }
  return Change(req.scope, req.resource_arn,
                [&](std::map<std::string, std::string>* tags) -> Status {
                  for (const std::string& key : req.tag_keys) tags->erase(key);
                  return Status::OK();
                });
}

Result<ListTagsOfResourceResult> TableTags::List(const ListTagsOfResourceRequest& req) {
  DR_ASSIGN_OR_RETURN(auto table, TableOfArn(req.scope, req.resource_arn));
  ListTagsOfResourceResult result;
  // The token is the last key of the previous page.
  auto it = req.next_token ? table->tags.upper_bound(*req.next_token) : table->tags.begin();
  for (; it != table->tags.end(); ++it) {
    if (result.tags.size() == page_size_) {
      result.next_token = result.tags.back().key;
      break;
    }
    result.tags.push_back({it->first, it->second});
  }
  return result;
}

}  // namespace dynarock
