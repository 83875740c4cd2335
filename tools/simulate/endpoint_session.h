// tools/simulate/endpoint_session.h
//
// What an experiment run against a DynamoDB endpoint (`dynarock simulate
// ... --endpoint URL`) needs besides its workload: connections, a retrying
// call, and the tables it creates. The session names every table with a
// run-specific prefix, remembers each one it created, and deletes them all
// in Cleanup (also after an interruption: the caller's flag, set by its
// SIGINT handler, stops waits and workloads early). Calls that fail with
// 5xx or on the transport (unreachable, dropped, timed out) are retried
// with exponential backoff and full jitter and counted; DynamoDB errors are
// returned as values, with a message saying when the endpoint refused the
// credentials or does not serve the operation.
//
// Thread-safe: Call and the counters may be used from the workload's
// threads (each with a client of its own, NewClient); CreateTable and
// Cleanup from one thread.

#ifndef DYNAROCK_TOOLS_SIMULATE_ENDPOINT_SESSION_H_
#define DYNAROCK_TOOLS_SIMULATE_ENDPOINT_SESSION_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "api/client.h"
#include "api/json_codec.h"
#include "engine/requests/table_requests.h"
#include "engine/status.h"
#include "tools/http/http_client.h"
#include "tools/simulate/event_loop.h"

namespace dynarock::tools::simulate {

struct EndpointOptions {
  std::string url;               // "http://127.0.0.1:8000", "https://dynamodb..."
  std::string region;            // empty: from the environment, the host, or us-east-1
  std::string profile;           // empty: AWS_PROFILE or "default"
  std::string table_prefix;      // empty: "dynarock-sim-<UTC time>-<4 hex>-"
  int clients = 16;              // requests in flight at most
  // Retries of a request answered 5xx or lost on the transport.
  int max_error_retries = 6;
  BackoffOptions error_backoff{100'000, 5'000'000};
  std::chrono::milliseconds request_timeout{10'000};
  std::chrono::seconds table_wait{300};  // CREATING -> ACTIVE at most
  // Set by the caller's SIGINT handler: waits and workloads stop early.
  const std::atomic<bool>* interrupted = nullptr;
};

// Where the run goes: resolved from EndpointOptions and the environment.
struct ResolvedEndpoint {
  http::Endpoint endpoint;
  std::string url;
  std::string region;
  bool is_aws = false;  // a *.amazonaws.com host: real DynamoDB, billed
  // "environment", "<file> [profile]", or "none (dummy signature)".
  std::string credentials_source;
  http::HttpClientOptions client_options;
};

// Parses the URL and finds credentials and Region. Errors: kValidation for
// a bad URL, and for an AWS endpoint without credentials.
Result<ResolvedEndpoint> ResolveEndpoint(const EndpointOptions& options);

// The CreateTable body of an engine request: TableName, AttributeDefinitions,
// KeySchema, BillingMode, ProvisionedThroughput and GlobalSecondaryIndexes
// (the members the experiments' tables use), so that an endpoint run
// creates the table its model creates.
api::Json CreateTableJson(const CreateTableRequest& request);

// "us-west-2" from "dynamodb.us-west-2.amazonaws.com"; "" otherwise.
std::string RegionOfAwsHost(std::string_view host);

// "dynarock-sim-20250101T101500-3f9a-": unique per run.
std::string NewTablePrefix();

// Errors and retries of one run, by kind ("HTTP 503", "transport").
struct ErrorCounts {
  std::map<std::string, int64_t> retried;  // answered by a retry
  std::map<std::string, int64_t> gave_up;  // still failing after the retries
};

class EndpointSession {
 public:
  EndpointSession(ResolvedEndpoint endpoint, EndpointOptions options);
  ~EndpointSession();

  const ResolvedEndpoint& endpoint() const { return endpoint_; }
  const std::string& table_prefix() const { return prefix_; }
  bool interrupted() const;

  // A client of its own for a workload thread.
  std::unique_ptr<http::DynamoDbHttpClient> NewClient() const;

  // Sends `operation` on `client`, retrying 5xx and transport failures
  // (counted in errors()); the last response. Other errors, throttling
  // included, are returned at once: the workload decides.
  api::Response Call(http::DynamoDbHttpClient& client, std::string_view operation,
                     std::string_view body);

  // ListTables: errors name the endpoint ("unreachable: ..."), refused
  // credentials ("refused the credentials from <source>: ...") or a missing
  // operation.
  Status Check();

  // Creates prefix+`name` from the CreateTable request body `create`
  // (TableName filled in) and waits until it is ACTIVE. The table is
  // remembered for Cleanup as soon as CreateTable succeeded.
  Result<std::string> CreateTable(std::string_view name, api::Json create);

  // Deletes every table this session created and waits (up to a minute
  // each) until it is gone; lines for the user: "deleted table T",
  // "deleting (still DELETING after 60 s): table T", or "left behind: table
  // T (<why>); delete it with: aws dynamodb delete-table --table-name T
  // ...". Each line once.
  std::vector<std::string> Cleanup();
  const std::vector<std::string>& created_tables() const { return created_; }

  ErrorCounts errors() const;

  // The error of a response for messages: "CreateTable: <type>: <message>",
  // with a hint for credentials refused and operations not served.
  std::string Describe(std::string_view operation, const api::Response& r) const;

 private:
  void Sleep(std::chrono::microseconds d) const;
  // Polls DescribeTable until `table` is gone (true) or the wait ran out.
  bool WaitGone(http::DynamoDbHttpClient& client, const std::string& table);

  ResolvedEndpoint endpoint_;
  EndpointOptions options_;
  std::string prefix_;
  std::unique_ptr<http::DynamoDbHttpClient> control_;  // CreateTable etc.
  std::vector<std::string> created_;
  mutable std::mutex mu_;
  ErrorCounts errors_;     // guarded by mu_
  uint64_t backoff_seed_;  // guarded by mu_
};

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_ENDPOINT_SESSION_H_
