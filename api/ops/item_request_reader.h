// api/ops/item_request_reader.h
//
// GetItem and PutItem request bodies read in one pass (ReadPlainJson's SAX
// events: no JSON tree, no separate type, constraint and decoding walks)
// straight into the engine's request types, for the common shape:
// TableName; Item or Key of scalar values (S, N, B, BOOL, NULL); for
// GetItem ConsistentRead; ReturnValues and ReturnConsumedCapacity only as
// "NONE"; each member at most once, no JSON null.
//
// The contract: a reader returns a request only when the JSON-tree path
// (ParseRequestBody, ValidateRequest and the decoding of PutItem / GetItem
// in api/ops/item_ops.cc) would pass every check before CheckParameterUse
// and decode exactly that request; for any other body (malformed, another
// member, a list or map value, a number Number::Parse refuses, a duplicate
// key, ...) it returns nullopt and the caller takes the JSON-tree path,
// which reports DynamoDB's error in DynamoDB's order.
// tests/api/ops/item_request_reader_test.cc checks this against that path
// byte for byte.
//
// The parser is ReadPlainJson (api/plain_json_reader.h: a loop, no
// recursion), which stops at the first number, null or array; the reader
// stops it at the first object deeper than an AttributeValue of a top-level
// map (3 levels), so no input drives deep state. Stateless functions;
// thread-safe.

#ifndef DYNAROCK_API_OPS_ITEM_REQUEST_READER_H_
#define DYNAROCK_API_OPS_ITEM_REQUEST_READER_H_

#include <optional>
#include <string_view>

#include "engine/requests/item_requests.h"

namespace dynarock::api::ops {

// The request, without its scope (the caller's), or nullopt (see above).
std::optional<PutItemRequest> ReadPutItemRequest(std::string_view body);
std::optional<GetItemRequest> ReadGetItemRequest(std::string_view body);

}  // namespace dynarock::api::ops

#endif  // DYNAROCK_API_OPS_ITEM_REQUEST_READER_H_
