// engine/value/item_codec.h
//
// The compact binary encoding of items and values stored as RocksDB values.
// Self-describing (a type tag per value, AttrType's numbers), length-prefixed
// with varints; numbers stored in their normalized parts. The format is
// written to disk: never change the meaning of an existing tag.

#ifndef DYNAROCK_ENGINE_VALUE_ITEM_CODEC_H_
#define DYNAROCK_ENGINE_VALUE_ITEM_CODEC_H_

#include <string>
#include <string_view>

#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

// Appends the encoding of `item` to `*out`.
void EncodeItem(const Item& item, std::string* out);
// Decodes a whole buffer written by EncodeItem. Errors: kCorruption.
Result<Item> DecodeItem(std::string_view bytes);

// Appends the encoding of one value to `*out`.
void EncodeAttributeValue(const AttributeValue& value, std::string* out);
// Decodes one value from the front of `*in` and advances `*in` past it.
// Errors: kCorruption.
Result<AttributeValue> DecodeAttributeValue(std::string_view* in);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_VALUE_ITEM_CODEC_H_
