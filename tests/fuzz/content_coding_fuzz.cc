// tests/fuzz/content_coding_fuzz.cc
//
// libFuzzer target for the HTTP content codings (api/http/content_coding.h):
// the decoder of compressed request bodies, which reads whatever a client
// sends, and the Accept-Encoding reader. The input's first byte picks the
// coding (gzip or deflate) and the decoded-size limit; the rest is the body.
// Checked: decoding stays within its limit and never asks for more than it
// (a gzip bomb is refused, not inflated); whatever decodes, re-encoded by
// EncodeBody, decodes back to itself; Accept-Encoding never picks a coding
// for a small body. Any crash or sanitizer report is a finding.
//
// Build: clang, -DDYNAROCK_BUILD_FUZZERS=ON (see tests/fuzz/CMakeLists.txt).
// Run:   ./content_coding_fuzz -max_total_time=60 corpus_dir \
//            ../tests/fuzz/corpus/content_coding

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "api/http/content_coding.h"

namespace {

using dynarock::api::http::ChooseResponseCoding;
using dynarock::api::http::ContentCoding;
using dynarock::api::http::DecodeBody;
using dynarock::api::http::DecodedBody;
using dynarock::api::http::DecodeError;
using dynarock::api::http::EncodeBody;
using dynarock::api::http::kMinCompressedResponseBytes;
using dynarock::api::http::ParseContentEncoding;

void Check(bool ok) {
  if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const ContentCoding coding =
      (data[0] & 1) != 0 ? ContentCoding::kGzip : ContentCoding::kDeflate;
  // Limits from 1 byte to 1 MB, small ones often, so that the limit is met
  // at every point of the output.
  const size_t limit = (data[0] & 0x80) != 0 ? size_t{1} << 20
                                             : 1 + (data[0] >> 1) * 97;
  const std::string_view body(reinterpret_cast<const char*>(data) + 1,
                              size - 1);

  size_t largest_asked = 0;
  DecodedBody decoded = DecodeBody(coding, body, limit, [&](size_t n) {
    Check(n > largest_asked);  // growth only
    largest_asked = n;
    return true;
  });
  Check(largest_asked <= limit + 1);
  Check(decoded.error != DecodeError::kRefused);
  if (decoded.error == DecodeError::kNone) {
    Check(decoded.body.size() <= limit);
    const std::optional<std::string> again = EncodeBody(coding, decoded.body);
    Check(again.has_value());
    const DecodedBody round = DecodeBody(coding, *again, limit);
    Check(round.error == DecodeError::kNone && round.body == decoded.body);
  } else {
    Check(decoded.body.empty());
  }

  // The same bytes as header values.
  (void)ParseContentEncoding(body);
  Check(ChooseResponseCoding(body, kMinCompressedResponseBytes - 1) ==
        ContentCoding::kIdentity);
  (void)ChooseResponseCoding(body, kMinCompressedResponseBytes);
  return 0;
}
