#include "engine/value/attribute_value_validation.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/value/item_size.h"
#include "engine/value/number.h"
#include "engine/util/base64.h"

namespace dynarock {

namespace {

// --- DynamoDB's messages, one place each ----------------------------------
//
// Texts captured from real DynamoDB by dynalite's test suite
// (test/putItem.js, test/getItem.js: sets, duplicates, item size) and by
// conformance suites run against the service (nesting). The doubled space in
// "An string set  may not be empty" and the missing space in "]of type BS"
// are DynamoDB's own.

constexpr std::string_view kInvalidPrefix =
    "One or more parameter values were invalid: ";
constexpr std::string_view kEmptyStringSet = "An string set  may not be empty";
constexpr std::string_view kEmptyNumberSet = "An number set  may not be empty";
constexpr std::string_view kEmptyBinarySet = "Binary sets should not be empty";
// NS duplicates are reported without the prefix and without the members:
// DynamoDB finds them while converting the numbers, not in the set check.
constexpr std::string_view kNumberSetDuplicates =
    "Input collection contains duplicates";
constexpr std::string_view kNestingTooDeep =
    "Nesting Levels have exceeded supported limits: Attributes in the item "
    "have nested levels beyond supported limit";
// Measured against DynamoDB on 2026-09-16 (ExtendDB/extenddb issue #365):
// PutItem with a 65,536-byte name at the top level or as a nested map key,
// UpdateItem with `SET #n = :v` naming one, and `SET doc = :v` whose map
// carries one; 65,535 bytes are accepted.
constexpr std::string_view kAttributeNameTooLarge =
    "1 validation error detected: Attribute name is too large, must be less "
    "than 65536 bytes";
// Not measured: DynamoDB refuses an empty name (Alternator's
// test_limit_attribute_length_nonkey_empty, run against DynamoDB, matches
// "Empty attribute name"); the prefix follows the size error's.
constexpr std::string_view kEmptyAttributeName =
    "1 validation error detected: Empty attribute name";
constexpr std::string_view kItemTooLarge =
    "Item size has exceeded the maximum allowed size";
// UpdateItem's wording (DynamoDB's UpdateItem API reference lists it; also
// dynalite's updateItem, written against DynamoDB).
constexpr std::string_view kUpdatedItemTooLarge =
    "Item size to update has exceeded the maximum allowed size";

Status Invalid(std::string_view detail) {
  std::string message(kInvalidPrefix);
  message += detail;
  return Status::Validation(std::move(message));
}

// "[a, b, a]": every member in the order given, as DynamoDB prints the
// collection (its Java List.toString()).
std::string CollectionText(const std::vector<std::string>& members) {
  std::string out = "[";
  for (size_t i = 0; i < members.size(); ++i) {
    if (i > 0) out += ", ";
    out += members[i];
  }
  out += "]";
  return out;
}

Status StringSetDuplicates(const std::vector<std::string>& members) {
  return Invalid("Input collection " + CollectionText(members) +
                 " contains duplicates.");
}

Status BinarySetDuplicates(const std::vector<std::string>& members) {
  std::vector<std::string> encoded;
  encoded.reserve(members.size());
  for (const std::string& m : members) encoded.push_back(Base64Encode(m));  // as the client sent it
  return Invalid("Input collection " + CollectionText(encoded) +
                 "of type BS contains duplicates.");
}

bool HasDuplicateBytes(const std::vector<std::string>& members) {
  std::vector<std::string_view> sorted(members.begin(), members.end());
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end();
}

// Numerically: Numbers are normalized, so "1" and "1.0" are equal values.
bool HasDuplicateNumbers(const std::vector<Number>& members) {
  std::vector<const Number*> sorted;
  sorted.reserve(members.size());
  for (const Number& n : members) sorted.push_back(&n);
  std::sort(sorted.begin(), sorted.end(), [](const Number* a, const Number* b) {
    return a->Compare(*b) < 0;
  });
  return std::adjacent_find(sorted.begin(), sorted.end(),
                            [](const Number* a, const Number* b) {
                              return *a == *b;
                            }) != sorted.end();
}

Status AttributeNameTooLarge() {
  return Status::Validation(std::string(kAttributeNameTooLarge));
}

// Whether Validate checks the keys of maps (items) or not (values of
// ExpressionAttributeValues and of conditions).
enum class MapKeys { kUnchecked, kChecked };

// `level` counts the attribute's own value as 1, so a leaf may sit at level
// 32 and nothing deeper (DynamoDB accepts 31 nested maps around a scalar and
// rejects 32); the recursion is bounded by that check, whatever the client
// sends. The walk is in document order, so the first problem found is the
// one reported.
Status Validate(const AttributeValue& value, int level, MapKeys keys) {
  if (level > kMaxNestingDepth) {
    return NestingTooDeep();
  }
  switch (value.type()) {
    case AttrType::kSS:
      if (value.ss().empty()) return Invalid(kEmptyStringSet);
      if (HasDuplicateBytes(value.ss())) return StringSetDuplicates(value.ss());
      return Status::OK();
    case AttrType::kBS:
      if (value.bs().empty()) return Invalid(kEmptyBinarySet);
      if (HasDuplicateBytes(value.bs())) return BinarySetDuplicates(value.bs());
      return Status::OK();
    case AttrType::kNS:
      if (value.ns().empty()) return Invalid(kEmptyNumberSet);
      if (HasDuplicateNumbers(value.ns())) {
        return Status::Validation(std::string(kNumberSetDuplicates));
      }
      return Status::OK();
    case AttrType::kL:
      for (const AttributeValue& element : value.l()) {
        DR_RETURN_IF_ERROR(Validate(element, level + 1, keys));
      }
      return Status::OK();
    case AttrType::kM:
      for (const auto& [name, element] : value.m()) {
        if (keys == MapKeys::kChecked && name.size() > kMaxAttributeNameBytes) {
          return AttributeNameTooLarge();
        }
        DR_RETURN_IF_ERROR(Validate(element, level + 1, keys));
      }
      return Status::OK();
    case AttrType::kS:
    case AttrType::kN:
    case AttrType::kB:
    case AttrType::kBool:
    case AttrType::kNull:
      // Empty S and B are legal outside keys; numbers were range-checked
      // when parsed.
      return Status::OK();
  }
  return Status::OK();
}

}  // namespace

Status ValidateAttributeValue(const AttributeValue& value) {
  return Validate(value, /*level=*/1, MapKeys::kUnchecked);
}

namespace {

Status ValidateItemWith(const Item& item, std::string_view too_large) {
  for (const auto& [name, value] : item) {
    DR_RETURN_IF_ERROR(ValidateAttributeName(name));
    DR_RETURN_IF_ERROR(Validate(value, /*level=*/1, MapKeys::kChecked));
  }
  // Size last, as DynamoDB does: a malformed value is reported as such even
  // in an oversized item.
  if (ItemSize(item) > kMaxItemBytes) {
    return Status::Validation(std::string(too_large));
  }
  return Status::OK();
}

}  // namespace

Status ValidateItem(const Item& item) {
  return ValidateItemWith(item, kItemTooLarge);
}

Status ValidateUpdatedItem(const Item& item) {
  return ValidateItemWith(item, kUpdatedItemTooLarge);
}

Status ValidateAttributeName(std::string_view name) {
  if (name.empty()) return Status::Validation(std::string(kEmptyAttributeName));
  if (name.size() > kMaxAttributeNameBytes) return AttributeNameTooLarge();
  return Status::OK();
}

Status NestingTooDeep() {
  return Status::Validation(std::string(kNestingTooDeep));
}

}  // namespace dynarock
