// engine/value/encoded_item.h
//
// Reading an item in its stored encoding (item_codec.h) without building an
// Item: its DynamoDB size, and a walk over its values for writers that
// render it elsewhere (api/encoded_item_json.h). This is what lets a Query
// or Scan page hand items out as the bytes it read (ReadPageParameters::
// encoded_items): a decoded Item is a map of variants, and building one
// costs several allocations per attribute.
//
// Both functions accept exactly the buffers DecodeItem accepts, because all
// three are the one reader of item_reader.h with different visitors; they
// fail with kCorruption where it does. Stateless; thread-safe.

#ifndef DYNAROCK_ENGINE_VALUE_ENCODED_ITEM_H_
#define DYNAROCK_ENGINE_VALUE_ENCODED_ITEM_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

// ItemSize(*DecodeItem(encoded)), computed from the encoding alone, without
// allocating. Errors: kCorruption.
Result<int64_t> EncodedItemSize(std::string_view encoded);

// A number as stored: its normalized parts (number.h), the digits unpacked.
// Zero has no digits.
struct EncodedNumber {
  bool negative = false;
  std::string_view digits;  // no leading or trailing '0'
  int exponent = 0;
};

// Appends Number::ToString's text for `n` (the canonical text DynamoDB
// returns) to `*out`.
void AppendNumberText(const EncodedNumber& n, std::string* out);

// Receives an encoded item's contents in order, depth first. Strings passed
// point into the encoding (or, for number digits, into a buffer valid only
// during the call).
class EncodedItemVisitor {
 public:
  virtual ~EncodedItemVisitor() = default;
  // An attribute's or a map entry's name; its value follows.
  virtual void Name(std::string_view name) = 0;
  // S or B (`type` says which): the raw bytes. Also each SS / BS member.
  virtual void Bytes(AttrType type, std::string_view bytes) = 0;
  // N, and each NS member.
  virtual void Num(const EncodedNumber& n) = 0;
  virtual void Bool(bool b) = 0;
  virtual void Null() = 0;
  // L, M, SS, BS, NS: `count` members follow (names and values for M),
  // then End(type).
  virtual void Begin(AttrType type, size_t count) = 0;
  virtual void End(AttrType type) = 0;
};

// Walks `encoded`, the whole item, as a sequence of Name + value calls.
// On an error the visitor may have received part of the item.
// Errors: kCorruption.
Status VisitEncodedItem(std::string_view encoded, EncodedItemVisitor* visitor);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_VALUE_ENCODED_ITEM_H_
