// api/ops/item_collection_metrics.h
//
// ReturnItemCollectionMetrics: how the engine's ItemCollectionMetrics are
// shown to the client. SIZE asks for them; tables without local secondary
// indexes have none. Single-item writes answer one object
// ({"ItemCollectionKey": {...}, "SizeEstimateRangeGB": [lo, hi]});
// TransactWriteItems and BatchWriteItem a map of table name -> list of them.
//
// Stateless; thread-safe.

#ifndef DYNAROCK_API_OPS_ITEM_COLLECTION_METRICS_H_
#define DYNAROCK_API_OPS_ITEM_COLLECTION_METRICS_H_

#include <string>
#include <utility>
#include <vector>

#include "api/json_codec.h"
#include "engine/requests/write_returns.h"

namespace dynarock::api::ops {

// The request's ReturnItemCollectionMetrics (NONE when absent). REQUIRES:
// the member passed its enum constraint (ValidateRequest).
ReturnItemCollectionMetrics DecodeReturnItemCollectionMetrics(const Json& request);

// One collection's metrics object.
Json EncodeItemCollectionMetrics(const ItemCollectionMetrics& m);

// Adds "ItemCollectionMetrics" (table name -> list) to `response` unless
// `per_table` is empty.
void AddItemCollectionMetrics(
    const std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>& per_table,
    Json* response);

}  // namespace dynarock::api::ops

#endif  // DYNAROCK_API_OPS_ITEM_COLLECTION_METRICS_H_
