// Backups and point-in-time recovery through the in-process Client: the
// answers' JSON (BackupDetails, BackupDescription, BackupSummaries,
// ContinuousBackupsDescription, RestoreSummary), shape errors and
// DynamoDB's error types.

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

constexpr std::string_view kDynamoDb = "com.amazonaws.dynamodb.v20120810#";

class BackupOpsTest : public ApiTest {
 protected:
  void SetUp() override { CreateTable("tbl"); }
  std::string Backup(const std::string& name = "bk1") {
    Reply r = Call("CreateBackup", json{{"TableName", "tbl"}, {"BackupName", name}});
    EXPECT_EQ(r.http_status, 200) << r;
    return r.body["BackupDetails"]["BackupArn"].get<std::string>();
  }
};

TEST_F(BackupOpsTest, CreateDescribeListDelete) {
  Reply r = Call("CreateBackup", R"({"TableName":"tbl","BackupName":"nightly"})");
  ASSERT_EQ(r.http_status, 200) << r;
  const json details = r.body["BackupDetails"];
  EXPECT_EQ(details["BackupName"], "nightly");
  EXPECT_EQ(details["BackupType"], "USER");
  EXPECT_TRUE(details["BackupStatus"] == "CREATING" || details["BackupStatus"] == "AVAILABLE");
  EXPECT_TRUE(details["BackupSizeBytes"].is_number_integer());
  EXPECT_TRUE(details["BackupCreationDateTime"].is_number());
  const std::string arn = details["BackupArn"];

  r = Call("DescribeBackup", json{{"BackupArn", arn}});
  ASSERT_EQ(r.http_status, 200) << r;
  const json d = r.body["BackupDescription"];
  EXPECT_EQ(d["BackupDetails"]["BackupArn"], arn);
  EXPECT_EQ(d["SourceTableDetails"]["TableName"], "tbl");
  EXPECT_EQ(d["SourceTableDetails"]["ItemCount"], 0);
  EXPECT_TRUE(d["SourceTableDetails"].contains("KeySchema"));
  EXPECT_EQ(d["SourceTableFeatureDetails"]["TimeToLiveDescription"],
            json::parse(R"({"TimeToLiveStatus":"DISABLED"})"));

  r = Call("ListBackups", R"({"TableName":"tbl"})");
  ASSERT_EQ(r.http_status, 200) << r;
  ASSERT_EQ(r.body["BackupSummaries"].size(), 1u);
  EXPECT_EQ(r.body["BackupSummaries"][0]["BackupArn"], arn);
  EXPECT_EQ(r.body["BackupSummaries"][0]["TableName"], "tbl");
  EXPECT_FALSE(r.body.contains("LastEvaluatedBackupArn"));

  r = Call("DeleteBackup", json{{"BackupArn", arn}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["BackupDescription"]["BackupDetails"]["BackupStatus"], "DELETED");
  r = Call("DescribeBackup", json{{"BackupArn", arn}});
  EXPECT_EQ(r.body, ErrorBody(std::string(kDynamoDb) + "BackupNotFoundException",
                              "Backup not found: " + arn));
}

TEST_F(BackupOpsTest, RestoreAnswersTheTableWithItsRestoreSummary) {
  const std::string arn = Backup();
  Reply r = Call("RestoreTableFromBackup",
                 json{{"TargetTableName", "copy"}, {"BackupArn", arn},
                      {"SSESpecificationOverride", {{"Enabled", false}}}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["TableDescription"]["TableName"], "copy");
  EXPECT_EQ(r.body["TableDescription"]["RestoreSummary"]["SourceBackupArn"], arn);
  EXPECT_EQ(r.body["TableDescription"]["RestoreSummary"]["RestoreInProgress"], false);
  r = Call("RestoreTableFromBackup", json{{"TargetTableName", "copy"}, {"BackupArn", arn}});
  EXPECT_EQ(r.body, ErrorBody(std::string(kDynamoDb) + "TableAlreadyExistsException",
                              "Table already exists: copy"));
}

TEST_F(BackupOpsTest, RestoreWithOnDemandThroughputOverride) {
  const std::string arn = Backup();  // "tbl" is on demand
  Reply r = Call("RestoreTableFromBackup",
                 json{{"TargetTableName", "copy"}, {"BackupArn", arn},
                      {"OnDemandThroughputOverride", {{"MaxWriteRequestUnits", 25}}}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["TableDescription"]["OnDemandThroughput"],
            (json{{"MaxWriteRequestUnits", 25}}));
  r = Call("RestoreTableFromBackup",
           json{{"TargetTableName", "copy2"}, {"BackupArn", arn},
                {"OnDemandThroughputOverride", {{"MaxWriteRequestUnits", "x"}}}});
  EXPECT_EQ(r.body, SerializationError("STRING_VALUE cannot be converted to Long"));
}

// VectorIndexOverride (RestoreTableFromBackup, RestoreTableToPointInTime):
// the source's vector indexes to keep, in the model's VectorIndex shape.
TEST_F(BackupOpsTest, RestoreWithVectorIndexOverride) {
  const json index = json::parse(R"({"IndexName":"emb","VectorAttribute":{"AttributeName":"v"},
      "Dimensions":2,"DistanceFunction":"COSINE","Projection":{"ProjectionType":"ALL"}})");
  Reply r = Call("CreateTable", json{{"TableName", "vec"},
                                     {"BillingMode", "PAY_PER_REQUEST"},
                                     {"AttributeDefinitions",
                                      {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
                                     {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}},
                                     {"VectorIndexes", json::array({index})}});
  ASSERT_EQ(r.http_status, 200) << r;
  r = Call("CreateBackup", json{{"TableName", "vec"}, {"BackupName", "bvec"}});
  ASSERT_EQ(r.http_status, 200) << r;
  const std::string arn = r.body["BackupDetails"]["BackupArn"];
  r = Call("RestoreTableFromBackup", json{{"TargetTableName", "kept"}, {"BackupArn", arn},
                                          {"VectorIndexOverride", json::array({index})}});
  ASSERT_EQ(r.http_status, 200) << r;
  ASSERT_EQ(r.body["TableDescription"]["VectorIndexes"].size(), 1u) << r;
  EXPECT_EQ(r.body["TableDescription"]["VectorIndexes"][0]["IndexName"], "emb");
  r = Call("RestoreTableFromBackup", json{{"TargetTableName", "none"}, {"BackupArn", arn},
                                          {"VectorIndexOverride", json::array()}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_FALSE(r.body["TableDescription"].contains("VectorIndexes")) << r;
  json other = index;
  other["DistanceFunction"] = "DOT_PRODUCT";
  r = Call("RestoreTableFromBackup", json{{"TargetTableName", "other"}, {"BackupArn", arn},
                                          {"VectorIndexOverride", json::array({other})}});
  EXPECT_EQ(r.body, ValidationError("Invalid Request: Index emb does not match a vector index "
                                    "that existed in the source table and cannot be created "
                                    "during the restore operation"));
  other["DistanceFunction"] = "MANHATTAN";
  r = Call("RestoreTableFromBackup", json{{"TargetTableName", "other"}, {"BackupArn", arn},
                                          {"VectorIndexOverride", json::array({other})}});
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body["message"].get<std::string>().find("vectorIndexOverride.1.member."
                                                      "distanceFunction"),
            std::string::npos) << r;
}

TEST_F(BackupOpsTest, ShapeErrors) {
  Reply r = Call("CreateBackup", R"({"TableName":"tbl"})");
  EXPECT_EQ(r.body, ValidationError(
      "1 validation error detected: Value null at 'backupName' failed to satisfy "
      "constraint: Member must not be null"));
  r = Call("ListBackups", R"({"Limit":0})");
  EXPECT_EQ(r.body, ValidationError(
      "1 validation error detected: Value '0' at 'limit' failed to satisfy "
      "constraint: Member must have value greater than or equal to 1"));
  r = Call("ListBackups", R"({"BackupType":"MINE"})");
  EXPECT_EQ(r.http_status, 400);
  r = Call("CreateBackup", R"({"TableName":"nope","BackupName":"bk1"})");
  EXPECT_EQ(r.body, ErrorBody(std::string(kDynamoDb) + "TableNotFoundException",
                              "Table not found: nope"));
  r = Call("UpdateContinuousBackups",
           R"({"TableName":"tbl","PointInTimeRecoverySpecification":
               {"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":36}})");
  EXPECT_EQ(r.body, ValidationError(
      "1 validation error detected: Value '36' at "
      "'pointInTimeRecoverySpecification.recoveryPeriodInDays' failed to satisfy "
      "constraint: Member must have value less than or equal to 35"));
}

TEST_F(BackupOpsTest, ContinuousBackupsAndRestoreToPointInTime) {
  Reply r = Call("DescribeContinuousBackups", R"({"TableName":"tbl"})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"ContinuousBackupsDescription":
      {"ContinuousBackupsStatus":"ENABLED",
       "PointInTimeRecoveryDescription":{"PointInTimeRecoveryStatus":"DISABLED"}}})"));
  r = Call("RestoreTableToPointInTime",
           R"({"SourceTableName":"tbl","TargetTableName":"tb2","UseLatestRestorableTime":true})");
  EXPECT_EQ(r.body["__type"],
            std::string(kDynamoDb) + "PointInTimeRecoveryUnavailableException");
  r = Call("UpdateContinuousBackups",
           R"({"TableName":"tbl","PointInTimeRecoverySpecification":
               {"PointInTimeRecoveryEnabled":true,"RecoveryPeriodInDays":7}})");
  ASSERT_EQ(r.http_status, 200) << r;
  const json pitr = r.body["ContinuousBackupsDescription"]["PointInTimeRecoveryDescription"];
  EXPECT_EQ(pitr["PointInTimeRecoveryStatus"], "ENABLED");
  EXPECT_EQ(pitr["RecoveryPeriodInDays"], 7);
  EXPECT_TRUE(pitr["EarliestRestorableDateTime"].is_number());
  EXPECT_TRUE(pitr["LatestRestorableDateTime"].is_number());
  r = Call("RestoreTableToPointInTime",
           R"({"SourceTableName":"tbl","TargetTableName":"tb2","UseLatestRestorableTime":true})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["TableDescription"]["TableName"], "tb2");
  EXPECT_TRUE(r.body["TableDescription"]["RestoreSummary"]["SourceTableArn"]
                  .get<std::string>()
                  .ends_with(":table/tbl"));
  r = Call("RestoreTableToPointInTime",
           R"({"SourceTableName":"tbl","TargetTableName":"tb3","RestoreDateTime":1})");
  EXPECT_EQ(r.body["__type"], std::string(kDynamoDb) + "InvalidRestoreTimeException");
  r = Call("RestoreTableToPointInTime",
           R"({"SourceTableName":"tbl","TargetTableName":"tb3","RestoreDateTime":"x"})");
  EXPECT_EQ(r.http_status, 400);
}

}  // namespace
}  // namespace dynarock::api
