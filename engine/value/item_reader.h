// engine/value/item_reader.h
//
// The one reader of the stored item format (item_format.h). DecodeItem and
// DecodeAttributeValue (item_codec.h), EncodedItemSize and VisitEncodedItem
// (encoded_item.h) are each ReadItem or ReadValue with a different visitor,
// so they accept exactly the same bytes by construction: every structural
// check (counts bounded by the bytes left, names strictly ascending, numbers
// normalized, BOOL 0 or 1, no trailing bytes, nesting at most
// kMaxDecodeDepth) is made here, once. Internal to engine/value/.
//
// A visitor V provides:
//   static constexpr bool kUnpackDigits;   // Num() needs n.digits
//   void Name(std::string_view name);      // before an attribute's / map entry's value
//   void Bytes(AttrType type, std::string_view bytes);  // S or B; each SS/BS member as S/B
//   void Num(const EncodedNumber& n, size_t digit_count);  // N, each NS member
//   void Bool(bool b);
//   void Null();
//   void Begin(AttrType type, size_t count);  // L, M, SS, BS, NS; members follow
//   void End(AttrType type);
// Strings point into the encoding, except number digits, which live in a
// buffer valid only during Num(). Recursion is bounded by kMaxDecodeDepth
// (the bytes come from our own disk; validation admits depth 32).

#ifndef DYNAROCK_ENGINE_VALUE_ITEM_READER_H_
#define DYNAROCK_ENGINE_VALUE_ITEM_READER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "engine/status.h"
#include "engine/types.h"
#include "engine/util/coding.h"
#include "engine/value/encoded_item.h"
#include "engine/value/item_format.h"
#include "engine/value/number.h"

namespace dynarock::item_format {

inline Status Corrupt(std::string_view what) {
  std::string message = "item codec: ";
  message += what;
  return Status::Corruption(std::move(message));
}

// The primitives of the format, read from the front of the input, never
// past its end. Every failure is kCorruption.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}

  bool empty() const { return in_.empty(); }
  // What has not been read yet.
  std::string_view rest() const { return in_; }

  Status Version() {
    if (in_.empty()) return Corrupt("empty item");
    if (static_cast<uint8_t>(in_.front()) != kVersion) {
      return Corrupt("unknown item format version");
    }
    in_.remove_prefix(1);
    return Status::OK();
  }

  Status Tag(uint8_t* tag) {
    if (in_.empty()) return Corrupt("truncated value");
    *tag = static_cast<uint8_t>(in_.front());
    in_.remove_prefix(1);
    return Status::OK();
  }

  // A collection count, bounded by the bytes left so that garbage cannot
  // make a reader reserve gigabytes.
  Status Count(size_t min_bytes_each, size_t* count) {
    uint64_t v;
    if (!GetVarint64(&in_, &v)) return Corrupt("truncated count");
    if (v > in_.size() / min_bytes_each) return Corrupt("bad count");
    *count = static_cast<size_t>(v);
    return Status::OK();
  }

  Status Bytes(std::string_view* bytes, std::string_view what) {
    if (!GetLengthPrefixed(&in_, bytes)) return Corrupt(what);
    return Status::OK();
  }

  // A map entry's or attribute's name, strictly after `*previous` (null for
  // the first entry): a duplicate would otherwise be dropped silently.
  Status Name(const std::string_view* previous, std::string_view* name) {
    if (!GetLengthPrefixed(&in_, name)) return Corrupt("truncated name");
    if (previous != nullptr && !StrictlyBefore(*previous, *name)) {
      return Corrupt("names out of order");
    }
    return Status::OK();
  }

  // a < b, deciding on the first bytes without a library call when they
  // differ, as most neighbouring attribute names do.
  static bool StrictlyBefore(std::string_view a, std::string_view b) {
    if (!a.empty() && !b.empty() && a.front() != b.front()) {
      return static_cast<unsigned char>(a.front()) < static_cast<unsigned char>(b.front());
    }
    return a < b;
  }

  Status Bool(bool* b) {
    if (in_.empty()) return Corrupt("truncated BOOL");
    const char c = in_.front();
    in_.remove_prefix(1);
    if (c != 0 && c != 1) return Corrupt("bad BOOL");
    *b = c == 1;
    return Status::OK();
  }

  // A number. Its digits are unpacked into `buffer` (and `out->digits`
  // points there) only when `unpack`; every check is made either way.
  Status Num(bool unpack, char (&buffer)[Number::kMaxDigits],
             EncodedNumber* out, size_t* digit_count) {
    if (in_.empty()) return Corrupt("truncated number");
    const uint8_t head = static_cast<uint8_t>(in_.front());
    in_.remove_prefix(1);
    const bool negative = (head & kNegativeBit) != 0;
    const size_t count = head & ~kNegativeBit;
    *digit_count = count;
    *out = EncodedNumber{};
    if (count == 0) {
      if (negative) return Corrupt("negative zero");
      return Status::OK();
    }
    if (count > static_cast<size_t>(Number::kMaxDigits)) {
      return Corrupt("too many digits");
    }
    int64_t exponent;
    if (!GetSignedVarint64(&in_, &exponent)) return Corrupt("truncated number");
    if (exponent < Number::kMinExponent || exponent > Number::kMaxExponent) {
      return Corrupt("exponent out of range");
    }
    const size_t bytes = (count + 1) / 2;
    if (in_.size() < bytes) return Corrupt("truncated digits");
    int first = -1;
    int last = -1;
    for (size_t i = 0; i < bytes; ++i) {
      const uint8_t b = static_cast<uint8_t>(in_[i]);
      const int high = b >> 4;
      const int low = b & 0x0f;
      if (high > 9 || low > 9) return Corrupt("bad digit");
      if (i == 0) first = high;
      const bool has_low = 2 * i + 1 < count;
      if (!has_low && low != 0) return Corrupt("bad digit padding");
      last = has_low ? low : high;
      if (unpack) {
        buffer[2 * i] = static_cast<char>('0' + high);
        if (has_low) buffer[2 * i + 1] = static_cast<char>('0' + low);
      }
    }
    in_.remove_prefix(bytes);
    if (first == 0 || last == 0) return Corrupt("number not normalized");
    out->negative = negative;
    out->exponent = static_cast<int>(exponent);
    if (unpack) out->digits = std::string_view(buffer, count);
    return Status::OK();
  }

 private:
  std::string_view in_;
};

// Reads one value (tag included) from the front of `r` into `v`.
template <typename V>
Status ReadValue(Reader& r, int depth, V& v) {
  if (depth > kMaxDecodeDepth) return Corrupt("nesting too deep");
  uint8_t tag = 0;
  DR_RETURN_IF_ERROR(r.Tag(&tag));
  const AttrType type = static_cast<AttrType>(tag);
  char digits[Number::kMaxDigits];
  switch (type) {
    case AttrType::kS:
    case AttrType::kB: {
      std::string_view bytes;
      DR_RETURN_IF_ERROR(r.Bytes(&bytes, "truncated bytes"));
      v.Bytes(type, bytes);
      return Status::OK();
    }
    case AttrType::kN: {
      EncodedNumber n;
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Num(V::kUnpackDigits, digits, &n, &count));
      v.Num(n, count);
      return Status::OK();
    }
    case AttrType::kBool: {
      bool b = false;
      DR_RETURN_IF_ERROR(r.Bool(&b));
      v.Bool(b);
      return Status::OK();
    }
    case AttrType::kNull:
      v.Null();
      return Status::OK();
    case AttrType::kL: {
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Count(/*min_bytes_each=*/1, &count));
      v.Begin(type, count);
      for (size_t i = 0; i < count; ++i) {
        DR_RETURN_IF_ERROR(ReadValue(r, depth + 1, v));
      }
      v.End(type);
      return Status::OK();
    }
    case AttrType::kM: {
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Count(/*min_bytes_each=*/2, &count));
      v.Begin(type, count);
      std::string_view previous;
      for (size_t i = 0; i < count; ++i) {
        std::string_view name;
        DR_RETURN_IF_ERROR(r.Name(i == 0 ? nullptr : &previous, &name));
        v.Name(name);
        DR_RETURN_IF_ERROR(ReadValue(r, depth + 1, v));
        previous = name;
      }
      v.End(type);
      return Status::OK();
    }
    case AttrType::kSS:
    case AttrType::kBS: {
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Count(/*min_bytes_each=*/1, &count));
      v.Begin(type, count);
      const AttrType member = type == AttrType::kSS ? AttrType::kS : AttrType::kB;
      for (size_t i = 0; i < count; ++i) {
        std::string_view bytes;
        DR_RETURN_IF_ERROR(r.Bytes(&bytes, "truncated set member"));
        v.Bytes(member, bytes);
      }
      v.End(type);
      return Status::OK();
    }
    case AttrType::kNS: {
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Count(/*min_bytes_each=*/1, &count));
      v.Begin(type, count);
      for (size_t i = 0; i < count; ++i) {
        EncodedNumber n;
        size_t digit_count = 0;
        DR_RETURN_IF_ERROR(r.Num(V::kUnpackDigits, digits, &n, &digit_count));
        v.Num(n, digit_count);
      }
      v.End(type);
      return Status::OK();
    }
  }
  return Corrupt("unknown type tag");
}

// Reads a whole item: the version, then Name + value per attribute, and
// nothing after.
template <typename V>
Status ReadItem(std::string_view encoded, V& v) {
  Reader r(encoded);
  DR_RETURN_IF_ERROR(r.Version());
  size_t count = 0;
  DR_RETURN_IF_ERROR(r.Count(/*min_bytes_each=*/2, &count));
  std::string_view previous;
  for (size_t i = 0; i < count; ++i) {
    std::string_view name;
    DR_RETURN_IF_ERROR(r.Name(i == 0 ? nullptr : &previous, &name));
    v.Name(name);
    DR_RETURN_IF_ERROR(ReadValue(r, /*depth=*/1, v));
    previous = name;
  }
  if (!r.empty()) return Corrupt("trailing bytes after item");
  return Status::OK();
}

}  // namespace dynarock::item_format

#endif  // DYNAROCK_ENGINE_VALUE_ITEM_READER_H_
