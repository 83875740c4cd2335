#include "api/validate.h"

#include <cstdio>
#include <utility>

#include <xxhash.h>

namespace dynarock::api {

// Message texts: the aggregated "N validation errors detected" form, its
// per-member clauses and their order within a member (pattern before
// length) follow what mhart/dynalite's tests recorded against DynamoDB
// (test/createTable.js, validations/index.js) and scylladb's alternator tests;
// the CreateTable-vs-other-operations split of TableName constraints follows
// nubo-db/dynoxide src/validation.rs (table_name_constraint_errors). "Return
// values set to invalid value" is DynamoDB's (boto/boto3#4499,
// taoensso/faraday#64).

const Shape kStringShape{.kind = Shape::Kind::kString};
const Shape kBooleanShape{.kind = Shape::Kind::kBoolean};
const Shape kIntegerShape{.kind = Shape::Kind::kInteger};
const Shape kLongShape{.kind = Shape::Kind::kLong};
const Shape kAttributeValueShape{
    .kind = Shape::Kind::kAttributeValue,
    .java_class = "com.amazonaws.dynamodb.v20120810.AttributeValue"};
const Shape kAttributeMapShape{.kind = Shape::Kind::kMap,
                               .element = &kAttributeValueShape};
const Shape kStringListShape{.kind = Shape::Kind::kList,
                             .element = &kStringShape};
const Shape kStringMapShape{.kind = Shape::Kind::kMap, .element = &kStringShape};
const Shape kOpaqueStructureShape{.kind = Shape::Kind::kStructure,
                                  .java_class = "com.amazonaws.dynamodb.v20120810.Structure"};
const Shape kOpaqueStructureListShape{.kind = Shape::Kind::kList,
                                      .element = &kOpaqueStructureShape};

std::string LengthAtMost(int64_t n) {
  return "Member must have length less than or equal to " + std::to_string(n);
}

std::string ValueAtLeast(int64_t n) {
  return "Member must have value greater than or equal to " + std::to_string(n);
}

namespace {

constexpr std::string_view kNamePatternText = "[a-zA-Z0-9_.-]+";
constexpr size_t kMaxReportedErrors = 10;

// Length in characters (code points), as DynamoDB counts member lengths.
int64_t CharLength(std::string_view s) {
  int64_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

std::string LowerFirst(std::string_view name) {
  std::string out(name);
  if (!out.empty() && out[0] >= 'A' && out[0] <= 'Z') out[0] = out[0] - 'A' + 'a';
  return out;
}

// The value of `shape` (null: unknown) as DynamoDB prints it inside quotes:
// the Java toString of its model object. Strings raw, lists "[a, b]", maps
// "{k=v, k2=v2}", structures "KeySchemaElement(attributeName=pk,
// keyType=HASH)" with every member of the shape (absent ones "null"), as
// today's DynamoDB renders them (nubo-db/dynoxide#11, risingwavelabs/
// risingwave#17572, 2024-2026; it used to print
// "com.amazonaws.dynamodb.v20120810.KeySchemaElement@64f4fb9"). An
// AttributeValue prints as DynamoDB's does, its class and a hash, but the
// hash is dynarock's own (DynamoDB's is its JVM object's). Depth is bounded
// by the request nesting bound checked before parsing.
std::string RenderValue(const Json& v, const Shape* shape) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_null()) return "null";
  if (v.is_array()) {
    const Shape* element =
        shape != nullptr && shape->kind == Shape::Kind::kList ? shape->element : nullptr;
    std::string out = "[";
    bool first = true;
    for (const Json& e : v) {
      if (!first) out += ", ";
      first = false;
      out += RenderValue(e, element);
    }
    return out + "]";
  }
  if (!v.is_object()) return DumpJson(v);
  if (shape != nullptr && shape->kind == Shape::Kind::kAttributeValue) {
    const std::string text = DumpJson(v);
    char hash[9];
    std::snprintf(hash, sizeof(hash), "%08x",
                  static_cast<uint32_t>(XXH3_64bits(text.data(), text.size())));
    return std::string(shape->java_class) + "@" + hash;
  }
  if (shape != nullptr && shape->kind == Shape::Kind::kStructure) {
    std::string_view name = shape->java_class;
    name.remove_prefix(name.rfind('.') == std::string_view::npos ? 0 : name.rfind('.') + 1);
    std::string out(name);
    out += "(";
    auto render_member = [&](const Member& m) {
      if (out.back() != '(') out += ", ";
      out += LowerFirst(m.name) + "=";
      auto it = v.find(m.name);
      out += it == v.end() || it->is_null() ? std::string("null") : RenderValue(*it, m.shape);
    };
    if (shape->declaration_order.empty()) {
      for (const Member& m : shape->members) render_member(m);
    } else {
      for (std::string_view field : shape->declaration_order) {
        for (const Member& m : shape->members) {
          if (m.name == field) render_member(m);
        }
      }
    }
    return out + ")";
  }
  const Shape* element =
      shape != nullptr && shape->kind == Shape::Kind::kMap ? shape->element : nullptr;
  std::string out = "{";
  bool first = true;
  for (const auto& [k, e] : v.items()) {
    if (!first) out += ", ";
    first = false;
    out += k + "=" + RenderValue(e, element);
  }
  return out + "}";
}

std::string Quoted(const Json& v, const Shape* shape) {
  std::string out = "'";
  out += RenderValue(v, shape);
  out += "'";
  return out;
}

std::string MustNotBeNull() { return "Member must not be null"; }

std::string MustSatisfyEnum(const std::vector<std::string_view>& values) {
  std::string out = "Member must satisfy enum value set: [";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    out += values[i];
  }
  return out + "]";
}

std::string MustSatisfyPattern() {
  return "Member must satisfy regular expression pattern: " +
         std::string(kNamePatternText);
}

std::string LengthAtLeast(int64_t n) {
  return "Member must have length greater than or equal to " + std::to_string(n);
}

std::string MapKeysMustBeTableNames() {
  return "Map keys must satisfy constraint: [" + LengthAtMost(255) + ", " +
         LengthAtLeast(3) + ", " + MustSatisfyPattern() + "]";
}

std::string MapValueLength(std::optional<int64_t> min, std::optional<int64_t> max) {
  std::string out = "Map value must satisfy constraint: [";
  if (max) out += LengthAtMost(*max);
  if (max && min) out += ", ";
  if (min) out += LengthAtLeast(*min);
  return out + "]";
}

std::string ValueAtMost(int64_t n) {
  return "Member must have value less than or equal to " + std::to_string(n);
}

WireType WireTypeOf(Shape::Kind kind) {
  switch (kind) {
    case Shape::Kind::kString:
      return WireType::kString;
    case Shape::Kind::kBoolean:
      return WireType::kBoolean;
    case Shape::Kind::kInteger:
      return WireType::kInteger;
    case Shape::Kind::kLong:
      return WireType::kLong;
    case Shape::Kind::kBlob:
      return WireType::kBlob;
    case Shape::Kind::kStructure:
    case Shape::Kind::kAttributeValue:
      return WireType::kStructure;
    case Shape::Kind::kList:
      return WireType::kList;
    case Shape::Kind::kMap:
      return WireType::kMap;
  }
  return WireType::kStructure;
}

const Json* FindMember(const Json& object, std::string_view name) {
  auto it = object.find(name);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

Status CheckStructureTypes(const Json& object, const Shape& shape);

// Phase 1 for one value.
Status CheckTypes(const Json& value, const Shape& shape, Position position) {
  switch (shape.kind) {
    case Shape::Kind::kAttributeValue:
      return CheckAttributeValueTypes(value, position);
    case Shape::Kind::kStructure:
      DR_RETURN_IF_ERROR(CheckWireType(value, WireType::kStructure,
                                       shape.java_class, position));
      return CheckStructureTypes(value, shape);
    case Shape::Kind::kList:
      DR_RETURN_IF_ERROR(CheckWireType(value, WireType::kList));
      for (const Json& e : value) {
        if (e.is_null()) continue;
        DR_RETURN_IF_ERROR(
            CheckTypes(e, *shape.element, Position::kCollectionElement));
      }
      return Status::OK();
    case Shape::Kind::kMap: {
      std::string_view value_class = shape.element->java_class;
      if (value_class.empty()) value_class = "java.lang.String";
      DR_RETURN_IF_ERROR(CheckWireType(value, WireType::kMap, value_class));
      for (const auto& [key, e] : value.items()) {
        if (e.is_null()) continue;
        DR_RETURN_IF_ERROR(
            CheckTypes(e, *shape.element, Position::kCollectionElement));
      }
      return Status::OK();
    }
    default:
      return CheckWireType(value, WireTypeOf(shape.kind));
  }
}

Status CheckStructureTypes(const Json& object, const Shape& shape) {
  for (const Member& m : shape.members) {
    const Json* v = FindMember(object, m.name);
    if (v == nullptr) continue;
    DR_RETURN_IF_ERROR(CheckTypes(*v, *m.shape, Position::kMember));
  }
  return Status::OK();
}

void CheckStructureConstraints(const Json& object, const Shape& shape,
                               const std::string& prefix,
                               std::vector<std::string>* errors);
void CheckNestedConstraints(const Json& v, const Shape& shape,
                            const std::string& path,
                            std::vector<std::string>* errors);

// Phase 2 for one member; `v` may be null (absent).
void CheckMemberConstraints(const Json* v, const Member& m,
                            const std::string& path,
                            std::vector<std::string>* errors) {
  if (v == nullptr) {
    if (m.required) {
      errors->push_back(ConstraintViolation("null", path, MustNotBeNull()));
    }
    return;
  }
  const std::string value = Quoted(*v, m.shape);
  if (v->is_string()) {
    const std::string& s = v->get_ref<const std::string&>();
    if (!m.enum_values.empty()) {
      bool found = false;
      for (std::string_view e : m.enum_values) found = found || e == s;
      if (!found) {
        errors->push_back(
            ConstraintViolation(value, path, MustSatisfyEnum(m.enum_values)));
      }
    }
    const bool skip_pattern = s.empty() && m.empty_fails_only_length_one;
    if (m.name_pattern && !skip_pattern && !MatchesNamePattern(s)) {
      errors->push_back(ConstraintViolation(value, path, MustSatisfyPattern()));
    }
  }
  if ((v->is_string() && !m.length_first) || v->is_array() || v->is_object()) {
    const int64_t length =
        v->is_string() ? CharLength(v->get_ref<const std::string&>())
                       : static_cast<int64_t>(v->size());
    const std::optional<int64_t> min_length =
        length == 0 && m.empty_fails_only_length_one ? std::optional<int64_t>(1)
                                                     : m.min_length;
    if (min_length && length < *min_length) {
      errors->push_back(ConstraintViolation(value, path, LengthAtLeast(*min_length)));
    }
    if (m.max_length && length > *m.max_length) {
      errors->push_back(ConstraintViolation(value, path, LengthAtMost(*m.max_length)));
    }
  }
  if (v->is_number() && (m.shape->kind == Shape::Kind::kInteger ||
                         m.shape->kind == Shape::Kind::kLong)) {
    const double n = v->get<double>();
    if (m.min_value && n < static_cast<double>(*m.min_value)) {
      errors->push_back(ConstraintViolation(value, path, ValueAtLeast(*m.min_value)));
    }
    if (m.max_value && n > static_cast<double>(*m.max_value)) {
      errors->push_back(ConstraintViolation(value, path, ValueAtMost(*m.max_value)));
    }
  }
  if (v->is_object() && m.map_keys_table_names) {
    for (const auto& [key, e] : v->items()) {
      const int64_t length = CharLength(key);
      if (length < 3 || length > 255 || !MatchesNamePattern(key)) {
        errors->push_back(ConstraintViolation(value, path, MapKeysMustBeTableNames()));
      }
    }
  }
  if (v->is_object() && (m.map_value_min_length || m.map_value_max_length)) {
    for (const auto& [key, e] : v->items()) {
      // A null value is an empty one (scylladb test_manual_requests.py
      // test_batch_write_item_invalid_payload: a ValidationException).
      if (!e.is_array() && !e.is_object() && !e.is_null()) continue;
      const int64_t n = e.is_null() ? 0 : static_cast<int64_t>(e.size());
      if ((m.map_value_min_length && n < *m.map_value_min_length) ||
          (m.map_value_max_length && n > *m.map_value_max_length)) {
        errors->push_back(ConstraintViolation(
            value, path, MapValueLength(m.map_value_min_length, m.map_value_max_length)));
      }
    }
  }
  CheckNestedConstraints(*v, *m.shape, path, errors);
}

// True if values of `shape` contain structures, whose members may carry
// constraints (so that plain item maps are not walked).
bool HasStructure(const Shape& shape) {
  switch (shape.kind) {
    case Shape::Kind::kStructure:
      return true;
    case Shape::Kind::kMap:
    case Shape::Kind::kList:
      return HasStructure(*shape.element);
    default:
      return false;
  }
}

// The members of structures inside `v`, reported at paths such as
// "requestItems.<table>.member.1.member.putRequest.item": map entries as
// "<map>.<key>.member", the last key first (the order dynalite recorded
// from DynamoDB), list elements as "<list>.<n>.member", from 1.
void CheckNestedConstraints(const Json& v, const Shape& shape,
                            const std::string& path,
                            std::vector<std::string>* errors) {
  if (!HasStructure(shape)) return;
  if (shape.kind == Shape::Kind::kStructure) {
    if (v.is_object()) CheckStructureConstraints(v, shape, path + ".", errors);
  } else if (shape.kind == Shape::Kind::kMap && v.is_object()) {
    for (auto it = v.end(); it != v.begin();) {
      --it;
      if (it->is_null()) continue;
      CheckNestedConstraints(*it, *shape.element, path + "." + it.key() + ".member",
                             errors);
    }
  } else if (shape.kind == Shape::Kind::kList && v.is_array()) {
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i].is_null()) continue;
      CheckNestedConstraints(v[i], *shape.element,
                             path + "." + std::to_string(i + 1) + ".member", errors);
    }
  }
}

void CheckStructureConstraints(const Json& object, const Shape& shape,
                               const std::string& prefix,
                               std::vector<std::string>* errors) {
  for (const Member& m : shape.members) {
    CheckMemberConstraints(FindMember(object, m.name), m, prefix + LowerFirst(m.name),
                           errors);
  }
}

// The checks of presence_first and length_first members, which DynamoDB
// makes before the others (mhart/dynalite validations/index.js
// checkValidations; test/createTable.js, describeTable.js, deleteTable.js).
Status CheckMembersFirst(const Json& request, const Shape& input) {
  for (const Member& m : input.members) {
    const Json* v = FindMember(request, m.name);
    if (m.presence_first && v == nullptr) {
      if (!m.absent_message.empty()) {
        return Status::Validation(std::string(m.absent_message));
      }
      std::string message = "The parameter '";
      message += m.name;
      message += "' is required but was not present in the request";
      return Status::Validation(std::move(message));
    }
    if (m.length_first && v != nullptr && v->is_string()) {
      const int64_t length = CharLength(v->get_ref<const std::string&>());
      if ((m.min_length && length < *m.min_length) ||
          (m.max_length && length > *m.max_length)) {
        std::string message(m.name);
        message += " must be at least " + std::to_string(m.min_length.value_or(0)) +
                   " characters long and at most " +
                   std::to_string(m.max_length.value_or(0)) + " characters long";
        return Status::Validation(std::move(message));
      }
    }
  }
  return Status::OK();
}

// The first member declared unsupported that `value` (of `shape`) sets, at
// any depth: in nested structures, list elements and map values (e.g. a
// ReplicaUpdates Create's ProvisionedThroughputOverride). The walk follows
// the shapes, whose nesting is the model's and small, not the client's;
// `depth` bounds it all the same. Runs after the type check.
const Member* FindUnsupported(const Json& value, const Shape& shape, int depth) {
  if (depth > 16) return nullptr;
  switch (shape.kind) {
    case Shape::Kind::kStructure:
      if (!value.is_object()) return nullptr;
      for (const Member& m : shape.members) {
        const Json* v = FindMember(value, m.name);
        if (v == nullptr) continue;
        if (m.unsupported) return &m;
        if (m.shape == nullptr) continue;
        if (const Member* inner = FindUnsupported(*v, *m.shape, depth + 1)) return inner;
      }
      return nullptr;
    case Shape::Kind::kList:
    case Shape::Kind::kMap:
      // Items and keys (maps of AttributeValues) hold no member: not walked,
      // so the hot path pays nothing per attribute.
      if (shape.element == nullptr || shape.element->kind == Shape::Kind::kAttributeValue ||
          !(value.is_array() || value.is_object())) {
        return nullptr;
      }
      for (const Json& e : value) {
        if (const Member* inner = FindUnsupported(e, *shape.element, depth + 1)) return inner;
      }
      return nullptr;
    default:
      return nullptr;
  }
}

}  // namespace

Status ValidateRequest(const Json& request, const Shape& input) {
  DR_RETURN_IF_ERROR(CheckStructureTypes(request, input));
  if (const Member* m = FindUnsupported(request, input, 0)) {
    return UnsupportedParameter(m->name);
  }
  DR_RETURN_IF_ERROR(CheckMembersFirst(request, input));
  std::vector<std::string> errors;
  CheckStructureConstraints(request, input, "", &errors);
  if (errors.size() > kMaxReportedErrors) errors.resize(kMaxReportedErrors);
  if (!errors.empty()) return ValidationErrors(errors);
  return Status::OK();
}

Member CreateTableNameMember(std::string_view name, bool required) {
  return Member{.name = name,
                .shape = &kStringShape,
                .required = required,
                .name_pattern = true,
                .min_length = 3,
                .max_length = 255};
}

Member TableOperationNameMember() {
  Member m = CreateTableNameMember("TableName", /*required=*/true);
  m.presence_first = true;
  m.length_first = true;
  return m;
}

bool MatchesNamePattern(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

Member TableNameMember() {
  return Member{.name = "TableName",
                .shape = &kStringShape,
                .required = true,
                .name_pattern = true,
                .empty_fails_only_length_one = true,
                .min_length = 3,
                .max_length = 255};
}

Status ValidationErrors(const std::vector<std::string>& errors) {
  std::string m = std::to_string(errors.size());
  m += errors.size() == 1 ? " validation error detected: "
                          : " validation errors detected: ";
  for (size_t i = 0; i < errors.size(); ++i) {
    if (i > 0) m += "; ";
    m += errors[i];
  }
  return Status::Validation(std::move(m));
}

std::string ConstraintViolation(std::string_view rendered_value,
                                std::string_view path,
                                std::string_view constraint) {
  std::string out = "Value ";
  out += rendered_value;
  out += " at '";
  out += path;
  out += "' failed to satisfy constraint: ";
  out += constraint;
  return out;
}

std::string ValuelessConstraintViolation(std::string_view path,
                                         std::string_view constraint) {
  std::string out = "Value at '";
  out += path;
  out += "' failed to satisfy constraint: ";
  out += constraint;
  return out;
}

Status ParameterRequiredFor(std::string_view member, std::string_view operation) {
  std::string m = "The ";
  m += member;
  m += " parameter is required for ";
  m += operation;
  return Status::Validation(std::move(m));
}

Status UnsupportedParameter(std::string_view name) {
  std::string m =
      "One or more parameter values were invalid: dynarock does not support the parameter ";
  m += name;
  return Status::Validation(std::move(m));
}

Member UnsupportedMember(std::string_view name, const Shape* shape) {
  return Member{.name = name, .shape = shape, .unsupported = true};
}

}  // namespace dynarock::api
