// tools/http/request_signer.h
//
// The client side of AWS Signature Version 4: the Authorization header an
// SDK would send for a request, so that a tool's requests are accepted by
// Amazon DynamoDB and by `dynarock serve --auth-file`. The canonical
// request, string to sign and signing key are the server's own
// (api/http/sigv4.h), so signer and verifier cannot drift apart.
//
// Pure functions; thread-safe.

#ifndef DYNAROCK_TOOLS_HTTP_REQUEST_SIGNER_H_
#define DYNAROCK_TOOLS_HTTP_REQUEST_SIGNER_H_

#include <string>
#include <string_view>
#include <vector>

#include "api/http/sigv4.h"

namespace dynarock::tools::http {

struct SigningKey {
  std::string_view access_key_id;
  std::string_view secret_access_key;
  std::string_view region;   // "us-east-1"
  std::string_view service;  // "dynamodb"
};

// "AWS4-HMAC-SHA256 Credential=<key>/<date>/<region>/<service>/aws4_request,
// SignedHeaders=<h1;h2>, Signature=<hex>" for `request` signed at `amz_date`
// ("20150830T123600Z"), covering `signed_headers` (lower case, sorted; every
// one must be among the request's headers, and "host" should be).
std::string SigV4Authorization(const api::http::SignedRequest& request,
                               const std::vector<std::string>& signed_headers,
                               const SigningKey& key, std::string_view amz_date);

// `unix_seconds` as ISO-8601 basic UTC ("20150830T123600Z").
std::string AmzDate(int64_t unix_seconds);

}  // namespace dynarock::tools::http

#endif  // DYNAROCK_TOOLS_HTTP_REQUEST_SIGNER_H_
