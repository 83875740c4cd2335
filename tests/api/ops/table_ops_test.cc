// CreateTable, DescribeTable, ListTables, UpdateTable, DeleteTable through the
// in-process Client: whole responses and exact errors.

#include <gtest/gtest.h>

#include <string>

#include "engine/requests/scope.h"
#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

// Replaces the random TableId (a UUID) so that whole descriptions compare.
void StripTableId(json* description) {
  ASSERT_TRUE(description->contains("TableId")) << *description;
  const std::string id = (*description)["TableId"].get<std::string>();
  EXPECT_EQ(id.size(), 36u) << id;
  (*description)["TableId"] = "ID";
}

const std::string kOnDemandTable = R"({
  "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
  "TableName":"tbl",
  "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
  "TableStatus":"ACTIVE",
  "CreationDateTime":1700000000.0,
  "ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":0,
                           "WriteCapacityUnits":0},
  "TableSizeBytes":0,
  "ItemCount":0,
  "TableArn":"arn:aws:dynamodb:ddblocal:)" +
                                   std::string(kDefaultAccountId) +
                                   R"(:table/tbl",
  "TableId":"ID",
  "BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST",
                        "LastUpdateToPayPerRequestDateTime":1700000000.0},
  "DeletionProtectionEnabled":false})";

const char* kCreateOnDemand = R"({
  "TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
  "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
  "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})";

class TableOpsTest : public ApiTest {};

TEST_F(TableOpsTest, CreateOnDemandTable) {
  Reply r = Call("CreateTable", kCreateOnDemand);
  ASSERT_EQ(r.http_status, 200) << r;
  ASSERT_TRUE(r.body.contains("TableDescription")) << r;
  StripTableId(&r.body["TableDescription"]);
  EXPECT_EQ(r.body, (json{{"TableDescription", json::parse(kOnDemandTable)}}));
}

TEST_F(TableOpsTest, CreateProvisionedTableWithIndexes) {
  Reply r = Call("CreateTable", R"({
    "TableName":"orders",
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                            {"AttributeName":"sk","AttributeType":"N"},
                            {"AttributeName":"l","AttributeType":"B"},
                            {"AttributeName":"g","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
                 {"AttributeName":"sk","KeyType":"RANGE"}],
    "LocalSecondaryIndexes":[{"IndexName":"lsi","KeySchema":[
        {"AttributeName":"pk","KeyType":"HASH"},{"AttributeName":"l","KeyType":"RANGE"}],
        "Projection":{"ProjectionType":"KEYS_ONLY"}}],
    "GlobalSecondaryIndexes":[{"IndexName":"gsi","KeySchema":[
        {"AttributeName":"g","KeyType":"HASH"}],
        "Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["x","y"]},
        "ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":4}}],
    "ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":6},
    "DeletionProtectionEnabled":true})");
  ASSERT_EQ(r.http_status, 200) << r;
  json& d = r.body["TableDescription"];
  StripTableId(&d);
  const json expected = json::parse(
      R"({
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                            {"AttributeName":"sk","AttributeType":"N"},
                            {"AttributeName":"l","AttributeType":"B"},
                            {"AttributeName":"g","AttributeType":"S"}],
    "TableName":"orders",
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
                 {"AttributeName":"sk","KeyType":"RANGE"}],
    "TableStatus":"ACTIVE",
    "CreationDateTime":1700000000.0,
    "ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":5,
                             "WriteCapacityUnits":6},
    "TableSizeBytes":0,
    "ItemCount":0,
    "TableArn":"arn:aws:dynamodb:ddblocal:)" +
      std::string(kDefaultAccountId) + R"(:table/orders",
    "TableId":"ID",
    "DeletionProtectionEnabled":true,
    "LocalSecondaryIndexes":[{"IndexName":"lsi",
        "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
                     {"AttributeName":"l","KeyType":"RANGE"}],
        "Projection":{"ProjectionType":"KEYS_ONLY"},
        "IndexSizeBytes":0,"ItemCount":0,
        "IndexArn":"arn:aws:dynamodb:ddblocal:)" +
      std::string(kDefaultAccountId) + R"(:table/orders/index/lsi"}],
    "GlobalSecondaryIndexes":[{"IndexName":"gsi",
        "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
        "Projection":{"ProjectionType":"INCLUDE","NonKeyAttributes":["x","y"]},
        "IndexStatus":"ACTIVE",
        "ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":3,
                                 "WriteCapacityUnits":4},
        "IndexSizeBytes":0,"ItemCount":0,
        "IndexArn":"arn:aws:dynamodb:ddblocal:)" +
      std::string(kDefaultAccountId) + R"(:table/orders/index/gsi",
        "WarmThroughput":{"ReadUnitsPerSecond":3,"WriteUnitsPerSecond":4,
                          "Status":"ACTIVE"}}]})");
  EXPECT_EQ(d, expected);
}

TEST_F(TableOpsTest, DescribeTableReturnsTheSameDescription) {
  ASSERT_EQ(Call("CreateTable", kCreateOnDemand).http_status, 200);
  Reply r = Call("DescribeTable", R"({"TableName":"tbl"})");
  ASSERT_EQ(r.http_status, 200) << r;
  StripTableId(&r.body["Table"]);
  // DescribeTable adds the WarmThroughput CreateTable leaves out when the
  // request did not set it.
  json expected = json::parse(kOnDemandTable);
  expected["WarmThroughput"] = {
      {"ReadUnitsPerSecond", 12000}, {"WriteUnitsPerSecond", 4000}, {"Status", "ACTIVE"}};
  EXPECT_EQ(r.body, (json{{"Table", expected}}));
}

TEST_F(TableOpsTest, DescribeMissingTable) {
  Reply r = Call("DescribeTable", R"({"TableName":"nope"})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                              "Requested resource not found: Table: nope not found"));
}

TEST_F(TableOpsTest, CreateExistingTable) {
  ASSERT_EQ(Call("CreateTable", kCreateOnDemand).http_status, 200);
  Reply r = Call("CreateTable", kCreateOnDemand);
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceInUseException",
                              "Table already exists: tbl"));
}

TEST_F(TableOpsTest, CreateTableMissingEverything) {
  Reply r = Call("CreateTable", "{}");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body,
            ValidationError("The parameter 'TableName' is required but was not present in "
                            "the request"));
}

// A structure in a message is its model object's toString, as DynamoDB
// renders it today (the text nubo-db/dynoxide#11 recorded from DynamoDB).
TEST_F(TableOpsTest, StructuresInMessagesAsDynamoDbRendersThem) {
  Reply r = Call("CreateTable", R"({
    "TableName":"abc",
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"},
                 {"AttributeName":"sk","KeyType":"RANGE"},
                 {"AttributeName":"extra","KeyType":"RANGE"}],
    "BillingMode":"PAY_PER_REQUEST"})");
  EXPECT_EQ(r.body,
            ValidationError(
                "1 validation error detected: Value '[KeySchemaElement(attributeName=pk, "
                "keyType=HASH), KeySchemaElement(attributeName=sk, keyType=RANGE), "
                "KeySchemaElement(attributeName=extra, keyType=RANGE)]' at 'keySchema' "
                "failed to satisfy constraint: Member must have length less than or equal "
                "to 2"))
      << r;
}

TEST_F(TableOpsTest, CreateTableNestedConstraintViolations) {
  Reply r = Call("CreateTable", R"({
    "TableName":"abc;",
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"SS"},{}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"SORT"}],
    "ProvisionedThroughput":{"ReadCapacityUnits":0,"WriteCapacityUnits":-1},
    "BillingMode":"pay_per_request"})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body,
            ValidationError(
                "8 validation errors detected: "
                "Value 'SS' at 'attributeDefinitions.1.member.attributeType' failed to "
                "satisfy constraint: Member must satisfy enum value set: [B, N, S]; "
                "Value null at 'attributeDefinitions.2.member.attributeName' failed to "
                "satisfy constraint: Member must not be null; "
                "Value null at 'attributeDefinitions.2.member.attributeType' failed to "
                "satisfy constraint: Member must not be null; "
                "Value 'abc;' at 'tableName' failed to satisfy constraint: Member must "
                "satisfy regular expression pattern: [a-zA-Z0-9_.-]+; "
                "Value 'SORT' at 'keySchema.1.member.keyType' failed to satisfy "
                "constraint: Member must satisfy enum value set: [HASH, RANGE]; "
                "Value 'pay_per_request' at 'billingMode' failed to satisfy constraint: "
                "Member must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]; "
                "Value '-1' at 'provisionedThroughput.writeCapacityUnits' failed to "
                "satisfy constraint: Member must have value greater than or equal to 1; "
                "Value '0' at 'provisionedThroughput.readCapacityUnits' failed to "
                "satisfy constraint: Member must have value greater than or equal to 1"));
}

TEST_F(TableOpsTest, CreateTableIndexConstraintViolations) {
  Reply r = Call("CreateTable", R"({
    "TableName":"abc","BillingMode":"PAY_PER_REQUEST",
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
    "GlobalSecondaryIndexes":[{"IndexName":"g!","KeySchema":[],
                               "Projection":{"ProjectionType":"SOME"}}]})");
  EXPECT_EQ(r.body,
            ValidationError(
                "4 validation errors detected: "
                "Value 'g!' at 'globalSecondaryIndexes.1.member.indexName' failed to "
                "satisfy constraint: Member must satisfy regular expression pattern: "
                "[a-zA-Z0-9_.-]+; "
                "Value 'g!' at 'globalSecondaryIndexes.1.member.indexName' failed to "
                "satisfy constraint: Member must have length greater than or equal to 3; "
                "Value '[]' at 'globalSecondaryIndexes.1.member.keySchema' failed to "
                "satisfy constraint: Member must have length greater than or equal to 1; "
                "Value 'SOME' at "
                "'globalSecondaryIndexes.1.member.projection.projectionType' failed to "
                "satisfy constraint: Member must satisfy enum value set: [ALL, INCLUDE, "
                "KEYS_ONLY]"));
}

TEST_F(TableOpsTest, CreateTableWrongJsonTypes) {
  EXPECT_EQ(Call("CreateTable", R"({"TableName":12})").body,
            SerializationError("NUMBER_VALUE cannot be converted to String"));
  EXPECT_EQ(Call("CreateTable", R"({"KeySchema":"x"})").body,
            SerializationError("Unexpected field type"));
  EXPECT_EQ(Call("CreateTable", R"({"KeySchema":[1]})").body,
            SerializationError("Unexpected value type in payload"));
  EXPECT_EQ(Call("CreateTable", R"({"ProvisionedThroughput":[]})").body,
            SerializationError("Unrecognized collection type class "
                               "com.amazonaws.dynamodb.v20120810.ProvisionedThroughput"));
  EXPECT_EQ(Call("CreateTable", R"({"ProvisionedThroughput":{"ReadCapacityUnits":"1"}})").body,
            SerializationError("STRING_VALUE cannot be converted to Long"));
  EXPECT_EQ(Call("CreateTable", R"({"DeletionProtectionEnabled":"yes"})").body,
            SerializationError("Unexpected token received from parser"));
  Reply r = Call("CreateTable", R"({"AttributeDefinitions":{}})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, SerializationError("Start of structure or map found where not expected"));
}

TEST_F(TableOpsTest, CreateTableSemanticErrorsComeFromTheEngine) {
  Reply r = Call("CreateTable", R"({
    "TableName":"abc","BillingMode":"PAY_PER_REQUEST",
    "AttributeDefinitions":[{"AttributeName":"b","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"a","KeyType":"HASH"}]})");
  EXPECT_EQ(r.body, ValidationError("One or more parameter values were invalid: Some index "
                                    "key attributes are not defined in AttributeDefinitions. "
                                    "Keys: [a], AttributeDefinitions: [b]"));
  Reply p = Call("CreateTable", R"({
    "TableName":"abc",
    "AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"a","KeyType":"HASH"}]})");
  EXPECT_EQ(p.body, ValidationError("One or more parameter values were invalid: "
                                    "ReadCapacityUnits and WriteCapacityUnits must both be "
                                    "specified when BillingMode is PROVISIONED"));
}

TEST_F(TableOpsTest, CreateTableProjectionTypeMissing) {
  Reply r = Call("CreateTable", R"({
    "TableName":"abc","BillingMode":"PAY_PER_REQUEST",
    "AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"},
                            {"AttributeName":"g","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],
    "GlobalSecondaryIndexes":[{"IndexName":"gsi","Projection":{},
        "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}]}]})");
  EXPECT_EQ(r.body, ValidationError("One or more parameter values were invalid: Unknown "
                                    "ProjectionType: null"));
}

TEST_F(TableOpsTest, CreateTableEmptyIndexList) {
  Reply r = Call("CreateTable", R"({
    "TableName":"abc","BillingMode":"PAY_PER_REQUEST",
    "AttributeDefinitions":[{"AttributeName":"a","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"a","KeyType":"HASH"}],
    "LocalSecondaryIndexes":[]})");
  EXPECT_EQ(r.body, ValidationError("One or more parameter values were invalid: List of "
                                    "LocalSecondaryIndexes is empty"));
}

TEST_F(TableOpsTest, CreatingThenActiveOnTheSimulatedClock) {
  EngineOptions options = TestEngine::Options();
  options.table_create_delay_micros = 1'000'000;
  TestEngine slow(options);
  Client client(slow.engine.get());
  Response created = client.Call("CreateTable", kCreateOnDemand);
  ASSERT_TRUE(created.ok()) << created.body;
  EXPECT_EQ(json::parse(created.body)["TableDescription"]["TableStatus"], "CREATING");
  slow.clock.Advance(1'000'000);
  Response described = client.Call("DescribeTable", R"({"TableName":"tbl"})");
  EXPECT_EQ(json::parse(described.body)["Table"]["TableStatus"], "ACTIVE");
}

TEST_F(TableOpsTest, ListTablesPaginates) {
  for (const char* name : {"ccc", "aaa", "bbb"}) CreateTable(name);
  EXPECT_EQ(Call("ListTables", "{}").body, json::parse(R"({"TableNames":["aaa","bbb","ccc"]})"));
  EXPECT_EQ(Call("ListTables", R"({"Limit":2})").body,
            json::parse(R"({"TableNames":["aaa","bbb"],"LastEvaluatedTableName":"bbb"})"));
  EXPECT_EQ(Call("ListTables", R"({"Limit":2,"ExclusiveStartTableName":"bbb"})").body,
            json::parse(R"({"TableNames":["ccc"]})"));
}

TEST_F(TableOpsTest, ListTablesValidation) {
  EXPECT_EQ(Call("ListTables", R"({"Limit":0})").body,
            ValidationError("1 validation error detected: Value '0' at 'limit' failed to "
                            "satisfy constraint: Member must have value greater than or "
                            "equal to 1"));
  EXPECT_EQ(Call("ListTables", R"({"Limit":101,"ExclusiveStartTableName":"a;"})").body,
            ValidationError(
                "3 validation errors detected: "
                "Value 'a;' at 'exclusiveStartTableName' failed to satisfy constraint: "
                "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; "
                "Value 'a;' at 'exclusiveStartTableName' failed to satisfy constraint: "
                "Member must have length greater than or equal to 3; "
                "Value '101' at 'limit' failed to satisfy constraint: Member must have "
                "value less than or equal to 100"));
  EXPECT_EQ(Call("ListTables", R"({"Limit":"1"})").body,
            SerializationError("STRING_VALUE cannot be converted to Integer"));
}

TEST_F(TableOpsTest, UpdateTableToProvisionedAndBack) {
  CreateTable("tbl");
  test_engine_.clock.Advance(5'000'000);
  Reply r = Call("UpdateTable", R"({"TableName":"tbl","BillingMode":"PROVISIONED",
      "ProvisionedThroughput":{"ReadCapacityUnits":7,"WriteCapacityUnits":8},
      "DeletionProtectionEnabled":true})");
  ASSERT_EQ(r.http_status, 200) << r;
  const json& d = r.body["TableDescription"];
  EXPECT_EQ(d["ProvisionedThroughput"],
            json::parse(R"({"NumberOfDecreasesToday":0,"ReadCapacityUnits":7,
                            "WriteCapacityUnits":8,"LastIncreaseDateTime":1700000005.0})"));
  EXPECT_EQ(d["BillingModeSummary"],
            json::parse(R"({"BillingMode":"PROVISIONED",
                            "LastUpdateToPayPerRequestDateTime":1700000000.0})"));
  EXPECT_EQ(d["DeletionProtectionEnabled"], true);
  EXPECT_EQ(Call("DeleteTable", R"({"TableName":"tbl"})").body,
            ValidationError("Resource cannot be deleted as it is currently protected "
                            "against deletion. Disable deletion protection first."));
}

TEST_F(TableOpsTest, UpdateTableErrors) {
  CreateTable("tbl");
  // An empty list counts as absent (scylladb test_gsi_updatetable.py).
  EXPECT_EQ(Call("UpdateTable", R"({"TableName":"tbl","GlobalSecondaryIndexUpdates":[]})").body,
            ValidationError("At least one of ProvisionedThroughput, BillingMode, "
                            "UpdateStreamEnabled, GlobalSecondaryIndexUpdates or "
                            "SSESpecification or ReplicaUpdates is required"));
  EXPECT_EQ(Call("UpdateTable", R"({"TableName":"tbl","BillingMode":"FREE"})").body,
            ValidationError("1 validation error detected: Value 'FREE' at 'billingMode' "
                            "failed to satisfy constraint: Member must satisfy enum value "
                            "set: [PROVISIONED, PAY_PER_REQUEST]"));
  // Checked before the table is looked up (dynalite test/updateTable.js).
  EXPECT_EQ(Call("UpdateTable", R"({"TableName":"missing","BillingMode":"PROVISIONED"})").body,
            ValidationError("One or more parameter values were invalid: ProvisionedThroughput "
                            "must be specified when BillingMode is PROVISIONED"));
  EXPECT_EQ(Call("UpdateTable", R"({"TableName":"missing","ProvisionedThroughput":
                  {"ReadCapacityUnits":1000000000001,"WriteCapacityUnits":1}})").body,
            ValidationError("Given value 1000000000001 for ReadCapacityUnits is out of bounds"));
  EXPECT_EQ(Call("UpdateTable", R"({"TableName":"missing","GlobalSecondaryIndexUpdates":
                  [{"Delete":{"IndexName":"abc"}},{"Delete":{"IndexName":"abc"}}]})").body,
            ValidationError("One or more parameter values were invalid: Only one global "
                            "secondary index update per index is allowed simultaneously. "
                            "Index: abc"));
  EXPECT_EQ(Call("UpdateTable", R"({"TableName":"missing","BillingMode":"PAY_PER_REQUEST"})").body,
            ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                      "Requested resource not found: Table: missing not found"));
}

TEST_F(TableOpsTest, DeleteTable) {
  CreateTable("tbl");
  Reply r = Call("DeleteTable", R"({"TableName":"tbl"})");
  ASSERT_EQ(r.http_status, 200) << r;
  json& d = r.body["TableDescription"];
  StripTableId(&d);
  // A short description, as DynamoDB's (no CreationDateTime, KeySchema,
  // AttributeDefinitions, indexes or settings).
  json expected = json::parse(R"({
    "TableName":"tbl","TableStatus":"DELETING","TableId":"ID",
    "TableArn":"arn:aws:dynamodb:ddblocal:)" +
                              std::string(kDefaultAccountId) + R"(:table/tbl",
    "ItemCount":0,"TableSizeBytes":0,
    "ProvisionedThroughput":{"NumberOfDecreasesToday":0,"ReadCapacityUnits":0,
                             "WriteCapacityUnits":0},
    "BillingModeSummary":{"BillingMode":"PAY_PER_REQUEST",
                          "LastUpdateToPayPerRequestDateTime":1700000000.0}})");
  EXPECT_EQ(d, expected);
  EXPECT_EQ(Call("DescribeTable", R"({"TableName":"tbl"})").http_status, 400);
  EXPECT_EQ(Call("ListTables", "{}").body, json::parse(R"({"TableNames":[]})"));
}

TEST_F(TableOpsTest, TableNameOnOtherOperations) {
  // The table operations check TableName's presence and length first,
  // each alone (dynalite test/deleteTable.js, describeTable.js).
  EXPECT_EQ(Call("DeleteTable", R"({"TableName":""})").body,
            ValidationError("TableName must be at least 3 characters long and at most 255 "
                            "characters long"));
  EXPECT_EQ(Call("DescribeTable", "{}").body,
            ValidationError("The parameter 'TableName' is required but was not present in "
                            "the request"));
  EXPECT_EQ(Call("DescribeTable", R"({"TableName":"ab"})").body,
            ValidationError("TableName must be at least 3 characters long and at most 255 "
                            "characters long"));
  EXPECT_EQ(Call("UpdateTable", std::string(R"({"TableName":")") + std::string(256, 'a') +
                                    R"("})").body,
            ValidationError("TableName must be at least 3 characters long and at most 255 "
                            "characters long"));
  // Its pattern joins the other violations.
  EXPECT_EQ(Call("DescribeTable", R"({"TableName":"abc;"})").body,
            ValidationError("1 validation error detected: Value 'abc;' at 'tableName' failed "
                            "to satisfy constraint: Member must satisfy regular expression "
                            "pattern: [a-zA-Z0-9_.-]+"));
}

// --- TableClass, OnDemandThroughput, WarmThroughput ------------------------

TEST_F(TableOpsTest, TableClassSummaryOnceAClassWasGiven) {
  ASSERT_EQ(Call("CreateTable", kCreateOnDemand).http_status, 200);
  json d = Call("DescribeTable", R"({"TableName":"tbl"})").body["Table"];
  EXPECT_FALSE(d.contains("TableClassSummary")) << d;
  Reply r = Call("CreateTable", R"({
    "TableName":"iat","BillingMode":"PAY_PER_REQUEST",
    "TableClass":"STANDARD_INFREQUENT_ACCESS",
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["TableDescription"]["TableClassSummary"],
            (json{{"TableClass", "STANDARD_INFREQUENT_ACCESS"}}));
  r = Call("UpdateTable", R"({"TableName":"tbl","TableClass":"STANDARD_INFREQUENT_ACCESS"})");
  ASSERT_EQ(r.http_status, 200) << r;
  d = Call("DescribeTable", R"({"TableName":"tbl"})").body["Table"];
  EXPECT_EQ(d["TableClassSummary"],
            (json{{"TableClass", "STANDARD_INFREQUENT_ACCESS"},
                  {"LastUpdateDateTime", 1700000000.0}}));
}

TEST_F(TableOpsTest, TableClassErrors) {
  EXPECT_EQ(Call("CreateTable", R"({"TableName":"abc","TableClass":"EXPRESS",
    "BillingMode":"PAY_PER_REQUEST",
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})").body,
            ValidationError("1 validation error detected: Value 'EXPRESS' at 'tableClass' "
                            "failed to satisfy constraint: Member must satisfy enum value "
                            "set: [STANDARD, STANDARD_INFREQUENT_ACCESS]"));
  ASSERT_EQ(Call("CreateTable", kCreateOnDemand).http_status, 200);
  EXPECT_EQ(Call("UpdateTable", R"({"TableName":"tbl","TableClass":"STANDARD",
                                    "DeletionProtectionEnabled":true})").body,
            ValidationError("One or more parameter values were invalid: TableClass "
                            "modification must be the only operation in the request"));
}

TEST_F(TableOpsTest, OnDemandThroughputReportedAndMerged) {
  Reply r = Call("CreateTable", R"({
    "TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
    "OnDemandThroughput":{"MaxReadRequestUnits":100},
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                            {"AttributeName":"g","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
    "GlobalSecondaryIndexes":[{"IndexName":"ByG",
      "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
      "Projection":{"ProjectionType":"KEYS_ONLY"},
      "OnDemandThroughput":{"MaxReadRequestUnits":5,"MaxWriteRequestUnits":6}}]})");
  ASSERT_EQ(r.http_status, 200) << r;
  const json& created = r.body["TableDescription"];
  EXPECT_EQ(created["OnDemandThroughput"], (json{{"MaxReadRequestUnits", 100}}));
  EXPECT_EQ(created["GlobalSecondaryIndexes"][0]["OnDemandThroughput"],
            (json{{"MaxReadRequestUnits", 5}, {"MaxWriteRequestUnits", 6}}));
  r = Call("UpdateTable", R"({"TableName":"tbl",
    "OnDemandThroughput":{"MaxReadRequestUnits":-1,"MaxWriteRequestUnits":500}})");
  ASSERT_EQ(r.http_status, 200) << r;
  r = Call("UpdateTable", R"({"TableName":"tbl","GlobalSecondaryIndexUpdates":[
    {"Update":{"IndexName":"ByG","OnDemandThroughput":{"MaxWriteRequestUnits":-1}}}]})");
  ASSERT_EQ(r.http_status, 200) << r;
  json d = Call("DescribeTable", R"({"TableName":"tbl"})").body["Table"];
  EXPECT_EQ(d["OnDemandThroughput"], (json{{"MaxWriteRequestUnits", 500}}));
  EXPECT_EQ(d["GlobalSecondaryIndexes"][0]["OnDemandThroughput"],
            (json{{"MaxReadRequestUnits", 5}}));
  // Both removed: no OnDemandThroughput at all.
  r = Call("UpdateTable", R"({"TableName":"tbl",
    "OnDemandThroughput":{"MaxWriteRequestUnits":-1}})");
  ASSERT_EQ(r.http_status, 200) << r;
  d = Call("DescribeTable", R"({"TableName":"tbl"})").body["Table"];
  EXPECT_FALSE(d.contains("OnDemandThroughput")) << d;
}

TEST_F(TableOpsTest, OnDemandThroughputErrors) {
  const char* provisioned = R"({"TableName":"prv",
    "ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1},
    "OnDemandThroughput":{"MaxReadRequestUnits":10,"MaxWriteRequestUnits":10},
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})";
  EXPECT_EQ(Call("CreateTable", provisioned).body,
            ValidationError("One or more parameter values were invalid: "
                            "MaxReadRequestUnits for OnDemandThroughput cannot be "
                            "specified when the table BillingMode is PROVISIONED"));
  EXPECT_EQ(Call("CreateTable", R"({"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
    "OnDemandThroughput":{"MaxReadRequestUnits":-1,"MaxWriteRequestUnits":-1},
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})").body,
            ValidationError("One or more parameter values were invalid: Requested "
                            "MaxReadRequestUnits for OnDemandThroughput for table is "
                            "outside of valid range"));
  EXPECT_EQ(Call("CreateTable", R"({"OnDemandThroughput":{"MaxReadRequestUnits":"1"}})").body,
            SerializationError("STRING_VALUE cannot be converted to Long"));
  ASSERT_EQ(Call("CreateTable", kCreateOnDemand).http_status, 200);
  EXPECT_EQ(Call("UpdateTable", R"({"TableName":"tbl",
    "OnDemandThroughput":{"MaxWriteRequestUnits":0}})").body,
            ValidationError("One or more parameter values were invalid: Requested "
                            "MaxWriteRequestUnits for OnDemandThroughput for table is "
                            "outside of valid range"));
  EXPECT_EQ(Call("UpdateTable", R"({"TableName":"tbl","DeletionProtectionEnabled":true,
    "OnDemandThroughput":{"MaxWriteRequestUnits":10}})").body,
            ValidationError("One or more parameter values were invalid: "
                            "OnDemandThroughput can only be combined with BillingMode "
                            "in an UpdateTable request"));
  // With BillingMode it may come (a switch to on-demand, or a re-send).
  EXPECT_EQ(Call("UpdateTable", R"({"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
    "OnDemandThroughput":{"MaxWriteRequestUnits":10}})").http_status, 200);
}

TEST_F(TableOpsTest, WarmThroughputReportedAndRaised) {
  // The CreateTable response shows WarmThroughput only when it was sent.
  Reply r = Call("CreateTable", kCreateOnDemand);
  ASSERT_EQ(r.http_status, 200);
  EXPECT_FALSE(r.body["TableDescription"].contains("WarmThroughput"));
  json d = Call("DescribeTable", R"({"TableName":"tbl"})").body["Table"];
  EXPECT_EQ(d["WarmThroughput"], (json{{"ReadUnitsPerSecond", 12000},
                                       {"WriteUnitsPerSecond", 4000},
                                       {"Status", "ACTIVE"}}));
  r = Call("UpdateTable", R"({"TableName":"tbl",
    "WarmThroughput":{"WriteUnitsPerSecond":4500}})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["TableDescription"]["WarmThroughput"],
            (json{{"ReadUnitsPerSecond", 12000},
                  {"WriteUnitsPerSecond", 4500},
                  {"Status", "ACTIVE"}}));
  EXPECT_EQ(Call("UpdateTable", R"({"TableName":"tbl",
    "WarmThroughput":{"ReadUnitsPerSecond":11000}})").body,
            ValidationError("One or more parameter values were invalid: Requested "
                            "ReadUnitsPerSecond for WarmThroughput for table is lower "
                            "than current WarmThroughput, decreasing WarmThroughput is "
                            "not supported"));
  EXPECT_EQ(Call("UpdateTable", R"({"TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
    "WarmThroughput":{"ReadUnitsPerSecond":13000}})").body,
            ValidationError("One or more parameter values were invalid: WarmThroughput "
                            "must be the only operation in the request"));
  // A provisioned table's warm throughput is its highest units.
  r = Call("CreateTable", R"({"TableName":"prv",
    "ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":2},
    "WarmThroughput":{"ReadUnitsPerSecond":5},
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["TableDescription"]["WarmThroughput"],
            (json{{"ReadUnitsPerSecond", 5},
                  {"WriteUnitsPerSecond", 2},
                  {"Status", "ACTIVE"}}));
}

TEST_F(TableOpsTest, GsiWarmThroughput) {
  Reply r = Call("CreateTable", R"({
    "TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                            {"AttributeName":"g","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
    "GlobalSecondaryIndexes":[{"IndexName":"ByG",
      "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
      "Projection":{"ProjectionType":"KEYS_ONLY"},
      "WarmThroughput":{"ReadUnitsPerSecond":1}}]})");
  EXPECT_EQ(r.body, ValidationError(
                        "One or more parameter values were invalid: Requested "
                        "ReadUnitsPerSecond for WarmThroughput for index ByG is lower "
                        "than initial throughput for OnDemand. See: "
                        "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
                        "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"));
  ASSERT_EQ(Call("CreateTable", R"({
    "TableName":"tbl","BillingMode":"PAY_PER_REQUEST",
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                            {"AttributeName":"g","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
    "GlobalSecondaryIndexes":[{"IndexName":"ByG",
      "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
      "Projection":{"ProjectionType":"KEYS_ONLY"}}]})").http_status, 200);
  r = Call("UpdateTable", R"({"TableName":"tbl","GlobalSecondaryIndexUpdates":[
    {"Update":{"IndexName":"ByG","WarmThroughput":{"ReadUnitsPerSecond":20000}}}]})");
  ASSERT_EQ(r.http_status, 200) << r;
  json d = Call("DescribeTable", R"({"TableName":"tbl"})").body["Table"];
  EXPECT_EQ(d["GlobalSecondaryIndexes"][0]["WarmThroughput"],
            (json{{"ReadUnitsPerSecond", 20000},
                  {"WriteUnitsPerSecond", 4000},
                  {"Status", "ACTIVE"}}));
  // A provisioned throughput Update stays refused on an on-demand table.
  EXPECT_EQ(Call("UpdateTable", R"({"TableName":"tbl","GlobalSecondaryIndexUpdates":[
    {"Update":{"IndexName":"ByG",
      "ProvisionedThroughput":{"ReadCapacityUnits":1,"WriteCapacityUnits":1}}}]})").body,
            ValidationError("One or more parameter values were invalid: The only Updates "
                            "for index: ByG when TableThroughputMode is PAY_PER_REQUEST can "
                            "be to OnDemandThroughput, WarmThroughput"));
}

// Multi-attribute GSI keys: up to four HASH and four RANGE elements;
// DescribeTable returns the KeySchema as given.
TEST_F(TableOpsTest, CreateTableWithAMultiAttributeGsiKey) {
  const json gsi_key = json::parse(R"([
    {"AttributeName":"t","KeyType":"HASH"},{"AttributeName":"r","KeyType":"HASH"},
    {"AttributeName":"h3","KeyType":"HASH"},{"AttributeName":"h4","KeyType":"HASH"},
    {"AttributeName":"d","KeyType":"RANGE"},{"AttributeName":"n","KeyType":"RANGE"},
    {"AttributeName":"r3","KeyType":"RANGE"},{"AttributeName":"r4","KeyType":"RANGE"}])");
  json create = json::parse(kCreateOnDemand);
  for (const char* a : {"t", "h3", "h4", "d", "r3", "r4"}) {
    create["AttributeDefinitions"].push_back({{"AttributeName", a}, {"AttributeType", "S"}});
  }
  for (const char* a : {"r", "n"}) {
    create["AttributeDefinitions"].push_back({{"AttributeName", a}, {"AttributeType", "N"}});
  }
  create["GlobalSecondaryIndexes"] = json::array(
      {{{"IndexName", "multi"}, {"KeySchema", gsi_key},
        {"Projection", {{"ProjectionType", "KEYS_ONLY"}}}}});
  Reply r = Call("CreateTable", create);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["TableDescription"]["GlobalSecondaryIndexes"][0]["KeySchema"], gsi_key);
  r = Call("DescribeTable", R"({"TableName":"tbl"})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["Table"]["GlobalSecondaryIndexes"][0]["KeySchema"], gsi_key);
}

TEST_F(TableOpsTest, MultiAttributeKeySchemaErrors) {
  json create = json::parse(kCreateOnDemand);
  create["AttributeDefinitions"].push_back({{"AttributeName", "a"}, {"AttributeType", "S"}});
  create["AttributeDefinitions"].push_back({{"AttributeName", "b"}, {"AttributeType", "N"}});
  // A table key has one HASH and at most one RANGE element.
  json table_key = create;
  table_key["KeySchema"] = json::parse(R"([{"AttributeName":"pk","KeyType":"HASH"},
      {"AttributeName":"a","KeyType":"HASH"}])");
  Reply r = Call("CreateTable", table_key);
  EXPECT_EQ(r.body, ValidationError("Invalid KeySchema: The second KeySchemaElement is not a "
                                    "RANGE key type")) << r;
  // Nine elements: the request shape allows a GSI eight.
  json nine = create;
  json key = json::array();
  for (int i = 0; i < 9; ++i) key.push_back({{"AttributeName", "a"}, {"KeyType", "HASH"}});
  nine["GlobalSecondaryIndexes"] = json::array(
      {{{"IndexName", "gsi"}, {"KeySchema", key}, {"Projection", {{"ProjectionType", "ALL"}}}}});
  r = Call("CreateTable", nine);
  std::string elements;
  for (int i = 0; i < 9; ++i) elements += std::string(i ? ", " : "") + "KeySchemaElement(attributeName=a, keyType=HASH)";
  EXPECT_EQ(r.body,
            ValidationError("1 validation error detected: Value '[" + elements +
                            "]' at 'globalSecondaryIndexes.1.member.keySchema' failed to "
                            "satisfy constraint: Member must have length less than or "
                            "equal to 8"))
      << r;
  json interleaved = create;
  interleaved["GlobalSecondaryIndexes"] = json::array(
      {{{"IndexName", "gsi"},
        {"KeySchema", json::parse(R"([{"AttributeName":"a","KeyType":"HASH"},
            {"AttributeName":"pk","KeyType":"RANGE"},{"AttributeName":"b","KeyType":"HASH"}])")},
        {"Projection", {{"ProjectionType", "ALL"}}}}});
  r = Call("CreateTable", interleaved);
  EXPECT_EQ(r.body, ValidationError("Invalid KeySchema: All HASH key type KeySchemaElements "
                                    "must precede all RANGE key type KeySchemaElements")) << r;
}

// Multi-Region strong consistency: UpdateTable's MultiRegionConsistency and
// GlobalTableWitnessUpdates, and DescribeTable's members for them.
TEST_F(TableOpsTest, MultiRegionConsistencyAndWitnesses) {
  const CallerIdentity east{"AKID", "us-east-1"};
  const CallerIdentity west{"AKID", "us-west-2"};
  Reply r = Call("CreateTable", kCreateOnDemand, east);
  ASSERT_EQ(r.http_status, 200) << r;
  // Shapes: the enum, a witness entry with exactly one action.
  r = Call("UpdateTable", R"({"TableName":"tbl","MultiRegionConsistency":"MAYBE",
    "ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}}]})", east);
  EXPECT_EQ(r.http_status, 400) << r;
  EXPECT_EQ(r.body["__type"], "com.amazon.coral.validate#ValidationException") << r;
  r = Call("UpdateTable", R"({"TableName":"tbl","MultiRegionConsistency":"STRONG",
    "ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}}],
    "GlobalTableWitnessUpdates":[{"Create":{"RegionName":"us-east-2"},
                                  "Delete":{"RegionName":"us-east-2"}}]})", east);
  EXPECT_EQ(r.http_status, 400) << r;
  EXPECT_EQ(r.body["message"],
            "One or more parameter values were invalid: One of Create or Delete must be "
            "specified in a GlobalTableWitnessGroupUpdate") << r;

  r = Call("UpdateTable", R"({"TableName":"tbl","MultiRegionConsistency":"STRONG",
    "ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}}],
    "GlobalTableWitnessUpdates":[{"Create":{"RegionName":"us-east-2"}}]})", east);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["TableDescription"]["MultiRegionConsistency"], "STRONG") << r;
  EXPECT_EQ(r.body["TableDescription"]["GlobalTableWitnesses"],
            json::parse(R"([{"RegionName":"us-east-2","WitnessStatus":"ACTIVE"}])")) << r;
  r = Call("DescribeTable", R"({"TableName":"tbl"})", west);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["Table"]["MultiRegionConsistency"], "STRONG") << r;
  EXPECT_EQ(r.body["Table"]["Replicas"][0]["RegionName"], "us-east-1") << r;

  // A write conflicting with one in flight from another Region.
  r = Call("DynamoRock_20251121.SetReplicationLag",
           R"({"TableName":"tbl","RegionName":"us-west-2","LagMillis":1000})", east);
  ASSERT_EQ(r.http_status, 200) << r;
  r = Call("PutItem", R"({"TableName":"tbl","Item":{"pk":{"S":"a"}}})", east);
  ASSERT_EQ(r.http_status, 200) << r;
  r = Call("PutItem", R"({"TableName":"tbl","Item":{"pk":{"S":"a"}}})", west);
  EXPECT_EQ(r.http_status, 400) << r;
  EXPECT_EQ(r.body["__type"], "com.amazonaws.dynamodb.v20120810#ReplicatedWriteConflictException")
      << r;
}

// ReplicaUpdates' read overrides (ProvisionedThroughputOverride,
// OnDemandThroughputOverride, GlobalSecondaryIndexes) and the Replicas
// entries that show them; a synchronized setting changed on the replica.
TEST_F(TableOpsTest, ReplicaReadOverrides) {
  const CallerIdentity east{"AKID", "us-east-1"};
  const CallerIdentity west{"AKID", "us-west-2"};
  Reply r = Call("CreateTable", R"({
    "TableName":"tbl",
    "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                            {"AttributeName":"g","AttributeType":"S"}],
    "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
    "GlobalSecondaryIndexes":[{"IndexName":"gsi","KeySchema":[
        {"AttributeName":"g","KeyType":"HASH"}],"Projection":{"ProjectionType":"ALL"},
        "ProvisionedThroughput":{"ReadCapacityUnits":3,"WriteCapacityUnits":4}}],
    "ProvisionedThroughput":{"ReadCapacityUnits":5,"WriteCapacityUnits":6}})", east);
  ASSERT_EQ(r.http_status, 200) << r;

  // Shapes: read units at least 1, an index name of 3 characters or more.
  r = Call("UpdateTable", R"({"TableName":"tbl","ReplicaUpdates":[{"Create":{
    "RegionName":"us-west-2","ProvisionedThroughputOverride":{"ReadCapacityUnits":0}}}]})",
           east);
  EXPECT_EQ(r.http_status, 400) << r;
  EXPECT_NE(r.body["message"].get<std::string>().find(
                "provisionedThroughputOverride.readCapacityUnits"), std::string::npos) << r;
  r = Call("UpdateTable", R"({"TableName":"tbl","ReplicaUpdates":[{"Create":{
    "RegionName":"us-west-2","GlobalSecondaryIndexes":[{"IndexName":"g"}]}}]})", east);
  EXPECT_EQ(r.http_status, 400) << r;
  // An index the table does not have; an on-demand maximum on a provisioned table.
  r = Call("UpdateTable", R"({"TableName":"tbl","ReplicaUpdates":[{"Create":{
    "RegionName":"us-west-2","GlobalSecondaryIndexes":[{"IndexName":"nope",
    "ProvisionedThroughputOverride":{"ReadCapacityUnits":2}}]}}]})", east);
  EXPECT_EQ(r.body, ErrorBody("com.amazonaws.dynamodb.v20120810#ResourceNotFoundException",
                              "Requested resource not found: Index nope for table tbl")) << r;
  r = Call("UpdateTable", R"({"TableName":"tbl","ReplicaUpdates":[{"Create":{
    "RegionName":"us-west-2","OnDemandThroughputOverride":{"MaxReadRequestUnits":9}}}]})",
           east);
  EXPECT_EQ(r.body, ValidationError("One or more parameter values were invalid: "
                                    "OnDemandThroughputOverride can only be specified for a "
                                    "table in PAY_PER_REQUEST billing mode")) << r;

  r = Call("UpdateTable", R"({"TableName":"tbl","ReplicaUpdates":[{"Create":{
    "RegionName":"us-west-2","ProvisionedThroughputOverride":{"ReadCapacityUnits":2},
    "GlobalSecondaryIndexes":[{"IndexName":"gsi",
      "ProvisionedThroughputOverride":{"ReadCapacityUnits":1}}]}}]})", east);
  ASSERT_EQ(r.http_status, 200) << r;
  json replica = r.body["TableDescription"]["Replicas"][0];
  replica.erase("ReplicaStatus");
  EXPECT_EQ(replica, json::parse(R"({"RegionName":"us-west-2",
    "ProvisionedThroughputOverride":{"ReadCapacityUnits":2},
    "GlobalSecondaryIndexes":[{"IndexName":"gsi",
      "ProvisionedThroughputOverride":{"ReadCapacityUnits":1}}]})")) << r;
  r = Call("DescribeTable", R"({"TableName":"tbl"})", west);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["Table"]["ProvisionedThroughput"]["ReadCapacityUnits"], 2) << r;
  EXPECT_EQ(r.body["Table"]["GlobalSecondaryIndexes"][0]["ProvisionedThroughput"]
                  ["ReadCapacityUnits"], 1) << r;
  EXPECT_FALSE(r.body["Table"]["Replicas"][0].contains("ProvisionedThroughputOverride")) << r;

  // The write units changed in us-west-2 are us-east-1's too.
  r = Call("UpdateTable", R"({"TableName":"tbl",
    "ProvisionedThroughput":{"ReadCapacityUnits":2,"WriteCapacityUnits":8}})", west);
  ASSERT_EQ(r.http_status, 200) << r;
  r = Call("DescribeTable", R"({"TableName":"tbl"})", east);
  EXPECT_EQ(r.body["Table"]["ProvisionedThroughput"]["WriteCapacityUnits"], 8) << r;
  EXPECT_EQ(r.body["Table"]["ProvisionedThroughput"]["ReadCapacityUnits"], 5) << r;
}

}  // namespace
}  // namespace dynarock::api
