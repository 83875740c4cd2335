// dynarock's secondary-index extensions: operations no DynamoDB SDK sends.
// They are reached only under their own X-Amz-Target prefix
// ("DynamoRock_20251121.<Op>", see api/http/protocol.h) or in process as
// Client::Call("DynamoRock_20251121.<Op>", ...); a "DynamoDB_20120810."
// target with the same name is an unknown operation.
//
//   WaitForIndexes            {} -> {}: every GSI change committed before
//                             the call is applied (lags ignored), every
//                             backfill finished. Tests call it to avoid
//                             stale GSI reads.
//   SetIndexLag               {TableName, IndexName, LagMillis} -> {}: the
//                             GSI's propagation lag from now on (runtime
//                             only); LagMillis -1 restores the default.
//   DescribeIndexPropagation  {} -> {AppliedRecords, PendingRecords,
//                             LagP50Micros, LagP99Micros, LagMaxMicros,
//                             Samples}.
//   VerifyIndexes             {TableName} -> {}: the consistency checker
//                             (Engine::VerifyIndexes: every index rebuilt
//                             from the items and compared, items and bytes
//                             recounted against ItemCount and
//                             TableSizeBytes); InternalServerError listing
//                             the differences. Call WaitForIndexes first.

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/validate.h"
#include "engine/engine.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

const Shape kEmptyInput{.kind = Kind::kStructure};

const Shape kSetIndexLagInput{
    .kind = Kind::kStructure,
    .members = {
        TableNameMember(),
        CreateTableNameMember("IndexName", /*required=*/true),
        Member{.name = "LagMillis",
               .shape = &kLongShape,
               .required = true,
               .min_value = -1},
    }};

const Shape kVerifyIndexesInput{
    .kind = Kind::kStructure,
    .members = {TableNameMember()}};

}  // namespace

Result<Json> VerifyIndexes(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kVerifyIndexesInput));
  DR_RETURN_IF_ERROR(
      ctx.engine->VerifyIndexes(ctx.scope, StringOr(request, "TableName")));
  return Json::object();
}

Result<Json> WaitForIndexes(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kEmptyInput));
  DR_RETURN_IF_ERROR(ctx.engine->WaitUntilIndexesCaughtUp());
  return Json::object();
}

Result<Json> SetIndexLag(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kSetIndexLagInput));
  SetIndexLagRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  req.index_name = StringOr(request, "IndexName");
  req.lag_micros = LagMicrosOf(request);
  DR_RETURN_IF_ERROR(ctx.engine->SetIndexLag(req));
  return Json::object();
}

Result<Json> DescribeIndexPropagation(const RequestContext& ctx,
                                      const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kEmptyInput));
  const IndexPropagationStats s = ctx.engine->GetIndexPropagationStats();
  return Json{{"AppliedRecords", s.applied_records},
              {"PendingRecords", s.pending_records},
              {"LagP50Micros", s.lag_p50_micros},
              {"LagP99Micros", s.lag_p99_micros},
              {"LagMaxMicros", s.lag_max_micros},
              {"Samples", s.samples}};
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kIndexOperationsRows[] = {
    Operation{"DynamoRock_20251121.DescribeIndexPropagation", &DescribeIndexPropagation},
    Operation{"DynamoRock_20251121.SetIndexLag", &SetIndexLag},
    Operation{"DynamoRock_20251121.VerifyIndexes", &VerifyIndexes},
    Operation{"DynamoRock_20251121.WaitForIndexes", &WaitForIndexes},
};
const std::span<const Operation> kIndexOperations = kIndexOperationsRows;

}  // namespace dynarock::api::ops
