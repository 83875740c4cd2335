// api/ops/return_consumed_capacity.h
//
// ReturnConsumedCapacity: how an engine ConsumedCapacity is shown to the
// client. NONE (or absent): no ConsumedCapacity member; TOTAL: TableName
// and CapacityUnits (the table's and its indexes' units summed); INDEXES:
// also "Table" and, for the indexes the request read or changed,
// "GlobalSecondaryIndexes" / "LocalSecondaryIndexes" by name, each a
// {"CapacityUnits": x} object. Units are JSON numbers (1.0, 0.5), as in
// DynamoDB's documented responses (aws-cli examples: query.rst, get-item,
// put-item). Errors carry no ConsumedCapacity.
//
// Stateless; thread-safe.

#ifndef DYNAROCK_API_OPS_RETURN_CONSUMED_CAPACITY_H_
#define DYNAROCK_API_OPS_RETURN_CONSUMED_CAPACITY_H_

#include <vector>

#include "api/json_codec.h"
#include "engine/capacity/consumed_capacity.h"

namespace dynarock::api::ops {

enum class ReturnConsumedCapacity { kNone, kTotal, kIndexes };

// The request's ReturnConsumedCapacity. REQUIRES: the member passed its
// enum constraint (ValidateRequest).
ReturnConsumedCapacity DecodeReturnConsumedCapacity(const Json& request);

// One table's ConsumedCapacity object. REQUIRES: what != kNone.
Json EncodeConsumedCapacity(const ConsumedCapacity& consumed,
                            ReturnConsumedCapacity what);

// Adds "ConsumedCapacity" to `response` when `request` asks for it: one
// object (single-table operations) or a list, one per table (batches).
void AddConsumedCapacity(const Json& request, const ConsumedCapacity& consumed,
                         Json* response);
void AddConsumedCapacity(const Json& request,
                         const std::vector<ConsumedCapacity>& consumed,
                         Json* response);

}  // namespace dynarock::api::ops

#endif  // DYNAROCK_API_OPS_RETURN_CONSUMED_CAPACITY_H_
