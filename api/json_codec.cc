#include "api/json_codec.h"

#include <array>
#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/value/attribute_value_validation.h"

namespace dynarock::api {

namespace {

// --- Messages -----------------------------------------------------------
// SerializationException texts are DynamoDB's (request frontend, Coral):
// "<X>_VALUE cannot be converted to <Type>", "Unexpected field type",
// "Unexpected value type in payload", "Unrecognized collection type ...",
// "Start of structure or map found where not expected", "Unexpected token
// received from parser" as recorded against DynamoDB by dynoxide's
// conformance suite (nubo-db/dynoxide src/server/serialization_checks.rs) and
// seen in the wild (localstack/localstack#9412). The base64 texts are the
// ones mhart/dynalite's tests recorded against DynamoDB (test/helpers.js,
// assertType 'Blob'), including DynamoDB's spelling "dectected".
// AttributeValue texts: dynalite validations/index.js and the brief.
// A Blob given a JSON boolean or number: "only base-64-encoded strings are
// convertible to bytes", and given an array: "Unrecognized collection type
// class java.nio.ByteBuffer" (both dynalite test/helpers.js assertType 'Blob').

constexpr std::string_view kAttributeValueClass =
    "com.amazonaws.dynamodb.v20120810.AttributeValue";

std::string_view JavaTypeName(WireType type) {
  switch (type) {
    case WireType::kString:
      return "String";
    case WireType::kBoolean:
      return "Boolean";
    case WireType::kInteger:
      return "Integer";
    case WireType::kLong:
      return "Long";
    case WireType::kBlob:
      return "Blob";
    case WireType::kStructure:
    case WireType::kList:
    case WireType::kMap:
      break;
  }
  return "Object";
}

// "NUMBER_VALUE", "DECIMAL_VALUE", "TRUE_VALUE", "FALSE_VALUE",
// "STRING_VALUE": Coral's names for the JSON token it found.
std::string_view TokenName(const Json& value) {
  if (value.is_boolean()) return value.get<bool>() ? "TRUE_VALUE" : "FALSE_VALUE";
  if (value.is_number_float()) return "DECIMAL_VALUE";
  if (value.is_number()) return "NUMBER_VALUE";
  return "STRING_VALUE";
}

Status SerializationError(std::string message) {
  return Status::Serialization(std::move(message));
}

Status CannotBeConverted(const Json& value, WireType type) {
  std::string m(TokenName(value));
  m += " cannot be converted to ";
  m += JavaTypeName(type);
  return SerializationError(std::move(m));
}

Status OnlyBase64StringsAreBytes() {
  return SerializationError("only base-64-encoded strings are convertible to bytes");
}

Status StartOfStructureNotExpected() {
  return SerializationError("Start of structure or map found where not expected");
}

Status UnexpectedFieldType() { return SerializationError("Unexpected field type"); }

Status UnexpectedValueTypeInPayload() {
  return SerializationError("Unexpected value type in payload");
}

Status UnexpectedTokenFromParser() {
  return SerializationError("Unexpected token received from parser");
}

Status UnrecognizedCollectionClass(std::string_view java_class) {
  std::string m = "Unrecognized collection type class ";
  m += java_class;
  return SerializationError(std::move(m));
}

Status UnrecognizedCollectionMap(std::string_view value_class) {
  std::string m = "Unrecognized collection type java.util.Map<java.lang.String, ";
  m += value_class;
  m += ">";
  return SerializationError(std::move(m));
}

// The base64 texts name no value: DynamoDB answered "Base64 encoded length
// is expected a multiple of 4 bytes but found: 11" (scylladb/scylladb#6487,
// 2020), as dynalite recorded; the "'<text>' can not be converted to a
// Blob: ..." form is Kinesis's (pplu/aws-sdk-perl#81).
Status Base64BadLength(std::string_view text) {
  return SerializationError(
      "Base64 encoded length is expected a multiple of 4 bytes but found: " +
      std::to_string(text.size()));
}

Status Base64BadCharacter(char c) {
  std::string m = "Invalid Base64 character: '";
  m += c;
  m += "'";
  return SerializationError(std::move(m));
}

// Also a pad character before the end ("=+/=", dynalite test/helpers.js).
Status Base64BadLastCharacter() {
  return SerializationError("Invalid last non-pad Base64 character dectected");
}

Status EmptyAttributeValue() {
  return Status::Validation(
      "Supplied AttributeValue is empty, must contain exactly one of the "
      "supported datatypes");
}

Status MultipleDatatypes() {
  return Status::Validation(
      "Supplied AttributeValue has more than one datatypes set, must contain "
      "exactly one of the supported datatypes");
}

Status NullMustBeTrue() {
  return Status::Validation(
      "One or more parameter values were invalid: Null attribute value types "
      "must have the value of true");
}

// Not verified against DynamoDB (a JSON null inside a set); worded like its
// other set errors.
Status NullSetElement() {
  return Status::Validation(
      "One or more parameter values were invalid: An AttributeValue set may "
      "not contain null");
}

// The engine owns the 32-level rule and its message; this guard only
// protects the decoder's stack on hostile input and says the same.
Status TooDeep() { return NestingTooDeep(); }

// --- Base64 ---------------------------------------------------------------


int Base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// --- AttributeValue members -------------------------------------------

struct AvMember {
  std::string_view name;
  AttrType type;
};
constexpr std::array<AvMember, 10> kAvMembers = {{
    {"S", AttrType::kS},
    {"N", AttrType::kN},
    {"B", AttrType::kB},
    {"SS", AttrType::kSS},
    {"NS", AttrType::kNS},
    {"BS", AttrType::kBS},
    {"M", AttrType::kM},
    {"L", AttrType::kL},
    {"NULL", AttrType::kNull},
    {"BOOL", AttrType::kBool},
}};

const Json* FindMember(const Json& object, std::string_view name) {
  auto it = object.find(name);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

Status CheckListOf(const Json& list, WireType element) {
  for (const Json& e : list) {
    if (e.is_null()) continue;
    DR_RETURN_IF_ERROR(CheckWireType(e, element));
  }
  return Status::OK();
}

// An AttributeValue's BOOL or NULL given as a string: DynamoDB reads
// "true", "1", "yes" as true and "false", "0", "no" as false, any case
// (dynalite's recordings: {"NULL": "no"} is the NULL-must-be-true
// ValidationException, {"BOOL": "23"} "Unexpected token received from
// parser"). Other strings: nullopt.
std::optional<bool> BooleanText(const Json& v) {
  if (!v.is_string()) return std::nullopt;
  std::string t = v.get<std::string>();
  for (char& c : t) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (t == "TRUE" || t == "1" || t == "YES") return true;
  if (t == "FALSE" || t == "0" || t == "NO") return false;
  return std::nullopt;
}

// The boolean of a BOOL or NULL member CheckAvTypes accepted.
bool AvBoolean(const Json& v) {
  return v.is_boolean() ? v.get<bool>() : BooleanText(v).value_or(false);
}

Status CheckAvTypes(const Json& value, Position position, int depth) {
  if (depth > kMaxDecodeDepth) return TooDeep();
  DR_RETURN_IF_ERROR(
      CheckWireType(value, WireType::kStructure, kAttributeValueClass, position));
  for (const AvMember& m : kAvMembers) {
    const Json* v = FindMember(value, m.name);
    if (v == nullptr) continue;
    switch (m.type) {
      case AttrType::kS:
      case AttrType::kN:
        DR_RETURN_IF_ERROR(CheckWireType(*v, WireType::kString));
        break;
      case AttrType::kB:
        DR_RETURN_IF_ERROR(CheckWireType(*v, WireType::kBlob));
        break;
      case AttrType::kBool:
      case AttrType::kNull:
        if (BooleanText(*v).has_value()) break;
        DR_RETURN_IF_ERROR(CheckWireType(*v, WireType::kBoolean));
        break;
      case AttrType::kSS:
      case AttrType::kNS:
        DR_RETURN_IF_ERROR(CheckWireType(*v, WireType::kList));
        DR_RETURN_IF_ERROR(CheckListOf(*v, WireType::kString));
        break;
      case AttrType::kBS:
        DR_RETURN_IF_ERROR(CheckWireType(*v, WireType::kList));
        DR_RETURN_IF_ERROR(CheckListOf(*v, WireType::kBlob));
        break;
      case AttrType::kL:
        DR_RETURN_IF_ERROR(CheckWireType(*v, WireType::kList));
        for (const Json& e : *v) {
          if (e.is_null()) continue;
          DR_RETURN_IF_ERROR(
              CheckAvTypes(e, Position::kCollectionElement, depth + 1));
        }
        break;
      case AttrType::kM:
        DR_RETURN_IF_ERROR(
            CheckWireType(*v, WireType::kMap, kAttributeValueClass));
        for (const auto& [key, e] : v->items()) {
          if (e.is_null()) continue;
          DR_RETURN_IF_ERROR(
              CheckAvTypes(e, Position::kCollectionElement, depth + 1));
        }
        break;
    }
  }
  return Status::OK();
}

Result<AttributeValue> DecodeAv(const Json& value, int depth);

Result<std::vector<std::string>> DecodeStrings(const Json& list) {
  std::vector<std::string> out;
  out.reserve(list.size());
  for (const Json& e : list) {
    if (e.is_null()) return NullSetElement();
    out.push_back(e.get<std::string>());
  }
  return out;
}

// DynamoDB converts N and NS text to numbers while it reads the value, so a
// bad number is reported before the value's other members are looked at:
// {"S": "a", "N": "b"} is "The parameter cannot be converted to a numeric
// value: b", not the more-than-one-datatype error (dynalite's putItem,
// updateItem, batchWriteItem and batchGetItem tests, recorded against
// DynamoDB).
Status CheckNumbersFirst(const Json& value) {
  if (const Json* n = FindMember(value, "N")) {
    DR_RETURN_IF_ERROR(Number::Parse(n->get<std::string>()).status());
  }
  if (const Json* ns = FindMember(value, "NS")) {
    for (const Json& e : *ns) {
      if (e.is_null()) continue;
      DR_RETURN_IF_ERROR(Number::Parse(e.get<std::string>()).status());
    }
  }
  return Status::OK();
}

// A set is checked (not empty, no duplicates) as soon as it is read, as
// DynamoDB checks each value in turn: an empty set in a Key, a legacy
// condition or an ExclusiveStartKey is reported before a later value's
// problem, before AttributesToGet's duplicates and before the table is
// looked up (dynalite's getItem, deleteItem, updateItem, query and scan
// tests, recorded against DynamoDB). The engine checks again; the messages
// are its own (ValidateAttributeValue).
Result<AttributeValue> CheckedSet(AttributeValue set) {
  DR_RETURN_IF_ERROR(ValidateAttributeValue(set));
  return set;
}

Result<AttributeValue> DecodeAv(const Json& value, int depth) {
  if (depth > kMaxDecodeDepth) return TooDeep();
  if (!value.is_object()) return EmptyAttributeValue();  // JSON null element
  DR_RETURN_IF_ERROR(CheckNumbersFirst(value));
  const AvMember* found = nullptr;
  const Json* v = nullptr;
  for (const AvMember& m : kAvMembers) {
    const Json* candidate = FindMember(value, m.name);
    if (candidate == nullptr) continue;
    if (found != nullptr) return MultipleDatatypes();
    found = &m;
    v = candidate;
  }
  if (found == nullptr) return EmptyAttributeValue();
  switch (found->type) {
    case AttrType::kS:
      return AttributeValue::S(v->get<std::string>());
    case AttrType::kN: {
      DR_ASSIGN_OR_RETURN(Number n, Number::Parse(v->get<std::string>()));
      return AttributeValue::N(std::move(n));
    }
    case AttrType::kB: {
      DR_ASSIGN_OR_RETURN(std::string bytes, Base64Decode(v->get<std::string>()));
      return AttributeValue::B(std::move(bytes));
    }
    case AttrType::kBool:
      return AttributeValue::Bool(AvBoolean(*v));
    case AttrType::kNull:
      if (!AvBoolean(*v)) return NullMustBeTrue();
      return AttributeValue::Null();
    case AttrType::kSS: {
      DR_ASSIGN_OR_RETURN(std::vector<std::string> members, DecodeStrings(*v));
      return CheckedSet(AttributeValue::SS(std::move(members)));
    }
    case AttrType::kNS: {
      std::vector<Number> members;
      members.reserve(v->size());
      for (const Json& e : *v) {
        if (e.is_null()) return NullSetElement();
        DR_ASSIGN_OR_RETURN(Number n, Number::Parse(e.get<std::string>()));
        members.push_back(std::move(n));
      }
      return CheckedSet(AttributeValue::NS(std::move(members)));
    }
    case AttrType::kBS: {
      std::vector<std::string> members;
      members.reserve(v->size());
      for (const Json& e : *v) {
        if (e.is_null()) return NullSetElement();
        DR_ASSIGN_OR_RETURN(std::string bytes, Base64Decode(e.get<std::string>()));
        members.push_back(std::move(bytes));
      }
      return CheckedSet(AttributeValue::BS(std::move(members)));
    }
    case AttrType::kL: {
      AttributeValue::List list;
      list.reserve(v->size());
      for (const Json& e : *v) {
        DR_ASSIGN_OR_RETURN(AttributeValue element, DecodeAv(e, depth + 1));
        list.push_back(std::move(element));
      }
      return AttributeValue::L(std::move(list));
    }
    case AttrType::kM: {
      AttributeValue::Map map;
      for (const auto& [key, e] : v->items()) {
        DR_ASSIGN_OR_RETURN(AttributeValue element, DecodeAv(e, depth + 1));
        map.emplace(key, std::move(element));
      }
      return AttributeValue::M(std::move(map));
    }
  }
  return EmptyAttributeValue();
}

// The deepest nesting of objects and arrays in `body`, outside strings;
// stops counting once past `limit`. Malformed text is left to the parser.
int JsonDepth(std::string_view body, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, whatever it is
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      if (++depth > deepest && (deepest = depth) > limit) return deepest;
    } else if (c == '}' || c == ']') {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

Result<Json> ParseRequestBody(std::string_view body) {
  if (JsonDepth(body, kMaxRequestJsonDepth) > kMaxRequestJsonDepth) {
    return NestingTooDeep();
  }
  Json parsed = Json::parse(body.begin(), body.end(), /*cb=*/nullptr,
                            /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return Status::Serialization("");
  }
  return parsed;
}

std::string DumpJson(const Json& json) {
  return json.dump(-1, ' ', /*ensure_ascii=*/false,
                   Json::error_handler_t::replace);
}

Status CheckWireType(const Json& value, WireType type, std::string_view java_class,
                     Position position) {
  switch (type) {
    case WireType::kString:
    case WireType::kBoolean:
    case WireType::kInteger:
    case WireType::kLong:
    case WireType::kBlob: {
      bool ok = false;
      if (type == WireType::kString || type == WireType::kBlob) {
        ok = value.is_string();
      } else if (type == WireType::kBoolean) {
        ok = value.is_boolean();
      } else {
        ok = value.is_number();
      }
      if (ok) {
        if (type == WireType::kBlob) {
          DR_RETURN_IF_ERROR(Base64Decode(value.get_ref<const std::string&>()).status());
        }
        return Status::OK();
      }
      if (value.is_array()) {
        std::string cls = type == WireType::kBlob ? "java.nio.ByteBuffer"
                                                  : "java.lang.";
        if (type != WireType::kBlob) cls += JavaTypeName(type);
        return UnrecognizedCollectionClass(cls);
      }
      if (value.is_object()) return StartOfStructureNotExpected();
      if (type == WireType::kBoolean && value.is_string()) {
        return UnexpectedTokenFromParser();
      }
      if (type == WireType::kBlob) return OnlyBase64StringsAreBytes();
      return CannotBeConverted(value, type);
    }
    case WireType::kStructure:
      if (value.is_object()) return Status::OK();
      if (value.is_array()) return UnrecognizedCollectionClass(java_class);
      return position == Position::kMember ? UnexpectedFieldType()
                                           : UnexpectedValueTypeInPayload();
    case WireType::kList:
      if (value.is_array()) return Status::OK();
      if (value.is_object()) return StartOfStructureNotExpected();
      return UnexpectedFieldType();
    case WireType::kMap:
      if (value.is_object()) return Status::OK();
      if (value.is_array()) return UnrecognizedCollectionMap(java_class);
      return UnexpectedFieldType();
  }
  return UnexpectedFieldType();
}

Status CheckAttributeValueTypes(const Json& value, Position position) {
  return CheckAvTypes(value, position, 1);
}

Result<AttributeValue> DecodeAttributeValue(const Json& value) {
  return DecodeAv(value, 1);
}

Result<Item> DecodeItem(const Json& map) {
  Item item;
  for (const auto& [name, v] : map.items()) {
    DR_ASSIGN_OR_RETURN(AttributeValue value, DecodeAv(v, 1));
    item.emplace(name, std::move(value));
  }
  return item;
}

Json EncodeAttributeValue(const AttributeValue& value) {
  Json out = Json::object();
  switch (value.type()) {
    case AttrType::kS:
      out["S"] = value.s();
      break;
    case AttrType::kN:
      out["N"] = value.n().ToString();
      break;
    case AttrType::kB:
      out["B"] = Base64Encode(value.b());
      break;
    case AttrType::kBool:
      out["BOOL"] = value.boolean();
      break;
    case AttrType::kNull:
      out["NULL"] = true;
      break;
    case AttrType::kL: {
      Json list = Json::array();
      for (const AttributeValue& e : value.l()) {
        list.push_back(EncodeAttributeValue(e));
      }
      out["L"] = std::move(list);
      break;
    }
    case AttrType::kM: {
      Json map = Json::object();
      for (const auto& [k, e] : value.m()) map[k] = EncodeAttributeValue(e);
      out["M"] = std::move(map);
      break;
    }
    case AttrType::kSS:
      out["SS"] = value.ss();
      break;
    case AttrType::kNS: {
      Json list = Json::array();
      for (const Number& n : value.ns()) list.push_back(n.ToString());
      out["NS"] = std::move(list);
      break;
    }
    case AttrType::kBS: {
      Json list = Json::array();
      for (const std::string& b : value.bs()) list.push_back(Base64Encode(b));
      out["BS"] = std::move(list);
      break;
    }
  }
  return out;
}

Json EncodeItem(const Item& item) {
  Json out = Json::object();
  for (const auto& [name, value] : item) out[name] = EncodeAttributeValue(value);
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  if (text.size() % 4 != 0) return Base64BadLength(text);
  size_t pad = 0;
  while (pad < text.size() && pad < 2 && text[text.size() - 1 - pad] == '=') {
    ++pad;
  }
  const size_t data_chars = text.size() - pad;
  for (size_t i = 0; i < data_chars; ++i) {
    if (text[i] == '=') return Base64BadLastCharacter();
    if (Base64Value(text[i]) < 0) return Base64BadCharacter(text[i]);
  }
  std::string out;
  out.reserve(text.size() / 4 * 3);
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < data_chars; ++i) {
    acc = (acc << 6) | static_cast<uint32_t>(Base64Value(text[i]));
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  // Leftover bits of the last character must be zero (canonical encoding).
  if (bits > 0 && (acc & ((1u << bits) - 1)) != 0) {
    return Base64BadLastCharacter();
  }
  return out;
}

}  // namespace dynarock::api

