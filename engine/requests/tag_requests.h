// engine/requests/tag_requests.h
//
// TagResource, UntagResource and ListTagsOfResource: the tags of a table
// (engine/control/table_tags.h).

#ifndef DYNAROCK_ENGINE_REQUESTS_TAG_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_TAG_REQUESTS_H_

#include <optional>
#include <string>
#include <vector>

#include "engine/requests/scope.h"
#include "engine/types.h"

namespace dynarock {

// TagResource: adds or overwrites `tags` on the table the ARN names.
struct TagResourceRequest {
  Scope scope;
  std::string resource_arn;
  std::vector<Tag> tags;
};

// UntagResource: removes the keys present (absent keys are ignored).
struct UntagResourceRequest {
  Scope scope;
  std::string resource_arn;
  std::vector<std::string> tag_keys;
};

struct ListTagsOfResourceRequest {
  Scope scope;
  std::string resource_arn;
  std::optional<std::string> next_token;
};

// The table's tags in key order, one page; next_token when more follow.
struct ListTagsOfResourceResult {
  std::vector<Tag> tags;
  std::optional<std::string> next_token;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_TAG_REQUESTS_H_
