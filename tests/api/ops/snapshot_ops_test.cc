// The database-snapshot extension through the in-process Client
// (api/ops/snapshot_ops.cc): the answers' JSON and the errors.

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

constexpr std::string_view kTarget = "DynamoRock_20251121.";

class SnapshotOpsTest : public ApiTest {
 protected:
  Reply Snapshot(const std::string& op, const json& body) {
    return Call(std::string(kTarget) + op, body);
  }
};

TEST_F(SnapshotOpsTest, CreateListRestoreDelete) {
  CreateTable("tbl");
  Reply r = Snapshot("CreateSnapshot", json{{"SnapshotName", "clean"}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["SnapshotDescription"]["SnapshotName"], "clean");
  EXPECT_TRUE(r.body["SnapshotDescription"]["CreationDateTime"].is_number());
  EXPECT_TRUE(r.body["SnapshotDescription"]["SizeBytes"].is_number_integer());
  CreateTable("later");
  r = Snapshot("RestoreSnapshot", json{{"SnapshotName", "clean"}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::object());
  r = Call("ListTables", json::object());
  EXPECT_EQ(r.body["TableNames"], json::array({"tbl"}));
  r = Snapshot("ListSnapshots", json::object());
  ASSERT_EQ(r.body["Snapshots"].size(), 1u);
  EXPECT_EQ(r.body["Snapshots"][0]["SnapshotName"], "clean");
  r = Snapshot("DeleteSnapshot", json{{"SnapshotName", "clean"}});
  ASSERT_EQ(r.http_status, 200) << r;
  r = Snapshot("RestoreSnapshot", json{{"SnapshotName", "clean"}});
  EXPECT_EQ(r.body, ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                              "Snapshot not found: clean"));
}

TEST_F(SnapshotOpsTest, ShapeErrors) {
  Reply r = Snapshot("CreateSnapshot", json::object());
  EXPECT_EQ(r.body, ValidationError(
      "1 validation error detected: Value null at 'snapshotName' failed to satisfy "
      "constraint: Member must not be null"));
  r = Snapshot("CreateSnapshot", json{{"SnapshotName", "a/b"}});
  EXPECT_EQ(r.http_status, 400);
  r = Snapshot("CreateSnapshot", json{{"SnapshotName", "twice"}});
  ASSERT_EQ(r.http_status, 200) << r;
  r = Snapshot("CreateSnapshot", json{{"SnapshotName", "twice"}});
  EXPECT_EQ(r.body, ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceInUseException",
                              "Snapshot already exists: twice"));
}

}  // namespace
}  // namespace dynarock::api
