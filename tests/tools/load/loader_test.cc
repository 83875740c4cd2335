// tests/tools/load/loader_test.cc
//
// Loader through an in-process api::Client on an in-memory engine: every
// model file in tests/data/models loads with its schema and exact item
// count; invalid items stop the load (or are skipped); existing tables are
// refused or replaced; throttling and UnprocessedItems are retried with
// backoff; batches hold at most 25 puts and never two of one key.

#include "tools/load/loader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api/client.h"
#include "tests/testutil/test_engine.h"
#include "tools/load/model_file.h"

namespace dynarock::tools::load {
namespace {

using api::Json;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string ModelPath(const std::string& relative) {
  return std::string(DYNAROCK_TEST_MODELS_DIR) + "/" + relative;
}

class LoaderTest : public ::testing::Test {
 protected:
  LoaderTest() : client_(engine_.engine.get()) {}

  // Sends through the client, counting operations.
  SendFn Send() {
    return [this](std::string_view op, std::string_view body) {
      calls_.push_back(std::string(op));
      return client_.Call(op, body);
    };
  }
  LoaderOptions Options() {
    LoaderOptions options;
    options.seed = 7;
    options.sleep = [this](std::chrono::microseconds d) { sleeps_.push_back(d); };
    return options;
  }

  Json Call(std::string_view op, const Json& body) {
    api::Response r = client_.Call(op, body.dump());
    Json out = Json::parse(r.body);
    EXPECT_TRUE(r.ok()) << op << " " << r.body;
    return out;
  }
  int64_t Count(const std::string& table) {
    return Call("Scan", {{"TableName", table}, {"Select", "COUNT"}})["Count"];
  }
  std::vector<std::string> TableNames() {
    std::vector<std::string> names;
    const Json reply = Call("ListTables", Json::object());
    for (const Json& n : reply["TableNames"]) {
      names.push_back(n);
    }
    return names;
  }
  LoadPlan Read(const std::string& relative) {
    Result<LoadPlan> plan = ReadModelFile(ModelPath(relative));
    EXPECT_TRUE(plan.ok()) << plan.status().message();
    return plan.ok() ? std::move(plan).value() : LoadPlan{};
  }

  TestEngine engine_;
  api::Client client_;
  std::vector<std::string> calls_;
  std::vector<std::chrono::microseconds> sleeps_;
};

TEST_F(LoaderTest, EveryValidModelFileLoadsWithItsSchemaAndExactItemCount) {
  struct Case {
    std::string file;
    std::vector<std::pair<std::string, int64_t>> tables;
    std::vector<std::string> gsis;  // of the first table
    std::string billing;
  };
  const std::vector<Case> cases = {
      {"an-online-shop/AnOnlineShop_1.json", {{"OnlineShop", 0}}, {}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_2.json", {{"OnlineShop", 1}}, {}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_3.json", {{"OnlineShop", 2}}, {}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_4.json", {{"OnlineShop", 3}}, {}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_5.json", {{"OnlineShop", 4}}, {}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_6.json", {{"OnlineShop", 10}}, {}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_7.json", {{"OnlineShop", 13}}, {}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_8.json", {{"OnlineShop", 14}}, {}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_9.json", {{"OnlineShop", 16}}, {}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_10.json", {{"OnlineShop", 16}}, {"GSI1"}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_11.json", {{"OnlineShop", 16}}, {"GSI1"}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_12.json", {{"OnlineShop", 19}}, {"GSI1", "GSI2"}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_13.json", {{"OnlineShop", 19}}, {"GSI1", "GSI2"}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_14.json", {{"OnlineShop", 19}}, {"GSI1", "GSI2"}, "PAY_PER_REQUEST"},
      {"an-online-shop/AnOnlineShop_facets.json", {{"OnlineShop", 20}}, {"GSI1", "GSI2"}, "PAY_PER_REQUEST"},
      {"device-state-log/DeviceStateLog_1.json", {{"DeviceStateLog", 11}}, {}, "PAY_PER_REQUEST"},
      {"device-state-log/DeviceStateLog_2.json", {{"DeviceStateLog", 11}}, {}, "PAY_PER_REQUEST"},
      {"device-state-log/DeviceStateLog_3.json", {{"DeviceStateLog", 11}}, {}, "PAY_PER_REQUEST"},
      {"device-state-log/DeviceStateLog_4.json", {{"DeviceStateLog", 11}}, {}, "PAY_PER_REQUEST"},
      {"device-state-log/DeviceStateLog_5.json", {{"DeviceStateLog", 11}}, {"GSI1"}, "PAY_PER_REQUEST"},
      {"device-state-log/DeviceStateLog_6.json", {{"DeviceStateLog", 11}}, {"GSI1"}, "PAY_PER_REQUEST"},
      {"device-state-log/DeviceStateLog_7.json", {{"DeviceStateLog", 11}}, {"GSI1", "GSI2"}, "PAY_PER_REQUEST"},
      {"chat-system/ChatSystemSchema.json", {{"Chat", 8}}, {"RoomID_Comment_IDX"}, "PROVISIONED"},
      {"complaint-management/ComplaintManagementSchema.json",
       {{"Complaint_management_system", 9}},
       {"Customer_Complaint_GSI", "Escalations_GSI", "Agents_Comments_GSI"}, "PROVISIONED"},
      {"recurring-payments/RecurringPaymentsSchema.json", {{"ReoccuringPayments", 2}},
       {"GSI-1", "GSI-2"}, "PROVISIONED"},
      {"session-management/SessionManagementSchema.json", {{"session_store", 6}},
       {"GSI1_inverse"}, "PROVISIONED"},
      {"social-network/SocialNetworkSchema.json", {{"SNS", 17}}, {}, "PROVISIONED"},
      {"dynamodb-labs-scenario-solutions/BankModel.json",
       {{"PaymentScheduler", 4}, {"TransactionHistory", 2}},
       {"Query_All_Scheduled_Payments"}, "PAY_PER_REQUEST"},
      {"dynamodb-labs-scenario-solutions/CartModel.json", {{"CartTable", 5}}, {"GSI-SKU"},
       "PAY_PER_REQUEST"},
      {"developer-guide-sample-tables/ProductCatalog.json", {{"ProductCatalog", 8}}, {},
       "PAY_PER_REQUEST"},
      {"developer-guide-sample-tables/Forum.json", {{"Forum", 2}}, {}, "PAY_PER_REQUEST"},
      {"developer-guide-sample-tables/Thread.json", {{"Thread", 3}}, {}, "PAY_PER_REQUEST"},
      {"developer-guide-sample-tables/Reply.json", {{"Reply", 4}}, {"PostedBy-Message-Index"},
       "PAY_PER_REQUEST"},
      {"hr-order-entry-relational/relationalModeling.json", {{"HR-Table", 12}},
       {"gsi1", "gsi2"}, "PAY_PER_REQUEST"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.file);
    LoadPlan plan = Read(c.file);
    LoaderOptions options = Options();
    options.replace = true;  // the same table names recur across files
    Loader loader(Send(), options);
    LoadReport report;
    Status s = loader.Load({plan}, &report);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_TRUE(report.invalid.empty());
    EXPECT_EQ(report.tables, c.tables.size());
    int64_t total = 0;
    for (const auto& [table, items] : c.tables) {
      EXPECT_EQ(Count(table), items) << table;
      total += items;
    }
    EXPECT_EQ(report.items, static_cast<size_t>(total));

    const Json d = Call("DescribeTable", {{"TableName", c.tables[0].first}})["Table"];
    EXPECT_EQ(d["KeySchema"], plan.tables[0].create_table["KeySchema"]);
    EXPECT_EQ(d["TableStatus"], "ACTIVE");
    EXPECT_EQ(d.value("BillingModeSummary", Json::object()).value("BillingMode", "PROVISIONED"),
              c.billing);
    std::vector<std::string> gsis;
    for (const Json& g : d.value("GlobalSecondaryIndexes", Json::array())) {
      gsis.push_back(g["IndexName"]);
    }
    std::sort(gsis.begin(), gsis.end());
    std::vector<std::string> expected_gsis = c.gsis;
    std::sort(expected_gsis.begin(), expected_gsis.end());
    EXPECT_EQ(gsis, expected_gsis);
  }
}

TEST_F(LoaderTest, GsiOfALoadedModelIsQueryableRightAfterTheLoad) {
  LoadPlan plan = Read("an-online-shop/AnOnlineShop_14.json");
  Loader loader(Send(), Options());
  LoadReport report;
  ASSERT_TRUE(loader.Load({plan}, &report).ok());
  EXPECT_EQ(calls_.back(), "DynamoRock_20251121.WaitForIndexes");
  Json r = Call("Query", {{"TableName", "OnlineShop"},
                          {"IndexName", "GSI1"},
                          {"KeyConditionExpression", "#pk = :pk"},
                          {"ExpressionAttributeNames", {{"#pk", "GSI1-PK"}}},
                          {"ExpressionAttributeValues", {{":pk", {{"S", "sh#98765"}}}}}});
  EXPECT_EQ(r["Count"], 3);
}

TEST_F(LoaderTest, PublishedModelsWithInvalidItemsLoadNothingByDefault) {
  LoadPlan vehicles = Read("connected-vehicles/ConnectedVehiclesSchema.json");
  LoadPlan gaming = Read("gaming-player-profiles/GamePlayerProfilesSchema.json");
  Loader loader(Send(), Options());
  LoadReport report;
  Status s = loader.Load({vehicles, gaming}, &report);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kValidation);
  EXPECT_THAT(s.message(), HasSubstr("invalid item(s); nothing was loaded"));
  EXPECT_FALSE(report.invalid.empty());
  for (const InvalidItem& i : report.invalid) {
    EXPECT_FALSE(i.facet.empty()) << FormatInvalidItem(i);  // both use facets
  }
  EXPECT_TRUE(TableNames().empty());
  EXPECT_EQ(report.tables, 0u);
  EXPECT_EQ(report.items, 0u);
  // Not one request reached the target.
  EXPECT_TRUE(calls_.empty());
}

TEST_F(LoaderTest, SkipInvalidLoadsTheOthersOfThePublishedModels) {
  LoadPlan vehicles = Read("connected-vehicles/ConnectedVehiclesSchema.json");
  LoadPlan gaming = Read("gaming-player-profiles/GamePlayerProfilesSchema.json");
  LoaderOptions options = Options();
  options.skip_invalid = true;
  Loader loader(Send(), options);
  LoadReport report;
  Status s = loader.Load({vehicles, gaming}, &report);
  ASSERT_TRUE(s.ok()) << s.ToString();
  size_t bad_vehicles = 0, bad_gaming = 0;
  for (const InvalidItem& i : report.invalid) {
    (i.table == "Connected_Vehicle" ? bad_vehicles : bad_gaming)++;
  }
  EXPECT_GT(bad_vehicles, 0u);
  EXPECT_GT(bad_gaming, 0u);
  EXPECT_EQ(Count("Connected_Vehicle"), 12 - static_cast<int64_t>(bad_vehicles));
  EXPECT_EQ(Count("game-player-profiles"), 14 - static_cast<int64_t>(bad_gaming));
  EXPECT_EQ(report.items, 26 - report.invalid.size());
}

// A model made up for the invalid-item messages: one line per item, with
// its table, position, facet and reason.
constexpr std::string_view kBadModel = R"({
  "ModelName": "Bad", "ModelMetadata": {"Version": "3.0"},
  "DataModel": [{
    "TableName": "Bad",
    "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
                      "SortKey": {"AttributeName": "SK", "AttributeType": "N"}},
    "GlobalSecondaryIndexes": [{"IndexName": "GIdx",
      "KeyAttributes": {"PartitionKey": {"AttributeName": "GPK", "AttributeType": "S"}},
      "Projection": {"ProjectionType": "ALL"}}],
    "TableData": [
      {"PK": {"S": "a"}, "SK": {"N": "1"}},
      {"PK": {"S": "a"}},
      {"PK": {"S": "a"}, "SK": {"S": "1"}},
      {"PK": {"S": "a"}, "SK": {"N": "2"}, "GPK": {"N": "5"}},
      {"PK": {"S": "a"}, "SK": {"N": "3"}, "X": {"M": {"y": true}}},
      {"PK": {"S": ""}, "SK": {"N": "4"}},
      {"PK": {"S": "a"}, "SK": {"N": "5"}, "X": {"SS": ["x", "x"]}},
      [1, 2],
      {"PK": {"S": "a"}, "SK": {"N": "6"}, "GPK": {"S": "g"}}
    ],
    "TableFacets": [{"FacetName": "F", "TableData": [
      {"PK": {"S": "b"}, "SK": {"N": "1"}},
      {"PK": {"S": "b"}, "SK": {"N": "not a number"}}
    ]}]
  }]})";

TEST_F(LoaderTest, InvalidItemsAreReportedOneLineEachAndNothingIsWritten) {
  Result<LoadPlan> plan = ParseModelFile("bad.json", kBadModel);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  Loader loader(Send(), Options());
  LoadReport report;
  Status s = loader.Load({*plan}, &report);
  EXPECT_EQ(s.message(),
            "8 invalid item(s); nothing was loaded (--skip-invalid loads the others)");
  std::vector<std::string> lines;
  for (const InvalidItem& i : report.invalid) lines.push_back(FormatInvalidItem(i));
  EXPECT_THAT(
      lines,
      ElementsAre(
          "bad.json: table Bad, item 1: missing key attribute SK (N)",
          "bad.json: table Bad, item 2: key attribute SK of the table is S, declared N",
          "bad.json: table Bad, item 3: key attribute GPK of index GIdx is N, declared S",
          HasSubstr("bad.json: table Bad, item 4: attribute X: "),
          "bad.json: table Bad, item 5: key attribute PK of the table is empty",
          HasSubstr("bad.json: table Bad, item 6: "),
          "bad.json: table Bad, item 7: not an object of attribute values",
          HasSubstr("bad.json: table Bad, item 1 (facet F): ")))
      << ::testing::PrintToString(lines);
  EXPECT_TRUE(TableNames().empty());
}

TEST_F(LoaderTest, SkipInvalidWritesExactlyTheValidItems) {
  Result<LoadPlan> plan = ParseModelFile("bad.json", kBadModel);
  ASSERT_TRUE(plan.ok());
  LoaderOptions options = Options();
  options.skip_invalid = true;
  Loader loader(Send(), options);
  LoadReport report;
  Status s = loader.Load({*plan}, &report);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(report.invalid.size(), 8u);
  EXPECT_EQ(report.items, 3u);
  Json r = Call("Scan", {{"TableName", "Bad"}});
  std::vector<std::string> keys;
  for (const Json& item : r["Items"]) {
    keys.push_back(item["PK"]["S"].get<std::string>() + "/" +
                   item["SK"]["N"].get<std::string>());
  }
  std::sort(keys.begin(), keys.end());
  EXPECT_THAT(keys, ElementsAre("a/1", "a/6", "b/1"));
}

TEST_F(LoaderTest, OversizedItemIsInvalid) {
  Json big = Json::parse(R"({"DataModel": [{"TableName": "Big",
      "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}},
      "TableData": []}]})");
  big["DataModel"][0]["TableData"].push_back(
      {{"PK", {{"S", "k"}}}, {"V", {{"S", std::string(400 * 1024, 'x')}}}});
  Result<LoadPlan> plan = ParseModelFile("big.json", big.dump());
  ASSERT_TRUE(plan.ok());
  std::vector<InvalidItem> invalid = CheckItems(*plan);
  ASSERT_EQ(invalid.size(), 1u);
  EXPECT_THAT(invalid[0].reason, HasSubstr("size"));
}

TEST_F(LoaderTest, ExistingTableIsRefusedBeforeAnythingIsCreated) {
  LoadReport first;
  ASSERT_TRUE(Loader(Send(), Options())
                  .Load({Read("developer-guide-sample-tables/Forum.json")}, &first)
                  .ok());
  calls_.clear();
  LoadReport report;
  Status s = Loader(Send(), Options())
                 .Load({Read("developer-guide-sample-tables/Thread.json"),
                        Read("developer-guide-sample-tables/Forum.json")},
                       &report);
  EXPECT_EQ(s.code(), ErrorCode::kResourceInUse);
  EXPECT_EQ(s.message(),
            "Table already exists: Forum (--replace deletes and recreates it)");
  // Thread was not created although it comes first.
  EXPECT_THAT(TableNames(), ElementsAre("Forum"));
  EXPECT_THAT(calls_, ElementsAre("DescribeTable", "DescribeTable"));
}

TEST_F(LoaderTest, ReplaceDeletesAndRecreatesTheTable) {
  LoadReport first;
  ASSERT_TRUE(Loader(Send(), Options())
                  .Load({Read("an-online-shop/AnOnlineShop_9.json")}, &first)
                  .ok());
  EXPECT_EQ(Count("OnlineShop"), 16);
  Call("PutItem", {{"TableName", "OnlineShop"},
                   {"Item", {{"PK", {{"S", "extra"}}}, {"SK", {{"S", "extra"}}}}}});
  LoaderOptions options = Options();
  options.replace = true;
  LoadReport report;
  ASSERT_TRUE(Loader(Send(), options).Load({Read("an-online-shop/AnOnlineShop_2.json")},
                                           &report).ok());
  EXPECT_EQ(Count("OnlineShop"), 1);  // the old items and the extra are gone
}

TEST_F(LoaderTest, SameTableInTwoFilesIsRefused) {
  LoadReport report;
  Status s = Loader(Send(), Options())
                 .Load({Read("an-online-shop/AnOnlineShop_2.json"),
                        Read("an-online-shop/AnOnlineShop_3.json")},
                       &report);
  EXPECT_EQ(s.code(), ErrorCode::kValidation);
  EXPECT_THAT(s.message(), HasSubstr("table OnlineShop is defined by both "));
  EXPECT_TRUE(calls_.empty());
}

// A model of `n` items with keys k0..k(n-1); `dup` repeats item 0's key at
// the end with V = "last".
std::string ManyItems(int n, bool dup) {
  Json model = Json::parse(R"({"DataModel": [{"TableName": "Many",
      "KeyAttributes": {"PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}},
      "TableData": []}]})");
  Json& data = model["DataModel"][0]["TableData"];
  for (int i = 0; i < n; ++i) {
    data.push_back({{"PK", {{"S", "k" + std::to_string(i)}}}, {"V", {{"S", "first"}}}});
  }
  if (dup) data.push_back({{"PK", {{"S", "k0"}}}, {"V", {{"S", "last"}}}});
  return model.dump();
}

TEST_F(LoaderTest, WritesInBatchesOf25AndReportsProgress) {
  Result<LoadPlan> plan = ParseModelFile("many.json", ManyItems(60, false));
  ASSERT_TRUE(plan.ok());
  std::vector<std::pair<size_t, size_t>> progress;
  LoaderOptions options = Options();
  options.on_progress = [&](size_t done, size_t total) { progress.emplace_back(done, total); };
  LoadReport report;
  ASSERT_TRUE(Loader(Send(), options).Load({*plan}, &report).ok());
  EXPECT_EQ(report.batches, 3u);
  EXPECT_EQ(Count("Many"), 60);
  EXPECT_EQ(progress, (std::vector<std::pair<size_t, size_t>>{{25, 60}, {50, 60}, {60, 60}}));
}

TEST_F(LoaderTest, TwoPutsOfOneKeyGoInDifferentBatchesAndTheLastWins) {
  Result<LoadPlan> plan = ParseModelFile("dup.json", ManyItems(3, true));
  ASSERT_TRUE(plan.ok());
  LoadReport report;
  Status s = Loader(Send(), Options()).Load({*plan}, &report);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(report.batches, 2u);
  EXPECT_EQ(Count("Many"), 3);
  Json r = Call("GetItem", {{"TableName", "Many"}, {"Key", {{"PK", {{"S", "k0"}}}}}});
  EXPECT_EQ(r["Item"]["V"]["S"], "last");
}

api::Response Error(std::string_view type, std::string_view message) {
  return api::Response{400, Json{{"__type", "com.amazonaws.dynamodb.v20120810#" +
                                                std::string(type)},
                                 {"message", message}}
                                .dump()};
}

TEST_F(LoaderTest, ThrottlingAndUnprocessedItemsAreRetriedWithJitteredBackoff) {
  Result<LoadPlan> plan = ParseModelFile("many.json", ManyItems(30, false));
  ASSERT_TRUE(plan.ok());
  int batch_calls = 0;
  SendFn flaky = [&](std::string_view op, std::string_view body) {
    if (op != "BatchWriteItem") return client_.Call(op, body);
    ++batch_calls;
    if (batch_calls == 1) {
      return Error("ProvisionedThroughputExceededException",
                   "The level of configured provisioned throughput for the table was exceeded.");
    }
    if (batch_calls == 2) return Error("ThrottlingException", "Rate exceeded");
    if (batch_calls == 3) {
      // Writes the first 20 and hands back the other 5.
      Json req = Json::parse(body);
      Json all = req["RequestItems"]["Many"];
      Json first = Json::array(), rest = Json::array();
      for (size_t i = 0; i < all.size(); ++i) (i < 20 ? first : rest).push_back(all[i]);
      api::Response r = client_.Call(
          "BatchWriteItem", Json{{"RequestItems", {{"Many", first}}}}.dump());
      EXPECT_TRUE(r.ok());
      return api::Response{200, Json{{"UnprocessedItems", {{"Many", rest}}}}.dump()};
    }
    return client_.Call(op, body);
  };
  LoaderOptions options = Options();
  LoadReport report;
  Status s = Loader(flaky, options).Load({*plan}, &report);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(Count("Many"), 30);
  EXPECT_EQ(report.items, 30u);
  EXPECT_EQ(report.retries, 3u);
  // Backoff caps double: 25 ms, 50 ms after the two errors; after progress
  // the count starts again at 25 ms. Full jitter: anywhere in [0, cap].
  ASSERT_EQ(sleeps_.size(), 3u);
  EXPECT_LE(sleeps_[0].count(), 25'000);
  EXPECT_LE(sleeps_[1].count(), 50'000);
  EXPECT_LE(sleeps_[2].count(), 25'000);
}

TEST_F(LoaderTest, GivesUpAfterMaxAttemptsWithTheLastError) {
  Result<LoadPlan> plan = ParseModelFile("many.json", ManyItems(2, false));
  ASSERT_TRUE(plan.ok());
  SendFn throttled = [&](std::string_view op, std::string_view body) {
    if (op == "BatchWriteItem") return Error("ThrottlingException", "Rate exceeded");
    return client_.Call(op, body);
  };
  LoaderOptions options = Options();
  options.max_attempts = 4;
  LoadReport report;
  Status s = Loader(throttled, options).Load({*plan}, &report);
  EXPECT_EQ(s.code(), ErrorCode::kThrottling);
  EXPECT_EQ(s.message(), "BatchWriteItem Many: ThrottlingException: Rate exceeded");
  EXPECT_EQ(sleeps_.size(), 3u);
  EXPECT_LE(sleeps_[2].count(), 100'000);
}

TEST_F(LoaderTest, ANonRetryableErrorStopsAtOnce) {
  Result<LoadPlan> plan = ParseModelFile("many.json", ManyItems(2, false));
  ASSERT_TRUE(plan.ok());
  SendFn refusing = [&](std::string_view op, std::string_view body) {
    if (op == "CreateTable") return Error("LimitExceededException2", "no");
    return client_.Call(op, body);
  };
  LoadReport report;
  Status s = Loader(refusing, Options()).Load({*plan}, &report);
  EXPECT_EQ(s.message(), "CreateTable Many: LimitExceededException2: no");
  EXPECT_TRUE(sleeps_.empty());
}

}  // namespace
}  // namespace dynarock::tools::load
