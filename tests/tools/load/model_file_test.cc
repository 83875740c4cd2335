// tests/tools/load/model_file_test.cc
//
// ParseModelFile on every model file in tests/data/models (NoSQL Workbench
// 1.0 / 2.0 / 3.0, facets, BatchWriteItem samples, the HR spec) and on
// small made-up files for the structural errors.

#include "tools/load/model_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dynarock::tools::load {
namespace {

using api::Json;
using ::testing::HasSubstr;

std::string ModelPath(const std::string& relative) {
  return std::string(DYNAROCK_TEST_MODELS_DIR) + "/" + relative;
}

LoadPlan MustRead(const std::string& relative) {
  Result<LoadPlan> plan = ReadModelFile(ModelPath(relative));
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  return plan.ok() ? std::move(plan).value() : LoadPlan{};
}

struct Expected {
  std::string file;
  FileFormat format;
  std::vector<std::pair<std::string, size_t>> tables;  // name, items
};

TEST(ModelFileTest, EveryModelFileParsesWithItsTablesAndItemCounts) {
  const std::vector<Expected> expected = {
      {"an-online-shop/AnOnlineShop_1.json", FileFormat::kWorkbench, {{"OnlineShop", 0}}},
      {"an-online-shop/AnOnlineShop_2.json", FileFormat::kWorkbench, {{"OnlineShop", 1}}},
      {"an-online-shop/AnOnlineShop_3.json", FileFormat::kWorkbench, {{"OnlineShop", 2}}},
      {"an-online-shop/AnOnlineShop_4.json", FileFormat::kWorkbench, {{"OnlineShop", 3}}},
      {"an-online-shop/AnOnlineShop_5.json", FileFormat::kWorkbench, {{"OnlineShop", 4}}},
      {"an-online-shop/AnOnlineShop_6.json", FileFormat::kWorkbench, {{"OnlineShop", 10}}},
      {"an-online-shop/AnOnlineShop_7.json", FileFormat::kWorkbench, {{"OnlineShop", 13}}},
      {"an-online-shop/AnOnlineShop_8.json", FileFormat::kWorkbench, {{"OnlineShop", 14}}},
      {"an-online-shop/AnOnlineShop_9.json", FileFormat::kWorkbench, {{"OnlineShop", 16}}},
      {"an-online-shop/AnOnlineShop_10.json", FileFormat::kWorkbench, {{"OnlineShop", 16}}},
      {"an-online-shop/AnOnlineShop_11.json", FileFormat::kWorkbench, {{"OnlineShop", 16}}},
      {"an-online-shop/AnOnlineShop_12.json", FileFormat::kWorkbench, {{"OnlineShop", 19}}},
      {"an-online-shop/AnOnlineShop_13.json", FileFormat::kWorkbench, {{"OnlineShop", 19}}},
      {"an-online-shop/AnOnlineShop_14.json", FileFormat::kWorkbench, {{"OnlineShop", 19}}},
      {"an-online-shop/AnOnlineShop_facets.json", FileFormat::kWorkbench, {{"OnlineShop", 20}}},
      {"device-state-log/DeviceStateLog_1.json", FileFormat::kWorkbench, {{"DeviceStateLog", 11}}},
      {"device-state-log/DeviceStateLog_2.json", FileFormat::kWorkbench, {{"DeviceStateLog", 11}}},
      {"device-state-log/DeviceStateLog_3.json", FileFormat::kWorkbench, {{"DeviceStateLog", 11}}},
      {"device-state-log/DeviceStateLog_4.json", FileFormat::kWorkbench, {{"DeviceStateLog", 11}}},
      {"device-state-log/DeviceStateLog_5.json", FileFormat::kWorkbench, {{"DeviceStateLog", 11}}},
      {"device-state-log/DeviceStateLog_6.json", FileFormat::kWorkbench, {{"DeviceStateLog", 11}}},
      {"device-state-log/DeviceStateLog_7.json", FileFormat::kWorkbench, {{"DeviceStateLog", 11}}},
      {"chat-system/ChatSystemSchema.json", FileFormat::kWorkbench, {{"Chat", 8}}},
      {"complaint-management/ComplaintManagementSchema.json", FileFormat::kWorkbench,
       {{"Complaint_management_system", 9}}},
      {"connected-vehicles/ConnectedVehiclesSchema.json", FileFormat::kWorkbench,
       {{"Connected_Vehicle", 12}}},
      {"gaming-player-profiles/GamePlayerProfilesSchema.json", FileFormat::kWorkbench,
       {{"game-player-profiles", 14}}},
      {"recurring-payments/RecurringPaymentsSchema.json", FileFormat::kWorkbench,
       {{"ReoccuringPayments", 2}}},
      {"session-management/SessionManagementSchema.json", FileFormat::kWorkbench,
       {{"session_store", 6}}},
      {"social-network/SocialNetworkSchema.json", FileFormat::kWorkbench, {{"SNS", 17}}},
      {"dynamodb-labs-scenario-solutions/BankModel.json", FileFormat::kWorkbench,
       {{"PaymentScheduler", 4}, {"TransactionHistory", 2}}},
      {"dynamodb-labs-scenario-solutions/CartModel.json", FileFormat::kWorkbench,
       {{"CartTable", 5}}},
      {"developer-guide-sample-tables/ProductCatalog.json", FileFormat::kBatchWriteItem,
       {{"ProductCatalog", 8}}},
      {"developer-guide-sample-tables/Forum.json", FileFormat::kBatchWriteItem, {{"Forum", 2}}},
      {"developer-guide-sample-tables/Thread.json", FileFormat::kBatchWriteItem, {{"Thread", 3}}},
      {"developer-guide-sample-tables/Reply.json", FileFormat::kBatchWriteItem, {{"Reply", 4}}},
      {"hr-order-entry-relational/relationalModeling.json", FileFormat::kSpec,
       {{"HR-Table", 12}}},
  };
  for (const Expected& e : expected) {
    SCOPED_TRACE(e.file);
    LoadPlan plan = MustRead(e.file);
    EXPECT_EQ(plan.format, e.format);
    EXPECT_EQ(plan.source, ModelPath(e.file));
    ASSERT_EQ(plan.tables.size(), e.tables.size());
    for (size_t i = 0; i < e.tables.size(); ++i) {
      EXPECT_EQ(plan.tables[i].name, e.tables[i].first);
      EXPECT_EQ(plan.tables[i].create_table["TableName"], e.tables[i].first);
      EXPECT_EQ(plan.tables[i].items.size(), e.tables[i].second);
    }
  }
}

TEST(ModelFileTest, WorkbenchV1BecomesOnDemandCreateTableWithGsis) {
  LoadPlan plan = MustRead("an-online-shop/AnOnlineShop_14.json");
  ASSERT_EQ(plan.tables.size(), 1u);
  const Json expected = Json::parse(R"({
    "TableName": "OnlineShop",
    "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                  {"AttributeName": "SK", "KeyType": "RANGE"}],
    "AttributeDefinitions": [
      {"AttributeName": "PK", "AttributeType": "S"},
      {"AttributeName": "SK", "AttributeType": "S"},
      {"AttributeName": "GSI1-PK", "AttributeType": "S"},
      {"AttributeName": "GSI1-SK", "AttributeType": "S"},
      {"AttributeName": "GSI2-PK", "AttributeType": "S"},
      {"AttributeName": "GSI2-SK", "AttributeType": "S"}],
    "BillingMode": "PAY_PER_REQUEST",
    "GlobalSecondaryIndexes": [
      {"IndexName": "GSI1",
       "KeySchema": [{"AttributeName": "GSI1-PK", "KeyType": "HASH"},
                     {"AttributeName": "GSI1-SK", "KeyType": "RANGE"}],
       "Projection": {"ProjectionType": "ALL"}},
      {"IndexName": "GSI2",
       "KeySchema": [{"AttributeName": "GSI2-PK", "KeyType": "HASH"},
                     {"AttributeName": "GSI2-SK", "KeyType": "RANGE"}],
       "Projection": {"ProjectionType": "ALL"}}]})");
  EXPECT_EQ(plan.tables[0].create_table, expected);
  // Items keep their position in TableData.
  EXPECT_EQ(plan.tables[0].items[3].index, 3u);
  EXPECT_EQ(plan.tables[0].items[3].item["PK"], Json({{"S", "p#12345"}}));
  EXPECT_EQ(plan.tables[0].items[3].facet, "");
}

TEST(ModelFileTest, WorkbenchV3ProvisionedWithIncludeProjectionAndFacets) {
  LoadPlan plan = MustRead("recurring-payments/RecurringPaymentsSchema.json");
  ASSERT_EQ(plan.tables.size(), 1u);
  const Json& ct = plan.tables[0].create_table;
  EXPECT_EQ(ct["BillingMode"], "PROVISIONED");
  const Json throughput = {{"ReadCapacityUnits", 5}, {"WriteCapacityUnits", 5}};
  EXPECT_EQ(ct["ProvisionedThroughput"], throughput);
  ASSERT_EQ(ct["GlobalSecondaryIndexes"].size(), 2u);
  const Json& gsi1 = ct["GlobalSecondaryIndexes"][0];
  EXPECT_EQ(gsi1["IndexName"], "GSI-1");
  EXPECT_EQ(gsi1["ProvisionedThroughput"], throughput);
  EXPECT_EQ(gsi1["Projection"],
            Json::parse(R"({"ProjectionType": "INCLUDE", "NonKeyAttributes":
                           ["SK", "PK", "SKU", "Email", "NextPaymentDate"]})"));
  // A facet's items belong to the table; positions count within the facet.
  const auto& items = plan.tables[0].items;
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].facet, "Subscription");
  EXPECT_EQ(items[0].index, 0u);
  EXPECT_EQ(items[1].facet, "Receipts");
  EXPECT_EQ(items[1].index, 0u);
}

TEST(ModelFileTest, WorkbenchV2HasTwoTables) {
  LoadPlan plan = MustRead("dynamodb-labs-scenario-solutions/BankModel.json");
  ASSERT_EQ(plan.tables.size(), 2u);
  EXPECT_EQ(plan.tables[1].create_table["KeySchema"],
            Json::parse(R"([{"AttributeName": "AccountID", "KeyType": "HASH"},
                            {"AttributeName": "Timestamp", "KeyType": "RANGE"}])"));
  EXPECT_EQ(plan.tables[1].create_table["BillingMode"], "PAY_PER_REQUEST");
  EXPECT_FALSE(plan.tables[1].create_table.contains("ProvisionedThroughput"));
}

TEST(ModelFileTest, BatchWriteItemSampleTablesGetTheDeveloperGuideSchemas) {
  LoadPlan plan = MustRead("developer-guide-sample-tables/ProductCatalog.json");
  ASSERT_EQ(plan.tables.size(), 1u);
  EXPECT_EQ(plan.tables[0].create_table["KeySchema"],
            Json::parse(R"([{"AttributeName": "Id", "KeyType": "HASH"}])"));
  EXPECT_EQ(plan.tables[0].create_table["AttributeDefinitions"],
            Json::parse(R"([{"AttributeName": "Id", "AttributeType": "N"}])"));
  LoadPlan reply = MustRead("developer-guide-sample-tables/Reply.json");
  EXPECT_EQ(reply.tables[0].create_table["GlobalSecondaryIndexes"][0]["IndexName"],
            "PostedBy-Message-Index");
}

TEST(ModelFileTest, BatchWriteItemOfAnUnknownTableOrWithDeletesIsRefused) {
  Result<LoadPlan> unknown = ParseModelFile(
      "x.json", R"({"Music": [{"PutRequest": {"Item": {"A": {"S": "a"}}}}]})");
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(unknown.status().message(),
              HasSubstr("x.json: table Music: a BatchWriteItem file does not say"));
  Result<LoadPlan> deletes = ParseModelFile(
      "x.json",
      R"({"RequestItems": {"Forum": [{"DeleteRequest": {"Key": {"Name": {"S": "a"}}}}]}})");
  ASSERT_FALSE(deletes.ok());
  EXPECT_EQ(deletes.status().message(),
            "x.json: table Forum, request 0: only PutRequest entries with an "
            "Item can be loaded");
}

TEST(ModelFileTest, SpecIsRepairedAndRecordsBecomeDynamoDbJson) {
  LoadPlan plan = MustRead("hr-order-entry-relational/relationalModeling.json");
  ASSERT_EQ(plan.tables.size(), 1u);
  const Json& ct = plan.tables[0].create_table;
  EXPECT_EQ(ct["BillingMode"], "PAY_PER_REQUEST");
  EXPECT_FALSE(ct.contains("ProvisionedThroughput"));
  EXPECT_FALSE(ct["GlobalSecondaryIndexes"][0].contains("ProvisionedThroughput"));
  EXPECT_EQ(ct["AttributeDefinitions"],
            Json::parse(R"([{"AttributeName": "PK", "AttributeType": "S"},
                            {"AttributeName": "SK", "AttributeType": "S"},
                            {"AttributeName": "Data", "AttributeType": "S"},
                            {"AttributeName": "GSI-Bucket", "AttributeType": "S"}])"));
  EXPECT_EQ(plan.tables[0].items[2].item,
            Json::parse(R"({"PK": {"S": "HR-EMPLOYEE1"}, "SK": {"S": "HR-CONFIDENTIAL"},
                            "Data": {"S": "2019-02-12"}, "Employee": {"S": "John Smith"},
                            "Salary": {"N": "50000"}})"));
}

TEST(ModelFileTest, PlainJsonToAttributeValues) {
  EXPECT_EQ(PlainToAttributeValue(Json::parse(R"({"a": [1, 8.5, true, null, "x"]})")),
            Json::parse(R"({"M": {"a": {"L": [{"N": "1"}, {"N": "8.5"}, {"BOOL": true},
                                              {"NULL": true}, {"S": "x"}]}}})"));
}

TEST(ModelFileTest, StructuralErrorsNameTheFile) {
  auto message = [](std::string_view text) {
    Result<LoadPlan> plan = ParseModelFile("m.json", text);
    EXPECT_FALSE(plan.ok());
    return plan.ok() ? std::string() : plan.status().message();
  };
  EXPECT_EQ(message("[1, 2]"), "m.json: not a JSON object");
  EXPECT_EQ(message("{"), "m.json: not a JSON object");
  EXPECT_THAT(message(R"({"a": 1})"), HasSubstr("m.json: not a NoSQL Workbench model"));
  EXPECT_EQ(message(R"({"DataModel": [{"KeyAttributes": {}}]})"),
            "m.json: a DataModel entry has no TableName");
  EXPECT_EQ(message(R"({"DataModel": [{"TableName": "T", "KeyAttributes": {}}]})"),
            "m.json: table T has no KeyAttributes.PartitionKey");
  EXPECT_EQ(message(R"({"DataModel": [{"TableName": "T",
      "KeyAttributes": {"PartitionKey": {"AttributeName": "P", "AttributeType": "S"}},
      "GlobalSecondaryIndexes": [{"IndexName": "G", "KeyAttributes":
        {"PartitionKey": {"AttributeName": "P", "AttributeType": "N"}}}]}]})"),
            "m.json: attribute P is declared both S and N");
  EXPECT_EQ(message(R"({"DataModel": [{"TableName": "T", "BillingMode": "PROVISIONED",
      "KeyAttributes": {"PartitionKey": {"AttributeName": "P", "AttributeType": "S"}}}]})"),
            "m.json: table T is PROVISIONED but has no "
            "ProvisionedCapacitySettings.ProvisionedThroughput");
  EXPECT_EQ(message(R"({"DataModel": [{"TableName": "T", "TableData": {},
      "KeyAttributes": {"PartitionKey": {"AttributeName": "P", "AttributeType": "S"}}}]})"),
            "m.json: table T: TableData is not a list");
}

TEST(ModelFileTest, MissingFileIsAnIoError) {
  Result<LoadPlan> plan = ReadModelFile("/nonexistent/model.json");
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), ErrorCode::kIOError);
}

}  // namespace
}  // namespace dynarock::tools::load
