// engine/vector/vector_search.h
//
// One SearchVectors request against a vector index: DynamoDB's checks and
// messages (TopK from 1 to 100, the vector's dimensions, a
// SearchConditionExpression of `=` on search-schema attributes joined by
// AND, the HASH value required when the schema has one, a
// ProjectionExpression over projected attributes), the graph search
// (vector_graphs.h), the entries read back from the indexes column family,
// the 16 MB response cap and the metering (VectorSearchRequestBytes).
// Stateless functions; thread-safe.

#ifndef DYNAROCK_ENGINE_VECTOR_VECTOR_SEARCH_H_
#define DYNAROCK_ENGINE_VECTOR_VECTOR_SEARCH_H_

#include <cstdint>

#include "engine/requests/vector_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/vector/vector_graphs.h"

namespace dynarock::vector {

// The largest response: SearchVectors does not paginate (documented).
inline constexpr int64_t kMaxResponseBytes = int64_t{16} << 20;

// The checks that need no table (TopK's range). Errors: kValidation.
Status CheckSearchRequest(const SearchVectorsRequest& req);

// Runs `req` on `index`, a vector index of `table`.
// Errors: kValidation, storage errors.
Result<SearchVectorsResult> Search(const SearchVectorsRequest& req, const TableInfo& table,
                                   const IndexInfo& index, const VectorGraphs& graphs,
                                   const StoreReader& store);

// VectorSearchRequestBytes of a search that compared `examined` vectors of
// `dimensions` and returned `returned_bytes` of items.
double SearchRequestBytes(int64_t dimensions, int64_t examined, int64_t returned_bytes);

}  // namespace dynarock::vector

#endif  // DYNAROCK_ENGINE_VECTOR_VECTOR_SEARCH_H_
