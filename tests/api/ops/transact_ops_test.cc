// TransactWriteItems and TransactGetItems through the in-process Client:
// whole DynamoDB JSON requests and responses, the request's shape, and the
// TransactionCanceledException body with its CancellationReasons.

#include <gtest/gtest.h>

#include <string>

#include "api/error.h"
#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class TransactOpsTest : public ApiTest {
 protected:
  void SetUp() override { CreateTable("acc"); }
};

TEST_F(TransactOpsTest, WriteThenGetWithCapacity) {
  Reply w = Call("TransactWriteItems", R"({"TransactItems": [
    {"Put": {"TableName": "acc", "Item": {"pk": {"S": "a"}, "n": {"N": "1"}}}},
    {"Update": {"TableName": "acc", "Key": {"pk": {"S": "b"}},
                "UpdateExpression": "SET n = :v", "ExpressionAttributeValues": {":v": {"N": "2"}}}}],
    "ReturnConsumedCapacity": "INDEXES", "ClientRequestToken": "t1"})");
  ASSERT_EQ(w.http_status, 200) << w;
  EXPECT_EQ(w.body, json::parse(R"({"ConsumedCapacity": [
    {"TableName": "acc", "CapacityUnits": 4.0, "Table": {"CapacityUnits": 4.0}}]})"));

  Reply g = Call("TransactGetItems", R"({"TransactItems": [
    {"Get": {"TableName": "acc", "Key": {"pk": {"S": "b"}}}},
    {"Get": {"TableName": "acc", "Key": {"pk": {"S": "zz"}}}},
    {"Get": {"TableName": "acc", "Key": {"pk": {"S": "a"}}, "ProjectionExpression": "n"}}],
    "ReturnConsumedCapacity": "TOTAL"})");
  ASSERT_EQ(g.http_status, 200) << g;
  EXPECT_EQ(g.body, json::parse(R"({
    "Responses": [{"Item": {"pk": {"S": "b"}, "n": {"N": "2"}}}, {}, {"Item": {"n": {"N": "1"}}}],
    "ConsumedCapacity": [{"TableName": "acc", "CapacityUnits": 6.0}]})"));
}

TEST_F(TransactOpsTest, CancellationBodyCarriesReasons) {
  ASSERT_EQ(Call("PutItem", R"({"TableName": "acc", "Item": {"pk": {"S": "a"}, "n": {"N": "1"}}})")
                .http_status, 200);
  Reply r = Call("TransactWriteItems", R"({"TransactItems": [
    {"Put": {"TableName": "acc", "Item": {"pk": {"S": "b"}}}},
    {"ConditionCheck": {"TableName": "acc", "Key": {"pk": {"S": "a"}},
                        "ConditionExpression": "n = :two",
                        "ExpressionAttributeValues": {":two": {"N": "2"}},
                        "ReturnValuesOnConditionCheckFailure": "ALL_OLD"}}]})");
  EXPECT_EQ(r.http_status, 400);
  EXPECT_EQ(r.body, json::parse(R"({
    "__type": "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
    "Message": "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]",
    "CancellationReasons": [
      {"Code": "None"},
      {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed",
       "Item": {"pk": {"S": "a"}, "n": {"N": "1"}}}]})"));
}

TEST_F(TransactOpsTest, ShapeErrors) {
  EXPECT_EQ(Call("TransactWriteItems", "{}").body,
            ValidationError("1 validation error detected: Value null at 'transactItems' "
                            "failed to satisfy constraint: Member must not be null"));
  Reply empty = Call("TransactWriteItems", R"({"TransactItems": []})");
  EXPECT_EQ(empty.body["__type"], "com.amazon.coral.validate#ValidationException");
  EXPECT_NE(empty.body["message"].get<std::string>().find(
                "Member must have length greater than or equal to 1"),
            std::string::npos);
  EXPECT_EQ(Call("TransactWriteItems", R"({"TransactItems": [{}]})").body,
            ValidationError(
                "TransactItems can only contain one of Check, Put, Update or Delete"));
  EXPECT_EQ(Call("TransactWriteItems", R"({"TransactItems": [
    {"Put": {"TableName": "acc", "Item": {"pk": {"S": "a"}}},
     "Delete": {"TableName": "acc", "Key": {"pk": {"S": "a"}}}}]})").body,
            ValidationError(
                "TransactItems can only contain one of Check, Put, Update or Delete"));
  EXPECT_EQ(Call("TransactWriteItems", R"({"TransactItems": [
    {"ConditionCheck": {"TableName": "acc", "Key": {"pk": {"S": "a"}}}}]})").body,
            ValidationError("1 validation error detected: Value null at "
                            "'transactItems.1.member.conditionCheck.conditionExpression' "
                            "failed to satisfy constraint: Member must not be null"));
  Reply token = Call("TransactWriteItems", json{
      {"TransactItems", json::parse(R"([{"Put": {"TableName": "acc", "Item": {"pk": {"S": "a"}}}}])")},
      {"ClientRequestToken", std::string(37, 't')}});
  EXPECT_NE(token.body["message"].get<std::string>().find(
                "Member must have length less than or equal to 36"),
            std::string::npos) << token;
  EXPECT_EQ(Call("TransactGetItems", R"({"TransactItems": [{}]})").body,
            ValidationError("1 validation error detected: Value null at "
                            "'transactItems.1.member.get' failed to satisfy constraint: "
                            "Member must not be null"));
  EXPECT_EQ(Call("TransactWriteItems", R"({"TransactItems": [
    {"Put": {"TableName": "acc", "Item": {"pk": {"S": "a"}}}},
    {"Delete": {"TableName": "acc", "Key": {"pk": {"S": "a"}}}}]})").body,
            ValidationError("Transaction request cannot include multiple operations on one item"));
}

TEST_F(TransactOpsTest, IdempotencyErrors) {
  const char* first = R"({"TransactItems": [
    {"Put": {"TableName": "acc", "Item": {"pk": {"S": "a"}}}}], "ClientRequestToken": "tok"})";
  ASSERT_EQ(Call("TransactWriteItems", first).http_status, 200);
  ASSERT_EQ(Call("TransactWriteItems", first).http_status, 200);
  Reply other = Call("TransactWriteItems", R"({"TransactItems": [
    {"Put": {"TableName": "acc", "Item": {"pk": {"S": "b"}}}}], "ClientRequestToken": "tok"})");
  EXPECT_EQ(other.body,
            ErrorBody("com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException",
                      "Request has a different parameters than the original request"));
}

TEST_F(TransactOpsTest, PlainWriteConflictIsItsOwnException) {
  // The wire form of the single-item conflict (engine tests cover when).
  EXPECT_EQ(ErrorType(ErrorCode::kTransactionConflict),
            "com.amazonaws.dynamodb.v20120810#TransactionConflictException");
  EXPECT_EQ(ErrorHttpStatus(ErrorCode::kTransactionConflict), 400);
}

}  // namespace
}  // namespace dynarock::api
