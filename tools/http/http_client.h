// tools/http/http_client.h
//
// A small synchronous DynamoDB client over HTTP/1.1 for the command line
// tools: one keep-alive connection, one request at a time, the DynamoDB JSON
// 1.0 protocol (POST /, X-Amz-Target), http:// or https:// (TLS through
// OpenSSL, the peer's certificate verified against the system's CAs or
// `ca_file`, and its host name checked). With `credentials` the requests
// are SigV4-signed (request_signer.h) as an SDK signs them, so that Amazon
// DynamoDB and `dynarock serve --auth-file` accept them; without, they
// carry a SigV4-shaped Authorization header with a dummy signature whose
// access key id and region pick the caller's namespace in `dynarock serve`
// (dynarock and DynamoDB Local accept any).
//
// Not thread-safe: one caller at a time.

#ifndef DYNAROCK_TOOLS_HTTP_HTTP_CLIENT_H_
#define DYNAROCK_TOOLS_HTTP_HTTP_CLIENT_H_

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "api/client.h"
#include "engine/status.h"
#include "tools/http/aws_credentials.h"

namespace dynarock::tools::http {

struct Endpoint {
  std::string host;  // "127.0.0.1", "localhost", "[::1]" without brackets
  std::string port;  // "8000"
  bool tls = false;  // https://
};

// Parses "http://host[:port][/]" (port 80 by default) or
// "https://host[:port][/]" (443). Errors: kValidation for another scheme, a
// path, or a bad port.
Result<Endpoint> ParseEndpoint(std::string_view url);

struct HttpClientOptions {
  // Without credentials: the dummy signature's access key id.
  std::string access_key_id = "dynarock";
  std::string region = "us-east-1";
  // Set: requests are signed with them (access_key_id above is then unused).
  std::optional<AwsCredentials> credentials;
  // https: a PEM file of CAs to trust instead of the system's (AWS_CA_BUNDLE).
  std::string ca_file;
  // How long connecting, or one request's write and read, may take; past
  // it the call fails (http_status 0, "timed out") and the connection is
  // closed.
  std::chrono::milliseconds timeout{60'000};
  std::string user_agent = "dynarock";
};

class DynamoDbHttpClient {
 public:
  DynamoDbHttpClient(Endpoint endpoint, HttpClientOptions options);
  ~DynamoDbHttpClient();
  DynamoDbHttpClient(const DynamoDbHttpClient&) = delete;
  DynamoDbHttpClient& operator=(const DynamoDbHttpClient&) = delete;

  // Sends `operation` ("PutItem" as DynamoDB_20120810.PutItem; a name with
  // a '.' such as "DynamoRock_20251121.WaitForIndexes" as is) and returns
  // the status and body. A connection or protocol failure is http_status 0
  // with the reason in `body`. A kept-alive connection that the server
  // closed is reopened once, transparently.
  api::Response Call(std::string_view operation, std::string_view body);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// "ResourceNotFoundException: Requested resource not found" from an error
// response {"__type": "com.amazonaws...#X", "message": "..."}; "HTTP <status>:
// <body>" when the body is not such an object. For the tools' error lines.
std::string DescribeErrorResponse(const api::Response& r);

// "AWS4-HMAC-SHA256 Credential=<key>/<yyyymmdd>/<region>/dynamodb/
// aws4_request, SignedHeaders=..., Signature=<64 zeros>" for `amz_date`
// ("20250101T000000Z").
std::string DummyAuthorization(std::string_view access_key_id,
                               std::string_view region,
                               std::string_view amz_date);

}  // namespace dynarock::tools::http

#endif  // DYNAROCK_TOOLS_HTTP_HTTP_CLIENT_H_
