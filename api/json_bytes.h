// api/json_bytes.h
//
// The bytes of JSON text, as nlohmann reads and writes them: which bytes a
// string carries as they are, which byte sequences are UTF-8, and the
// pieces of an escape (hex digits, a code point as UTF-8). Shared by the
// writer of items as JSON (encoded_item_json.cc), the one-pass reader of
// requests (plain_json_reader.h), which both walk strings in runs of plain
// bytes instead of a byte at a time, and the Ion text reader
// (transfer/ion_text.cc), whose escapes decode the same way.
//
// Stateless functions; thread-safe.

#ifndef DYNAROCK_API_JSON_BYTES_H_
#define DYNAROCK_API_JSON_BYTES_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace dynarock::api {

// Bytes a JSON string holds as they are, unescaped: printable ASCII but '"'
// and '\\' (0x7f included, as nlohmann reads and writes it). A table,
// because the test runs on every byte of every string.
inline constexpr std::array<bool, 256> kPlainJsonByte = [] {
  std::array<bool, 256> plain{};
  for (int c = 0x20; c < 0x80; ++c) plain[c] = c != '"' && c != '\\';
  return plain;
}();

// Whether any of the 8 bytes of `w` is not plain (the bit tricks of
// https://graphics.stanford.edu/~seander/bithacks.html: a byte below 0x20,
// at or above 0x80, '"' or '\\'). Exact for "any"; which byte it is, the
// table tells.
inline bool AnyNotPlainJsonByte(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  const auto has_zero = [](uint64_t x) { return (x - kOnes) & ~x & kHigh; };
  const uint64_t below_space = (w - kOnes * 0x20) & ~w & kHigh;
  return ((w & kHigh) | below_space | has_zero(w ^ (kOnes * '"')) |
          has_zero(w ^ (kOnes * '\\'))) != 0;
}

// The end of the run of plain bytes of `s` that starts at `i` (i <= size).
inline size_t PlainJsonRunEnd(std::string_view s, size_t i) {
  while (i + 8 <= s.size()) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    if (AnyNotPlainJsonByte(w)) break;
    i += 8;
  }
  while (i < s.size() && kPlainJsonByte[static_cast<uint8_t>(s[i])]) ++i;
  return i;
}

// The length of the well-formed UTF-8 sequence (RFC 3629, Table 3-7 of the
// Unicode standard: no overlongs, surrogates or code points past U+10FFFF)
// that starts `s` at `i` (i < size), or 0 when there is none. nlohmann's
// reader accepts exactly these in a string.
size_t Utf8SequenceLength(std::string_view s, size_t i);

// Appends code point `cp` (at most U+10FFFF, not a surrogate: callers check)
// as UTF-8.
void AppendUtf8(uint32_t cp, std::string* out);

// The value of hex digit `c` (either case), or -1.
inline int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace dynarock::api

#endif  // DYNAROCK_API_JSON_BYTES_H_
