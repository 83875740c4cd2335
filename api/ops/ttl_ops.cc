// Time to Live: UpdateTimeToLive, DescribeTimeToLive, and the extension
// RunTimeToLiveSweep (dispatched as "DynamoRock_20251121.RunTimeToLiveSweep",
// never a DynamoDB_20120810 operation):
//
//   RunTimeToLiveSweep  {TableName?} -> {ScannedItems, DeletedItems}: deletes
//                       the expired items now (of the table, or of every
//                       table with TTL enabled), as the background sweep
//                       would; for tests.

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/validate.h"
#include "engine/engine.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

const Shape kTimeToLiveSpecificationShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.TimeToLiveSpecification",
    .members = {
        Member{.name = "Enabled", .shape = &kBooleanShape, .required = true},
        Member{.name = "AttributeName", .shape = &kStringShape, .required = true,
               .min_length = 1, .max_length = 255},
    }};

const Shape kUpdateTimeToLiveInput{
    .kind = Kind::kStructure,
    .members = {
        TableNameMember(),
        Member{.name = "TimeToLiveSpecification",
               .shape = &kTimeToLiveSpecificationShape,
               .required = true},
    }};

const Shape kDescribeTimeToLiveInput{.kind = Kind::kStructure,
                                     .members = {TableOperationNameMember()}};

Member OptionalTableNameMember() {
  Member m = TableNameMember();
  m.required = false;
  return m;
}

const Shape kRunTimeToLiveSweepInput{.kind = Kind::kStructure,
                                     .members = {OptionalTableNameMember()}};

}  // namespace

Result<Json> UpdateTimeToLive(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kUpdateTimeToLiveInput));
  UpdateTimeToLiveRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  const Json& spec = *Field(request, "TimeToLiveSpecification");
  req.specification.enabled = OptionalBool(spec, "Enabled").value_or(false);
  req.specification.attribute_name = StringOr(spec, "AttributeName");
  DR_ASSIGN_OR_RETURN(TimeToLiveSpecification done, ctx.engine->UpdateTimeToLive(req));
  return Json{{"TimeToLiveSpecification",
               {{"Enabled", done.enabled}, {"AttributeName", done.attribute_name}}}};
}

Result<Json> DescribeTimeToLive(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDescribeTimeToLiveInput));
  DescribeTimeToLiveRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  DR_ASSIGN_OR_RETURN(TimeToLiveDescription d, ctx.engine->DescribeTimeToLive(req));
  Json out = {{"TimeToLiveStatus", TimeToLiveStatusName(d.status)}};
  if (d.attribute_name) out["AttributeName"] = *d.attribute_name;
  return Json{{"TimeToLiveDescription", std::move(out)}};
}

Result<Json> RunTimeToLiveSweep(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kRunTimeToLiveSweepInput));
  TimeToLiveSweepRequest req;
  req.scope = ctx.scope;
  req.table_name = OptionalString(request, "TableName");
  DR_ASSIGN_OR_RETURN(TimeToLiveSweepResult r, ctx.engine->RunTimeToLiveSweep(req));
  return Json{{"ScannedItems", r.scanned_items}, {"DeletedItems", r.deleted_items}};
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kTtlOperationsRows[] = {
    Operation{"DescribeTimeToLive", &DescribeTimeToLive},
    Operation{"DynamoRock_20251121.RunTimeToLiveSweep", &RunTimeToLiveSweep},
    Operation{"UpdateTimeToLive", &UpdateTimeToLive},
};
const std::span<const Operation> kTtlOperations = kTtlOperationsRows;

}  // namespace dynarock::api::ops
