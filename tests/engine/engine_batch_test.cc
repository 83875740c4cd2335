// Engine BatchGetItem and BatchWriteItem through the public Engine
// interface: several tables, limits, duplicates, all-or-nothing writes, the
// 16 MB response limit and UnprocessedKeys, with DynamoDB's messages.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/expr/render.h"
#include "engine/value/item_size.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using expr::RenderItem;
using namespace expr::testing;  // NOLINT: value builders
using ::testing::ElementsAre;
using ::testing::Eq;

class EngineBatchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // "One": pk S. "Two": pk S, sk N.
    CreateTableRequest one;
    one.table_name = "One";
    one.attribute_definitions = {{"pk", AttrType::kS}};
    one.key_schema = {{"pk", KeyType::kHash}};
    one.billing_mode = BillingMode::kPayPerRequest;
    ASSERT_OK(db_->CreateTable(one).status());
    CreateTableRequest two = one;
    two.table_name = "Two";
    two.attribute_definitions.push_back({"sk", AttrType::kN});
    two.key_schema.push_back({"sk", KeyType::kRange});
    ASSERT_OK(db_->CreateTable(two).status());
  }

  static WriteRequest Put(Item item) { return WriteRequest{std::move(item), std::nullopt}; }
  static WriteRequest Delete(Item key) { return WriteRequest{std::nullopt, std::move(key)}; }

  Status Write(std::vector<std::pair<std::string, std::vector<WriteRequest>>> items) {
    BatchWriteItemRequest req;
    req.request_items = std::move(items);
    auto r = db_->BatchWriteItem(req);
    if (r.ok()) {
      EXPECT_TRUE(r->unprocessed_items.empty());
    }
    return r.status();
  }

  // The stored item rendered, or "<none>".
  std::string Stored(const std::string& table, Item key) {
    GetItemRequest req;
    req.table_name = table;
    req.key = std::move(key);
    auto r = db_->GetItem(req);
    EXPECT_OK(r.status());
    if (!r.ok() || !r->item) return "<none>";
    return RenderItem(*r->item);
  }

  int64_t ItemCount(const std::string& table) {
    DescribeTableRequest d;
    d.table_name = table;
    auto r = db_->DescribeTable(d);
    EXPECT_OK(r.status());
    return r.ok() ? r->item_count : -1;
  }

  TestEngine db_;
};

TEST_F(EngineBatchTest, WritesAndReadsAcrossTables) {
  ASSERT_OK(Write({{"One", {Put(Item{{"pk", S("a")}, {"v", N("1")}}),
                            Put(Item{{"pk", S("b")}})}},
                   {"Two", {Put(Item{{"pk", S("a")}, {"sk", N("1")}, {"v", S("x")}})}}}));
  EXPECT_EQ(Stored("One", Item{{"pk", S("a")}}), "{pk:{S:a}, v:{N:1}}");
  EXPECT_EQ(ItemCount("One"), 2);
  // Deletes and puts together; deleting a missing item is fine.
  ASSERT_OK(Write({{"One", {Delete(Item{{"pk", S("a")}}), Delete(Item{{"pk", S("zz")}}),
                            Put(Item{{"pk", S("c")}})}}}));
  EXPECT_EQ(Stored("One", Item{{"pk", S("a")}}), "<none>");
  EXPECT_EQ(ItemCount("One"), 2);

  BatchGetItemRequest get;
  KeysAndAttributes one;
  one.keys = {Item{{"pk", S("b")}}, Item{{"pk", S("a")}}, Item{{"pk", S("c")}}};
  KeysAndAttributes two;
  two.keys = {Item{{"pk", S("a")}, {"sk", N("1")}}};
  two.projection_expression = "#v";
  two.expression_attribute_names = ExpressionAttributeNames{{"#v", "v"}};
  get.request_items = {{"One", one}, {"Two", two}};
  ASSERT_OK_AND_ASSIGN(BatchGetItemResult r, db_->BatchGetItem(get));
  ASSERT_EQ(r.responses.size(), 2u);
  EXPECT_EQ(r.responses[0].first, "One");
  std::vector<std::string> got;
  for (const Item& item : r.responses[0].second) got.push_back(RenderItem(item));
  EXPECT_THAT(got, ElementsAre("{pk:{S:b}}", "{pk:{S:c}}"));  // a is gone
  ASSERT_EQ(r.responses[1].second.size(), 1u);
  EXPECT_EQ(RenderItem(r.responses[1].second[0]), "{v:{S:x}}");
  EXPECT_TRUE(r.unprocessed_keys.empty());
}

TEST_F(EngineBatchTest, ABadRequestWritesNothing) {
  ASSERT_OK(Write({{"One", {Put(Item{{"pk", S("keep")}, {"v", N("1")}})}}}));
  // The second table's request has a key of the wrong type.
  EXPECT_THAT(Write({{"One", {Put(Item{{"pk", S("new")}}), Delete(Item{{"pk", S("keep")}})}},
                     {"Two", {Put(Item{{"pk", S("x")}, {"sk", S("not a number")}})}}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided key element does not match the schema")));
  EXPECT_EQ(Stored("One", Item{{"pk", S("new")}}), "<none>");
  EXPECT_EQ(Stored("One", Item{{"pk", S("keep")}}), "{pk:{S:keep}, v:{N:1}}");
  // A missing table, after a valid one.
  EXPECT_THAT(Write({{"One", {Put(Item{{"pk", S("new")}})}},
                     {"Nope", {Put(Item{{"pk", S("x")}})}}}),
              StatusIs(ErrorCode::kResourceNotFound, Eq("Requested resource not found")));
  // An item too large, after a valid one.
  Item big{{"pk", S("big")}, {"b", S(std::string(kMaxItemBytes, 'x'))}};
  EXPECT_THAT(Write({{"One", {Put(Item{{"pk", S("new")}}), Put(big)}}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("Item size has exceeded the maximum allowed size")));
  // The missing key attribute of a put is a schema mismatch (not PutItem's
  // "Missing the key"), and empty keys have their own message.
  EXPECT_THAT(Write({{"Two", {Put(Item{{"pk", S("x")}, {"v", N("1")}})}}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided key element does not match the schema")));
  EXPECT_THAT(Write({{"One", {Delete(Item{{"pk", S("")}})}}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values are not valid. The "
                          "AttributeValue for a key attribute cannot contain an empty "
                          "string value. Key: pk")));
  EXPECT_EQ(Stored("One", Item{{"pk", S("new")}}), "<none>");
  EXPECT_EQ(ItemCount("One"), 1);
}

TEST_F(EngineBatchTest, WriteLimitsAndDuplicates) {
  std::vector<WriteRequest> many;
  for (int i = 0; i < 20; ++i) many.push_back(Put(Item{{"pk", S("k" + std::to_string(i))}}));
  std::vector<WriteRequest> six;
  for (int i = 0; i < 6; ++i) {
    six.push_back(Put(Item{{"pk", S("k")}, {"sk", N(std::to_string(i))}}));
  }
  EXPECT_THAT(Write({{"One", many}, {"Two", six}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("Too many items requested for the BatchWriteItem call")));
  six.pop_back();
  EXPECT_THAT(Write({{"One", many}, {"Two", six}}), IsOk());  // exactly 25
  EXPECT_EQ(ItemCount("One"), 20);
  EXPECT_EQ(ItemCount("Two"), 5);

  // A put and a delete of one item; numbers that are equal are one key.
  EXPECT_THAT(Write({{"Two", {Put(Item{{"pk", S("d")}, {"sk", N("1")}}),
                              Delete(Item{{"pk", S("d")}, {"sk", N("1.0")}})}}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("Provided list of item keys contains duplicates")));
  // The same key in two tables is two items.
  EXPECT_THAT(Write({{"One", {Put(Item{{"pk", S("same")}})}},
                     {"Two", {Put(Item{{"pk", S("same")}, {"sk", N("0")}})}}}),
              IsOk());
  // Neither or both of PutRequest and DeleteRequest.
  EXPECT_THAT(Write({{"One", {WriteRequest{}}}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("Supplied AttributeValue has more than one datatypes set, "
                          "must contain exactly one of the supported datatypes")));
  EXPECT_THAT(Write({{"One", {WriteRequest{Item{{"pk", S("a")}}, Item{{"pk", S("a")}}}}}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("Supplied AttributeValue has more than one datatypes set, "
                          "must contain exactly one of the supported datatypes")));
}

TEST_F(EngineBatchTest, GetLimitsDuplicatesAndKeys) {
  auto get = [&](std::vector<std::pair<std::string, KeysAndAttributes>> items) {
    BatchGetItemRequest req;
    req.request_items = std::move(items);
    return db_->BatchGetItem(req).status();
  };
  KeysAndAttributes dup;
  dup.keys = {Item{{"pk", S("a")}, {"sk", N("1")}}, Item{{"pk", S("b")}, {"sk", N("1")}},
              Item{{"sk", N("1.00")}, {"pk", S("a")}}};
  // Duplicates are found before the table is looked up.
  EXPECT_THAT(get({{"Nope", dup}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("Provided list of item keys contains duplicates")));
  KeysAndAttributes hundred, one_more;
  for (int i = 0; i < 100; ++i) hundred.keys.push_back(Item{{"pk", S(std::to_string(i))}});
  one_more.keys = {Item{{"pk", S("x")}, {"sk", N("1")}}};
  EXPECT_THAT(get({{"One", hundred}, {"Two", one_more}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("Too many items requested for the BatchGetItem call")));
  EXPECT_THAT(get({{"One", hundred}}), IsOk());
  EXPECT_THAT(get({{"Two", one_more}, {"Nope", one_more}}),
              StatusIs(ErrorCode::kResourceNotFound, Eq("Requested resource not found")));
  KeysAndAttributes wrong;
  wrong.keys = {Item{{"pk", S("x")}}};
  EXPECT_THAT(get({{"Two", wrong}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("The provided key element does not match the schema")));
  KeysAndAttributes mixed;
  mixed.keys = {Item{{"pk", S("x")}}};
  mixed.projection_expression = "a";
  mixed.attributes_to_get = std::vector<std::string>{"a"};
  EXPECT_THAT(get({{"One", mixed}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("Can not use both expression and non-expression parameters "
                          "in the same request: Non-expression parameters: "
                          "{AttributesToGet} Expression parameters: "
                          "{ProjectionExpression}")));
  KeysAndAttributes atg;
  atg.keys = {Item{{"pk", S("x")}}};
  atg.attributes_to_get = std::vector<std::string>{"a", "a"};
  EXPECT_THAT(get({{"One", atg}}),
              StatusIs(ErrorCode::kValidation,
                       Eq("One or more parameter values were invalid: Duplicate value "
                          "in attribute name: a")));
}

TEST_F(EngineBatchTest, ResponseStopsAtSixteenMegabytesWithTheRestUnprocessed) {
  // 45 items of 400 KB: 40 fit in 16 MB (40 * 409600 = 16384000 <=
  // 16777216), the 41st would not.
  std::vector<Item> keys;
  for (int i = 0; i < 45; ++i) {
    Item item{{"pk", S("k" + std::to_string(100 + i))}, {"b", S("")}};
    item["b"] = S(std::string(kMaxItemBytes - ItemSize(item), 'x'));
    ASSERT_EQ(ItemSize(item), kMaxItemBytes);
    PutItemRequest put;
    put.table_name = "One";
    put.item = item;
    ASSERT_OK(db_->PutItem(put).status());
    keys.push_back(Item{{"pk", item.at("pk")}});
  }
  BatchGetItemRequest req;
  KeysAndAttributes t;
  t.keys = keys;
  t.consistent_read = true;
  req.request_items = {{"One", t}};
  ASSERT_OK_AND_ASSIGN(BatchGetItemResult r, db_->BatchGetItem(req));
  ASSERT_EQ(r.responses.size(), 1u);
  EXPECT_EQ(r.responses[0].second.size(), 40u);
  ASSERT_EQ(r.unprocessed_keys.size(), 1u);
  const KeysAndAttributes& rest = r.unprocessed_keys[0].second;
  EXPECT_EQ(r.unprocessed_keys[0].first, "One");
  ASSERT_EQ(rest.keys.size(), 5u);
  EXPECT_EQ(RenderItem(rest.keys[0]), "{pk:{S:k140}}");
  EXPECT_TRUE(rest.consistent_read);
  // Sending UnprocessedKeys again reads the rest.
  req.request_items = r.unprocessed_keys;
  ASSERT_OK_AND_ASSIGN(BatchGetItemResult again, db_->BatchGetItem(req));
  EXPECT_EQ(again.responses[0].second.size(), 5u);
  EXPECT_TRUE(again.unprocessed_keys.empty());
  // With a projection the returned items are small: all 45 fit.
  t.projection_expression = "pk";
  req.request_items = {{"One", t}};
  ASSERT_OK_AND_ASSIGN(BatchGetItemResult projected, db_->BatchGetItem(req));
  EXPECT_EQ(projected.responses[0].second.size(), 45u);
  EXPECT_TRUE(projected.unprocessed_keys.empty());
}

}  // namespace
}  // namespace dynarock
