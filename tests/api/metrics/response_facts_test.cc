#include "api/metrics/response_facts.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace dynarock::api::metrics {
namespace {

using ::testing::Eq;
using ::testing::Optional;

TEST(ResponseFactsTest, TableNameOfItemRequests) {
  EXPECT_THAT(TableNameOf(R"({"TableName":"Music","Item":{"pk":{"S":"a"}}})"),
              Optional(Eq("Music")));
  EXPECT_THAT(TableNameOf(R"({ "Item": {"pk": {"S": "a"}}, "TableName" : "a.b-c_9" })"),
              Optional(Eq("a.b-c_9")));
}

TEST(ResponseFactsTest, AttributesNamedTableNameAreNotTheTable) {
  // An attribute's value is an object; a quoted name inside a string is
  // escaped.
  EXPECT_THAT(TableNameOf(R"({"Item":{"TableName":{"S":"x"}},"TableName":"Real"})"),
              Optional(Eq("Real")));
  EXPECT_THAT(TableNameOf(R"({"Item":{"s":{"S":"\"TableName\":\"Fake\""}},"TableName":"Real"})"),
              Optional(Eq("Real")));
}

TEST(ResponseFactsTest, BatchesNameTheirFirstTable) {
  EXPECT_THAT(TableNameOf(R"({"RequestItems": {"First": [], "Second": []}})"),
              Optional(Eq("First")));
  EXPECT_THAT(TableNameOf(R"({"TransactItems":[{"Put":{"TableName":"Tx1","Item":{}}}]})"),
              Optional(Eq("Tx1")));
}

TEST(ResponseFactsTest, InvalidOrMissingNamesAreNone) {
  EXPECT_EQ(TableNameOf("{}"), std::nullopt);
  EXPECT_EQ(TableNameOf(R"({"TableName":"ab"})"), std::nullopt);  // too short
  EXPECT_EQ(TableNameOf(R"({"TableName":"a b c"})"), std::nullopt);
  EXPECT_EQ(TableNameOf(R"({"TableName":"x\"y"})"), std::nullopt);
  EXPECT_EQ(TableNameOf(R"({"TableName":7})"), std::nullopt);
  EXPECT_EQ(TableNameOf(std::string(R"({"TableName":")") + std::string(256, 'a') + "\"}"),
            std::nullopt);
  EXPECT_EQ(TableNameOf(R"({"TableName":"abc)"), std::nullopt);  // cut short
}

TEST(ResponseFactsTest, ErrorTypeOfAnErrorBody) {
  EXPECT_EQ(ErrorTypeOf(R"({"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"x"})"),
            "ConditionalCheckFailedException");
  EXPECT_EQ(ErrorTypeOf(R"({"__type":"ThrottlingException"})"), "ThrottlingException");
  EXPECT_EQ(ErrorTypeOf("<UnknownOperationException/>"), "");
  EXPECT_EQ(ErrorTypeOf(""), "");
}

TEST(ResponseFactsTest, CountOfAQueryPage) {
  EXPECT_THAT(CountOf(R"({"Count":3,"Items":[],"ScannedCount":5})"), Optional(Eq(3)));
  EXPECT_THAT(CountOf(R"({"Items":[{"Count":{"N":"9"}}],"Count": 1})"), Optional(Eq(1)));
  EXPECT_EQ(CountOf(R"({"ScannedCount":5})"), std::nullopt);
}

TEST(ResponseFactsTest, TransactionConflictReasonsAreCounted) {
  EXPECT_EQ(TransactionConflictsOf(
                R"({"CancellationReasons":[{"Code":"None"},{"Code":"TransactionConflict","Message":"m"},{"Code":"TransactionConflict"}]})"),
            2);
  EXPECT_EQ(TransactionConflictsOf(R"({"message":"[None, TransactionConflict]"})"), 0);
}

}  // namespace
}  // namespace dynarock::api::metrics
