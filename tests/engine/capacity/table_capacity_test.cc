// The capacity model's setup from storage (engine/capacity/table_capacity.cc):
// a split counts its halves exactly only up to a bound (it runs under the
// table's lock, which every request's capacity check waits for), and a
// reopened engine seeds its table's and its GSIs' partitions from the
// persisted counters, without a scan.
#include "engine/capacity/table_capacity.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

constexpr uint32_t kTableId = 5;

// `n` items of table kTableId (partition key only) in an in-memory store;
// their total DynamoDB size.
int64_t WriteItems(Store* store, int n) {
  int64_t bytes = 0;
  WriteBatch batch;
  for (int i = 0; i < n; ++i) {
    Item item;
    item["pk"] = AttributeValue::S("item-" + std::to_string(i));
    item["payload"] = AttributeValue::S(std::string(100, 'x'));
    std::string value;
    EncodeItem(item, &value);
    batch.Put(Cf::kItems, keys::ItemKey(kTableId, item.at("pk"), nullptr), value);
    bytes += ItemSize(item);
  }
  EXPECT_OK(store->Write(&batch));
  return bytes;
}

TEST(CountSplitTest, CountsBothHalvesExactlyWithinTheBound) {
  ASSERT_OK_AND_ASSIGN(auto store, Store::Open(StoreOptions{.in_memory = true}));
  const int64_t bytes = WriteItems(store.get(), 100);
  const SplitSizes s = CountSplit(*store, kTableId, 0, 0, uint64_t{1} << 63, 0, 100);
  EXPECT_TRUE(s.counted);
  EXPECT_EQ(s.left_items + s.right_items, 100);
  EXPECT_EQ(s.left_bytes + s.right_bytes, bytes);
  EXPECT_GT(s.left_items, 0);  // the hashes spread over both halves
  EXPECT_GT(s.right_items, 0);
}

TEST(CountSplitTest, StopsAtTheBoundInsteadOfScanningThePartition) {
  ASSERT_OK_AND_ASSIGN(auto store, Store::Open(StoreOptions{.in_memory = true}));
  WriteItems(store.get(), 100);
  const SplitSizes s = CountSplit(*store, kTableId, 0, 0, uint64_t{1} << 63, 0, 99);
  EXPECT_FALSE(s.counted);
  EXPECT_LE(s.left_items + s.right_items, 99);
}

TEST(StartThroughputTest, AReopenedEngineSeedsItsGsiPartitionsFromTheCounters) {
  const std::string dir =
      testing::TempDir() + "/table_capacity_test_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  EngineOptions options = TestEngine::Options();
  options.in_memory = false;
  options.path = dir;
  CreateTableRequest req = SimpleTable("Tab");
  req.attribute_definitions.push_back({"g", AttrType::kS});
  GlobalSecondaryIndexDef gsi;
  gsi.index_name = "byG";
  gsi.key_schema = {{"g", KeyType::kHash}};
  gsi.projection.type = ProjectionType::kAll;
  req.global_secondary_indexes.push_back(gsi);
  int64_t index_items = 0, index_bytes = 0;
  {
    TestEngine db(options);
    ASSERT_OK(db->CreateTable(req).status());
    for (int i = 0; i < 50; ++i) {
      PutItemRequest put;
      put.table_name = "Tab";
      put.item = SimpleItem("p" + std::to_string(i), "1");
      put.item["g"] = AttributeValue::S("g" + std::to_string(i));
      ASSERT_OK(db->PutItem(put).status());
    }
    db->RunDueWork();  // the GSI caught up
    ASSERT_OK_AND_ASSIGN(TableDescription d,
                         db->DescribeTable(DescribeTableRequest{Scope(), "Tab"}));
    index_items = d.global_secondary_indexes.at(0).item_count;
    index_bytes = d.global_secondary_indexes.at(0).index_size_bytes;
    ASSERT_EQ(index_items, 50);
  }
  TestEngine db(options);
  ASSERT_OK_AND_ASSIGN(TableThroughputStats stats, db->DescribeCapacity(Scope(), "Tab"));
  ASSERT_EQ(stats.global_secondary_indexes.size(), 1u);
  int64_t items = 0, bytes = 0;
  for (const PartitionStats& p : stats.global_secondary_indexes[0].partitions) {
    items += p.items;
    bytes += p.bytes;
  }
  EXPECT_EQ(items, index_items);
  EXPECT_EQ(bytes, index_bytes);
  db.engine.reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock
