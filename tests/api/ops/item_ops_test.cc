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
};

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
            SerializationError("'abc' can not be converted to a Blob: Base64 encoded length "
                               "is expected a multiple of 4 bytes but found: 3"));
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

}  // namespace
}  // namespace dynarock::api
