#include "api/validate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/testutil/status_matchers.h"

namespace dynarock::api {
namespace {

using ::testing::Eq;
using Kind = Shape::Kind;

Json J(std::string_view text) { return Json::parse(text); }

const Shape kElementShape{
    .kind = Kind::kStructure,
    .java_class = "com.example.Element",
    .members = {
        Member{.name = "Name", .shape = &kStringShape, .required = true},
        Member{.name = "Kind", .shape = &kStringShape, .enum_values = {"A", "B"}},
    }};
const Shape kElementListShape{.kind = Kind::kList, .element = &kElementShape};
const Shape kInnerShape{
    .kind = Kind::kStructure,
    .java_class = "com.example.Inner",
    .members = {Member{.name = "Count", .shape = &kLongShape, .required = true,
                       .min_value = 1, .max_value = 10}}};

const Shape kInput{
    .kind = Kind::kStructure,
    .members = {
        CreateTableNameMember("TableName", /*required=*/true),
        Member{.name = "Elements", .shape = &kElementListShape, .min_length = 1,
               .max_length = 2},
        Member{.name = "Inner", .shape = &kInnerShape},
        Member{.name = "Flag", .shape = &kBooleanShape},
        Member{.name = "Limit", .shape = &kIntegerShape, .min_value = 1,
               .max_value = 100},
        Member{.name = "Item", .shape = &kAttributeMapShape},
        Member{.name = "Names", .shape = &kStringListShape},
    }};

Status Validate(std::string_view text) { return ValidateRequest(J(text), kInput); }

TEST(ValidateTest, AcceptsAValidRequest) {
  EXPECT_OK(Validate(R"({"TableName":"abc","Elements":[{"Name":"x","Kind":"A"}],
                         "Inner":{"Count":3},"Flag":true,"Limit":100,
                         "Item":{"a":{"S":"b"}},"Names":["n"],"Unknown":[1,2]})"));
}

TEST(ValidateTest, NullIsAbsent) {
  EXPECT_THAT(Validate(R"({"TableName":null})"),
              StatusIs(ErrorCode::kValidation,
                       Eq("1 validation error detected: Value null at 'tableName' "
                          "failed to satisfy constraint: Member must not be null")));
  EXPECT_OK(Validate(R"({"TableName":"abc","Inner":null,"Flag":null})"));
}

TEST(ValidateTest, TableNameConstraintsOnCreate) {
  EXPECT_THAT(Validate(R"({"TableName":"ab"})"),
              StatusIs(ErrorCode::kValidation,
                       Eq("1 validation error detected: Value 'ab' at 'tableName' "
                          "failed to satisfy constraint: Member must have length "
                          "greater than or equal to 3")));
  EXPECT_THAT(Validate(R"({"TableName":"a;"})"),
              StatusIs(ErrorCode::kValidation,
                       Eq("2 validation errors detected: Value 'a;' at 'tableName' "
                          "failed to satisfy constraint: Member must satisfy regular "
                          "expression pattern: [a-zA-Z0-9_.-]+; Value 'a;' at "
                          "'tableName' failed to satisfy constraint: Member must have "
                          "length greater than or equal to 3")));
  const std::string long_name(256, 'n');
  EXPECT_THAT(ValidateRequest(Json{{"TableName", long_name}}, kInput),
              StatusIs(ErrorCode::kValidation,
                       Eq("1 validation error detected: Value '" + long_name +
                          "' at 'tableName' failed to satisfy constraint: Member must "
                          "have length less than or equal to 255")));
  EXPECT_OK(ValidateRequest(Json{{"TableName", std::string(255, 'n')}}, kInput));
  EXPECT_OK(Validate(R"({"TableName":"A-z_0.9"})"));
}

TEST(ValidateTest, TableNameConstraintsElsewhere) {
  const Shape input{.kind = Kind::kStructure, .members = {TableNameMember()}};
  EXPECT_THAT(ValidateRequest(J(R"({"TableName":""})"), input),
              StatusIs(ErrorCode::kValidation,
                       Eq("1 validation error detected: Value '' at 'tableName' failed "
                          "to satisfy constraint: Member must have length greater than "
                          "or equal to 1")));
  // One or two characters: refused (Alternator's
  // test_item_operations_improper_named_table, run against DynamoDB, expects
  // a ValidationException for "xx"; the words follow CreateTable's).
  EXPECT_THAT(ValidateRequest(J(R"({"TableName":"xx"})"), input),
              StatusIs(ErrorCode::kValidation,
                       Eq("1 validation error detected: Value 'xx' at 'tableName' failed "
                          "to satisfy constraint: Member must have length greater than "
                          "or equal to 3")));
  EXPECT_OK(ValidateRequest(J(R"({"TableName":"abc"})"), input));
  EXPECT_THAT(ValidateRequest(J(R"({"TableName":"a b"})"), input),
              StatusIs(ErrorCode::kValidation,
                       Eq("1 validation error detected: Value 'a b' at 'tableName' "
                          "failed to satisfy constraint: Member must satisfy regular "
                          "expression pattern: [a-zA-Z0-9_.-]+")));
  EXPECT_THAT(ValidateRequest(J("{}"), input),
              StatusIs(ErrorCode::kValidation,
                       Eq("1 validation error detected: Value null at 'tableName' failed "
                          "to satisfy constraint: Member must not be null")));
}

TEST(ValidateTest, AggregatesInMemberOrderWithNestedPaths) {
  EXPECT_THAT(
      Validate(R"({"TableName":"abc","Elements":[{"Kind":"C"},{"Name":"y"},{}],
                   "Inner":{"Count":0},"Limit":101})"),
      StatusIs(ErrorCode::kValidation,
               Eq("6 validation errors detected: "
                  "Value '[Element(name=null, kind=C), Element(name=y, kind=null), "
                  "Element(name=null, kind=null)]' at 'elements' failed to satisfy "
                  "constraint: Member must have length less than or equal to 2; "
                  "Value null at 'elements.1.member.name' failed to satisfy constraint: "
                  "Member must not be null; "
                  "Value 'C' at 'elements.1.member.kind' failed to satisfy constraint: "
                  "Member must satisfy enum value set: [A, B]; "
                  "Value null at 'elements.3.member.name' failed to satisfy constraint: "
                  "Member must not be null; "
                  "Value '0' at 'inner.count' failed to satisfy constraint: Member must "
                  "have value greater than or equal to 1; "
                  "Value '101' at 'limit' failed to satisfy constraint: Member must have "
                  "value less than or equal to 100")));
}

TEST(ValidateTest, EmptyListAndMissingNestedMember) {
  EXPECT_THAT(Validate(R"({"TableName":"abc","Elements":[],"Inner":{}})"),
              StatusIs(ErrorCode::kValidation,
                       Eq("2 validation errors detected: Value '[]' at 'elements' failed "
                          "to satisfy constraint: Member must have length greater than or "
                          "equal to 1; Value null at 'inner.count' failed to satisfy "
                          "constraint: Member must not be null")));
}

TEST(ValidateTest, AtMostTenErrorsAreReported) {
  Json elements = Json::array();
  for (int i = 0; i < 12; ++i) elements.push_back(Json::object());
  Status s = ValidateRequest(Json{{"Elements", elements}}, kInput);
  ASSERT_THAT(s, StatusIs(ErrorCode::kValidation,
                          ::testing::StartsWith("10 validation errors detected: ")));
}

TEST(ValidateTest, TypeErrorsComeFirstAndStopAtTheFirst) {
  // tableName is missing too, but only the first type error (in member
  // order: Flag before Limit) is reported.
  EXPECT_THAT(Validate(R"({"Limit":"5","Flag":1})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("NUMBER_VALUE cannot be converted to Boolean")));
  EXPECT_THAT(Validate(R"({"Limit":"5"})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("STRING_VALUE cannot be converted to Integer")));
  EXPECT_THAT(Validate(R"({"TableName":5})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("NUMBER_VALUE cannot be converted to String")));
  EXPECT_THAT(Validate(R"({"Elements":{}})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("Start of structure or map found where not expected")));
  EXPECT_THAT(Validate(R"({"Elements":["x"]})"),
              StatusIs(ErrorCode::kSerialization, Eq("Unexpected value type in payload")));
  EXPECT_THAT(Validate(R"({"Elements":[[]]})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("Unrecognized collection type class com.example.Element")));
  EXPECT_THAT(Validate(R"({"Elements":[{"Name":false}]})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("FALSE_VALUE cannot be converted to String")));
  EXPECT_THAT(Validate(R"({"Inner":"x"})"),
              StatusIs(ErrorCode::kSerialization, Eq("Unexpected field type")));
  EXPECT_THAT(Validate(R"({"Inner":{"Count":"1"}})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("STRING_VALUE cannot be converted to Long")));
  EXPECT_THAT(Validate(R"({"Item":[]})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("Unrecognized collection type java.util.Map<java.lang.String, "
                          "com.amazonaws.dynamodb.v20120810.AttributeValue>")));
  EXPECT_THAT(Validate(R"({"Item":{"a":"b"}})"),
              StatusIs(ErrorCode::kSerialization, Eq("Unexpected value type in payload")));
  EXPECT_THAT(Validate(R"({"Item":{"a":{"S":1}}})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("NUMBER_VALUE cannot be converted to String")));
  EXPECT_THAT(Validate(R"({"Names":[{}]})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("Start of structure or map found where not expected")));
}

TEST(ValidateTest, AttributeValueContentsAreNotCheckedHere) {
  // Empty values are phase 3 (json_codec), after the constraints.
  EXPECT_OK(Validate(R"({"TableName":"abc","Item":{"a":{}}})"));
}

TEST(ValidateTest, LengthCountsCharactersNotBytes) {
  const Shape input{.kind = Kind::kStructure,
                    .members = {Member{.name = "S", .shape = &kStringShape,
                                       .max_length = 2}}};
  EXPECT_OK(ValidateRequest(J(R"({"S":"éé"})"), input));
  EXPECT_THAT(ValidateRequest(J(R"({"S":"ééé"})"), input),
              StatusIs(ErrorCode::kValidation, ::testing::HasSubstr("less than or equal to 2")));
}

TEST(ValidateTest, FixedMessages) {
  EXPECT_THAT(ValidationErrors({"a", "b"}),
              StatusIs(ErrorCode::kValidation, Eq("2 validation errors detected: a; b")));
  EXPECT_EQ(ConstraintViolation("'x'", "p.q", "C"),
            "Value 'x' at 'p.q' failed to satisfy constraint: C");
  EXPECT_THAT(UnsupportedParameter("Foo"),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: dynarock does "
                          "not support the parameter Foo")));
}

// An unsupported member is type-checked as any other, then refused by name
// before any constraint of the other members.
TEST(ValidateTest, UnsupportedMemberIsRefusedAfterTypes) {
  const Shape input{.kind = Shape::Kind::kStructure,
                    .members = {Member{.name = "A", .shape = &kStringShape,
                                       .required = true},
                                UnsupportedMember("B", &kStringListShape)}};
  EXPECT_OK(ValidateRequest(J(R"({"A":"x"})"), input));
  EXPECT_THAT(ValidateRequest(J(R"({"B":[]})"), input),
              StatusIs(ErrorCode::kValidation, ::testing::HasSubstr("parameter B")));
  EXPECT_THAT(ValidateRequest(J(R"({"A":"x","B":1})"), input),
              StatusIs(ErrorCode::kSerialization, ::testing::_));
}

// An unsupported member nested in a structure of a list element (as
// ReplicaUpdates[].Create.ProvisionedThroughputOverride) is refused by
// name too; absent, the rest of the element is accepted.
TEST(ValidateTest, NestedUnsupportedMemberIsRefused) {
  const Shape inner{.kind = Shape::Kind::kStructure,
                    .members = {Member{.name = "Region", .shape = &kStringShape},
                                UnsupportedMember("Override", &kStringShape)}};
  const Shape action{.kind = Shape::Kind::kStructure,
                     .members = {Member{.name = "Create", .shape = &inner}}};
  const Shape actions{.kind = Shape::Kind::kList, .element = &action};
  const Shape input{.kind = Shape::Kind::kStructure,
                    .members = {Member{.name = "Updates", .shape = &actions}}};
  EXPECT_OK(ValidateRequest(J(R"({"Updates":[{"Create":{"Region":"r"}}]})"), input));
  EXPECT_THAT(
      ValidateRequest(J(R"({"Updates":[{"Create":{"Region":"r"}},
                                       {"Create":{"Region":"s","Override":"o"}}]})"),
                      input),
      StatusIs(ErrorCode::kValidation, Eq("One or more parameter values were invalid: "
                                          "dynarock does not support the parameter Override")));
}

}  // namespace
}  // namespace dynarock::api
