// Fault injection (docs/testing.md): dynarock's extensions that make the
// DynamoDB API fail as DynamoDB does, on demand, for tests of retries,
// idempotent handlers and partial batches. Reached only under their own
// X-Amz-Target prefix ("DynamoRock_20251121.<Op>") or in process as
// Client::Call("DynamoRock_20251121.<Op>", ...); never faulted themselves.
//
//   PutFaultRule     {Rule} -> {Rule}: adds the rule (api/fault/
//                    fault_rule_json.h has its form), or replaces the rule
//                    with its Id; the answer has the Id it got.
//   ListFaultRules   {} -> {Rules: [rule + MatchedCount, FiredCount]}, in
//                    the order they are tried.
//   DeleteFaultRule  {Id} -> {}; ResourceNotFoundException for an unknown Id.
//   ClearFaultRules  {} -> {}.

#include "api/fault/fault_rule_json.h"
#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/validate.h"
#include "engine/engine.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

const Shape kEmptyInput{.kind = Kind::kStructure};

const Shape kDeleteFaultRuleInput{
    .kind = Kind::kStructure,
    .members = {Member{.name = "Id",
                       .shape = &kStringShape,
                       .required = true,
                       .min_length = 1,
                       .max_length = 255}}};

}  // namespace

Result<Json> PutFaultRule(const RequestContext& ctx, const Json& request) {
  auto rule = request.find("Rule");
  if (rule == request.end() || !rule->is_object() || request.size() != 1) {
    return Status::Validation("PutFaultRule takes {\"Rule\": {...}}");
  }
  DR_ASSIGN_OR_RETURN(FaultRule decoded, DecodeFaultRule(*rule));
  DR_ASSIGN_OR_RETURN(FaultRule stored, ctx.engine->PutFaultRule(std::move(decoded)));
  return Json{{"Rule", EncodeFaultRule(FaultRuleStatus{std::move(stored), 0, 0})}};
}

Result<Json> ListFaultRules(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kEmptyInput));
  Json rules = Json::array();
  for (const FaultRuleStatus& r : ctx.engine->ListFaultRules()) {
    rules.push_back(EncodeFaultRule(r));
  }
  return Json{{"Rules", std::move(rules)}};
}

Result<Json> DeleteFaultRule(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDeleteFaultRuleInput));
  DR_RETURN_IF_ERROR(ctx.engine->DeleteFaultRule(StringOr(request, "Id")));
  return Json::object();
}

Result<Json> ClearFaultRules(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kEmptyInput));
  ctx.engine->ClearFaultRules();
  return Json::object();
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kFaultOperationsRows[] = {
    Operation{"DynamoRock_20251121.ClearFaultRules", &ClearFaultRules},
    Operation{"DynamoRock_20251121.DeleteFaultRule", &DeleteFaultRule},
    Operation{"DynamoRock_20251121.ListFaultRules", &ListFaultRules},
    Operation{"DynamoRock_20251121.PutFaultRule", &PutFaultRule},
};
const std::span<const Operation> kFaultOperations = kFaultOperationsRows;

}  // namespace dynarock::api::ops
