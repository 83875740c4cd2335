// Bulk put items' files (api/transfer/bulk_files.cc): DynamoDB JSON records
// with their own condition, names and values; a record with another member,
// a line that is not JSON and a bad AttributeValue failing alone; Ion items;
// and the report lines.

#include "api/transfer/bulk_files.h"

#include <gtest/gtest.h>

#include "api/json_codec.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock::api {
namespace {

struct Records {
  std::vector<BulkPutRecord> puts;
  std::vector<std::string> errors;
};

Records Visit(std::string_view text, BulkInputFormat format) {
  Records out;
  Status s = VisitBulkRecords(text, format, [&](Result<BulkPutRecord> r) {
    if (r.ok()) {
      out.puts.push_back(std::move(*r));
    } else {
      out.errors.push_back(r.status().message());
    }
    return Status::OK();
  });
  EXPECT_OK(s);
  return out;
}

TEST(BulkFilesTest, JsonRecordsCarryTheirConditionAndFailAlone) {
  const Records r = Visit(
      R"({"Item":{"pk":{"S":"a"},"n":{"N":"1"}}})" "\n"
      "\n"
      R"j({"Item":{"pk":{"S":"b"}},"ConditionExpression":"attribute_not_exists(#k)",)j"
      R"j("ExpressionAttributeNames":{"#k":"pk"},"ExpressionAttributeValues":{":v":{"N":"2"}}})j" "\n"
      R"({"Item":{"pk":{"S":"c"}},"ReturnValues":"ALL_OLD"})" "\n"
      "not json\n"
      R"({"Item":{"pk":{"Q":"x"}}})" "\n",
      BulkInputFormat::kDynamoDbJson);
  ASSERT_EQ(r.puts.size(), 2u);
  EXPECT_EQ(r.puts[0].put.item.at("pk").s(), "a");
  EXPECT_FALSE(r.puts[0].put.condition.condition_expression.has_value());
  EXPECT_EQ(r.puts[1].put.condition.condition_expression, "attribute_not_exists(#k)");
  EXPECT_EQ(r.puts[1].put.expression_attribute_names->at("#k"), "pk");
  EXPECT_EQ(r.puts[1].put.expression_attribute_values->size(), 1u);
  ASSERT_EQ(r.errors.size(), 3u);
  EXPECT_EQ(r.errors[0], "The record has an unknown member: ReturnValues");
}

TEST(BulkFilesTest, IonRecordsAreItems) {
  const Records r = Visit("$ion_1_0 {Item:{pk:\"a\",n:1}}\n$ion_1_0 {Item:{pk:\"b\"}}\n",
                          BulkInputFormat::kIon);
  ASSERT_EQ(r.puts.size(), 2u);
  EXPECT_EQ(r.puts[1].put.item.at("pk").s(), "b");
  EXPECT_TRUE(r.errors.empty());
}

TEST(BulkFilesTest, ReportLinesNameTheRecordAndItsItems) {
  BulkReportEntry e;
  e.kind = BulkReportEntry::Kind::kConditionCheckFailure;
  e.object_key = "data/part-1.json";
  e.record_number = 7;
  e.error_code = "ConditionalCheckFailedException";
  e.error_message = "The conditional request failed";
  e.item = Item{{"pk", AttributeValue::S("a")}};
  e.existing_item = Item{{"pk", AttributeValue::S("a")}, {"v", AttributeValue::S("old")}};
  BulkReportEntry bad;
  bad.object_key = "data/part-1.json";
  bad.record_number = 8;
  bad.error_code = "ValidationException";
  bad.error_message = "not an item";
  const std::string text = BulkReportText({e, bad});
  const size_t newline = text.find('\n');
  ASSERT_NE(newline, std::string::npos);
  const Json first = Json::parse(text.substr(0, newline));
  EXPECT_EQ(first["OutputType"], "CONDITION_CHECK_FAILURE");
  EXPECT_EQ(first["RecordNumber"], 7);
  EXPECT_EQ(first["ExistingItem"]["v"]["S"], "old");
  const Json second = Json::parse(text.substr(newline + 1));
  EXPECT_EQ(second["OutputType"], "ERROR");
  EXPECT_FALSE(second.contains("Item"));
}

}  // namespace
}  // namespace dynarock::api
