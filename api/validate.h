// api/validate.h
//
// Request-shape validation with DynamoDB's exact messages. Each operation
// declares its input as a table of Members (name, JSON type, constraints);
// ValidateRequest checks a request body against it in DynamoDB's order:
// first the JSON types (SerializationException, first error wins), then the
// member constraints, all violations aggregated into one ValidationException
// ("2 validation errors detected: Value null at 'tableName' failed to satisfy
// constraint: Member must not be null; ..."). Semantic checks (key schema vs
// attribute definitions, key attributes present in an item, ...) are the
// engine's, with its own "One or more parameter values were invalid: ..."
// messages; nothing is checked in both places.
//
// Shapes are immutable after static initialization; everything here is
// thread-safe.

#ifndef DYNAROCK_API_VALIDATE_H_
#define DYNAROCK_API_VALIDATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/json_codec.h"
#include "engine/status.h"

namespace dynarock::api {

struct Shape;

// One member of a structure and the constraints DynamoDB's model puts on it.
struct Member {
  std::string_view name;  // wire name, e.g. "TableName"
  const Shape* shape = nullptr;
  bool required = false;  // "Member must not be null"
  std::vector<std::string_view> enum_values;  // "Member must satisfy enum value set: [...]"
  bool name_pattern = false;  // "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+"
  // "" fails only "length greater than or equal to 1", whatever min_length
  // and the pattern say (the item operations' TableName).
  bool empty_fails_only_length_one = false;
  std::optional<int64_t> min_length;  // strings: characters; lists, maps: entries
  std::optional<int64_t> max_length;
  std::optional<int64_t> min_value;  // integers
  std::optional<int64_t> max_value;
  // Maps (BatchGetItem / BatchWriteItem RequestItems): every key must be a
  // table name (3..255 characters of [a-zA-Z0-9_.-]) and every value a list
  // or map of map_value_min_length..map_value_max_length entries. Each
  // offending entry is one error: "Map keys must satisfy constraint: [...]",
  // "Map value must satisfy constraint: [...]".
  bool map_keys_table_names = false;
  std::optional<int64_t> map_value_min_length;
  std::optional<int64_t> map_value_max_length;
  // Top-level members of the table operations (CreateTable, DeleteTable,
  // DescribeTable, UpdateTable, DescribeTimeToLive): checked before any
  // other constraint, each failure alone in the message. Absent: "The
  // parameter 'TableName' is required but was not present in the request".
  bool presence_first = false;
  // With presence_first: the message for an absent member instead
  // ("Invalid TableArn" for the tagging operations' ResourceArn).
  std::string_view absent_message;
  // Outside min_length..max_length: "TableName must be at least 3
  // characters long and at most 255 characters long", and the lengths are
  // then not among the aggregated constraint violations.
  bool length_first = false;
  // A member of DynamoDB's model that dynarock does not implement: its JSON
  // type is checked as any member's, then its presence is refused
  // (UnsupportedParameter) before any constraint, never silently ignored.
  bool unsupported = false;
};

// A node of DynamoDB's input model.
struct Shape {
  enum class Kind {
    kString,
    kBoolean,
    kInteger,
    kLong,
    kBlob,
    kStructure,
    kList,  // of `element`
    kMap,   // string -> `element`
    kAttributeValue,
  };
  Kind kind = Kind::kString;
  // Structures: the Java class DynamoDB names in type errors, e.g.
  // "com.amazonaws.dynamodb.v20120810.KeySchemaElement".
  std::string_view java_class;
  std::vector<Member> members;      // kStructure, in DynamoDB's report order
  // kStructure: the member names in the model's declaration order, which
  // the structure's rendering in a message follows ("WriteRequest(
  // putRequest=..., deleteRequest=null)"), when it is not `members`' order.
  std::vector<std::string_view> declaration_order;
  const Shape* element = nullptr;   // kList, kMap
};

// Shared leaf shapes.
extern const Shape kStringShape;
extern const Shape kBooleanShape;
extern const Shape kIntegerShape;
extern const Shape kLongShape;
extern const Shape kAttributeValueShape;
extern const Shape kAttributeMapShape;  // Item, Key: name -> AttributeValue
extern const Shape kStringListShape;
extern const Shape kStringMapShape;     // ExpressionAttributeNames
// A structure whose members are not read (an unsupported member's), and a
// list of them: only their JSON type is checked.
extern const Shape kOpaqueStructureShape;
extern const Shape kOpaqueStructureListShape;

// Checks `request` (a JSON object) against `input` (a kStructure):
// kSerialization for the first member of the wrong JSON type (including
// malformed AttributeValue JSON and base64), then kValidation listing every
// constraint violation (at most 10, as DynamoDB does).
Status ValidateRequest(const Json& request, const Shape& input);

// TableName as CreateTable constrains it: 3..255 characters of
// [a-zA-Z0-9_.-] (and ListTables' ExclusiveStartTableName, and index names).
Member CreateTableNameMember(std::string_view name, bool required);
// TableName on every other operation: required, 3..255 characters of the
// pattern; an empty one fails only "length greater than or equal to 1"
// (conformance tier3 putItem, today's DynamoDB), a shorter one "... 3".
Member TableNameMember();
// TableName of DeleteTable, DescribeTable, UpdateTable and
// DescribeTimeToLive: its presence and its 3..255 length are checked first
// (presence_first, length_first), its pattern with the other members.
Member TableOperationNameMember();
// Whether `s` is non-empty and all of [a-zA-Z0-9_.-], the pattern of table
// and index names.
bool MatchesNamePattern(std::string_view s);

// --- Messages (kValidation) --------------------------------------------

// "1 validation error detected: <e>" / "N validation errors detected: a; b".
Status ValidationErrors(const std::vector<std::string>& errors);
// "Value <value> at '<path>' failed to satisfy constraint: <constraint>";
// `rendered_value` is already quoted ('x') or the word null.
std::string ConstraintViolation(std::string_view rendered_value,
                                std::string_view path,
                                std::string_view constraint);
// DynamoDB's newer form of a violation, naming no value and the member by
// its wire path: "Value at '<path>' failed to satisfy constraint:
// <constraint>" (nubo-db/dynamodb-conformance tier3 error-messages, 2025:
// Query's Limit, BatchGetItem's Keys).
std::string ValuelessConstraintViolation(std::string_view path,
                                         std::string_view constraint);
// "Member must have value greater than or equal to <n>".
std::string ValueAtLeast(int64_t n);
// "Member must have length less than or equal to <n>".
std::string LengthAtMost(int64_t n);
// "The <member> parameter is required for <operation>": BatchGetItem's and
// BatchWriteItem's empty RequestItems (the conformance suite, 2025).
Status ParameterRequiredFor(std::string_view member, std::string_view operation);

// A parameter of DynamoDB's model that dynarock does not implement; refused
// rather than silently ignored: "One or more parameter values were
// invalid: dynarock does not support the parameter <name>" (DynamoDB's
// prefix for invalid parameters; the rest is dynarock's).
Status UnsupportedParameter(std::string_view name);
// A member for `name` whose presence UnsupportedParameter refuses.
Member UnsupportedMember(std::string_view name, const Shape* shape);

}  // namespace dynarock::api

#endif  // DYNAROCK_API_VALIDATE_H_
