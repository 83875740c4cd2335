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

CreateTableRequest SimpleTable(const std::string& name, bool with_sort = true) {
  CreateTableRequest req;
  req.table_name = name;
  req.attribute_definitions = {{"pk", AttrType::kS}};
  req.key_schema = {{"pk", KeyType::kHash}};
  if (with_sort) {
    req.attribute_definitions.push_back({"sk", AttrType::kN});
    req.key_schema.push_back({"sk", KeyType::kRange});
  }
  req.billing_mode = BillingMode::kPayPerRequest;
  return req;
}

Item MakeItem(const std::string& pk, const char* sk, std::string payload = "x") {
  Item item;
  item["pk"] = AttributeValue::S(pk);
  item["sk"] = AttributeValue::N(Number::Parse(sk).value());
  item["payload"] = AttributeValue::S(std::move(payload));
  return item;
}

Item KeyOf(const std::string& pk, const char* sk) {
  Item key;
  key["pk"] = AttributeValue::S(pk);
  key["sk"] = AttributeValue::N(Number::Parse(sk).value());
  return key;
}

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
  ASSERT_OK(Put(MakeItem("a", "1", "hello")).status());
  ASSERT_OK_AND_ASSIGN(GetItemResult got, Get(KeyOf("a", "1")));
  ASSERT_TRUE(got.item.has_value());
  EXPECT_EQ(*got.item, MakeItem("a", "1", "hello"));
}

TEST_F(EngineTest, NumberSortKeysMatchWhateverTheirSpelling) {
  ASSERT_OK(Put(MakeItem("a", "1.50")).status());
  ASSERT_OK_AND_ASSIGN(GetItemResult got, Get(KeyOf("a", "15E-1")));
  EXPECT_TRUE(got.item.has_value());
}

TEST_F(EngineTest, GetOfMissingItemReturnsNothing) {
  ASSERT_OK_AND_ASSIGN(GetItemResult got, Get(KeyOf("nope", "1")));
  EXPECT_FALSE(got.item.has_value());
}

TEST_F(EngineTest, PutReturnsOldItemOnlyWhenAsked) {
  ASSERT_OK_AND_ASSIGN(PutItemResult first, Put(MakeItem("a", "1", "v1"), ReturnValues::kAllOld));
  EXPECT_FALSE(first.attributes.has_value());
  ASSERT_OK_AND_ASSIGN(PutItemResult second, Put(MakeItem("a", "1", "v2"), ReturnValues::kAllOld));
  ASSERT_TRUE(second.attributes.has_value());
  EXPECT_EQ(second.attributes->at("payload"), AttributeValue::S("v1"));
  ASSERT_OK_AND_ASSIGN(PutItemResult third, Put(MakeItem("a", "1", "v3")));
  EXPECT_FALSE(third.attributes.has_value());
  EXPECT_THAT(Put(MakeItem("a", "1"), ReturnValues::kAllNew),
              StatusIs(ErrorCode::kValidation, "Return values set to invalid value"));
}

TEST_F(EngineTest, DeleteRemovesAndReturnsOldItem) {
  ASSERT_OK(Put(MakeItem("a", "1", "gone")).status());
  DeleteItemRequest del;
  del.table_name = "Tab";
  del.key = KeyOf("a", "1");
  del.return_values = ReturnValues::kAllOld;
  ASSERT_OK_AND_ASSIGN(DeleteItemResult r, db_->DeleteItem(del));
  ASSERT_TRUE(r.attributes.has_value());
  EXPECT_EQ(r.attributes->at("payload"), AttributeValue::S("gone"));
  ASSERT_OK_AND_ASSIGN(GetItemResult got, Get(KeyOf("a", "1")));
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
  Item wrong = MakeItem("a", "1");
  wrong["sk"] = AttributeValue::S("1");
  EXPECT_THAT(Put(wrong), StatusIs(ErrorCode::kValidation,
                                   "One or more parameter values were invalid: Type mismatch for key sk expected: N actual: S"));
  Item empty = MakeItem("", "1");
  EXPECT_THAT(Put(empty), StatusIs(ErrorCode::kValidation,
                                   HasSubstr("cannot contain an empty string value. Key: pk")));
  Item long_pk = MakeItem(std::string(2049, 'x'), "1");
  EXPECT_THAT(Put(long_pk), StatusIs(ErrorCode::kValidation, HasSubstr("Size of hashkey has exceeded")));
  ASSERT_OK(Put(MakeItem(std::string(2048, 'x'), "1")).status());

  Item extra = KeyOf("a", "1");
  extra["other"] = AttributeValue::S("x");
  EXPECT_THAT(Get(extra), StatusIs(ErrorCode::kValidation,
                                   "The provided key element does not match the schema"));
  Item partial;
  partial["pk"] = AttributeValue::S("a");
  EXPECT_THAT(Get(partial), StatusIs(ErrorCode::kValidation,
                                     "The provided key element does not match the schema"));
}

TEST_F(EngineTest, ItemCountAndSizeFollowWrites) {
  ASSERT_OK(Put(MakeItem("a", "1", "12345")).status());
  ASSERT_OK(Put(MakeItem("b", "1", "12345")).status());
  ASSERT_OK(Put(MakeItem("b", "1", "1")).status());  // overwrite shrinks
  DescribeTableRequest d;
  d.table_name = "Tab";
  ASSERT_OK_AND_ASSIGN(TableDescription desc, db_->DescribeTable(d));
  EXPECT_EQ(desc.item_count, 2);
  EXPECT_GT(desc.table_size_bytes, 0);
  const int64_t two_items = desc.table_size_bytes;
  DeleteItemRequest del;
  del.table_name = "Tab";
  del.key = KeyOf("a", "1");
  ASSERT_OK(db_->DeleteItem(del).status());
  ASSERT_OK_AND_ASSIGN(desc, db_->DescribeTable(d));
  EXPECT_EQ(desc.item_count, 1);
  EXPECT_LT(desc.table_size_bytes, two_items);
}

TEST(EngineTableTest, CreateTwiceIsResourceInUse) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  EXPECT_THAT(db->CreateTable(SimpleTable("Tab")),
              StatusIs(ErrorCode::kResourceInUse, "Table already exists: Tab"));
}

TEST(EngineTableTest, MissingTableIsResourceNotFound) {
  TestEngine db;
  DescribeTableRequest d;
  d.table_name = "Nope";
  EXPECT_THAT(db->DescribeTable(d),
              StatusIs(ErrorCode::kResourceNotFound, "Requested resource not found: Table: Nope not found"));
  GetItemRequest g;
  g.table_name = "Nope";
  EXPECT_THAT(db->GetItem(g), StatusIs(ErrorCode::kResourceNotFound, "Requested resource not found"));
}

TEST(EngineTableTest, StatusGoesCreatingActiveDeletingGone) {
  EngineOptions options = TestEngine::Options();
  options.table_create_delay_micros = 1000;
  options.table_delete_delay_micros = 2000;
  TestEngine db(options);
  ASSERT_OK_AND_ASSIGN(TableDescription created, db->CreateTable(SimpleTable("Tab")));
  EXPECT_EQ(created.table_status, TableStatus::kCreating);
  // Data calls wait for ACTIVE, as on DynamoDB.
  PutItemRequest put;
  put.table_name = "Tab";
  put.item = MakeItem("a", "1");
  EXPECT_THAT(db->PutItem(put), StatusIs(ErrorCode::kResourceNotFound, ::testing::_));

  db.clock.Advance(1000);
  DescribeTableRequest d;
  d.table_name = "Tab";
  ASSERT_OK_AND_ASSIGN(TableDescription active, db->DescribeTable(d));
  EXPECT_EQ(active.table_status, TableStatus::kActive);
  ASSERT_OK(db->PutItem(put).status());

  DeleteTableRequest del;
  del.table_name = "Tab";
  ASSERT_OK_AND_ASSIGN(TableDescription deleting, db->DeleteTable(del));
  EXPECT_EQ(deleting.table_status, TableStatus::kDeleting);
  EXPECT_EQ(deleting.item_count, 1);
  ASSERT_OK_AND_ASSIGN(TableDescription still, db->DescribeTable(d));
  EXPECT_EQ(still.table_status, TableStatus::kDeleting);
  EXPECT_THAT(db->DeleteTable(del), StatusIs(ErrorCode::kResourceInUse, ::testing::_));

  db.clock.Advance(2000);
  EXPECT_THAT(db->DescribeTable(d), StatusIs(ErrorCode::kResourceNotFound, ::testing::_));
  // The name is free again, and the new table starts empty.
  db.clock.Advance(1);
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  db.clock.Advance(1000);
  GetItemRequest get;
  get.table_name = "Tab";
  get.key = KeyOf("a", "1");
  ASSERT_OK_AND_ASSIGN(GetItemResult got, db->GetItem(get));
  EXPECT_FALSE(got.item.has_value());
}

TEST(EngineTableTest, ListTablesPagesInNameOrder) {
  TestEngine db;
  for (const char* name : {"ccc", "aaa", "bbb", "ddd"}) {
    ASSERT_OK(db->CreateTable(SimpleTable(name)).status());
  }
  ListTablesRequest req;
  req.limit = 2;
  ASSERT_OK_AND_ASSIGN(ListTablesResult page1, db->ListTables(req));
  EXPECT_THAT(page1.table_names, ElementsAre("aaa", "bbb"));
  ASSERT_TRUE(page1.last_evaluated_table_name.has_value());
  EXPECT_EQ(*page1.last_evaluated_table_name, "bbb");
  req.exclusive_start_table_name = page1.last_evaluated_table_name;
  ASSERT_OK_AND_ASSIGN(ListTablesResult page2, db->ListTables(req));
  EXPECT_THAT(page2.table_names, ElementsAre("ccc", "ddd"));
  // No table remains after this page: no LastEvaluatedTableName.
  EXPECT_FALSE(page2.last_evaluated_table_name.has_value());
}

TEST(EngineTableTest, NamespacesAreIsolated) {
  TestEngine db;
  CreateTableRequest a = SimpleTable("Shared");
  a.scope.ns = "key1_us-east-1";
  ASSERT_OK(db->CreateTable(a).status());
  CreateTableRequest b = SimpleTable("Shared");
  b.scope.ns = "key2_us-east-1";
  ASSERT_OK(db->CreateTable(b).status());
  ListTablesRequest list;
  list.scope.ns = "key3_us-east-1";
  ASSERT_OK_AND_ASSIGN(ListTablesResult none, db->ListTables(list));
  EXPECT_TRUE(none.table_names.empty());
  PutItemRequest put;
  put.scope.ns = "key1_us-east-1";
  put.table_name = "Shared";
  put.item = MakeItem("a", "1");
  ASSERT_OK(db->PutItem(put).status());
  GetItemRequest get;
  get.scope.ns = "key2_us-east-1";
  get.table_name = "Shared";
  get.key = KeyOf("a", "1");
  ASSERT_OK_AND_ASSIGN(GetItemResult other, db->GetItem(get));
  EXPECT_FALSE(other.item.has_value());
}

TEST(EngineTableTest, DescriptionHasArnIdAndBilling) {
  TestEngine db;
  CreateTableRequest req = SimpleTable("Orders");
  req.scope.region = "eu-west-1";
  ASSERT_OK_AND_ASSIGN(TableDescription d, db->CreateTable(req));
  EXPECT_EQ(d.table_arn, "arn:aws:dynamodb:eu-west-1:000000000000:table/Orders");
  EXPECT_EQ(d.table_id.size(), 36u);
  EXPECT_EQ(d.billing_mode, BillingMode::kPayPerRequest);
  EXPECT_TRUE(d.last_update_to_pay_per_request_micros.has_value());
  EXPECT_EQ(d.creation_date_time_micros, db.clock.NowMicros());
}

TEST(EngineTableTest, UpdateTableChangesThroughputAndBillingMode) {
  TestEngine db;
  CreateTableRequest req = SimpleTable("Tab");
  req.billing_mode = BillingMode::kProvisioned;
  req.provisioned_throughput = ProvisionedThroughput{5, 5};
  ASSERT_OK(db->CreateTable(req).status());
  UpdateTableRequest up;
  up.table_name = "Tab";
  up.provisioned_throughput = ProvisionedThroughput{5, 5};
  EXPECT_THAT(db->UpdateTable(up), StatusIs(ErrorCode::kValidation,
                                            HasSubstr("The provisioned throughput for the table will not change")));
  up.provisioned_throughput = ProvisionedThroughput{10, 2};
  ASSERT_OK_AND_ASSIGN(TableDescription d, db->UpdateTable(up));
  EXPECT_EQ(d.provisioned_throughput.read_capacity_units, 10);
  EXPECT_EQ(d.provisioned_throughput.write_capacity_units, 2);
  EXPECT_EQ(d.provisioned_throughput.number_of_decreases_today, 1);
  EXPECT_TRUE(d.provisioned_throughput.last_increase_micros.has_value());

  UpdateTableRequest ppr;
  ppr.table_name = "Tab";
  ppr.billing_mode = BillingMode::kPayPerRequest;
  ASSERT_OK_AND_ASSIGN(d, db->UpdateTable(ppr));
  EXPECT_EQ(d.billing_mode, BillingMode::kPayPerRequest);
  EXPECT_EQ(d.provisioned_throughput.read_capacity_units, 0);

  UpdateTableRequest nothing;
  nothing.table_name = "Tab";
  EXPECT_THAT(db->UpdateTable(nothing), StatusIs(ErrorCode::kValidation, HasSubstr("At least one of")));
}

TEST(EngineTableTest, DeletionProtectionBlocksDelete) {
  TestEngine db;
  CreateTableRequest req = SimpleTable("Tab");
  req.deletion_protection_enabled = true;
  ASSERT_OK(db->CreateTable(req).status());
  DeleteTableRequest del;
  del.table_name = "Tab";
  EXPECT_THAT(db->DeleteTable(del), StatusIs(ErrorCode::kValidation, HasSubstr("protected against deletion")));
  UpdateTableRequest up;
  up.table_name = "Tab";
  up.deletion_protection_enabled = false;
  ASSERT_OK(db->UpdateTable(up).status());
  EXPECT_OK(db->DeleteTable(del).status());
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
      put.item = MakeItem("p" + std::to_string(i % 7), std::to_string(i).c_str());
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
    get.key = KeyOf("p0", "42");
    ASSERT_OK_AND_ASSIGN(GetItemResult got, db->GetItem(get));
    ASSERT_TRUE(got.item.has_value());
    // New tables after reopen never reuse an id.
    ASSERT_OK(db->CreateTable(SimpleTable("Vvv")).status());
    PutItemRequest put;
    put.table_name = "Vvv";
    put.item = MakeItem("p0", "42", "other");
    ASSERT_OK(db->PutItem(put).status());
    ASSERT_OK_AND_ASSIGN(got, db->GetItem(get));
    EXPECT_EQ(got.item->at("payload"), AttributeValue::S("x"));
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
          del.key = KeyOf(pk, sk.c_str());
          EXPECT_OK(db->DeleteItem(del).status());
        } else {
          PutItemRequest put;
          put.table_name = "Tab";
          put.item = MakeItem(pk, sk.c_str(), std::string(i % 50, 'x'));
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
      get.key = KeyOf("p" + std::to_string(p), std::to_string(s).c_str());
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
