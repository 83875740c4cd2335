// Tagging: TagResource, UntagResource, ListTagsOfResource, and the Tags of
// CreateTable (TagListMember, used by table_ops.cc).

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/ops/tags.h"
#include "api/validate.h"
#include "engine/engine.h"
#include "engine/schema/arns.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

const Shape kTagShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.Tag",
    .members = {
        Member{.name = "Key", .shape = &kStringShape, .required = true,
               .min_length = 1, .max_length = 128},
        Member{.name = "Value", .shape = &kStringShape, .required = true,
               .max_length = 256},
    }};
const Shape kTagListShape{.kind = Kind::kList, .element = &kTagShape};

// DynamoDB answers a request without ResourceArn "Invalid TableArn" before
// any constraint of the other members, but after their JSON types: a Tags
// or TagKeys of the wrong type is a SerializationException even without
// ResourceArn (dynalite's tagResource, untagResource and listTagsOfResource
// tests, recorded against DynamoDB).
Member ResourceArnMember() {
  return Member{.name = "ResourceArn", .shape = &kStringShape, .min_length = 1,
                .max_length = 1283, .presence_first = true,
                .absent_message = "Invalid TableArn"};
}

const Shape kTagResourceInput{
    .kind = Kind::kStructure,
    .members = {ResourceArnMember(),
                Member{.name = "Tags", .shape = &kTagListShape, .required = true}}};

const Shape kUntagResourceInput{
    .kind = Kind::kStructure,
    .members = {ResourceArnMember(),
                Member{.name = "TagKeys", .shape = &kStringListShape, .required = true}}};

const Shape kListTagsOfResourceInput{
    .kind = Kind::kStructure,
    .members = {ResourceArnMember(),
                Member{.name = "NextToken", .shape = &kStringShape}}};

}  // namespace

Member TagListMember() { return Member{.name = "Tags", .shape = &kTagListShape}; }

std::vector<Tag> DecodeTags(const Json& request) {
  std::vector<Tag> tags;
  if (const Json* list = Field(request, "Tags")) {
    for (const Json& t : *list) tags.push_back({StringOr(t, "Key"), StringOr(t, "Value")});
  }
  return tags;
}

Result<Json> TagResource(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kTagResourceInput));
  TagResourceRequest req;
  req.scope = ctx.scope;
  req.resource_arn = StringOr(request, "ResourceArn");
  // Another account's table (DynamoDB Local's 000000000000 among them):
  // AWS refuses it before DynamoDB looks for it (conformance tier2/tags).
  DR_RETURN_IF_ERROR(
      CheckArnAccount(ctx.scope, req.resource_arn, "TagResource"));
  req.tags = DecodeTags(request);
  DR_RETURN_IF_ERROR(ctx.engine->TagResource(req));
  return Json(nullptr);  // no body, as DynamoDB
}

Result<Json> UntagResource(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kUntagResourceInput));
  UntagResourceRequest req;
  req.scope = ctx.scope;
  req.resource_arn = StringOr(request, "ResourceArn");
  DR_RETURN_IF_ERROR(
      CheckArnAccount(ctx.scope, req.resource_arn, "UntagResource"));
  if (const Json* keys = Field(request, "TagKeys")) {
    for (const Json& k : *keys) {
      if (k.is_string()) req.tag_keys.push_back(k.get<std::string>());
    }
  }
  DR_RETURN_IF_ERROR(ctx.engine->UntagResource(req));
  return Json(nullptr);  // no body, as DynamoDB
}

Result<Json> ListTagsOfResource(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kListTagsOfResourceInput));
  ListTagsOfResourceRequest req;
  req.scope = ctx.scope;
  req.resource_arn = StringOr(request, "ResourceArn");
  DR_RETURN_IF_ERROR(
      CheckArnAccount(ctx.scope, req.resource_arn, "ListTagsOfResource"));
  req.next_token = OptionalString(request, "NextToken");
  DR_ASSIGN_OR_RETURN(ListTagsOfResourceResult result, ctx.engine->ListTagsOfResource(req));
  Json tags = Json::array();
  for (const Tag& t : result.tags) tags.push_back({{"Key", t.key}, {"Value", t.value}});
  Json out = {{"Tags", std::move(tags)}};
  if (result.next_token) out["NextToken"] = *result.next_token;
  return out;
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kTagOperationsRows[] = {
    Operation{"ListTagsOfResource", &ListTagsOfResource},
    Operation{"TagResource", &TagResource},
    Operation{"UntagResource", &UntagResource},
};
const std::span<const Operation> kTagOperations = kTagOperationsRows;

}  // namespace dynarock::api::ops
