// The global-tables extensions through the in-process Client
// (api/ops/replication_ops.cc): SetReplicationLag, PartitionRegions,
// HealRegions and DescribeReplication on a table with a replica, their
// shapes, and their refusals.

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

const CallerIdentity kEast{"AKID", "us-east-1"};
const CallerIdentity kWest{"AKID", "us-west-2"};

class ReplicationOpsTest : public ApiTest {
 protected:
  void SetUp() override {
    Reply r = Call("CreateTable", R"({"TableName":"Tab","BillingMode":"PAY_PER_REQUEST",
      "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
      "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})", kEast);
    ASSERT_EQ(r.http_status, 200) << r;
    r = Call("UpdateTable",
             R"({"TableName":"Tab","ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}}]})",
             kEast);
    ASSERT_EQ(r.http_status, 200) << r;
  }
  void Advance(double seconds) {
    Reply r = Call("DynamoRock_20251121.AdvanceClock", json{{"Seconds", seconds}});
    ASSERT_EQ(r.http_status, 200) << r;
  }
  void Put(const CallerIdentity& who, const std::string& pk, const std::string& v) {
    Reply r = Call("PutItem",
                   json{{"TableName", "Tab"}, {"Item", {{"pk", {{"S", pk}}}, {"v", {{"S", v}}}}}},
                   who);
    ASSERT_EQ(r.http_status, 200) << r;
  }
  // v of the item, or "" when absent.
  std::string Get(const CallerIdentity& who, const std::string& pk) {
    Reply r = Call("GetItem", json{{"TableName", "Tab"}, {"Key", {{"pk", {{"S", pk}}}}}}, who);
    EXPECT_EQ(r.http_status, 200) << r;
    if (!r.body.contains("Item")) return "";
    return r.body["Item"]["v"]["S"].get<std::string>();
  }
};

TEST_F(ReplicationOpsTest, PartitionThenHealConvergesAndDescribeShowsIt) {
  Reply r = Call("DynamoRock_20251121.PartitionRegions",
                 R"({"RegionNames":["us-east-1","us-west-2"]})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::object());
  Put(kEast, "a", "east");
  Advance(10);
  EXPECT_EQ(Get(kWest, "a"), "");

  r = Call("DynamoRock_20251121.DescribeReplication", R"({"TableName":"Tab"})", kEast);
  ASSERT_EQ(r.http_status, 200) << r;
  ASSERT_EQ(r.body["Replicas"].size(), 2u) << r;
  const json& east = r.body["Replicas"][0];
  const json& west = r.body["Replicas"][1];
  EXPECT_EQ(east["RegionName"], "us-east-1");
  EXPECT_EQ(west["RegionName"], "us-west-2");
  EXPECT_EQ(west["PendingChanges"], 1);
  EXPECT_EQ(west["PartitionedFrom"], json::array({"us-east-1"}));
  EXPECT_EQ(west["DefaultLag"], true);
  EXPECT_EQ(west["LagMillis"], 1000.0);
  EXPECT_EQ(r.body["Partitions"],
            json::parse(R"([{"RegionNames":["us-east-1","us-west-2"]}])"));

  r = Call("DynamoRock_20251121.HealRegions", R"({"RegionNames":["us-west-2","us-east-1"]})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(Get(kWest, "a"), "east");
  r = Call("DynamoRock_20251121.DescribeReplication", R"({"TableName":"Tab"})", kWest);
  ASSERT_EQ(r.http_status, 200) << r;
  const json& mine = r.body["Replicas"][0];
  EXPECT_EQ(mine["RegionName"], "us-west-2");
  EXPECT_EQ(mine["AppliedChanges"], 1);
  EXPECT_EQ(mine["PendingChanges"], 0);
  EXPECT_EQ(mine["TombstonesCollected"], 0);
  EXPECT_EQ(mine["LatencyMillis"]["Samples"], 1);
  EXPECT_GE(mine["LatencyMillis"]["Max"].get<double>(), 10000.0);
  EXPECT_EQ(r.body["Partitions"], json::array());
}

TEST_F(ReplicationOpsTest, APartitionWithADurationReportsItsEnd) {
  Reply r = Call("DynamoRock_20251121.PartitionRegions",
                 R"({"RegionNames":["us-east-1","us-west-2"],"DurationMillis":5000})");
  ASSERT_EQ(r.http_status, 200) << r;
  r = Call("DynamoRock_20251121.DescribeReplication", R"({"TableName":"Tab"})", kEast);
  ASSERT_EQ(r.http_status, 200) << r;
  ASSERT_EQ(r.body["Partitions"].size(), 1u) << r;
  ASSERT_TRUE(r.body["Partitions"][0].contains("UntilEpochMillis")) << r;
  Reply clock = Call("DynamoRock_20251121.DescribeClock", "{}");
  ASSERT_EQ(clock.http_status, 200) << clock;
  Put(kEast, "a", "east");
  Advance(6);
  EXPECT_EQ(Get(kWest, "a"), "east");
}

TEST_F(ReplicationOpsTest, SetReplicationLagDelaysOneReplica) {
  Reply r = Call("DynamoRock_20251121.SetReplicationLag",
                 R"({"TableName":"Tab","RegionName":"us-west-2","LagMillis":30000})", kEast);
  ASSERT_EQ(r.http_status, 200) << r;
  Put(kEast, "a", "east");
  Advance(10);
  EXPECT_EQ(Get(kWest, "a"), "");
  Advance(21);
  EXPECT_EQ(Get(kWest, "a"), "east");
  r = Call("DynamoRock_20251121.DescribeReplication", R"({"TableName":"Tab"})", kEast);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["Replicas"][1]["LagMillis"], 30000.0);
  EXPECT_EQ(r.body["Replicas"][1]["DefaultLag"], false);
}

TEST_F(ReplicationOpsTest, HugeDurationsAndLagsSaturate) {
  // Milliseconds past the microsecond range: no overflow, a lag that never
  // ends, a partition until healed.
  Reply r = Call("DynamoRock_20251121.SetReplicationLag",
                 R"({"TableName":"Tab","RegionName":"us-west-2","LagMillis":9223372036854775807})",
                 kEast);
  ASSERT_EQ(r.http_status, 200) << r;
  r = Call("DynamoRock_20251121.PartitionRegions",
           R"({"RegionNames":["us-east-1","us-west-2"],"DurationMillis":9223372036854775807})");
  ASSERT_EQ(r.http_status, 200) << r;
  r = Call("DynamoRock_20251121.DescribeReplication", R"({"TableName":"Tab"})", kEast);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["Partitions"], json::parse(R"([{"RegionNames":["us-east-1","us-west-2"]}])"));
  EXPECT_GT(r.body["Replicas"][1]["LagMillis"].get<double>(), 9e15);
}

TEST_F(ReplicationOpsTest, Refusals) {
  Reply r = Call("DynamoRock_20251121.PartitionRegions", R"({"RegionNames":["us-east-1"]})");
  EXPECT_EQ(r.http_status, 400) << r;
  EXPECT_EQ(r.body["__type"], "com.amazon.coral.validate#ValidationException") << r;
  r = Call("DynamoRock_20251121.PartitionRegions",
           R"({"RegionNames":["us-east-1","us-east-1"]})");
  EXPECT_EQ(r.http_status, 400) << r;
  r = Call("DynamoRock_20251121.HealRegions", R"({"RegionNames":["us-east-1","eu-west-1"]})");
  EXPECT_EQ(r.http_status, 400) << r;
  EXPECT_NE(r.body.dump().find("not partitioned"), std::string::npos) << r;
  r = Call("DynamoRock_20251121.SetReplicationLag",
           R"({"TableName":"Tab","RegionName":"eu-west-1","LagMillis":5})", kEast);
  EXPECT_EQ(r.http_status, 400) << r;
  r = Call("DynamoRock_20251121.SetReplicationLag",
           R"({"TableName":"Tab","RegionName":"us-west-2","LagMillis":-2})", kEast);
  EXPECT_EQ(r.http_status, 400) << r;
  r = Call("DynamoRock_20251121.DescribeReplication", R"({"TableName":"Nope"})", kEast);
  EXPECT_EQ(r.http_status, 400) << r;
  EXPECT_EQ(r.body["__type"], "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException") << r;
  // The DynamoDB prefix does not reach the extensions.
  r = Call("DynamoDB_20120810.DescribeReplication", R"({"TableName":"Tab"})", kEast);
  EXPECT_EQ(r.http_status, 400) << r;
  EXPECT_NE(r.body["__type"].get<std::string>().find("UnknownOperationException"),
            std::string::npos) << r;
}

}  // namespace
}  // namespace dynarock::api
