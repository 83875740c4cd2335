// engine/requests/write_returns.h
//
// What a write may return besides its effect: ReturnValues,
// ReturnItemCollectionMetrics (and the ItemCollectionMetrics it returns),
// ReturnValuesOnConditionCheckFailure. Shared by the item, batch,
// transaction and PartiQL requests.

#ifndef DYNAROCK_ENGINE_REQUESTS_WRITE_RETURNS_H_
#define DYNAROCK_ENGINE_REQUESTS_WRITE_RETURNS_H_

#include "engine/types.h"

namespace dynarock {

// ReturnValues. UPDATED_* only apply to UpdateItem.
enum class ReturnValues { kNone, kAllOld, kUpdatedOld, kAllNew, kUpdatedNew };

// ReturnItemCollectionMetrics: SIZE returns the item collection's size on
// writes to tables with local secondary indexes.
enum class ReturnItemCollectionMetrics { kNone, kSize };

// DynamoDB's ItemCollectionMetrics: the collection's partition key and an
// estimate of its size in GB (a lower and an upper bound).
struct ItemCollectionMetrics {
  Item item_collection_key;
  double size_estimate_lower_gb = 0;
  double size_estimate_upper_gb = 0;
};

// ReturnValuesOnConditionCheckFailure: ALL_OLD attaches the item as it was
// to the ConditionalCheckFailed status (Status::item()).
enum class ReturnValuesOnConditionCheckFailure { kNone, kAllOld };

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_WRITE_RETURNS_H_
