// Global tables version 2017.11.29 through the in-process Client
// (api/ops/global_table_ops.cc): the response shapes of the six
// operations, DynamoDB's error types, and the auto scaling settings
// refused by name.

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

const CallerIdentity kEast{"AKID", "us-east-1"};
const CallerIdentity kWest{"AKID", "us-west-2"};

// As an account that still has legacy global tables (serve
// --legacy-global-tables); without it CreateGlobalTable is refused
// (legacy_global_tables_test LegacyGlobalTablesOffTest).
class GlobalTableOpsTest : public ApiTest {
 protected:
  GlobalTableOpsTest() : ApiTest(LegacyOptions()) {}
  static EngineOptions LegacyOptions() {
    EngineOptions o = TestEngine::Options();
    o.legacy_global_tables = true;
    return o;
  }
  void SetUp() override {
    for (const CallerIdentity* who : {&kEast, &kWest}) {
      Reply r = Call("CreateTable", R"({"TableName":"Music","BillingMode":"PROVISIONED",
        "ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":5},
        "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
        "StreamSpecification":{"StreamEnabled":true,"StreamViewType":"NEW_AND_OLD_IMAGES"}})",
                     *who);
      ASSERT_EQ(r.http_status, 200) << r;
    }
  }
  static std::string TypeOf(const Reply& r) {
    const std::string t = r.body.value("__type", "");
    return t.substr(t.find('#') + 1);
  }
};

TEST_F(GlobalTableOpsTest, CreateDescribeAndListAnswerDynamoDbsShapes) {
  Reply r = Call("CreateGlobalTable", R"({"GlobalTableName":"Music",
    "ReplicationGroup":[{"RegionName":"us-east-1"},{"RegionName":"us-west-2"}]})", kEast);
  ASSERT_EQ(r.http_status, 200) << r;
  const json d = r.body["GlobalTableDescription"];
  EXPECT_EQ(d["GlobalTableName"], "Music");
  EXPECT_EQ(d["GlobalTableArn"], "arn:aws:dynamodb::123456789012:global-table/Music");
  EXPECT_TRUE(d["CreationDateTime"].is_number());
  EXPECT_TRUE(d["GlobalTableStatus"] == "CREATING" || d["GlobalTableStatus"] == "ACTIVE") << d;
  EXPECT_EQ(d["ReplicationGroup"],
            json::parse(R"([{"RegionName":"us-east-1"},{"RegionName":"us-west-2"}])"));

  r = Call("DescribeGlobalTable", R"({"GlobalTableName":"Music"})", kWest);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["GlobalTableDescription"]["ReplicationGroup"], d["ReplicationGroup"]);

  r = Call("DescribeTable", R"({"TableName":"Music"})", kEast);
  EXPECT_EQ(r.body["Table"]["GlobalTableVersion"], "2017.11.29") << r;

  r = Call("ListGlobalTables", R"({"RegionName":"us-west-2"})", kEast);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"GlobalTables":[{"GlobalTableName":"Music",
    "ReplicationGroup":[{"RegionName":"us-east-1"},{"RegionName":"us-west-2"}]}]})"));

  r = Call("DescribeGlobalTableSettings", R"({"GlobalTableName":"Music"})", kEast);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["GlobalTableName"], "Music");
  ASSERT_EQ(r.body["ReplicaSettings"].size(), 2u) << r;
  const json& east = r.body["ReplicaSettings"][0];
  EXPECT_EQ(east["RegionName"], "us-east-1");
  EXPECT_EQ(east["ReplicaStatus"], "ACTIVE");
  EXPECT_EQ(east["ReplicaBillingModeSummary"]["BillingMode"], "PROVISIONED");
  EXPECT_EQ(east["ReplicaProvisionedReadCapacityUnits"], 5);
  EXPECT_EQ(east["ReplicaProvisionedWriteCapacityUnits"], 5);
}

TEST_F(GlobalTableOpsTest, ErrorsHaveDynamoDbsTypes) {
  Reply r = Call("DescribeGlobalTable", R"({"GlobalTableName":"Music"})", kEast);
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(TypeOf(r), "GlobalTableNotFoundException") << r;
  r = Call("CreateGlobalTable", R"({"GlobalTableName":"Music",
    "ReplicationGroup":[{"RegionName":"us-east-1"},{"RegionName":"eu-west-1"}]})", kEast);
  EXPECT_EQ(TypeOf(r), "TableNotFoundException") << r;
  EXPECT_EQ(r.body["message"],
            "Table not found: Table: 'Music' not found in region: 'eu-west-1'.");
  r = Call("CreateGlobalTable", R"({"GlobalTableName":"Music",
    "ReplicationGroup":[{"RegionName":"us-east-1"}]})", kEast);
  ASSERT_EQ(r.http_status, 200) << r;
  r = Call("CreateGlobalTable", R"({"GlobalTableName":"Music",
    "ReplicationGroup":[{"RegionName":"us-east-1"}]})", kEast);
  EXPECT_EQ(TypeOf(r), "GlobalTableAlreadyExistsException") << r;
  r = Call("UpdateGlobalTable", R"({"GlobalTableName":"Music",
    "ReplicaUpdates":[{"Create":{"RegionName":"us-east-1"}}]})", kEast);
  EXPECT_EQ(TypeOf(r), "ReplicaAlreadyExistsException") << r;
  r = Call("UpdateGlobalTable", R"({"GlobalTableName":"Music",
    "ReplicaUpdates":[{"Delete":{"RegionName":"us-west-2"}}]})", kEast);
  EXPECT_EQ(TypeOf(r), "ReplicaNotFoundException") << r;
  r = Call("UpdateGlobalTable", R"({"GlobalTableName":"Music",
    "ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}}]})", kEast);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["GlobalTableDescription"]["ReplicationGroup"].size(), 2u) << r;
  r = Call("UpdateGlobalTableSettings", R"({"GlobalTableName":"Music",
    "GlobalTableGlobalSecondaryIndexSettingsUpdate":[{"IndexName":"Nope",
      "ProvisionedWriteCapacityUnits":3}]})", kEast);
  EXPECT_EQ(TypeOf(r), "IndexNotFoundException") << r;
}

TEST_F(GlobalTableOpsTest, SettingsUpdateChangesTheTablesAndRefusesAutoScalingByName) {
  Reply r = Call("CreateGlobalTable", R"({"GlobalTableName":"Music",
    "ReplicationGroup":[{"RegionName":"us-east-1"},{"RegionName":"us-west-2"}]})", kEast);
  ASSERT_EQ(r.http_status, 200) << r;
  r = Call("UpdateGlobalTableSettings", R"({"GlobalTableName":"Music",
    "GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate":{"MinimumUnits":1}})",
           kEast);
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(TypeOf(r), "ValidationException") << r;
  EXPECT_NE(r.body.value("message", "").find(
                "GlobalTableProvisionedWriteCapacityAutoScalingSettingsUpdate"),
            std::string::npos)
      << r;
  r = Call("UpdateGlobalTableSettings", R"({"GlobalTableName":"Music",
    "GlobalTableProvisionedWriteCapacityUnits":12,
    "ReplicaSettingsUpdate":[{"RegionName":"us-west-2",
      "ReplicaProvisionedReadCapacityUnits":7,"ReplicaTableClass":"STANDARD_INFREQUENT_ACCESS"}]})",
           kEast);
  ASSERT_EQ(r.http_status, 200) << r;
  const json& west = r.body["ReplicaSettings"][1];
  EXPECT_EQ(west["RegionName"], "us-west-2");
  EXPECT_EQ(west["ReplicaProvisionedReadCapacityUnits"], 7);
  EXPECT_EQ(west["ReplicaProvisionedWriteCapacityUnits"], 12);
  EXPECT_EQ(west["ReplicaTableClassSummary"]["TableClass"], "STANDARD_INFREQUENT_ACCESS");
  r = Call("DescribeTable", R"({"TableName":"Music"})", kWest);
  EXPECT_EQ(r.body["Table"]["ProvisionedThroughput"]["WriteCapacityUnits"], 12) << r;
}

}  // namespace
}  // namespace dynarock::api
