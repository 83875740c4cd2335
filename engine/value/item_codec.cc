#include "engine/value/item_codec.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/util/coding.h"
#include "engine/value/item_format.h"
#include "engine/value/item_reader.h"
#include "engine/value/number.h"

namespace dynarock {

// The format is item_format.h's; the one reader of it is item_reader.h.

namespace {

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

// Builds values as the reader walks them (item_reader.h): scalars go
// straight into the open container, or into the sink at the top level;
// containers being filled wait on a stack, so that building needs no
// recursion of its own.
class ValueBuilder {
 public:
  static constexpr bool kUnpackDigits = true;

  // The top level is an item's attributes (`item`) or one value (`value`).
  explicit ValueBuilder(Item* item) : item_(item) {}
  explicit ValueBuilder(AttributeValue* value) : value_(value) {}

  void Name(std::string_view name) { name_ = name; }
  void Bytes(AttrType type, std::string_view bytes) {
    if (!open_.empty() && IsSet(open_.back().type)) {
      open_.back().members.emplace_back(bytes);
      return;
    }
    Put(type == AttrType::kS ? AttributeValue::S(std::string(bytes))
                             : AttributeValue::B(std::string(bytes)));
  }
  void Num(const EncodedNumber& n, size_t) {
    Number number =
        n.digits.empty()
            ? Number()
            : Number::FromParts(n.negative, std::string(n.digits), n.exponent);
    if (!open_.empty() && open_.back().type == AttrType::kNS) {
      open_.back().numbers.push_back(std::move(number));
      return;
    }
    Put(AttributeValue::N(std::move(number)));
  }
  void Bool(bool b) { Put(AttributeValue::Bool(b)); }
  void Null() { Put(AttributeValue::Null()); }
  void Begin(AttrType type, size_t count) {
    Open& open = open_.emplace_back();
    open.type = type;
    open.name = name_;
    if (type == AttrType::kL) open.list.reserve(count);
    if (type == AttrType::kSS || type == AttrType::kBS) {
      open.members.reserve(count);
    }
    if (type == AttrType::kNS) open.numbers.reserve(count);
  }
  void End(AttrType type) {
    Open done = std::move(open_.back());
    open_.pop_back();
    name_ = done.name;
    switch (type) {
      case AttrType::kL:
        Put(AttributeValue::L(std::move(done.list)));
        return;
      case AttrType::kM:
        Put(AttributeValue::M(std::move(done.map)));
        return;
      case AttrType::kSS:
        Put(AttributeValue::SS(std::move(done.members)));
        return;
      case AttrType::kBS:
        Put(AttributeValue::BS(std::move(done.members)));
        return;
      case AttrType::kNS:
        Put(AttributeValue::NS(std::move(done.numbers)));
        return;
      default:
        return;
    }
  }

 private:
  struct Open {
    AttrType type = AttrType::kNull;
    std::string_view name;  // its own name in the enclosing M or item
    AttributeValue::List list;
    AttributeValue::Map map;
    std::vector<std::string> members;
    std::vector<Number> numbers;
  };

  static bool IsSet(AttrType type) {
    return type == AttrType::kSS || type == AttrType::kBS;
  }

  // Names arrive strictly ascending (the reader checks), so every insert
  // is at the end.
  void Put(AttributeValue value) {
    if (open_.empty()) {
      if (item_ != nullptr) {
        item_->emplace_hint(item_->end(), std::string(name_), std::move(value));
      } else {
        *value_ = std::move(value);
      }
      return;
    }
    Open& top = open_.back();
    if (top.type == AttrType::kL) {
      top.list.push_back(std::move(value));
    } else {
      top.map.emplace_hint(top.map.end(), std::string(name_), std::move(value));
    }
  }

  Item* item_ = nullptr;
  AttributeValue* value_ = nullptr;
  std::string_view name_;
  std::vector<Open> open_;
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
  Item item;
  ValueBuilder builder(&item);
  DR_RETURN_IF_ERROR(item_format::ReadItem(bytes, builder));
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
  item_format::Reader reader(*in);
  AttributeValue value;
  ValueBuilder builder(&value);
  DR_RETURN_IF_ERROR(item_format::ReadValue(reader, /*depth=*/1, builder));
  *in = reader.rest();
  return value;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

}  // namespace dynarock
