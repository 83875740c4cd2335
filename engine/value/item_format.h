// engine/value/item_format.h
//
// The stored item format and its constants. One writer (item_codec.cc's
// EncodeItem) and one reader (item_reader.h, which DecodeItem,
// EncodedItemSize and VisitEncodedItem all use). Written to disk; extend
// only by adding new tags or versions.
//
//   item   := version:u8 (= kVersion)  count:varint  (name:lenpref value)*count
//   value  := tag:u8 payload            tag = AttrType's persisted number
//     S, B       lenpref bytes
//     N          number
//     BOOL       u8 (0 or 1)
//     NULL       (nothing)
//     L          count:varint value*count
//     M          count:varint (name:lenpref value)*count, names ascending
//     SS, BS     count:varint lenpref*count
//     NS         count:varint number*count
//   number := head:u8 = digit count (0..38) | kNegativeBit if negative
//             [exponent:zigzag-varint  digits:BCD, two per byte, high
//              nibble first, a final odd digit padded with a 0 nibble]
//             (zero is the single byte 0x00)
//   lenpref := length:varint bytes
//
// Numbers are kept in Number's normalized parts rather than as text: about
// half the bytes, and decoding needs no parse. Internal to engine/value/.

#ifndef DYNAROCK_ENGINE_VALUE_ITEM_FORMAT_H_
#define DYNAROCK_ENGINE_VALUE_ITEM_FORMAT_H_

#include <cstdint>

namespace dynarock::item_format {

// The item's first byte.
inline constexpr uint8_t kVersion = 1;
// Set in a number's head byte when it is negative; the low bits are its
// digit count.
inline constexpr uint8_t kNegativeBit = 0x80;
// Far deeper than any value validation admits (kMaxNestingDepth = 32), so
// every stored item decodes, yet garbage cannot recurse the stack away.
inline constexpr int kMaxDecodeDepth = 256;

}  // namespace dynarock::item_format

#endif  // DYNAROCK_ENGINE_VALUE_ITEM_FORMAT_H_
