// Import from S3 through the in-process Client, the bucket a directory
// (api/transfer/s3_directory.h): the ImportTableDescription JSON (source,
// format options, TableCreationParameters, counts), ImportSummaryList, and
// the shape errors and error types.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "api/transfer/s3_directory.h"
#include "engine/requests/scope.h"
#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

std::string TempRoot() {
  const std::string dir =
      testing::TempDir() + "/import_ops_test_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/bucket/csv");
  std::ofstream(dir + "/bucket/csv/a.csv") << "pk;v\na;1\nb;2\n";
  return dir;
}

class ImportOpsTest : public ::testing::Test {
 protected:
  static EngineOptions Options(TransferFiles* files) {
    EngineOptions o = TestEngine::Options();
    o.transfer_files = files;
    return o;
  }
  ~ImportOpsTest() override { std::filesystem::remove_all(root_); }

  Reply Call(std::string_view operation, const json& body) {
    Response r = client_.Call(operation, body.dump());
    Reply out;
    out.http_status = r.http_status;
    out.body = json::parse(r.body, nullptr, /*allow_exceptions=*/false);
    return out;
  }
  static json Params(const std::string& name) {
    return {{"TableName", name},
            {"BillingMode", "PAY_PER_REQUEST"},
            {"AttributeDefinitions", {{{"AttributeName", "pk"}, {"AttributeType", "S"}}}},
            {"KeySchema", {{{"AttributeName", "pk"}, {"KeyType", "HASH"}}}}};
  }

  std::string root_ = TempRoot();
  S3Directory s3_{root_};
  TestEngine engine_{Options(&s3_)};
  Client client_{engine_.engine.get()};
};

TEST_F(ImportOpsTest, ImportDescribeList) {
  Reply r = Call("ImportTable",
                 {{"S3BucketSource", {{"S3Bucket", "bucket"}, {"S3KeyPrefix", "csv/"}}},
                  {"InputFormat", "CSV"},
                  {"InputFormatOptions", {{"Csv", {{"Delimiter", ";"}}}}},
                  {"TableCreationParameters", Params("imported")},
                  {"ClientToken", "tok"}});
  ASSERT_EQ(r.http_status, 200) << r;
  json d = r.body["ImportTableDescription"];
  EXPECT_EQ(d["ImportStatus"], "IN_PROGRESS");
  EXPECT_EQ(d["TableArn"],
            "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
                ":table/imported");
  EXPECT_EQ(d["S3BucketSource"], json::parse(R"({"S3Bucket":"bucket","S3KeyPrefix":"csv/"})"));
  EXPECT_EQ(d["InputFormat"], "CSV");
  EXPECT_EQ(d["InputCompressionType"], "NONE");
  EXPECT_EQ(d["InputFormatOptions"], json::parse(R"({"Csv":{"Delimiter":";"}})"));
  EXPECT_EQ(d["TableCreationParameters"]["TableName"], "imported");
  EXPECT_EQ(d["TableCreationParameters"]["BillingMode"], "PAY_PER_REQUEST");
  EXPECT_EQ(d["ClientToken"], "tok");
  const std::string arn = d["ImportArn"];
  EXPECT_EQ(arn.rfind(d["TableArn"].get<std::string>() + "/import/", 0), 0u);

  engine_->WaitUntilTransfersDone();
  r = Call("DescribeImport", {{"ImportArn", arn}});
  ASSERT_EQ(r.http_status, 200) << r;
  d = r.body["ImportTableDescription"];
  EXPECT_EQ(d["ImportStatus"], "COMPLETED");
  EXPECT_EQ(d["ImportedItemCount"], 2);
  EXPECT_EQ(d["ProcessedItemCount"], 2);
  EXPECT_EQ(d["ErrorCount"], 0);
  EXPECT_TRUE(d["EndTime"].is_number());
  r = Call("ListImports", json::object());
  ASSERT_EQ(r.http_status, 200) << r;
  ASSERT_EQ(r.body["ImportSummaryList"].size(), 1u);
  EXPECT_EQ(r.body["ImportSummaryList"][0]["ImportArn"], arn);
  EXPECT_EQ(r.body["ImportSummaryList"][0]["ImportStatus"], "COMPLETED");
  r = Call("GetItem", {{"TableName", "imported"}, {"Key", {{"pk", {{"S", "b"}}}}}});
  EXPECT_EQ(r.body["Item"]["v"], json::parse(R"({"S":"2"})")) << r;
}

// TableCreationParameters' VectorIndexes: the imported table has the
// index, built from the imported items; an item whose vector is not the
// index's is refused like any invalid item (counted in ErrorCount).
TEST_F(ImportOpsTest, VectorIndexes) {
  std::filesystem::create_directories(root_ + "/bucket/vec");
  std::ofstream(root_ + "/bucket/vec/a.json")
      << R"({"Item":{"pk":{"S":"a"},"v":{"L":[{"N":"0"},{"N":"1"}]}}})" "\n"
      << R"({"Item":{"pk":{"S":"b"},"v":{"L":[{"N":"3"},{"N":"5"}]}}})" "\n"
      << R"({"Item":{"pk":{"S":"c"},"v":{"L":[{"N":"1"},{"N":"1"},{"N":"1"}]}}})" "\n"
      << R"({"Item":{"pk":{"S":"d"}}})" "\n";
  json params = Params("vectors");
  const json index = json::parse(R"({"IndexName":"emb","VectorAttribute":{"AttributeName":"v"},
      "Dimensions":2,"DistanceFunction":"EUCLIDEAN","Projection":{"ProjectionType":"KEYS_ONLY"}})");
  params["VectorIndexes"] = json::array({index});
  Reply r = Call("ImportTable", {{"S3BucketSource", {{"S3Bucket", "bucket"}, {"S3KeyPrefix", "vec/"}}},
                                 {"InputFormat", "DYNAMODB_JSON"},
                                 {"TableCreationParameters", params}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["ImportTableDescription"]["TableCreationParameters"]["VectorIndexes"],
            json::array({index}));
  const std::string arn = r.body["ImportTableDescription"]["ImportArn"];
  engine_->WaitUntilTransfersDone();
  r = Call("DescribeImport", {{"ImportArn", arn}});
  json d = r.body["ImportTableDescription"];
  EXPECT_EQ(d["ImportedItemCount"], 3) << r;
  EXPECT_EQ(d["ErrorCount"], 1) << r;
  r = Call("DescribeTable", {{"TableName", "vectors"}});
  ASSERT_EQ(r.body["Table"]["VectorIndexes"].size(), 1u) << r;
  EXPECT_EQ(r.body["Table"]["VectorIndexes"][0]["IndexStatus"], "ACTIVE");
  r = Call("SearchVectors", json::parse(R"({"TableName":"vectors","IndexName":"emb",
      "SearchVector":[{"N":"0"},{"N":"0"}],"TopK":10})"));
  ASSERT_EQ(r.body["SearchResults"].size(), 2u) << r;
  EXPECT_EQ(r.body["SearchResults"][0]["Item"], json::parse(R"({"pk":{"S":"a"}})"));
  EXPECT_EQ(r.body["SearchResults"][0]["Score"], 1.0);
  EXPECT_EQ(r.body["SearchResults"][1]["Item"], json::parse(R"({"pk":{"S":"b"}})"));
  EXPECT_NEAR(r.body["SearchResults"][1]["Score"].get<double>(), std::sqrt(34.0), 1e-6);
  // A vector index's rules hold for an import's table as for CreateTable's.
  params = Params("vectors2");
  params["BillingMode"] = "PROVISIONED";
  params["ProvisionedThroughput"] = {{"ReadCapacityUnits", 1}, {"WriteCapacityUnits", 1}};
  params["VectorIndexes"] = json::array({index});
  r = Call("ImportTable", {{"S3BucketSource", {{"S3Bucket", "bucket"}, {"S3KeyPrefix", "vec/"}}},
                           {"InputFormat", "DYNAMODB_JSON"},
                           {"TableCreationParameters", params}});
  EXPECT_EQ(r.body, ValidationError("One or more parameter values were invalid: Vector indexes "
                                    "are supported only on tables that use on-demand capacity "
                                    "mode (BillingMode PAY_PER_REQUEST)"));
}

TEST_F(ImportOpsTest, Errors) {
  Reply r = Call("ImportTable", {{"InputFormat", "CSV"},
                                 {"TableCreationParameters", Params("tt1")}});
  EXPECT_EQ(r.body["message"],
            "1 validation error detected: Value null at 's3BucketSource' failed to satisfy "
            "constraint: Member must not be null");
  r = Call("ImportTable", {{"S3BucketSource", {{"S3Bucket", "bucket"}}},
                           {"InputFormat", "XML"},
                           {"TableCreationParameters", Params("tt1")}});
  EXPECT_EQ(r.body["__type"], "com.amazon.coral.validate#ValidationException");
  r = Call("ImportTable", {{"S3BucketSource", {{"S3Bucket", "bucket"}}},
                           {"InputFormat", "ION"},
                           {"TableCreationParameters", Params("ion")}});
  ASSERT_EQ(r.http_status, 200) << r;  // Amazon Ion text (api/transfer/ion_text.h)
  EXPECT_EQ(r.body["ImportTableDescription"]["InputFormat"], "ION");
  json bad = Params("tt1");
  bad.erase("KeySchema");
  r = Call("ImportTable", {{"S3BucketSource", {{"S3Bucket", "bucket"}}},
                           {"InputFormat", "CSV"},
                           {"TableCreationParameters", bad}});
  EXPECT_EQ(r.body["__type"], "com.amazon.coral.validate#ValidationException");
  // The TableCreationParameters' violations join the request's others, each
  // under its path.
  r = Call("ImportTable", {{"S3BucketSource", json::object()},
                           {"InputFormat", "XML"},
                           {"TableCreationParameters",
                            {{"TableName", "a"}, {"BillingMode", "FREE"},
                             {"KeySchema", json::array()}}}});
  EXPECT_EQ(r.body["message"],
            "6 validation errors detected: Value null at 's3BucketSource.s3Bucket' failed "
            "to satisfy constraint: Member must not be null; Value 'XML' at 'inputFormat' "
            "failed to satisfy constraint: Member must satisfy enum value set: "
            "[DYNAMODB_JSON, ION, CSV]; Value null at "
            "'tableCreationParameters.attributeDefinitions' failed to satisfy constraint: "
            "Member must not be null; Value 'a' at 'tableCreationParameters.tableName' "
            "failed to satisfy constraint: Member must have length greater than or equal "
            "to 3; Value '[]' at 'tableCreationParameters.keySchema' failed to satisfy "
            "constraint: Member must have length greater than or equal to 1; Value 'FREE' "
            "at 'tableCreationParameters.billingMode' failed to satisfy constraint: Member "
            "must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]");
  r = Call("DescribeImport",
           {{"ImportArn",
             "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) +
                 ":table/x/"
                 "import/01234567890123-abcdef01"}});
  EXPECT_EQ(r.body["__type"], "com.amazonaws.dynamodb.v20120810#ImportNotFoundException");
  r = Call("ListImports", {{"PageSize", 0}});
  EXPECT_EQ(r.body["__type"], "com.amazon.coral.validate#ValidationException");
}

}  // namespace
}  // namespace dynarock::api
