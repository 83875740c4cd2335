#include "engine/util/coding.h"

namespace dynarock {

void PutVarint64(std::string* out, uint64_t v) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

void PutFixed32BE(std::string* out, uint32_t v) {
  char buf[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16),
                 static_cast<char>(v >> 8), static_cast<char>(v)};
  out->append(buf, 4);
}

void PutFixed64BE(std::string* out, uint64_t v) {
  PutFixed32BE(out, static_cast<uint32_t>(v >> 32));
  PutFixed32BE(out, static_cast<uint32_t>(v));
}

void PutLengthPrefixed(std::string* out, std::string_view s) {
  PutVarint64(out, s.size());
  out->append(s);
}

void PutSignedVarint64(std::string* out, int64_t v) {
  PutVarint64(out, (static_cast<uint64_t>(v) << 1) ^
                       static_cast<uint64_t>(v >> 63));
}

void PutOptionalString(std::string* out, const std::optional<std::string>& s) {
  out->push_back(s ? 1 : 0);
  if (s) PutLengthPrefixed(out, *s);
}

void PutOptionalSigned(std::string* out, const std::optional<int64_t>& v) {
  out->push_back(v ? 1 : 0);
  if (v) PutSignedVarint64(out, *v);
}

bool GetVarint64Slow(std::string_view* in, uint64_t* v) {
  uint64_t result = 0;
  for (int shift = 0; shift <= 63 && !in->empty(); shift += 7) {
    uint64_t byte = static_cast<unsigned char>(in->front());
    in->remove_prefix(1);
    result |= (byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) {
      *v = result;
      return true;
    }
  }
  return false;
}

uint32_t DecodeFixed32BE(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) |
         (uint32_t{u[2]} << 8) | uint32_t{u[3]};
}

uint64_t DecodeFixed64BE(const char* p) {
  return (uint64_t{DecodeFixed32BE(p)} << 32) | DecodeFixed32BE(p + 4);
}

bool GetFixed32BE(std::string_view* in, uint32_t* v) {
  if (in->size() < 4) return false;
  *v = DecodeFixed32BE(in->data());
  in->remove_prefix(4);
  return true;
}

bool GetFixed64BE(std::string_view* in, uint64_t* v) {
  if (in->size() < 8) return false;
  *v = DecodeFixed64BE(in->data());
  in->remove_prefix(8);
  return true;
}

bool GetSignedVarint64(std::string_view* in, int64_t* v) {
  uint64_t u;
  if (!GetVarint64(in, &u)) return false;
  *v = static_cast<int64_t>((u >> 1) ^ (~(u & 1) + 1));
  return true;
}

}  // namespace dynarock
