// engine/value/item_size.h
//
// Item size by DynamoDB's rules: the one function that the 400 KB item
// limit, capacity metering and the 1 MB page limit all use. See
// docs/ARCHITECTURE.md ("Item size") for the rules and published examples.

#ifndef DYNAROCK_ENGINE_VALUE_ITEM_SIZE_H_
#define DYNAROCK_ENGINE_VALUE_ITEM_SIZE_H_

#include <cstdint>
#include <string_view>

#include "engine/types.h"

namespace dynarock {

// 400 KB: the largest item DynamoDB stores.
inline constexpr int64_t kMaxItemBytes = 400 * 1024;

// DynamoDB counts 100 bytes of overhead per index entry when it sizes an
// item collection (base items + LSI entries) and a GSI partition.
inline constexpr int64_t kIndexEntryOverheadBytes = 100;

// Size of a value alone (no attribute name).
int64_t AttributeValueSize(const AttributeValue& value);

// Size of one attribute: UTF-8 name bytes + value size.
int64_t AttributeSize(std::string_view name, const AttributeValue& value);

// Size of an item: the sum of its attributes' sizes.
int64_t ItemSize(const Item& item);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_VALUE_ITEM_SIZE_H_
