// api/http/protocol.h
//
// The DynamoDB JSON 1.0 protocol over HTTP, without the network: turns one
// parsed HTTP request into one HTTP response. It checks the method, the
// Content-Type and X-Amz-Target headers and the SigV4 Authorization header,
// hands the operation to a Handler (api::Client::Call in `dynarock serve`),
// and stamps every response with x-amzn-RequestId and x-amz-crc32 (the CRC32
// of the body, in decimal, which botocore verifies).
//
// It also decodes compressed request bodies (Content-Encoding gzip or
// deflate, content_coding.h) and compresses large responses for clients
// that accept it (Accept-Encoding), as DynamoDB does.
//
// The server (server.h) owns sockets, parsing and limits; everything a
// client can observe about a well-formed HTTP request is decided here, so it
// is testable without a socket. Pure functions; thread-safe.

#ifndef DYNAROCK_API_HTTP_PROTOCOL_H_
#define DYNAROCK_API_HTTP_PROTOCOL_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/client.h"
#include "api/console/console_access.h"
#include "api/http/sigv4.h"

namespace dynarock::api::http {

// Runs one DynamoDB operation: api::Client::Call's signature. May be called
// from several threads at once. Should not throw; if it does, the request
// gets an InternalServerError.
using Handler = std::function<Response(std::string_view operation,
                                       std::string_view request_json,
                                       const CallerIdentity& caller)>;

// The largest request body accepted, as DynamoDB: 16 MB. For a compressed
// body, the limit applies to the decoded body too.
inline constexpr size_t kMaxRequestBodyBytes = 16 * 1024 * 1024;

// Answers whose uncompressed body is larger are sent chunked.
inline constexpr size_t kChunkedResponseBytes = 64 * 1024;

// The parts of an HTTP request the protocol reads. Views into the caller's
// buffers; absent headers are nullopt (present but empty is "").
struct HttpRequest {
  std::string_view method;  // "POST", "GET", ...
  std::string_view path;    // the request-target; only "/" serves
  std::optional<std::string_view> host;
  std::optional<std::string_view> content_type;
  std::optional<std::string_view> target;         // X-Amz-Target
  std::optional<std::string_view> authorization;  // Authorization
  std::optional<std::string_view> origin;         // CORS
  std::optional<std::string_view> access_control_request_headers;
  std::optional<std::string_view> access_control_request_method;
  std::optional<std::string_view> content_encoding;  // Content-Encoding
  // Every Accept-Encoding header's value, joined with commas ("" if none).
  std::string_view accept_encoding;
  // The body as sent (compressed when content_encoding says so); the
  // signature covers it as sent.
  std::string_view body;
  // For a compressed body: called before the decoded body grows to n bytes
  // (the server counts them against its memory budget); false refuses the
  // request with a 503. Unset: no budget.
  std::function<bool(size_t)> reserve_decoded;
  // The largest decoded body accepted (the server's body limit).
  size_t max_decoded_bytes = kMaxRequestBodyBytes;
  // For signature verification (strict mode): the request-target as sent
  // (path and query) and every header as received.
  std::string_view request_target;
  std::vector<std::pair<std::string_view, std::string_view>> all_headers;
  // The peer's address is a loopback one (127.0.0.0/8, ::1); GET /metrics
  // is served only to those unless ProtocolOptions says otherwise.
  bool peer_loopback = true;
};

// How the protocol authenticates callers.
struct ProtocolOptions {
  // Null (the default): any credentials are accepted, as DynamoDB Local;
  // the Authorization header only names the caller. Otherwise every API
  // call must carry a valid SigV4 signature by one of these credentials
  // (VerifySigV4); health checks and CORS preflights need none.
  std::shared_ptr<const SigV4Secrets> secrets;
  // Seconds since the epoch, for the clock-skew check; the system clock
  // when empty.
  std::function<int64_t()> now_unix_seconds;
  // GET /metrics: the Prometheus exposition's text
  // (api/metrics/prometheus_exposition.h), or null to answer 404 as for any
  // other path (`dynarock serve --metrics off`). With `secrets`, a scrape
  // must be signed as an API call is; without, it is served to loopback
  // peers only, unless metrics_any_peer.
  std::function<std::string()> metrics;
  bool metrics_any_peer = false;
  // The web console (api/console; `dynarock serve --console`): off (404),
  // served to loopback peers, or to any. In strict mode (`secrets`) its
  // files are served unsigned (they hold no data) and every call the page
  // makes must be signed as an API call is.
  console::ConsoleOptions console;
};

struct HttpResponse {
  int status = 200;
  // Every header but Content-Length, Transfer-Encoding, Connection and
  // Date, which the server sets.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  // Send with Transfer-Encoding: chunked rather than Content-Length (to an
  // HTTP/1.1 client): DynamoDB's 413, and large answers.
  bool chunked = false;
  // Wait this long before sending it (a fault rule's latency, from
  // api::Response::delay_micros); the server waits on a timer.
  int64_t delay_micros = 0;

  // The value of header `name` (exact case), or nullopt.
  std::optional<std::string_view> Header(std::string_view name) const;
};


// Answers one request, in DynamoDB's order:
//  - OPTIONS with an Origin -> a CORS preflight: 200, empty body,
//    Access-Control-Allow-Headers / -Methods echoing what was requested,
//    Access-Control-Max-Age 172800.
//  - GET/HEAD of "/metrics" with options.metrics -> 200, its text, as
//    text/plain; version=0.0.4 (compressed as the client accepts); signed
//    requests only with options.secrets (else VerifySigV4's 400), loopback
//    peers only without them (else 403) unless options.metrics_any_peer.
//  - With options.console not off, paths under "/console" (loopback peers
//    only unless ConsoleAccess::kAnyPeer or options.secrets, else 403):
//    GET/HEAD "/console" -> 308 to "/console/"; GET/HEAD "/console/<file>"
//    -> an embedded file (api/console/console_assets.h; "/console/" is
//    index.html) with a Content-Security-Policy of 'self' only, else 404;
//    POST "/console/api/" -> as a POST to "/" (below), but an operation
//    the console may not call (console::ConsoleMayCall) is a 400
//    AccessDeniedException; POST "/console/api/cost" with {"TableName"}
//    -> console::CostView of the table for the authenticated caller (or
//    the error of the DescribeTable it makes).
//  - GET/HEAD of "/" (health checks) -> 200 "healthy: <Host> " (the
//    request's Host header, trailing space included, as DynamoDB;
//    dynamodb.us-east-1.amazonaws.com without one).
//  - Other methods or paths, or a POST whose body is not empty and whose
//    Content-Type is not application/x-amz-json-1.0 or application/json
//    -> 404 "<UnknownOperationException/>\n".
//  - A Content-Encoding other than gzip, deflate or identity, or a body
//    that does not decode -> 500 InternalServerError, as DynamoDB; a
//    decoded body over kMaxRequestBodyBytes -> 413 (empty body, chunked).
//  - POST with X-Amz-Target "DynamoDB_20120810.<Operation>" ->
//    handler(Operation, decoded body, caller); its status and body as is,
//    as application/x-amz-json-1.0 when the request was, else
//    application/json.
//  - Otherwise a protocol error; a non-empty body that is not a JSON object
//    comes first (400 SerializationException), then a missing or garbled
//    target (400 UnknownOperationException), then an Authorization header
//    that is not SigV4 (MissingAuthenticationTokenException) or SigV4
//    without a usable Credential (IncompleteSignatureException). No header
//    at all is accepted as an anonymous caller (a dynarock convenience for
//    curl; DynamoDB Local rejects it). With options.secrets, the signature
//    is verified instead (VerifySigV4's errors) and unsigned calls are
//    refused.
// An operation's answer of kMinCompressedResponseBytes or more is
// compressed as ChooseResponseCoding picks from accept_encoding (with a
// Content-Encoding header; x-amz-crc32 is then the CRC of the compressed
// bytes, as DynamoDB's, which SDKs check before decompressing), and sent
// chunked when over kChunkedResponseBytes.
// With an Origin, every response also carries Access-Control-Allow-Origin
// "*" and Access-Control-Expose-Headers.
HttpResponse HandleRequest(const HttpRequest& request, const Handler& handler,
                           const ProtocolOptions& options = {});

// For requests the server rejects before they are complete; each carries a
// fresh x-amzn-RequestId and x-amz-crc32.
// 413 with an empty body, chunked (as DynamoDB sends it): the body passes
// kMaxRequestBodyBytes.
HttpResponse PayloadTooLargeResponse();
// 400 with an empty body: the bytes are not an HTTP/1.1 request, or its
// headers are too large.
HttpResponse BadHttpRequestResponse();

// 503 with DynamoDB's ServiceUnavailable error body: the server is at one
// of its limits (connections, bytes of requests in flight) and the client
// should retry later, as every AWS SDK does on a 503.
HttpResponse ServiceUnavailableResponse();

// "DynamoDB_20120810.PutItem" -> "PutItem"; nullopt for another API version,
// a missing dot, or an operation name that is empty or not [A-Za-z0-9]+.
// dynarock's extensions keep their whole target as the operation name:
// "DynamoRock_20251121.WaitForIndexes" -> "DynamoRock_20251121.WaitForIndexes";
// so do the DynamoDB Streams operations ("DynamoDBStreams_20120810.GetRecords").
std::optional<std::string_view> OperationFromTarget(std::string_view target);

// CRC-32 (IEEE 802.3, as zlib's crc32) of `data`.
uint32_t Crc32(std::string_view data);

// A fresh random request id in DynamoDB's form: 52 characters of 0-9 and
// A-V ("4KBNVRGD25RG1KEO9UT4V3FQDJVV4KQNSO5AEMVJF66Q9ASUAAJG").
inline constexpr size_t kRequestIdLength = 52;
std::string NewRequestId();

}  // namespace dynarock::api::http

#endif  // DYNAROCK_API_HTTP_PROTOCOL_H_
