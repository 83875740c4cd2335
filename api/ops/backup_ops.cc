// On-demand backups (CreateBackup, DescribeBackup, ListBackups, DeleteBackup,
// RestoreTableFromBackup) and point-in-time recovery
// (UpdateContinuousBackups, DescribeContinuousBackups,
// RestoreTableToPointInTime). docs/backups.md.

#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/ops/table_codec.h"
#include "api/ops/vector_codec.h"
#include "api/validate.h"
#include "engine/engine.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

Member BackupArnMember() {
  return Member{.name = "BackupArn", .shape = &kStringShape, .required = true,
                .min_length = 37, .max_length = 1024};
}

const Shape kCreateBackupInput{
    .kind = Kind::kStructure,
    .members = {TableNameMember(), CreateTableNameMember("BackupName", /*required=*/true)}};

const Shape kBackupArnInput{.kind = Kind::kStructure, .members = {BackupArnMember()}};

const Shape kListBackupsInput{
    .kind = Kind::kStructure,
    .members = {
        CreateTableNameMember("TableName", /*required=*/false),
        Member{.name = "Limit", .shape = &kIntegerShape, .min_value = 1, .max_value = 100},
        Member{.name = "ExclusiveStartBackupArn", .shape = &kStringShape, .min_length = 37,
               .max_length = 1024},
        Member{.name = "BackupType", .shape = &kStringShape,
               .enum_values = {"USER", "SYSTEM", "AWS_BACKUP", "ALL"}},
    }};

std::vector<Member> OverrideMembers() {
  return {
      Member{.name = "BillingModeOverride", .shape = &kStringShape,
             .enum_values = {"PROVISIONED", "PAY_PER_REQUEST"}},
      Member{.name = "GlobalSecondaryIndexOverride",
             .shape = &GlobalSecondaryIndexListShape()},
      Member{.name = "LocalSecondaryIndexOverride", .shape = &LocalSecondaryIndexListShape()},
      Member{.name = "ProvisionedThroughputOverride", .shape = &ProvisionedThroughputShape()},
      Member{.name = "OnDemandThroughputOverride", .shape = &OnDemandThroughputShape()},
      Member{.name = "SSESpecificationOverride", .shape = &SseSpecificationShape()},
      Member{.name = "VectorIndexOverride", .shape = &VectorIndexListShape()},
  };
}

Shape RestoreFromBackupInput() {
  Shape s{.kind = Kind::kStructure,
          .members = {CreateTableNameMember("TargetTableName", /*required=*/true),
                      BackupArnMember()}};
  for (Member m : OverrideMembers()) s.members.push_back(std::move(m));
  return s;
}

const Shape kPointInTimeRecoverySpecificationShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.PointInTimeRecoverySpecification",
    .members = {
        Member{.name = "PointInTimeRecoveryEnabled", .shape = &kBooleanShape,
               .required = true},
        Member{.name = "RecoveryPeriodInDays", .shape = &kIntegerShape, .min_value = 1,
               .max_value = 35},
    }};

const Shape kUpdateContinuousBackupsInput{
    .kind = Kind::kStructure,
    .members = {TableNameMember(),
                Member{.name = "PointInTimeRecoverySpecification",
                       .shape = &kPointInTimeRecoverySpecificationShape, .required = true}}};

const Shape kDescribeContinuousBackupsInput{.kind = Kind::kStructure,
                                            .members = {TableNameMember()}};

Shape RestoreToPointInTimeInput() {
  Shape s{.kind = Kind::kStructure,
          .members = {
              Member{.name = "SourceTableArn", .shape = &kStringShape, .min_length = 1,
                     .max_length = 1024},
              CreateTableNameMember("SourceTableName", /*required=*/false),
              CreateTableNameMember("TargetTableName", /*required=*/true),
              Member{.name = "UseLatestRestorableTime", .shape = &kBooleanShape},
          }};
  for (Member m : OverrideMembers()) s.members.push_back(std::move(m));
  return s;
}

// A timestamp member (epoch seconds, as the SDKs send them in JSON 1.0),
// in microseconds. Errors: kSerialization for anything but a number.
Result<std::optional<int64_t>> DecodeTimestamp(const Json& request, std::string_view name) {
  const Json* v = Field(request, name);
  if (v == nullptr) return std::optional<int64_t>();
  if (!v->is_number()) {
    return Status::Serialization("class java.lang.String can not be converted to an Date");
  }
  return std::optional<int64_t>(static_cast<int64_t>(std::llround(v->get<double>() * 1e6)));
}

Result<RestoreOverrides> DecodeOverrides(const Json& request) {
  RestoreOverrides o;
  if (std::optional<std::string> mode = OptionalString(request, "BillingModeOverride")) {
    o.billing_mode =
        *mode == "PAY_PER_REQUEST" ? BillingMode::kPayPerRequest : BillingMode::kProvisioned;
  }
  if (const Json* t = Field(request, "ProvisionedThroughputOverride")) {
    o.provisioned_throughput = DecodeProvisionedThroughput(*t);
  }
  if (const Json* t = Field(request, "OnDemandThroughputOverride")) {
    o.on_demand_throughput = DecodeOnDemandThroughputStructure(*t);
  }
  if (const Json* g = Field(request, "GlobalSecondaryIndexOverride")) {
    DR_ASSIGN_OR_RETURN(o.global_secondary_indexes,
                        DecodeGlobalSecondaryIndexes(*g, "GlobalSecondaryIndexOverride"));
  }
  if (const Json* l = Field(request, "LocalSecondaryIndexOverride")) {
    DR_ASSIGN_OR_RETURN(o.local_secondary_indexes,
                        DecodeLocalSecondaryIndexes(*l, "LocalSecondaryIndexOverride"));
  }
  if (const Json* v = Field(request, "VectorIndexOverride")) {
    o.vector_indexes = DecodeVectorIndexes(*v);
  }
  DR_ASSIGN_OR_RETURN(o.sse_specification,
                      DecodeSseSpecification(Field(request, "SSESpecificationOverride")));
  return o;
}

Json BackupDetailsJson(const BackupDescription& d) {
  return Json{{"BackupArn", d.backup_arn},
              {"BackupName", d.backup_name},
              {"BackupSizeBytes", d.backup_size_bytes},
              {"BackupStatus", std::string(BackupStatusName(d.backup_status))},
              {"BackupType", "USER"},
              {"BackupCreationDateTime", SecondsJson(d.creation_micros)}};
}

Json BackupDescriptionJson(const BackupDescription& b) {
  const TableDescription& t = b.source;
  Json source = {{"TableName", t.table_name},
                 {"TableId", t.table_id},
                 {"TableArn", t.table_arn},
                 {"TableSizeBytes", t.table_size_bytes},
                 {"KeySchema", KeySchemaJson(t.key_schema)},
                 {"TableCreationDateTime", SecondsJson(t.creation_date_time_micros)},
                 {"ProvisionedThroughput",
                  {{"ReadCapacityUnits", t.provisioned_throughput.read_capacity_units},
                   {"WriteCapacityUnits", t.provisioned_throughput.write_capacity_units}}},
                 {"ItemCount", t.item_count},
                 {"BillingMode", t.billing_mode == BillingMode::kPayPerRequest
                                     ? "PAY_PER_REQUEST"
                                     : "PROVISIONED"}};
  Json features = Json::object();
  if (!t.local_secondary_indexes.empty()) {
    Json lsis = Json::array();
    for (const auto& l : t.local_secondary_indexes) {
      lsis.push_back({{"IndexName", l.def.index_name},
                      {"KeySchema", KeySchemaJson(l.def.key_schema)},
                      {"Projection", ProjectionJson(l.def.projection)}});
    }
    features["LocalSecondaryIndexes"] = std::move(lsis);
  }
  if (!t.global_secondary_indexes.empty()) {
    Json gsis = Json::array();
    for (const auto& g : t.global_secondary_indexes) {
      gsis.push_back(
          {{"IndexName", g.def.index_name},
           {"KeySchema", KeySchemaJson(g.def.key_schema)},
           {"Projection", ProjectionJson(g.def.projection)},
           {"ProvisionedThroughput",
            {{"ReadCapacityUnits", g.provisioned_throughput.read_capacity_units},
             {"WriteCapacityUnits", g.provisioned_throughput.write_capacity_units}}}});
    }
    features["GlobalSecondaryIndexes"] = std::move(gsis);
  }
  if (t.stream_specification) {
    Json stream = {{"StreamEnabled", t.stream_specification->stream_enabled}};
    if (t.stream_specification->stream_view_type) {
      stream["StreamViewType"] =
          std::string(StreamViewTypeName(*t.stream_specification->stream_view_type));
    }
    features["StreamDescription"] = std::move(stream);
  }
  Json ttl = {{"TimeToLiveStatus", b.ttl_enabled ? "ENABLED" : "DISABLED"}};
  if (b.ttl_enabled) ttl["AttributeName"] = b.ttl_attribute_name;
  features["TimeToLiveDescription"] = std::move(ttl);
  return Json{{"BackupDetails", BackupDetailsJson(b)},
              {"SourceTableDetails", std::move(source)},
              {"SourceTableFeatureDetails", std::move(features)}};
}

Json ContinuousBackupsJson(const ContinuousBackupsDescription& d) {
  Json pitr = {{"PointInTimeRecoveryStatus",
                d.point_in_time_recovery_enabled ? "ENABLED" : "DISABLED"}};
  if (d.point_in_time_recovery_enabled) {
    pitr["RecoveryPeriodInDays"] = d.recovery_period_in_days;
  }
  if (d.earliest_restorable_micros) {
    pitr["EarliestRestorableDateTime"] = SecondsJson(*d.earliest_restorable_micros);
  }
  if (d.latest_restorable_micros) {
    pitr["LatestRestorableDateTime"] = SecondsJson(*d.latest_restorable_micros);
  }
  return Json{{"ContinuousBackupsDescription",
               {{"ContinuousBackupsStatus", "ENABLED"},
                {"PointInTimeRecoveryDescription", std::move(pitr)}}}};
}

// The restored table's description, with the RestoreSummary DynamoDB adds.
Json RestoredTableJson(const TableDescription& d, const Json& summary) {
  Json table = TableDescriptionJson(d);
  table["RestoreSummary"] = summary;
  return Json{{"TableDescription", std::move(table)}};
}

}  // namespace

Result<Json> CreateBackup(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kCreateBackupInput));
  CreateBackupRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  req.backup_name = StringOr(request, "BackupName");
  DR_ASSIGN_OR_RETURN(BackupDescription d, ctx.engine->CreateBackup(req));
  return Json{{"BackupDetails", BackupDetailsJson(d)}};
}

Result<Json> DescribeBackup(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kBackupArnInput));
  DescribeBackupRequest req;
  req.scope = ctx.scope;
  req.backup_arn = StringOr(request, "BackupArn");
  DR_ASSIGN_OR_RETURN(BackupDescription d, ctx.engine->DescribeBackup(req));
  return Json{{"BackupDescription", BackupDescriptionJson(d)}};
}

Result<Json> DeleteBackup(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kBackupArnInput));
  DeleteBackupRequest req;
  req.scope = ctx.scope;
  req.backup_arn = StringOr(request, "BackupArn");
  DR_ASSIGN_OR_RETURN(BackupDescription d, ctx.engine->DeleteBackup(req));
  return Json{{"BackupDescription", BackupDescriptionJson(d)}};
}

Result<Json> ListBackups(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kListBackupsInput));
  ListBackupsRequest req;
  req.scope = ctx.scope;
  req.table_name = OptionalString(request, "TableName");
  if (std::optional<int64_t> limit = OptionalInt(request, "Limit")) {
    req.limit = static_cast<int>(*limit);
  }
  req.exclusive_start_backup_arn = OptionalString(request, "ExclusiveStartBackupArn");
  req.backup_type = OptionalString(request, "BackupType");
  DR_ASSIGN_OR_RETURN(req.time_range_lower_micros,
                      DecodeTimestamp(request, "TimeRangeLowerBound"));
  DR_ASSIGN_OR_RETURN(req.time_range_upper_micros,
                      DecodeTimestamp(request, "TimeRangeUpperBound"));
  DR_ASSIGN_OR_RETURN(ListBackupsResult result, ctx.engine->ListBackups(req));
  Json summaries = Json::array();
  for (const BackupDescription& d : result.backups) {
    Json s = BackupDetailsJson(d);
    s["TableName"] = d.source.table_name;
    s["TableId"] = d.source.table_id;
    s["TableArn"] = d.source.table_arn;
    summaries.push_back(std::move(s));
  }
  Json out = {{"BackupSummaries", std::move(summaries)}};
  if (result.last_evaluated_backup_arn) {
    out["LastEvaluatedBackupArn"] = *result.last_evaluated_backup_arn;
  }
  return out;
}

Result<Json> RestoreTableFromBackup(const RequestContext& ctx, const Json& request) {
  static const Shape kInput = RestoreFromBackupInput();
  DR_RETURN_IF_ERROR(ValidateRequest(request, kInput));
  RestoreTableFromBackupRequest req;
  req.scope = ctx.scope;
  req.target_table_name = StringOr(request, "TargetTableName");
  req.backup_arn = StringOr(request, "BackupArn");
  DR_ASSIGN_OR_RETURN(req.overrides, DecodeOverrides(request));
  // The source for the RestoreSummary (and the backup's existence first).
  DescribeBackupRequest describe{req.scope, req.backup_arn};
  DR_ASSIGN_OR_RETURN(BackupDescription backup, ctx.engine->DescribeBackup(describe));
  DR_ASSIGN_OR_RETURN(TableDescription d, ctx.engine->RestoreTableFromBackup(req));
  return RestoredTableJson(d, {{"SourceBackupArn", backup.backup_arn},
                               {"SourceTableArn", backup.source.table_arn},
                               {"RestoreDateTime", SecondsJson(d.creation_date_time_micros)},
                               {"RestoreInProgress", false}});
}

Result<Json> UpdateContinuousBackups(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kUpdateContinuousBackupsInput));
  UpdateContinuousBackupsRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  const Json& spec = *Field(request, "PointInTimeRecoverySpecification");
  req.point_in_time_recovery_enabled =
      OptionalBool(spec, "PointInTimeRecoveryEnabled").value_or(false);
  req.recovery_period_in_days = OptionalInt(spec, "RecoveryPeriodInDays");
  DR_ASSIGN_OR_RETURN(ContinuousBackupsDescription d,
                      ctx.engine->UpdateContinuousBackups(req));
  return ContinuousBackupsJson(d);
}

Result<Json> DescribeContinuousBackups(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDescribeContinuousBackupsInput));
  DescribeContinuousBackupsRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  DR_ASSIGN_OR_RETURN(ContinuousBackupsDescription d,
                      ctx.engine->DescribeContinuousBackups(req));
  return ContinuousBackupsJson(d);
}

Result<Json> RestoreTableToPointInTime(const RequestContext& ctx, const Json& request) {
  static const Shape kInput = RestoreToPointInTimeInput();
  DR_RETURN_IF_ERROR(ValidateRequest(request, kInput));
  RestoreTableToPointInTimeRequest req;
  req.scope = ctx.scope;
  req.source_table_name = StringOr(request, "SourceTableName");
  req.source_table_arn = OptionalString(request, "SourceTableArn");
  req.target_table_name = StringOr(request, "TargetTableName");
  req.use_latest_restorable_time =
      OptionalBool(request, "UseLatestRestorableTime").value_or(false);
  DR_ASSIGN_OR_RETURN(req.restore_micros, DecodeTimestamp(request, "RestoreDateTime"));
  DR_ASSIGN_OR_RETURN(req.overrides, DecodeOverrides(request));
  if (!req.source_table_arn && req.source_table_name.empty()) {
    return Status::Validation("Either SourceTableArn or SourceTableName must be specified");
  }
  DR_ASSIGN_OR_RETURN(TableDescription d, ctx.engine->RestoreTableToPointInTime(req));
  const int64_t at = req.use_latest_restorable_time || !req.restore_micros
                         ? d.creation_date_time_micros
                         : *req.restore_micros;
  std::string source_arn = req.source_table_arn.value_or("");
  if (source_arn.empty()) {
    source_arn = d.table_arn.substr(0, d.table_arn.rfind('/') + 1) + req.source_table_name;
  }
  return RestoredTableJson(d, {{"SourceTableArn", source_arn},
                               {"RestoreDateTime", SecondsJson(at)},
                               {"RestoreInProgress", false}});
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kBackupOperationsRows[] = {
    Operation{"CreateBackup", &CreateBackup},
    Operation{"DeleteBackup", &DeleteBackup},
    Operation{"DescribeBackup", &DescribeBackup},
    Operation{"DescribeContinuousBackups", &DescribeContinuousBackups},
    Operation{"ListBackups", &ListBackups},
    Operation{"RestoreTableFromBackup", &RestoreTableFromBackup},
    Operation{"RestoreTableToPointInTime", &RestoreTableToPointInTime},
    Operation{"UpdateContinuousBackups", &UpdateContinuousBackups},
};
const std::span<const Operation> kBackupOperations = kBackupOperationsRows;

}  // namespace dynarock::api::ops
