// api/dispatch.h
//
// The table of DynamoDB operations: operation name -> handler. A handler
// decodes a request body (already parsed to a JSON object) into an engine
// request, calls the engine and encodes the result. Each api/ops/*_ops.cc
// holds its handlers and their rows (Operation below); the table is their
// rows joined (api/ops/ops.h).
//
// The table is immutable; thread-safe.

#ifndef DYNAROCK_API_DISPATCH_H_
#define DYNAROCK_API_DISPATCH_H_

#include <optional>
#include <string>
#include <string_view>

#include "api/json_codec.h"
#include "engine/engine.h"
#include "engine/requests/scope.h"
#include "engine/status.h"

namespace dynarock::api {

// What every handler needs besides the request body.
struct RequestContext {
  Engine* engine = nullptr;  // not owned
  Scope scope;               // the caller's set of tables
  // Where a handler may put its response body as finished JSON text instead
  // of returning it as Json (Query and Scan splice in items rendered from
  // their encodings, api/encoded_item_json.h); null when the caller wants
  // the Json. When a handler fills it, the Json it returns is not used.
  // Not owned.
  std::string* body_text = nullptr;
};

// Returns the response body, or the Status to report.
using Handler = Result<Json> (*)(const RequestContext& ctx, const Json& request);

// A handler of the body text, for the operations that have one: the
// response body, or the error; nullopt when it leaves this body to the
// operation's Handler (GetItemText in api/ops/item_ops.cc).
using TextHandler = std::optional<Result<std::string>> (*)(
    const RequestContext& ctx, std::string_view body);

// The X-Amz-Target prefix of dynarock's own operations, which no SDK sends.
inline constexpr std::string_view kExtensionPrefix = "DynamoRock_20251121.";

// One row of the operation table.
struct Operation {
  // The X-Amz-Target operation: "PutItem", or with its own prefix for the
  // streams API ("DynamoDBStreams_20120810.GetRecords") and dynarock's
  // extensions ("DynamoRock_20251121.WaitForIndexes").
  std::string_view name;
  Handler handler;
  // The one-pass reader of the body text, where there is one.
  TextHandler text_handler = nullptr;
};

// The text handler for `operation` ("GetItem", "PutItem"), or null.
TextHandler FindTextHandler(std::string_view operation);

// The handler for `operation` ("PutItem"), or null when DynamoDB has no such
// operation or dynarock does not implement it yet.
Handler FindHandler(std::string_view operation);

// Runs `operation`. Errors: kUnknownOperation for an operation without a
// handler: with DynamoDB Local's message "An unknown operation was
// requested." for one of DynamoDB's that dynarock does not serve (global
// tables, Kinesis destinations, resource policies, replica auto scaling),
// with an empty message, as DynamoDB sends it, for any other name;
// otherwise whatever the handler returns.
Result<Json> Dispatch(const RequestContext& ctx, std::string_view operation,
                      const Json& request);

}  // namespace dynarock::api

#endif  // DYNAROCK_API_DISPATCH_H_
