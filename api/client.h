// api/client.h
//
// Client is the DynamoDB JSON 1.0 protocol in process: it takes an operation
// name ("PutItem") and a request body in DynamoDB JSON, and returns the
// response body and HTTP status exactly as DynamoDB would send them. The HTTP
// server is a thin shell around it; C++ programs can use it with no server.
//
// Thread-safe; does not own the Engine, which must outlive it.

#ifndef DYNAROCK_API_CLIENT_H_
#define DYNAROCK_API_CLIENT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/requests/scope.h"

namespace dynarock {
class Engine;
}

namespace dynarock::api {
namespace metrics {
class RequestMetrics;
}

struct Response {
  int http_status = 200;
  // The JSON body: the operation's result, or for errors
  // {"__type":"com.amazonaws.dynamodb.v20120810#<Type>","message":"..."}.
  std::string body;
  // Latency a fault rule added (api/fault/fault_injection.h) that the
  // caller is to wait before delivering the answer; 0 when
  // ClientOptions::wait_injected_latency had Call wait itself.
  int64_t delay_micros = 0;
  bool ok() const { return http_status == 200; }
};

// Who is calling: from the SigV4 Authorization header over HTTP.
struct CallerIdentity {
  std::string access_key_id;  // empty when the request was not signed
  std::string region;         // empty when unknown
};

struct ClientOptions {
  // One set of tables for every caller, as DynamoDB Local's -sharedDb;
  // otherwise each access key id + region has its own.
  bool shared_db = false;
  // The AWS account id every ARN names (12 digits; Client refuses nothing,
  // `dynarock serve --account-id` and the Python embedding check it). An ARN
  // of another account is answered AccessDeniedException, as DynamoDB does.
  std::string account_id{kDefaultAccountId};
  // GetItem and PutItem bodies of the common shape are read in one pass
  // (api/ops/item_request_reader.h) instead of parsed to a JSON tree first;
  // same answers, byte for byte. false: always the JSON tree (the
  // differential test compares the two).
  bool one_pass_item_requests = true;
  // Call waits out the latency a fault rule adds before it returns. The
  // HTTP server turns it off and waits on a timer instead, so that a delayed
  // answer holds no thread (Response::delay_micros).
  bool wait_injected_latency = true;
  // Where every call is counted (operation, table, outcome, latency) for
  // GET /metrics; null: not counted. Not owned; must outlive the Client.
  metrics::RequestMetrics* request_metrics = nullptr;
};

class Client {
 public:
  Client(Engine* engine, ClientOptions options = {});

  // Never throws; any input yields a well-formed response.
  Response Call(std::string_view operation, std::string_view request_json,
                const CallerIdentity& caller = {}) const;

 private:
  Response CallUncounted(std::string_view operation, std::string_view request_json,
                         const CallerIdentity& caller) const;
  Engine* engine_;
  ClientOptions options_;
};

}  // namespace dynarock::api

#endif  // DYNAROCK_API_CLIENT_H_
