// CreateTable, DescribeTable, ListTables, UpdateTable, DeleteTable.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/ops/resource_policy.h"
#include "api/ops/table_codec.h"
#include "api/ops/tags.h"
#include "api/ops/vector_codec.h"
#include "api/validate.h"

namespace dynarock::api::ops {

namespace {

// --- Input shapes (DynamoDB's model; member order = report order) --------
// Enum value orders are those DynamoDB prints (mhart/dynalite validations/).

using Kind = Shape::Kind;

const Shape kKeySchemaElementShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.KeySchemaElement",
    .members = {
        Member{.name = "AttributeName", .shape = &kStringShape, .required = true,
               .min_length = 1, .max_length = 255},
        Member{.name = "KeyType", .shape = &kStringShape, .required = true,
               .enum_values = {"HASH", "RANGE"}},
    }};
const Shape kKeySchemaShape{.kind = Kind::kList, .element = &kKeySchemaElementShape};

// A table's or LSI's KeySchema has 1 or 2 elements; a GSI's up to 8
// (multi-attribute keys: up to four HASH and four RANGE elements, whose
// order and counts the engine checks).
Member KeySchemaMember(int64_t max_length = 2) {
  return Member{.name = "KeySchema", .shape = &kKeySchemaShape, .required = true,
                .min_length = 1, .max_length = max_length};
}
constexpr int64_t kMaxGsiKeySchemaElements = 8;

const Shape kAttributeDefinitionShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.AttributeDefinition",
    .members = {
        Member{.name = "AttributeName", .shape = &kStringShape, .required = true,
               .min_length = 1, .max_length = 255},
        Member{.name = "AttributeType", .shape = &kStringShape, .required = true,
               .enum_values = {"B", "N", "S"}},
    }};
const Shape kAttributeDefinitionsShape{.kind = Kind::kList,
                                       .element = &kAttributeDefinitionShape};

const Shape kProvisionedThroughputShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.ProvisionedThroughput",
    .members = {
        Member{.name = "WriteCapacityUnits", .shape = &kLongShape, .required = true,
               .min_value = 1},
        Member{.name = "ReadCapacityUnits", .shape = &kLongShape, .required = true,
               .min_value = 1},
    }};

const Shape kOnDemandThroughputShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.OnDemandThroughput",
    .members = {
        Member{.name = "MaxReadRequestUnits", .shape = &kLongShape},
        Member{.name = "MaxWriteRequestUnits", .shape = &kLongShape},
    }};

const Shape kWarmThroughputShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.WarmThroughput",
    .members = {
        Member{.name = "ReadUnitsPerSecond", .shape = &kLongShape},
        Member{.name = "WriteUnitsPerSecond", .shape = &kLongShape},
    }};

Member OnDemandThroughputMember() {
  return Member{.name = "OnDemandThroughput", .shape = &kOnDemandThroughputShape};
}
Member WarmThroughputMember() {
  return Member{.name = "WarmThroughput", .shape = &kWarmThroughputShape};
}
// Enum values as DynamoDB prints them.
Member TableClassMember() {
  return Member{.name = "TableClass", .shape = &kStringShape,
                .enum_values = {"STANDARD", "STANDARD_INFREQUENT_ACCESS"}};
}

const Shape kProjectionShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.Projection",
    .members = {
        Member{.name = "ProjectionType", .shape = &kStringShape,
               .enum_values = {"ALL", "INCLUDE", "KEYS_ONLY"}},
        Member{.name = "NonKeyAttributes", .shape = &kStringListShape,
               .min_length = 1, .max_length = 20},
    }};

const Shape kLocalSecondaryIndexShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.LocalSecondaryIndex",
    .members = {
        CreateTableNameMember("IndexName", /*required=*/true),
        KeySchemaMember(),
        Member{.name = "Projection", .shape = &kProjectionShape, .required = true},
    }};

const Shape kGlobalSecondaryIndexShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.GlobalSecondaryIndex",
    .members = {
        CreateTableNameMember("IndexName", /*required=*/true),
        KeySchemaMember(kMaxGsiKeySchemaElements),
        Member{.name = "Projection", .shape = &kProjectionShape, .required = true},
        Member{.name = "ProvisionedThroughput", .shape = &kProvisionedThroughputShape},
        OnDemandThroughputMember(),
        WarmThroughputMember(),
    }};

const Shape kLocalSecondaryIndexesShape{.kind = Kind::kList,
                                        .element = &kLocalSecondaryIndexShape};
const Shape kGlobalSecondaryIndexesShape{.kind = Kind::kList,
                                         .element = &kGlobalSecondaryIndexShape};

const Shape kStreamSpecificationShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.StreamSpecification",
    .members = {
        Member{.name = "StreamEnabled", .shape = &kBooleanShape, .required = true},
        Member{.name = "StreamViewType", .shape = &kStringShape,
               .enum_values = {"NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES",
                               "KEYS_ONLY"}},
    }};

Member StreamSpecificationMember() {
  return Member{.name = "StreamSpecification", .shape = &kStreamSpecificationShape};
}

Member BillingModeMember() {
  return Member{.name = "BillingMode", .shape = &kStringShape,
                .enum_values = {"PROVISIONED", "PAY_PER_REQUEST"}};
}

// CreateTable's TableName: its absence is reported first and alone, as for
// the other table operations (nubo-db/dynamodb-conformance tier3
// error-messages/createTable, dynalite test/createTable.js), but its length
// joins the other constraint violations ("Value 'ab' at 'tableName' failed
// to satisfy constraint: Member must have length greater than or equal to
// 3", the conformance suite, 2025; dynalite recorded "TableName must be at
// least 3 characters long ..." in 2019, docs/compatibility.md).
Member CreateTableTableNameMember() {
  Member m = CreateTableNameMember("TableName", /*required=*/true);
  m.presence_first = true;
  return m;
}

const Shape kSseSpecificationShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.SSESpecification",
    .members = {
        Member{.name = "Enabled", .shape = &kBooleanShape},
        Member{.name = "SSEType", .shape = &kStringShape, .enum_values = {"AES256", "KMS"}},
        Member{.name = "KMSMasterKeyId", .shape = &kStringShape},
    }};

const Shape kCreateTableInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "AttributeDefinitions", .shape = &kAttributeDefinitionsShape,
               .required = true},
        CreateTableTableNameMember(),
        KeySchemaMember(),
        Member{.name = "LocalSecondaryIndexes", .shape = &kLocalSecondaryIndexesShape},
        Member{.name = "GlobalSecondaryIndexes",
               .shape = &kGlobalSecondaryIndexesShape},
        BillingModeMember(),
        Member{.name = "ProvisionedThroughput", .shape = &kProvisionedThroughputShape},
        Member{.name = "DeletionProtectionEnabled", .shape = &kBooleanShape},
        StreamSpecificationMember(),
        TagListMember(),
        TableClassMember(),
        WarmThroughputMember(),
        OnDemandThroughputMember(),
        Member{.name = "SSESpecification", .shape = &kSseSpecificationShape},
        Member{.name = "VectorIndexes", .shape = &VectorIndexListShape()},
        Member{.name = "ResourcePolicy", .shape = &kStringShape},
        // Global tables are not implemented (docs/compatibility.md);
        // refused by name, never ignored.
        UnsupportedMember("GlobalTableSourceArn", &kStringShape),
        UnsupportedMember("GlobalTableSettingsReplicationMode", &kStringShape),
    }};

// ImportTable's TableCreationParameters: the CreateTable members DynamoDB's
// model gives it, with CreateTable's constraints and report order, so that
// their violations join ImportTable's other ones under
// "tableCreationParameters.<member>".
const Shape kTableCreationParametersShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.TableCreationParameters",
    .members = {
        Member{.name = "AttributeDefinitions", .shape = &kAttributeDefinitionsShape,
               .required = true},
        CreateTableNameMember("TableName", /*required=*/true),
        KeySchemaMember(),
        Member{.name = "GlobalSecondaryIndexes",
               .shape = &kGlobalSecondaryIndexesShape},
        BillingModeMember(),
        Member{.name = "ProvisionedThroughput", .shape = &kProvisionedThroughputShape},
        OnDemandThroughputMember(),
        Member{.name = "VectorIndexes", .shape = &VectorIndexListShape()},
    }};

const Shape kTableNameOnlyInput{.kind = Kind::kStructure,
                                .members = {TableOperationNameMember()}};

const Shape kListTablesInput{
    .kind = Kind::kStructure,
    .members = {
        CreateTableNameMember("ExclusiveStartTableName", /*required=*/false),
        Member{.name = "Limit", .shape = &kIntegerShape, .min_value = 1,
               .max_value = 100},
    }};

const Shape kUpdateGlobalSecondaryIndexActionShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.UpdateGlobalSecondaryIndexAction",
    .members = {
        CreateTableNameMember("IndexName", /*required=*/true),
        Member{.name = "ProvisionedThroughput", .shape = &kProvisionedThroughputShape},
        OnDemandThroughputMember(),
        WarmThroughputMember(),
    }};
const Shape kCreateGlobalSecondaryIndexActionShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.CreateGlobalSecondaryIndexAction",
    .members = {
        CreateTableNameMember("IndexName", /*required=*/true),
        KeySchemaMember(kMaxGsiKeySchemaElements),
        Member{.name = "Projection", .shape = &kProjectionShape, .required = true},
        Member{.name = "ProvisionedThroughput", .shape = &kProvisionedThroughputShape},
        OnDemandThroughputMember(),
        WarmThroughputMember(),
    }};
const Shape kDeleteGlobalSecondaryIndexActionShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.DeleteGlobalSecondaryIndexAction",
    .members = {
        CreateTableNameMember("IndexName", /*required=*/true),
    }};
const Shape kGlobalSecondaryIndexUpdateShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.GlobalSecondaryIndexUpdate",
    .members = {
        Member{.name = "Update", .shape = &kUpdateGlobalSecondaryIndexActionShape},
        Member{.name = "Create", .shape = &kCreateGlobalSecondaryIndexActionShape},
        Member{.name = "Delete", .shape = &kDeleteGlobalSecondaryIndexActionShape},
    }};
const Shape kGlobalSecondaryIndexUpdatesShape{
    .kind = Kind::kList, .element = &kGlobalSecondaryIndexUpdateShape};

// ReplicaUpdates (global tables version 2019.11.21): the Region, and the
// replica's KMS key, table class and read overrides (its table's and its
// GSIs': ProvisionedThroughputOverride, OnDemandThroughputOverride).
const Shape kProvisionedThroughputOverrideShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.ProvisionedThroughputOverride",
    .members = {Member{.name = "ReadCapacityUnits", .shape = &kLongShape, .min_value = 1}}};
const Shape kOnDemandThroughputOverrideShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.OnDemandThroughputOverride",
    .members = {Member{.name = "MaxReadRequestUnits", .shape = &kLongShape}}};
const Shape kReplicaGlobalSecondaryIndexShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.ReplicaGlobalSecondaryIndex",
    .members = {
        Member{.name = "IndexName", .shape = &kStringShape, .required = true,
               .name_pattern = true, .min_length = 3, .max_length = 255},
        Member{.name = "ProvisionedThroughputOverride",
               .shape = &kProvisionedThroughputOverrideShape},
        Member{.name = "OnDemandThroughputOverride", .shape = &kOnDemandThroughputOverrideShape},
    }};
const Shape kReplicaGlobalSecondaryIndexesShape{
    .kind = Kind::kList, .element = &kReplicaGlobalSecondaryIndexShape};
const Shape kReplicaMemberActionShape{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "RegionName", .shape = &kStringShape, .required = true},
        Member{.name = "KMSMasterKeyId", .shape = &kStringShape},
        Member{.name = "TableClassOverride", .shape = &kStringShape,
               .enum_values = {"STANDARD", "STANDARD_INFREQUENT_ACCESS"}},
        Member{.name = "ProvisionedThroughputOverride",
               .shape = &kProvisionedThroughputOverrideShape},
        Member{.name = "OnDemandThroughputOverride", .shape = &kOnDemandThroughputOverrideShape},
        Member{.name = "GlobalSecondaryIndexes", .shape = &kReplicaGlobalSecondaryIndexesShape,
               .min_length = 1},
    }};
const Shape kReplicaDeleteActionShape{
    .kind = Kind::kStructure,
    .members = {Member{.name = "RegionName", .shape = &kStringShape, .required = true}}};
const Shape kReplicationGroupUpdateShape{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "Create", .shape = &kReplicaMemberActionShape},
        Member{.name = "Update", .shape = &kReplicaMemberActionShape},
        Member{.name = "Delete", .shape = &kReplicaDeleteActionShape},
    }};
const Shape kReplicationGroupUpdatesShape{
    .kind = Kind::kList, .element = &kReplicationGroupUpdateShape};

// GlobalTableWitnessUpdates (multi-Region strong consistency): the witness
// Region added (with the global table's creation) or removed.
const Shape kWitnessActionShape{
    .kind = Kind::kStructure,
    .members = {Member{.name = "RegionName", .shape = &kStringShape, .required = true}}};
const Shape kWitnessUpdateShape{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "Create", .shape = &kWitnessActionShape},
        Member{.name = "Delete", .shape = &kWitnessActionShape},
    }};
const Shape kWitnessUpdatesShape{.kind = Kind::kList, .element = &kWitnessUpdateShape};

const Shape kUpdateTableInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "AttributeDefinitions", .shape = &kAttributeDefinitionsShape},
        TableOperationNameMember(),
        BillingModeMember(),
        Member{.name = "ProvisionedThroughput", .shape = &kProvisionedThroughputShape},
        Member{.name = "GlobalSecondaryIndexUpdates",
               .shape = &kGlobalSecondaryIndexUpdatesShape},
        Member{.name = "DeletionProtectionEnabled", .shape = &kBooleanShape},
        StreamSpecificationMember(),
        TableClassMember(),
        OnDemandThroughputMember(),
        WarmThroughputMember(),
        Member{.name = "VectorIndexUpdates", .shape = &VectorIndexUpdateListShape()},
        Member{.name = "SSESpecification", .shape = &kSseSpecificationShape},
        Member{.name = "ReplicaUpdates", .shape = &kReplicationGroupUpdatesShape,
               .min_length = 1},
        Member{.name = "MultiRegionConsistency", .shape = &kStringShape,
               .enum_values = {"EVENTUAL", "STRONG"}},
        Member{.name = "GlobalTableWitnessUpdates", .shape = &kWitnessUpdatesShape,
               .min_length = 1},
        UnsupportedMember("GlobalTableSettingsReplicationMode", &kStringShape),
        UnsupportedMember("DisassociationProtectionEnabled", &kBooleanShape),
    }};


// --- Decoding ---------------------------------------------------------

std::optional<StreamSpecification> DecodeStreamSpecification(const Json& request) {
  const Json* spec = Field(request, "StreamSpecification");
  if (spec == nullptr) return std::nullopt;
  StreamSpecification out;
  out.stream_enabled = OptionalBool(*spec, "StreamEnabled").value_or(false);
  if (std::optional<std::string> view = OptionalString(*spec, "StreamViewType")) {
    out.stream_view_type = StreamViewTypeFromName(*view);
  }
  return out;
}

std::vector<KeySchemaElement> DecodeKeySchema(const Json* list) {
  std::vector<KeySchemaElement> out;
  if (list == nullptr) return out;
  for (const Json& e : *list) {
    KeySchemaElement k;
    k.attribute_name = StringOr(e, "AttributeName");
    k.key_type = StringOr(e, "KeyType") == "RANGE" ? KeyType::kRange : KeyType::kHash;
    out.push_back(std::move(k));
  }
  return out;
}

std::vector<AttributeDefinition> DecodeAttributeDefinitions(const Json* list) {
  std::vector<AttributeDefinition> out;
  if (list == nullptr) return out;
  for (const Json& e : *list) {
    AttributeDefinition d;
    d.attribute_name = StringOr(e, "AttributeName");
    d.attribute_type = AttrTypeFromName(StringOr(e, "AttributeType")).value_or(AttrType::kS);
    out.push_back(std::move(d));
  }
  return out;
}

// DynamoDB's semantic error for an index Projection without ProjectionType
// (mhart/dynalite validations/createTable.js). CreateTable and UpdateTable
// leave it to the engine (Projection::type_absent), which reports it in
// DynamoDB's order among the index checks; the restore overrides here.
Status UnknownProjectionTypeNull() {
  return Status::Validation(
      "One or more parameter values were invalid: Unknown ProjectionType: null");
}

// DynamoDB's semantic error for an index list given but empty (mhart/dynalite
// validations/createTable.js); the engine sees only an empty vector, so the
// api reports it.
Status EmptyIndexList(std::string_view member) {
  std::string m = "One or more parameter values were invalid: List of ";
  m += member;
  m += " is empty";
  return Status::Validation(std::move(m));
}

Projection DecodeProjection(const Json* projection) {
  std::optional<std::string> type =
      projection ? OptionalString(*projection, "ProjectionType") : std::nullopt;
  Projection p;
  p.type_absent = !type.has_value();
  if (!type || projection == nullptr) return p;
  p.type = *type == "KEYS_ONLY" ? ProjectionType::kKeysOnly
           : *type == "INCLUDE" ? ProjectionType::kInclude
                                : ProjectionType::kAll;
  if (const Json* attrs = Field(*projection, "NonKeyAttributes")) {
    for (const Json& a : *attrs) {
      if (a.is_string()) p.non_key_attributes.push_back(a.get<std::string>());
    }
  }
  return p;
}

std::optional<ProvisionedThroughput> DecodeThroughput(const Json& object) {
  const Json* pt = Field(object, "ProvisionedThroughput");
  if (pt == nullptr) return std::nullopt;
  ProvisionedThroughput out;
  out.read_capacity_units = OptionalInt(*pt, "ReadCapacityUnits").value_or(0);
  out.write_capacity_units = OptionalInt(*pt, "WriteCapacityUnits").value_or(0);
  return out;
}

OnDemandThroughput DecodeOnDemandMembers(const Json& t) {
  OnDemandThroughput out;
  out.max_read_request_units = OptionalInt(t, "MaxReadRequestUnits");
  out.max_write_request_units = OptionalInt(t, "MaxWriteRequestUnits");
  return out;
}

std::optional<OnDemandThroughput> DecodeOnDemandThroughput(const Json& object) {
  const Json* t = Field(object, "OnDemandThroughput");
  if (t == nullptr) return std::nullopt;
  return DecodeOnDemandMembers(*t);
}

std::optional<WarmThroughput> DecodeWarmThroughput(const Json& object) {
  const Json* t = Field(object, "WarmThroughput");
  if (t == nullptr) return std::nullopt;
  WarmThroughput out;
  out.read_units_per_second = OptionalInt(*t, "ReadUnitsPerSecond");
  out.write_units_per_second = OptionalInt(*t, "WriteUnitsPerSecond");
  return out;
}

std::optional<TableClass> DecodeTableClass(const Json& object) {
  std::optional<std::string> name = OptionalString(object, "TableClass");
  if (!name) return std::nullopt;
  return TableClassFromName(*name);  // the shape allows only the two names
}

// A GSI of CreateTable, RestoreTableFromBackup's overrides or UpdateTable's
// Create action.
Result<GlobalSecondaryIndexDef> DecodeGlobalSecondaryIndex(const Json& i) {
  GlobalSecondaryIndexDef def;
  def.index_name = StringOr(i, "IndexName");
  def.key_schema = DecodeKeySchema(Field(i, "KeySchema"));
  def.projection = DecodeProjection(Field(i, "Projection"));
  def.provisioned_throughput = DecodeThroughput(i);
  def.on_demand_throughput = DecodeOnDemandThroughput(i);
  def.warm_throughput = DecodeWarmThroughput(i);
  return def;
}

std::optional<BillingMode> DecodeBillingMode(const Json& object) {
  std::optional<std::string> mode = OptionalString(object, "BillingMode");
  if (!mode) return std::nullopt;
  return *mode == "PAY_PER_REQUEST" ? BillingMode::kPayPerRequest
                                    : BillingMode::kProvisioned;
}

// --- Encoding ---------------------------------------------------------

}  // namespace

const Shape& SseSpecificationShape() { return kSseSpecificationShape; }

Result<std::optional<SseSpecification>> DecodeSseSpecification(const Json* sse) {
  if (sse == nullptr) return std::optional<SseSpecification>();
  const std::optional<std::string> type = OptionalString(*sse, "SSEType");
  SseSpecification spec;
  spec.enabled = OptionalBool(*sse, "Enabled").value_or(false);
  spec.kms_master_key_id = OptionalString(*sse, "KMSMasterKeyId");
  // DynamoDB's texts (terraform-provider-aws#5666 and the CloudFormation
  // guide's SSESpecification, both recorded from DynamoDB's answers).
  if (type == "AES256") {
    return Status::Validation(
        "One or more parameter values were invalid: SSEType AES256 is not supported");
  }
  if (spec.kms_master_key_id && type != "KMS") {
    return Status::Validation(
        "One or more parameter values were invalid: SSEType KMS is required if "
        "KMSMasterKeyId is specified");
  }
  return std::optional<SseSpecification>(std::move(spec));
}

Result<CreateTableRequest> DecodeCreateTableRequest(const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kCreateTableInput));
  CreateTableRequest req;
  DR_ASSIGN_OR_RETURN(req.sse_specification,
                      DecodeSseSpecification(Field(request, "SSESpecification")));
  req.table_name = StringOr(request, "TableName");
  req.attribute_definitions =
      DecodeAttributeDefinitions(Field(request, "AttributeDefinitions"));
  req.key_schema = DecodeKeySchema(Field(request, "KeySchema"));
  if (const Json* lsis = Field(request, "LocalSecondaryIndexes")) {
    if (lsis->empty()) return EmptyIndexList("LocalSecondaryIndexes");
    for (const Json& i : *lsis) {
      LocalSecondaryIndexDef def;
      def.index_name = StringOr(i, "IndexName");
      def.key_schema = DecodeKeySchema(Field(i, "KeySchema"));
      def.projection = DecodeProjection(Field(i, "Projection"));
      req.local_secondary_indexes.push_back(std::move(def));
    }
  }
  if (const Json* gsis = Field(request, "GlobalSecondaryIndexes")) {
    if (gsis->empty()) return EmptyIndexList("GlobalSecondaryIndexes");
    for (const Json& i : *gsis) {
      DR_ASSIGN_OR_RETURN(GlobalSecondaryIndexDef def, DecodeGlobalSecondaryIndex(i));
      req.global_secondary_indexes.push_back(std::move(def));
    }
  }
  req.billing_mode = DecodeBillingMode(request);
  req.provisioned_throughput = DecodeThroughput(request);
  req.deletion_protection_enabled =
      OptionalBool(request, "DeletionProtectionEnabled").value_or(false);
  req.stream_specification = DecodeStreamSpecification(request);
  req.tags = DecodeTags(request);
  req.table_class = DecodeTableClass(request);
  req.on_demand_throughput = DecodeOnDemandThroughput(request);
  req.warm_throughput = DecodeWarmThroughput(request);
  if (const Json* vectors = Field(request, "VectorIndexes")) {
    req.vector_indexes = DecodeVectorIndexes(*vectors);
  }
  if (std::optional<std::string> policy = OptionalString(request, "ResourcePolicy")) {
    DR_ASSIGN_OR_RETURN(req.resource_policy, CheckResourcePolicy(*policy));
  }
  return req;
}

Result<Json> CreateTable(const RequestContext& ctx, const Json& request) {
  DR_ASSIGN_OR_RETURN(CreateTableRequest req, DecodeCreateTableRequest(request));
  req.scope = ctx.scope;
  DR_ASSIGN_OR_RETURN(TableDescription d, ctx.engine->CreateTable(req));
  Json description = TableDescriptionJson(d);
  // DynamoDB's CreateTable response shows the table's WarmThroughput only
  // when the request set it (DescribeTable always does).
  if (Field(request, "WarmThroughput") == nullptr) description.erase("WarmThroughput");
  return Json{{"TableDescription", std::move(description)}};
}

Result<Json> DescribeTable(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kTableNameOnlyInput));
  DescribeTableRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  DR_ASSIGN_OR_RETURN(TableDescription d, ctx.engine->DescribeTable(req));
  return Json{{"Table", TableDescriptionJson(d)}};
}

Result<Json> ListTables(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kListTablesInput));
  ListTablesRequest req;
  req.scope = ctx.scope;
  if (std::optional<int64_t> limit = OptionalInt(request, "Limit")) {
    req.limit = static_cast<int>(*limit);
  }
  req.exclusive_start_table_name = OptionalString(request, "ExclusiveStartTableName");
  DR_ASSIGN_OR_RETURN(ListTablesResult result, ctx.engine->ListTables(req));
  Json out = {{"TableNames", result.table_names}};
  if (result.last_evaluated_table_name) {
    out["LastEvaluatedTableName"] = *result.last_evaluated_table_name;
  }
  return out;
}

// A replica's (or replica GSI's) ProvisionedThroughputOverride and
// OnDemandThroughputOverride.
ReadOverride DecodeReadOverride(const Json& parent) {
  ReadOverride o;
  if (const Json* p = Field(parent, "ProvisionedThroughputOverride")) {
    o.read_capacity_units = OptionalInt(*p, "ReadCapacityUnits");
  }
  if (const Json* d = Field(parent, "OnDemandThroughputOverride")) {
    o.max_read_request_units = OptionalInt(*d, "MaxReadRequestUnits");
  }
  return o;
}

// ReplicaUpdates: each entry exactly one of Create, Update or Delete.
Result<std::vector<ReplicationGroupUpdate>> DecodeReplicaUpdates(const Json& list) {
  std::vector<ReplicationGroupUpdate> out;
  for (const Json& entry : list) {
    ReplicationGroupUpdate u;
    int actions = 0;
    for (const auto& [name, action] :
         {std::pair{"Create", ReplicationGroupUpdate::Action::kCreate},
          std::pair{"Update", ReplicationGroupUpdate::Action::kUpdate},
          std::pair{"Delete", ReplicationGroupUpdate::Action::kDelete}}) {
      const Json* member = Field(entry, name);
      if (member == nullptr) continue;
      ++actions;
      u.action = action;
      u.region_name = StringOr(*member, "RegionName");
      if (const Json* key = Field(*member, "KMSMasterKeyId")) u.kms_master_key_id = key->get<std::string>();
      if (const Json* c = Field(*member, "TableClassOverride")) {
        u.table_class_override = TableClassFromName(c->get<std::string>());
      }
      u.read_override = DecodeReadOverride(*member);
      if (const Json* indexes = Field(*member, "GlobalSecondaryIndexes")) {
        for (const Json& index : *indexes) {
          u.global_secondary_indexes.push_back(
              ReplicaIndexOverride{StringOr(index, "IndexName"), DecodeReadOverride(index)});
        }
      }
    }
    if (actions != 1) {
      return Status::Validation(
          "One or more parameter values were invalid: One of Create, Update, or Delete "
          "must be specified in a ReplicationGroupUpdate");
    }
    out.push_back(std::move(u));
  }
  return out;
}

// GlobalTableWitnessUpdates: each entry exactly one of Create or Delete.
Result<std::vector<WitnessUpdate>> DecodeWitnessUpdates(const Json& list) {
  std::vector<WitnessUpdate> out;
  for (const Json& entry : list) {
    const Json* create = Field(entry, "Create");
    const Json* del = Field(entry, "Delete");
    if ((create == nullptr) == (del == nullptr)) {
      return Status::Validation(
          "One or more parameter values were invalid: One of Create or Delete must be "
          "specified in a GlobalTableWitnessGroupUpdate");
    }
    WitnessUpdate w;
    w.action = create != nullptr ? WitnessUpdate::Action::kCreate : WitnessUpdate::Action::kDelete;
    w.region_name = StringOr(create != nullptr ? *create : *del, "RegionName");
    out.push_back(std::move(w));
  }
  return out;
}

Result<Json> UpdateTable(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kUpdateTableInput));
  UpdateTableRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  req.billing_mode = DecodeBillingMode(request);
  req.provisioned_throughput = DecodeThroughput(request);
  req.deletion_protection_enabled = OptionalBool(request, "DeletionProtectionEnabled");
  req.stream_specification = DecodeStreamSpecification(request);
  req.table_class = DecodeTableClass(request);
  req.on_demand_throughput = DecodeOnDemandThroughput(request);
  req.warm_throughput = DecodeWarmThroughput(request);
  DR_ASSIGN_OR_RETURN(req.sse_specification,
                      DecodeSseSpecification(Field(request, "SSESpecification")));
  req.attribute_definitions =
      DecodeAttributeDefinitions(Field(request, "AttributeDefinitions"));
  if (const Json* updates = Field(request, "GlobalSecondaryIndexUpdates")) {
    // The engine reports an empty list and entries with no or several
    // actions, with DynamoDB's messages.
    auto& out = req.global_secondary_index_updates.emplace();
    for (const Json& u : *updates) {
      GlobalSecondaryIndexUpdate update;
      if (const Json* create = Field(u, "Create")) {
        DR_ASSIGN_OR_RETURN(update.create, DecodeGlobalSecondaryIndex(*create));
      }
      if (const Json* change = Field(u, "Update")) {
        GlobalSecondaryIndexUpdate::UpdateAction action;
        action.index_name = StringOr(*change, "IndexName");
        action.provisioned_throughput = DecodeThroughput(*change);
        action.on_demand_throughput = DecodeOnDemandThroughput(*change);
        action.warm_throughput = DecodeWarmThroughput(*change);
        update.update = std::move(action);
      }
      if (const Json* del = Field(u, "Delete")) {
        update.del = GlobalSecondaryIndexUpdate::DeleteAction{StringOr(*del, "IndexName")};
      }
      out.push_back(std::move(update));
    }
  }
  if (const Json* vectors = Field(request, "VectorIndexUpdates")) {
    req.vector_index_updates = DecodeVectorIndexUpdates(*vectors);
  }
  if (const Json* replicas = Field(request, "ReplicaUpdates")) {
    DR_ASSIGN_OR_RETURN(req.replica_updates, DecodeReplicaUpdates(*replicas));
  }
  if (std::optional<std::string> mode = OptionalString(request, "MultiRegionConsistency")) {
    req.multi_region_consistency =
        *mode == "STRONG" ? MultiRegionConsistency::kStrong : MultiRegionConsistency::kEventual;
  }
  if (const Json* witnesses = Field(request, "GlobalTableWitnessUpdates")) {
    DR_ASSIGN_OR_RETURN(req.witness_updates, DecodeWitnessUpdates(*witnesses));
  }
  DR_ASSIGN_OR_RETURN(TableDescription d, ctx.engine->UpdateTable(req));
  return Json{{"TableDescription", TableDescriptionJson(d)}};
}

// DeleteTable answers a short description: no CreationDateTime, KeySchema,
// AttributeDefinitions or indexes (the API reference's example; Alternator's
// test_delete_table_description and dynalite's deleteTable.js, both run
// against DynamoDB).
Json EncodeDeletedTableDescription(const TableDescription& d) {
  Json full = TableDescriptionJson(d);
  Json out = Json::object();
  for (const char* member : {"TableName", "TableStatus", "TableId", "TableArn", "ItemCount",
                             "TableSizeBytes", "ProvisionedThroughput", "BillingModeSummary"}) {
    if (auto it = full.find(member); it != full.end()) out[member] = std::move(*it);
  }
  return out;
}

Result<Json> DeleteTable(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kTableNameOnlyInput));
  DeleteTableRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  DR_ASSIGN_OR_RETURN(TableDescription d, ctx.engine->DeleteTable(req));
  return Json{{"TableDescription", EncodeDeletedTableDescription(d)}};
}

}  // namespace dynarock::api::ops

// --- Shared with other operations (api/ops/table_codec.h) -------------------

namespace dynarock::api::ops {

const Shape& GlobalSecondaryIndexListShape() { return kGlobalSecondaryIndexesShape; }
const Shape& LocalSecondaryIndexListShape() { return kLocalSecondaryIndexesShape; }
const Shape& ProvisionedThroughputShape() { return kProvisionedThroughputShape; }
const Shape& OnDemandThroughputShape() { return kOnDemandThroughputShape; }
const Shape& TableCreationParametersShape() { return kTableCreationParametersShape; }

OnDemandThroughput DecodeOnDemandThroughputStructure(const Json& throughput) {
  return DecodeOnDemandMembers(throughput);
}

Result<std::vector<GlobalSecondaryIndexDef>> DecodeGlobalSecondaryIndexes(
    const Json& list, std::string_view member) {
  if (list.empty()) return EmptyIndexList(member);
  std::vector<GlobalSecondaryIndexDef> out;
  for (const Json& i : list) {
    DR_ASSIGN_OR_RETURN(GlobalSecondaryIndexDef def, DecodeGlobalSecondaryIndex(i));
    if (def.projection.type_absent) return UnknownProjectionTypeNull();
    out.push_back(std::move(def));
  }
  return out;
}

Result<std::vector<LocalSecondaryIndexDef>> DecodeLocalSecondaryIndexes(
    const Json& list, std::string_view member) {
  if (list.empty()) return EmptyIndexList(member);
  std::vector<LocalSecondaryIndexDef> out;
  for (const Json& i : list) {
    LocalSecondaryIndexDef def;
    def.index_name = StringOr(i, "IndexName");
    def.key_schema = DecodeKeySchema(Field(i, "KeySchema"));
    def.projection = DecodeProjection(Field(i, "Projection"));
    if (def.projection.type_absent) return UnknownProjectionTypeNull();
    out.push_back(std::move(def));
  }
  return out;
}

ProvisionedThroughput DecodeProvisionedThroughput(const Json& throughput) {
  ProvisionedThroughput out;
  out.read_capacity_units = OptionalInt(throughput, "ReadCapacityUnits").value_or(0);
  out.write_capacity_units = OptionalInt(throughput, "WriteCapacityUnits").value_or(0);
  return out;
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kTableOperationsRows[] = {
    Operation{"CreateTable", &CreateTable},
    Operation{"DeleteTable", &DeleteTable},
    Operation{"DescribeTable", &DescribeTable},
    Operation{"ListTables", &ListTables},
    Operation{"UpdateTable", &UpdateTable},
};
const std::span<const Operation> kTableOperations = kTableOperationsRows;

}  // namespace dynarock::api::ops
