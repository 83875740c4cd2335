// api/encoded_item_json.h
//
// DynamoDB JSON straight from an item's stored encoding
// (engine/value/item_codec.h), without building an Item or a Json: what
// Query and Scan responses use for the items the engine hands out encoded
// (ReadPageParameters::encoded_items). The text is byte for byte what
// DumpJson(EncodeItem(item)) gives for the decoded item (json_codec.h):
// members in name order, numbers as their canonical text, binary as
// base64, strings escaped as nlohmann's dump escapes them.
//
// Stateless functions; thread-safe.

#ifndef DYNAROCK_API_ENCODED_ITEM_JSON_H_
#define DYNAROCK_API_ENCODED_ITEM_JSON_H_

#include <string>
#include <string_view>

#include "engine/status.h"
#include "engine/types.h"

namespace dynarock::api {

// Appends the JSON object of the encoded item to `*out`. On an error `*out`
// may hold part of it. Errors: kCorruption.
Status AppendEncodedItemJson(std::string_view encoded, std::string* out);

// Appends the JSON object of a decoded item to `*out`, byte for byte
// DumpJson(EncodeItem(item)): scalars written here, lists, maps and sets
// through EncodeAttributeValue (their depth is the engine's 32-level limit).
// What GetItem answers without building a Json of the item.
void AppendItemJson(const Item& item, std::string* out);

// Appends `s` as a JSON string literal, quotes included, exactly as
// DumpJson writes it (only '"', '\\' and control characters escaped; bytes
// that are not UTF-8 replaced by U+FFFD).
void AppendJsonString(std::string_view s, std::string* out);

}  // namespace dynarock::api

#endif  // DYNAROCK_API_ENCODED_ITEM_JSON_H_
