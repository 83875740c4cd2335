// api/ops/item_request_reader.h
//
// GetItem and PutItem request bodies read in one pass (nlohmann's SAX
// interface: no JSON tree, no separate type, constraint and decoding walks)
// straight into the engine's request types, for the shape nearly every
// client sends: TableName, Item or Key of scalar values (S, N, B, BOOL,
// NULL), and for GetItem ConsistentRead, each member at most once, no JSON
// null, ReturnValues / ReturnConsumedCapacity only as "NONE".
//
// The contract: a reader returns a request only when the DOM path (parse,
// ValidateRequest, CheckParameterUse-free decoding in api/ops/item_ops.cc)
// would pass every check and decode exactly that request; for any other
// body (malformed, another member, a list or map value, a number
// Number::Parse refuses, a duplicate key, ...) it returns nullopt and the
// caller takes the DOM path, which reports DynamoDB's error in DynamoDB's
// order. tests/api/ops/item_request_reader_test.cc checks this against the
// DOM path byte for byte.
//
// The parser is nlohmann's iterative SAX parser; the reader refuses any
// nesting deeper than an AttributeValue of a top-level map (3 levels), so
// no input drives recursion. Stateless functions; thread-safe.

#ifndef DYNAROCK_API_OPS_ITEM_REQUEST_READER_H_
#define DYNAROCK_API_OPS_ITEM_REQUEST_READER_H_

#include <optional>
#include <string_view>

#include "engine/requests.h"

namespace dynarock::api::ops {

// The request, without its scope (the caller's), or nullopt (see above).
std::optional<PutItemRequest> ReadPutItemRequest(std::string_view body);
std::optional<GetItemRequest> ReadGetItemRequest(std::string_view body);

}  // namespace dynarock::api::ops

#endif  // DYNAROCK_API_OPS_ITEM_REQUEST_READER_H_
