// api/http/sigv4.h
//
// Reads the AWS Signature Version 4 Authorization header that every AWS SDK
// sends ("AWS4-HMAC-SHA256 Credential=AKID/20250101/us-east-1/dynamodb/
// aws4_request, SignedHeaders=host;x-amz-date, Signature=ab12..."). dynarock
// accepts any credentials, as DynamoDB Local does: the header only names the
// caller (access key id + region select a namespace of tables). Signatures
// are parsed but not verified.
//
// Pure functions of their input; thread-safe. Any input, however long or
// malformed, yields a result: nothing here throws or reads out of bounds.

#ifndef DYNAROCK_API_HTTP_SIGV4_H_
#define DYNAROCK_API_HTTP_SIGV4_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/client.h"

namespace dynarock::api::http {

// The parts of an Authorization header.
struct SigV4Authorization {
  std::string algorithm;                    // "AWS4-HMAC-SHA256"
  std::string access_key_id;                // "AKIDEXAMPLE"
  std::string date;                         // "20250101"
  std::string region;                       // "us-east-1"
  std::string service;                      // "dynamodb"
  std::string terminator;                   // "aws4_request"
  std::vector<std::string> signed_headers;  // "host", "x-amz-date", ...
  std::string signature;                    // hex, unchecked
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

}  // namespace dynarock::api::http

#endif  // DYNAROCK_API_HTTP_SIGV4_H_
