// The database-snapshot extension (dispatched as "DynamoRock_20251121.<name>",
// never a DynamoDB_20120810 operation; docs/backups.md):
//
//   CreateSnapshot   {SnapshotName} -> {SnapshotDescription}
//   RestoreSnapshot  {SnapshotName} -> {}   the whole database reset to it
//   ListSnapshots    {}             -> {Snapshots: [SnapshotDescription]}
//   DeleteSnapshot   {SnapshotName} -> {}
//
// SnapshotDescription: {SnapshotName, CreationDateTime (epoch seconds),
// SizeBytes}. A snapshot covers every namespace, whoever calls.

#include <string>
#include <utility>

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/ops/table_codec.h"
#include "api/validate.h"
#include "engine/engine.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

const Shape kSnapshotNameInput{
    .kind = Kind::kStructure,
    .members = {Member{.name = "SnapshotName", .shape = &kStringShape, .required = true,
                       .name_pattern = true, .min_length = 1, .max_length = 255}}};

const Shape kNoInput{.kind = Kind::kStructure};

Json SnapshotJson(const SnapshotInfo& s) {
  return Json{{"SnapshotName", s.name},
              {"CreationDateTime", SecondsJson(s.creation_micros)},
              {"SizeBytes", s.size_bytes}};
}

}  // namespace

Result<Json> CreateSnapshot(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kSnapshotNameInput));
  DR_ASSIGN_OR_RETURN(SnapshotInfo s,
                      ctx.engine->CreateSnapshot(StringOr(request, "SnapshotName")));
  return Json{{"SnapshotDescription", SnapshotJson(s)}};
}

Result<Json> RestoreSnapshot(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kSnapshotNameInput));
  DR_RETURN_IF_ERROR(ctx.engine->RestoreSnapshot(StringOr(request, "SnapshotName")));
  return Json::object();
}

Result<Json> ListSnapshots(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kNoInput));
  DR_ASSIGN_OR_RETURN(std::vector<SnapshotInfo> all, ctx.engine->ListSnapshots());
  Json list = Json::array();
  for (const SnapshotInfo& s : all) list.push_back(SnapshotJson(s));
  return Json{{"Snapshots", std::move(list)}};
}

Result<Json> DeleteSnapshot(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kSnapshotNameInput));
  DR_RETURN_IF_ERROR(ctx.engine->DeleteSnapshot(StringOr(request, "SnapshotName")));
  return Json::object();
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kSnapshotOperationsRows[] = {
    Operation{"DynamoRock_20251121.CreateSnapshot", &CreateSnapshot},
    Operation{"DynamoRock_20251121.DeleteSnapshot", &DeleteSnapshot},
    Operation{"DynamoRock_20251121.ListSnapshots", &ListSnapshots},
    Operation{"DynamoRock_20251121.RestoreSnapshot", &RestoreSnapshot},
};
const std::span<const Operation> kSnapshotOperations = kSnapshotOperationsRows;

}  // namespace dynarock::api::ops
