#include "engine/value/item_size.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace dynarock {

namespace {

// The rules of the DynamoDB developer guide, "DynamoDB item sizes and
// formats" (CapacityUnitCalculations.html):
//   String      UTF-8 bytes
//   Number      1 byte per two significant digits (leading and trailing
//               zeros trimmed) + 1 byte
//   Binary      raw bytes
//   Null, Bool  1 byte
//   List, Map   3 bytes + the elements + 1 byte per element (a Map element
//               also counts its name's UTF-8 bytes)
// Sets have no overhead of their own there: a set is the sum of its members.
constexpr int64_t kNullOrBoolBytes = 1;
constexpr int64_t kDocumentOverheadBytes = 3;
constexpr int64_t kDocumentElementOverheadBytes = 1;

// The docs formula, plus one byte for a negative number: the docs'
// "approximately" leaves the sign out, but sizes measured on the service
// (Zac Charles' dynamodb-calculator; dynoxide's bisection of the 400 KB
// limit) carry one more byte for negatives. Zero has no significant digits,
// so it is the 1-byte floor.
int64_t NumberSize(const Number& n) {
  const int64_t digits = static_cast<int64_t>(n.digits().size());
  return (digits + 1) / 2 + 1 + (n.negative() ? 1 : 0);
}

}  // namespace

int64_t AttributeValueSize(const AttributeValue& value) {
  switch (value.type()) {
    case AttrType::kS:
      return static_cast<int64_t>(value.s().size());
    case AttrType::kB:
      return static_cast<int64_t>(value.b().size());
    case AttrType::kN:
      return NumberSize(value.n());
    case AttrType::kBool:
    case AttrType::kNull:
      return kNullOrBoolBytes;
    case AttrType::kL: {
      int64_t size = kDocumentOverheadBytes;
      for (const AttributeValue& element : value.l()) {
        size += kDocumentElementOverheadBytes + AttributeValueSize(element);
      }
      return size;
    }
    case AttrType::kM: {
      int64_t size = kDocumentOverheadBytes;
      for (const auto& [name, element] : value.m()) {
        size += kDocumentElementOverheadBytes + AttributeSize(name, element);
      }
      return size;
    }
    case AttrType::kSS:
    case AttrType::kBS: {
      int64_t size = 0;
      for (const std::string& member : value.ss()) {
        size += static_cast<int64_t>(member.size());
      }
      return size;
    }
    case AttrType::kNS: {
      int64_t size = 0;
      for (const Number& member : value.ns()) size += NumberSize(member);
      return size;
    }
  }
  return 0;
}

int64_t AttributeSize(std::string_view name, const AttributeValue& value) {
  // Names are held as UTF-8, so their byte length is their size.
  return static_cast<int64_t>(name.size()) + AttributeValueSize(value);
}

int64_t ItemSize(const Item& item) {
  int64_t size = 0;
  for (const auto& [name, value] : item) size += AttributeSize(name, value);
  return size;
}

}  // namespace dynarock
