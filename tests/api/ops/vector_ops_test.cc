// Vector indexes through the in-process Client (api/ops/vector_ops.cc,
// api/ops/vector_codec.cc): the JSON of CreateTable VectorIndexes, the
// table description, SearchVectors' answer and ConsumedCapacity, a write's
// VectorWriteRequestBytes, the shape checks of the new members, and the
// whole error bodies of DynamoDB's documented refusals (developer guide,
// "Troubleshooting vector indexes"; docs/vector-search.md).

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class VectorOpsTest : public ApiTest {
 protected:
  void SetUp() override {
    Reply r = Call("CreateTable", R"({
      "TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                              {"AttributeName":"cat","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "VectorIndexes":[{"IndexName":"emb","VectorAttribute":{"AttributeName":"v"},
        "Dimensions":2,"DistanceFunction":"EUCLIDEAN",
        "SearchSchema":[{"AttributeName":"cat","SearchSchemaElementType":"HASH"}],
        "Projection":{"ProjectionType":"KEYS_ONLY"}}]})");
    ASSERT_EQ(r.http_status, 200) << r;
    created_ = r.body["TableDescription"];
  }
  Reply Put(const std::string& pk, double x, double y, const char* rcc = "NONE") {
    return Call("PutItem", json{{"TableName", "tbl"},
                                {"ReturnConsumedCapacity", rcc},
                                {"Item",
                                 {{"pk", {{"S", pk}}},
                                  {"cat", {{"S", "c"}}},
                                  {"other", {{"S", "x"}}},
                                  {"v", {{"L", {{{"N", std::to_string(x)}},
                                                {{"N", std::to_string(y)}}}}}}}}});
  }
  json created_;
};

TEST_F(VectorOpsTest, DescriptionShape) {
  const json& v = created_["VectorIndexes"][0];
  EXPECT_EQ(v["IndexName"], "emb");
  EXPECT_EQ(v["VectorAttribute"], json({{"AttributeName", "v"}}));
  EXPECT_EQ(v["Dimensions"], 2);
  EXPECT_EQ(v["DistanceFunction"], "EUCLIDEAN");
  EXPECT_EQ(v["SearchSchema"],
            json::parse(R"([{"AttributeName":"cat","SearchSchemaElementType":"HASH"}])"));
  EXPECT_EQ(v["Projection"], json({{"ProjectionType", "KEYS_ONLY"}}));
  EXPECT_EQ(v["IndexArn"], created_["TableArn"].get<std::string>() + "/index/emb");
  EXPECT_FALSE(v.contains("Backfilling"));
}

TEST_F(VectorOpsTest, SearchAnswerAndCapacity) {
  Reply put = Put("a", 0, 0, "INDEXES");
  ASSERT_EQ(put.http_status, 200) << put;
  EXPECT_GT(put.body["ConsumedCapacity"]["VectorIndexes"]["emb"]["VectorWriteRequestBytes"]
                .get<double>(),
            0);
  ASSERT_EQ(Put("b", 3, 4).http_status, 200);
  json search = json::parse(R"({"TableName":"tbl","IndexName":"emb",
      "SearchVector":[{"N":"0"},{"N":"0"}],"TopK":5,
      "SearchConditionExpression":"#c = :c","ExpressionAttributeNames":{"#c":"cat"},
      "ExpressionAttributeValues":{":c":{"S":"c"}}})");
  Reply r = Call("SearchVectors", search);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"SearchResults":[
      {"Item":{"pk":{"S":"a"},"cat":{"S":"c"}},"Score":0.0},
      {"Item":{"pk":{"S":"b"},"cat":{"S":"c"}},"Score":5.0}]})"));
  search["ReturnConsumedCapacity"] = "TOTAL";
  r = Call("SearchVectors", search);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_GT(r.body["ConsumedCapacity"]["VectorSearchRequestBytes"].get<double>(), 0);
}

TEST_F(VectorOpsTest, ShapeChecks) {
  Reply r = Call("SearchVectors", R"({"TableName":"tbl","IndexName":"emb","TopK":1})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body["message"].get<std::string>().find("searchVector"), std::string::npos) << r;
  r = Call("SearchVectors", R"({"TableName":"tbl","IndexName":"emb","TopK":"x",
      "SearchVector":[{"N":"1"},{"N":"1"}]})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body["__type"].get<std::string>().find("SerializationException"),
            std::string::npos) << r;
  r = Call("CreateTable", R"({"TableName":"tb2","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "VectorIndexes":[{"IndexName":"emb","VectorAttribute":{"AttributeName":"v"},
        "Dimensions":2,"DistanceFunction":"MANHATTAN",
        "Projection":{"ProjectionType":"ALL"}}]})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body["message"].get<std::string>().find("MANHATTAN"), std::string::npos) << r;
}

// The documented messages, as whole error bodies.
TEST_F(VectorOpsTest, DocumentedRefusals) {
  ASSERT_EQ(Put("a", 1, 2).http_status, 200);
  auto search = [&](json extra) {
    json req = json::parse(R"({"TableName":"tbl","IndexName":"emb",
        "SearchVector":[{"N":"0"},{"N":"0"}],"TopK":5,
        "SearchConditionExpression":"cat = :c","ExpressionAttributeValues":{":c":{"S":"c"}}})");
    req.update(extra);
    return Call("SearchVectors", req).body;
  };
  EXPECT_FALSE(search(json::object()).contains("__type"));
  const json top_k = ValidationError("Provided TopK value is out of valid range");
  EXPECT_EQ(search({{"TopK", 0}}), top_k);
  EXPECT_EQ(search({{"TopK", 101}}), top_k);
  EXPECT_FALSE(search({{"TopK", 100}}).contains("__type"));
  json no_condition = json::parse(R"({"TableName":"tbl","IndexName":"emb",
      "SearchVector":[{"N":"0"},{"N":"0"}],"TopK":5})");
  EXPECT_EQ(Call("SearchVectors", no_condition).body,
            ValidationError("SearchConditionExpression must be provided when SearchSchema "
                            "has a HASH key"));
  const json comparator =
      ValidationError("Invalid comparator used in SearchConditionExpression");
  EXPECT_EQ(search({{"SearchConditionExpression", "cat < :c"}}), comparator);
  EXPECT_EQ(search({{"SearchConditionExpression", "cat = :c OR cat = :c"}}), comparator);
  EXPECT_EQ(search({{"SearchConditionExpression", "begins_with(cat, :c)"}}), comparator);
  EXPECT_EQ(search({{"IndexName", "nope"}}),
            ValidationError("The table does not have the specified index: nope"));
  EXPECT_EQ(search({{"SearchVector", json::parse(R"([{"N":"0"}])")}}),
            ValidationError("One or more parameter values were invalid: The number of "
                            "dimensions of SearchVector (1) does not match the dimensions "
                            "of the vector index (2)"));
  // Query and Scan do not read a vector index.
  json query = Call("Query", json::parse(R"({"TableName":"tbl","IndexName":"emb",
      "KeyConditionExpression":"cat = :c","ExpressionAttributeValues":{":c":{"S":"c"}}})"))
                   .body;
  EXPECT_EQ(query["__type"], "com.amazon.coral.validate#ValidationException") << query;
  EXPECT_EQ(query["message"].get<std::string>().rfind(
                "Vector indexes do not support Query or Scan operations.", 0),
            0u)
      << query;
  json scan = Call("Scan", json{{"TableName", "tbl"}, {"IndexName", "emb"}}).body;
  EXPECT_EQ(scan["message"], query["message"]) << scan;
}

// A write whose vector is not the index's refuses the whole write; an item
// without the vector is written and not indexed.
TEST_F(VectorOpsTest, WritesOfBadVectors) {
  json item = json::parse(R"({"pk":{"S":"a"},"cat":{"S":"c"},
      "v":{"L":[{"N":"1"},{"N":"2"},{"N":"3"}]}})");
  EXPECT_EQ(Call("PutItem", json{{"TableName", "tbl"}, {"Item", item}}).body,
            ValidationError("One or more parameter values were invalid: The number of "
                            "dimensions of vector attribute v (3) does not match the "
                            "dimensions of the vector index (2) IndexName: emb"));
  item["v"] = json::parse(R"({"L":[{"N":"1"},{"S":"2"}]})");
  EXPECT_EQ(Call("PutItem", json{{"TableName", "tbl"}, {"Item", item}}).body,
            ValidationError("One or more parameter values were invalid: Invalid parameter "
                            "type for vector attribute v element 1: expected N, got S "
                            "IndexName: emb"));
  item["v"] = json::parse(R"({"L":[{"N":"1"},{"N":"1E+39"}]})");
  EXPECT_EQ(Call("PutItem", json{{"TableName", "tbl"}, {"Item", item}}).body,
            ValidationError("One or more parameter values were invalid: The value of "
                            "vector attribute v element 1 is out of the range of a 32-bit "
                            "float IndexName: emb"));
  EXPECT_FALSE(Call("GetItem", json::parse(R"({"TableName":"tbl","Key":{"pk":{"S":"a"}}})"))
                   .body.contains("Item"));
  item.erase("v");
  ASSERT_EQ(Call("PutItem", json{{"TableName", "tbl"}, {"Item", item}}).http_status, 200);
  Reply r = Call("SearchVectors", json::parse(R"({"TableName":"tbl","IndexName":"emb",
      "SearchVector":[{"N":"0"},{"N":"0"}],"TopK":5,
      "SearchConditionExpression":"cat = :c","ExpressionAttributeValues":{":c":{"S":"c"}}})"));
  EXPECT_EQ(r.body, json::parse(R"({"SearchResults":[]})")) << r;
}

TEST_F(VectorOpsTest, CreateTableRefusals) {
  json req = json::parse(R"({"TableName":"tb2","BillingMode":"PROVISIONED",
      "ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1},
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
      "VectorIndexes":[{"IndexName":"emb","VectorAttribute":{"AttributeName":"v"},
        "Dimensions":2,"DistanceFunction":"COSINE","Projection":{"ProjectionType":"ALL"}}]})");
  EXPECT_EQ(Call("CreateTable", req).body,
            ValidationError("One or more parameter values were invalid: Vector indexes are "
                            "supported only on tables that use on-demand capacity mode "
                            "(BillingMode PAY_PER_REQUEST)"));
  req["BillingMode"] = "PAY_PER_REQUEST";
  req.erase("ProvisionedThroughput");
  req["VectorIndexes"][0]["SearchSchema"] =
      json::parse(R"([{"AttributeName":"cat","SearchSchemaElementType":"INLINE_FILTER"}])");
  EXPECT_EQ(Call("CreateTable", req).body,
            ValidationError("One element in SearchSchema is not defined in attribute "
                            "definitions"));
}

}  // namespace
}  // namespace dynarock::api
