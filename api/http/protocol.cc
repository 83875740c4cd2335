// api/http/protocol.cc

#include "api/http/protocol.h"

#include <isa-l/crc.h>

#include <cctype>
#include <chrono>
#include <random>
#include <variant>

#include "api/console/console_access.h"
#include "api/console/console_assets.h"
#include "api/console/console_cost.h"
#include "api/dispatch.h"
#include "api/error.h"
#include "api/http/content_coding.h"
#include "api/http/header_text.h"
#include "api/http/sigv4.h"
#include "api/json_codec.h"
#include "api/metrics/price_table.h"
#include "api/metrics/prometheus_text.h"
#include "engine/status.h"

namespace dynarock::api::http {
namespace {

constexpr std::string_view kTargetPrefix = "DynamoDB_20120810.";
// dynarock's own operations (api/ops/index_ops.cc): the operation name is
// the whole target, so a DynamoDB target never reaches them.
// The DynamoDB Streams API (its own service, served on the same endpoint);
// kept whole too.
constexpr std::string_view kStreamsPrefix = "DynamoDBStreams_20120810.";
// The media types DynamoDB takes a body in. Not application/x-amz-json-1.1:
// DynamoDB answers a body sent as that with a 404, as for any other type
// (dynalite's test/connection.js, recorded against DynamoDB).
constexpr std::string_view kJson10 = "application/x-amz-json-1.0";
constexpr std::string_view kJsonPlain = "application/json";

// DynamoDB answers GET / (a load balancer's health check) with "healthy: "
// and the Host the client asked for, trailing space included (alternator's
// test_health.py and dynalite's test/connection.js, both run against
// DynamoDB, agree on it); without a Host, us-east-1's endpoint.
constexpr std::string_view kHealthyPrefix = "healthy: ";
constexpr std::string_view kDefaultHost = "dynamodb.us-east-1.amazonaws.com";

// The CORS headers DynamoDB sends (scylladb's test_cors.py, run against
// DynamoDB; dynalite's test/connection.js, recorded against it).
constexpr std::string_view kExposeHeaders =
    "x-amzn-RequestId,x-amzn-ErrorType,x-amzn-ErrorMessage,Date";
constexpr std::string_view kPreflightMaxAge = "172800";

// The body DynamoDB's front end sends for requests that are not an API call
// (wrong method or Content-Type), with HTTP 404.
constexpr std::string_view kNotAnOperationBody =
    "<UnknownOperationException/>\n";

// "application/x-amz-json-1.0; charset=utf-8" -> "application/x-amz-json-1.0"
std::string_view MediaType(std::string_view content_type) {
  return TrimWhitespace(content_type.substr(0, content_type.find(';')));
}

bool IsJsonMediaType(std::string_view media_type) {
  return EqualsIgnoreCase(media_type, kJson10) ||
         EqualsIgnoreCase(media_type, kJsonPlain);
}

// The Content-Type of a JSON answer: application/x-amz-json-1.0 for a
// request sent as that, else application/json, as DynamoDB.
std::string ResponseMediaType(std::string_view media_type) {
  if (EqualsIgnoreCase(media_type, kJson10)) return std::string(kJson10);
  return std::string(kJsonPlain);
}

// "/?X-Amz-Date=..." -> "/": the path without its query.
std::string_view PathOf(std::string_view target) {
  return target.substr(0, target.find('?'));
}

// An error the protocol itself detects, formatted by api/error.
HttpResponse ErrorResponse(const Status& status, std::string_view media_type) {
  Response error = FormatError(status);
  HttpResponse response;
  response.status = error.http_status;
  response.headers.emplace_back("Content-Type", ResponseMediaType(media_type));
  response.body = std::move(error.body);
  return response;
}

HttpResponse NotAnOperation() {
  HttpResponse response;
  response.status = 404;
  response.body = kNotAnOperationBody;
  return response;
}

HttpResponse Healthy(const HttpRequest& request) {
  HttpResponse response;
  response.body = kHealthyPrefix;
  response.body += request.host.value_or(kDefaultHost);
  response.body += ' ';
  return response;
}

// A CORS preflight (OPTIONS with an Origin): 200 with an empty body, the
// requested method and headers allowed as asked, cached for two days.
HttpResponse Preflight(const HttpRequest& request) {
  HttpResponse response;
  if (request.access_control_request_headers) {
    response.headers.emplace_back(
        "Access-Control-Allow-Headers",
        std::string(*request.access_control_request_headers));
  }
  if (request.access_control_request_method) {
    response.headers.emplace_back(
        "Access-Control-Allow-Methods",
        std::string(*request.access_control_request_method));
  }
  response.headers.emplace_back("Access-Control-Max-Age",
                                std::string(kPreflightMaxAge));
  return response;
}

// DynamoDB's order: a body that is not JSON is a SerializationException
// before the target or the signature is looked at. Only called on those
// error paths, so a good request is parsed once (by the handler).
std::optional<Status> MalformedBody(std::string_view body) {
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return std::nullopt;
  }
  Result<Json> parsed = ParseRequestBody(body);
  if (parsed.ok()) return std::nullopt;
  return parsed.status();
}

int64_t SystemNow() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

HttpResponse ServiceUnavailable() {
  // The error name and message of DynamoDB's developer guide (error
  // handling, HTTP status code 5xx), in InternalServerError's namespace.
  HttpResponse response;
  response.status = 503;
  response.headers.emplace_back("Content-Type", std::string(kJson10));
  response.body =
      "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ServiceUnavailable\","
      "\"message\":\"DynamoDB is currently unavailable. (This should be a "
      "temporary state.)\"}";
  return response;
}

// The body a compressed request stands for, or the answer to a request
// whose body cannot be decoded: 500 InternalServerError for an unknown
// coding and for data that is not of its coding (as DynamoDB: alternator's
// test_compressed_request.py), 413 past the body limit, 503 past the
// server's memory budget.
std::variant<std::string, HttpResponse> DecodeRequestBody(
    const HttpRequest& request, std::string_view media_type) {
  const std::optional<ContentCoding> coding =
      ParseContentEncoding(request.content_encoding);
  if (!coding) {
    return ErrorResponse(Status::Internal("Unsupported Content-Encoding: " +
                                          std::string(*request.content_encoding)),
                         media_type);
  }
  DecodedBody decoded = DecodeBody(*coding, request.body,
                                   request.max_decoded_bytes,
                                   request.reserve_decoded);
  switch (decoded.error) {
    case DecodeError::kNone:
      return std::move(decoded.body);
    case DecodeError::kCorrupt:
      return ErrorResponse(
          Status::Internal("The request body is not valid " +
                           std::string(ContentCodingName(*coding)) + " data"),
          media_type);
    case DecodeError::kTooLarge: {
      HttpResponse too_large;
      too_large.status = 413;
      too_large.chunked = true;
      return too_large;
    }
    case DecodeError::kRefused:
      break;
  }
  return ServiceUnavailable();
}

// The caller a request names (any credentials, as DynamoDB Local), or, with
// options.secrets, the one its verified signature proves; or why not.
Result<CallerIdentity> Authenticate(const HttpRequest& request,
                                    const ProtocolOptions& options) {
  if (options.secrets != nullptr) {
    // The signature covers the body as sent, compressed or not.
    SignedRequest signed_request{request.method, request.request_target,
                                 request.all_headers, request.body};
    return VerifySigV4(
        signed_request, *options.secrets,
        options.now_unix_seconds ? options.now_unix_seconds() : SystemNow());
  }
  if (!request.authorization) return CallerIdentity{};
  SigV4ParseResult parsed = ParseAuthorization(*request.authorization);
  if (!parsed.auth) {
    return parsed.error == SigV4Error::kNotSigV4
               ? Status(ErrorCode::kMissingAuthenticationToken,
                        "Request is missing Authentication Token")
               : Status(ErrorCode::kIncompleteSignature,
                        "Authorization header requires 'Credential' "
                        "parameter. Authorization=" +
                            std::string(*request.authorization));
  }
  return CallerFromAuthorization(*parsed.auth);
}

// The web console's paths (api/console).
constexpr std::string_view kConsolePath = "/console";
constexpr std::string_view kConsoleApiPath = "/console/api/";
constexpr std::string_view kConsoleCostPath = "/console/api/cost";

// An API call: a POST to "/", or, from the console (`console` not null), to
// kConsoleApiPath, where only the operations the console may call pass.
HttpResponse CallOperation(const HttpRequest& request, const Handler& handler,
                           const ProtocolOptions& options,
                           const console::ConsoleOptions* console = nullptr) {
  std::string_view media_type = MediaType(request.content_type.value_or(""));
  // A body needs a JSON Content-Type; an empty one needs none (whatever
  // type it names, as DynamoDB: dynalite's index.js).
  if (PathOf(request.path) != (console != nullptr ? kConsoleApiPath : "/") ||
      (!request.body.empty() && !IsJsonMediaType(media_type))) {
    return NotAnOperation();
  }
  // A compressed body is decoded only once the target and the caller are
  // known good (as alternator does), so that no unauthenticated request
  // makes the server inflate anything; until then it cannot be checked for
  // JSON, and a target or signature error comes alone.
  const bool compressed = ParseContentEncoding(request.content_encoding) !=
                          ContentCoding::kIdentity;
  auto error = [&](const Status& status) {
    std::optional<Status> malformed =
        compressed ? std::nullopt : MalformedBody(request.body);
    return ErrorResponse(malformed ? *malformed : status, media_type);
  };

  std::optional<std::string_view> operation;
  if (request.target) operation = OperationFromTarget(*request.target);
  if (!operation) return error(Status(ErrorCode::kUnknownOperation, ""));
  Result<CallerIdentity> caller = Authenticate(request, options);
  if (!caller.ok()) return error(caller.status());
  if (console != nullptr && !console::ConsoleMayCall(*console, *operation)) {
    return ErrorResponse(
        Status(ErrorCode::kAccessDenied, std::string(console::kReadOnlyMessage)), media_type);
  }

  std::string decoded_body;
  std::string_view body = request.body;
  if (compressed) {
    auto decoded = DecodeRequestBody(request, media_type);
    if (auto* answer = std::get_if<HttpResponse>(&decoded)) {
      return std::move(*answer);
    }
    decoded_body = std::get<std::string>(std::move(decoded));
    body = decoded_body;
  }

  Response result;
  try {
    result = handler(*operation, body, *caller);
  } catch (...) {
    return ErrorResponse(Status::Internal("Internal server error"), media_type);
  }
  HttpResponse response;
  response.status = result.http_status;
  response.headers.emplace_back("Content-Type", ResponseMediaType(media_type));
  response.body = std::move(result.body);
  response.delay_micros = result.delay_micros;
  return response;
}

// GET /metrics: the exposition, to the callers options allow.
HttpResponse Metrics(const HttpRequest& request, const ProtocolOptions& options) {
  if (options.secrets != nullptr) {
    Result<CallerIdentity> caller = Authenticate(request, options);
    if (!caller.ok()) return ErrorResponse(caller.status(), kJson10);
  } else if (!request.peer_loopback && !options.metrics_any_peer) {
    HttpResponse refused;
    refused.status = 403;
    refused.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
    refused.body =
        "/metrics is served to loopback clients only (dynarock serve --metrics any, or "
        "--auth-file for signed scrapes)\n";
    return refused;
  }
  HttpResponse response;
  try {
    response.body = options.metrics();
  } catch (...) {
    return ErrorResponse(Status::Internal("Internal server error"), kJson10);
  }
  response.headers.emplace_back("Content-Type", std::string(metrics::kPrometheusContentType));
  return response;
}

HttpResponse PlainText(int status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.headers.emplace_back("Content-Type", "text/plain; charset=utf-8");
  response.body = std::move(body);
  return response;
}

// GET /console/<file>: an embedded file. The policy lets the page load
// only its own files and call only this server: no inline script, so that
// even a value that slipped into the page as markup could not run.
HttpResponse ConsoleFile(std::string_view path) {
  if (path == kConsolePath) {
    HttpResponse moved;
    moved.status = 308;
    moved.headers.emplace_back("Location", "/console/");
    return moved;
  }
  const console::ConsoleAsset* asset = console::FindAsset(path.substr(kConsolePath.size() + 1));
  if (asset == nullptr) return PlainText(404, "no such console file\n");
  HttpResponse response;
  response.body = std::string(asset->body);
  response.headers.emplace_back("Content-Type", std::string(console::ContentTypeOf(asset->name)));
  response.headers.emplace_back(
      "Content-Security-Policy",
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
      "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'");
  response.headers.emplace_back("X-Content-Type-Options", "nosniff");
  response.headers.emplace_back("Cache-Control", "no-cache");
  return response;
}

// POST /console/api/cost {"TableName": t}: the cost view of t, from the
// answers the caller itself would get (so strict mode and the caller's
// tables apply), priced by the dated us-east-1 table.
HttpResponse ConsoleCost(const HttpRequest& request, const Handler& handler,
                         const ProtocolOptions& options) {
  const std::string_view media_type = MediaType(request.content_type.value_or(""));
  if (!IsJsonMediaType(media_type) ||
      ParseContentEncoding(request.content_encoding) != ContentCoding::kIdentity) {
    return NotAnOperation();
  }
  Result<CallerIdentity> caller = Authenticate(request, options);
  if (!caller.ok()) return ErrorResponse(caller.status(), media_type);
  Result<Json> body = ParseRequestBody(request.body);
  if (!body.ok()) return ErrorResponse(body.status(), media_type);
  const Json name = body->is_object() ? body->value("TableName", Json()) : Json();
  const std::string table_request = Json{{"TableName", name}}.dump();
  auto call = [&](std::string_view operation, std::string_view json) -> Result<Json> {
    Response answer;
    try {
      answer = handler(operation, json, *caller);
    } catch (...) {
      return Status::Internal("Internal server error");
    }
    Result<Json> parsed = ParseRequestBody(answer.body);
    if (answer.http_status != 200 || !parsed.ok()) return Status::Internal(answer.body);
    return parsed;
  };
  Response table;
  try {
    table = handler("DescribeTable", table_request, *caller);
  } catch (...) {
    return ErrorResponse(Status::Internal("Internal server error"), media_type);
  }
  if (table.http_status != 200) {
    HttpResponse refused;
    refused.status = table.http_status;
    refused.headers.emplace_back("Content-Type", ResponseMediaType(media_type));
    refused.body = std::move(table.body);
    return refused;
  }
  Result<Json> capacity = call("DynamoRock_20251121.DescribeCapacity", table_request);
  Result<Json> clock = call("DynamoRock_20251121.DescribeClock", "{}");
  Result<Json> described = ParseRequestBody(table.body);
  if (!capacity.ok() || !clock.ok() || !described.ok()) {
    return ErrorResponse(Status::Internal("Internal server error"), media_type);
  }
  HttpResponse response;
  response.headers.emplace_back("Content-Type", ResponseMediaType(media_type));
  response.body =
      console::CostView(*capacity, *described, *clock, metrics::UsEast1StandardPrices()).dump();
  return response;
}

// Paths under /console: the console's files and calls, to the peers
// options allow.
HttpResponse Console(const HttpRequest& request, const Handler& handler,
                     const ProtocolOptions& options) {
  if (!request.peer_loopback && options.console.access != console::ConsoleAccess::kAnyPeer &&
      options.secrets == nullptr) {
    return PlainText(403,
                     "/console/ is served to loopback clients only (dynarock serve --console any, "
                     "or --auth-file for signed calls)\n");
  }
  const std::string_view path = PathOf(request.path);
  if (request.method == "GET" || request.method == "HEAD") {
    if (path.starts_with(kConsoleApiPath)) return NotAnOperation();
    return ConsoleFile(path);
  }
  if (request.method != "POST") return NotAnOperation();
  if (path == kConsoleCostPath) return ConsoleCost(request, handler, options);
  return CallOperation(request, handler, options, &options.console);
}

// Compresses an operation's answer as the client accepts, and sends a large
// one chunked.
void Encode(std::string_view accept_encoding, HttpResponse* response) {
  const size_t size = response->body.size();
  response->chunked = size > kChunkedResponseBytes;
  const ContentCoding coding = ChooseResponseCoding(accept_encoding, size);
  if (coding == ContentCoding::kIdentity) return;
  std::optional<std::string> encoded = EncodeBody(coding, response->body);
  if (!encoded) return;
  response->body = *std::move(encoded);
  response->headers.emplace_back("Content-Encoding",
                                 std::string(ContentCodingName(coding)));
}

// Adds the headers every response carries.
HttpResponse Stamp(HttpResponse response) {
  response.headers.emplace_back("x-amzn-RequestId", NewRequestId());
  response.headers.emplace_back("x-amz-crc32",
                                std::to_string(Crc32(response.body)));
  return response;
}

}  // namespace

std::optional<std::string_view> HttpResponse::Header(
    std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (key == name) return value;
  }
  return std::nullopt;
}

HttpResponse HandleRequest(const HttpRequest& request, const Handler& handler,
                           const ProtocolOptions& options) {
  HttpResponse response;
  if (request.method == "OPTIONS" && request.origin) {
    response = Preflight(request);
  } else if ((request.method == "GET" || request.method == "HEAD") &&
             PathOf(request.path) == "/metrics" && options.metrics) {
    response = Metrics(request, options);
    if (response.status == 200) Encode(request.accept_encoding, &response);
  } else if (options.console.access != console::ConsoleAccess::kOff &&
             (PathOf(request.path) == kConsolePath ||
              PathOf(request.path).starts_with("/console/"))) {
    response = Console(request, handler, options);
    if (!response.body.empty()) Encode(request.accept_encoding, &response);
  } else if ((request.method == "GET" || request.method == "HEAD") &&
             PathOf(request.path) == "/") {
    response = Healthy(request);
  } else if (request.method == "POST") {
    response = CallOperation(request, handler, options);
    if (!response.body.empty()) Encode(request.accept_encoding, &response);
  } else {
    response = NotAnOperation();
  }
  if (request.origin) {
    response.headers.emplace_back("Access-Control-Allow-Origin", "*");
    response.headers.emplace_back("Access-Control-Expose-Headers",
                                  std::string(kExposeHeaders));
  }
  return Stamp(std::move(response));
}

HttpResponse PayloadTooLargeResponse() {
  HttpResponse response;
  response.status = 413;
  response.chunked = true;
  return Stamp(std::move(response));
}

HttpResponse ServiceUnavailableResponse() {
  return Stamp(ServiceUnavailable());
}

HttpResponse BadHttpRequestResponse() {
  HttpResponse response;
  response.status = 400;
  return Stamp(std::move(response));
}

std::optional<std::string_view> OperationFromTarget(std::string_view target) {
  const bool extension =
      target.substr(0, kExtensionPrefix.size()) == kExtensionPrefix ||
      target.substr(0, kStreamsPrefix.size()) == kStreamsPrefix;
  if (!extension && target.substr(0, kTargetPrefix.size()) != kTargetPrefix) {
    return std::nullopt;
  }
  std::string_view operation = target.substr(target.find('.') + 1);
  if (operation.empty() || operation.size() > 64) return std::nullopt;
  for (char c : operation) {
    if (!std::isalnum(static_cast<unsigned char>(c))) return std::nullopt;
  }
  return extension ? target : operation;
}

uint32_t Crc32(std::string_view data) {
  // zlib's CRC-32 (gzip's), computed by ISA-L with carry-less
  // multiplication: every answer carries it, and over a 100-item Query
  // answer it is 17.9x zlib's table-driven one (bench/api/http/response_bench).
  return crc32_gzip_refl(0, reinterpret_cast<const unsigned char*>(data.data()),
                         data.size());
}

std::string NewRequestId() {
  thread_local std::mt19937_64 rng = [] {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device()};
    return std::mt19937_64(seed);
  }();
  // 52 characters of base32hex (0-9, A-V), 5 random bits each, as
  // DynamoDB's ids ("4KBNVRGD25RG1KEO9UT4V3FQDJVV4KQNSO5AEMVJF66Q9ASUAAJG").
  static constexpr char kDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
  std::string id;
  id.reserve(kRequestIdLength);
  uint64_t bits = 0;
  int available = 0;
  while (id.size() < kRequestIdLength) {
    if (available < 5) {
      bits = rng();
      available = 64;
    }
    id += kDigits[bits & 31];
    bits >>= 5;
    available -= 5;
  }
  return id;
}

}  // namespace dynarock::api::http
