#include "engine/engine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class EngineTest : public ::testing::Test {
 protected:
  Result<PutItemResult> Put(Item item, ReturnValues rv = ReturnValues::kNone) {
    PutItemRequest req;
    req.table_name = "Tab";
    req.item = std::move(item);
    req.return_values = rv;
    return db_->PutItem(req);
  }
  Result<GetItemResult> Get(Item key) {
    GetItemRequest req;
    req.table_name = "Tab";
    req.key = std::move(key);
    return db_->GetItem(req);
  }
  void SetUp() override { ASSERT_OK(db_->CreateTable(SimpleTable("Tab")).status()); }
  TestEngine db_;
};

TEST_F(EngineTest, PutThenGetReturnsTheItem) {
  ASSERT_OK(Put(SimpleItem("a", "1", "hello")).status());
  ASSERT_OK_AND_ASSIGN(GetItemResult got, Get(SimpleKey("a", "1")));
  ASSERT_TRUE(got.item.has_value());
  EXPECT_EQ(*got.item, SimpleItem("a", "1", "hello"));
}

TEST_F(EngineTest, NumberSortKeysMatchWhateverTheirSpelling) {
  ASSERT_OK(Put(SimpleItem("a", "1.50")).status());
  ASSERT_OK_AND_ASSIGN(GetItemResult got, Get(SimpleKey("a", "15E-1")));
  EXPECT_TRUE(got.item.has_value());
}

TEST_F(EngineTest, GetOfMissingItemReturnsNothing) {
  ASSERT_OK_AND_ASSIGN(GetItemResult got, Get(SimpleKey("nope", "1")));
  EXPECT_FALSE(got.item.has_value());
}

TEST_F(EngineTest, PutReturnsOldItemOnlyWhenAsked) {
  ASSERT_OK_AND_ASSIGN(PutItemResult first, Put(SimpleItem("a", "1", "v1"), ReturnValues::kAllOld));
  EXPECT_FALSE(first.attributes.has_value());
  ASSERT_OK_AND_ASSIGN(PutItemResult second, Put(SimpleItem("a", "1", "v2"), ReturnValues::kAllOld));
  ASSERT_TRUE(second.attributes.has_value());
  EXPECT_EQ(second.attributes->at("payload"), AttributeValue::S("v1"));
  ASSERT_OK_AND_ASSIGN(PutItemResult third, Put(SimpleItem("a", "1", "v3")));
  EXPECT_FALSE(third.attributes.has_value());
  EXPECT_THAT(Put(SimpleItem("a", "1"), ReturnValues::kAllNew),
              StatusIs(ErrorCode::kValidation, "Return values set to invalid value"));
}

TEST_F(EngineTest, DeleteRemovesAndReturnsOldItem) {
  ASSERT_OK(Put(SimpleItem("a", "1", "gone")).status());
  DeleteItemRequest del;
  del.table_name = "Tab";
  del.key = SimpleKey("a", "1");
  del.return_values = ReturnValues::kAllOld;
  ASSERT_OK_AND_ASSIGN(DeleteItemResult r, db_->DeleteItem(del));
  ASSERT_TRUE(r.attributes.has_value());
  EXPECT_EQ(r.attributes->at("payload"), AttributeValue::S("gone"));
  ASSERT_OK_AND_ASSIGN(GetItemResult got, Get(SimpleKey("a", "1")));
  EXPECT_FALSE(got.item.has_value());
  // Deleting an absent item succeeds and returns nothing.
  ASSERT_OK_AND_ASSIGN(DeleteItemResult again, db_->DeleteItem(del));
  EXPECT_FALSE(again.attributes.has_value());
}

TEST_F(EngineTest, ItemKeysAreValidatedWithDynamoDbMessages) {
  Item missing;
  missing["pk"] = AttributeValue::S("a");
  EXPECT_THAT(Put(missing), StatusIs(ErrorCode::kValidation,
                                     "One or more parameter values were invalid: Missing the key sk in the item"));
  Item wrong = SimpleItem("a", "1");
  wrong["sk"] = AttributeValue::S("1");
  EXPECT_THAT(Put(wrong), StatusIs(ErrorCode::kValidation,
                                   "One or more parameter values were invalid: Type mismatch for key sk expected: N actual: S"));
  Item empty = SimpleItem("", "1");
  EXPECT_THAT(Put(empty), StatusIs(ErrorCode::kValidation,
                                   HasSubstr("cannot contain an empty string value. Key: pk")));
  Item long_pk = SimpleItem(std::string(2049, 'x'), "1");
  EXPECT_THAT(Put(long_pk), StatusIs(ErrorCode::kValidation, HasSubstr("Size of hashkey has exceeded")));
  ASSERT_OK(Put(SimpleItem(std::string(2048, 'x'), "1")).status());

  Item extra = SimpleKey("a", "1");
  extra["other"] = AttributeValue::S("x");
  EXPECT_THAT(Get(extra), StatusIs(ErrorCode::kValidation,
                                   "The provided key element does not match the schema"));
  Item partial;
  partial["pk"] = AttributeValue::S("a");
  EXPECT_THAT(Get(partial), StatusIs(ErrorCode::kValidation,
                                     "The provided key element does not match the schema"));
}

TEST_F(EngineTest, ItemCountAndSizeFollowWrites) {
  ASSERT_OK(Put(SimpleItem("a", "1", "12345")).status());
  ASSERT_OK(Put(SimpleItem("b", "1", "12345")).status());
  ASSERT_OK(Put(SimpleItem("b", "1", "1")).status());  // overwrite shrinks
  DescribeTableRequest d;
  d.table_name = "Tab";
  ASSERT_OK_AND_ASSIGN(TableDescription desc, db_->DescribeTable(d));
  EXPECT_EQ(desc.item_count, 2);
  EXPECT_GT(desc.table_size_bytes, 0);
  const int64_t two_items = desc.table_size_bytes;
  DeleteItemRequest del;
  del.table_name = "Tab";
  del.key = SimpleKey("a", "1");
  ASSERT_OK(db_->DeleteItem(del).status());
  ASSERT_OK_AND_ASSIGN(desc, db_->DescribeTable(d));
  EXPECT_EQ(desc.item_count, 1);
  EXPECT_LT(desc.table_size_bytes, two_items);
}

TEST(EngineDiskTest, ReopenedDatabaseHasEveryTableAndItem) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("dynarock_engine_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  SimulatedClock clock;
  EngineOptions options;
  options.path = dir.string();
  options.clock = &clock;
  options.table_create_delay_micros = 0;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
    ASSERT_OK(db->CreateTable(SimpleTable("Uuu", false)).status());
    for (int i = 0; i < 100; ++i) {
      PutItemRequest put;
      put.table_name = "Tab";
      put.item = SimpleItem("p" + std::to_string(i % 7), std::to_string(i).c_str());
      ASSERT_OK(db->PutItem(put).status());
    }
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ASSERT_OK_AND_ASSIGN(ListTablesResult list, db->ListTables({}));
    EXPECT_THAT(list.table_names, ElementsAre("Tab", "Uuu"));
    DescribeTableRequest d;
    d.table_name = "Tab";
    ASSERT_OK_AND_ASSIGN(TableDescription desc, db->DescribeTable(d));
    EXPECT_EQ(desc.item_count, 100);
    GetItemRequest get;
    get.table_name = "Tab";
    get.key = SimpleKey("p0", "42");
    ASSERT_OK_AND_ASSIGN(GetItemResult got, db->GetItem(get));
    ASSERT_TRUE(got.item.has_value());
    // New tables after reopen never reuse an id.
    ASSERT_OK(db->CreateTable(SimpleTable("Vvv")).status());
    PutItemRequest put;
    put.table_name = "Vvv";
    put.item = SimpleItem("p0", "42", "other");
    ASSERT_OK(db->PutItem(put).status());
    ASSERT_OK_AND_ASSIGN(got, db->GetItem(get));
    EXPECT_EQ(got.item->at("payload"), AttributeValue::S("x"));
  }
  std::filesystem::remove_all(dir);
}

TEST(EngineDiskTest, TableSettingsSurviveARestart) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("dynarock_settings_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  SimulatedClock clock;
  EngineOptions options;
  options.path = dir.string();
  options.clock = &clock;
  options.table_create_delay_micros = 0;
  TableDescription before;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    CreateTableRequest create = SimpleTable("Set");
    create.table_class = TableClass::kStandardInfrequentAccess;
    create.on_demand_throughput = OnDemandThroughput{100, 50};
    create.warm_throughput = WarmThroughput{13000, 5000};
    create.deletion_protection_enabled = true;
    create.attribute_definitions.push_back({"g", AttrType::kS});
    GlobalSecondaryIndexDef gsi;
    gsi.index_name = "ByG";
    gsi.key_schema = {{"g", KeyType::kHash}};
    gsi.on_demand_throughput = OnDemandThroughput{std::nullopt, 7};
    gsi.warm_throughput = WarmThroughput{12500, std::nullopt};
    create.global_secondary_indexes = {gsi};
    ASSERT_OK(db->CreateTable(create).status());
    clock.Advance(1'000'000);
    UpdateTableRequest update;
    update.table_name = "Set";
    update.table_class = TableClass::kStandard;
    ASSERT_OK(db->UpdateTable(update).status());
    DescribeTableRequest d;
    d.table_name = "Set";
    ASSERT_OK_AND_ASSIGN(before, db->DescribeTable(d));
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    DescribeTableRequest d;
    d.table_name = "Set";
    ASSERT_OK_AND_ASSIGN(TableDescription after, db->DescribeTable(d));
    ASSERT_TRUE(after.table_class_summary.has_value());
    EXPECT_EQ(after.table_class_summary, before.table_class_summary);
    EXPECT_EQ(after.table_class_summary->table_class, TableClass::kStandard);
    EXPECT_EQ(after.table_class_summary->last_update_micros, clock.NowMicros());
    EXPECT_EQ(after.settings, (ThroughputSettings{100, 50, 13000, 5000}));
    EXPECT_TRUE(after.deletion_protection_enabled);
    ASSERT_EQ(after.global_secondary_indexes.size(), 1u);
    EXPECT_EQ(after.global_secondary_indexes[0].settings,
              (ThroughputSettings{0, 7, 12500, 4000}));
    // The throughput model took them up again.
    ASSERT_OK_AND_ASSIGN(TableThroughputStats stats, db->DescribeCapacity(Scope(), "Set"));
    EXPECT_EQ(stats.table.write_units_per_second, 50);
    EXPECT_EQ(stats.table.read_units_per_second, 100);
    ASSERT_EQ(stats.global_secondary_indexes.size(), 1u);
    EXPECT_EQ(stats.global_secondary_indexes[0].write_units_per_second, 7);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock

namespace dynarock {
namespace {

// Many writers on few items: counters stay exact because read-old /
// write-new is atomic per item.
TEST(EngineConcurrencyTest, ConcurrentWritersKeepCountersExact) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  constexpr int kThreads = 4;
  constexpr int kOps = 500;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kOps; ++i) {
        const std::string pk = "p" + std::to_string(i % 10);
        const std::string sk = std::to_string(i % 3);
        if ((i + t) % 4 == 0) {
          DeleteItemRequest del;
          del.table_name = "Tab";
          del.key = SimpleKey(pk, sk.c_str());
          EXPECT_OK(db->DeleteItem(del).status());
        } else {
          PutItemRequest put;
          put.table_name = "Tab";
          put.item = SimpleItem(pk, sk.c_str(), std::string(i % 50, 'x'));
          EXPECT_OK(db->PutItem(put).status());
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  // Recount by reading every possible key.
  int64_t present = 0;
  for (int p = 0; p < 10; ++p) {
    for (int s = 0; s < 3; ++s) {
      GetItemRequest get;
      get.table_name = "Tab";
      get.key = SimpleKey("p" + std::to_string(p), std::to_string(s).c_str());
      auto got = db->GetItem(get);
      ASSERT_OK(got.status());
      if (got->item) ++present;
    }
  }
  DescribeTableRequest d;
  d.table_name = "Tab";
  ASSERT_OK_AND_ASSIGN(TableDescription desc, db->DescribeTable(d));
  EXPECT_EQ(desc.item_count, present);
}

}  // namespace
}  // namespace dynarock
