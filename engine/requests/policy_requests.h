// engine/requests/policy_requests.h
//
// PutResourcePolicy, GetResourcePolicy and DeleteResourcePolicy: the
// resource-based policy of a table or of its stream
// (engine/control/resource_policies.h). The engine stores the document as
// given; the api checks it (size, JSON) first.

#ifndef DYNAROCK_ENGINE_REQUESTS_POLICY_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_POLICY_REQUESTS_H_

#include <optional>
#include <string>

#include "engine/requests/scope.h"

namespace dynarock {

// The ExpectedRevisionId that asks for a policy to be attached only when the
// resource has none.
inline constexpr char kNoPolicyRevision[] = "NO_POLICY";

struct PutResourcePolicyRequest {
  Scope scope;
  std::string resource_arn;  // a table's or its latest stream's ARN
  std::string policy;
  // Attach only over this revision (or, kNoPolicyRevision, over none).
  std::optional<std::string> expected_revision_id;
  // Accepted: without IAM nobody can lock themselves out.
  bool confirm_remove_self_resource_access = false;
};

struct PutResourcePolicyResult {
  std::string revision_id;
};

struct GetResourcePolicyRequest {
  Scope scope;
  std::string resource_arn;
};

struct GetResourcePolicyResult {
  std::string policy;
  std::string revision_id;
};

struct DeleteResourcePolicyRequest {
  Scope scope;
  std::string resource_arn;
  std::optional<std::string> expected_revision_id;
};

// The revision that was removed.
struct DeleteResourcePolicyResult {
  std::string revision_id;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_POLICY_REQUESTS_H_
