// Resource-based policies: PutResourcePolicy, GetResourcePolicy,
// DeleteResourcePolicy (engine/control/resource_policies.h), and the check of
// a policy document CreateTable's ResourcePolicy shares (resource_policy.h).

#include <algorithm>

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/ops/resource_policy.h"
#include "api/validate.h"
#include "engine/engine.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

// Messages as DynamoDB answered them (us-west-2, October 2026, the AWS
// controllers' API-quirks lab, finding DDB-TABLE-211).
constexpr std::string_view kInvalidDocument =
    "One or more parameter values were invalid: Invalid policy document: ";

Status InvalidDocument(std::string_view why) {
  std::string m(kInvalidDocument);
  m += why;
  return Status::Validation(std::move(m));
}

// `json` without the white space between its tokens (strings untouched).
std::string WithoutWhiteSpace(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  bool in_string = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      out.push_back(c);
      if (c == '\\' && i + 1 < json.size()) {
        out.push_back(json[++i]);
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
      out.push_back(c);
    } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      out.push_back(c);
    }
  }
  return out;
}

Member ResourceArnMember() {
  return Member{.name = "ResourceArn", .shape = &kStringShape, .required = true,
                .min_length = 1, .max_length = 1283};
}

Member ExpectedRevisionIdMember() {
  return Member{.name = "ExpectedRevisionId", .shape = &kStringShape, .min_length = 1,
                .max_length = 255};
}

const Shape kPutResourcePolicyInput{
    .kind = Kind::kStructure,
    .members = {ResourceArnMember(),
                Member{.name = "Policy", .shape = &kStringShape, .required = true},
                ExpectedRevisionIdMember(),
                Member{.name = "ConfirmRemoveSelfResourceAccess", .shape = &kBooleanShape}}};

const Shape kGetResourcePolicyInput{.kind = Kind::kStructure,
                                    .members = {ResourceArnMember()}};

const Shape kDeleteResourcePolicyInput{
    .kind = Kind::kStructure, .members = {ResourceArnMember(), ExpectedRevisionIdMember()}};

}  // namespace

Result<std::string> CheckResourcePolicy(std::string_view policy) {
  if (policy.size() > kMaxResourcePolicyBytes) {
    return Status::Validation(
        "One or more parameter values were invalid: Maximum policy size of 20480 bytes "
        "exceeded");
  }
  // The request parser bounds the nesting before it builds anything.
  Result<Json> parsed = ParseRequestBody(policy);
  if (!parsed.ok()) return InvalidDocument("This policy contains invalid Json");
  const Json* statements = Field(*parsed, "Statement");
  if (statements == nullptr || (statements->is_array() && statements->empty())) {
    return InvalidDocument("Could not parse the policy: Statement is empty!");
  }
  // Statement is one statement or a list of them.
  auto names_resource = [](const Json& s) {
    return s.is_object() && (s.contains("Resource") || s.contains("NotResource"));
  };
  const bool every = statements->is_array()
                         ? std::all_of(statements->begin(), statements->end(), names_resource)
                         : names_resource(*statements);
  if (!every) return InvalidDocument("Missing required field Resource");
  return WithoutWhiteSpace(policy);
}

Result<Json> PutResourcePolicy(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kPutResourcePolicyInput));
  PutResourcePolicyRequest req;
  req.scope = ctx.scope;
  req.resource_arn = StringOr(request, "ResourceArn");
  DR_ASSIGN_OR_RETURN(req.policy, CheckResourcePolicy(StringOr(request, "Policy")));
  req.expected_revision_id = OptionalString(request, "ExpectedRevisionId");
  req.confirm_remove_self_resource_access =
      OptionalBool(request, "ConfirmRemoveSelfResourceAccess").value_or(false);
  DR_ASSIGN_OR_RETURN(PutResourcePolicyResult result, ctx.engine->PutResourcePolicy(req));
  return Json{{"RevisionId", std::move(result.revision_id)}};
}

Result<Json> GetResourcePolicy(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kGetResourcePolicyInput));
  GetResourcePolicyRequest req;
  req.scope = ctx.scope;
  req.resource_arn = StringOr(request, "ResourceArn");
  DR_ASSIGN_OR_RETURN(GetResourcePolicyResult result, ctx.engine->GetResourcePolicy(req));
  return Json{{"Policy", std::move(result.policy)},
              {"RevisionId", std::move(result.revision_id)}};
}

Result<Json> DeleteResourcePolicy(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDeleteResourcePolicyInput));
  DeleteResourcePolicyRequest req;
  req.scope = ctx.scope;
  req.resource_arn = StringOr(request, "ResourceArn");
  req.expected_revision_id = OptionalString(request, "ExpectedRevisionId");
  DR_ASSIGN_OR_RETURN(DeleteResourcePolicyResult result,
                      ctx.engine->DeleteResourcePolicy(req));
  return Json{{"RevisionId", std::move(result.revision_id)}};
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kPolicyOperationsRows[] = {
    Operation{"DeleteResourcePolicy", &DeleteResourcePolicy},
    Operation{"GetResourcePolicy", &GetResourcePolicy},
    Operation{"PutResourcePolicy", &PutResourcePolicy},
};
const std::span<const Operation> kPolicyOperations = kPolicyOperationsRows;

}  // namespace dynarock::api::ops
