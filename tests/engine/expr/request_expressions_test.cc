#include "engine/expr/request_expressions.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "engine/expr/parse_cache.h"
#include "engine/expr/render.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::expr {
namespace {

using namespace testing;  // NOLINT: value builders

std::string Check(std::initializer_list<Parameter> expressions,
                  std::initializer_list<Parameter> legacy, bool names,
                  bool values) {
  Status s = CheckExpressionParameters(expressions, legacy, names, values);
  return s.ok() ? "OK" : s.message();
}

TEST(CheckExpressionParametersTest, MixingListsEveryPresentParameter) {
  EXPECT_EQ(Check({{"UpdateExpression", true}, {"ConditionExpression", true}},
                  {{"AttributeUpdates", true},
                   {"Expected", true},
                   {"ConditionalOperator", false}},
                  true, true),
            "Can not use both expression and non-expression parameters in the "
            "same request: Non-expression parameters: {AttributeUpdates, "
            "Expected} Expression parameters: {UpdateExpression, "
            "ConditionExpression}");
  EXPECT_EQ(
      Check({{"ConditionExpression", true}},
            {{"Expected", true}, {"ConditionalOperator", true}}, false, false),
      "Can not use both expression and non-expression parameters in the "
      "same request: Non-expression parameters: {Expected, "
      "ConditionalOperator} Expression parameters: {ConditionExpression}");
  EXPECT_EQ(Check({{"ProjectionExpression", true}}, {{"AttributesToGet", true}},
                  false, false),
            "Can not use both expression and non-expression parameters in the "
            "same request: Non-expression parameters: {AttributesToGet} "
            "Expression parameters: {ProjectionExpression}");
}

TEST(CheckExpressionParametersTest, NamesAndValuesNeedExpressions) {
  EXPECT_EQ(
      Check({{"ConditionExpression", false}}, {{"Expected", true}}, true, true),
      "ExpressionAttributeNames can only be specified when using "
      "expressions");
  EXPECT_EQ(Check({{"ConditionExpression", false}}, {{"Expected", true}}, false,
                  true),
            "ExpressionAttributeValues can only be specified when using "
            "expressions: ConditionExpression is null");
  EXPECT_EQ(Check({{"UpdateExpression", false}, {"ConditionExpression", false}},
                  {}, false, true),
            "ExpressionAttributeValues can only be specified when using "
            "expressions: UpdateExpression and ConditionExpression are null");
  // A projection uses names but no values.
  EXPECT_EQ(Check({{"ProjectionExpression", true},
                   {"FilterExpression", false},
                   {"KeyConditionExpression", false}},
                  {}, true, true),
            "ExpressionAttributeValues can only be specified when using "
            "expressions: FilterExpression and KeyConditionExpression are "
            "null");
  EXPECT_EQ(Check({{"ProjectionExpression", true}}, {}, true, false), "OK");
  EXPECT_EQ(Check({{"ConditionExpression", false}}, {{"Expected", true}}, false,
                  false),
            "OK");
  EXPECT_EQ(
      Check({{"ConditionExpression", true}}, {{"Expected", false}}, true, true),
      "OK");
}

TEST(RequestExpressionsTest, AttributeMapChecks) {
  auto check = [](std::optional<NameMap> names,
                  std::optional<ValueMap> values) {
    RequestExpressions e(names ? &*names : nullptr,
                         values ? &*values : nullptr);
    Status s = e.CheckAttributeMaps();
    return s.ok() ? std::string("OK") : s.message();
  };
  EXPECT_EQ(check(NameMap{}, ValueMap{}),
            "ExpressionAttributeNames must not be empty");
  EXPECT_EQ(check(NameMap{{"#ok", "a"}, {"a", "a"}}, std::nullopt),
            "ExpressionAttributeNames contains invalid key: Syntax error; key: "
            "\"a\"");
  EXPECT_EQ(check(NameMap{{"#", "a"}}, std::nullopt),
            "ExpressionAttributeNames contains invalid key: Syntax error; key: "
            "\"#\"");
  EXPECT_EQ(check(NameMap{{"#a-b", "a"}}, std::nullopt),
            "ExpressionAttributeNames contains invalid key: Syntax error; key: "
            "\"#a-b\"");
  EXPECT_EQ(check(NameMap{{"#a", ""}}, std::nullopt),
            "ExpressionAttributeNames contains invalid value: Empty attribute "
            "name for key #a");
  // A name over 65535 bytes: DynamoDB's message names no key (measured
  // 2026-09-16, ExtendDB/extenddb#365); 65535 is accepted.
  EXPECT_EQ(check(NameMap{{"#a", std::string(65536, 'n')}}, std::nullopt),
            "1 validation error detected: Attribute name is too large, must "
            "be less than 65536 bytes");
  EXPECT_EQ(check(NameMap{{"#a", std::string(65535, 'n')}}, std::nullopt),
            "OK");
  EXPECT_EQ(check(std::nullopt, ValueMap{}),
            "ExpressionAttributeValues must not be empty");
  EXPECT_EQ(
      check(std::nullopt, ValueMap{{":b", S("a")}, {"b", S("a")}}),
      "ExpressionAttributeValues contains invalid key: Syntax error; key: "
      "\"b\"");
  EXPECT_EQ(check(std::nullopt, ValueMap{{":b", SS({})}}),
            "ExpressionAttributeValues contains invalid value: One or more "
            "parameter values were invalid: An string set  may not be empty "
            "for key :b");
  EXPECT_EQ(check(std::nullopt, ValueMap{{":b", NS({"1", "1.0"})}}),
            "ExpressionAttributeValues contains invalid value: Input "
            "collection contains duplicates for key :b");
  EXPECT_EQ(check(NameMap{{"#A_1", "a"}}, ValueMap{{":V_2", N("1")}}), "OK");
}

TEST(RequestExpressionsTest, ResolvesEveryExpressionWithOneResolver) {
  const NameMap names{{"#n", "name"}, {"#c", "count"}};
  const ValueMap values{{":one", N("1")}, {":x", S("x")}};
  RequestExpressions e(&names, &values);
  ASSERT_OK(e.CheckAttributeMaps());
  ASSERT_OK_AND_ASSIGN(UpdateExpression u, e.Update("SET #c = #c + :one"));
  EXPECT_EQ(RenderResolved(u), "SET count = (count + {N:1})");
  // Not every placeholder is used yet.
  EXPECT_THAT(e.CheckAllUsed(),
              StatusIs(ErrorCode::kValidation,
                       "Value provided in ExpressionAttributeNames unused in "
                       "expressions: keys: {#n}"));
  ASSERT_OK_AND_ASSIGN(ConditionExpression c, e.Condition("#n = :x"));
  EXPECT_EQ(RenderResolved(c), "name = {S:x}");
  EXPECT_OK(e.CheckAllUsed());
  ASSERT_OK_AND_ASSIGN(ProjectionExpression p, e.Projection("#n, b[1]"));
  EXPECT_EQ(RenderResolved(p), "name, b[1]");
}

TEST(RequestExpressionsTest, ErrorsNameTheExpressionKind) {
  RequestExpressions e(nullptr, nullptr);
  EXPECT_THAT(e.Condition("a = :v", ExpressionKind::kFilter),
              StatusIs(ErrorCode::kValidation,
                       "Invalid FilterExpression: An expression attribute "
                       "value used in expression is not defined; attribute "
                       "value: :v"));
  EXPECT_THAT(e.Update(""), StatusIs(ErrorCode::kValidation,
                                     "Invalid UpdateExpression: The "
                                     "expression can not be empty;"));
  EXPECT_THAT(e.Projection("a,"),
              StatusIs(ErrorCode::kValidation,
                       "Invalid ProjectionExpression: Syntax error; token: "
                       "\"<EOF>\", near: \",\""));
}

TEST(ParseCacheTest, ParsesEachTextOnceAndSharesTheTree) {
  const std::string text = "attribute_exists(cache_test_only_a)";
  ASSERT_OK_AND_ASSIGN(auto first,
                       CachedParseCondition(text, ExpressionKind::kCondition));
  ASSERT_OK_AND_ASSIGN(auto second,
                       CachedParseCondition(text, ExpressionKind::kCondition));
  EXPECT_EQ(first.get(), second.get());
  // Another kind is another entry (its messages differ).
  ASSERT_OK_AND_ASSIGN(auto filter,
                       CachedParseCondition(text, ExpressionKind::kFilter));
  EXPECT_NE(first.get(), filter.get());
  EXPECT_EQ(filter->kind, ExpressionKind::kFilter);
  // Failures are not cached, and report the kind.
  EXPECT_THAT(CachedParseUpdate("SET"),
              StatusIs(ErrorCode::kValidation,
                       ::testing::StartsWith("Invalid UpdateExpression: "
                                             "Syntax error")));
}

TEST(ParseCacheTest, StaysBounded) {
  for (size_t i = 0; i < 3 * kParseCacheEntries; ++i) {
    ASSERT_OK(CachedParseProjection("bounded_" + std::to_string(i)).status());
  }
  EXPECT_LE(TEST_ParseCacheSize(), 5 * kParseCacheEntries);
  // Cached trees outlive their eviction.
  ASSERT_OK_AND_ASSIGN(auto kept, CachedParseProjection("kept_a, kept_b"));
  for (size_t i = 0; i < 2 * kParseCacheEntries; ++i) {
    ASSERT_OK(CachedParseProjection("evict_" + std::to_string(i)).status());
  }
  EXPECT_EQ(Render(*kept), "kept_a, kept_b");
}

}  // namespace
}  // namespace dynarock::expr
