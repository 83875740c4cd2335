// api/ops/resource_policy.h
//
// The policy document of PutResourcePolicy and of CreateTable's
// ResourcePolicy (api/ops/policy_ops.cc): DynamoDB's checks of it and the
// form it is stored and returned in.

#ifndef DYNAROCK_API_OPS_RESOURCE_POLICY_H_
#define DYNAROCK_API_OPS_RESOURCE_POLICY_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "engine/status.h"

namespace dynarock::api::ops {

// DynamoDB's limit on a policy document, white space included.
inline constexpr size_t kMaxResourcePolicyBytes = 20480;

// Checks `policy` as DynamoDB does before attaching it: at most
// kMaxResourcePolicyBytes, a JSON object, a non-empty Statement whose
// statements each name a Resource (or NotResource). Returns the document
// with the white space between its tokens removed, as DynamoDB returns it.
// Errors: kValidation with DynamoDB's messages. Action names, principals
// and resource ARNs inside statements are not checked (docs/compatibility.md).
Result<std::string> CheckResourcePolicy(std::string_view policy);

}  // namespace dynarock::api::ops

#endif  // DYNAROCK_API_OPS_RESOURCE_POLICY_H_
