// Table lifecycle (engine/control/table_lifecycle.cc), through the Engine:
// CreateTable, DescribeTable, ListTables, UpdateTable, DeleteTable and the
// table status on the clock.
#include "engine/control/table_lifecycle.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "engine/engine.h"
#include "engine/requests/scope.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(TableLifecycleTest, CreateTwiceIsResourceInUse) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  EXPECT_THAT(db->CreateTable(SimpleTable("Tab")),
              StatusIs(ErrorCode::kResourceInUse, "Table already exists: Tab"));
}

TEST(TableLifecycleTest, MissingTableIsResourceNotFound) {
  TestEngine db;
  DescribeTableRequest d;
  d.table_name = "Nope";
  EXPECT_THAT(db->DescribeTable(d),
              StatusIs(ErrorCode::kResourceNotFound, "Requested resource not found: Table: Nope not found"));
  GetItemRequest g;
  g.table_name = "Nope";
  EXPECT_THAT(db->GetItem(g), StatusIs(ErrorCode::kResourceNotFound, "Requested resource not found"));
}

TEST(TableLifecycleTest, StatusGoesCreatingActiveDeletingGone) {
  EngineOptions options = TestEngine::Options();
  options.table_create_delay_micros = 1000;
  options.table_delete_delay_micros = 2000;
  TestEngine db(options);
  ASSERT_OK_AND_ASSIGN(TableDescription created, db->CreateTable(SimpleTable("Tab")));
  EXPECT_EQ(created.table_status, TableStatus::kCreating);
  // Data calls wait for ACTIVE, as on DynamoDB.
  PutItemRequest put;
  put.table_name = "Tab";
  put.item = SimpleItem("a", "1");
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
  get.key = SimpleKey("a", "1");
  ASSERT_OK_AND_ASSIGN(GetItemResult got, db->GetItem(get));
  EXPECT_FALSE(got.item.has_value());
}

TEST(TableLifecycleTest, ListTablesPagesInNameOrder) {
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

TEST(TableLifecycleTest, NamespacesAreIsolated) {
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
  put.item = SimpleItem("a", "1");
  ASSERT_OK(db->PutItem(put).status());
  GetItemRequest get;
  get.scope.ns = "key2_us-east-1";
  get.table_name = "Shared";
  get.key = SimpleKey("a", "1");
  ASSERT_OK_AND_ASSIGN(GetItemResult other, db->GetItem(get));
  EXPECT_FALSE(other.item.has_value());
}

TEST(TableLifecycleTest, DescriptionHasArnIdAndBilling) {
  TestEngine db;
  CreateTableRequest req = SimpleTable("Orders");
  req.scope.region = "eu-west-1";
  ASSERT_OK_AND_ASSIGN(TableDescription d, db->CreateTable(req));
  EXPECT_EQ(d.table_arn, "arn:aws:dynamodb:eu-west-1:" +
                             std::string(kDefaultAccountId) + ":table/Orders");
  EXPECT_EQ(d.table_id.size(), 36u);
  EXPECT_EQ(d.billing_mode, BillingMode::kPayPerRequest);
  EXPECT_TRUE(d.last_update_to_pay_per_request_micros.has_value());
  EXPECT_EQ(d.creation_date_time_micros, db.clock.NowMicros());
}

TEST(TableLifecycleTest, UpdateTableChangesThroughputAndBillingMode) {
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

// "No more than two table class updates on your table are allowed in a
// 30-day trailing period" (developer guide): a third change within 30 days
// of the first is refused, changing nothing; the same class again is no
// update; a month after the first, one more is allowed.
TEST(TableLifecycleTest, TableClassChangesTwiceIn30Days) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  constexpr int64_t kDay = int64_t{86400} * 1'000'000;
  auto change = [&](TableClass c) {
    UpdateTableRequest up;
    up.table_name = "Tab";
    up.table_class = c;
    return db->UpdateTable(up);
  };
  const int64_t first = db.clock.NowMicros();
  ASSERT_OK(change(TableClass::kStandardInfrequentAccess).status());
  ASSERT_OK(change(TableClass::kStandardInfrequentAccess).status());  // no change
  db.clock.Advance(10 * kDay);
  ASSERT_OK_AND_ASSIGN(TableDescription d, change(TableClass::kStandard));
  EXPECT_EQ(d.table_class_summary->last_update_micros, first + 10 * kDay);
  db.clock.Advance(19 * kDay);
  EXPECT_THAT(change(TableClass::kStandardInfrequentAccess),
              StatusIs(ErrorCode::kLimitExceeded,
                       "Updates to TableClass are limited to 2 times in 30 day(s)."));
  DescribeTableRequest describe;
  describe.table_name = "Tab";
  ASSERT_OK_AND_ASSIGN(d, db->DescribeTable(describe));
  EXPECT_EQ(d.table_class_summary->table_class, TableClass::kStandard);
  EXPECT_EQ(d.table_class_summary->last_update_micros, first + 10 * kDay);
  db.clock.Advance(kDay + 1);  // 30 days and a microsecond after the first
  ASSERT_OK_AND_ASSIGN(d, change(TableClass::kStandardInfrequentAccess));
  EXPECT_EQ(d.table_class_summary->table_class, TableClass::kStandardInfrequentAccess);
  // The window now starts at the second update (day 10): refused until day 40.
  EXPECT_THAT(change(TableClass::kStandard),
              StatusIs(ErrorCode::kLimitExceeded, HasSubstr("Updates to TableClass")));
}

TEST(TableLifecycleTest, DeletionProtectionBlocksDelete) {
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

}  // namespace
}  // namespace dynarock
