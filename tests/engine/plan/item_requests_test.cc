#include "engine/plan/item_requests.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "engine/expr/render.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

using expr::RenderItem;
using expr::RenderResolved;
using namespace expr::testing;  // NOLINT: value builders

std::string Error(const Status& s) { return s.ok() ? "OK" : s.message(); }
template <typename T>
std::string Error(const Result<T>& r) {
  return Error(r.status());
}

TEST(ItemRequestsTest, PrepareUpdateItemChecksInDynamoDbOrder) {
  UpdateItemRequest req;
  // Everything wrong at once: the mix is reported first ...
  req.update_expression = "SET";
  req.attribute_updates =
      AttributeUpdates{{"a", {std::nullopt, AttributeAction::kPut}}};
  req.condition.expected = ExpectedConditions{{"b", {}}};
  req.expression_attribute_values = ExpressionAttributeValues{};
  EXPECT_EQ(Error(PrepareUpdateItem(req)),
            "Can not use both expression and non-expression parameters in the "
            "same request: Non-expression parameters: {AttributeUpdates, "
            "Expected} Expression parameters: {UpdateExpression}");
  // ... then AttributeUpdates, then Expected ...
  req.update_expression.reset();
  req.expression_attribute_values.reset();
  EXPECT_EQ(Error(PrepareUpdateItem(req)),
            "One or more parameter values were invalid: Only DELETE action is "
            "allowed when no attribute value is specified");
  req.attribute_updates.reset();
  EXPECT_EQ(Error(PrepareUpdateItem(req)),
            "One or more parameter values were invalid: Value must be provided "
            "when Exists is null for Attribute: b");
  // ... then the maps, then the UpdateExpression, then the condition, then
  // unused placeholders.
  req.condition.expected.reset();
  req.update_expression = "SET";
  req.condition.condition_expression = "nope";
  req.expression_attribute_values = ExpressionAttributeValues{};
  EXPECT_EQ(Error(PrepareUpdateItem(req)),
            "ExpressionAttributeValues must not be empty");
  req.expression_attribute_values = ExpressionAttributeValues{{":x", N("1")}};
  EXPECT_EQ(Error(PrepareUpdateItem(req)),
            "Invalid UpdateExpression: Syntax error; token: \"<EOF>\", near: "
            "\"SET\"");
  req.update_expression = "SET a = :y";
  EXPECT_EQ(Error(PrepareUpdateItem(req)),
            "Invalid UpdateExpression: An expression attribute value used in "
            "expression is not defined; attribute value: :y");
  req.update_expression = "SET a = :v";
  req.expression_attribute_values =
      ExpressionAttributeValues{{":v", N("1")}, {":x", N("1")}};
  EXPECT_EQ(
      Error(PrepareUpdateItem(req)),
      "Invalid ConditionExpression: Syntax error; token: \"<EOF>\", near: "
      "\"nope\"");
  req.condition.condition_expression = "attribute_exists(a)";
  EXPECT_EQ(
      Error(PrepareUpdateItem(req)),
      "Value provided in ExpressionAttributeValues unused in expressions: "
      "keys: {:x}");
  req.expression_attribute_values->erase(":x");
  ASSERT_OK_AND_ASSIGN(PreparedWrite w, PrepareUpdateItem(req));
  EXPECT_EQ(RenderResolved(*w.update), "SET a = {N:1}");
  EXPECT_EQ(RenderResolved(*w.condition), "attribute_exists(a)");
  EXPECT_FALSE(w.legacy_update);
  EXPECT_FALSE(w.return_old_item_on_failure);
}

TEST(ItemRequestsTest, PreparePutItemChecksTheItemBeforeReturnValues) {
  PutItemRequest req;
  req.item = Item{{"s", SS({})}};
  req.return_values = ReturnValues::kAllNew;
  req.condition.condition_expression = "oops(";
  EXPECT_EQ(
      Error(PreparePutItem(req)),
      "One or more parameter values were invalid: An string set  may not be "
      "empty");
  req.item = Item{{"s", SS({"x"})}};
  EXPECT_EQ(Error(PreparePutItem(req)), "Return values set to invalid value");
  req.return_values = ReturnValues::kAllOld;
  EXPECT_THAT(Error(PreparePutItem(req)),
              ::testing::StartsWith("Invalid ConditionExpression: "));
  req.condition.condition_expression.reset();
  req.condition.conditional_operator = ConditionalOperator::kOr;
  EXPECT_EQ(Error(PreparePutItem(req)),
            "ConditionalOperator cannot be used without Filter or Expected");
}

TEST(ItemRequestsTest, CheckParameterUseReadsOnlyPresence) {
  DeleteItemRequest del;
  del.condition.expected = ExpectedConditions{};
  del.expression_attribute_values = ExpressionAttributeValues{};
  EXPECT_EQ(Error(CheckParameterUse(del)),
            "ExpressionAttributeValues can only be specified when using "
            "expressions: ConditionExpression is null");
  GetItemRequest get;
  get.expression_attribute_names = ExpressionAttributeNames{};
  EXPECT_EQ(Error(CheckParameterUse(get)),
            "ExpressionAttributeNames can only be specified when using "
            "expressions");
  get.projection_expression = "a";
  EXPECT_EQ(Error(CheckParameterUse(get)), "OK");
}

TEST(ItemRequestsTest, ConditionFailureCarriesTheOldItemOnlyWhenAsked) {
  UpdateItemRequest req;
  req.condition.condition_expression = "a = :v";
  req.expression_attribute_values = ExpressionAttributeValues{{":v", N("2")}};
  ASSERT_OK_AND_ASSIGN(PreparedWrite w, PrepareUpdateItem(req));
  const std::optional<Item> old = Item{{"a", N("1")}};
  Status s = CheckCondition(w, old);
  EXPECT_THAT(s, StatusIs(ErrorCode::kConditionalCheckFailed,
                          "The conditional request failed"));
  EXPECT_EQ(s.item(), nullptr);
  w.return_old_item_on_failure = true;
  s = CheckCondition(w, old);
  ASSERT_NE(s.item(), nullptr);
  EXPECT_EQ(RenderItem(*s.item()), "{a:{N:1}}");
  EXPECT_EQ(CheckCondition(w, std::nullopt).item(), nullptr);
  EXPECT_OK(CheckCondition(w, Item{{"a", N("2")}}));
  EXPECT_OK(CheckCondition(PreparedWrite{}, std::nullopt));
}

TEST(ItemRequestsTest, KeyAttributesAreRefusedByTopLevelName) {
  const KeyDef key{.hash_name = "pk",
                   .hash_type = AttrType::kS,
                   .range_name = "sk",
                   .range_type = AttrType::kN};
  auto check = [&](const char* text) {
    UpdateItemRequest req;
    req.update_expression = text;
    req.expression_attribute_values = ExpressionAttributeValues{{":v", N("1")}};
    auto w = PrepareUpdateItem(req);
    EXPECT_OK(w.status()) << text;
    return Error(CheckKeyNotUpdated(*w->update, key));
  };
  EXPECT_EQ(
      check("SET sk.x = :v"),
      "One or more parameter values were invalid: Cannot update attribute "
      "sk. This attribute is part of the key");
  EXPECT_EQ(
      check("SET a = :v REMOVE pk"),
      "One or more parameter values were invalid: Cannot update attribute "
      "pk. This attribute is part of the key");
  EXPECT_EQ(check("SET pkx = :v, skx = :v"), "OK");
}

TEST(ItemRequestsTest, UpdateReturnValues) {
  UpdateItemRequest req;
  req.update_expression = "SET a.b = :v, n = :v REMOVE gone";
  req.expression_attribute_values = ExpressionAttributeValues{{":v", N("9")}};
  ASSERT_OK_AND_ASSIGN(PreparedWrite w, PrepareUpdateItem(req));
  const Item key{{"pk", S("k")}};
  const std::optional<Item> old = Item{{"pk", S("k")},
                                       {"a", M({{"b", N("1")}, {"c", N("2")}})},
                                       {"gone", S("x")}};
  ASSERT_OK_AND_ASSIGN(std::optional<Item> next, UpdatedItem(w, key, old));
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(RenderItem(*next), "{a:{M:{b:{N:9}, c:{N:2}}}, n:{N:9}, pk:{S:k}}");
  auto rv = [&](ReturnValues r) {
    std::optional<Item> out = UpdateReturnValues(r, w, old, next);
    return out ? RenderItem(*out) : "<none>";
  };
  EXPECT_EQ(rv(ReturnValues::kNone), "<none>");
  EXPECT_EQ(rv(ReturnValues::kUpdatedOld), "{a:{M:{b:{N:1}}}, gone:{S:x}}");
  EXPECT_EQ(rv(ReturnValues::kUpdatedNew), "{a:{M:{b:{N:9}}}, n:{N:9}}");
  EXPECT_EQ(rv(ReturnValues::kAllOld), RenderItem(*old));
  EXPECT_EQ(rv(ReturnValues::kAllNew), RenderItem(*next));
  // A missing item starts as its key, which has no map `a` to set into.
  EXPECT_EQ(Error(UpdatedItem(w, key, std::nullopt)),
            "The document path provided in the update expression is invalid "
            "for update");
}

TEST(ItemRequestsTest, UpsertStartsFromTheKey) {
  UpdateItemRequest req;
  req.update_expression = "SET n = if_not_exists(n, :z) + :one";
  req.expression_attribute_values =
      ExpressionAttributeValues{{":z", N("0")}, {":one", N("1")}};
  ASSERT_OK_AND_ASSIGN(PreparedWrite w, PrepareUpdateItem(req));
  ASSERT_OK_AND_ASSIGN(std::optional<Item> next,
                       UpdatedItem(w, Item{{"pk", S("k")}}, std::nullopt));
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(RenderItem(*next), "{n:{N:1}, pk:{S:k}}");
  EXPECT_FALSE(
      UpdateReturnValues(ReturnValues::kUpdatedOld, w, std::nullopt, next)
          .has_value());
}

TEST(ItemRequestsTest, GetItemProjection) {
  GetItemRequest get;
  ASSERT_OK_AND_ASSIGN(auto none, PrepareGetItem(get));
  EXPECT_FALSE(none.has_value());
  get.projection_expression = "#a.b[2], c";
  get.expression_attribute_names = ExpressionAttributeNames{{"#a", "a"}};
  ASSERT_OK_AND_ASSIGN(auto p, PrepareGetItem(get));
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(RenderResolved(*p), "a.b[2], c");
  get.projection_expression = "a, a.b";
  EXPECT_EQ(
      Error(PrepareGetItem(get)),
      "Invalid ProjectionExpression: Two document paths overlap with each "
      "other; must remove or rewrite one of these paths; path one: [a], "
      "path two: [a, b]");
  get.projection_expression.reset();
  get.expression_attribute_names.reset();
  get.attributes_to_get = std::vector<std::string>{"x", "y"};
  ASSERT_OK_AND_ASSIGN(p, PrepareGetItem(get));
  EXPECT_EQ(RenderResolved(*p), "x, y");
}

}  // namespace
}  // namespace dynarock
