// The Time to Live sweeper (engine/ttl/ttl_sweeper.cc): the expiry rule,
// deletion on a simulated clock through the Engine (reads see expired items
// until the sweep, no capacity consumed, indexes and counters kept right,
// pacing and spread), and the re-check under the item's lock.
#include "engine/ttl/ttl_sweeper.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/keys/key_codec.h"
#include "engine/schema/schema.h"
#include "engine/data/item_locks.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

constexpr int64_t kSecond = 1'000'000;

Item WithExpiry(const std::string& pk, const char* sk, const AttributeValue& exp) {
  Item item = SimpleItem(pk, sk);
  item["exp"] = exp;
  return item;
}

AttributeValue N(const std::string& text) {
  return AttributeValue::N(Number::Parse(text).value());
}

// --- The rule -----------------------------------------------------------

TEST(TtlExpiryTest, ExpiryIsANumberOfEpochSeconds) {
  auto expiry = [](const AttributeValue& v) {
    Item item;
    item["exp"] = v;
    return ExpiryMicros(item, "exp");
  };
  EXPECT_EQ(expiry(N("1700000000")), 1'700'000'000 * kSecond);
  EXPECT_EQ(expiry(N("1700000000.25")), 1'700'000'000 * kSecond + 250'000);
  EXPECT_EQ(expiry(N("1.7E9")), 1'700'000'000 * kSecond);
  EXPECT_EQ(expiry(N("0.0000001")), 0);  // below a microsecond
  EXPECT_EQ(expiry(N("0")), 0);
  EXPECT_EQ(expiry(N("999999999999")), 999'999'999'999 * kSecond);
  EXPECT_EQ(expiry(N("1000000000000")), std::nullopt);  // never
  EXPECT_EQ(expiry(N("1E100")), std::nullopt);
  EXPECT_EQ(expiry(N("-5")), std::nullopt);
  EXPECT_EQ(expiry(AttributeValue::S("1700000000")), std::nullopt);
  EXPECT_EQ(expiry(AttributeValue::NS({Number::Parse("1").value()})), std::nullopt);
  EXPECT_EQ(expiry(AttributeValue::L({N("1")})), std::nullopt);
  Item none;
  EXPECT_EQ(ExpiryMicros(none, "exp"), std::nullopt);
}

TEST(TtlExpiryTest, ExpiredBeforeNowAndWithinFiveYears) {
  const int64_t now = 1'700'000'000 * kSecond;
  EXPECT_TRUE(IsExpired(now - 1, now));
  EXPECT_FALSE(IsExpired(now, now));
  EXPECT_FALSE(IsExpired(now + 1, now));
  EXPECT_TRUE(IsExpired(now - kTtlMaxAgeMicros, now));
  EXPECT_FALSE(IsExpired(now - kTtlMaxAgeMicros - 1, now));
  EXPECT_EQ(kTtlMaxAgeMicros, int64_t{5} * 365 * 86'400 * kSecond);
}

TEST(TtlExpiryTest, DeletionDelayIsAStableHashWithinTheSpread) {
  EXPECT_EQ(DeletionDelayMicros("k", 0), 0);
  const int64_t spread = 3600 * kSecond;
  int64_t distinct_low = 0;
  for (int i = 0; i < 100; ++i) {
    const std::string key = "key" + std::to_string(i);
    const int64_t d = DeletionDelayMicros(key, spread);
    EXPECT_GE(d, 0);
    EXPECT_LT(d, spread);
    EXPECT_EQ(d, DeletionDelayMicros(key, spread));
    if (d < spread / 2) ++distinct_low;
  }
  EXPECT_GT(distinct_low, 20);
  EXPECT_LT(distinct_low, 80);
}

// --- Through the Engine, on a simulated clock ------------------------------

class TtlSweeperEngineTest : public ::testing::Test {
 protected:
  static EngineOptions Options() {
    EngineOptions options = TestEngine::Options();
    options.ttl_sweep_interval_micros = 60 * kSecond;
    return options;
  }
  explicit TtlSweeperEngineTest(EngineOptions options = Options()) : db_(options) {}

  int64_t NowSeconds() { return db_.clock.NowMicros() / kSecond; }
  AttributeValue SecondsFromNow(int64_t delta) {
    return N(std::to_string(NowSeconds() + delta));
  }
  void CreateWithTtl(CreateTableRequest req) {
    ASSERT_OK(db_->CreateTable(req).status());
    UpdateTimeToLiveRequest ttl;
    ttl.table_name = req.table_name;
    ttl.specification = {true, "exp"};
    ASSERT_OK(db_->UpdateTimeToLive(ttl).status());
  }
  void Put(const Item& item, const std::string& table = "Tab") {
    PutItemRequest put;
    put.table_name = table;
    put.item = item;
    ASSERT_OK(db_->PutItem(put).status());
  }
  bool Exists(const std::string& pk, const char* sk) {
    GetItemRequest get;
    get.table_name = "Tab";
    get.key = SimpleKey(pk, sk);
    auto r = db_->GetItem(get);
    EXPECT_OK(r.status());
    return r.ok() && r->item.has_value();
  }
  TableDescription Describe(const std::string& table = "Tab") {
    DescribeTableRequest d;
    d.table_name = table;
    auto r = db_->DescribeTable(d);
    EXPECT_OK(r.status());
    return r.ok() ? *r : TableDescription();
  }
  TimeToLiveSweepResult SweepNow(const std::string& table = "Tab") {
    TimeToLiveSweepRequest req;
    req.table_name = table;
    auto r = db_->RunTimeToLiveSweep(req);
    EXPECT_OK(r.status());
    return r.ok() ? *r : TimeToLiveSweepResult();
  }

  TestEngine db_;
};

TEST_F(TtlSweeperEngineTest, ExpiredItemsAreReadUntilTheSweepThenDeleted) {
  CreateWithTtl(SimpleTable("Tab"));
  Put(WithExpiry("expired", "1", SecondsFromNow(-10)));
  Put(WithExpiry("fraction", "1", N(std::to_string(NowSeconds() - 1) + ".5")));
  Put(WithExpiry("almost5y", "1", SecondsFromNow(-(5 * 365 - 1) * 86'400)));
  Put(WithExpiry("future", "1", SecondsFromNow(3600)));
  Put(WithExpiry("over5y", "1", SecondsFromNow(-(5 * 365 + 1) * 86'400)));
  Put(WithExpiry("string", "1", AttributeValue::S(std::to_string(NowSeconds() - 10))));
  Put(WithExpiry("set", "1", AttributeValue::NS({Number::Parse("1").value()})));
  Put(SimpleItem("absent", "1"));
  // Past expiry but not yet swept: read as any item, as in DynamoDB.
  EXPECT_TRUE(Exists("expired", "1"));
  EXPECT_EQ(Describe().item_count, 8);

  db_.clock.Advance(60 * kSecond);  // the next sweep is due
  EXPECT_EQ(Describe().item_count, 5);
  EXPECT_FALSE(Exists("expired", "1"));
  EXPECT_FALSE(Exists("fraction", "1"));
  EXPECT_FALSE(Exists("almost5y", "1"));
  for (const char* kept : {"future", "over5y", "string", "set", "absent"}) {
    EXPECT_TRUE(Exists(kept, "1")) << kept;
  }

  // The future item's time comes.
  db_.clock.Advance(3600 * kSecond);
  EXPECT_EQ(Describe().item_count, 4);
  EXPECT_FALSE(Exists("future", "1"));
  ASSERT_OK(db_->VerifyIndexes(Scope(), "Tab"));
}

// An idle engine (no request at all) deletes when its due work runs, as
// `dynarock serve`'s timer runs it: the REMOVE stream record carries the
// time of RunDueWork, not of the later call that reads it.
TEST_F(TtlSweeperEngineTest, RunDueWorkSweepsWithoutARequest) {
  CreateTableRequest req = SimpleTable("Tab");
  req.stream_specification = StreamSpecification{true, StreamViewType::kKeysOnly};
  CreateWithTtl(req);
  Put(WithExpiry("expired", "1", SecondsFromNow(-10)));
  db_.clock.Advance(60 * kSecond);
  const int64_t swept_at = db_.clock.NowMicros();
  db_->RunDueWork();
  db_.clock.Advance(3600 * kSecond);
  DescribeTableRequest dt;
  dt.table_name = "Tab";
  const std::string arn = db_->DescribeTable(dt)->latest_stream_arn;
  DescribeStreamRequest ds;
  ds.stream_arn = arn;
  std::vector<StreamRecord> removes;
  ASSERT_OK_AND_ASSIGN(StreamDescription described, db_->DescribeStream(ds));
  for (const ShardDescription& shard : described.shards) {
    GetShardIteratorRequest it;
    it.stream_arn = arn;
    it.shard_id = shard.shard_id;
    GetRecordsRequest get;
    ASSERT_OK_AND_ASSIGN(get.shard_iterator, db_->GetShardIterator(it));
    ASSERT_OK_AND_ASSIGN(GetRecordsResult got, db_->GetRecords(get));
    for (StreamRecord& r : got.records) {
      if (r.event_name == StreamEventName::kRemove) removes.push_back(std::move(r));
    }
  }
  ASSERT_EQ(removes.size(), 1u);
  EXPECT_EQ(removes[0].approximate_creation_micros, swept_at);
  EXPECT_FALSE(Exists("expired", "1"));
}

TEST_F(TtlSweeperEngineTest, DeletesConsumeNoCapacity) {
  CreateWithTtl(SimpleTable("Tab"));
  for (int i = 0; i < 10; ++i) {
    Put(WithExpiry("p" + std::to_string(i), "1", SecondsFromNow(-1)));
  }
  ASSERT_OK_AND_ASSIGN(TableThroughputStats before, db_->DescribeCapacity(Scope(), "Tab"));
  const int64_t bytes_before = Describe().table_size_bytes;
  EXPECT_GT(bytes_before, 0);
  EXPECT_EQ(SweepNow().deleted_items, 10);
  ASSERT_OK_AND_ASSIGN(TableThroughputStats after, db_->DescribeCapacity(Scope(), "Tab"));
  EXPECT_EQ(after.table.total.consumed_write_units,
            before.table.total.consumed_write_units);
  EXPECT_EQ(after.table.total.consumed_read_units,
            before.table.total.consumed_read_units);
  EXPECT_EQ(Describe().item_count, 0);
  EXPECT_EQ(Describe().table_size_bytes, 0);
  // The partitions' sizes followed the deletes.
  int64_t items = 0;
  for (const PartitionStats& p : after.table.partitions) items += p.items;
  EXPECT_EQ(items, 0);
}

// CloudWatch's TimeToLiveDeletedItemCount: each delete is counted in the
// second it ran and in its item's partition; nothing else counts.
TEST_F(TtlSweeperEngineTest, DeletionsAreCountedPerSecondAndPartition) {
  CreateWithTtl(SimpleTable("Tab"));
  for (int i = 0; i < 7; ++i) {
    Put(WithExpiry("p" + std::to_string(i), "1", SecondsFromNow(-1)));
  }
  Put(WithExpiry("later", "1", SecondsFromNow(30)));
  ASSERT_OK_AND_ASSIGN(TableThroughputStats before, db_->DescribeCapacity(Scope(), "Tab"));
  EXPECT_EQ(before.table.total.ttl_deleted_items, 0);
  EXPECT_EQ(SweepNow().deleted_items, 7);
  ASSERT_OK_AND_ASSIGN(TableThroughputStats swept, db_->DescribeCapacity(Scope(), "Tab"));
  EXPECT_EQ(swept.table.last_second.ttl_deleted_items, 7);
  EXPECT_EQ(swept.table.last_minute.ttl_deleted_items, 7);
  EXPECT_EQ(swept.table.total.ttl_deleted_items, 7);
  int64_t in_partitions = 0;
  for (const PartitionStats& p : swept.table.partitions) in_partitions += p.total.ttl_deleted_items;
  EXPECT_EQ(in_partitions, 7);

  // A minute later the last second is empty; the total keeps them, and the
  // next deletion adds one.
  db_.clock.Advance(45 * kSecond);
  EXPECT_EQ(SweepNow().deleted_items, 1);
  ASSERT_OK_AND_ASSIGN(TableThroughputStats later, db_->DescribeCapacity(Scope(), "Tab"));
  EXPECT_EQ(later.table.last_second.ttl_deleted_items, 1);
  EXPECT_EQ(later.table.last_minute.ttl_deleted_items, 8);
  EXPECT_EQ(later.table.total.ttl_deleted_items, 8);
  db_.clock.Advance(61 * kSecond);
  ASSERT_OK_AND_ASSIGN(TableThroughputStats quiet, db_->DescribeCapacity(Scope(), "Tab"));
  EXPECT_EQ(quiet.table.last_minute.ttl_deleted_items, 0);
  EXPECT_EQ(quiet.table.total.ttl_deleted_items, 8);
}

TEST_F(TtlSweeperEngineTest, DeletesAreNeverThrottled) {
  CreateTableRequest req = SimpleTable("Tab");
  req.billing_mode = BillingMode::kProvisioned;
  req.provisioned_throughput = ProvisionedThroughput{1, 1};
  CreateWithTtl(req);
  for (int i = 0; i < 5; ++i) {
    Put(WithExpiry("p" + std::to_string(i), "1", SecondsFromNow(-1)));
  }
  // Exhaust the table's write capacity (1 WCU, 300 s of burst).
  db_->SetThrottling(true);
  bool throttled = false;
  for (int i = 0; i < 2000 && !throttled; ++i) {
    PutItemRequest put;
    put.table_name = "Tab";
    put.item = SimpleItem("filler", std::to_string(i).c_str());
    throttled = db_->PutItem(put).status().code() ==
                ErrorCode::kProvisionedThroughputExceeded;
  }
  ASSERT_TRUE(throttled);
  EXPECT_EQ(SweepNow().deleted_items, 5);
  for (int i = 0; i < 5; ++i) EXPECT_FALSE(Exists("p" + std::to_string(i), "1"));
}

TEST_F(TtlSweeperEngineTest, IndexEntriesGoWithTheItems) {
  CreateTableRequest req = SimpleTable("Tab");
  req.attribute_definitions.push_back({"g", AttrType::kS});
  GlobalSecondaryIndexDef gsi;
  gsi.index_name = "byG";
  gsi.key_schema = {{"g", KeyType::kHash}};
  gsi.projection.type = ProjectionType::kAll;
  req.global_secondary_indexes.push_back(gsi);
  LocalSecondaryIndexDef lsi;
  lsi.index_name = "byGLocal";
  lsi.key_schema = {{"pk", KeyType::kHash}, {"g", KeyType::kRange}};
  lsi.projection.type = ProjectionType::kKeysOnly;
  req.local_secondary_indexes.push_back(lsi);
  CreateWithTtl(req);
  for (int i = 0; i < 6; ++i) {
    Item item = WithExpiry("p", std::to_string(i).c_str(),
                           SecondsFromNow(i % 2 == 0 ? -1 : 3600));
    item["g"] = AttributeValue::S("G");
    Put(item);
  }
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  EXPECT_EQ(SweepNow().deleted_items, 3);
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  QueryRequest q;
  q.table_name = "Tab";
  q.key_condition_expression = "g = :g";
  q.read.index_name = "byG";
  q.read.expression_attribute_values.emplace();
  (*q.read.expression_attribute_values)[":g"] = AttributeValue::S("G");
  ASSERT_OK_AND_ASSIGN(QueryResult page, db_->Query(q));
  EXPECT_EQ(page.items.size(), 3u);
  q.read.index_name = "byGLocal";
  q.key_condition_expression = "pk = :p";
  q.read.expression_attribute_values.emplace();
  (*q.read.expression_attribute_values)[":p"] = AttributeValue::S("p");
  ASSERT_OK_AND_ASSIGN(page, db_->Query(q));
  EXPECT_EQ(page.items.size(), 3u);
  ASSERT_OK(db_->VerifyIndexes(Scope(), "Tab"));
}

TEST_F(TtlSweeperEngineTest, DisabledTtlDeletesNothing) {
  CreateWithTtl(SimpleTable("Tab"));
  Put(WithExpiry("a", "1", SecondsFromNow(-1)));
  UpdateTimeToLiveRequest off;
  off.table_name = "Tab";
  off.specification = {false, "exp"};
  ASSERT_OK(db_->UpdateTimeToLive(off).status());
  EXPECT_EQ(SweepNow().deleted_items, 0);
  db_.clock.Advance(120 * kSecond);
  EXPECT_TRUE(Exists("a", "1"));
  // Every TTL table of the scope when no table is named: none here.
  ASSERT_OK_AND_ASSIGN(TimeToLiveSweepResult all,
                       db_->RunTimeToLiveSweep(TimeToLiveSweepRequest()));
  EXPECT_EQ(all.scanned_items, 0);
}

class TtlSweeperPacingTest : public TtlSweeperEngineTest {
 protected:
  static EngineOptions Options() {
    EngineOptions options = TtlSweeperEngineTest::Options();
    options.ttl_sweep_chunk_items = 2;
    return options;
  }
  TtlSweeperPacingTest() : TtlSweeperEngineTest(Options()) {}
};

TEST_F(TtlSweeperPacingTest, EachCallAdvancesTheSweepByAChunk) {
  CreateWithTtl(SimpleTable("Tab"));
  for (int i = 0; i < 5; ++i) {
    Put(WithExpiry("p" + std::to_string(i), "1", SecondsFromNow(-1)));
  }
  db_.clock.Advance(60 * kSecond);
  EXPECT_EQ(Describe().item_count, 3);
  EXPECT_EQ(Describe().item_count, 1);
  EXPECT_EQ(Describe().item_count, 0);
}

class TtlSweeperSpreadTest : public TtlSweeperEngineTest {
 protected:
  static EngineOptions Options() {
    EngineOptions options = TtlSweeperEngineTest::Options();
    options.ttl_deletion_spread_micros = 3600 * kSecond;
    return options;
  }
  TtlSweeperSpreadTest() : TtlSweeperEngineTest(Options()) {}
};

TEST_F(TtlSweeperSpreadTest, DeletionsSpreadOverTheConfiguredTime) {
  CreateWithTtl(SimpleTable("Tab"));
  for (int i = 0; i < 100; ++i) {
    Put(WithExpiry("p" + std::to_string(i), "1", SecondsFromNow(0)));
  }
  db_.clock.Advance(1);
  EXPECT_EQ(SweepNow().deleted_items, 0);
  // Half the spread later, about half are gone (the due sweep ran).
  db_.clock.Advance(1800 * kSecond);
  const int64_t left = Describe().item_count;
  EXPECT_GT(left, 10);
  EXPECT_LT(left, 90);
  EXPECT_EQ(SweepNow().deleted_items, 0);  // nothing more is due yet
  db_.clock.Advance(1800 * kSecond);
  EXPECT_EQ(Describe().item_count, 0);
}

// --- The re-check under the item's lock ------------------------------------

TEST(TtlSweeperTest, AnItemGivenALaterExpiryBeforeItsDeleteStays) {
  StoreOptions o;
  o.in_memory = true;
  ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
  ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
  TableInfo info;
  info.desc.table_name = "T";
  info.desc.key_schema = {{"pk", KeyType::kHash}};
  info.desc.attribute_definitions = {{"pk", AttrType::kS}};
  info.key = ResolveKeyDef(info.desc.key_schema, info.desc.attribute_definitions);
  info.ttl.enabled = true;
  info.ttl.attribute_name = "exp";
  ASSERT_OK_AND_ASSIGN(auto table, catalog->Create(info));
  ItemLocks locks;
  WritePath path(store.get(), &locks);
  SimulatedClock clock;
  const int64_t now_s = clock.NowMicros() / kSecond;
  auto put = [&](const std::string& pk, int64_t exp) {
    Item item;
    item["pk"] = AttributeValue::S(pk);
    item["exp"] = N(std::to_string(exp));
    return path
        .Apply(*table, keys::ItemKey(table->id, item["pk"], nullptr),
               [item](const std::optional<Item>&) {
                 return Result<ItemChange>(ItemChange{item, false});
               })
        .status();
  };
  ASSERT_OK(put("renewed", now_s - 5));
  ASSERT_OK(put("expired", now_s - 5));
  TtlSweeper sweeper(TtlSweeperOptions(), &clock, catalog.get(), store.get(), &path);
  const std::string renewed_key =
      keys::ItemKey(table->id, AttributeValue::S("renewed"), nullptr);
  int hooks = 0;
  sweeper.TEST_SetBeforeDelete([&](const std::string& key) {
    ++hooks;
    if (key == renewed_key) {
      ASSERT_OK(put("renewed", now_s + 3600));
    }
  });
  ASSERT_OK_AND_ASSIGN(TimeToLiveSweepResult r, sweeper.SweepNow({table}));
  EXPECT_EQ(hooks, 2);
  EXPECT_EQ(r.scanned_items, 2);
  EXPECT_EQ(r.deleted_items, 1);
  ASSERT_OK_AND_ASSIGN(auto renewed, ReadItem(*store, renewed_key));
  EXPECT_TRUE(renewed.has_value());
  ASSERT_OK_AND_ASSIGN(
      auto expired,
      ReadItem(*store, keys::ItemKey(table->id, AttributeValue::S("expired"), nullptr)));
  EXPECT_FALSE(expired.has_value());
  EXPECT_EQ(table->stats->item_count.load(), 1);
}

}  // namespace
}  // namespace dynarock
