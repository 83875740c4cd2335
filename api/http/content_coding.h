// api/http/content_coding.h
//
// The HTTP content codings DynamoDB speaks, with zlib: gzip (RFC 1952) and
// deflate (the zlib format, RFC 1950, as RFC 9110 defines "deflate").
// Request bodies arrive compressed when an SDK enables request compression
// (Content-Encoding); responses go out compressed when the client's
// Accept-Encoding allows it and the body is at least
// kMinCompressedResponseBytes, as DynamoDB answers.
//
// Decoding is bounded: it never produces more than the caller's limit (the
// 16 MB request limit applies to the decoded body, so a small "gzip bomb"
// is refused without being inflated), and it asks the caller before each
// growth of its output, so a server can count the bytes against its memory
// budget. Pure functions; thread-safe; nothing here throws.

#ifndef DYNAROCK_API_HTTP_CONTENT_CODING_H_
#define DYNAROCK_API_HTTP_CONTENT_CODING_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace dynarock::api::http {

enum class ContentCoding { kIdentity, kGzip, kDeflate };

// "gzip" or "deflate" (the Content-Encoding value); "" for kIdentity.
std::string_view ContentCodingName(ContentCoding coding);

// The coding a request's Content-Encoding names: none (or an empty value)
// and "identity" are kIdentity; "gzip" and "deflate" (any case, spaces
// around) the two codings. nullopt for anything else ("br", "x-gzip",
// "gzip, deflate", garbage), which DynamoDB answers with HTTP 500.
std::optional<ContentCoding> ParseContentEncoding(
    std::optional<std::string_view> value);

enum class DecodeError {
  kNone,
  // Not data of the coding: bad header, bad data, truncated, empty.
  kCorrupt,
  // The decoded body would pass `max_bytes`.
  kTooLarge,
  // `grow` refused more memory.
  kRefused,
};

struct DecodedBody {
  std::string body;  // empty unless error is kNone
  DecodeError error = DecodeError::kNone;
};

// Decodes `encoded` as DynamoDB (a Java service) decodes it:
//  - kGzip: one member or several concatenated ones (RFC 1952); bytes after
//    a member that do not begin another gzip header are ignored, as Java's
//    GZIPInputStream ignores them (so does DynamoDB: a gzip body followed
//    by junk is served). Each member's CRC-32 and length are checked.
//  - kDeflate: one zlib stream; anything after it is ignored.
//  - kIdentity: `encoded` as is (subject to max_bytes).
// An empty body is kCorrupt for both codings. Before the output grows to n
// bytes, grow(n) is called (when set); false stops with kRefused.
DecodedBody DecodeBody(ContentCoding coding, std::string_view encoded,
                       size_t max_bytes,
                       const std::function<bool(size_t)>& grow = {});

// DynamoDB compresses a response only from this size on (its uncompressed
// body, in bytes).
inline constexpr size_t kMinCompressedResponseBytes = 4096;

// The coding to answer with, given the request's Accept-Encoding (all its
// values, joined with commas) and the size of the uncompressed body.
// kIdentity below kMinCompressedResponseBytes. Otherwise, as DynamoDB reads
// the header (alternator's test_compressed_response.py, run against it):
// comma-separated entries "coding;params", coding names in any case;
// "gzip", "deflate" and "*" count, "identity" and unknown names are ignored;
// an entry's quality is its first parameter containing "q=" whose rest
// parses as a number (clamped to [0, 1]), else 1; a repeated coding is
// ignored unless its earlier quality was 0. The entry with the highest
// quality wins (the earliest on a tie, except that a coding named after
// "*" with the same quality wins over it); "*" means the first of gzip,
// deflate not named, else the named one of higher quality; quality 0 is
// never chosen.
ContentCoding ChooseResponseCoding(std::string_view accept_encoding,
                                   size_t body_bytes);

// `body` compressed with `coding` at zlib's default level (6, as Java's
// GZIPOutputStream). nullopt only if zlib fails (out of memory); then the
// body is sent as is. REQUIRES: coding != kIdentity.
std::optional<std::string> EncodeBody(ContentCoding coding,
                                      std::string_view body);

}  // namespace dynarock::api::http

#endif  // DYNAROCK_API_HTTP_CONTENT_CODING_H_
