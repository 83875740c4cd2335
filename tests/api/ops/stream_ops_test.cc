// The DynamoDB Streams API through the in-process Client: StreamSpecification
// in CreateTable / UpdateTable / DescribeTable, and ListStreams,
// DescribeStream, GetShardIterator, GetRecords as whole JSON requests and
// responses under the "DynamoDBStreams_20120810." target.

#include <gtest/gtest.h>

#include <string>

#include "engine/requests/scope.h"
#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class StreamOpsTest : public ApiTest {
 protected:
  std::string EnableStream(const std::string& table, const char* view) {
    Reply r = Call("UpdateTable", json{{"TableName", table},
                                       {"StreamSpecification",
                                        {{"StreamEnabled", true}, {"StreamViewType", view}}}});
    EXPECT_EQ(r.http_status, 200) << r;
    return r.body["TableDescription"].value("LatestStreamArn", "");
  }
  Reply Streams(const char* op, const json& body) {
    return Call(std::string("DynamoDBStreams_20120810.") + op, body);
  }
};

TEST_F(StreamOpsTest, CreateTableWithAStreamDescribesIt) {
  Reply r = Call("CreateTable", R"({"TableName": "tab", "BillingMode": "PAY_PER_REQUEST",
    "AttributeDefinitions": [{"AttributeName": "pk", "AttributeType": "S"}],
    "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}],
    "StreamSpecification": {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"}})");
  ASSERT_EQ(r.http_status, 200) << r;
  const json& d = r.body["TableDescription"];
  EXPECT_EQ(d["StreamSpecification"],
            json::parse(R"({"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"})"));
  EXPECT_EQ(d["LatestStreamArn"], d["TableArn"].get<std::string>() + "/stream/" +
                                      d["LatestStreamLabel"].get<std::string>());
  Reply described = Call("DescribeTable", R"({"TableName": "tab"})");
  EXPECT_EQ(described.body["Table"]["LatestStreamArn"], d["LatestStreamArn"]);
}

TEST_F(StreamOpsTest, StreamSpecificationShapeAndRules) {
  CreateTable("tab");
  EXPECT_EQ(Call("UpdateTable", R"({"TableName": "tab", "StreamSpecification":
                 {"StreamEnabled": true, "StreamViewType": "ALL"}})").body,
            ValidationError(
                "1 validation error detected: Value 'ALL' at "
                "'streamSpecification.streamViewType' failed to satisfy constraint: "
                "Member must satisfy enum value set: [NEW_IMAGE, OLD_IMAGE, "
                "NEW_AND_OLD_IMAGES, KEYS_ONLY]"));
  EXPECT_EQ(Call("UpdateTable", R"({"TableName": "tab", "StreamSpecification":
                 {"StreamEnabled": false}})").body,
            ValidationError("Table has no stream to disable: TableName: tab"));
  EnableStream("tab", "KEYS_ONLY");
  EXPECT_EQ(Call("UpdateTable", R"({"TableName": "tab", "StreamSpecification":
                 {"StreamEnabled": true, "StreamViewType": "NEW_IMAGE"}})").body,
            ValidationError("Table already has an enabled stream: TableName: tab"));
}

TEST_F(StreamOpsTest, ReadRecordsThroughTheStreamsTarget) {
  CreateTable("tab");
  const std::string arn = EnableStream("tab", "NEW_AND_OLD_IMAGES");
  ASSERT_EQ(Call("PutItem", R"({"TableName": "tab", "Item": {"pk": {"S": "a"}, "n": {"N": "1"}}})")
                .http_status, 200);
  Reply list = Streams("ListStreams", json{{"TableName", "tab"}});
  ASSERT_EQ(list.http_status, 200) << list;
  ASSERT_EQ(list.body["Streams"].size(), 1u);
  EXPECT_EQ(list.body["Streams"][0]["StreamArn"], arn);
  EXPECT_EQ(list.body["Streams"][0]["TableName"], "tab");

  Reply desc = Streams("DescribeStream", json{{"StreamArn", arn}});
  ASSERT_EQ(desc.http_status, 200) << desc;
  const json& sd = desc.body["StreamDescription"];
  EXPECT_EQ(sd["StreamStatus"], "ENABLED");
  EXPECT_EQ(sd["StreamViewType"], "NEW_AND_OLD_IMAGES");
  EXPECT_EQ(sd["TableName"], "tab");
  EXPECT_EQ(sd["KeySchema"], json::parse(R"([{"AttributeName": "pk", "KeyType": "HASH"}])"));
  int records = 0;
  for (const json& shard : sd["Shards"]) {
    EXPECT_TRUE(shard["SequenceNumberRange"].contains("StartingSequenceNumber"));
    EXPECT_FALSE(shard["SequenceNumberRange"].contains("EndingSequenceNumber"));
    Reply it = Streams("GetShardIterator", json{{"StreamArn", arn},
                                                {"ShardId", shard["ShardId"]},
                                                {"ShardIteratorType", "TRIM_HORIZON"}});
    ASSERT_EQ(it.http_status, 200) << it;
    Reply got = Streams("GetRecords", json{{"ShardIterator", it.body["ShardIterator"]}});
    ASSERT_EQ(got.http_status, 200) << got;
    EXPECT_TRUE(got.body.contains("NextShardIterator"));  // open shard
    for (const json& r : got.body["Records"]) {
      ++records;
      EXPECT_EQ(r["eventName"], "INSERT");
      EXPECT_EQ(r["eventSource"], "aws:dynamodb");
      EXPECT_EQ(r["eventVersion"], "1.1");
      EXPECT_EQ(r["dynamodb"]["Keys"], json::parse(R"({"pk": {"S": "a"}})"));
      EXPECT_EQ(r["dynamodb"]["NewImage"],
                json::parse(R"({"pk": {"S": "a"}, "n": {"N": "1"}})"));
      EXPECT_FALSE(r["dynamodb"].contains("OldImage"));
      EXPECT_EQ(r["dynamodb"]["StreamViewType"], "NEW_AND_OLD_IMAGES");
      EXPECT_EQ(r["dynamodb"]["SequenceNumber"].get<std::string>().size(), 21u);
      EXPECT_TRUE(r["dynamodb"]["ApproximateCreationDateTime"].is_number());
      EXPECT_FALSE(r.contains("userIdentity"));
    }
  }
  EXPECT_EQ(records, 1);
}

TEST_F(StreamOpsTest, RequestShapesAndErrors) {
  EXPECT_EQ(Streams("GetRecords", json::object()).body,
            ValidationError("1 validation error detected: Value null at 'shardIterator' "
                            "failed to satisfy constraint: Member must not be null"));
  EXPECT_EQ(Streams("GetRecords", json{{"ShardIterator", "x"}, {"Limit", 1001}}).body,
            ValidationError("1 validation error detected: Value '1001' at 'limit' failed "
                            "to satisfy constraint: Member must have value less than or "
                            "equal to 1000"));
  EXPECT_EQ(Streams("GetRecords", json{{"ShardIterator", "x"}}).body,
            ValidationError("Invalid ShardIterator"));
  Reply missing = Streams(
      "DescribeStream", json{{"StreamArn", "arn:aws:dynamodb:ddblocal:" +
                                               std::string(kDefaultAccountId) +
                                               ":table/tab/stream/x"}});
  EXPECT_EQ(missing.http_status, 400);
  EXPECT_EQ(missing.body["__type"],
            "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException");
  EXPECT_EQ(Streams("GetShardIterator",
                    json{{"StreamArn", "arn:aws:dynamodb:ddblocal:" +
                                           std::string(kDefaultAccountId) +
                                           ":table/tab/x"},
                         {"ShardId", "shardId-00000000000000000000-00000000"},
                         {"ShardIteratorType", "LATEST"}})
                .body,
            ValidationError("Invalid StreamArn"));
  // Alternator's stream tests, run against DynamoDB: a malformed
  // ExclusiveStartStreamArn, a SequenceNumber with TRIM_HORIZON or LATEST
  // (before the stream is looked up) and a ShardFilter without a Type are
  // ValidationExceptions.
  EXPECT_EQ(Streams("ListStreams",
                    json{{"ExclusiveStartStreamArn",
                          "kossaapaaasdafsdaasdasdasdasasdasfadfadfasdasdas"}})
                .body,
            ValidationError("Invalid StreamArn"));
  for (const char* type : {"TRIM_HORIZON", "LATEST"}) {
    EXPECT_EQ(
        Streams("GetShardIterator",
                json{{"StreamArn", "arn:aws:dynamodb:ddblocal:" +
                                       std::string(kDefaultAccountId) +
                                       ":table/tab/x"},
                     {"ShardId", "shardId-00000000000000000000-00000000"},
                     {"ShardIteratorType", type},
                     {"SequenceNumber", "000000000000000000001"}})
            .body,
        ValidationError("Must not provide a SequenceNumber for a TRIM_HORIZON "
                        "or LATEST shard iterator"));
  }
  EXPECT_EQ(
      Streams("DescribeStream",
              json{{"StreamArn", "arn:aws:dynamodb:ddblocal:" +
                                     std::string(kDefaultAccountId) +
                                     ":table/tab/stream/x"},
                   {"ShardFilter",
                    {{"ShardId", "shardId-00000000000000000000-00000000"}}}})
          .body,
      ValidationError("1 validation error detected: Value null at "
                      "'shardFilter.type' failed to satisfy constraint: Member "
                      "must not be null"));
  // A DynamoDB target never reaches the streams operations.
  EXPECT_EQ(Call("GetRecords", json{{"ShardIterator", "x"}}).http_status, 400);
}

TEST_F(StreamOpsTest, GetRecordsOverTheShardRateIsLimitExceeded) {
  CreateTable("tab");
  const std::string arn = EnableStream("tab", "KEYS_ONLY");
  ASSERT_EQ(Call("DynamoRock_20251121.SetThrottling", R"({"Enabled": true})").http_status,
            200);
  Reply desc = Streams("DescribeStream", json{{"StreamArn", arn}});
  Reply it = Streams("GetShardIterator",
                     json{{"StreamArn", arn},
                          {"ShardId", desc.body["StreamDescription"]["Shards"][0]["ShardId"]},
                          {"ShardIteratorType", "LATEST"}});
  const json get = {{"ShardIterator", it.body["ShardIterator"]}};
  for (int i = 0; i < 10; ++i) ASSERT_EQ(Streams("GetRecords", get).http_status, 200);
  Reply refused = Streams("GetRecords", get);
  EXPECT_EQ(refused.http_status, 400);
  EXPECT_EQ(refused.body, json::parse(R"({"__type":
      "com.amazonaws.dynamodb.v20120810#LimitExceededException", "message": "Rate exceeded"})"));
}

TEST_F(StreamOpsTest, DescribeStreamStatsExtension) {
  CreateTable("tab");
  const std::string arn = EnableStream("tab", "NEW_IMAGE");
  ASSERT_EQ(Call("PutItem", R"({"TableName": "tab", "Item": {"pk": {"S": "a"}}})").http_status,
            200);
  Reply r = Call("DynamoRock_20251121.DescribeStreamStats", R"({"TableName": "tab"})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_GT(r.body["StorageBytes"].get<int64_t>(), 0);
  ASSERT_EQ(r.body["Streams"].size(), 1u);
  const json& s = r.body["Streams"][0];
  EXPECT_EQ(s["StreamArn"], arn);
  EXPECT_EQ(s["StreamStatus"], "ENABLED");
  EXPECT_EQ(s["Records"], 1);
  uint64_t unread = 0;
  for (const json& shard : s["Shards"]) {
    EXPECT_TRUE(shard["Open"].get<bool>());
    EXPECT_EQ(shard["GetRecordsCalls"], 0);
    unread += shard["UnreadRecords"].get<uint64_t>();
  }
  EXPECT_EQ(unread, 1u);
  EXPECT_EQ(Call("DynamoRock_20251121.DescribeStreamStats", R"({"TableName": "none"})")
                .body["Streams"],
            json::array());
}

}  // namespace
}  // namespace dynarock::api
