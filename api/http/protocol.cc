// api/http/protocol.cc

#include "api/http/protocol.h"

#include <isa-l/crc.h>

#include <cctype>
#include <chrono>
#include <random>
#include <variant>

#include "api/dispatch.h"
#include "api/error.h"
#include "api/http/content_coding.h"
#include "api/http/header_text.h"
#include "api/http/sigv4.h"
#include "api/json_codec.h"
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

HttpResponse CallOperation(const HttpRequest& request, const Handler& handler,
                           const ProtocolOptions& options) {
  std::string_view media_type = MediaType(request.content_type.value_or(""));
  // A body needs a JSON Content-Type; an empty one needs none (whatever
  // type it names, as DynamoDB: dynalite's index.js).
  if (PathOf(request.path) != "/" ||
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
