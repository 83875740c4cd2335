// Bulk put items: StartBulkPutItems, DescribeBulkOperation,
// ListBulkOperations, CancelBulkOperation (docs/bulk-put-items.md). The
// engine runs the job (engine/transfer/bulk_puts.h); the objects are read
// and the reports written by api/transfer/ (the TransferFiles the engine
// was opened with).

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

const Shape kInputS3ConfigurationShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.InputS3Configuration",
    .members = {
        Member{.name = "S3BucketOwner", .shape = &kStringShape},
        Member{.name = "S3Bucket", .shape = &kStringShape, .required = true,
               .max_length = 255},
        Member{.name = "S3KeyPrefix", .shape = &kStringShape, .max_length = 1024},
        Member{.name = "InputFormat", .shape = &kStringShape, .required = true,
               .enum_values = {"DYNAMODB_JSON", "ION"}},
        Member{.name = "InputCompressionType", .shape = &kStringShape,
               .enum_values = {"GZIP", "ZSTD", "NONE"}},
    }};

const Shape kOutputTypeListShape{.kind = Kind::kList, .element = &kStringShape};

const Shape kOutputS3ConfigurationShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.OutputS3Configuration",
    .members = {
        Member{.name = "S3BucketOwner", .shape = &kStringShape},
        Member{.name = "S3Bucket", .shape = &kStringShape, .max_length = 255},
        Member{.name = "S3KeyPrefix", .shape = &kStringShape, .max_length = 1024},
        Member{.name = "S3SseAlgorithm", .shape = &kStringShape,
               .enum_values = {"AES256", "KMS"}},
        Member{.name = "S3SseKmsKeyId", .shape = &kStringShape, .min_length = 1,
               .max_length = 2048},
        Member{.name = "OutputType", .shape = &kOutputTypeListShape, .required = true,
               .min_length = 1, .max_length = 2},
    }};

const Shape kStartBulkPutItemsInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "ClientToken", .shape = &kStringShape, .min_length = 1,
               .max_length = 64},
        Member{.name = "InputS3Configuration", .shape = &kInputS3ConfigurationShape,
               .required = true},
        Member{.name = "OutputS3Configuration", .shape = &kOutputS3ConfigurationShape,
               .required = true},
        Member{.name = "TableName", .shape = &kStringShape, .required = true,
               .name_pattern = true, .min_length = 3, .max_length = 255},
        Member{.name = "MaxWriteRequestUnits", .shape = &kLongShape, .min_value = 1024},
        Member{.name = "PerformanceTier", .shape = &kStringShape,
               .enum_values = {"STANDARD", "ACCELERATED"}},
    }};

const Shape kBulkOperationArnInput{
    .kind = Kind::kStructure,
    .members = {Member{.name = "BulkOperationArn", .shape = &kStringShape, .required = true,
                       .min_length = 1, .max_length = 1024}}};

const Shape kListBulkOperationsInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "MaxResults", .shape = &kIntegerShape, .min_value = 1,
               .max_value = 100},
        Member{.name = "NextToken", .shape = &kStringShape, .max_length = 1024},
    }};

Json InputJson(const BulkInputSource& in) {
  Json out = {{"S3Bucket", in.s3_bucket},
              {"InputFormat", std::string(BulkInputFormatName(in.input_format))},
              {"InputCompressionType", std::string(InputCompressionName(in.compression))}};
  if (in.s3_bucket_owner) out["S3BucketOwner"] = *in.s3_bucket_owner;
  if (in.s3_key_prefix) out["S3KeyPrefix"] = *in.s3_key_prefix;
  return out;
}

Json OutputJson(const BulkOutputTarget& o) {
  Json types = Json::array();
  if (o.report_errors) types.push_back("ERROR");
  if (o.report_condition_failures) types.push_back("CONDITION_CHECK_FAILURE");
  Json out = {{"OutputType", std::move(types)}};
  if (o.s3_bucket) out["S3Bucket"] = *o.s3_bucket;
  if (o.s3_bucket_owner) out["S3BucketOwner"] = *o.s3_bucket_owner;
  if (o.s3_key_prefix) out["S3KeyPrefix"] = *o.s3_key_prefix;
  if (o.s3_sse_algorithm) out["S3SseAlgorithm"] = *o.s3_sse_algorithm;
  if (o.s3_sse_kms_key_id) out["S3SseKmsKeyId"] = *o.s3_sse_kms_key_id;
  return out;
}

Json BytesMapJson(const std::map<std::string, int64_t>& m) {
  Json out = Json::object();
  for (const auto& [name, bytes] : m) out[name] = {{"BulkPutBytes", bytes}};
  return out;
}

Json UsageJson(const BulkOperationUsage& u) {
  Json out = {{"TableName", u.table_name},
              {"BulkPutBytes", u.bulk_put_bytes},
              {"Table", {{"BulkPutBytes", u.table_bulk_put_bytes}}}};
  if (!u.global_secondary_indexes.empty()) {
    out["GlobalSecondaryIndexes"] = BytesMapJson(u.global_secondary_indexes);
  }
  if (!u.local_secondary_indexes.empty()) {
    out["LocalSecondaryIndexes"] = BytesMapJson(u.local_secondary_indexes);
  }
  return out;
}

Json DescriptionJson(const BulkOperationDescription& d) {
  Json out = {
      {"BulkOperationArn", d.bulk_operation_arn},
      {"BulkOperationStatus", std::string(BulkOperationStatusName(d.status))},
      {"TableDetails", Json::array({{{"TableName", d.table_name}, {"TableId", d.table_id}}})},
      {"InputS3Configuration", InputJson(d.input)},
      {"OutputS3Configuration", OutputJson(d.output)},
      {"StartTime", SecondsJson(d.start_micros)},
      {"ProcessedItemCount", d.processed_item_count},
      {"ProcessedInputBytes", d.processed_input_bytes},
      {"BulkOperationUsage", Json::array({UsageJson(d.usage)})},
      {"FailedItemCount", d.failed_item_count},
      {"MaxWriteRequestUnits", d.max_write_request_units},
      {"PerformanceTier", std::string(BulkPerformanceTierName(d.performance_tier))}};
  if (!d.client_token.empty()) out["ClientToken"] = d.client_token;
  if (d.end_micros) out["EndTime"] = SecondsJson(*d.end_micros);
  if (d.total_input_bytes) out["TotalInputBytes"] = *d.total_input_bytes;
  if (d.failure_code) out["FailureCode"] = *d.failure_code;
  if (d.failure_message) out["FailureMessage"] = *d.failure_message;
  return out;
}

InputCompression CompressionOf(const std::string& name) {
  return name == "GZIP"   ? InputCompression::kGzip
         : name == "ZSTD" ? InputCompression::kZstd
                          : InputCompression::kNone;
}

}  // namespace

Result<Json> StartBulkPutItems(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kStartBulkPutItemsInput));
  StartBulkPutItemsRequest req;
  req.scope = ctx.scope;
  req.client_token = OptionalString(request, "ClientToken");
  req.table_name = StringOr(request, "TableName");
  const Json& in = *Field(request, "InputS3Configuration");
  req.input.s3_bucket = StringOr(in, "S3Bucket");
  req.input.s3_bucket_owner = OptionalString(in, "S3BucketOwner");
  req.input.s3_key_prefix = OptionalString(in, "S3KeyPrefix");
  req.input.input_format = StringOr(in, "InputFormat") == "ION" ? BulkInputFormat::kIon
                                                                : BulkInputFormat::kDynamoDbJson;
  req.input.compression = CompressionOf(StringOr(in, "InputCompressionType", "NONE"));
  const Json& out = *Field(request, "OutputS3Configuration");
  req.output.s3_bucket = OptionalString(out, "S3Bucket");
  req.output.s3_bucket_owner = OptionalString(out, "S3BucketOwner");
  req.output.s3_key_prefix = OptionalString(out, "S3KeyPrefix");
  req.output.s3_sse_algorithm = OptionalString(out, "S3SseAlgorithm");
  req.output.s3_sse_kms_key_id = OptionalString(out, "S3SseKmsKeyId");
  for (const Json& type : *Field(out, "OutputType")) {
    if (!type.is_string() ||
        (type != "ERROR" && type != "CONDITION_CHECK_FAILURE")) {
      return Status::Validation(
          "1 validation error detected: Value '" + type.dump() +
          "' at 'outputS3Configuration.outputType' failed to satisfy constraint: Member must "
          "satisfy constraint: [Member must satisfy enum value set: [ERROR, "
          "CONDITION_CHECK_FAILURE]]");
    }
    if (type == "ERROR") req.output.report_errors = true;
    if (type == "CONDITION_CHECK_FAILURE") req.output.report_condition_failures = true;
  }
  req.max_write_request_units = OptionalInt(request, "MaxWriteRequestUnits");
  if (StringOr(request, "PerformanceTier", "STANDARD") == "ACCELERATED") {
    req.performance_tier = BulkPerformanceTier::kAccelerated;
  }
  DR_ASSIGN_OR_RETURN(BulkOperationDescription d, ctx.engine->StartBulkPutItems(req));
  return Json{{"BulkOperationDescription", DescriptionJson(d)}};
}

Result<Json> DescribeBulkOperation(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kBulkOperationArnInput));
  DescribeBulkOperationRequest req;
  req.scope = ctx.scope;
  req.bulk_operation_arn = StringOr(request, "BulkOperationArn");
  DR_ASSIGN_OR_RETURN(BulkOperationDescription d, ctx.engine->DescribeBulkOperation(req));
  return Json{{"BulkOperationDescription", DescriptionJson(d)}};
}

Result<Json> ListBulkOperations(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kListBulkOperationsInput));
  ListBulkOperationsRequest req;
  req.scope = ctx.scope;
  req.max_results = OptionalInt(request, "MaxResults");
  req.next_token = OptionalString(request, "NextToken");
  DR_ASSIGN_OR_RETURN(ListBulkOperationsResult result, ctx.engine->ListBulkOperations(req));
  Json summaries = Json::array();
  for (const BulkOperationDescription& d : result.operations) {
    Json s = {{"BulkOperationArn", d.bulk_operation_arn},
              {"BulkOperationStatus", std::string(BulkOperationStatusName(d.status))},
              {"StartTime", SecondsJson(d.start_micros)}};
    if (d.end_micros) s["EndTime"] = SecondsJson(*d.end_micros);
    summaries.push_back(std::move(s));
  }
  Json out = {{"BulkOperationsSummaryList", std::move(summaries)}};
  if (result.next_token) out["NextToken"] = *result.next_token;
  return out;
}

Result<Json> CancelBulkOperation(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kBulkOperationArnInput));
  CancelBulkOperationRequest req;
  req.scope = ctx.scope;
  req.bulk_operation_arn = StringOr(request, "BulkOperationArn");
  DR_ASSIGN_OR_RETURN(BulkOperationDescription d, ctx.engine->CancelBulkOperation(req));
  return Json{{"BulkOperationArn", d.bulk_operation_arn},
              {"BulkOperationStatus", std::string(BulkOperationStatusName(d.status))}};
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kBulkOperationsRows[] = {
    Operation{"CancelBulkOperation", &CancelBulkOperation},
    Operation{"DescribeBulkOperation", &DescribeBulkOperation},
    Operation{"ListBulkOperations", &ListBulkOperations},
    Operation{"StartBulkPutItems", &StartBulkPutItems},
};
const std::span<const Operation> kBulkOperations = kBulkOperationsRows;

}  // namespace dynarock::api::ops
