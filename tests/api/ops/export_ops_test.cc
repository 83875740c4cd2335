// Export to S3 through the in-process Client, the bucket a directory
// (api/transfer/s3_directory.h): the answers' JSON (ExportDescription,
// ExportSummaries, NextToken), shape errors and DynamoDB's error types.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "api/transfer/s3_directory.h"
#include "engine/requests/scope.h"
#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

constexpr std::string_view kDynamoDb = "com.amazonaws.dynamodb.v20120810#";

std::string TempRoot() {
  const std::string dir =
      testing::TempDir() + "/export_ops_test_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/bucket");
  return dir;
}

class ExportOpsTest : public ::testing::Test {
 protected:
  static EngineOptions Options(TransferFiles* files) {
    EngineOptions o = TestEngine::Options();
    o.transfer_files = files;
    return o;
  }
  ~ExportOpsTest() override { std::filesystem::remove_all(root_); }

  Reply Call(std::string_view operation, const json& body) {
    Response r = client_.Call(operation, body.dump());
    Reply out;
    out.http_status = r.http_status;
    out.body = json::parse(r.body, nullptr, /*allow_exceptions=*/false);
    return out;
  }
  std::string TableWithPitr(const std::string& name) {
    Reply r = Call("CreateTable",
                   {{"TableName", name},
                    {"BillingMode", "PAY_PER_REQUEST"},
                    {"AttributeDefinitions", {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
                    {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}});
    EXPECT_EQ(r.http_status, 200) << r;
    r = Call("UpdateContinuousBackups",
             {{"TableName", name},
              {"PointInTimeRecoverySpecification", {{"PointInTimeRecoveryEnabled", true}}}});
    EXPECT_EQ(r.http_status, 200) << r;
    return "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
           ":table/" + name;
  }

  std::string root_ = TempRoot();
  S3Directory s3_{root_};
  TestEngine engine_{Options(&s3_)};
  Client client_{engine_.engine.get()};
};

TEST_F(ExportOpsTest, ExportDescribeList) {
  const std::string arn = TableWithPitr("tbl");
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(Call("PutItem", {{"TableName", "tbl"},
                               {"Item", {{"pk", {{"S", "k" + std::to_string(i)}}}}}})
                  .http_status,
              200);
  }
  Reply r = Call("ExportTableToPointInTime",
                 {{"TableArn", arn}, {"S3Bucket", "bucket"}, {"S3Prefix", "p"},
                  {"ClientToken", "t1"}});
  ASSERT_EQ(r.http_status, 200) << r;
  json d = r.body["ExportDescription"];
  EXPECT_EQ(d["ExportStatus"], "IN_PROGRESS");
  EXPECT_EQ(d["TableArn"], arn);
  EXPECT_EQ(d["S3Bucket"], "bucket");
  EXPECT_EQ(d["S3Prefix"], "p");
  EXPECT_EQ(d["ClientToken"], "t1");
  EXPECT_EQ(d["S3SseAlgorithm"], "AES256");
  EXPECT_EQ(d["ExportFormat"], "DYNAMODB_JSON");
  EXPECT_EQ(d["ExportType"], "FULL_EXPORT");
  EXPECT_TRUE(d["StartTime"].is_number() && d["ExportTime"].is_number());
  EXPECT_FALSE(d.contains("EndTime"));
  EXPECT_FALSE(d.contains("ItemCount"));
  const std::string export_arn = d["ExportArn"];
  const std::string id = export_arn.substr(export_arn.rfind('/') + 1);
  EXPECT_EQ(id.size(), 23u);
  EXPECT_EQ(d["ExportManifest"], "p/AWSDynamoDB/" + id + "/manifest-summary.json");

  engine_->WaitUntilTransfersDone();
  r = Call("DescribeExport", {{"ExportArn", export_arn}});
  ASSERT_EQ(r.http_status, 200) << r;
  d = r.body["ExportDescription"];
  EXPECT_EQ(d["ExportStatus"], "COMPLETED");
  EXPECT_EQ(d["ItemCount"], 3);
  EXPECT_TRUE(d["BilledSizeBytes"].is_number_integer());
  EXPECT_TRUE(d["EndTime"].is_number());
  EXPECT_TRUE(std::filesystem::exists(root_ + "/bucket/" + d["ExportManifest"].get<std::string>()));

  r = Call("ListExports", json::object());
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"ExportSummaries":[{"ExportArn":")" + export_arn +
                                R"(","ExportStatus":"COMPLETED","ExportType":"FULL_EXPORT"}]})"));
}

TEST_F(ExportOpsTest, Errors) {
  const std::string arn = TableWithPitr("tbl");
  Reply r = Call("ExportTableToPointInTime", {{"TableArn", arn}});
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body["message"],
            "1 validation error detected: Value null at 's3Bucket' failed to satisfy "
            "constraint: Member must not be null");
  r = Call("ExportTableToPointInTime",
           {{"TableArn", arn}, {"S3Bucket", "bucket"}, {"ExportFormat", "CSV"}});
  EXPECT_EQ(r.http_status, 400);
  EXPECT_NE(r.body["message"].get<std::string>().find("enum value set: [DYNAMODB_JSON, ION]"),
            std::string::npos)
      << r;
  r = Call("ExportTableToPointInTime",
           {{"TableArn", arn}, {"S3Bucket", "bucket"}, {"ExportFormat", "ION"}});
  ASSERT_EQ(r.http_status, 200) << r;  // Amazon Ion text (api/transfer/ion_text.h)
  EXPECT_EQ(r.body["ExportDescription"]["ExportFormat"], "ION");
  r = Call("ExportTableToPointInTime",
           {{"TableArn", arn}, {"S3Bucket", "bucket"}, {"ExportTime", "yesterday"}});
  EXPECT_EQ(r.body["__type"], "com.amazon.coral.service#SerializationException");
  r = Call("ExportTableToPointInTime", {{"TableArn", arn + "x"}, {"S3Bucket", "bucket"}});
  EXPECT_EQ(r.body["__type"], std::string(kDynamoDb) + "TableNotFoundException");
  r = Call("CreateTable",
           {{"TableName", "nopitr"},
            {"BillingMode", "PAY_PER_REQUEST"},
            {"AttributeDefinitions", {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
            {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}});
  r = Call("ExportTableToPointInTime",
           {{"TableArn", "arn:aws:dynamodb:ddblocal:" +
                             std::string(kDefaultAccountId) + ":table/nopitr"},
            {"S3Bucket", "bucket"}});
  EXPECT_EQ(r.body["__type"], std::string(kDynamoDb) + "PointInTimeRecoveryUnavailableException");
  r = Call("DescribeExport", {{"ExportArn", arn + "/export/01234567890123-abcdef01"}});
  EXPECT_EQ(r.body["__type"], std::string(kDynamoDb) + "ExportNotFoundException");
  r = Call("DescribeExport", json::object());
  EXPECT_EQ(r.body["__type"], "com.amazon.coral.validate#ValidationException");
  r = Call("ListExports", {{"MaxResults", 26}});
  EXPECT_EQ(r.body["__type"], "com.amazon.coral.validate#ValidationException");
}

}  // namespace
}  // namespace dynarock::api
