// Contributor insights: UpdateContributorInsights,
// DescribeContributorInsights and ListContributorInsights, for tables and
// their GSIs (engine/control/contributor_insights.h). Shapes from DynamoDB's
// API model (botocore's dynamodb service-2.json).

#include <string>
#include <utility>

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/validate.h"
#include "engine/engine.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

const Shape kUpdateInput{
    .kind = Kind::kStructure,
    .members = {
        TableNameMember(),
        CreateTableNameMember("IndexName", /*required=*/false),
        Member{.name = "ContributorInsightsAction", .shape = &kStringShape,
               .required = true, .enum_values = {"ENABLE", "DISABLE"}},
        Member{.name = "ContributorInsightsMode", .shape = &kStringShape,
               .enum_values = {"ACCESSED_AND_THROTTLED_KEYS", "THROTTLED_KEYS"}},
    }};

const Shape kDescribeInput{
    .kind = Kind::kStructure,
    .members = {
        TableNameMember(),
        CreateTableNameMember("IndexName", /*required=*/false),
    }};

Member OptionalTableName() {
  Member m = TableNameMember();
  m.required = false;
  return m;
}

const Shape kListInput{
    .kind = Kind::kStructure,
    .members = {
        OptionalTableName(),
        Member{.name = "NextToken", .shape = &kStringShape},
        Member{.name = "MaxResults", .shape = &kIntegerShape, .max_value = 100},
    }};

std::string_view StatusName(ContributorInsightsStatus s) {
  switch (s) {
    case ContributorInsightsStatus::kEnabling:
      return "ENABLING";
    case ContributorInsightsStatus::kEnabled:
      return "ENABLED";
    case ContributorInsightsStatus::kDisabling:
      return "DISABLING";
    case ContributorInsightsStatus::kDisabled:
      break;
  }
  return "DISABLED";
}

std::string_view ModeName(ContributorInsightsMode mode) {
  return mode == ContributorInsightsMode::kThrottledKeys ? "THROTTLED_KEYS"
                                                         : "ACCESSED_AND_THROTTLED_KEYS";
}

Json Encode(const ContributorInsightsDescription& d, bool full) {
  Json out = {{"TableName", d.table_name}};
  if (!d.index_name.empty()) out["IndexName"] = d.index_name;
  out["ContributorInsightsStatus"] = std::string(StatusName(d.status));
  if (d.mode) out["ContributorInsightsMode"] = std::string(ModeName(*d.mode));
  if (full) {
    if (!d.rule_list.empty()) out["ContributorInsightsRuleList"] = d.rule_list;
    if (d.last_update_micros) {
      out["LastUpdateDateTime"] = static_cast<double>(*d.last_update_micros) / 1e6;
    }
  }
  return out;
}

}  // namespace

Result<Json> UpdateContributorInsights(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kUpdateInput));
  UpdateContributorInsightsRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  req.index_name = StringOr(request, "IndexName");
  req.enable = StringOr(request, "ContributorInsightsAction") == "ENABLE";
  if (StringOr(request, "ContributorInsightsMode") == "THROTTLED_KEYS") {
    req.mode = ContributorInsightsMode::kThrottledKeys;
  } else if (Field(request, "ContributorInsightsMode") != nullptr) {
    req.mode = ContributorInsightsMode::kAccessedAndThrottledKeys;
  }
  DR_ASSIGN_OR_RETURN(ContributorInsightsDescription d,
                      ctx.engine->UpdateContributorInsights(req));
  return Encode(d, /*full=*/false);
}

Result<Json> DescribeContributorInsights(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDescribeInput));
  DR_ASSIGN_OR_RETURN(ContributorInsightsDescription d,
                      ctx.engine->DescribeContributorInsights(
                          ctx.scope, StringOr(request, "TableName"),
                          StringOr(request, "IndexName")));
  return Encode(d, /*full=*/true);
}

Result<Json> ListContributorInsights(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kListInput));
  ListContributorInsightsRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  req.next_token = OptionalString(request, "NextToken");
  req.max_results = OptionalInt(request, "MaxResults").value_or(0);
  DR_ASSIGN_OR_RETURN(ListContributorInsightsResult r,
                      ctx.engine->ListContributorInsights(req));
  Json summaries = Json::array();
  for (const ContributorInsightsDescription& d : r.summaries) {
    summaries.push_back(Encode(d, /*full=*/false));
  }
  Json out = {{"ContributorInsightsSummaries", std::move(summaries)}};
  if (r.next_token) out["NextToken"] = *r.next_token;
  return out;
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kInsightsOperationsRows[] = {
    Operation{"DescribeContributorInsights", &DescribeContributorInsights},
    Operation{"ListContributorInsights", &ListContributorInsights},
    Operation{"UpdateContributorInsights", &UpdateContributorInsights},
};
const std::span<const Operation> kInsightsOperations = kInsightsOperationsRows;

}  // namespace dynarock::api::ops
