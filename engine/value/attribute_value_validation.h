// engine/value/attribute_value_validation.h
//
// The checks DynamoDB makes on every value a client sends, with DynamoDB's
// exact ValidationException messages: sets non-empty with unique members,
// nesting at most 32 levels, items at most 400 KB. Key-specific checks (key
// types, key lengths, empty key strings) live with the key schema.

#ifndef DYNAROCK_ENGINE_VALUE_ATTRIBUTE_VALUE_VALIDATION_H_
#define DYNAROCK_ENGINE_VALUE_ATTRIBUTE_VALUE_VALIDATION_H_

#include <cstddef>
#include <string_view>

#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

// 32: the deepest nesting of lists and maps DynamoDB accepts.
inline constexpr int kMaxNestingDepth = 32;

// 65535: the longest attribute name, in UTF-8 bytes, DynamoDB accepts outside
// the key schema (key attributes are limited to 255 by the schema).
inline constexpr size_t kMaxAttributeNameBytes = 65535;

// Checks an attribute name a request gives: not empty, at most
// kMaxAttributeNameBytes. Errors (kValidation), as DynamoDB words them:
//   "1 validation error detected: Empty attribute name"
//   "1 validation error detected: Attribute name is too large, must be less
//    than 65536 bytes"
// Items (ValidateItem) check their own names and nested map keys; the
// expression names, AttributesToGet and AttributeUpdates call this.
Status ValidateAttributeName(std::string_view name);

// DynamoDB's error for values nested deeper than kMaxNestingDepth; exported
// so that api/'s decoder, which refuses absurd depths before building
// values, says exactly the same.
Status NestingTooDeep();

// Checks one value (recursively). Map keys are not checked here: a value of
// ExpressionAttributeValues may carry any key, and DynamoDB reports a long
// one only when it reaches an item (ValidateItem, ValidateUpdatedItem).
// Errors: kValidation.
Status ValidateAttributeValue(const AttributeValue& value);

// Checks every attribute of an item, its name (ValidateAttributeName) and
// the keys of its maps at every depth (at most kMaxAttributeNameBytes; an
// empty map key is accepted), and the item's size (400 KB).
// Errors: kValidation.
Status ValidateItem(const Item& item);

// As ValidateItem, for the item an UpdateItem produced; DynamoDB words the
// size error differently then ("Item size to update has exceeded the
// maximum allowed size").
Status ValidateUpdatedItem(const Item& item);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_VALUE_ATTRIBUTE_VALUE_VALIDATION_H_
