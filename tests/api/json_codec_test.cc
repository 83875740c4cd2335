#include "api/json_codec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/testutil/status_matchers.h"

namespace dynarock::api {
namespace {

using ::testing::Eq;

Json J(std::string_view text) { return Json::parse(text); }

// Decodes `text` as one AttributeValue (both phases) and re-encodes it.
Result<Json> RoundTrip(std::string_view text) {
  Json in = J(text);
  DR_RETURN_IF_ERROR(CheckAttributeValueTypes(in));
  DR_ASSIGN_OR_RETURN(AttributeValue v, DecodeAttributeValue(in));
  return EncodeAttributeValue(v);
}

Status Decode(std::string_view text) {
  Json in = J(text);
  DR_RETURN_IF_ERROR(CheckAttributeValueTypes(in));
  return DecodeAttributeValue(in).status();
}

struct RoundTripCase {
  const char* in;
  const char* out;
};

TEST(JsonCodecTest, RoundTripsEveryType) {
  const RoundTripCase cases[] = {
      {R"({"S":"hello"})", R"({"S":"hello"})"},
      {R"({"S":""})", R"({"S":""})"},
      {R"({"S":"ünïcødé ☃"})", R"({"S":"ünïcødé ☃"})"},
      {R"({"N":"42"})", R"({"N":"42"})"},
      {R"({"N":"-0.50"})", R"({"N":"-0.5"})"},
      {R"({"N":"1E+2"})", R"({"N":"100"})"},
      {R"({"N":"0.000"})", R"({"N":"0"})"},
      {R"({"B":"AAEC/w=="})", R"({"B":"AAEC/w=="})"},
      {R"({"B":""})", R"({"B":""})"},
      {R"({"BOOL":true})", R"({"BOOL":true})"},
      {R"({"BOOL":false})", R"({"BOOL":false})"},
      {R"({"NULL":true})", R"({"NULL":true})"},
      {R"({"L":[]})", R"({"L":[]})"},
      {R"({"L":[{"S":"a"},{"N":"1.0"},{"L":[{"NULL":true}]}]})",
       R"({"L":[{"S":"a"},{"N":"1"},{"L":[{"NULL":true}]}]})"},
      {R"({"M":{}})", R"({"M":{}})"},
      {R"({"M":{"a":{"S":"x"},"b":{"M":{"c":{"BOOL":false}}}}})",
       R"({"M":{"a":{"S":"x"},"b":{"M":{"c":{"BOOL":false}}}}})"},
      {R"({"SS":["b","a"]})", R"({"SS":["b","a"]})"},
      {R"({"NS":["1.50","2"]})", R"({"NS":["1.5","2"]})"},
      {R"({"BS":["YQ==","Yg=="]})", R"({"BS":["YQ==","Yg=="]})"},
  };
  for (const RoundTripCase& c : cases) {
    Result<Json> out = RoundTrip(c.in);
    ASSERT_OK(out) << c.in;
    EXPECT_EQ(*out, J(c.out)) << c.in;
  }
}

TEST(JsonCodecTest, DecodesBinaryToRawBytes) {
  Result<AttributeValue> v = DecodeAttributeValue(J(R"({"B":"AAEC/w=="})"));
  ASSERT_OK(v);
  EXPECT_EQ(v->b(), std::string("\x00\x01\x02\xff", 4));
}

TEST(JsonCodecTest, ItemRoundTrip) {
  Json in = J(R"({"pk":{"S":"k"},"n":{"N":"007"},"m":{"M":{"x":{"NULL":true}}}})");
  Result<Item> item = DecodeItem(in);
  ASSERT_OK(item);
  EXPECT_EQ(item->size(), 3u);
  EXPECT_EQ(EncodeItem(*item),
            J(R"({"pk":{"S":"k"},"n":{"N":"7"},"m":{"M":{"x":{"NULL":true}}}})"));
}

TEST(JsonCodecTest, NullMembersCountAsAbsent) {
  Result<Json> out = RoundTrip(R"({"S":"a","N":null})");
  ASSERT_OK(out);
  EXPECT_EQ(*out, J(R"({"S":"a"})"));
}

TEST(JsonCodecTest, EmptyAttributeValue) {
  const char* kMessage =
      "Supplied AttributeValue is empty, must contain exactly one of the "
      "supported datatypes";
  EXPECT_THAT(Decode("{}"), StatusIs(ErrorCode::kValidation, Eq(kMessage)));
  EXPECT_THAT(Decode(R"({"S":null})"), StatusIs(ErrorCode::kValidation, Eq(kMessage)));
  EXPECT_THAT(Decode(R"({"X":"unknown member"})"),
              StatusIs(ErrorCode::kValidation, Eq(kMessage)));
  EXPECT_THAT(Decode(R"({"L":[{}]})"), StatusIs(ErrorCode::kValidation, Eq(kMessage)));
  EXPECT_THAT(Decode(R"({"M":{"a":{}}})"),
              StatusIs(ErrorCode::kValidation, Eq(kMessage)));
}

TEST(JsonCodecTest, MoreThanOneDatatype) {
  EXPECT_THAT(Decode(R"({"S":"a","N":"1"})"),
              StatusIs(ErrorCode::kValidation,
                       Eq("Supplied AttributeValue has more than one datatypes "
                          "set, must contain exactly one of the supported "
                          "datatypes")));
  // Numbers are converted first (dynalite's recordings of DynamoDB).
  EXPECT_THAT(Decode(R"({"S":"a","N":"b"})"),
              StatusIs(ErrorCode::kValidation,
                       Eq("The parameter cannot be converted to a numeric value: b")));
  EXPECT_THAT(Decode(R"({"S":"","N":""})"),
              StatusIs(ErrorCode::kValidation,
                       Eq("The parameter cannot be converted to a numeric value")));
  EXPECT_THAT(Decode(R"({"B":"YQ==","NS":["1","x"]})"),
              StatusIs(ErrorCode::kValidation,
                       Eq("The parameter cannot be converted to a numeric value: x")));
}

TEST(JsonCodecTest, NullMustBeTrue) {
  EXPECT_THAT(Decode(R"({"NULL":false})"),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Null "
                          "attribute value types must have the value of true")));
  // Strings DynamoDB reads as booleans (dynalite's recordings).
  EXPECT_THAT(Decode(R"({"NULL":"no"})"),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Null "
                          "attribute value types must have the value of true")));
  auto value = [](std::string_view text) {
    Json in = J(text);
    EXPECT_OK(CheckAttributeValueTypes(in));
    Result<AttributeValue> v = DecodeAttributeValue(in);
    return v.ok() ? *v : AttributeValue::S("error");
  };
  for (const char* t : {R"({"NULL":"Yes"})", R"({"NULL":"1"})", R"({"NULL":"TRUE"})"}) {
    EXPECT_EQ(value(t).type(), AttrType::kNull) << t;
  }
  EXPECT_EQ(value(R"({"BOOL":"false"})"), AttributeValue::Bool(false));
  EXPECT_EQ(value(R"({"BOOL":"yes"})"), AttributeValue::Bool(true));
  EXPECT_THAT(Decode(R"({"BOOL":"23"})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("Unexpected token received from parser")));
}

TEST(JsonCodecTest, NumbersAreParsedByNumber) {
  EXPECT_THAT(Decode(R"({"N":"abc"})"),
              StatusIs(ErrorCode::kValidation, Eq(Number::Parse("abc").status().message())));
  EXPECT_THAT(Decode(R"({"NS":["1","x"]})"),
              StatusIs(ErrorCode::kValidation, Eq(Number::Parse("x").status().message())));
  EXPECT_THAT(Decode(R"({"N":"1E+126"})"),
              StatusIs(ErrorCode::kValidation, Eq(Number::Parse("1E+126").status().message())));
}

TEST(JsonCodecTest, WrongJsonTypesInsideAttributeValue) {
  struct Case {
    const char* in;
    const char* message;
  };
  const Case cases[] = {
      {R"({"S":5})", "NUMBER_VALUE cannot be converted to String"},
      {R"({"S":5.5})", "DECIMAL_VALUE cannot be converted to String"},
      {R"({"S":true})", "TRUE_VALUE cannot be converted to String"},
      {R"({"N":false})", "FALSE_VALUE cannot be converted to String"},
      {R"({"N":1})", "NUMBER_VALUE cannot be converted to String"},
      {R"({"S":{}})", "Start of structure or map found where not expected"},
      {R"({"S":[]})", "Unrecognized collection type class java.lang.String"},
      {R"({"BOOL":"23"})", "Unexpected token received from parser"},
      {R"({"NULL":1})", "NUMBER_VALUE cannot be converted to Boolean"},
      {R"({"BOOL":[]})", "Unrecognized collection type class java.lang.Boolean"},
      {R"({"SS":"a"})", "Unexpected field type"},
      {R"({"SS":{}})", "Start of structure or map found where not expected"},
      {R"({"SS":[1]})", "NUMBER_VALUE cannot be converted to String"},
      {R"({"NS":[true]})", "TRUE_VALUE cannot be converted to String"},
      {R"({"L":{}})", "Start of structure or map found where not expected"},
      {R"({"L":["a"]})", "Unexpected value type in payload"},
      {R"({"L":[[]]})",
       "Unrecognized collection type class com.amazonaws.dynamodb.v20120810.AttributeValue"},
      {R"({"M":[]})",
       "Unrecognized collection type java.util.Map<java.lang.String, "
       "com.amazonaws.dynamodb.v20120810.AttributeValue>"},
      {R"({"M":"x"})", "Unexpected field type"},
      {R"({"M":{"a":1}})", "Unexpected value type in payload"},
      {R"({"B":1})", "only base-64-encoded strings are convertible to bytes"},
      {R"({"B":true})", "only base-64-encoded strings are convertible to bytes"},
      {R"({"BS":[34.56]})", "only base-64-encoded strings are convertible to bytes"},
      {R"({"B":[]})", "Unrecognized collection type class java.nio.ByteBuffer"},
  };
  for (const Case& c : cases) {
    EXPECT_THAT(Decode(c.in), StatusIs(ErrorCode::kSerialization, Eq(c.message))) << c.in;
  }
  // An AttributeValue that is not an object, in a map or list.
  EXPECT_THAT(CheckAttributeValueTypes(J("\"x\"")),
              StatusIs(ErrorCode::kSerialization, Eq("Unexpected value type in payload")));
  EXPECT_THAT(CheckAttributeValueTypes(J("\"x\""), Position::kMember),
              StatusIs(ErrorCode::kSerialization, Eq("Unexpected field type")));
}

TEST(JsonCodecTest, InvalidBase64) {
  EXPECT_THAT(Decode(R"({"B":"23456"})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("Base64 encoded length is expected a multiple of 4 bytes "
                          "but found: 5")));
  EXPECT_THAT(Decode(R"({"B":"=+/="})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("Invalid last non-pad Base64 character dectected")));
  EXPECT_THAT(Decode(R"({"BS":["YQ==","a*bc"]})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("Invalid Base64 character: '*'")));
  EXPECT_THAT(Decode(R"({"B":"+/+="})"),
              StatusIs(ErrorCode::kSerialization,
                       Eq("Invalid last non-pad Base64 character dectected")));
}

TEST(JsonCodecTest, Base64KnownVectors) {
  const std::pair<std::string, std::string> vectors[] = {
      {"", ""},         {"f", "Zg=="},        {"fo", "Zm8="},
      {"foo", "Zm9v"},  {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
      {"foobar", "Zm9vYmFy"}};
  for (const auto& [raw, encoded] : vectors) {
    EXPECT_EQ(Base64Encode(raw), encoded);
    Result<std::string> decoded = Base64Decode(encoded);
    ASSERT_OK(decoded);
    EXPECT_EQ(*decoded, raw);
  }
}

// Past kMaxDecodeDepth attribute-value levels (but within the body's
// kMaxRequestJsonDepth), the decoder's own bound answers.
TEST(JsonCodecTest, DeepNestingIsRejectedWithoutRecursingForever) {
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += R"({"L":[)";
  deep += R"({"S":"x"})";
  for (int i = 0; i < 100; ++i) deep += "]}";
  Result<Json> parsed = ParseRequestBody(R"({"v":)" + deep + "}");
  ASSERT_OK(parsed);
  EXPECT_THAT(CheckAttributeValueTypes((*parsed)["v"]),
              StatusIs(ErrorCode::kValidation,
                       Eq("Nesting Levels have exceeded supported limits: Attributes "
                          "in the item have nested levels beyond supported limit")));
  EXPECT_THAT(DecodeAttributeValue((*parsed)["v"]),
              StatusIs(ErrorCode::kValidation, ::testing::StartsWith("Nesting Levels")));
}

TEST(JsonCodecTest, ParseRequestBody) {
  EXPECT_OK(ParseRequestBody(R"({"a":1})"));
  for (const char* bad : {"", "{", "}{", "[]", "7", "\"a\"", "{\"a\":}", "nul"}) {
    EXPECT_THAT(ParseRequestBody(bad), StatusIs(ErrorCode::kSerialization, Eq("")))
        << bad;
  }
}

// A body nested past kMaxRequestJsonDepth is refused before a tree is
// built: 200,000 levels of plain objects under an attribute value once
// overflowed the stack of the validation that renders bad values.
TEST(JsonCodecTest, ParseRequestBodyRefusesDeepNestingBeforeParsing) {
  const std::string nesting =
      "Nesting Levels have exceeded supported limits: Attributes in the item "
      "have nested levels beyond supported limit";
  auto nested = [](int levels, const char* open, const char* close) {
    std::string s = R"({"TableName":"t","Item":{"x":)";
    for (int i = 0; i < levels; ++i) s += open;
    s += "1";
    for (int i = 0; i < levels; ++i) s += close;
    return s + "}}";
  };
  // The body has 2 levels around the value: the bound is exact.
  const int inner = kMaxRequestJsonDepth - 2;
  EXPECT_OK(ParseRequestBody(nested(inner, R"({"a":)", "}")));
  EXPECT_THAT(ParseRequestBody(nested(inner + 1, R"({"a":)", "}")),
              StatusIs(ErrorCode::kValidation, Eq(nesting)));
  for (int levels : {1'000, 200'000}) {
    EXPECT_THAT(ParseRequestBody(nested(levels, R"({"a":)", "}")),
                StatusIs(ErrorCode::kValidation, Eq(nesting)));
    EXPECT_THAT(ParseRequestBody(nested(levels, "[", "]")),
                StatusIs(ErrorCode::kValidation, Eq(nesting)));
  }
  // Brackets inside strings (escaped quotes included) are text, not nesting.
  const std::string text(100'000, '[');
  EXPECT_OK(ParseRequestBody(R"({"s":"\"[{\\)" + text + R"("})"));
  // Wide is fine: a million elements at depth 2.
  std::string wide = R"({"l":[)";
  for (int i = 0; i < 1'000'000; ++i) wide += i ? ",1" : "1";
  EXPECT_OK(ParseRequestBody(wide + "]}"));
}

TEST(JsonCodecTest, CheckWireTypeForIntegersAndStructures) {
  EXPECT_OK(CheckWireType(J("5"), WireType::kInteger));
  EXPECT_OK(CheckWireType(J("5.5"), WireType::kLong));
  EXPECT_THAT(CheckWireType(J("\"5\""), WireType::kInteger),
              StatusIs(ErrorCode::kSerialization,
                       Eq("STRING_VALUE cannot be converted to Integer")));
  EXPECT_THAT(CheckWireType(J("true"), WireType::kLong),
              StatusIs(ErrorCode::kSerialization, Eq("TRUE_VALUE cannot be converted to Long")));
  EXPECT_THAT(CheckWireType(J("[]"), WireType::kLong),
              StatusIs(ErrorCode::kSerialization,
                       Eq("Unrecognized collection type class java.lang.Long")));
  EXPECT_THAT(CheckWireType(J("{}"), WireType::kInteger),
              StatusIs(ErrorCode::kSerialization,
                       Eq("Start of structure or map found where not expected")));
  EXPECT_THAT(CheckWireType(J("[]"), WireType::kStructure, "a.B"),
              StatusIs(ErrorCode::kSerialization, Eq("Unrecognized collection type class a.B")));
  EXPECT_THAT(CheckWireType(J("1"), WireType::kStructure, "a.B"),
              StatusIs(ErrorCode::kSerialization, Eq("Unexpected field type")));
  EXPECT_THAT(CheckWireType(J("1"), WireType::kStructure, "a.B",
                            Position::kCollectionElement),
              StatusIs(ErrorCode::kSerialization, Eq("Unexpected value type in payload")));
}

TEST(JsonCodecTest, DumpJsonReplacesInvalidUtf8) {
  Json j = std::string("a\xff");
  EXPECT_EQ(DumpJson(j), "\"a\xEF\xBF\xBD\"");
}

}  // namespace
}  // namespace dynarock::api
