// ReadPath through the Engine: eventually consistent reads of a table or an
// LSI lag by EngineOptions::eventual_read_lag_micros on the engine's clock;
// strong reads, transactions and GSI reads never do.

#include "engine/data/read_path.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/engine.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using namespace expr::testing;  // NOLINT: value builders

constexpr int64_t kLag = 200'000;  // 200 ms

class EventualReadLagTest : public ::testing::Test {
 protected:
  static EngineOptions Options() {
    EngineOptions o = TestEngine::Options();
    o.eventual_read_lag_micros = kLag;
    return o;
  }
  void SetUp() override {
    CreateTableRequest req = SimpleTable("Tbl");
    req.attribute_definitions.push_back({"l", AttrType::kS});
    req.local_secondary_indexes.push_back(
        {"L", {{"pk", KeyType::kHash}, {"l", KeyType::kRange}}, Projection{}});
    ASSERT_OK(db_->CreateTable(req).status());
  }
  void Put(const std::string& payload) {
    PutItemRequest req;
    req.table_name = "Tbl";
    req.item = SimpleItem("a", "1", payload);
    req.item["l"] = S("l");
    ASSERT_OK(db_->PutItem(req).status());
  }
  // The payload a GetItem sees, "" when there is no item.
  std::string Get(bool consistent) {
    GetItemRequest req;
    req.table_name = "Tbl";
    req.key = SimpleKey("a", "1");
    req.consistent_read = consistent;
    auto r = db_->GetItem(req);
    EXPECT_OK(r.status());
    if (!r.ok() || !r->item) return "";
    return r->item->at("payload").s();
  }
  // Items a Query of pk "a" (on `index`, or the table) and a Scan see.
  int64_t QueryCount(bool consistent, const char* index = nullptr) {
    QueryRequest req;
    req.table_name = "Tbl";
    req.key_condition_expression = "pk = :p";
    req.read.expression_attribute_values = ExpressionAttributeValues{{":p", S("a")}};
    req.read.consistent_read = consistent;
    if (index != nullptr) req.read.index_name = index;
    auto r = db_->Query(req);
    EXPECT_OK(r.status());
    return r.ok() ? r->count : -1;
  }
  int64_t ScanCount(bool consistent) {
    ScanRequest req;
    req.table_name = "Tbl";
    req.read.consistent_read = consistent;
    auto r = db_->Scan(req);
    EXPECT_OK(r.status());
    return r.ok() ? r->count : -1;
  }
  size_t BatchGetCount(bool consistent) {
    BatchGetItemRequest req;
    KeysAndAttributes k;
    k.keys = {SimpleKey("a", "1")};
    k.consistent_read = consistent;
    req.request_items.emplace_back("Tbl", k);
    auto r = db_->BatchGetItem(req);
    EXPECT_OK(r.status());
    return r.ok() ? r->responses.at(0).second.size() : 0;
  }

  TestEngine db_{Options()};
};

TEST_F(EventualReadLagTest, EventualReadsSeeTheItemsAsTheyWereLagAgo) {
  Put("v1");
  // Strong reads see the write at once; eventual ones do not yet.
  EXPECT_EQ(Get(true), "v1");
  EXPECT_EQ(Get(false), "");
  EXPECT_EQ(QueryCount(true), 1);
  EXPECT_EQ(QueryCount(false), 0);
  EXPECT_EQ(QueryCount(false, "L"), 0);  // an LSI lives with its table
  EXPECT_EQ(QueryCount(true, "L"), 1);
  EXPECT_EQ(ScanCount(false), 0);
  EXPECT_EQ(ScanCount(true), 1);
  EXPECT_EQ(BatchGetCount(false), 0u);
  EXPECT_EQ(BatchGetCount(true), 1u);
  db_.clock.Advance(kLag);
  EXPECT_EQ(Get(false), "v1");
  EXPECT_EQ(QueryCount(false), 1);
  EXPECT_EQ(QueryCount(false, "L"), 1);
  EXPECT_EQ(ScanCount(false), 1);
  EXPECT_EQ(BatchGetCount(false), 1u);
  // An update is seen late the same way: the old version until then.
  Put("v2");
  db_.clock.Advance(kLag - 1);
  EXPECT_EQ(Get(false), "v1");
  EXPECT_EQ(Get(true), "v2");
  db_.clock.Advance(1);
  EXPECT_EQ(Get(false), "v2");
}

TEST_F(EventualReadLagTest, TransactionsReadTheLatest) {
  Put("v1");
  TransactGetItemsRequest req;
  TransactGetAction get;
  get.table_name = "Tbl";
  get.key = SimpleKey("a", "1");
  req.actions.push_back(get);
  ASSERT_OK_AND_ASSIGN(auto r, db_->TransactGetItems(req));
  ASSERT_TRUE(r.responses.at(0).has_value());
  EXPECT_EQ(r.responses[0]->at("payload").s(), "v1");
}

TEST(EventualReadNoLagTest, TheDefaultReadsTheLatest) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tbl")).status());
  PutItemRequest put;
  put.table_name = "Tbl";
  put.item = SimpleItem("a", "1");
  ASSERT_OK(db->PutItem(put).status());
  GetItemRequest get;
  get.table_name = "Tbl";
  get.key = SimpleKey("a", "1");
  ASSERT_OK_AND_ASSIGN(auto r, db->GetItem(get));
  EXPECT_TRUE(r.item.has_value());
}

}  // namespace
}  // namespace dynarock
