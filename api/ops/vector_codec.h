// api/ops/vector_codec.h
//
// The vector-index members of the table operations (DynamoDB JSON <->
// engine types): CreateTable's VectorIndexes, UpdateTable's
// VectorIndexUpdates, the table description's VectorIndexes.

#ifndef DYNAROCK_API_OPS_VECTOR_CODEC_H_
#define DYNAROCK_API_OPS_VECTOR_CODEC_H_

#include <vector>

#include "api/json_codec.h"
#include "api/validate.h"
#include "engine/requests/table_requests.h"
#include "engine/types.h"

namespace dynarock::api::ops {

const Shape& VectorIndexListShape();
const Shape& VectorIndexUpdateListShape();

// REQUIRES: `list` passed ValidateRequest with the shapes above.
std::vector<VectorIndexDef> DecodeVectorIndexes(const Json& list);
std::vector<VectorIndexUpdate> DecodeVectorIndexUpdates(const Json& list);

// DescribeTable's VectorIndexes (each definition with its status).
Json VectorIndexesJson(const std::vector<VectorIndexDescription>& indexes);
// One definition as the model's VectorIndex (ImportTable's
// TableCreationParameters).
Json VectorIndexDefJson(const VectorIndexDef& def);

}  // namespace dynarock::api::ops

#endif  // DYNAROCK_API_OPS_VECTOR_CODEC_H_
