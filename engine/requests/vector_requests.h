// engine/requests/vector_requests.h
//
// SearchVectors: the approximate nearest neighbours of a vector in a
// vector index (docs/vector-search.md). The result carries what the search
// consumed in DynamoDB's vector unit (VectorSearchRequestBytes), always
// filled; the api shows it when ReturnConsumedCapacity asks.

#ifndef DYNAROCK_ENGINE_REQUESTS_VECTOR_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_VECTOR_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/requests/expression_parameters.h"
#include "engine/requests/scope.h"
#include "engine/types.h"

namespace dynarock {

struct SearchVectorsRequest {
  Scope scope;
  std::string table_name;
  std::string index_name;
  // SearchVector: the elements as given (each must be an N).
  std::vector<AttributeValue> search_vector;
  int64_t top_k = 0;
  // Equality (=) on search-schema attributes, joined by AND; required
  // when the schema has a HASH attribute.
  std::optional<std::string> search_condition_expression;
  std::optional<std::string> projection_expression;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  std::optional<ExpressionAttributeValues> expression_attribute_values;
};

struct SearchVectorsResult {
  struct Hit {
    Item item;     // the projected attributes
    double score = 0;
  };
  std::vector<Hit> results;  // most similar first
  double vector_search_request_bytes = 0;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_VECTOR_REQUESTS_H_
