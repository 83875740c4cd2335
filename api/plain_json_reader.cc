#include "api/plain_json_reader.h"

#include <cstdint>

#include "api/json_bytes.h"

namespace dynarock::api::plain_json_internal {

namespace {

// The value of the four hex digits at `text[i]`, or -1.
int32_t HexQuad(std::string_view text, size_t i) {
  if (text.size() - i < 4) return -1;
  int32_t v = 0;
  for (size_t k = i; k < i + 4; ++k) {
    const int d = HexDigit(text[k]);
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

// Decodes the escape whose backslash is at `*i`, as nlohmann does: the
// eight one-letter escapes, \uXXXX, and a surrogate pair only as a high
// \u escape followed at once by a low one.
bool ReadEscape(std::string_view text, size_t* i, std::string* out) {
  size_t k = *i + 1;
  if (k == text.size()) return false;
  const char c = text[k++];
  switch (c) {
    case '"': out->push_back('"'); break;
    case '\\': out->push_back('\\'); break;
    case '/': out->push_back('/'); break;
    case 'b': out->push_back('\b'); break;
    case 'f': out->push_back('\f'); break;
    case 'n': out->push_back('\n'); break;
    case 'r': out->push_back('\r'); break;
    case 't': out->push_back('\t'); break;
    case 'u': {
      const int32_t first = HexQuad(text, k);
      if (first < 0) return false;
      k += 4;
      uint32_t cp = static_cast<uint32_t>(first);
      if (cp >= 0xdc00 && cp <= 0xdfff) return false;  // a low surrogate first
      if (cp >= 0xd800 && cp <= 0xdbff) {
        if (text.size() - k < 2 || text[k] != '\\' || text[k + 1] != 'u') {
          return false;
        }
        const int32_t second = HexQuad(text, k + 2);
        if (second < 0xdc00 || second > 0xdfff) return false;
        k += 6;
        cp = 0x10000 + ((cp - 0xd800) << 10) +
             (static_cast<uint32_t>(second) - 0xdc00);
      }
      AppendUtf8(cp, out);
      break;
    }
    default:
      return false;
  }
  *i = k;
  return true;
}

}  // namespace

bool ReadString(std::string_view text, size_t* i, std::string* out) {
  out->clear();
  size_t k = *i;
  while (true) {
    const size_t run_end = PlainJsonRunEnd(text, k);
    out->append(text.data() + k, run_end - k);
    k = run_end;
    if (k == text.size()) return false;  // no closing quote
    const uint8_t c = static_cast<uint8_t>(text[k]);
    if (c == '"') {
      *i = k + 1;
      return true;
    }
    if (c == '\\') {
      if (!ReadEscape(text, &k, out)) return false;
    } else if (c >= 0x80) {
      const size_t n = Utf8SequenceLength(text, k);
      if (n == 0) return false;
      out->append(text.data() + k, n);
      k += n;
    } else {
      return false;  // a control character
    }
  }
}

}  // namespace dynarock::api::plain_json_internal
