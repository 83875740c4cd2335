// engine/value/attribute_value_validation.h
//
// The checks DynamoDB makes on every value a client sends, with DynamoDB's
// exact ValidationException messages: sets non-empty with unique members,
// nesting at most 32 levels, items at most 400 KB. Key-specific checks (key
// types, key lengths, empty key strings) live with the key schema.

#ifndef DYNAROCK_ENGINE_VALUE_ATTRIBUTE_VALUE_VALIDATION_H_
#define DYNAROCK_ENGINE_VALUE_ATTRIBUTE_VALUE_VALIDATION_H_

#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

// 32: the deepest nesting of lists and maps DynamoDB accepts.
inline constexpr int kMaxNestingDepth = 32;

// DynamoDB's error for values nested deeper than kMaxNestingDepth; exported
// so that api/'s decoder, which refuses absurd depths before building
// values, says exactly the same.
Status NestingTooDeep();

// Checks one value (recursively). Errors: kValidation.
Status ValidateAttributeValue(const AttributeValue& value);

// Checks every attribute of an item and the item's size (400 KB).
// Errors: kValidation.
Status ValidateItem(const Item& item);

// As ValidateItem, for the item an UpdateItem produced; DynamoDB words the
// size error differently then ("Item size to update has exceeded the
// maximum allowed size").
Status ValidateUpdatedItem(const Item& item);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_VALUE_ATTRIBUTE_VALUE_VALIDATION_H_
