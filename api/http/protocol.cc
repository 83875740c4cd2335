// api/http/protocol.cc

#include "api/http/protocol.h"

#include <boost/crc.hpp>
#include <cctype>
#include <random>

#include "api/error.h"
#include "api/http/sigv4.h"
#include "engine/status.h"

namespace dynarock::api::http {
namespace {

constexpr std::string_view kTargetPrefix = "DynamoDB_20120810.";
// dynarock's own operations (api/ops/index_ops.cc): the operation name is
// the whole target, so a DynamoDB target never reaches them.
constexpr std::string_view kExtensionPrefix = "DynamoRock_20251121.";
constexpr std::string_view kJson10 = "application/x-amz-json-1.0";
constexpr std::string_view kJson11 = "application/x-amz-json-1.1";

// The body DynamoDB's front end sends for requests that are not an API call
// (wrong method or Content-Type), with HTTP 404.
constexpr std::string_view kNotAnOperationBody =
    "<UnknownOperationException/>\n";

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

// "application/x-amz-json-1.0; charset=utf-8" -> "application/x-amz-json-1.0"
std::string_view MediaType(std::string_view content_type) {
  return Trim(content_type.substr(0, content_type.find(';')));
}

bool IsJsonMediaType(std::string_view media_type) {
  return media_type.empty() || EqualsIgnoreCase(media_type, kJson10) ||
         EqualsIgnoreCase(media_type, kJson11) ||
         EqualsIgnoreCase(media_type, "application/json");
}

// An error the protocol itself detects, formatted by api/error.
HttpResponse ErrorResponse(const Status& status) {
  Response error = FormatError(status);
  HttpResponse response;
  response.status = error.http_status;
  response.headers.emplace_back("Content-Type", std::string(kJson10));
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
  response.headers.emplace_back("Content-Type", "text/plain");
  response.body = "healthy: ";
  response.body += request.host.value_or("dynarock");
  return response;
}

HttpResponse Preflight(const HttpRequest& request) {
  HttpResponse response;
  response.headers.emplace_back("Access-Control-Allow-Methods", "POST, GET");
  response.headers.emplace_back(
      "Access-Control-Allow-Headers",
      std::string(request.access_control_request_headers.value_or(
          "Content-Type, X-Amz-Target, X-Amz-Date, Authorization, "
          "X-Amz-Security-Token, X-Amz-User-Agent")));
  response.headers.emplace_back("Access-Control-Max-Age", "172800");
  return response;
}

HttpResponse CallOperation(const HttpRequest& request, const Handler& handler) {
  std::string_view media_type = MediaType(request.content_type.value_or(""));
  if (!IsJsonMediaType(media_type)) return NotAnOperation();

  std::optional<std::string_view> operation;
  if (request.target) operation = OperationFromTarget(*request.target);
  if (!operation) {
    return ErrorResponse(Status(ErrorCode::kUnknownOperation, ""));
  }

  CallerIdentity caller;
  if (request.authorization) {
    SigV4ParseResult parsed = ParseAuthorization(*request.authorization);
    if (!parsed.auth) {
      return ErrorResponse(Status(
          ErrorCode::kMissingAuthenticationToken,
          parsed.error == SigV4Error::kNotSigV4
              ? "Request is missing Authentication Token"
              : "Authorization header requires a 'Credential' parameter of "
                "the form AccessKeyId/Date/Region/Service/aws4_request."));
    }
    caller = CallerFromAuthorization(*parsed.auth);
  }

  Response result;
  try {
    result = handler(*operation, request.body, caller);
  } catch (...) {
    return ErrorResponse(Status::Internal("Internal server error"));
  }
  HttpResponse response;
  response.status = result.http_status;
  response.headers.emplace_back(
      "Content-Type",
      std::string(EqualsIgnoreCase(media_type, kJson11) ? kJson11 : kJson10));
  response.body = std::move(result.body);
  return response;
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

HttpResponse HandleRequest(const HttpRequest& request, const Handler& handler) {
  HttpResponse response;
  if (request.method == "POST") {
    response = CallOperation(request, handler);
  } else if (request.method == "GET" || request.method == "HEAD") {
    response = Healthy(request);
  } else if (request.method == "OPTIONS" && request.origin) {
    response = Preflight(request);
  } else {
    response = NotAnOperation();
  }
  if (request.origin) {
    response.headers.emplace_back("Access-Control-Allow-Origin", "*");
    response.headers.emplace_back(
        "Access-Control-Expose-Headers",
        "x-amzn-RequestId, x-amzn-ErrorType, x-amz-crc32");
  }
  return Stamp(std::move(response));
}

HttpResponse PayloadTooLargeResponse() {
  HttpResponse response;
  response.status = 413;
  return Stamp(std::move(response));
}

HttpResponse ServiceUnavailableResponse() {
  // The error name and message of DynamoDB's developer guide (error
  // handling, HTTP status code 5xx), in InternalServerError's namespace.
  HttpResponse response;
  response.status = 503;
  response.headers.emplace_back("Content-Type", std::string(kJson10));
  response.body =
      "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ServiceUnavailable\","
      "\"message\":\"DynamoDB is currently unavailable. (This should be a "
      "temporary state.)\"}";
  return Stamp(std::move(response));
}

HttpResponse BadHttpRequestResponse() {
  HttpResponse response;
  response.status = 400;
  return Stamp(std::move(response));
}

std::optional<std::string_view> OperationFromTarget(std::string_view target) {
  const bool extension =
      target.substr(0, kExtensionPrefix.size()) == kExtensionPrefix;
  if (!extension && target.substr(0, kTargetPrefix.size()) != kTargetPrefix) {
    return std::nullopt;
  }
  std::string_view operation =
      target.substr(extension ? kExtensionPrefix.size() : kTargetPrefix.size());
  if (operation.empty() || operation.size() > 64) return std::nullopt;
  for (char c : operation) {
    if (!std::isalnum(static_cast<unsigned char>(c))) return std::nullopt;
  }
  return extension ? target : operation;
}

uint32_t Crc32(std::string_view data) {
  boost::crc_32_type crc;
  crc.process_bytes(data.data(), data.size());
  return crc.checksum();
}

std::string NewRequestId() {
  thread_local std::mt19937_64 rng = [] {
    std::random_device device;
    std::seed_seq seed{device(), device(), device(), device()};
    return std::mt19937_64(seed);
  }();
  uint64_t hi = rng();
  uint64_t lo = rng();
  // Version 4, variant 10xx, as RFC 4122 random UUIDs.
  hi = (hi & ~0xF000ULL) | 0x4000ULL;
  lo = (lo & ~(0xC000ULL << 48)) | (0x8000ULL << 48);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  id.reserve(36);
  auto append = [&](uint64_t v, int nibbles) {
    for (int i = nibbles - 1; i >= 0; --i) id += kHex[(v >> (4 * i)) & 0xF];
  };
  append(hi >> 32, 8);
  id += '-';
  append(hi >> 16, 4);
  id += '-';
  append(hi, 4);
  id += '-';
  append(lo >> 48, 4);
  id += '-';
  append(lo, 12);
  return id;
}

}  // namespace dynarock::api::http
