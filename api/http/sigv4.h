// api/http/sigv4.h
//
// Reads the AWS Signature Version 4 Authorization header that every AWS SDK
// sends ("AWS4-HMAC-SHA256 Credential=AKID/20250101/us-east-1/dynamodb/
// aws4_request, SignedHeaders=host;x-amz-date, Signature=ab12..."). By
// default dynarock accepts any credentials, as DynamoDB Local does: the
// header only names the caller (access key id + region select a namespace of
// tables). In strict mode (`serve --auth-file`), VerifySigV4 checks the
// signature against known secrets, with DynamoDB's errors in DynamoDB's
// order (HMAC-SHA256 and SHA-256 from OpenSSL).
//
// Pure functions of their input; thread-safe. Any input, however long or
// malformed, yields a result: nothing here throws or reads out of bounds.

#ifndef DYNAROCK_API_HTTP_SIGV4_H_
#define DYNAROCK_API_HTTP_SIGV4_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "api/client.h"
#include "engine/status.h"

namespace dynarock::api::http {

// The parts of an Authorization header: views into the header parsed,
// valid as long as it is (every request parses one, so nothing is copied).
struct SigV4Authorization {
  std::string_view algorithm;                    // "AWS4-HMAC-SHA256"
  std::string_view access_key_id;                // "AKIDEXAMPLE"
  std::string_view date;                         // "20250101"
  std::string_view region;                       // "us-east-1"
  std::string_view service;                      // "dynamodb"
  std::string_view terminator;                   // "aws4_request"
  std::vector<std::string_view> signed_headers;  // "host", "x-amz-date", ...
  std::string_view signature;                    // hex, unchecked
};

// Why a header could not be used (the server answers both with
// MissingAuthenticationTokenException, with different messages).
enum class SigV4Error {
  // Not an "AWS4-..." header at all (empty, another scheme, garbage).
  kNotSigV4,
  // "AWS4-..." but without a Credential=, or with one that is not
  // key/date/region/service/terminator.
  kIncomplete,
};

struct SigV4ParseResult {
  std::optional<SigV4Authorization> auth;    // set on success
  SigV4Error error = SigV4Error::kNotSigV4;  // meaningful only without auth
};

// Parses `header`, the value of an Authorization header. Entries may be
// separated by commas and/or spaces, in any order; unknown entries are
// ignored. Trailing slashes of the Credential are ignored. Fields longer
// than the limits below make the header kIncomplete.
SigV4ParseResult ParseAuthorization(std::string_view header);

// Longest access key id and region accepted; AWS's are far shorter.
inline constexpr size_t kMaxAccessKeyIdLength = 128;
inline constexpr size_t kMaxRegionLength = 64;

// The caller named by a parsed header.
CallerIdentity CallerFromAuthorization(const SigV4Authorization& auth);

// --- Strict mode: verifying signatures ----------------------------------

// The credentials a strict server accepts: access key id -> secret access
// key. Immutable once built; shared by every worker thread.
using SigV4Secrets = std::map<std::string, std::string, std::less<>>;

// Parses an auth file. Two forms, mixed freely:
//   - the AWS shared credentials file (~/.aws/credentials): within each
//     [section], `aws_access_key_id = KEY` and `aws_secret_access_key = S`;
//   - lines `KEY SECRET` (or `KEY:SECRET`).
// Blank lines and lines starting with '#' or ';' are ignored.
// Errors: kValidation (the message names the line) for a line of neither
// form, a section with a key id but no secret (or the reverse), or a file
// with no credentials at all.
Result<SigV4Secrets> ParseSigV4Secrets(std::string_view text);

// The parts of an HTTP request a signature covers. Views into the caller's
// buffers.
struct SignedRequest {
  std::string_view method;  // "POST"
  std::string_view target;  // the request-target: path and query
  // Every header as received, names in any case, repeated names allowed.
  std::vector<std::pair<std::string_view, std::string_view>> headers;
  std::string_view body;
};

// How far a request's X-Amz-Date may be from the server's clock, either way
// (DynamoDB: 5 minutes).
inline constexpr int64_t kMaxClockSkewSeconds = 5 * 60;

// Verifies `request`'s SigV4 Authorization header against `secrets` at
// `now_unix_seconds`, checking in DynamoDB's order:
//  - no Authorization header, or not "AWS4-..." ->
//    kMissingAuthenticationToken "Request is missing Authentication Token"
//  - missing Credential / Signature / SignedHeaders, or neither X-Amz-Date
//    nor Date -> kIncompleteSignature "Authorization header requires ..."
//  - a date not in ISO-8601 basic format -> kIncompleteSignature
//  - more than kMaxClockSkewSeconds old or ahead -> kInvalidSignature
//    "Signature expired: ... is now earlier than ... (... - 5 min.)" or
//    "Signature not yet current: ... is still later than ... (... + 5 min.)"
//  - Host not signed -> kInvalidSignature
//  - an algorithm other than AWS4-HMAC-SHA256 -> kIncompleteSignature
//  - a Credential not of 5 parts -> kIncompleteSignature
//  - a scope with the wrong service, terminator or date -> kInvalidSignature
//  - an unknown access key id, or any X-Amz-Security-Token ->
//    kUnrecognizedClient "The security token included in the request is
//    invalid."
//  - a signature that does not match -> kInvalidSignature "The request
//    signature we calculated does not match the signature you provided. ..."
// On success returns the caller (access key id and region of the scope).
Result<CallerIdentity> VerifySigV4(const SignedRequest& request,
                                   const SigV4Secrets& secrets,
                                   int64_t now_unix_seconds);

// The steps of the signature, exposed for tests (AWS's SigV4 test suite).
// The canonical request of `request` for the lower-case `signed_headers`
// (in the order given, which a valid header lists sorted).
std::string CanonicalRequest(const SignedRequest& request,
                             const std::vector<std::string>& signed_headers);
// "AWS4-HMAC-SHA256\n<amz_date>\n<scope>\n<hex sha256(canonical)>".
std::string StringToSign(std::string_view amz_date, std::string_view scope,
                         std::string_view canonical_request);
// The hex HMAC-SHA256 signature of `string_to_sign` with the key derived
// from `secret` for `date`/`region`/`service`.
std::string SignatureOf(std::string_view secret, std::string_view date,
                        std::string_view region, std::string_view service,
                        std::string_view string_to_sign);
// Lower-case hex SHA-256 of `data`.
std::string Sha256Hex(std::string_view data);

}  // namespace dynarock::api::http

#endif  // DYNAROCK_API_HTTP_SIGV4_H_
