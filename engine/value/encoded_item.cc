#include "engine/value/encoded_item.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "engine/util/coding.h"
#include "engine/value/item_format.h"
#include "engine/value/number.h"

namespace dynarock {

namespace {

// The format is item_format.h's; the checks below mirror item_codec.cc's
// Decoder, so that a buffer is accepted here exactly when DecodeItem
// accepts it (tests/engine/value/encoded_item_test holds the two together).
using item_format::kMaxDecodeDepth;
using item_format::kNegativeBit;

// item_size.cc's rules.
constexpr int64_t kNullOrBoolBytes = 1;
constexpr int64_t kDocumentOverheadBytes = 3;
constexpr int64_t kDocumentElementOverheadBytes = 1;

Status Corrupt(std::string_view what) {
  std::string message = "item codec: ";
  message += what;
  return Status::Corruption(std::move(message));
}

// The primitives of the format, read from the front of `in_`, never past
// its end.
class Reader {
 public:
  explicit Reader(std::string_view in) : in_(in) {}

  bool empty() const { return in_.empty(); }

  Status Version() {
    if (in_.empty()) return Corrupt("empty item");
    if (static_cast<uint8_t>(in_.front()) != item_format::kVersion) {
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

  // A collection count, bounded by the bytes left (as the Decoder does).
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

  // A map entry's or attribute's name, strictly after `*previous` (unset
  // for the first entry).
  Status Name(const std::string_view* previous, std::string_view* name) {
    if (!GetLengthPrefixed(&in_, name)) return Corrupt("truncated name");
    if (previous != nullptr && !(*previous < *name)) {
      return Corrupt("names out of order");
    }
    return Status::OK();
  }

  Status Bool(bool* b) {
    if (in_.empty()) return Corrupt("truncated BOOL");
    const char c = in_.front();
    in_.remove_prefix(1);
    if (c != 0 && c != 1) return Corrupt("bad BOOL");
    *b = c == 1;
    return Status::OK();
  }

  // A number; its digits are unpacked into `buffer` only when `unpack`.
  // Every check of the Decoder's is made either way.
  Status Number(bool unpack, char (&buffer)[Number::kMaxDigits],
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

// DynamoDB's size of a number of `digit_count` significant digits
// (item_size.cc's NumberSize).
int64_t NumberSize(size_t digit_count, bool negative) {
  return static_cast<int64_t>((digit_count + 1) / 2) + 1 + (negative ? 1 : 0);
}

// Sizes one value (tag included) from the front of the reader.
Status ValueSize(Reader& r, int depth, int64_t* size) {
  if (depth > kMaxDecodeDepth) return Corrupt("nesting too deep");
  uint8_t tag = 0;
  DR_RETURN_IF_ERROR(r.Tag(&tag));
  char unused[Number::kMaxDigits];
  switch (static_cast<AttrType>(tag)) {
    case AttrType::kS:
    case AttrType::kB: {
      std::string_view bytes;
      DR_RETURN_IF_ERROR(r.Bytes(&bytes, "truncated bytes"));
      *size = static_cast<int64_t>(bytes.size());
      return Status::OK();
    }
    case AttrType::kN: {
      EncodedNumber n;
      size_t digits = 0;
      DR_RETURN_IF_ERROR(r.Number(false, unused, &n, &digits));
      *size = NumberSize(digits, n.negative);
      return Status::OK();
    }
    case AttrType::kBool: {
      bool b = false;
      DR_RETURN_IF_ERROR(r.Bool(&b));
      *size = kNullOrBoolBytes;
      return Status::OK();
    }
    case AttrType::kNull:
      *size = kNullOrBoolBytes;
      return Status::OK();
    case AttrType::kL: {
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Count(1, &count));
      int64_t total = kDocumentOverheadBytes;
      for (size_t i = 0; i < count; ++i) {
        int64_t element = 0;
        DR_RETURN_IF_ERROR(ValueSize(r, depth + 1, &element));
        total += kDocumentElementOverheadBytes + element;
      }
      *size = total;
      return Status::OK();
    }
    case AttrType::kM: {
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Count(2, &count));
      int64_t total = kDocumentOverheadBytes;
      std::string_view previous;
      for (size_t i = 0; i < count; ++i) {
        std::string_view name;
        DR_RETURN_IF_ERROR(r.Name(i == 0 ? nullptr : &previous, &name));
        int64_t element = 0;
        DR_RETURN_IF_ERROR(ValueSize(r, depth + 1, &element));
        total += kDocumentElementOverheadBytes +
                 static_cast<int64_t>(name.size()) + element;
        previous = name;
      }
      *size = total;
      return Status::OK();
    }
    case AttrType::kSS:
    case AttrType::kBS: {
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Count(1, &count));
      int64_t total = 0;
      for (size_t i = 0; i < count; ++i) {
        std::string_view member;
        DR_RETURN_IF_ERROR(r.Bytes(&member, "truncated set member"));
        total += static_cast<int64_t>(member.size());
      }
      *size = total;
      return Status::OK();
    }
    case AttrType::kNS: {
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Count(1, &count));
      int64_t total = 0;
      for (size_t i = 0; i < count; ++i) {
        EncodedNumber n;
        size_t digits = 0;
        DR_RETURN_IF_ERROR(r.Number(false, unused, &n, &digits));
        total += NumberSize(digits, n.negative);
      }
      *size = total;
      return Status::OK();
    }
  }
  return Corrupt("unknown type tag");
}

Status VisitValue(Reader& r, int depth, EncodedItemVisitor* v) {
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
      v->Bytes(type, bytes);
      return Status::OK();
    }
    case AttrType::kN: {
      EncodedNumber n;
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Number(true, digits, &n, &count));
      v->Num(n);
      return Status::OK();
    }
    case AttrType::kBool: {
      bool b = false;
      DR_RETURN_IF_ERROR(r.Bool(&b));
      v->Bool(b);
      return Status::OK();
    }
    case AttrType::kNull:
      v->Null();
      return Status::OK();
    case AttrType::kL: {
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Count(1, &count));
      v->Begin(type, count);
      for (size_t i = 0; i < count; ++i) {
        DR_RETURN_IF_ERROR(VisitValue(r, depth + 1, v));
      }
      v->End(type);
      return Status::OK();
    }
    case AttrType::kM: {
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Count(2, &count));
      v->Begin(type, count);
      std::string_view previous;
      for (size_t i = 0; i < count; ++i) {
        std::string_view name;
        DR_RETURN_IF_ERROR(r.Name(i == 0 ? nullptr : &previous, &name));
        v->Name(name);
        DR_RETURN_IF_ERROR(VisitValue(r, depth + 1, v));
        previous = name;
      }
      v->End(type);
      return Status::OK();
    }
    case AttrType::kSS:
    case AttrType::kBS: {
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Count(1, &count));
      v->Begin(type, count);
      for (size_t i = 0; i < count; ++i) {
        std::string_view member;
        DR_RETURN_IF_ERROR(r.Bytes(&member, "truncated set member"));
        v->Bytes(type == AttrType::kSS ? AttrType::kS : AttrType::kB, member);
      }
      v->End(type);
      return Status::OK();
    }
    case AttrType::kNS: {
      size_t count = 0;
      DR_RETURN_IF_ERROR(r.Count(1, &count));
      v->Begin(type, count);
      for (size_t i = 0; i < count; ++i) {
        EncodedNumber n;
        size_t unused = 0;
        DR_RETURN_IF_ERROR(r.Number(true, digits, &n, &unused));
        v->Num(n);
      }
      v->End(type);
      return Status::OK();
    }
  }
  return Corrupt("unknown type tag");
}

}  // namespace

Result<int64_t> EncodedItemSize(std::string_view encoded) {
  Reader r(encoded);
  DR_RETURN_IF_ERROR(r.Version());
  size_t count = 0;
  DR_RETURN_IF_ERROR(r.Count(2, &count));
  int64_t size = 0;
  std::string_view previous;
  for (size_t i = 0; i < count; ++i) {
    std::string_view name;
    DR_RETURN_IF_ERROR(r.Name(i == 0 ? nullptr : &previous, &name));
    int64_t value = 0;
    DR_RETURN_IF_ERROR(ValueSize(r, /*depth=*/1, &value));
    size += static_cast<int64_t>(name.size()) + value;
    previous = name;
  }
  if (!r.empty()) return Corrupt("trailing bytes after item");
  return size;
}

Status VisitEncodedItem(std::string_view encoded, EncodedItemVisitor* visitor) {
  Reader r(encoded);
  DR_RETURN_IF_ERROR(r.Version());
  size_t count = 0;
  DR_RETURN_IF_ERROR(r.Count(2, &count));
  std::string_view previous;
  for (size_t i = 0; i < count; ++i) {
    std::string_view name;
    DR_RETURN_IF_ERROR(r.Name(i == 0 ? nullptr : &previous, &name));
    visitor->Name(name);
    DR_RETURN_IF_ERROR(VisitValue(r, /*depth=*/1, visitor));
    previous = name;
  }
  if (!r.empty()) return Corrupt("trailing bytes after item");
  return Status::OK();
}

void AppendNumberText(const EncodedNumber& n, std::string* out) {
  Number::AppendText(n.negative, n.digits, n.exponent, out);
}

}  // namespace dynarock
