#include "api/ops/vector_codec.h"

#include "api/ops/fields.h"
#include "api/ops/decode.h"
#include "api/ops/table_codec.h"

namespace dynarock::api::ops {
namespace {

using Kind = Shape::Kind;

const Shape kVectorAttributeShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.VectorAttributeDefinition",
    .members = {Member{.name = "AttributeName", .shape = &kStringShape, .required = true,
                       .min_length = 1, .max_length = 255}}};

const Shape kSearchSchemaElementShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.SearchSchemaElement",
    .members = {
        Member{.name = "AttributeName", .shape = &kStringShape, .required = true,
               .min_length = 1, .max_length = 255},
        Member{.name = "SearchSchemaElementType", .shape = &kStringShape, .required = true,
               .enum_values = {"HASH", "INLINE_FILTER"}},
    }};
const Shape kSearchSchemaShape{.kind = Kind::kList, .element = &kSearchSchemaElementShape};

const Shape kVectorProjectionShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.Projection",
    .members = {
        Member{.name = "ProjectionType", .shape = &kStringShape,
               .enum_values = {"ALL", "INCLUDE", "KEYS_ONLY"}},
        Member{.name = "NonKeyAttributes", .shape = &kStringListShape, .min_length = 1,
               .max_length = 20},
    }};

std::vector<Member> VectorIndexMembers() {
  return {
      CreateTableNameMember("IndexName", /*required=*/true),
      Member{.name = "VectorAttribute", .shape = &kVectorAttributeShape, .required = true},
      Member{.name = "Projection", .shape = &kVectorProjectionShape, .required = true},
      Member{.name = "Dimensions", .shape = &kLongShape, .required = true, .min_value = 1},
      Member{.name = "DistanceFunction", .shape = &kStringShape, .required = true,
             .enum_values = {"COSINE", "DOT_PRODUCT", "EUCLIDEAN"}},
      Member{.name = "SearchSchema", .shape = &kSearchSchemaShape, .min_length = 1},
  };
}

const Shape kVectorIndexShape{.kind = Kind::kStructure,
                              .java_class = "com.amazonaws.dynamodb.v20120810.VectorIndex",
                              .members = VectorIndexMembers()};
const Shape kVectorIndexListShape{.kind = Kind::kList, .element = &kVectorIndexShape};

const Shape kCreateVectorIndexActionShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.CreateVectorIndexAction",
    .members = VectorIndexMembers()};
const Shape kDeleteVectorIndexActionShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.DeleteVectorIndexAction",
    .members = {CreateTableNameMember("IndexName", /*required=*/true)}};
const Shape kVectorIndexUpdateShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.VectorIndexUpdate",
    .members = {
        Member{.name = "Create", .shape = &kCreateVectorIndexActionShape},
        Member{.name = "Delete", .shape = &kDeleteVectorIndexActionShape},
    }};
const Shape kVectorIndexUpdateListShape{.kind = Kind::kList,
                                        .element = &kVectorIndexUpdateShape};

VectorIndexDef DecodeVectorIndex(const Json& i) {
  VectorIndexDef def;
  def.index_name = StringOr(i, "IndexName");
  if (const Json* a = Field(i, "VectorAttribute")) def.vector_attribute = StringOr(*a, "AttributeName");
  def.dimensions = OptionalInt(i, "Dimensions").value_or(0);
  def.distance_function =
      VectorDistanceFunctionFromName(StringOr(i, "DistanceFunction"))
          .value_or(VectorDistanceFunction::kCosine);
  if (const Json* schema = Field(i, "SearchSchema")) {
    for (const Json& e : *schema) {
      def.search_schema.push_back(SearchSchemaElement{
          StringOr(e, "AttributeName"),
          SearchSchemaElementTypeFromName(StringOr(e, "SearchSchemaElementType"))
              .value_or(SearchSchemaElementType::kHash)});
    }
  }
  if (const Json* p = Field(i, "Projection")) {
    const std::string type = StringOr(*p, "ProjectionType");
    def.projection.type = type == "KEYS_ONLY" ? ProjectionType::kKeysOnly
                          : type == "INCLUDE" ? ProjectionType::kInclude
                                              : ProjectionType::kAll;
    if (auto names = DecodeStringList(*p, "NonKeyAttributes")) {
      def.projection.non_key_attributes = std::move(*names);
    }
  }
  return def;
}

}  // namespace

const Shape& VectorIndexListShape() { return kVectorIndexListShape; }
const Shape& VectorIndexUpdateListShape() { return kVectorIndexUpdateListShape; }

std::vector<VectorIndexDef> DecodeVectorIndexes(const Json& list) {
  std::vector<VectorIndexDef> out;
  for (const Json& i : list) out.push_back(DecodeVectorIndex(i));
  return out;
}

std::vector<VectorIndexUpdate> DecodeVectorIndexUpdates(const Json& list) {
  std::vector<VectorIndexUpdate> out;
  for (const Json& u : list) {
    VectorIndexUpdate update;
    if (const Json* create = Field(u, "Create")) update.create = DecodeVectorIndex(*create);
    if (const Json* del = Field(u, "Delete")) update.del = StringOr(*del, "IndexName");
    out.push_back(std::move(update));
  }
  return out;
}

Json VectorIndexDefJson(const VectorIndexDef& def) {
  Json j{{"IndexName", def.index_name},
         {"VectorAttribute", {{"AttributeName", def.vector_attribute}}},
         {"Dimensions", def.dimensions},
         {"DistanceFunction", VectorDistanceFunctionName(def.distance_function)},
         {"Projection", ProjectionJson(def.projection)}};
  if (!def.search_schema.empty()) {
    Json schema = Json::array();
    for (const SearchSchemaElement& e : def.search_schema) {
      schema.push_back({{"AttributeName", e.attribute_name},
                        {"SearchSchemaElementType", SearchSchemaElementTypeName(e.type)}});
    }
    j["SearchSchema"] = std::move(schema);
  }
  return j;
}

Json VectorIndexesJson(const std::vector<VectorIndexDescription>& indexes) {
  Json out = Json::array();
  for (const VectorIndexDescription& v : indexes) {
    Json j = VectorIndexDefJson(v.def);
    j["IndexStatus"] = TableStatusName(v.index_status);
    j["IndexSizeBytes"] = v.index_size_bytes;
    j["ItemCount"] = v.item_count;
    j["IndexArn"] = v.index_arn;
    if (v.backfilling) j["Backfilling"] = *v.backfilling;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace dynarock::api::ops
