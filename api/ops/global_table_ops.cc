// Global tables version 2017.11.29 (Legacy), as DynamoDB still serves them
// (API reference: CreateGlobalTable, DescribeGlobalTable, ListGlobalTables,
// UpdateGlobalTable, DescribeGlobalTableSettings, UpdateGlobalTableSettings;
// docs/global-tables.md). Each acts in the caller's Region. Auto scaling
// settings are refused by name: dynarock has no auto scaling.

#include <utility>

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/validate.h"
#include "engine/engine.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

// GlobalTableName: the model's TableName constraints.
Member GlobalTableNameMember(bool required = true) {
  return Member{.name = "GlobalTableName",
                .shape = &kStringShape,
                .required = required,
                .name_pattern = true,
                .min_length = 3,
                .max_length = 255};
}

Member RegionNameMember() {
  return Member{.name = "RegionName", .shape = &kStringShape, .required = true};
}

Member UnitsMember(std::string_view name) {
  return Member{.name = name, .shape = &kLongShape, .min_value = 1};
}

const Shape kReplicaShape{.kind = Kind::kStructure, .members = {RegionNameMember()}};
const Shape kReplicaListShape{.kind = Kind::kList, .element = &kReplicaShape};

const Shape kCreateGlobalTableInput{
    .kind = Kind::kStructure,
    .members = {GlobalTableNameMember(),
                Member{.name = "ReplicationGroup", .shape = &kReplicaListShape,
                       .required = true}}};

const Shape kDescribeGlobalTableInput{.kind = Kind::kStructure,
                                      .members = {GlobalTableNameMember()}};

const Shape kListGlobalTablesInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "ExclusiveStartGlobalTableName",
               .shape = &kStringShape,
               .name_pattern = true,
               .min_length = 3,
               .max_length = 255},
        Member{.name = "Limit", .shape = &kIntegerShape, .min_value = 1},
        Member{.name = "RegionName", .shape = &kStringShape},
    }};

const Shape kReplicaUpdateShape{
    .kind = Kind::kStructure,
    .members = {Member{.name = "Create", .shape = &kReplicaShape},
                Member{.name = "Delete", .shape = &kReplicaShape}}};
const Shape kReplicaUpdateListShape{.kind = Kind::kList, .element = &kReplicaUpdateShape};

const Shape kUpdateGlobalTableInput{
    .kind = Kind::kStructure,
    .members = {GlobalTableNameMember(),
                Member{.name = "ReplicaUpdates", .shape = &kReplicaUpdateListShape,
                       .required = true}}};

// GlobalTableGlobalSecondaryIndexSettingsUpdate's element.
const Shape kIndexWriteSettingsShape{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "IndexName", .shape = &kStringShape, .required = true,
               .name_pattern = true, .min_length = 3, .max_length = 255},
        UnitsMember("ProvisionedWriteCapacityUnits"),
        UnsupportedMember("ProvisionedWriteCapacityAutoScalingSettingsUpdate",
                          &kOpaqueStructureShape),
    }};
const Shape kIndexWriteSettingsListShape{.kind = Kind::kList,
                                         .element = &kIndexWriteSettingsShape};

// ReplicaGlobalSecondaryIndexSettingsUpdate's element.
const Shape kIndexReadSettingsShape{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "IndexName", .shape = &kStringShape, .required = true,
               .name_pattern = true, .min_length = 3, .max_length = 255},
        UnitsMember("ProvisionedReadCapacityUnits"),
        UnsupportedMember("ProvisionedReadCapacityAutoScalingSettingsUpdate",
                          &kOpaqueStructureShape),
    }};
const Shape kIndexReadSettingsListShape{.kind = Kind::kList,
                                        .element = &kIndexReadSettingsShape};

const Shape kReplicaSettingsUpdateShape{
    .kind = Kind::kStructure,
    .members = {
        RegionNameMember(),
        UnitsMember("ReplicaProvisionedReadCapacityUnits"),
        UnsupportedMember("ReplicaProvisionedReadCapacityAutoScalingSettingsUpdate",
                          &kOpaqueStructureShape),
        Member{.name = "ReplicaGlobalSecondaryIndexSettingsUpdate",
               .shape = &kIndexReadSettingsListShape, .min_length = 1, .max_length = 20},
        Member{.name = "ReplicaTableClass", .shape = &kStringShape,
               .enum_values = {"STANDARD", "STANDARD_INFREQUENT_ACCESS"}},
    }};
const Shape kReplicaSettingsUpdateListShape{.kind = Kind::kList,
                                            .element = &kReplicaSettingsUpdateShape};

const Shape kUpdateGlobalTableSettingsInput{
    .kind = Kind::kStructure,
    .members = {
        GlobalTableNameMember(),
        Member{.name = "GlobalTableBillingMode", .shape = &kStringShape,
               .enum_values = {"PROVISIONED", "PAY_PER_REQUEST"}},
        UnitsMember("GlobalTableProvisionedWriteCapacityUnits"),
        UnsupportedMember("GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate",
                          &kOpaqueStructureShape),
        Member{.name = "GlobalTableGlobalSecondaryIndexSettingsUpdate",
               .shape = &kIndexWriteSettingsListShape, .min_length = 1, .max_length = 20},
        Member{.name = "ReplicaSettingsUpdate", .shape = &kReplicaSettingsUpdateListShape,
               .min_length = 1, .max_length = 50},
    }};

std::string_view GlobalTableStatusName(GlobalTableStatus s) {
  switch (s) {
    case GlobalTableStatus::kCreating:
      return "CREATING";
    case GlobalTableStatus::kDeleting:
      return "DELETING";
    case GlobalTableStatus::kUpdating:
      return "UPDATING";
    case GlobalTableStatus::kActive:
      break;
  }
  return "ACTIVE";
}

Json ReplicationGroupJson(const std::vector<std::string>& regions) {
  Json out = Json::array();
  for (const std::string& r : regions) out.push_back(Json{{"RegionName", r}});
  return out;
}

Json GlobalTableDescriptionJson(const GlobalTableDescription& d) {
  return Json{{"GlobalTableDescription",
               Json{{"ReplicationGroup", ReplicationGroupJson(d.replication_group)},
                    {"GlobalTableArn", d.global_table_arn},
                    {"CreationDateTime", static_cast<double>(d.creation_date_time_micros) / 1e6},
                    {"GlobalTableStatus", GlobalTableStatusName(d.global_table_status)},
                    {"GlobalTableName", d.global_table_name}}}};
}

// ReplicaSettingsDescription, from the Region's table.
Json ReplicaSettingsJson(const ReplicaSettings& r) {
  const TableDescription& t = r.table;
  Json billing{{"BillingMode", t.billing_mode == BillingMode::kPayPerRequest
                                   ? "PAY_PER_REQUEST"
                                   : "PROVISIONED"}};
  if (t.last_update_to_pay_per_request_micros) {
    billing["LastUpdateToPayPerRequestDateTime"] =
        static_cast<double>(*t.last_update_to_pay_per_request_micros) / 1e6;
  }
  Json out{{"RegionName", r.region_name},
           {"ReplicaStatus", ReplicaStatusName(r.replica_status)},
           {"ReplicaBillingModeSummary", std::move(billing)},
           {"ReplicaProvisionedReadCapacityUnits", t.provisioned_throughput.read_capacity_units},
           {"ReplicaProvisionedWriteCapacityUnits", t.provisioned_throughput.write_capacity_units}};
  Json indexes = Json::array();
  for (const GlobalSecondaryIndexDescription& g : t.global_secondary_indexes) {
    indexes.push_back(Json{
        {"IndexName", g.def.index_name},
        {"IndexStatus", TableStatusName(g.index_status)},
        {"ProvisionedReadCapacityUnits", g.provisioned_throughput.read_capacity_units},
        {"ProvisionedWriteCapacityUnits", g.provisioned_throughput.write_capacity_units}});
  }
  if (!indexes.empty()) out["ReplicaGlobalSecondaryIndexSettings"] = std::move(indexes);
  if (t.table_class_summary) {
    Json summary{{"TableClass", TableClassName(t.table_class_summary->table_class)}};
    if (t.table_class_summary->last_update_micros) {
      summary["LastUpdateDateTime"] =
          static_cast<double>(*t.table_class_summary->last_update_micros) / 1e6;
    }
    out["ReplicaTableClassSummary"] = std::move(summary);
  }
  return out;
}

Json SettingsJson(const GlobalTableSettings& s) {
  Json replicas = Json::array();
  for (const ReplicaSettings& r : s.replica_settings) replicas.push_back(ReplicaSettingsJson(r));
  return Json{{"GlobalTableName", s.global_table_name}, {"ReplicaSettings", std::move(replicas)}};
}

std::vector<UpdateGlobalTableSettingsRequest::IndexUnits> IndexUnitsOf(const Json* list,
                                                                      std::string_view units) {
  std::vector<UpdateGlobalTableSettingsRequest::IndexUnits> out;
  if (list == nullptr) return out;
  for (const Json& e : *list) out.push_back({StringOr(e, "IndexName"), OptionalInt(e, units)});
  return out;
}

}  // namespace

Result<Json> CreateGlobalTable(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kCreateGlobalTableInput));
  CreateGlobalTableRequest req;
  req.scope = ctx.scope;
  req.global_table_name = StringOr(request, "GlobalTableName");
  for (const Json& r : request.at("ReplicationGroup")) {
    req.replication_group.push_back(StringOr(r, "RegionName"));
  }
  DR_ASSIGN_OR_RETURN(GlobalTableDescription d, ctx.engine->CreateGlobalTable(req));
  return GlobalTableDescriptionJson(d);
}

Result<Json> DescribeGlobalTable(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDescribeGlobalTableInput));
  DescribeGlobalTableRequest req{ctx.scope, StringOr(request, "GlobalTableName")};
  DR_ASSIGN_OR_RETURN(GlobalTableDescription d, ctx.engine->DescribeGlobalTable(req));
  return GlobalTableDescriptionJson(d);
}

Result<Json> ListGlobalTables(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kListGlobalTablesInput));
  ListGlobalTablesRequest req;
  req.scope = ctx.scope;
  req.region_name = OptionalString(request, "RegionName");
  req.exclusive_start_global_table_name = OptionalString(request, "ExclusiveStartGlobalTableName");
  if (std::optional<int64_t> limit = OptionalInt(request, "Limit")) {
    req.limit = static_cast<int>(std::min<int64_t>(*limit, 1000));
  }
  DR_ASSIGN_OR_RETURN(ListGlobalTablesResult result, ctx.engine->ListGlobalTables(req));
  Json tables = Json::array();
  for (const ListGlobalTablesResult::Entry& e : result.global_tables) {
    tables.push_back(Json{{"GlobalTableName", e.global_table_name},
                          {"ReplicationGroup", ReplicationGroupJson(e.replication_group)}});
  }
  Json out{{"GlobalTables", std::move(tables)}};
  if (result.last_evaluated_global_table_name) {
    out["LastEvaluatedGlobalTableName"] = *result.last_evaluated_global_table_name;
  }
  return out;
}

Result<Json> UpdateGlobalTable(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kUpdateGlobalTableInput));
  UpdateGlobalTableRequest req;
  req.scope = ctx.scope;
  req.global_table_name = StringOr(request, "GlobalTableName");
  for (const Json& u : request.at("ReplicaUpdates")) {
    const Json* create = Field(u, "Create");
    const Json* del = Field(u, "Delete");
    if ((create == nullptr) == (del == nullptr)) {
      return Status::Validation(
          "One or more parameter values were invalid: Only one of Create or Delete can be "
          "specified in a ReplicaUpdate");
    }
    req.replica_updates.push_back(
        {create != nullptr, StringOr(create != nullptr ? *create : *del, "RegionName")});
  }
  DR_ASSIGN_OR_RETURN(GlobalTableDescription d, ctx.engine->UpdateGlobalTable(req));
  return GlobalTableDescriptionJson(d);
}

Result<Json> DescribeGlobalTableSettings(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDescribeGlobalTableInput));
  DescribeGlobalTableRequest req{ctx.scope, StringOr(request, "GlobalTableName")};
  DR_ASSIGN_OR_RETURN(GlobalTableSettings s, ctx.engine->DescribeGlobalTableSettings(req));
  return SettingsJson(s);
}

Result<Json> UpdateGlobalTableSettings(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kUpdateGlobalTableSettingsInput));
  UpdateGlobalTableSettingsRequest req;
  req.scope = ctx.scope;
  req.global_table_name = StringOr(request, "GlobalTableName");
  if (std::optional<std::string> mode = OptionalString(request, "GlobalTableBillingMode")) {
    req.billing_mode =
        *mode == "PAY_PER_REQUEST" ? BillingMode::kPayPerRequest : BillingMode::kProvisioned;
  }
  req.write_capacity_units = OptionalInt(request, "GlobalTableProvisionedWriteCapacityUnits");
  req.index_write_capacity_units =
      IndexUnitsOf(Field(request, "GlobalTableGlobalSecondaryIndexSettingsUpdate"),
                   "ProvisionedWriteCapacityUnits");
  if (const Json* replicas = Field(request, "ReplicaSettingsUpdate")) {
    for (const Json& r : *replicas) {
      UpdateGlobalTableSettingsRequest::Replica replica;
      replica.region_name = StringOr(r, "RegionName");
      replica.read_capacity_units = OptionalInt(r, "ReplicaProvisionedReadCapacityUnits");
      replica.index_read_capacity_units =
          IndexUnitsOf(Field(r, "ReplicaGlobalSecondaryIndexSettingsUpdate"),
                       "ProvisionedReadCapacityUnits");
      if (std::optional<std::string> c = OptionalString(r, "ReplicaTableClass")) {
        replica.table_class = TableClassFromName(*c);
      }
      req.replicas.push_back(std::move(replica));
    }
  }
  DR_ASSIGN_OR_RETURN(GlobalTableSettings s, ctx.engine->UpdateGlobalTableSettings(req));
  return SettingsJson(s);
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kGlobalTableOperationsRows[] = {
    Operation{"CreateGlobalTable", &CreateGlobalTable},
    Operation{"DescribeGlobalTable", &DescribeGlobalTable},
    Operation{"DescribeGlobalTableSettings", &DescribeGlobalTableSettings},
    Operation{"ListGlobalTables", &ListGlobalTables},
    Operation{"UpdateGlobalTable", &UpdateGlobalTable},
    Operation{"UpdateGlobalTableSettings", &UpdateGlobalTableSettings},
};
const std::span<const Operation> kGlobalTableOperations = kGlobalTableOperationsRows;

}  // namespace dynarock::api::ops
