// Import from S3: ImportTable, DescribeImport, ListImports (docs/export.md).
// The engine runs the import; the files are read by api/transfer/ (the
// TransferFiles the engine was opened with).

#include <optional>
#include <string>

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/ops/table_codec.h"
#include "api/ops/vector_codec.h"
#include "api/validate.h"
#include "engine/engine.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

const Shape kS3BucketSourceShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.S3BucketSource",
    .members = {
        Member{.name = "S3BucketOwner", .shape = &kStringShape},
        Member{.name = "S3Bucket", .shape = &kStringShape, .required = true,
               .max_length = 255},
        Member{.name = "S3KeyPrefix", .shape = &kStringShape, .max_length = 1024},
    }};

const Shape kHeaderListShape{.kind = Kind::kList, .element = &kStringShape};

const Shape kCsvOptionsShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.CsvOptions",
    .members = {
        Member{.name = "Delimiter", .shape = &kStringShape, .min_length = 1,
               .max_length = 1},
        Member{.name = "HeaderList", .shape = &kHeaderListShape, .min_length = 1,
               .max_length = 255},
    }};

const Shape kInputFormatOptionsShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.InputFormatOptions",
    .members = {Member{.name = "Csv", .shape = &kCsvOptionsShape}}};

const Shape kImportTableInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "ClientToken", .shape = &kStringShape},
        Member{.name = "S3BucketSource", .shape = &kS3BucketSourceShape, .required = true},
        Member{.name = "InputFormat", .shape = &kStringShape, .required = true,
               .enum_values = {"DYNAMODB_JSON", "ION", "CSV"}},
        Member{.name = "InputFormatOptions", .shape = &kInputFormatOptionsShape},
        Member{.name = "InputCompressionType", .shape = &kStringShape,
               .enum_values = {"GZIP", "ZSTD", "NONE"}},
        Member{.name = "TableCreationParameters", .shape = &TableCreationParametersShape(),
               .required = true},
    }};

const Shape kDescribeImportInput{
    .kind = Kind::kStructure,
    .members = {Member{.name = "ImportArn", .shape = &kStringShape, .required = true,
                       .min_length = 37, .max_length = 1024}}};

const Shape kListImportsInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "TableArn", .shape = &kStringShape, .min_length = 1,
               .max_length = 1024},
        Member{.name = "PageSize", .shape = &kIntegerShape, .min_value = 1, .max_value = 25},
        Member{.name = "NextToken", .shape = &kStringShape, .max_length = 1024},
    }};

Json SourceJson(const S3BucketSource& s) {
  Json out = {{"S3Bucket", s.s3_bucket}};
  if (s.s3_bucket_owner) out["S3BucketOwner"] = *s.s3_bucket_owner;
  if (s.s3_key_prefix) out["S3KeyPrefix"] = *s.s3_key_prefix;
  return out;
}

Json TableCreationParametersJson(const TableDescription& t) {
  const Json table = TableDescriptionJson(t);
  Json out = {{"TableName", t.table_name},
              {"AttributeDefinitions", table["AttributeDefinitions"]},
              {"KeySchema", table["KeySchema"]},
              {"BillingMode", t.billing_mode == BillingMode::kPayPerRequest
                                  ? "PAY_PER_REQUEST"
                                  : "PROVISIONED"}};
  if (t.billing_mode == BillingMode::kProvisioned) {
    out["ProvisionedThroughput"] = {
        {"ReadCapacityUnits", t.provisioned_throughput.read_capacity_units},
        {"WriteCapacityUnits", t.provisioned_throughput.write_capacity_units}};
  }
  if (!t.global_secondary_indexes.empty()) {
    Json gsis = Json::array();
    for (const auto& g : t.global_secondary_indexes) {
      Json index = {{"IndexName", g.def.index_name},
                    {"KeySchema", KeySchemaJson(g.def.key_schema)},
                    {"Projection", ProjectionJson(g.def.projection)}};
      if (t.billing_mode == BillingMode::kProvisioned) {
        index["ProvisionedThroughput"] = {
            {"ReadCapacityUnits", g.provisioned_throughput.read_capacity_units},
            {"WriteCapacityUnits", g.provisioned_throughput.write_capacity_units}};
      }
      gsis.push_back(std::move(index));
    }
    out["GlobalSecondaryIndexes"] = std::move(gsis);
  }
  if (!t.vector_indexes.empty()) {
    Json vectors = Json::array();
    for (const auto& v : t.vector_indexes) vectors.push_back(VectorIndexDefJson(v.def));
    out["VectorIndexes"] = std::move(vectors);
  }
  return out;
}

Json ImportDescriptionJson(const ImportTableDescription& d) {
  Json out = {{"ImportArn", d.import_arn},
              {"ImportStatus", std::string(ImportStatusName(d.import_status))},
              {"TableArn", d.table_arn},
              {"TableId", d.table_id},
              {"S3BucketSource", SourceJson(d.source)},
              {"ErrorCount", d.error_count},
              {"InputFormat", std::string(InputFormatName(d.input_format))},
              {"InputCompressionType", std::string(InputCompressionName(d.compression))},
              {"TableCreationParameters", TableCreationParametersJson(d.table)},
              {"StartTime", SecondsJson(d.start_micros)},
              {"ProcessedSizeBytes", d.processed_size_bytes},
              {"ProcessedItemCount", d.processed_item_count},
              {"ImportedItemCount", d.imported_item_count}};
  if (!d.client_token.empty()) out["ClientToken"] = d.client_token;
  if (d.csv.delimiter || d.csv.header_list) {
    Json csv = Json::object();
    if (d.csv.delimiter) csv["Delimiter"] = *d.csv.delimiter;
    if (d.csv.header_list) csv["HeaderList"] = *d.csv.header_list;
    out["InputFormatOptions"] = {{"Csv", std::move(csv)}};
  }
  if (d.end_micros) out["EndTime"] = SecondsJson(*d.end_micros);
  if (d.failure_code) out["FailureCode"] = *d.failure_code;
  if (d.failure_message) out["FailureMessage"] = *d.failure_message;
  return out;
}

}  // namespace

Result<Json> ImportTable(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kImportTableInput));
  ImportTableRequest req;
  req.scope = ctx.scope;
  req.client_token = OptionalString(request, "ClientToken");
  const Json& source = *Field(request, "S3BucketSource");
  req.source.s3_bucket = StringOr(source, "S3Bucket");
  req.source.s3_bucket_owner = OptionalString(source, "S3BucketOwner");
  req.source.s3_key_prefix = OptionalString(source, "S3KeyPrefix");
  const std::string format = StringOr(request, "InputFormat");
  req.input_format = format == "CSV"   ? InputFormat::kCsv
                     : format == "ION" ? InputFormat::kIon
                                       : InputFormat::kDynamoDbJson;
  if (const Json* options = Field(request, "InputFormatOptions")) {
    if (const Json* csv = Field(*options, "Csv")) {
      req.csv.delimiter = OptionalString(*csv, "Delimiter");
      if (const Json* headers = Field(*csv, "HeaderList")) {
        std::vector<std::string> list;
        for (const Json& h : *headers) list.push_back(h.get<std::string>());
        req.csv.header_list = std::move(list);
      }
    }
  }
  const std::string compression = StringOr(request, "InputCompressionType", "NONE");
  req.compression = compression == "GZIP"   ? InputCompression::kGzip
                    : compression == "ZSTD" ? InputCompression::kZstd
                                            : InputCompression::kNone;
  DR_ASSIGN_OR_RETURN(req.table,
                      DecodeCreateTableRequest(*Field(request, "TableCreationParameters")));
  DR_ASSIGN_OR_RETURN(ImportTableDescription d, ctx.engine->ImportTable(req));
  return Json{{"ImportTableDescription", ImportDescriptionJson(d)}};
}

Result<Json> DescribeImport(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDescribeImportInput));
  DescribeImportRequest req;
  req.scope = ctx.scope;
  req.import_arn = StringOr(request, "ImportArn");
  DR_ASSIGN_OR_RETURN(ImportTableDescription d, ctx.engine->DescribeImport(req));
  return Json{{"ImportTableDescription", ImportDescriptionJson(d)}};
}

Result<Json> ListImports(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kListImportsInput));
  ListImportsRequest req;
  req.scope = ctx.scope;
  req.table_arn = OptionalString(request, "TableArn");
  req.page_size = OptionalInt(request, "PageSize");
  req.next_token = OptionalString(request, "NextToken");
  DR_ASSIGN_OR_RETURN(ListImportsResult result, ctx.engine->ListImports(req));
  Json summaries = Json::array();
  for (const ImportTableDescription& d : result.imports) {
    Json s = {{"ImportArn", d.import_arn},
              {"ImportStatus", std::string(ImportStatusName(d.import_status))},
              {"TableArn", d.table_arn},
              {"S3BucketSource", SourceJson(d.source)},
              {"InputFormat", std::string(InputFormatName(d.input_format))},
              {"StartTime", SecondsJson(d.start_micros)}};
    if (d.end_micros) s["EndTime"] = SecondsJson(*d.end_micros);
    summaries.push_back(std::move(s));
  }
  Json out = {{"ImportSummaryList", std::move(summaries)}};
  if (result.next_token) out["NextToken"] = *result.next_token;
  return out;
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kImportOperationsRows[] = {
    Operation{"DescribeImport", &DescribeImport},
    Operation{"ImportTable", &ImportTable},
    Operation{"ListImports", &ListImports},
};
const std::span<const Operation> kImportOperations = kImportOperationsRows;

}  // namespace dynarock::api::ops
