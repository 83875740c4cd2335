// PutItem, GetItem, DeleteItem through the in-process Client.

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class ItemOpsTest : public ApiTest {
 protected:
  void SetUp() override { CreateTable("items", /*range=*/true); }

  Reply Put(const json& item, const json& extra = json::object()) {
    json req = {{"TableName", "items"}, {"Item", item}};
    req.update(extra);
    return Call("PutItem", req);
  }
  Reply Get(const json& key, const json& extra = json::object()) {
    json req = {{"TableName", "items"}, {"Key", key}};
    req.update(extra);
    return Call("GetItem", req);
  }
  Reply Update(const json& extra, const json& key = json::parse(R"({"pk":{"S":"a"},"sk":{"N":"1"}})")) {
    json req = {{"TableName", "items"}, {"Key", key}};
    req.update(extra);
    return Call("UpdateItem", req);
  }
  Reply Delete(const json& extra) {
    json req = {{"TableName", "items"},
                {"Key", json::parse(R"({"pk":{"S":"a"},"sk":{"N":"1"}})")}};
    req.update(extra);
    return Call("DeleteItem", req);
  }
};

json ConditionFailed() {
  return ErrorBody("com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
                   "The conditional request failed");
}

const char* kKey = R"({"pk":{"S":"a"},"sk":{"N":"1"}})";

TEST_F(ItemOpsTest, EveryTypeRoundTripsThroughTheEngine) {
  const json item = json::parse(R"({
    "pk":{"S":"a"},"sk":{"N":"1"},
    "s":{"S":"text ☃"},"empty":{"S":""},
    "n":{"N":"-12.50"},"big":{"N":"1E+10"},
    "b":{"B":"AAEC/w=="},"t":{"BOOL":true},"f":{"BOOL":false},"z":{"NULL":true},
    "l":{"L":[{"S":"x"},{"N":"2"},{"L":[]},{"M":{}}]},
    "m":{"M":{"inner":{"M":{"deep":{"SS":["p","q"]}}}}},
    "ss":{"SS":["x","y"]},"ns":{"NS":["3","1.0"]},"bs":{"BS":["YQ==","Yg=="]}})");
  Reply put = Put(item);
  ASSERT_EQ(put.http_status, 200) << put;
  EXPECT_EQ(put.body, json::object());

  Reply got = Get(json::parse(kKey), {{"ConsistentRead", true}});
  ASSERT_EQ(got.http_status, 200) << got;
  json expected = item;
  expected["n"] = {{"N", "-12.5"}};
  expected["big"] = {{"N", "10000000000"}};
  expected["ns"] = {{"NS", {"3", "1"}}};
  EXPECT_EQ(got.body, (json{{"Item", expected}}));
}

TEST_F(ItemOpsTest, GetMissingItemReturnsEmptyObject) {
  Reply r = Get(json::parse(kKey));
  EXPECT_EQ(r.http_status, 200);
  EXPECT_EQ(r.body, json::object());
}

TEST_F(ItemOpsTest, PutReturnValuesAllOld) {
  json item = json::parse(kKey);
  item["v"] = {{"S", "one"}};
  // No old item: no Attributes at all.
  EXPECT_EQ(Put(item, {{"ReturnValues", "ALL_OLD"}}).body, json::object());
  json second = item;
  second["v"] = {{"S", "two"}};
  EXPECT_EQ(Put(second, {{"ReturnValues", "ALL_OLD"}}).body, (json{{"Attributes", item}}));
  EXPECT_EQ(Put(item, {{"ReturnValues", "NONE"}}).body, json::object());
}

TEST_F(ItemOpsTest, DeleteItem) {
  json item = json::parse(kKey);
  item["v"] = {{"N", "5"}};
  ASSERT_EQ(Put(item).http_status, 200);
  Reply r = Call("DeleteItem", json{{"TableName", "items"}, {"Key", json::parse(kKey)},
                                    {"ReturnValues", "ALL_OLD"}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, (json{{"Attributes", item}}));
  EXPECT_EQ(Get(json::parse(kKey)).body, json::object());
  // Deleting a missing item succeeds and returns nothing.
  Reply again = Call("DeleteItem", json{{"TableName", "items"}, {"Key", json::parse(kKey)},
                                        {"ReturnValues", "ALL_OLD"}});
  EXPECT_EQ(again.http_status, 200);
  EXPECT_EQ(again.body, json::object());
}

TEST_F(ItemOpsTest, ReturnValuesOtherThanNoneAndAllOldAreRejected) {
  for (const char* rv : {"ALL_NEW", "UPDATED_OLD", "UPDATED_NEW"}) {
    EXPECT_EQ(Put(json::parse(kKey), {{"ReturnValues", rv}}).body,
              ValidationError("Return values set to invalid value"))
        << rv;
    EXPECT_EQ(Call("DeleteItem", json{{"TableName", "items"}, {"Key", json::parse(kKey)},
                                      {"ReturnValues", rv}})
                  .body,
              ValidationError("Return values set to invalid value"))
        << rv;
  }
  EXPECT_EQ(Put(json::parse(kKey), {{"ReturnValues", "none"}}).body,
            ValidationError("1 validation error detected: Value 'none' at 'returnValues' "
                            "failed to satisfy constraint: Member must satisfy enum value "
                            "set: [ALL_NEW, UPDATED_OLD, ALL_OLD, NONE, UPDATED_NEW]"));
}

TEST_F(ItemOpsTest, MissingRequiredMembers) {
  EXPECT_EQ(Call("PutItem", "{}").body,
            ValidationError("2 validation errors detected: Value null at 'tableName' failed "
                            "to satisfy constraint: Member must not be null; Value null at "
                            "'item' failed to satisfy constraint: Member must not be null"));
  EXPECT_EQ(Call("GetItem", R"({"TableName":"items"})").body,
            ValidationError("1 validation error detected: Value null at 'key' failed to "
                            "satisfy constraint: Member must not be null"));
  EXPECT_EQ(Call("DeleteItem", R"({"Key":{}})").body,
            ValidationError("1 validation error detected: Value null at 'tableName' failed "
                            "to satisfy constraint: Member must not be null"));
}

TEST_F(ItemOpsTest, ConstraintErrorsComeBeforeAttributeValueErrors) {
  // The empty AttributeValue would fail too, but tableName is reported.
  EXPECT_EQ(Call("PutItem", R"({"Item":{"pk":{}},"ReturnConsumedCapacity":"ALL"})").body,
            ValidationError("2 validation errors detected: Value null at 'tableName' failed "
                            "to satisfy constraint: Member must not be null; Value 'ALL' at "
                            "'returnConsumedCapacity' failed to satisfy constraint: Member "
                            "must satisfy enum value set: [INDEXES, TOTAL, NONE]"));
}

TEST_F(ItemOpsTest, MalformedAttributeValues) {
  json item = json::parse(kKey);
  item["x"] = json::object();
  EXPECT_EQ(Put(item).body,
            ValidationError("Supplied AttributeValue is empty, must contain exactly one of "
                            "the supported datatypes"));
  item["x"] = {{"S", "a"}, {"BOOL", true}};
  EXPECT_EQ(Put(item).body,
            ValidationError("Supplied AttributeValue has more than one datatypes set, must "
                            "contain exactly one of the supported datatypes"));
  item["x"] = {{"NULL", false}};
  EXPECT_EQ(Put(item).body,
            ValidationError("One or more parameter values were invalid: Null attribute "
                            "value types must have the value of true"));
  item["x"] = {{"S", 1}};
  EXPECT_EQ(Put(item).body, SerializationError("NUMBER_VALUE cannot be converted to String"));
  item["x"] = {{"B", "abc"}};
  EXPECT_EQ(Put(item).body,
            SerializationError("Base64 encoded length is expected a multiple of 4 bytes "
                               "but found: 3"));
  item["x"] = "plain";
  EXPECT_EQ(Put(item).body, SerializationError("Unexpected value type in payload"));
  EXPECT_EQ(Call("PutItem", R"({"TableName":"items","Item":[]})").body,
            SerializationError("Unrecognized collection type java.util.Map<java.lang.String, "
                               "com.amazonaws.dynamodb.v20120810.AttributeValue>"));
  EXPECT_EQ(Get(json::parse(kKey), {{"ConsistentRead", "true"}}).body,
            SerializationError("Unexpected token received from parser"));
}

TEST_F(ItemOpsTest, NumberErrorsAreTheEngines) {
  json item = json::parse(kKey);
  item["x"] = {{"N", "1" + std::string(38, '1')}};
  Reply r = Put(item);
  EXPECT_EQ(r.body,
            ValidationError("Attempting to store more than 38 significant digits in a Number"));
}

TEST_F(ItemOpsTest, KeyAndItemErrorsFromTheEngine) {
  EXPECT_EQ(Put(json::parse(R"({"pk":{"S":"a"}})")).body,
            ValidationError("One or more parameter values were invalid: Missing the key sk "
                            "in the item"));
  EXPECT_EQ(Get(json::parse(R"({"pk":{"S":"a"}})")).body,
            ValidationError("The provided key element does not match the schema"));
  json item = json::parse(kKey);
  item["s"] = {{"SS", json::array()}};
  EXPECT_EQ(Put(item).http_status, 400);
  EXPECT_EQ(Call("PutItem", R"({"TableName":"nope","Item":{"pk":{"S":"a"}}})").body,
            ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                      "Requested resource not found"));
}

// dynalite's getItem, deleteItem and updateItem tests, recorded against
// DynamoDB: a Key's set is checked as it is read, before AttributesToGet
// and AttributeUpdates and before the table is looked up; the keys of
// ExpressionAttributeValues before its values.
TEST_F(ItemOpsTest, KeyValuesAndValueKeysAreCheckedFirst) {
  EXPECT_EQ(Call("GetItem", R"({"TableName":"nope","Key":{"a":{"SS":[]}},
                               "AttributesToGet":["a","a"]})").body,
            ValidationError("One or more parameter values were invalid: An string set  may "
                            "not be empty"));
  EXPECT_EQ(Call("DeleteItem", R"({"TableName":"nope","Key":{"a":{"NS":["1","1"]}}})").body,
            ValidationError("Input collection contains duplicates"));
  EXPECT_EQ(Call("UpdateItem", R"({"TableName":"nope","Key":{"a":{"NS":[]}},
                                  "AttributeUpdates":{"b":{"Action":"PUT"}}})").body,
            ValidationError("One or more parameter values were invalid: An number set  may "
                            "not be empty"));
  EXPECT_EQ(Call("DeleteItem", R"({"TableName":"nope","Key":{},"ConditionExpression":"",
                                  "ExpressionAttributeValues":{":b":{"a":""},"b":{"S":"a"}}})")
                .body,
            ValidationError("ExpressionAttributeValues contains invalid key: Syntax error; "
                            "key: \"b\""));
}

TEST_F(ItemOpsTest, UnimplementedOptionsAreAcceptedAndIgnored) {
  // They change nothing a client could see yet (capacity issue).
  EXPECT_EQ(Put(json::parse(kKey), {{"ReturnConsumedCapacity", "TOTAL"},
                                    {"ReturnItemCollectionMetrics", "SIZE"},
                                    {"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}})
                .http_status,
            200);
}

TEST_F(ItemOpsTest, DeeplyNestedItemIsRejected) {
  std::string deep;
  for (int i = 0; i < 200000; ++i) deep += R"({"M":{"a":)";
  deep += R"({"S":"x"})";
  for (int i = 0; i < 200000; ++i) deep += "}}";
  const std::string body =
      R"({"TableName":"items","Item":{"pk":{"S":"a"},"sk":{"N":"1"},"d":)" + deep + "}}";
  Reply r = Call("PutItem", std::string_view(body));
  EXPECT_EQ(r.body, ValidationError("Nesting Levels have exceeded supported limits: "
                                    "Attributes in the item have nested levels beyond "
                                    "supported limit"));
}

TEST_F(ItemOpsTest, UpdateItemUpsertsAndReturnsWhatWasAskedFor) {
  Reply r = Update({{"UpdateExpression", "SET #c = if_not_exists(#c, :zero) + :one, tags = :t"},
                    {"ExpressionAttributeNames", {{"#c", "count"}}},
                    {"ExpressionAttributeValues",
                     {{":zero", {{"N", "0"}}}, {":one", {{"N", "1"}}}, {":t", {{"SS", {"x"}}}}}},
                    {"ReturnValues", "ALL_NEW"}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"Attributes":{"pk":{"S":"a"},"sk":{"N":"1"},
      "count":{"N":"1"},"tags":{"SS":["x"]}}})"));
  // UPDATED_OLD / UPDATED_NEW hold only the updated attributes.
  r = Update({{"UpdateExpression", "ADD #c :one DELETE tags :t"},
              {"ExpressionAttributeNames", {{"#c", "count"}}},
              {"ExpressionAttributeValues", {{":one", {{"N", "1"}}}, {":t", {{"SS", {"x"}}}}}},
              {"ReturnValues", "UPDATED_OLD"}});
  EXPECT_EQ(r.body, json::parse(R"({"Attributes":{"count":{"N":"1"},"tags":{"SS":["x"]}}})"));
  r = Update({{"UpdateExpression", "ADD #c :one"},
              {"ExpressionAttributeNames", {{"#c", "count"}}},
              {"ExpressionAttributeValues", {{":one", {{"N", "1"}}}}},
              {"ReturnValues", "UPDATED_NEW"}});
  EXPECT_EQ(r.body, json::parse(R"({"Attributes":{"count":{"N":"3"}}})"));
  // Nothing to return: no "Attributes" member at all.
  r = Update({{"UpdateExpression", "REMOVE tags"}, {"ReturnValues", "UPDATED_NEW"}});
  EXPECT_EQ(r.body, json::object());
  r = Update({{"UpdateExpression", "REMOVE tags"}, {"ReturnValues", "NONE"}});
  EXPECT_EQ(r.body, json::object());
  r = Update({{"UpdateExpression", "SET x = :v"},
              {"ExpressionAttributeValues", {{":v", {{"BOOL", true}}}}},
              {"ReturnValues", "ALL_OLD"}},
             json::parse(R"({"pk":{"S":"new"},"sk":{"N":"1"}})"));
  EXPECT_EQ(r.body, json::object());
  EXPECT_EQ(Get(json::parse(R"({"pk":{"S":"new"},"sk":{"N":"1"}})")).body,
            json::parse(R"({"Item":{"pk":{"S":"new"},"sk":{"N":"1"},"x":{"BOOL":true}}})"));
}

TEST_F(ItemOpsTest, ConditionalCheckFailedCarriesTheOldItemWhenAsked) {
  json item = json::parse(kKey);
  item["v"] = {{"N", "1"}};
  ASSERT_EQ(Put(item).http_status, 200);
  const json cond = {{"ConditionExpression", "v = :two"},
                     {"ExpressionAttributeValues", {{":two", {{"N", "2"}}}}}};
  json put = item;
  put["v"] = {{"N", "3"}};
  Reply r = Put(put, cond);
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, ConditionFailed());
  json all_old = cond;
  all_old["ReturnValuesOnConditionCheckFailure"] = "ALL_OLD";
  json with_item = ConditionFailed();
  with_item["Item"] = item;
  EXPECT_EQ(Put(put, all_old).body, with_item);
  json update = all_old;
  update["UpdateExpression"] = "SET v = :two";
  EXPECT_EQ(Update(update).body, with_item);
  EXPECT_EQ(Delete(all_old).body, with_item);
  all_old["ReturnValuesOnConditionCheckFailure"] = "NONE";
  EXPECT_EQ(Delete(all_old).body, ConditionFailed());
  // Nothing was written.
  EXPECT_EQ(Get(json::parse(kKey)).body, (json{{"Item", item}}));
}

TEST_F(ItemOpsTest, LegacyParametersWork) {
  Reply r = Update({{"AttributeUpdates",
                     {{"a", {{"Value", {{"N", "5"}}}}},
                      {"l", {{"Action", "ADD"}, {"Value", {{"L", {{{"S", "x"}}}}}}}},
                      {"gone", {{"Action", "DELETE"}}}}},
                    {"Expected", {{"a", {{"Exists", false}}}}},
                    {"ReturnValues", "ALL_NEW"}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"Attributes":{"pk":{"S":"a"},"sk":{"N":"1"},
      "a":{"N":"5"},"l":{"L":[{"S":"x"}]}}})"));
  EXPECT_EQ(Update({{"AttributeUpdates", {{"a", {{"Value", {{"N", "6"}}}}}}},
                    {"Expected", {{"a", {{"Exists", false}}}}}})
                .body,
            ConditionFailed());
  EXPECT_EQ(Update({{"AttributeUpdates", {{"a", {{"Value", {{"N", "6"}}}}}}},
                    {"Expected",
                     {{"a", {{"ComparisonOperator", "BETWEEN"},
                             {"AttributeValueList", {{{"N", "1"}}, {{"N", "5"}}}}}},
                      {"b", {{"ComparisonOperator", "NOT_NULL"}}}}},
                    {"ConditionalOperator", "OR"}})
                .http_status,
            200);
  EXPECT_EQ(Delete({{"Expected", {{"a", {{"Value", {{"N", "7"}}}}}}}}).body, ConditionFailed());
  EXPECT_EQ(Delete({{"Expected", {{"a", {{"Value", {{"N", "6"}}}}}}}}).body, json::object());
  EXPECT_EQ(Get(json::parse(kKey)).body, json::object());
}

TEST_F(ItemOpsTest, ExpressionAndLegacyParameterErrors) {
  // Reported before any AttributeValue is decoded (the Key here is empty).
  const json bad_key = json::parse(R"({"a":{}})");
  EXPECT_EQ(Update({{"Expected", {{"a", json::object()}}},
                    {"AttributeUpdates", json::object()},
                    {"ExpressionAttributeNames", json::object()},
                    {"ExpressionAttributeValues", json::object()},
                    {"ConditionExpression", ""},
                    {"UpdateExpression", ""}},
                   bad_key)
                .body,
            ValidationError("Can not use both expression and non-expression parameters in "
                            "the same request: Non-expression parameters: {AttributeUpdates, "
                            "Expected} Expression parameters: {UpdateExpression, "
                            "ConditionExpression}"));
  EXPECT_EQ(Update({{"Expected", {{"a", json::object()}}},
                    {"ExpressionAttributeNames", json::object()},
                    {"ExpressionAttributeValues", json::object()}},
                   bad_key)
                .body,
            ValidationError("ExpressionAttributeNames can only be specified when using "
                            "expressions"));
  EXPECT_EQ(Update({{"Expected", {{"a", json::object()}}},
                    {"ExpressionAttributeValues", json::object()}},
                   bad_key)
                .body,
            ValidationError("ExpressionAttributeValues can only be specified when using "
                            "expressions: UpdateExpression and ConditionExpression are null"));
  EXPECT_EQ(Delete({{"Expected", {{"a", json::object()}}},
                    {"ExpressionAttributeValues", json::object()}})
                .body,
            ValidationError("ExpressionAttributeValues can only be specified when using "
                            "expressions: ConditionExpression is null"));
  EXPECT_EQ(Update({{"ConditionalOperator", "AND"}}).body,
            ValidationError("ConditionalOperator cannot be used without Filter or Expected"));
  EXPECT_EQ(Update({{"ConditionalOperator", "AND"}, {"UpdateExpression", "REMOVE a"}}).body,
            ValidationError("Can not use both expression and non-expression parameters in "
                            "the same request: Non-expression parameters: "
                            "{ConditionalOperator} Expression parameters: {UpdateExpression}"));
  // Then the Key's values, then the legacy parameters, then the maps.
  EXPECT_EQ(Update({{"ExpressionAttributeNames", json::object()},
                    {"ExpressionAttributeValues", json::object()},
                    {"ConditionExpression", ""},
                    {"UpdateExpression", ""}},
                   bad_key)
                .body,
            ValidationError("Supplied AttributeValue is empty, must contain exactly one of "
                            "the supported datatypes"));
  EXPECT_EQ(Update({{"Expected", {{"a", json::object()}}},
                    {"AttributeUpdates", {{"a", {{"Action", "PUT"}}}}}})
                .body,
            ValidationError("One or more parameter values were invalid: Only DELETE action "
                            "is allowed when no attribute value is specified"));
  EXPECT_EQ(Update({{"Expected", {{"a", json::object()}}}}).body,
            ValidationError("One or more parameter values were invalid: Value must be "
                            "provided when Exists is null for Attribute: a"));
  EXPECT_EQ(Update({{"ExpressionAttributeNames", json::object()},
                    {"ExpressionAttributeValues", json::object()},
                    {"UpdateExpression", ""}})
                .body,
            ValidationError("ExpressionAttributeNames must not be empty"));
  EXPECT_EQ(Update({{"ExpressionAttributeNames", {{"a", "a"}}}, {"UpdateExpression", ""}}).body,
            ValidationError("ExpressionAttributeNames contains invalid key: Syntax error; "
                            "key: \"a\""));
  EXPECT_EQ(Update({{"ExpressionAttributeValues", json::object()},
                    {"UpdateExpression", ""}})
                .body,
            ValidationError("ExpressionAttributeValues must not be empty"));
  EXPECT_EQ(Update({{"ExpressionAttributeValues", {{":b", json::object()}}},
                    {"UpdateExpression", ""}})
                .body,
            ValidationError("ExpressionAttributeValues contains invalid value: Supplied "
                            "AttributeValue is empty, must contain exactly one of the "
                            "supported datatypes for key :b"));
  EXPECT_EQ(Update({{"ExpressionAttributeValues", {{":b", {{"NS", json::array()}}}}},
                    {"UpdateExpression", ""}})
                .body,
            ValidationError("ExpressionAttributeValues contains invalid value: One or more "
                            "parameter values were invalid: An number set  may not be empty "
                            "for key :b"));
  EXPECT_EQ(Update({{"UpdateExpression", ""}}).body,
            ValidationError("Invalid UpdateExpression: The expression can not be empty;"));
  EXPECT_EQ(Update({{"UpdateExpression", "SET a = :v"},
                    {"ConditionExpression", "whatever"},
                    {"ExpressionAttributeValues", {{":v", {{"S", "x"}}}}}})
                .body,
            ValidationError("Invalid ConditionExpression: Syntax error; token: \"<EOF>\", "
                            "near: \"whatever\""));
  EXPECT_EQ(Update({{"UpdateExpression", "SET sk = :v"},
                    {"ExpressionAttributeValues", {{":v", {{"N", "2"}}}}}})
                .body,
            ValidationError("One or more parameter values were invalid: Cannot update "
                            "attribute sk. This attribute is part of the key"));
  EXPECT_EQ(Update({{"UpdateExpression", "SET a = b"}}).body,
            ValidationError("The provided expression refers to an attribute that does not "
                            "exist in the item"));
  EXPECT_EQ(Call("UpdateItem", R"({"TableName":"nope","Key":{"pk":{"S":"a"}},
                                   "UpdateExpression":"REMOVE a"})")
                .body,
            ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                      "Requested resource not found"));
}

TEST_F(ItemOpsTest, PutItemValuesAreCheckedBeforeItsExpressions) {
  json item = json::parse(kKey);
  item["s"] = {{"SS", json::array()}};
  EXPECT_EQ(Put(item, {{"ConditionExpression", "whatever"}}).body,
            ValidationError("One or more parameter values were invalid: An string set  may "
                            "not be empty"));
  item.erase("s");
  EXPECT_EQ(Put(item, {{"ConditionExpression", "whatever"}}).body,
            ValidationError("Invalid ConditionExpression: Syntax error; token: \"<EOF>\", "
                            "near: \"whatever\""));
}

TEST_F(ItemOpsTest, LegacyMemberConstraints) {
  EXPECT_EQ(Update({{"Expected", {{"a", {{"ComparisonOperator", "XX"}}}}}}).body,
            ValidationError("1 validation error detected: Value 'XX' at "
                            "'expected.a.member.comparisonOperator' failed to satisfy "
                            "constraint: Member must satisfy enum value set: [IN, NULL, "
                            "BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, "
                            "GE, CONTAINS]"));
  EXPECT_EQ(Update({{"AttributeUpdates", {{"a", {{"Action", "REPLACE"}}}}}}).body,
            ValidationError("1 validation error detected: Value 'REPLACE' at "
                            "'attributeUpdates.a.member.action' failed to satisfy "
                            "constraint: Member must satisfy enum value set: [ADD, PUT, "
                            "DELETE]"));
  EXPECT_EQ(Update({{"ReturnValuesOnConditionCheckFailure", "ALL_NEW"}}).body,
            ValidationError("1 validation error detected: Value 'ALL_NEW' at "
                            "'returnValuesOnConditionCheckFailure' failed to satisfy "
                            "constraint: Member must satisfy enum value set: [ALL_OLD, "
                            "NONE]"));
  EXPECT_EQ(Update({{"Expected", {{"a", {{"Exists", "maybe"}}}}}}).http_status, 400);
  EXPECT_EQ(Call("UpdateItem", R"({"TableName":"items"})").body,
            ValidationError("1 validation error detected: Value null at 'key' failed to "
                            "satisfy constraint: Member must not be null"));
}

TEST_F(ItemOpsTest, GetItemProjections) {
  json item = json::parse(kKey);
  item["name"] = {{"S", "n"}};
  item["m"] = json::parse(R"({"M":{"x":{"N":"1"},"y":{"L":[{"S":"a"},{"S":"b"}]}}})");
  ASSERT_EQ(Put(item).http_status, 200);
  EXPECT_EQ(Get(json::parse(kKey), {{"ProjectionExpression", "#n, m.y[1]"},
                                    {"ExpressionAttributeNames", {{"#n", "name"}}}})
                .body,
            json::parse(R"({"Item":{"name":{"S":"n"},"m":{"M":{"y":{"L":[{"S":"b"}]}}}}})"));
  EXPECT_EQ(Get(json::parse(kKey), {{"ProjectionExpression", "absent"}}).body,
            json::parse(R"({"Item":{}})"));
  EXPECT_EQ(Get(json::parse(kKey), {{"AttributesToGet", {"pk", "name"}}}).body,
            json::parse(R"({"Item":{"pk":{"S":"a"},"name":{"S":"n"}}})"));
  EXPECT_EQ(Get(json::parse(kKey), {{"AttributesToGet", {"pk", "pk"}}}).body,
            ValidationError("One or more parameter values were invalid: Duplicate value in "
                            "attribute name: pk"));
  EXPECT_EQ(Get(json::parse(kKey), {{"AttributesToGet", {"pk"}},
                                    {"ProjectionExpression", "pk"}})
                .body,
            ValidationError("Can not use both expression and non-expression parameters in "
                            "the same request: Non-expression parameters: {AttributesToGet} "
                            "Expression parameters: {ProjectionExpression}"));
  EXPECT_EQ(Get(json::parse(kKey), {{"ExpressionAttributeNames", {{"#n", "name"}}}}).body,
            ValidationError("ExpressionAttributeNames can only be specified when using "
                            "expressions"));
  EXPECT_EQ(Get(json::parse(kKey), {{"ProjectionExpression", "name"}}).body,
            ValidationError("Invalid ProjectionExpression: Attribute name is a reserved "
                            "keyword; reserved keyword: name"));
}

}  // namespace
}  // namespace dynarock::api
