// Vector search (docs/vector-search.md): SearchVectors, and the VectorIndexes
// members CreateTable, UpdateTable and DescribeTable carry (api/ops/
// vector_codec.h, used by table_ops.cc).
//
//   SearchVectors {TableName, IndexName, SearchVector, TopK,
//                  SearchConditionExpression?, ProjectionExpression?,
//                  ExpressionAttributeNames?, ExpressionAttributeValues?,
//                  ReturnConsumedCapacity?}
//     -> {SearchResults: [{Item, Score}], ConsumedCapacity?: VectorCapacity}

#include "api/ops/decode.h"
#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/ops/return_consumed_capacity.h"
#include "api/ops/vector_codec.h"
#include "api/validate.h"
#include "engine/engine.h"

namespace dynarock::api::ops {
namespace {

using Kind = Shape::Kind;

const Shape kSearchVectorsInput{
    .kind = Kind::kStructure,
    .members = {
        TableNameMember(),
        CreateTableNameMember("IndexName", /*required=*/true),
        Member{.name = "SearchVector", .shape = &kAttributeValueListShape, .required = true},
        Member{.name = "TopK", .shape = &kIntegerShape, .required = true},
        ReturnConsumedCapacityMember(),
        Member{.name = "ExpressionAttributeNames", .shape = &kStringMapShape},
        Member{.name = "ExpressionAttributeValues", .shape = &kAttributeMapShape},
        Member{.name = "ProjectionExpression", .shape = &kStringShape},
        Member{.name = "SearchConditionExpression", .shape = &kStringShape},
    }};

}  // namespace

Result<Json> SearchVectors(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kSearchVectorsInput));
  SearchVectorsRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  req.index_name = StringOr(request, "IndexName");
  req.top_k = OptionalInt(request, "TopK").value_or(0);
  req.search_condition_expression = OptionalString(request, "SearchConditionExpression");
  req.projection_expression = OptionalString(request, "ProjectionExpression");
  req.expression_attribute_names = DecodeNames(request);
  DR_ASSIGN_OR_RETURN(req.expression_attribute_values, DecodeValues(request));
  DR_ASSIGN_OR_RETURN(req.search_vector, DecodeValueList(*Field(request, "SearchVector")));
  DR_ASSIGN_OR_RETURN(SearchVectorsResult result, ctx.engine->SearchVectors(req));
  Json results = Json::array();
  for (const SearchVectorsResult::Hit& hit : result.results) {
    results.push_back(Json{{"Item", EncodeItem(hit.item)}, {"Score", hit.score}});
  }
  Json out{{"SearchResults", std::move(results)}};
  if (DecodeReturnConsumedCapacity(request) != ReturnConsumedCapacity::kNone) {
    out["ConsumedCapacity"] =
        Json{{"VectorSearchRequestBytes", result.vector_search_request_bytes}};
  }
  return out;
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kVectorOperationsRows[] = {
    Operation{"SearchVectors", &SearchVectors},
};
const std::span<const Operation> kVectorOperations = kVectorOperationsRows;

}  // namespace dynarock::api::ops
