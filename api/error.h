// api/error.h
//
// The one formatter of errors for the wire: a non-OK Status becomes
// DynamoDB's error body {"__type": "<namespace>#<Type>", "message": "..."}
// and HTTP status (400; 500 for InternalServerError, 503 for
// ServiceUnavailable). Every error a client sees passes through FormatError.
//
// Stateless; thread-safe.

#ifndef DYNAROCK_API_ERROR_H_
#define DYNAROCK_API_ERROR_H_

#include <string>
#include <string_view>

#include "api/client.h"
#include "engine/status.h"

namespace dynarock::api {

// The full "__type" DynamoDB sends for `code`, e.g.
// "com.amazon.coral.validate#ValidationException" or
// "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException". SDKs only
// read the part after '#'.
std::string ErrorType(ErrorCode code);

// 500 for the internal codes (InternalServerError), 503 for ServiceUnavailable,
// else 400.
int ErrorHttpStatus(ErrorCode code);

// The response for a failed request. The message member is "message", except
// "Message" where DynamoDB capitalizes it (SerializationException); it is
// left out when the message is empty (UnknownOperationException, a body that
// is not JSON). A ConditionalCheckFailed status that carries an item adds
// "Item". REQUIRES: !status.ok()
Response FormatError(const Status& status);

}  // namespace dynarock::api

#endif  // DYNAROCK_API_ERROR_H_
