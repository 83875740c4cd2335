// Throttling and per-partition statistics through the public Engine
// interface, on a SimulatedClock: every expectation follows from the
// throughput model's rules (engine/capacity/throughput_controller.h):
//   - a provisioned table's bucket holds 300 s of its rate and starts full;
//   - every partition's bucket holds one second at 1,000 WCU / 3,000 RCU;
//   - a request is admitted while every bucket it touches is positive, and
//     is then charged whole (into debt if need be);
// so, with 1 KB items (1 write unit, 1 strongly consistent read unit):
//   - 5 WCU: 1,000 writes in the first clock second (the partition is then
//     at 0), and after a second 505 more (the table is then at 0): 1,505.

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/keys/key_codec.h"
#include "engine/requests/scope.h"
#include "engine/value/item_size.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {

void PrintTo(const ThrottlingReason& r, std::ostream* os) {
  *os << r.reason << " @ " << r.resource;
}

namespace {

using namespace expr::testing;  // NOLINT: value builders
using ::testing::ElementsAre;

constexpr int64_t kKB = 1024;
constexpr int64_t kSecond = 1'000'000;
const std::string kArn =
    "arn:aws:dynamodb:ddblocal:" + std::string(kDefaultAccountId) + ":table/";

// An item of `bytes` bytes with partition key `pk` (and more attributes).
Item Sized(const std::string& pk, int64_t bytes, Item extra = {}) {
  Item item = std::move(extra);
  item["pk"] = S(pk);
  item["d"] = S("");
  const int64_t pad = bytes - ItemSize(item);
  EXPECT_GE(pad, 0);
  item["d"] = S(std::string(static_cast<size_t>(pad), 'x'));
  return item;
}

EngineOptions Throttling(bool on = true) {
  EngineOptions options = TestEngine::Options();
  options.throttling = on;
  return options;
}

class EngineThrottlingTest : public ::testing::Test {
 protected:
  explicit EngineThrottlingTest(EngineOptions options = Throttling())
      : db_(options) {}

  // Table `name` (pk S): provisioned rcu/wcu, or on-demand when both are 0;
  // `gsi_wcu` > 0 adds GSI "ByG" (g S, KEYS_ONLY) with 1 RCU and that WCU.
  void Create(const std::string& name, int64_t rcu, int64_t wcu,
              int64_t gsi_wcu = 0) {
    CreateTableRequest req;
    req.table_name = name;
    req.attribute_definitions = {{"pk", AttrType::kS}};
    req.key_schema = {{"pk", KeyType::kHash}};
    if (rcu == 0 && wcu == 0) {
      req.billing_mode = BillingMode::kPayPerRequest;
    } else {
      req.billing_mode = BillingMode::kProvisioned;
      req.provisioned_throughput = ProvisionedThroughput{rcu, wcu};
    }
    if (gsi_wcu > 0) {
      req.attribute_definitions.push_back({"g", AttrType::kS});
      GlobalSecondaryIndexDef g;
      g.index_name = "ByG";
      g.key_schema = {{"g", KeyType::kHash}};
      g.projection = {ProjectionType::kKeysOnly, {}};
      g.provisioned_throughput = ProvisionedThroughput{1, gsi_wcu};
      req.global_secondary_indexes = {g};
    }
    ASSERT_OK(db_->CreateTable(req).status());
  }

  Status Put(const std::string& table, Item item) {
    PutItemRequest req;
    req.table_name = table;
    req.item = std::move(item);
    return db_->PutItem(req).status();
  }
  // Puts 1 KB items "<prefix><i>" until one is refused or `max` succeed;
  // returns how many succeeded and leaves the refusal in `*refused`.
  int64_t PutUntilThrottled(const std::string& table, const std::string& prefix,
                            int64_t max, Status* refused, Item extra = {}) {
    for (int64_t i = 0; i < max; ++i) {
      Status s = Put(table, Sized(prefix + std::to_string(i), kKB, extra));
      if (!s.ok()) {
        *refused = s;
        return i;
      }
    }
    return max;
  }
  Result<GetItemResult> Get(const std::string& table, const std::string& pk) {
    GetItemRequest req;
    req.table_name = table;
    req.key = Item{{"pk", S(pk)}};
    req.consistent_read = true;
    return db_->GetItem(req);
  }
  int64_t ItemCount(const std::string& table) {
    DescribeTableRequest req;
    req.table_name = table;
    auto d = db_->DescribeTable(req);
    EXPECT_OK(d.status());
    return d.ok() ? d->item_count : -1;
  }
  TableThroughputStats Capacity(const std::string& table) {
    auto stats = db_->DescribeCapacity(Scope(), table);
    EXPECT_OK(stats.status());
    return stats.ok() ? *stats : TableThroughputStats();
  }
  // Consumes `units` consistent reads of missing keys (1 unit each).
  void ReadUnits(const std::string& table, int64_t units) {
    for (int64_t i = 0; i < units; ++i) {
      ASSERT_OK(Get(table, "missing" + std::to_string(i)).status());
    }
  }

  TestEngine db_;
};

TEST_F(EngineThrottlingTest, ProvisionedBurstThenOneSecondOfRate) {
  Create("TTT", 1, 5);
  Status refused;
  // The partition's one second (1,000 units) goes first ...
  EXPECT_EQ(PutUntilThrottled("TTT", "a", 2000, &refused), 1000);
  EXPECT_EQ(refused.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_THAT(refused.throttling_reasons(),
              ElementsAre(ThrottlingReason{"TableWriteKeyRangeThroughputExceeded",
                                           std::string(kArn) + "TTT"}));
  // ... then, a second later, the rest of the table's 1,500 + 5 units.
  db_.clock.Advance(kSecond);
  EXPECT_EQ(PutUntilThrottled("TTT", "b", 2000, &refused), 505);
  EXPECT_EQ(refused.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_THAT(refused.throttling_reasons(),
              ElementsAre(ThrottlingReason{"TableWriteProvisionedThroughputExceeded",
                                           std::string(kArn) + "TTT"}));
  // The refused write changed nothing.
  ASSERT_OK_AND_ASSIGN(auto missed, Get("TTT", "b505"));
  EXPECT_FALSE(missed.item.has_value());
  EXPECT_EQ(ItemCount("TTT"), 1505);
  const TableThroughputStats stats = Capacity("TTT");
  int64_t items = 0;
  for (const auto& p : stats.table.partitions) items += p.items;
  EXPECT_EQ(items, 1505);
  EXPECT_EQ(stats.table.total.consumed_write_units, 1505);
  EXPECT_EQ(stats.table.total.throttled_write_requests, 2);
  // One more second: exactly its 5 units.
  db_.clock.Advance(kSecond);
  EXPECT_EQ(PutUntilThrottled("TTT", "c", 100, &refused), 5);
  EXPECT_EQ(ItemCount("TTT"), 1510);
}

TEST_F(EngineThrottlingTest, HotPartitionOnDemand) {
  Create("OOO", 0, 0);
  // 1,000 overwrites of one key fill its partition's second.
  for (int i = 0; i < 1000; ++i) ASSERT_OK(Put("OOO", Sized("hot", kKB)));
  Status refused = Put("OOO", Sized("hot", kKB));
  EXPECT_EQ(refused.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_THAT(refused.throttling_reasons(),
              ElementsAre(ThrottlingReason{"TableWriteKeyRangeThroughputExceeded",
                                           std::string(kArn) + "OOO"}));
  // A key in another partition still writes in the same clock second.
  const TableThroughputStats stats = Capacity("OOO");
  ASSERT_GT(stats.table.partitions.size(), 1u);
  auto partition_of = [&](const std::string& pk) {
    const uint64_t h = keys::PartitionHash(S(pk));
    for (size_t i = 0; i < stats.table.partitions.size(); ++i) {
      const auto& p = stats.table.partitions[i];
      if (h >= p.begin && (p.end == 0 || h < p.end)) return i;
    }
    return stats.table.partitions.size();
  };
  std::string cold = "cold";
  while (partition_of(cold) == partition_of("hot")) cold += "x";
  EXPECT_OK(Put("OOO", Sized(cold, kKB)));
  // The hot key leads the table's hot keys.
  ASSERT_FALSE(stats.table.hot_keys.empty());
  EXPECT_EQ(stats.table.hot_keys[0].key, "{S:hot}");
}

TEST_F(EngineThrottlingTest, GsiBackPressure) {
  Create("GGG", 1, 1000, /*gsi_wcu=*/1);
  Status refused;
  // The GSI's 300 s of 1 WCU: 300 writes that put a (tiny) entry.
  EXPECT_EQ(PutUntilThrottled("GGG", "a", 1000, &refused, Item{{"g", S("v")}}),
            300);
  EXPECT_EQ(refused.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_THAT(refused.throttling_reasons(),
              ElementsAre(ThrottlingReason{
                  "IndexWriteProvisionedThroughputExceeded",
                  std::string(kArn) + "GGG/index/ByG"}));
  EXPECT_EQ(ItemCount("GGG"), 300);
  // Writes without the index key do not touch the GSI.
  EXPECT_EQ(PutUntilThrottled("GGG", "b", 100, &refused), 100);
  EXPECT_EQ(ItemCount("GGG"), 400);
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  const TableThroughputStats stats = Capacity("GGG");
  ASSERT_EQ(stats.global_secondary_indexes.size(), 1u);
  int64_t entries = 0;
  for (const auto& p : stats.global_secondary_indexes[0].partitions) {
    entries += p.items;
  }
  EXPECT_EQ(entries, 300);
}

// A GSI with a multi-attribute key (HASH g, h; RANGE r) is throttled as any
// GSI: a write that adds its entry needs its write capacity, a write without
// every key attribute (no entry, the index is sparse) does not.
TEST_F(EngineThrottlingTest, MultiAttributeGsiBackPressure) {
  CreateTableRequest req;
  req.table_name = "MMM";
  req.attribute_definitions = {{"pk", AttrType::kS}, {"g", AttrType::kS},
                               {"h", AttrType::kN}, {"r", AttrType::kS}};
  req.key_schema = {{"pk", KeyType::kHash}};
  req.billing_mode = BillingMode::kProvisioned;
  req.provisioned_throughput = ProvisionedThroughput{1, 1000};
  GlobalSecondaryIndexDef g;
  g.index_name = "ByGH";
  g.key_schema = {{"g", KeyType::kHash}, {"h", KeyType::kHash}, {"r", KeyType::kRange}};
  g.projection = {ProjectionType::kKeysOnly, {}};
  g.provisioned_throughput = ProvisionedThroughput{1, 1};
  req.global_secondary_indexes = {g};
  ASSERT_OK(db_->CreateTable(req).status());
  Status refused;
  EXPECT_EQ(PutUntilThrottled("MMM", "a", 1000, &refused,
                              Item{{"g", S("v")}, {"h", N("7")}, {"r", S("x")}}),
            300);
  EXPECT_EQ(refused.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_THAT(refused.throttling_reasons(),
              ElementsAre(ThrottlingReason{
                  "IndexWriteProvisionedThroughputExceeded",
                  std::string(kArn) + "MMM/index/ByGH"}));
  EXPECT_EQ(PutUntilThrottled("MMM", "b", 100, &refused,
                              Item{{"g", S("v")}, {"h", N("7")}}),
            100);
  EXPECT_EQ(ItemCount("MMM"), 400);
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  const TableThroughputStats stats = Capacity("MMM");
  ASSERT_EQ(stats.global_secondary_indexes.size(), 1u);
  int64_t entries = 0;
  for (const auto& p : stats.global_secondary_indexes[0].partitions) {
    entries += p.items;
  }
  EXPECT_EQ(entries, 300);
  // The index's hot key, as `dynarock stats` lists it: every partition-key
  // value, in KeySchema order.
  const auto& hot = stats.global_secondary_indexes[0].hot_keys;
  ASSERT_FALSE(hot.empty());
  EXPECT_EQ(hot[0].key, "{S:v} | {N:7}");
  EXPECT_EQ(hot[0].write_units, 300);
}

WriteRequest PutRequest(Item item) {
  WriteRequest w;
  w.put_item = std::move(item);
  return w;
}

TEST_F(EngineThrottlingTest, BatchWritePartiallyThrottled) {
  Create("BBB", 1, 1);
  // 290 of the table's 300 units.
  Status refused;
  ASSERT_EQ(PutUntilThrottled("BBB", "a", 290, &refused), 290);
  BatchWriteItemRequest req;
  std::vector<WriteRequest> writes;
  for (int i = 0; i < 25; ++i) {
    writes.push_back(PutRequest(Sized("b" + std::to_string(i), kKB)));
  }
  req.request_items = {{"BBB", writes}};
  ASSERT_OK_AND_ASSIGN(auto result, db_->BatchWriteItem(req));
  // Ten admitted (the bucket reaches 0), the last 15 come back in order.
  ASSERT_EQ(result.unprocessed_items.size(), 1u);
  EXPECT_EQ(result.unprocessed_items[0].first, "BBB");
  ASSERT_EQ(result.unprocessed_items[0].second.size(), 15u);
  for (int i = 0; i < 15; ++i) {
    EXPECT_EQ(result.unprocessed_items[0].second[i].put_item,
              writes[10 + i].put_item);
  }
  ASSERT_EQ(result.consumed_capacity.size(), 1u);
  EXPECT_EQ(result.consumed_capacity[0].Total().write_units, 10);
  EXPECT_EQ(ItemCount("BBB"), 300);
  ASSERT_OK_AND_ASSIGN(auto applied, Get("BBB", "b9"));
  EXPECT_TRUE(applied.item.has_value());
  ASSERT_OK_AND_ASSIGN(auto left_out, Get("BBB", "b10"));
  EXPECT_FALSE(left_out.item.has_value());
  // Nothing left: the whole batch fails with the throttle.
  auto none = db_->BatchWriteItem(req);
  EXPECT_EQ(none.status().code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(ItemCount("BBB"), 300);
}

TEST_F(EngineThrottlingTest, BatchGetUnprocessedKeys) {
  Create("RRR", 1, 1);
  ReadUnits("RRR", 290);
  BatchGetItemRequest req;
  KeysAndAttributes keys;
  for (int i = 0; i < 20; ++i) keys.keys.push_back(Item{{"pk", S("k" + std::to_string(i))}});
  keys.consistent_read = true;
  req.request_items = {{"RRR", keys}};
  ASSERT_OK_AND_ASSIGN(auto result, db_->BatchGetItem(req));
  ASSERT_EQ(result.unprocessed_keys.size(), 1u);
  EXPECT_EQ(result.unprocessed_keys[0].first, "RRR");
  ASSERT_EQ(result.unprocessed_keys[0].second.keys.size(), 10u);
  EXPECT_EQ(result.unprocessed_keys[0].second.keys[0], keys.keys[10]);
  EXPECT_TRUE(result.unprocessed_keys[0].second.consistent_read);
  EXPECT_EQ(result.consumed_capacity[0].Total().read_units, 10);
  auto none = db_->BatchGetItem(req);
  EXPECT_EQ(none.status().code(), ErrorCode::kProvisionedThroughputExceeded);
}

TEST_F(EngineThrottlingTest, ReadsThrottledAfterBurst) {
  Create("RRR", 1, 1);
  ReadUnits("RRR", 300);
  const std::vector<ThrottlingReason> reasons = {
      {"TableReadProvisionedThroughputExceeded", std::string(kArn) + "RRR"}};
  Result<GetItemResult> get = Get("RRR", "x");
  EXPECT_EQ(get.status().code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(get.status().throttling_reasons(), reasons);
  QueryRequest query;
  query.table_name = "RRR";
  query.key_condition_expression = "pk = :p";
  query.read.expression_attribute_values = ExpressionAttributeValues{{":p", S("x")}};
  auto q = db_->Query(query);
  EXPECT_EQ(q.status().code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(q.status().throttling_reasons(), reasons);
  ScanRequest scan;
  scan.table_name = "RRR";
  auto sc = db_->Scan(scan);
  EXPECT_EQ(sc.status().code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(sc.status().throttling_reasons(), reasons);
  // One second later: one unit's worth again.
  db_.clock.Advance(kSecond);
  EXPECT_OK(Get("RRR", "x").status());
  EXPECT_EQ(Get("RRR", "x").status().code(),
            ErrorCode::kProvisionedThroughputExceeded);
}

TEST_F(EngineThrottlingTest, CountedRepeatsAreAdmittedAndChargedAsReads) {
  // A repeated Select COUNT page comes from the engine's page memo, not the
  // store, but is admitted and charged as a read: two tables with the same
  // item and 1 RCU (300 units of burst), one queried for its items, one
  // counted: 600 eventually consistent half-units each, then the same
  // throttle.
  for (const char* name : {"Items", "Counted"}) {
    Create(name, 1, 1);
    ASSERT_OK(Put(name, Sized("a", kKB)));
  }
  auto until_throttled = [&](const std::string& table, std::optional<Select> select,
                             Status* refused) {
    QueryRequest query;
    query.table_name = table;
    query.key_condition_expression = "pk = :p";
    query.read.expression_attribute_values = ExpressionAttributeValues{{":p", S("a")}};
    query.read.select = select;
    for (int64_t i = 0; i < 10'000; ++i) {
      auto q = db_->Query(query);
      if (!q.ok()) {
        *refused = q.status();
        return i;
      }
      EXPECT_EQ(q->scanned_count, 1);
      EXPECT_EQ(q->consumed_capacity.Total().read_units, 0.5);
    }
    return int64_t{-1};
  };
  Status read_refused, counted_refused;
  EXPECT_EQ(until_throttled("Items", std::nullopt, &read_refused), 600);
  EXPECT_EQ(until_throttled("Counted", Select::kCount, &counted_refused), 600);
  EXPECT_EQ(counted_refused.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_EQ(counted_refused.throttling_reasons(),
            (std::vector<ThrottlingReason>{{"TableReadProvisionedThroughputExceeded",
                                            std::string(kArn) + "Counted"}}));
  EXPECT_EQ(Capacity("Items").table.total, Capacity("Counted").table.total);
  EXPECT_EQ(Capacity("Counted").table.total.consumed_read_units, 300);
}

TEST_F(EngineThrottlingTest, FailedConditionIsCharged) {
  Create("CCC", 1, 1);
  PutItemRequest req;
  req.table_name = "CCC";
  req.item = Sized("k", kKB);
  req.condition.condition_expression = "attribute_exists(pk)";
  EXPECT_EQ(db_->PutItem(req).status().code(), ErrorCode::kConditionalCheckFailed);
  EXPECT_EQ(Capacity("CCC").table.total.consumed_write_units, 1);
}

TEST_F(EngineThrottlingTest, SwitchedOffNeverThrottlesButCounts) {
  Create("TTT", 1, 5);
  EXPECT_TRUE(db_->throttling());
  db_->SetThrottling(false);
  EXPECT_FALSE(db_->throttling());
  Status refused;
  EXPECT_EQ(PutUntilThrottled("TTT", "a", 2000, &refused), 2000);
  const TableThroughputStats stats = Capacity("TTT");
  EXPECT_EQ(stats.table.total.consumed_write_units, 2000);
  EXPECT_EQ(stats.table.total.throttled_write_requests, 0);
  EXPECT_FALSE(stats.table.hot_keys.empty());
  db_->SetThrottling(true);
  EXPECT_EQ(Put("TTT", Sized("z", kKB)).code(),
            ErrorCode::kProvisionedThroughputExceeded);
}

TEST_F(EngineThrottlingTest, ThroughputDecreasesLimitedPerUtcDay) {
  // Midnight UTC, 2024-03-01 (a Friday).
  db_.clock.Set(int64_t{1709251200} * kSecond);
  Create("DDD", 10, 10);
  auto set = [&](int64_t rcu) {
    UpdateTableRequest req;
    req.table_name = "DDD";
    req.provisioned_throughput = ProvisionedThroughput{rcu, 10};
    Status s = db_->UpdateTable(req).status();
    db_.clock.Advance(kSecond);  // past UPDATING (no delay in tests)
    return s;
  };
  for (int64_t rcu : {9, 8, 7, 6}) ASSERT_OK(set(rcu));
  const int64_t last = db_.clock.NowMicros() - kSecond;
  Status refused = set(5);
  EXPECT_EQ(refused.code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(refused.message(),
            "Subscriber limit exceeded: Provisioned throughput decreases are limited "
            "within a given UTC day. After the first 4 decreases, each subsequent "
            "decrease in the same UTC day can be performed at most once every 3600 "
            "seconds. Number of decreases today: 4. Last decrease at Friday, March 1, "
            "2024 at 12:00:03 AM Coordinated Universal Time. Next decrease can be made "
            "at Friday, March 1, 2024 at 1:00:03 AM Coordinated Universal Time");
  EXPECT_OK(set(11));  // increases are not limited
  db_.clock.Set(last + 3600 * kSecond);
  EXPECT_OK(set(5));
  // The controller follows: 5 RCU now, re-rated.
  EXPECT_EQ(Capacity("DDD").table.read_units_per_second, 5);
}

// --- OnDemandThroughput maxima and warm throughput ----------------------

// An on-demand table "<name>" (pk S) with `table` maxima and warm
// throughput, and with `gsi_max` a GSI "ByG" (g S) with those maxima.
CreateTableRequest OnDemandTable(const std::string& name,
                                 std::optional<OnDemandThroughput> table,
                                 std::optional<WarmThroughput> warm = {},
                                 std::optional<OnDemandThroughput> gsi_max = {}) {
  CreateTableRequest req;
  req.table_name = name;
  req.billing_mode = BillingMode::kPayPerRequest;
  req.attribute_definitions = {{"pk", AttrType::kS}};
  req.key_schema = {{"pk", KeyType::kHash}};
  req.on_demand_throughput = table;
  req.warm_throughput = warm;
  if (gsi_max) {
    req.attribute_definitions.push_back({"g", AttrType::kS});
    GlobalSecondaryIndexDef g;
    g.index_name = "ByG";
    g.key_schema = {{"g", KeyType::kHash}};
    g.projection = {ProjectionType::kKeysOnly, {}};
    g.on_demand_throughput = gsi_max;
    req.global_secondary_indexes = {g};
  }
  return req;
}

TEST_F(EngineThrottlingTest, OnDemandMaximumThrottlesWritesAndReads) {
  ASSERT_OK(db_->CreateTable(OnDemandTable("MMM", OnDemandThroughput{5, 10})).status());
  // The table serves its maximum in a second: 10 one-unit writes, 5 reads.
  Status refused;
  EXPECT_EQ(PutUntilThrottled("MMM", "k", 100, &refused), 10);
  EXPECT_EQ(refused.code(), ErrorCode::kProvisionedThroughputExceeded);
  EXPECT_THAT(refused.throttling_reasons(),
              ElementsAre(ThrottlingReason{"TableWriteMaxOnDemandThroughputExceeded",
                                           std::string(kArn) + "MMM"}));
  ReadUnits("MMM", 5);
  auto get = Get("MMM", "missing");
  EXPECT_THAT(get.status().throttling_reasons(),
              ElementsAre(ThrottlingReason{"TableReadMaxOnDemandThroughputExceeded",
                                           std::string(kArn) + "MMM"}));
  EXPECT_EQ(Capacity("MMM").table.write_units_per_second, 10);
  // The next second serves 10 more.
  db_.clock.Advance(kSecond);
  EXPECT_EQ(PutUntilThrottled("MMM", "n", 100, &refused), 10);
  // -1 removes the maximum: the table serves its warm throughput again.
  UpdateTableRequest up;
  up.table_name = "MMM";
  up.on_demand_throughput = OnDemandThroughput{std::nullopt, -1};
  ASSERT_OK(db_->UpdateTable(up).status());
  db_.clock.Advance(kSecond);
  EXPECT_EQ(PutUntilThrottled("MMM", "o", 100, &refused), 100);
  EXPECT_EQ(Capacity("MMM").table.write_units_per_second, 4000);
  EXPECT_EQ(Capacity("MMM").table.read_units_per_second, 5);
}

TEST_F(EngineThrottlingTest, GsiOnDemandMaximumThrottlesTheTableWrite) {
  ASSERT_OK(db_->CreateTable(OnDemandTable("GMX", {}, {},
                                           OnDemandThroughput{std::nullopt, 3}))
                .status());
  Status refused;
  EXPECT_EQ(PutUntilThrottled("GMX", "k", 100, &refused, Item{{"g", S("x")}}), 3);
  EXPECT_THAT(refused.throttling_reasons(),
              ElementsAre(ThrottlingReason{"IndexWriteMaxOnDemandThroughputExceeded",
                                           std::string(kArn) + "GMX/index/ByG"}));
  // Items the index does not hold are not limited by it.
  EXPECT_EQ(PutUntilThrottled("GMX", "n", 50, &refused), 50);
  // A GSI Update raises the maximum.
  UpdateTableRequest up;
  up.table_name = "GMX";
  GlobalSecondaryIndexUpdate u;
  u.update = GlobalSecondaryIndexUpdate::UpdateAction{
      "ByG", std::nullopt, OnDemandThroughput{std::nullopt, 20}, std::nullopt};
  up.global_secondary_index_updates = std::vector{u};
  ASSERT_OK(db_->UpdateTable(up).status());
  db_.clock.Advance(kSecond);
  EXPECT_EQ(PutUntilThrottled("GMX", "m", 100, &refused, Item{{"g", S("x")}}), 20);
}

TEST_F(EngineThrottlingTest, WarmThroughputIsTheInitialOnDemandCapacity) {
  ASSERT_OK(db_->CreateTable(OnDemandTable("DEF", {})).status());
  ASSERT_OK(db_->CreateTable(OnDemandTable("WRM", {}, WarmThroughput{15000, 40000}))
                .status());
  // The default: 12,000 / 4,000 units, on 4 partitions (3,000 / 1,000 each).
  EXPECT_EQ(Capacity("DEF").table.write_units_per_second, 4000);
  EXPECT_EQ(Capacity("DEF").table.partitions.size(), 4u);
  // Warm 15,000 / 40,000: 40 partitions from the start.
  TableThroughputStats warm = Capacity("WRM");
  EXPECT_EQ(warm.table.read_units_per_second, 15000);
  EXPECT_EQ(warm.table.write_units_per_second, 40000);
  EXPECT_EQ(warm.table.partitions.size(), 40u);
  // Raised by UpdateTable, the table splits to serve it.
  UpdateTableRequest up;
  up.table_name = "DEF";
  up.warm_throughput = WarmThroughput{std::nullopt, 8000};
  ASSERT_OK(db_->UpdateTable(up).status());
  EXPECT_EQ(Capacity("DEF").table.write_units_per_second, 8000);
  EXPECT_EQ(Capacity("DEF").table.partitions.size(), 8u);
}

class EngineThrottlingOffTest : public EngineThrottlingTest {
 protected:
  EngineThrottlingOffTest() : EngineThrottlingTest(TestEngine::Options()) {}
};

TEST_F(EngineThrottlingOffTest, OffByDefault) {
  Create("TTT", 1, 5);
  EXPECT_FALSE(db_->throttling());
  Status refused;
  EXPECT_EQ(PutUntilThrottled("TTT", "a", 2000, &refused), 2000);
  ReadUnits("TTT", 400);
  const TableThroughputStats stats = Capacity("TTT");
  EXPECT_EQ(stats.table.total.consumed_write_units, 2000);
  EXPECT_EQ(stats.table.total.consumed_read_units, 400);
  EXPECT_EQ(db_->DescribeCapacity(Scope(), "Nope").status().code(),
            ErrorCode::kResourceNotFound);
}

TEST(EngineThrottlingSplitTest, SizeSplitsAndReopen) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("dynarock_throttling_split_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  SimulatedClock clock;
  EngineOptions options;
  options.path = dir.string();
  options.clock = &clock;
  options.table_create_delay_micros = 0;
  options.capacity.split_size_bytes = 64 * kKB;
  auto sums = [](const ResourceStats& r, int64_t* items, int64_t* bytes) {
    *items = *bytes = 0;
    for (const auto& p : r.partitions) {
      *items += p.items;
      *bytes += p.bytes;
    }
  };
  size_t partitions = 0;
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    CreateTableRequest req;
    req.table_name = "SSS";
    req.attribute_definitions = {{"pk", AttrType::kS}};
    req.key_schema = {{"pk", KeyType::kHash}};
    req.billing_mode = BillingMode::kPayPerRequest;
    ASSERT_OK(db->CreateTable(req).status());
    const size_t initial = db->DescribeCapacity(Scope(), "SSS")->table.partitions.size();
    for (int i = 0; i < 600; ++i) {
      PutItemRequest put;
      put.table_name = "SSS";
      put.item = Sized("k" + std::to_string(i), kKB);
      ASSERT_OK(db->PutItem(put).status());
    }
    ASSERT_OK_AND_ASSIGN(auto stats, db->DescribeCapacity(Scope(), "SSS"));
    partitions = stats.table.partitions.size();
    EXPECT_GT(partitions, initial);
    int64_t items, bytes;
    sums(stats.table, &items, &bytes);
    EXPECT_EQ(items, 600);
    EXPECT_EQ(bytes, 600 * kKB);
    for (const auto& p : stats.table.partitions) {
      EXPECT_LE(p.bytes, options.capacity.split_size_bytes);
    }
  }
  {
    ASSERT_OK_AND_ASSIGN(auto db, Engine::Open(options));
    ASSERT_OK_AND_ASSIGN(auto stats, db->DescribeCapacity(Scope(), "SSS"));
    int64_t items, bytes;
    sums(stats.table, &items, &bytes);
    EXPECT_EQ(items, 600);
    EXPECT_EQ(bytes, 600 * kKB);
    EXPECT_GE(stats.table.partitions.size(), 600 * kKB / (64 * kKB));
    for (const auto& p : stats.table.partitions) {
      EXPECT_LE(p.bytes, options.capacity.split_size_bytes);
    }
    PutItemRequest put;
    put.table_name = "SSS";
    put.item = Sized("after", kKB);
    ASSERT_OK(db->PutItem(put).status());
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock
