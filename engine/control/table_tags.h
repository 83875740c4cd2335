// engine/control/table_tags.h
//
// TableTags answers TagResource, UntagResource and ListTagsOfResource for
// tables, named by their ARN, with DynamoDB's checks and messages. Tags live
// in the table's catalog record (Catalog::UpdateSettings), so they survive
// restarts and go with the table; CreateTable's Tags are checked with
// CheckNewTags and stored at creation.
//
// Thread-safe: changes of one table are serialized by the catalog.

#ifndef DYNAROCK_ENGINE_CONTROL_TABLE_TAGS_H_
#define DYNAROCK_ENGINE_CONTROL_TABLE_TAGS_H_

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "engine/requests/scope.h"
#include "engine/requests/tag_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/control/table_lifecycle.h"

namespace dynarock {

// DynamoDB's limit of tags on one table.
inline constexpr size_t kMaxTagsPerTable = 50;

// Whether `existing` with `added` merged in (same keys overwrite) stays
// within kMaxTagsPerTable, no added key uses the reserved "aws:" prefix, and
// added keys and values hold only the characters AWS allows in tags
// (letters, digits, white space, _ . : / = + - @).
// Errors: kValidation. (Key and value lengths are the api's shape checks.)
Status CheckNewTags(const std::vector<Tag>& added,
                    const std::map<std::string, std::string>& existing);

class TableTags {
 public:
  // Neither pointer is owned; both must outlive this. ListTagsOfResource
  // answers at most `page_size` tags a call.
  TableTags(Catalog* catalog, TableLifecycle* tables, size_t page_size)
      : catalog_(catalog), tables_(tables), page_size_(page_size) {}

  // Errors of all three: kValidation ("One or more parameter values were
  // invalid: ARNs must start with 'arn:': <arn>"; "Invalid TableArn: Invalid
  // ResourceArn provided as input <arn>" for any other ARN but a table's),
  // kResourceNotFound ("Requested resource not found: ResourceArn: <arn> not
  // found").
  // Also kValidation for no tags ("Atleast one Tag needs to be provided as
  // Input.") and CheckNewTags's errors.
  Status Tag(const TagResourceRequest& req);
  Status Untag(const UntagResourceRequest& req);
  Result<ListTagsOfResourceResult> List(const ListTagsOfResourceRequest& req);

 private:
  // The table the ARN names in the request's scope.
  Result<std::shared_ptr<const TableInfo>> TableOfArn(const Scope& scope,
                                                      const std::string& arn);
  // Applies `change` to the table's tags under the catalog's lock.
  Status Change(const Scope& scope, const std::string& arn,
                const std::function<Status(std::map<std::string, std::string>*)>& change);

  Catalog* const catalog_;
  TableLifecycle* const tables_;
  const size_t page_size_;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CONTROL_TABLE_TAGS_H_
