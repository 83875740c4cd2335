// engine/util/coding.h
//
// Byte-level encoding primitives shared by every on-disk format (item codec,
// key codec, catalog records): varints, fixed-width big-endian integers and
// length-prefixed strings. Decoders read from the front of a string_view and
// advance it; they return false (never read past the end) on short input.

#ifndef DYNAROCK_ENGINE_UTIL_CODING_H_
#define DYNAROCK_ENGINE_UTIL_CODING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace dynarock {

void PutVarint64(std::string* out, uint64_t v);
void PutFixed32BE(std::string* out, uint32_t v);
void PutFixed64BE(std::string* out, uint64_t v);
// Varint length, then the bytes.
void PutLengthPrefixed(std::string* out, std::string_view s);
// Zigzag-encoded signed varint.
void PutSignedVarint64(std::string* out, int64_t v);
// A presence byte (0 or 1), then the value if present: what RecordReader's
// OptionalString / OptionalSigned read.
void PutOptionalString(std::string* out, const std::optional<std::string>& s);
void PutOptionalSigned(std::string* out, const std::optional<int64_t>& v);

// GetVarint64 past its one-byte case.
bool GetVarint64Slow(std::string_view* in, uint64_t* v);

// Inline for its common case: the lengths and counts of stored items are
// almost always under 128, one byte, and every read of an item reads
// several per attribute.
inline bool GetVarint64(std::string_view* in, uint64_t* v) {
  if (!in->empty() && (static_cast<unsigned char>(in->front()) & 0x80) == 0) {
    *v = static_cast<unsigned char>(in->front());
    in->remove_prefix(1);
    return true;
  }
  return GetVarint64Slow(in, v);
}

inline bool GetLengthPrefixed(std::string_view* in, std::string_view* s) {
  uint64_t len;
  if (!GetVarint64(in, &len) || len > in->size()) return false;
  *s = in->substr(0, len);
  in->remove_prefix(len);
  return true;
}

bool GetFixed32BE(std::string_view* in, uint32_t* v);
bool GetFixed64BE(std::string_view* in, uint64_t* v);
bool GetSignedVarint64(std::string_view* in, int64_t* v);

// A cursor over a versioned record of the Put* primitives (catalog records,
// stream descriptors). Any short or bad read latches `ok` to false and
// yields zero / empty from then on, so a decoder reads every field and
// checks `ok` once at the end.
struct RecordReader {
  explicit RecordReader(std::string_view bytes) : in(bytes) {}

  uint64_t Varint() {
    uint64_t v = 0;
    ok = ok && GetVarint64(&in, &v);
    return v;
  }
  int64_t Signed() {
    int64_t v = 0;
    ok = ok && GetSignedVarint64(&in, &v);
    return v;
  }
  std::string String() {
    std::string_view s;
    ok = ok && GetLengthPrefixed(&in, &s);
    return std::string(ok ? s : std::string_view());
  }
  uint8_t Byte() {
    if (!ok || in.empty()) {
      ok = false;
      return 0;
    }
    const uint8_t b = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    return b;
  }
  std::optional<std::string> OptionalString() {
    if (Byte() == 0) return std::nullopt;
    return String();
  }
  std::optional<int64_t> OptionalSigned() {
    if (Byte() == 0) return std::nullopt;
    return Signed();
  }
  // A count of elements of at least one byte each, bounded by the bytes
  // left, so that corrupt input cannot make a decoder allocate unboundedly.
  uint64_t Count() {
    const uint64_t n = Varint();
    if (n > in.size()) ok = false;
    return ok ? n : 0;
  }

  std::string_view in;
  bool ok = true;
};

// The writer of what RecordReader reads: appends the Put* primitives to a
// string, so an encoder names each field's kind once, as its decoder does.
// A record starts with its version byte (Byte(kVersion)); fields are only
// ever appended.
class RecordWriter {
 public:
  explicit RecordWriter(std::string* out) : out_(out) {}

  void Varint(uint64_t v) { PutVarint64(out_, v); }
  void Signed(int64_t v) { PutSignedVarint64(out_, v); }
  void String(std::string_view s) { PutLengthPrefixed(out_, s); }
  // One byte: a version, a flag set or a persisted enum's number.
  template <typename T>
    requires(std::is_enum_v<T> || std::is_integral_v<T>)
  void Byte(T v) {
    out_->push_back(static_cast<char>(v));
  }
  void Bool(bool b) { out_->push_back(b ? 1 : 0); }
  void OptionalString(const std::optional<std::string>& s) { PutOptionalString(out_, s); }
  void OptionalSigned(const std::optional<int64_t>& v) { PutOptionalSigned(out_, v); }

 private:
  std::string* out_;
};

uint32_t DecodeFixed32BE(const char* p);
uint64_t DecodeFixed64BE(const char* p);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_UTIL_CODING_H_
