// api/json_codec.h
//
// DynamoDB JSON <-> engine values: AttributeValue and Item to and from
// {"S": ...}, {"N": "..."}, {"B": base64}, ..., plus the request-body parser
// and the JSON type checks whose failures DynamoDB reports as
// SerializationException. This is the only place nlohmann parse errors are
// turned into Status (the parser runs with exceptions off).
//
// DynamoDB checks a request in three phases, and so does dynarock:
//   1. types: every member has the JSON type its model declares
//      (SerializationException; CheckWireType, CheckAttributeValueTypes);
//   2. constraints: lengths, patterns, enums, required members
//      ("N validation errors detected: ..."; api/validate.h);
//   3. values: AttributeValue contents (DecodeAttributeValue), then the
//      engine's semantic checks.
//
// Stateless functions; thread-safe.

#ifndef DYNAROCK_API_JSON_CODEC_H_
#define DYNAROCK_API_JSON_CODEC_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "engine/status.h"
#include "engine/types.h"
#include "engine/util/base64.h"

namespace dynarock::api {

using Json = nlohmann::json;

// Deeper lists/maps than this are rejected while decoding, before the
// engine's 32-level check, so that a hostile request cannot exhaust the
// stack. Deeper than kMaxNestingDepth so the engine's check and message
// decide for every realistic request.
inline constexpr int kMaxDecodeDepth = 64;

// The deepest JSON nesting (objects and arrays) a request body may have.
// The deepest valid request (a 32-level document inside Item or
// ExpressionAttributeValues) is about 70 levels; everything that walks a
// parsed request (validation messages, decoding, rendering) recurses at most
// this deep, which the smallest worker stack holds many times over.
inline constexpr int kMaxRequestJsonDepth = 256;

// Parses a request body. Errors: kSerialization with an empty message (what
// DynamoDB sends for a body that is not JSON or not a JSON object);
// kValidation with DynamoDB's nesting message when the body nests deeper
// than kMaxRequestJsonDepth, found in one iterative pass before any tree is
// built, so no input can exhaust a stack.
Result<Json> ParseRequestBody(std::string_view body);

// Compact JSON text; invalid UTF-8 is replaced rather than thrown on.
std::string DumpJson(const Json& json);

// The JSON types of DynamoDB's model (Coral's shapes).
enum class WireType {
  kString,
  kBoolean,
  kInteger,  // java.lang.Integer, e.g. Limit
  kLong,     // java.lang.Long, e.g. ReadCapacityUnits
  kBlob,     // base64 text
  kStructure,
  kList,
  kMap,
};

// Where a structure sits: as a member of a structure, or as an element of a
// list or a value of a map (DynamoDB words the errors differently).
enum class Position { kMember, kCollectionElement };

// OK if `value` (not null) may stand where `type` is expected; otherwise the
// SerializationException DynamoDB sends ("NUMBER_VALUE cannot be converted
// to String", "Unexpected field type", ...). `java_class` names the
// structure or map value class in "Unrecognized collection type ..."
// messages. Blob text is also checked to be valid base64.
Status CheckWireType(const Json& value, WireType type,
                     std::string_view java_class = {},
                     Position position = Position::kMember);

// Phase 1 for one AttributeValue JSON (recursively). Errors: kSerialization;
// kValidation when nested deeper than kMaxDecodeDepth.
Status CheckAttributeValueTypes(const Json& value,
                                Position position = Position::kCollectionElement);

// Phase 3: builds the value. REQUIRES: CheckAttributeValueTypes(value) is OK.
// Errors (kValidation): no datatype set, more than one set, NULL not true,
// N/NS text that Number::Parse rejects, nesting beyond kMaxDecodeDepth.
// Set-level rules (empty sets, duplicates) are the engine's.
Result<AttributeValue> DecodeAttributeValue(const Json& value);

// A JSON object of attribute name -> AttributeValue (Item, Key).
// REQUIRES: `map` is an object whose values passed CheckAttributeValueTypes.
Result<Item> DecodeItem(const Json& map);

// Canonical DynamoDB JSON of a value or item (numbers via Number::ToString,
// binary as base64).
Json EncodeAttributeValue(const AttributeValue& value);
Json EncodeItem(const Item& item);

// Base64 text of a binary value: engine/util/base64.h's Base64Encode.
// Errors: kSerialization with DynamoDB's messages for bad length, bad
// characters and non-canonical final characters.
Result<std::string> Base64Decode(std::string_view text);

}  // namespace dynarock::api

#endif  // DYNAROCK_API_JSON_CODEC_H_
