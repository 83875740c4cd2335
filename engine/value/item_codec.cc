#include "engine/value/item_codec.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/util/coding.h"
#include "engine/value/item_format.h"
#include "engine/value/number.h"

namespace dynarock {

// The format, and the constants below, are item_format.h's.

namespace {

using item_format::kMaxDecodeDepth;
using item_format::kNegativeBit;

void EncodeNumber(const Number& n, std::string* out) {
  const size_t count = n.digits().size();
  out->push_back(static_cast<char>(count | (n.negative() ? kNegativeBit : 0)));
  if (count == 0) return;
  PutSignedVarint64(out, n.exponent());
  const std::string& d = n.digits();
  for (size_t i = 0; i < count; i += 2) {
    const int high = d[i] - '0';
    const int low = i + 1 < count ? d[i + 1] - '0' : 0;
    out->push_back(static_cast<char>((high << 4) | low));
  }
}

void EncodeValue(const AttributeValue& value, std::string* out) {
  out->push_back(static_cast<char>(value.type()));
  switch (value.type()) {
    case AttrType::kS:
    case AttrType::kB:
      PutLengthPrefixed(out, value.s());
      return;
    case AttrType::kN:
      EncodeNumber(value.n(), out);
      return;
    case AttrType::kBool:
      out->push_back(value.boolean() ? 1 : 0);
      return;
    case AttrType::kNull:
      return;
    case AttrType::kL:
      PutVarint64(out, value.l().size());
      for (const AttributeValue& element : value.l()) EncodeValue(element, out);
      return;
    case AttrType::kM:
      PutVarint64(out, value.m().size());
      for (const auto& [name, element] : value.m()) {
        PutLengthPrefixed(out, name);
        EncodeValue(element, out);
      }
      return;
    case AttrType::kSS:
    case AttrType::kBS:
      PutVarint64(out, value.ss().size());
      for (const std::string& member : value.ss()) {
        PutLengthPrefixed(out, member);
      }
      return;
    case AttrType::kNS:
      PutVarint64(out, value.ns().size());
      for (const Number& member : value.ns()) EncodeNumber(member, out);
      return;
  }
}

Status Corrupt(std::string_view what) {
  std::string message = "item codec: ";
  message += what;
  return Status::Corruption(std::move(message));
}

// Reads from the front of `in_`, never past its end. Every failure is
// kCorruption: the bytes came from our own disk, not from a client. Values
// are decoded in place (into a list slot or map entry) rather than returned,
// which saves a move per value.
class Decoder {
 public:
  explicit Decoder(std::string_view* in) : in_(in) {}

  Status Value(int depth, AttributeValue* out) {
    if (depth > kMaxDecodeDepth) return Corrupt("nesting too deep");
    if (in_->empty()) return Corrupt("truncated value");
    const uint8_t tag = static_cast<uint8_t>(in_->front());
    in_->remove_prefix(1);
    switch (static_cast<AttrType>(tag)) {
      case AttrType::kS:
      case AttrType::kB: {
        std::string_view bytes;
        if (!GetLengthPrefixed(in_, &bytes)) return Corrupt("truncated bytes");
        std::string s(bytes);
        *out = static_cast<AttrType>(tag) == AttrType::kS
                   ? AttributeValue::S(std::move(s))
                   : AttributeValue::B(std::move(s));
        return Status::OK();
      }
      case AttrType::kN: {
        Number n;
        DR_RETURN_IF_ERROR(DecodeNumber(&n));
        *out = AttributeValue::N(std::move(n));
        return Status::OK();
      }
      case AttrType::kBool: {
        if (in_->empty()) return Corrupt("truncated BOOL");
        const char b = in_->front();
        in_->remove_prefix(1);
        if (b != 0 && b != 1) return Corrupt("bad BOOL");
        *out = AttributeValue::Bool(b == 1);
        return Status::OK();
      }
      case AttrType::kNull:
        *out = AttributeValue::Null();
        return Status::OK();
      case AttrType::kL: {
        size_t count = 0;
        DR_RETURN_IF_ERROR(Count(/*min_bytes_each=*/1, &count));
        AttributeValue::List list(count);
        for (AttributeValue& element : list) {
          DR_RETURN_IF_ERROR(Value(depth + 1, &element));
        }
        *out = AttributeValue::L(std::move(list));
        return Status::OK();
      }
      case AttrType::kM: {
        AttributeValue::Map map;
        DR_RETURN_IF_ERROR(Entries(&map, depth + 1));
        *out = AttributeValue::M(std::move(map));
        return Status::OK();
      }
      case AttrType::kSS:
      case AttrType::kBS: {
        size_t count = 0;
        DR_RETURN_IF_ERROR(Count(/*min_bytes_each=*/1, &count));
        std::vector<std::string> members;
        members.reserve(count);
        for (size_t i = 0; i < count; ++i) {
          std::string_view bytes;
          if (!GetLengthPrefixed(in_, &bytes)) {
            return Corrupt("truncated set member");
          }
          members.emplace_back(bytes);
        }
        *out = static_cast<AttrType>(tag) == AttrType::kSS
                   ? AttributeValue::SS(std::move(members))
                   : AttributeValue::BS(std::move(members));
        return Status::OK();
      }
      case AttrType::kNS: {
        size_t count = 0;
        DR_RETURN_IF_ERROR(Count(/*min_bytes_each=*/1, &count));
        std::vector<Number> members(count);
        for (Number& member : members)
          DR_RETURN_IF_ERROR(DecodeNumber(&member));
        *out = AttributeValue::NS(std::move(members));
        return Status::OK();
      }
    }
    return Corrupt("unknown type tag");
  }

  // name/value pairs into a map (an item or an M), in strictly ascending
  // name order as EncodeValue writes them; anything else is corruption
  // (a duplicate name would otherwise be dropped silently).
  template <typename MapType>
  Status Entries(MapType* map, int value_depth) {
    size_t count = 0;
    DR_RETURN_IF_ERROR(Count(/*min_bytes_each=*/2, &count));
    for (size_t i = 0; i < count; ++i) {
      std::string_view name;
      if (!GetLengthPrefixed(in_, &name)) return Corrupt("truncated name");
      if (!map->empty() && !(map->rbegin()->first < name)) {
        return Corrupt("names out of order");
      }
      auto it =
          map->emplace_hint(map->end(), std::string(name), AttributeValue());
      DR_RETURN_IF_ERROR(Value(value_depth, &it->second));
    }
    return Status::OK();
  }

 private:
  // A collection count, bounded by the bytes left so that garbage cannot
  // make us reserve gigabytes.
  Status Count(size_t min_bytes_each, size_t* count) {
    uint64_t v;
    if (!GetVarint64(in_, &v)) return Corrupt("truncated count");
    if (v > in_->size() / min_bytes_each) return Corrupt("bad count");
    *count = static_cast<size_t>(v);
    return Status::OK();
  }

  Status DecodeNumber(Number* out) {
    if (in_->empty()) return Corrupt("truncated number");
    const uint8_t head = static_cast<uint8_t>(in_->front());
    in_->remove_prefix(1);
    const bool negative = (head & kNegativeBit) != 0;
    const size_t count = head & ~kNegativeBit;
    if (count == 0) {
      if (negative) return Corrupt("negative zero");
      *out = Number();
      return Status::OK();
    }
    if (count > static_cast<size_t>(Number::kMaxDigits)) {
      return Corrupt("too many digits");
    }
    int64_t exponent;
    if (!GetSignedVarint64(in_, &exponent)) return Corrupt("truncated number");
    if (exponent < Number::kMinExponent || exponent > Number::kMaxExponent) {
      return Corrupt("exponent out of range");
    }
    const size_t bytes = (count + 1) / 2;
    if (in_->size() < bytes) return Corrupt("truncated digits");
    std::string digits;
    digits.resize(count);
    for (size_t i = 0; i < bytes; ++i) {
      const uint8_t b = static_cast<uint8_t>((*in_)[i]);
      const int high = b >> 4;
      const int low = b & 0x0f;
      if (high > 9 || low > 9) return Corrupt("bad digit");
      digits[2 * i] = static_cast<char>('0' + high);
      if (2 * i + 1 < count) {
        digits[2 * i + 1] = static_cast<char>('0' + low);
      } else if (low != 0) {
        return Corrupt("bad digit padding");
      }
    }
    in_->remove_prefix(bytes);
    if (digits.front() == '0' || digits.back() == '0') {
      return Corrupt("number not normalized");
    }
    *out = Number::FromParts(negative, std::move(digits),
                             static_cast<int>(exponent));
    return Status::OK();
  }

  std::string_view* in_;
};

}  // namespace

void EncodeItem(const Item& item, std::string* out) {
  out->push_back(static_cast<char>(item_format::kVersion));
  PutVarint64(out, item.size());
  for (const auto& [name, value] : item) {
    PutLengthPrefixed(out, name);
    EncodeValue(value, out);
  }
}

Result<Item> DecodeItem(std::string_view bytes) {
  if (bytes.empty()) return Corrupt("empty item");
  if (static_cast<uint8_t>(bytes.front()) != item_format::kVersion) {
    return Corrupt("unknown item format version");
  }
  bytes.remove_prefix(1);
  Decoder decoder(&bytes);
  Item item;
  DR_RETURN_IF_ERROR(decoder.Entries(&item, /*value_depth=*/1));
  if (!bytes.empty()) return Corrupt("trailing bytes after item");
  return item;
}

void EncodeAttributeValue(const AttributeValue& value, std::string* out) {
  EncodeValue(value, out);
}

// GCC 12 at -O2 and above reports -Wmaybe-uninitialized inside
// std::variant's move constructor when the AttributeValue below is moved into
// the Result: a known false positive of its variant visitation (every path
// reaching the move has initialized the value).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
Result<AttributeValue> DecodeAttributeValue(std::string_view* in) {
  Decoder decoder(in);
  AttributeValue value;
  DR_RETURN_IF_ERROR(decoder.Value(/*depth=*/1, &value));
  return value;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace dynarock
