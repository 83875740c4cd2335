// api/metrics/response_facts.h
//
// What the request metrics (request_metrics.h) read from a request's and a
// response's text without parsing them: the table a request names, the error
// type of an error response, the Count of a Query or Scan page, and the
// TransactionConflict reasons of a cancelled transaction. Each is one bounded
// scan of bytes the request path already holds, so that counting a request
// costs no JSON parse.
//
// Pure functions; thread-safe.

#ifndef DYNAROCK_API_METRICS_RESPONSE_FACTS_H_
#define DYNAROCK_API_METRICS_RESPONSE_FACTS_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace dynarock::api::metrics {

// The table a DynamoDB JSON request names: the value of the first
// "TableName" member whose value is a string (item operations, Query, Scan,
// a transaction's first action), else the first key of "RequestItems"
// (BatchGetItem, BatchWriteItem). nullopt when there is none or the name is
// not a valid table name (3 to 255 of [a-zA-Z0-9_.-]), so that a label made
// of it is bounded and needs no escaping. The view points into `body`.
// Attribute values never match: in DynamoDB JSON they are objects
// ({"S": ...}), and an escaped quote inside a string is skipped.
std::optional<std::string_view> TableNameOf(std::string_view body);

// "ConditionalCheckFailedException" for an error body
// {"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",...}
// (the text after the last '#' of __type); empty when there is none.
std::string_view ErrorTypeOf(std::string_view body);

// The top-level "Count" of a Query or Scan answer; nullopt when absent.
// Attribute values never match (their values are objects, not numbers).
std::optional<int64_t> CountOf(std::string_view body);

// How many of a TransactionCanceledException's CancellationReasons have
// Code "TransactionConflict".
int64_t TransactionConflictsOf(std::string_view body);

}  // namespace dynarock::api::metrics

#endif  // DYNAROCK_API_METRICS_RESPONSE_FACTS_H_
