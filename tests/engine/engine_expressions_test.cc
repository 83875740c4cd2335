// Engine item operations with expressions and legacy parameters: UpdateItem,
// conditional PutItem/DeleteItem, GetItem projections, through the public
// Engine interface on an in-memory TestEngine.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "engine/engine.h"
#include "engine/expr/render.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using expr::RenderItem;
using namespace expr::testing;  // NOLINT: value builders
using ::testing::HasSubstr;

constexpr char kConditionFailed[] = "The conditional request failed";

class EngineExpressionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    CreateTableRequest req;
    req.table_name = "Tab";
    req.attribute_definitions = {{"pk", AttrType::kS}, {"sk", AttrType::kN}};
    req.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
    req.billing_mode = BillingMode::kPayPerRequest;
    ASSERT_OK(db_->CreateTable(req).status());
  }

  static Item Key(const std::string& pk = "a") {
    return Item{{"pk", S(pk)}, {"sk", N("1")}};
  }

  UpdateItemRequest Update(std::string expression,
                           ExpressionAttributeValues values = {},
                           ExpressionAttributeNames names = {}) {
    UpdateItemRequest req;
    req.table_name = "Tab";
    req.key = Key();
    req.update_expression = std::move(expression);
    if (!values.empty()) req.expression_attribute_values = std::move(values);
    if (!names.empty()) req.expression_attribute_names = std::move(names);
    return req;
  }

  // The stored item rendered, or "<none>".
  std::string Stored(const std::string& pk = "a") {
    GetItemRequest req;
    req.table_name = "Tab";
    req.key = Key(pk);
    auto r = db_->GetItem(req);
    EXPECT_OK(r.status());
    if (!r.ok() || !r->item) return "<none>";
    return RenderItem(*r->item);
  }

  void Put(Item item) {
    PutItemRequest req;
    req.table_name = "Tab";
    req.item = std::move(item);
    ASSERT_OK(db_->PutItem(req).status());
  }

  TestEngine db_;
};

TEST_F(EngineExpressionsTest, UpdateCreatesTheItemFromTheKey) {
  ASSERT_OK(
      db_->UpdateItem(Update("SET a = :v, b = :v", {{":v", N("1")}})).status());
  EXPECT_EQ(Stored(), "{a:{N:1}, b:{N:1}, pk:{S:a}, sk:{N:1}}");
  DescribeTableRequest d;
  d.table_name = "Tab";
  ASSERT_OK_AND_ASSIGN(TableDescription desc, db_->DescribeTable(d));
  EXPECT_EQ(desc.item_count, 1);
}

TEST_F(EngineExpressionsTest, UpdateThatLeavesOnlyTheKeyStillWritesTheItem) {
  Put(Item{{"pk", S("a")}, {"sk", N("1")}, {"x", N("1")}, {"y", S("y")}});
  ASSERT_OK(db_->UpdateItem(Update("REMOVE x, y")).status());
  EXPECT_EQ(Stored(), "{pk:{S:a}, sk:{N:1}}");
  // No update at all: the item is written with what it has (created from
  // its key when missing).
  UpdateItemRequest bare;
  bare.table_name = "Tab";
  bare.key = Key("b");
  ASSERT_OK(db_->UpdateItem(bare).status());
  EXPECT_EQ(Stored("b"), "{pk:{S:b}, sk:{N:1}}");
  bare.key = Key("c");
  bare.attribute_updates = AttributeUpdates{};
  bare.return_values = ReturnValues::kAllNew;
  ASSERT_OK_AND_ASSIGN(UpdateItemResult r, db_->UpdateItem(bare));
  ASSERT_TRUE(r.attributes.has_value());
  EXPECT_EQ(RenderItem(*r.attributes), "{pk:{S:c}, sk:{N:1}}");
}

TEST_F(EngineExpressionsTest, RemovalsAloneDoNotCreateAMissingItem) {
  UpdateItemRequest remove = Update("REMOVE x");
  remove.key = Key("gone");
  remove.return_values = ReturnValues::kAllNew;
  ASSERT_OK_AND_ASSIGN(UpdateItemResult r, db_->UpdateItem(remove));
  EXPECT_FALSE(r.attributes.has_value());
  UpdateItemRequest del = Update("DELETE s :x REMOVE y", {{":x", SS({"x"})}});
  del.key = Key("gone");
  ASSERT_OK(db_->UpdateItem(del).status());
  UpdateItemRequest legacy;
  legacy.table_name = "Tab";
  legacy.key = Key("gone");
  legacy.attribute_updates =
      AttributeUpdates{{"a", {std::nullopt, AttributeAction::kDelete}},
                       {"s", {NS({"1"}), AttributeAction::kDelete}}};
  ASSERT_OK(db_->UpdateItem(legacy).status());
  EXPECT_EQ(Stored("gone"), "<none>");
  // One writing action is enough to create it.
  UpdateItemRequest mixed = Update("SET a = :v REMOVE x", {{":v", N("1")}});
  mixed.key = Key("gone");
  ASSERT_OK(db_->UpdateItem(mixed).status());
  EXPECT_EQ(Stored("gone"), "{a:{N:1}, pk:{S:gone}, sk:{N:1}}");
}

TEST_F(EngineExpressionsTest, LegacyTypeMismatchIsWordedForAttributeUpdates) {
  Put(Item{{"pk", S("a")}, {"sk", N("1")}, {"s", NS({"1"})}, {"str", S("x")}});
  UpdateItemRequest req;
  req.table_name = "Tab";
  req.key = Key();
  req.attribute_updates =
      AttributeUpdates{{"s", {SS({"x"}), AttributeAction::kDelete}}};
  EXPECT_THAT(db_->UpdateItem(req),
              StatusIs(ErrorCode::kValidation,
                       "Type mismatch for attribute to update"));
  req.attribute_updates =
      AttributeUpdates{{"str", {L({N("1")}), AttributeAction::kAdd}}};
  EXPECT_THAT(db_->UpdateItem(req),
              StatusIs(ErrorCode::kValidation,
                       "Type mismatch for attribute to update"));
  // The expression's own wording is unchanged.
  EXPECT_THAT(db_->UpdateItem(Update("DELETE s :x", {{":x", SS({"x"})}})),
              StatusIs(ErrorCode::kValidation,
                       "An operand in the update expression has an incorrect "
                       "data type"));
}

TEST_F(EngineExpressionsTest, UpdateActionsOfEveryKind) {
  Put(Item{{"pk", S("a")},
           {"sk", N("1")},
           {"n", N("10")},
           {"l", L({S("x"), S("y"), S("z")})},
           {"m", M({{"in", M({{"deep", N("1")}})}})},
           {"s", SS({"p", "q"})},
           {"s2", SS({"p", "q"})},
           {"gone", S("bye")}});
  ASSERT_OK(
      db_->UpdateItem(
             Update("SET n = n + :one, m.#in.deep = :two, l[1] = :new, "
                    "l2 = list_append(l, :tail), c = if_not_exists(c, :one) "
                    "REMOVE gone ADD s :more, tally :one DELETE s2 :p",
                    {{":one", N("1")},
                     {":two", N("2")},
                     {":new", S("Y")},
                     {":tail", L({S("w")})},
                     {":more", SS({"r"})},
                     {":p", SS({"p"})}},
                    {{"#in", "in"}}))
          .status());
  // Every operand reads the item as it was: list_append sees the old list.
  EXPECT_EQ(Stored(),
            "{c:{N:1}, l:{L:[{S:x}, {S:Y}, {S:z}]}, "
            "l2:{L:[{S:x}, {S:y}, {S:z}, {S:w}]}, m:{M:{in:{M:{deep:{N:2}}}}}, "
            "n:{N:11}, pk:{S:a}, s:{SS:[p, q, r]}, s2:{SS:[q]}, sk:{N:1}, "
            "tally:{N:1}}");
}

TEST_F(EngineExpressionsTest, ReturnValuesOfEveryKind) {
  Put(Item{{"pk", S("a")}, {"sk", N("1")}, {"a", N("1")}, {"b", S("keep")}});
  auto update = [&](ReturnValues rv) {
    UpdateItemRequest req =
        Update("SET a = a + :one, c = :one REMOVE b2", {{":one", N("1")}});
    req.return_values = rv;
    auto r = db_->UpdateItem(req);
    EXPECT_OK(r.status());
    return r.ok() && r->attributes ? RenderItem(*r->attributes) : "<none>";
  };
  EXPECT_EQ(update(ReturnValues::kNone), "<none>");
  EXPECT_EQ(update(ReturnValues::kAllOld),
            "{a:{N:2}, b:{S:keep}, c:{N:1}, pk:{S:a}, sk:{N:1}}");
  EXPECT_EQ(update(ReturnValues::kUpdatedOld), "{a:{N:3}, c:{N:1}}");
  EXPECT_EQ(update(ReturnValues::kUpdatedNew), "{a:{N:5}, c:{N:1}}");
  EXPECT_EQ(update(ReturnValues::kAllNew),
            "{a:{N:6}, b:{S:keep}, c:{N:1}, pk:{S:a}, sk:{N:1}}");
  // Nothing old to return for a new item; UPDATED_OLD of a removal.
  UpdateItemRequest fresh = Update("SET x = :one", {{":one", N("1")}});
  fresh.key = Key("new");
  fresh.return_values = ReturnValues::kAllOld;
  ASSERT_OK_AND_ASSIGN(UpdateItemResult r, db_->UpdateItem(fresh));
  EXPECT_FALSE(r.attributes.has_value());
  UpdateItemRequest remove = Update("REMOVE b");
  remove.return_values = ReturnValues::kUpdatedNew;
  ASSERT_OK_AND_ASSIGN(r, db_->UpdateItem(remove));
  EXPECT_FALSE(r.attributes.has_value());
  remove = Update("REMOVE a");
  remove.return_values = ReturnValues::kUpdatedOld;
  ASSERT_OK_AND_ASSIGN(r, db_->UpdateItem(remove));
  ASSERT_TRUE(r.attributes.has_value());
  EXPECT_EQ(RenderItem(*r.attributes), "{a:{N:6}}");
}

TEST_F(EngineExpressionsTest, KeyAttributesCannotBeUpdated) {
  struct Case {
    UpdateItemRequest req;
    std::string key;
  };
  const Case cases[] = {
      {Update("SET pk = :v", {{":v", S("x")}}), "pk"},
      {Update("SET sk = :n", {{":n", N("2")}}), "sk"},
      {Update("REMOVE sk"), "sk"},
      {Update("ADD sk :n", {{":n", N("2")}}), "sk"},
      {Update("SET a = :v, #k = :v", {{":v", S("x")}}, {{"#k", "pk"}}), "pk"},
      {Update("SET pk.nested = :v", {{":v", S("x")}}), "pk"},
  };
  for (const Case& c : cases) {
    EXPECT_THAT(db_->UpdateItem(c.req),
                StatusIs(ErrorCode::kValidation,
                         "One or more parameter values were invalid: Cannot "
                         "update attribute " +
                             c.key + ". This attribute is part of the key"))
        << *c.req.update_expression;
  }
  EXPECT_EQ(Stored(), "<none>");
}

TEST_F(EngineExpressionsTest, UpdatedItemIsValidatedWhole) {
  const std::string big(300 * 1024, 'x');
  Put(Item{{"pk", S("a")}, {"sk", N("1")}, {"big", S(big)}});
  EXPECT_THAT(db_->UpdateItem(Update("SET extra = :v", {{":v", S(big)}})),
              StatusIs(ErrorCode::kValidation,
                       "Item size to update has exceeded the maximum allowed "
                       "size"));
  // Nesting built by the update itself.
  AttributeValue deep = S("leaf");
  for (int i = 0; i < 31; ++i) deep = M({{"m", deep}});
  Put(Item{{"pk", S("a")}, {"sk", N("1")}, {"m", M({})}});
  EXPECT_THAT(db_->UpdateItem(Update("SET m.x = :deep", {{":deep", deep}})),
              StatusIs(ErrorCode::kValidation, HasSubstr("Nesting Levels")));
  EXPECT_EQ(Stored(), "{m:{M:{}}, pk:{S:a}, sk:{N:1}}");
}

TEST_F(EngineExpressionsTest, FailedConditionWritesNothing) {
  Put(Item{{"pk", S("a")}, {"sk", N("1")}, {"v", N("1")}});
  UpdateItemRequest req = Update("SET v = :two", {{":two", N("2")}});
  req.condition.condition_expression = "v = :two";
  auto r = db_->UpdateItem(req);
  EXPECT_THAT(r,
              StatusIs(ErrorCode::kConditionalCheckFailed, kConditionFailed));
  EXPECT_EQ(r.status().item(), nullptr);
  // With ALL_OLD the item as it was comes back on the status.
  req.condition.return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kAllOld;
  r = db_->UpdateItem(req);
  ASSERT_NE(r.status().item(), nullptr);
  EXPECT_EQ(RenderItem(*r.status().item()), "{pk:{S:a}, sk:{N:1}, v:{N:1}}");
  EXPECT_EQ(Stored(), "{pk:{S:a}, sk:{N:1}, v:{N:1}}");
  // A missing item has no old item to return.
  req.key = Key("missing");
  r = db_->UpdateItem(req);
  EXPECT_THAT(r,
              StatusIs(ErrorCode::kConditionalCheckFailed, kConditionFailed));
  EXPECT_EQ(r.status().item(), nullptr);
  EXPECT_EQ(Stored("missing"), "<none>");
}

TEST_F(EngineExpressionsTest, ConditionsOnPutAndDelete) {
  PutItemRequest put;
  put.table_name = "Tab";
  put.item = Item{{"pk", S("a")}, {"sk", N("1")}, {"v", N("1")}};
  put.condition.condition_expression = "attribute_not_exists(pk)";
  ASSERT_OK(db_->PutItem(put).status());
  put.item["v"] = N("2");
  EXPECT_THAT(db_->PutItem(put),
              StatusIs(ErrorCode::kConditionalCheckFailed, kConditionFailed));
  EXPECT_EQ(Stored(), "{pk:{S:a}, sk:{N:1}, v:{N:1}}");

  DeleteItemRequest del;
  del.table_name = "Tab";
  del.key = Key();
  del.condition.condition_expression = "v > :lim";
  del.expression_attribute_values = ExpressionAttributeValues{{":lim", N("5")}};
  del.condition.return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kAllOld;
  auto r = db_->DeleteItem(del);
  EXPECT_THAT(r,
              StatusIs(ErrorCode::kConditionalCheckFailed, kConditionFailed));
  ASSERT_NE(r.status().item(), nullptr);
  EXPECT_EQ(Stored(), "{pk:{S:a}, sk:{N:1}, v:{N:1}}");
  del.expression_attribute_values = ExpressionAttributeValues{{":lim", N("0")}};
  del.return_values = ReturnValues::kAllOld;
  ASSERT_OK_AND_ASSIGN(DeleteItemResult deleted, db_->DeleteItem(del));
  ASSERT_TRUE(deleted.attributes.has_value());
  EXPECT_EQ(Stored(), "<none>");
  // A condition on a missing item sees no attributes.
  EXPECT_THAT(db_->DeleteItem(del),
              StatusIs(ErrorCode::kConditionalCheckFailed, kConditionFailed));
}

TEST_F(EngineExpressionsTest, LegacyExpectedAndAttributeUpdates) {
  UpdateItemRequest req;
  req.table_name = "Tab";
  req.key = Key();
  req.attribute_updates =
      AttributeUpdates{{"a", {N("1"), AttributeAction::kPut}},
                       {"tags", {L({S("x")}), AttributeAction::kAdd}},
                       {"count", {N("5"), AttributeAction::kAdd}}};
  ExpectedAttributeValue absent;
  absent.exists = false;
  req.condition.expected = ExpectedConditions{{"a", absent}};
  req.return_values = ReturnValues::kUpdatedNew;
  ASSERT_OK_AND_ASSIGN(UpdateItemResult r, db_->UpdateItem(req));
  ASSERT_TRUE(r.attributes.has_value());
  EXPECT_EQ(RenderItem(*r.attributes),
            "{a:{N:1}, count:{N:5}, tags:{L:[{S:x}]}}");
  // Now `a` exists: the same request fails.
  EXPECT_THAT(db_->UpdateItem(req),
              StatusIs(ErrorCode::kConditionalCheckFailed, kConditionFailed));
  // Legacy key updates are refused like expression ones.
  req.condition.expected.reset();
  req.attribute_updates =
      AttributeUpdates{{"sk", {N("2"), AttributeAction::kPut}}};
  EXPECT_THAT(db_->UpdateItem(req),
              StatusIs(ErrorCode::kValidation,
                       HasSubstr("Cannot update attribute sk")));
  // DELETE without a value removes.
  req.attribute_updates =
      AttributeUpdates{{"tags", {std::nullopt, AttributeAction::kDelete}}};
  ASSERT_OK(db_->UpdateItem(req).status());
  EXPECT_EQ(Stored(), "{a:{N:1}, count:{N:5}, pk:{S:a}, sk:{N:1}}");
}

TEST_F(EngineExpressionsTest, ParameterChecksComeBeforeTheTable) {
  UpdateItemRequest req = Update("SET a = :v", {{":v", N("1")}});
  req.table_name = "Missing";
  req.condition.expected = ExpectedConditions{};
  EXPECT_THAT(db_->UpdateItem(req),
              StatusIs(ErrorCode::kValidation,
                       "Can not use both expression and non-expression "
                       "parameters in the same request: Non-expression "
                       "parameters: {Expected} Expression parameters: "
                       "{UpdateExpression}"));
  req.condition.expected.reset();
  req.update_expression = "SET a = :w";
  EXPECT_THAT(db_->UpdateItem(req),
              StatusIs(ErrorCode::kValidation,
                       "Invalid UpdateExpression: An expression attribute "
                       "value used in expression is not defined; attribute "
                       "value: :w"));
  req.update_expression = "SET a = :v";
  EXPECT_THAT(db_->UpdateItem(req), StatusIs(ErrorCode::kResourceNotFound,
                                             "Requested resource not found"));
}

TEST_F(EngineExpressionsTest, UnusedAndUndefinedPlaceholdersAcrossExpressions) {
  UpdateItemRequest req =
      Update("SET a = :v", {{":v", N("1")}, {":c", N("2")}, {":z", N("3")}});
  req.condition.condition_expression = "attribute_not_exists(a) OR a < :c";
  EXPECT_THAT(db_->UpdateItem(req),
              StatusIs(ErrorCode::kValidation,
                       "Value provided in ExpressionAttributeValues unused in "
                       "expressions: keys: {:z}"));
  req.expression_attribute_values->erase(":z");
  ASSERT_OK(db_->UpdateItem(req).status());
}

TEST_F(EngineExpressionsTest, PutAndDeleteTakeOnlyNoneOrAllOld) {
  PutItemRequest put;
  put.table_name = "Tab";
  put.item = Key();
  put.return_values = ReturnValues::kAllNew;
  EXPECT_THAT(
      db_->PutItem(put),
      StatusIs(ErrorCode::kValidation, "Return values set to invalid value"));
  DeleteItemRequest del;
  del.table_name = "Tab";
  del.key = Key();
  del.return_values = ReturnValues::kUpdatedOld;
  EXPECT_THAT(
      db_->DeleteItem(del),
      StatusIs(ErrorCode::kValidation, "Return values set to invalid value"));
}

TEST_F(EngineExpressionsTest, GetItemProjections) {
  Put(Item{{"pk", S("a")},
           {"sk", N("1")},
           {"name", S("n")},
           {"l", L({N("0"), N("1"), N("2")})},
           {"m", M({{"x", N("1")}, {"y", N("2")}})}});
  GetItemRequest get;
  get.table_name = "Tab";
  get.key = Key();
  get.projection_expression = "#n, l[2], m.y, absent";
  get.expression_attribute_names = ExpressionAttributeNames{{"#n", "name"}};
  ASSERT_OK_AND_ASSIGN(GetItemResult r, db_->GetItem(get));
  ASSERT_TRUE(r.item.has_value());
  EXPECT_EQ(RenderItem(*r.item),
            "{l:{L:[{N:2}]}, m:{M:{y:{N:2}}}, name:{S:n}}");
  // Nothing matches: an empty item, not no item.
  get.projection_expression = "absent";
  get.expression_attribute_names.reset();
  ASSERT_OK_AND_ASSIGN(r, db_->GetItem(get));
  ASSERT_TRUE(r.item.has_value());
  EXPECT_TRUE(r.item->empty());
  // AttributesToGet.
  get.projection_expression.reset();
  get.attributes_to_get = std::vector<std::string>{"pk", "name"};
  ASSERT_OK_AND_ASSIGN(r, db_->GetItem(get));
  EXPECT_EQ(RenderItem(*r.item), "{name:{S:n}, pk:{S:a}}");
  get.projection_expression = "pk";
  EXPECT_THAT(
      db_->GetItem(get),
      StatusIs(ErrorCode::kValidation,
               HasSubstr("Non-expression parameters: {AttributesToGet} "
                         "Expression parameters: {ProjectionExpression}")));
  get.attributes_to_get.reset();
  get.expression_attribute_names = ExpressionAttributeNames{{"#unused", "x"}};
  EXPECT_THAT(db_->GetItem(get),
              StatusIs(ErrorCode::kValidation,
                       "Value provided in ExpressionAttributeNames unused in "
                       "expressions: keys: {#unused}"));
}

TEST_F(EngineExpressionsTest, ConcurrentIncrementsAreAtomic) {
  constexpr int kThreads = 4;
  constexpr int kEach = 100;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) {
        UpdateItemRequest req;
        req.table_name = "Tab";
        req.key = Key();
        req.update_expression = "ADD n :one";
        req.expression_attribute_values =
            ExpressionAttributeValues{{":one", N("1")}};
        if (!db_->UpdateItem(req).ok()) ++failures;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(Stored(), "{n:{N:" + std::to_string(kThreads * kEach) +
                          "}, pk:{S:a}, sk:{N:1}}");
}

TEST_F(EngineExpressionsTest, ConditionalCreateIsExclusiveUnderConcurrency) {
  // Many writers race to create the same item; exactly one wins.
  constexpr int kThreads = 8;
  std::atomic<int> wins{0}, failed{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      PutItemRequest put;
      put.table_name = "Tab";
      put.item = Item{
          {"pk", S("race")}, {"sk", N("1")}, {"who", N(std::to_string(t))}};
      put.condition.condition_expression = "attribute_not_exists(pk)";
      auto r = db_->PutItem(put);
      if (r.ok()) ++wins;
      if (r.status().code() == ErrorCode::kConditionalCheckFailed) ++failed;
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wins.load(), 1);
  EXPECT_EQ(failed.load(), kThreads - 1);
}

}  // namespace
}  // namespace dynarock
