// Export to S3: ExportTableToPointInTime, DescribeExport, ListExports
// (docs/export.md). The engine runs the export; the files are written by
// api/transfer/ (the TransferFiles the engine was opened with).

#include <cmath>
#include <optional>
#include <string>

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/ops/table_codec.h"
#include "api/validate.h"
#include "engine/engine.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

const Shape kIncrementalExportSpecificationShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.IncrementalExportSpecification",
    .members = {
        Member{.name = "ExportViewType", .shape = &kStringShape,
               .enum_values = {"NEW_IMAGE", "NEW_AND_OLD_IMAGES"}},
    }};

const Shape kExportTableInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "TableArn", .shape = &kStringShape, .required = true, .min_length = 1,
               .max_length = 1024},
        Member{.name = "ClientToken", .shape = &kStringShape},
        Member{.name = "S3Bucket", .shape = &kStringShape, .required = true,
               .max_length = 255},
        Member{.name = "S3BucketOwner", .shape = &kStringShape},
        Member{.name = "S3Prefix", .shape = &kStringShape, .max_length = 1024},
        Member{.name = "S3SseAlgorithm", .shape = &kStringShape,
               .enum_values = {"AES256", "KMS"}},
        Member{.name = "S3SseKmsKeyId", .shape = &kStringShape, .min_length = 1,
               .max_length = 2048},
        Member{.name = "ExportFormat", .shape = &kStringShape,
               .enum_values = {"DYNAMODB_JSON", "ION"}},
        Member{.name = "ExportType", .shape = &kStringShape,
               .enum_values = {"FULL_EXPORT", "INCREMENTAL_EXPORT"}},
        Member{.name = "IncrementalExportSpecification",
               .shape = &kIncrementalExportSpecificationShape},
        // Exports of a filtered part of the table are not implemented.
        UnsupportedMember("FilterSpecification", &kOpaqueStructureShape),
    }};

const Shape kDescribeExportInput{
    .kind = Kind::kStructure,
    .members = {Member{.name = "ExportArn", .shape = &kStringShape, .required = true,
                       .min_length = 37, .max_length = 1024}}};

const Shape kListExportsInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "TableArn", .shape = &kStringShape, .min_length = 1,
               .max_length = 1024},
        Member{.name = "MaxResults", .shape = &kIntegerShape, .min_value = 1,
               .max_value = 25},
        Member{.name = "NextToken", .shape = &kStringShape},
    }};

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

Json ExportDescriptionJson(const ExportDescription& d) {
  Json out = {{"ExportArn", d.export_arn},
              {"ExportStatus", std::string(ExportStatusName(d.export_status))},
              {"StartTime", SecondsJson(d.start_micros)},
              {"ExportManifest", d.export_manifest},
              {"TableArn", d.table_arn},
              {"TableId", d.table_id},
              {"ExportTime", SecondsJson(d.export_micros)},
              {"S3Bucket", d.s3_bucket},
              {"S3SseAlgorithm", d.s3_sse_algorithm},
              {"ExportFormat", std::string(ExportFormatName(d.export_format))},
              {"ExportType", std::string(ExportTypeName(d.export_type))}};
  if (d.end_micros) out["EndTime"] = SecondsJson(*d.end_micros);
  if (!d.client_token.empty()) out["ClientToken"] = d.client_token;
  if (d.s3_bucket_owner) out["S3BucketOwner"] = *d.s3_bucket_owner;
  if (d.s3_prefix) out["S3Prefix"] = *d.s3_prefix;
  if (d.s3_sse_kms_key_id) out["S3SseKmsKeyId"] = *d.s3_sse_kms_key_id;
  if (d.failure_code) out["FailureCode"] = *d.failure_code;
  if (d.failure_message) out["FailureMessage"] = *d.failure_message;
  if (d.export_status == ExportStatus::kCompleted) {
    out["BilledSizeBytes"] = d.billed_size_bytes;
    out["ItemCount"] = d.item_count;
  }
  return out;
}

}  // namespace

Result<Json> ExportTableToPointInTime(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kExportTableInput));
  ExportTableToPointInTimeRequest req;
  req.scope = ctx.scope;
  req.table_arn = StringOr(request, "TableArn");
  DR_ASSIGN_OR_RETURN(req.export_micros, DecodeTimestamp(request, "ExportTime"));
  req.client_token = OptionalString(request, "ClientToken");
  req.s3_bucket = StringOr(request, "S3Bucket");
  req.s3_bucket_owner = OptionalString(request, "S3BucketOwner");
  req.s3_prefix = OptionalString(request, "S3Prefix");
  req.s3_sse_algorithm = OptionalString(request, "S3SseAlgorithm");
  req.s3_sse_kms_key_id = OptionalString(request, "S3SseKmsKeyId");
  if (OptionalString(request, "ExportFormat").value_or("DYNAMODB_JSON") == "ION") {
    req.export_format = ExportFormat::kIon;
  }
  if (OptionalString(request, "ExportType").value_or("FULL_EXPORT") == "INCREMENTAL_EXPORT") {
    req.export_type = ExportType::kIncrementalExport;
    if (const Json* spec = Field(request, "IncrementalExportSpecification")) {
      DR_ASSIGN_OR_RETURN(req.incremental_from_micros,
                          DecodeTimestamp(*spec, "ExportFromTime"));
      DR_ASSIGN_OR_RETURN(req.incremental_to_micros, DecodeTimestamp(*spec, "ExportToTime"));
      req.incremental_old_images =
          OptionalString(*spec, "ExportViewType").value_or("NEW_AND_OLD_IMAGES") ==
          "NEW_AND_OLD_IMAGES";
    }
  }
  DR_ASSIGN_OR_RETURN(ExportDescription d, ctx.engine->ExportTableToPointInTime(req));
  return Json{{"ExportDescription", ExportDescriptionJson(d)}};
}

Result<Json> DescribeExport(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDescribeExportInput));
  DescribeExportRequest req;
  req.scope = ctx.scope;
  req.export_arn = StringOr(request, "ExportArn");
  DR_ASSIGN_OR_RETURN(ExportDescription d, ctx.engine->DescribeExport(req));
  return Json{{"ExportDescription", ExportDescriptionJson(d)}};
}

Result<Json> ListExports(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kListExportsInput));
  ListExportsRequest req;
  req.scope = ctx.scope;
  req.table_arn = OptionalString(request, "TableArn");
  req.max_results = OptionalInt(request, "MaxResults");
  req.next_token = OptionalString(request, "NextToken");
  DR_ASSIGN_OR_RETURN(ListExportsResult result, ctx.engine->ListExports(req));
  Json summaries = Json::array();
  for (const ExportDescription& d : result.exports) {
    summaries.push_back({{"ExportArn", d.export_arn},
                         {"ExportStatus", std::string(ExportStatusName(d.export_status))},
                         {"ExportType", std::string(ExportTypeName(d.export_type))}});
  }
  Json out = {{"ExportSummaries", std::move(summaries)}};
  if (result.next_token) out["NextToken"] = *result.next_token;
  return out;
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kExportOperationsRows[] = {
    Operation{"DescribeExport", &DescribeExport},
    Operation{"ExportTableToPointInTime", &ExportTableToPointInTime},
    Operation{"ListExports", &ListExports},
};
const std::span<const Operation> kExportOperations = kExportOperationsRows;

}  // namespace dynarock::api::ops
