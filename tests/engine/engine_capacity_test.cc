// Capacity metering through the public Engine interface, with the developer
// guide's worked examples: what each operation reports in
// `consumed_capacity` and where `capacity_charges` place the units.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/engine.h"
#include "engine/keys/key_codec.h"
#include "engine/value/item_size.h"
#include "tests/engine/expr/expr_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using namespace expr::testing;  // NOLINT: value builders

constexpr int64_t kKB = 1024;

// An item of "Tbl" (pk S, sk S) of exactly `bytes` bytes, padded with "d".
Item Sized(const std::string& pk, const std::string& sk, int64_t bytes) {
  Item item{{"pk", S(pk)}, {"sk", S(sk)}, {"d", S("")}};
  const int64_t pad = bytes - ItemSize(item);
  EXPECT_GE(pad, 0);
  item["d"] = S(std::string(static_cast<size_t>(pad), 'x'));
  return item;
}

uint64_t Hash(const std::string& pk) { return keys::PartitionHash(S(pk)); }

// "Tab": pk S, sk S; GSI "ByG" (g S, gs N, INCLUDE [inc]); GSI "KeysOnly"
// (g S, KEYS_ONLY); LSI "ByL" (pk, l S, KEYS_ONLY).
CreateTableRequest TableWithIndexes() {
  CreateTableRequest req;
  req.table_name = "Tab";
  req.attribute_definitions = {{"pk", AttrType::kS}, {"sk", AttrType::kS},
                               {"g", AttrType::kS},  {"gs", AttrType::kN},
                               {"l", AttrType::kS}};
  req.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  GlobalSecondaryIndexDef by_g;
  by_g.index_name = "ByG";
  by_g.key_schema = {{"g", KeyType::kHash}, {"gs", KeyType::kRange}};
  by_g.projection = {ProjectionType::kInclude, {"inc"}};
  GlobalSecondaryIndexDef keys_only;
  keys_only.index_name = "KeysOnly";
  keys_only.key_schema = {{"g", KeyType::kHash}};
  keys_only.projection = {ProjectionType::kKeysOnly, {}};
  req.global_secondary_indexes = {by_g, keys_only};
  LocalSecondaryIndexDef by_l;
  by_l.index_name = "ByL";
  by_l.key_schema = {{"pk", KeyType::kHash}, {"l", KeyType::kRange}};
  by_l.projection = {ProjectionType::kKeysOnly, {}};
  req.local_secondary_indexes = {by_l};
  req.billing_mode = BillingMode::kPayPerRequest;
  return req;
}

class EngineCapacityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"Tbl", "Ubl"}) {
      CreateTableRequest req;
      req.table_name = name;
      req.attribute_definitions = {{"pk", AttrType::kS}, {"sk", AttrType::kS}};
      req.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
      req.billing_mode = BillingMode::kPayPerRequest;
      ASSERT_OK(db_->CreateTable(req).status());
    }
    ASSERT_OK(db_->CreateTable(TableWithIndexes()).status());
  }

  Result<PutItemResult> Put(Item item, const std::string& table = "Tbl") {
    PutItemRequest req;
    req.table_name = table;
    req.item = std::move(item);
    return db_->PutItem(req);
  }
  Result<GetItemResult> Get(const std::string& pk, bool consistent,
                            std::optional<std::string> projection = std::nullopt) {
    GetItemRequest req;
    req.table_name = "Tbl";
    req.key = Item{{"pk", S(pk)}, {"sk", S("s")}};
    req.consistent_read = consistent;
    req.projection_expression = std::move(projection);
    return db_->GetItem(req);
  }
  Result<UpdateItemResult> Update(const std::string& table, const Item& key,
                                  const std::string& expression,
                                  ExpressionAttributeValues values) {
    UpdateItemRequest req;
    req.table_name = table;
    req.key = key;
    req.update_expression = expression;
    req.expression_attribute_values = std::move(values);
    return db_->UpdateItem(req);
  }
  static QueryRequest QueryT(const std::string& pk, bool consistent) {
    QueryRequest req;
    req.table_name = "Tbl";
    req.key_condition_expression = "pk = :p";
    req.read.expression_attribute_values = ExpressionAttributeValues{{":p", S(pk)}};
    req.read.consistent_read = consistent;
    return req;
  }
  static Item IndexedItem(const std::string& pk, const std::string& g,
                          const std::string& inc = "i") {
    return Item{{"pk", S(pk)}, {"sk", S("s")}, {"g", S(g)}, {"gs", N("1")},
                {"l", S("l")}, {"inc", S(inc)}, {"ox", S("o")}};
  }
  static Item IndexedKey(const std::string& pk) {
    return Item{{"pk", S(pk)}, {"sk", S("s")}};
  }

  TestEngine db_;
};

// --- GetItem ----------------------------------------------------------------

TEST_F(EngineCapacityTest, GetItemRoundsTheItemUpTo4KB) {
  ASSERT_OK(Put(Sized("a", "s", 4096)).status());
  ASSERT_OK(Put(Sized("b", "s", 4097)).status());
  ASSERT_OK_AND_ASSIGN(auto a, Get("a", true));
  EXPECT_EQ(a.consumed_capacity.table.read_units, 1);
  EXPECT_EQ(a.consumed_capacity.table_name, "Tbl");
  ASSERT_OK_AND_ASSIGN(auto b, Get("b", true));
  EXPECT_EQ(b.consumed_capacity.table.read_units, 2);
  ASSERT_OK_AND_ASSIGN(auto b_eventual, Get("b", false));
  EXPECT_EQ(b_eventual.consumed_capacity.table.read_units, 1);
  EXPECT_EQ(b_eventual.consumed_capacity.Total().units(), 1);
}

TEST_F(EngineCapacityTest, GetOfMissingItemStillCostsOneRead) {
  ASSERT_OK_AND_ASSIGN(auto strong, Get("none", true));
  EXPECT_EQ(strong.consumed_capacity.table.read_units, 1);
  ASSERT_OK_AND_ASSIGN(auto eventual, Get("none", false));
  EXPECT_EQ(eventual.consumed_capacity.table.read_units, 0.5);
  ASSERT_EQ(eventual.capacity_charges.size(), 1u);
  EXPECT_EQ(eventual.capacity_charges[0].parts,
            (std::vector<PartitionUnits>{{0, Hash("none"), "{S:none}", 0.5, 0}}));
}

TEST_F(EngineCapacityTest, ProjectionDoesNotReduceAGetItem) {
  ASSERT_OK(Put(Sized("b", "s", 4097)).status());
  ASSERT_OK_AND_ASSIGN(auto r, Get("b", true, "pk"));
  ASSERT_TRUE(r.item.has_value());
  EXPECT_EQ(r.item->count("d"), 0u);
  EXPECT_EQ(r.consumed_capacity.table.read_units, 2);
}

// --- Writes -----------------------------------------------------------------

// The guide: a 3 KB item costs 3 WCU to write, even to update 300 B of it;
// a 300 B item costs 1.
TEST_F(EngineCapacityTest, UpdatingPartOfA3KBItemCosts3Units) {
  ASSERT_OK_AND_ASSIGN(auto put, Put(Sized("a", "s", 3 * kKB)));
  EXPECT_EQ(put.consumed_capacity.table.write_units, 3);
  ASSERT_OK_AND_ASSIGN(
      auto update, Update("Tbl", Item{{"pk", S("a")}, {"sk", S("s")}}, "SET e = :e",
                          {{":e", S(std::string(290, 'y'))}}));
  EXPECT_EQ(update.consumed_capacity.table.write_units, 4);  // now 3 KB + 291 B
  ASSERT_OK_AND_ASSIGN(auto small, Put(Sized("b", "s", 300)));
  EXPECT_EQ(small.consumed_capacity.table.write_units, 1);
}

TEST_F(EngineCapacityTest, PutOverABiggerItemCostsTheBiggerSize) {
  ASSERT_OK(Put(Sized("a", "s", 5 * kKB)).status());
  ASSERT_OK_AND_ASSIGN(auto put, Put(Sized("a", "s", 100)));
  EXPECT_EQ(put.consumed_capacity.table.write_units, 5);
  EXPECT_EQ(put.consumed_capacity.Total(), (Capacity{0, 5}));
}

TEST_F(EngineCapacityTest, UpdateThatCreatesTheItemCostsTheNewItem) {
  ASSERT_OK_AND_ASSIGN(
      auto r, Update("Tbl", Item{{"pk", S("a")}, {"sk", S("s")}}, "SET e = :e",
                     {{":e", S(std::string(1500, 'y'))}}));
  EXPECT_EQ(r.consumed_capacity.table.write_units, 2);
}

TEST_F(EngineCapacityTest, DeleteCostsTheDeletedItemAndOneWhenMissing) {
  ASSERT_OK(Put(Sized("a", "s", 2500)).status());
  DeleteItemRequest req;
  req.table_name = "Tbl";
  req.key = Item{{"pk", S("a")}, {"sk", S("s")}};
  ASSERT_OK_AND_ASSIGN(auto deleted, db_->DeleteItem(req));
  EXPECT_EQ(deleted.consumed_capacity.table.write_units, 3);
  ASSERT_OK_AND_ASSIGN(auto missing, db_->DeleteItem(req));
  EXPECT_EQ(missing.consumed_capacity.table.write_units, 1);
  ASSERT_EQ(missing.capacity_charges.size(), 1u);
  EXPECT_EQ(missing.capacity_charges[0].parts[0].hash, Hash("a"));
}

// --- Query and Scan ---------------------------------------------------------

// The guide's Query: 40.8 KB read is rounded once to 44 KB: 11 units.
TEST_F(EngineCapacityTest, QueryRoundsTheSumOfItemsReadOnce) {
  const int64_t total = 40 * kKB + 8 * kKB / 10;  // 41779
  for (int i = 0; i < 9; ++i) ASSERT_OK(Put(Sized("p", "s" + std::to_string(i), 4096)).status());
  ASSERT_OK(Put(Sized("p", "z", total - 9 * 4096)).status());
  ASSERT_OK(Put(Sized("other", "s", 100 * 1000)).status());
  ASSERT_OK_AND_ASSIGN(auto strong, db_->Query(QueryT("p", true)));
  EXPECT_EQ(strong.scanned_count, 10);
  EXPECT_EQ(strong.consumed_capacity.table.read_units, 11);
  ASSERT_OK_AND_ASSIGN(auto eventual, db_->Query(QueryT("p", false)));
  EXPECT_EQ(eventual.consumed_capacity.table.read_units, 5.5);
  ASSERT_EQ(eventual.capacity_charges.size(), 1u);
  EXPECT_EQ(eventual.capacity_charges[0].parts,
            (std::vector<PartitionUnits>{{0, Hash("p"), "{S:p}", 5.5, 0}}));
}

TEST_F(EngineCapacityTest, FilterSelectCountAndProjectionCostTheSame) {
  for (int i = 0; i < 3; ++i) ASSERT_OK(Put(Sized("p", "s" + std::to_string(i), 3000)).status());
  QueryRequest filtered = QueryT("p", true);
  filtered.read.filter_expression = "d = :none";
  filtered.read.expression_attribute_values->emplace(":none", S("nothing"));
  ASSERT_OK_AND_ASSIGN(auto f, db_->Query(filtered));
  EXPECT_EQ(f.count, 0);
  EXPECT_EQ(f.consumed_capacity.table.read_units, 3);  // 9000 B
  QueryRequest count = QueryT("p", true);
  count.read.select = Select::kCount;
  ASSERT_OK_AND_ASSIGN(auto c, db_->Query(count));
  EXPECT_EQ(c.consumed_capacity.table.read_units, 3);
  QueryRequest projected = QueryT("p", true);
  projected.read.projection_expression = "pk";
  ASSERT_OK_AND_ASSIGN(auto p, db_->Query(projected));
  EXPECT_EQ(p.consumed_capacity.table.read_units, 3);
}

TEST_F(EngineCapacityTest, EmptyQueryCostsOneRead) {
  ASSERT_OK_AND_ASSIGN(auto r, db_->Query(QueryT("nothing", false)));
  EXPECT_EQ(r.consumed_capacity.table.read_units, 0.5);
  EXPECT_EQ(r.capacity_charges[0].parts[0].hash, Hash("nothing"));
}

// A new on-demand table (or GSI) has four partitions, each a quarter of the
// hash ring: the position of `pk`'s.
int NewTablePartition(const std::string& pk) { return static_cast<int>(Hash(pk) >> 62); }

// Read units for `bytes` read in one partition, consistent: 4 KB each, at
// least one.
double PartitionUnits4K(int64_t bytes) {
  return static_cast<double>(std::max<int64_t>(1, (bytes + 4 * kKB - 1) / (4 * kKB)));
}

// A pk of "Tbl" in partition `partition` of four.
std::string PkInPartition(int partition) {
  for (int i = 0;; ++i) {
    const std::string pk = "k" + std::to_string(i);
    if (NewTablePartition(pk) == partition) return pk;
  }
}

TEST_F(EngineCapacityTest, ScanChargesItemsReadNotReturnedPerPartition) {
  std::array<int64_t, 4> bytes{};
  for (int i = 0; i < 4; ++i) {
    const std::string pk = "p" + std::to_string(i);
    ASSERT_OK(Put(Sized(pk, "s", 2048)).status());
    bytes[static_cast<size_t>(NewTablePartition(pk))] += 2048;
  }
  ScanRequest req;
  req.table_name = "Tbl";
  req.read.filter_expression = "d = :none";
  req.read.expression_attribute_values = ExpressionAttributeValues{{":none", S("x")}};
  req.read.consistent_read = true;
  ASSERT_OK_AND_ASSIGN(auto r, db_->Scan(req));
  EXPECT_EQ(r.count, 0);
  EXPECT_EQ(r.scanned_count, 4);
  // Each of the four partitions rounded on its own, at least 1 even empty.
  double expected = 0;
  for (int64_t b : bytes) expected += PartitionUnits4K(b);
  EXPECT_EQ(r.consumed_capacity.table.read_units, expected);
  // The charge: each item's key in its partition, an empty partition at its
  // first hash; the parts sum to what the client is told.
  ASSERT_EQ(r.capacity_charges.size(), 1u);
  double charged = 0;
  std::set<uint64_t> hashes;
  for (const PartitionUnits& p : r.capacity_charges[0].parts) {
    charged += p.read_units;
    hashes.insert(p.hash);
  }
  EXPECT_EQ(charged, expected);
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(hashes.count(Hash("p" + std::to_string(i))));
  for (size_t part = 0; part < 4; ++part) {
    if (bytes[part] == 0) {
      EXPECT_TRUE(hashes.count(uint64_t{part} << 62)) << part;
    }
  }
}

// DynamoDB reports 4 (2 eventually consistent) for a Scan of one tiny item
// on a new on-demand table, 1 (0.5) for a Query of it (Alternator's
// test_scan_consumed_capacity / test_query_consumed_capacity, run against
// DynamoDB): the Scan reads four partitions, each at least one unit.
TEST_F(EngineCapacityTest, ScanOfOneTinyItemOnANewOnDemandTableReadsFourPartitions) {
  ASSERT_OK(Put(Sized("only", "s", 100)).status());
  ScanRequest scan;
  scan.table_name = "Tbl";
  scan.read.consistent_read = true;
  ASSERT_OK_AND_ASSIGN(auto strong, db_->Scan(scan));
  EXPECT_EQ(strong.consumed_capacity.table.read_units, 4);
  scan.read.consistent_read = false;
  ASSERT_OK_AND_ASSIGN(auto eventual, db_->Scan(scan));
  EXPECT_EQ(eventual.consumed_capacity.table.read_units, 2);
  ASSERT_OK_AND_ASSIGN(auto q, db_->Query(QueryT("only", true)));
  EXPECT_EQ(q.consumed_capacity.table.read_units, 1);
  // Parallel segments: each pays for the partitions its slice crosses.
  auto segments_total = [&](int64_t total) {
    double units = 0;
    for (int64_t seg = 0; seg < total; ++seg) {
      ScanRequest s = scan;
      s.read.consistent_read = true;
      s.segment = seg;
      s.total_segments = total;
      auto r = db_->Scan(s);
      EXPECT_OK(r.status());
      if (r.ok()) units += r->consumed_capacity.table.read_units;
    }
    return units;
  };
  EXPECT_EQ(segments_total(2), 4);  // two partitions each
  EXPECT_EQ(segments_total(8), 8);  // each inside one partition
  EXPECT_EQ(segments_total(3), 6);  // 0-1, 1-2, 2-3
}

TEST_F(EngineCapacityTest, GsiAndLsiScansReadTheirPartitions) {
  ASSERT_OK(Put(IndexedItem("a", "g1"), "Tab").status());
  ScanRequest scan;
  scan.table_name = "Tab";
  scan.read.index_name = "KeysOnly";  // a new on-demand GSI: four partitions
  ASSERT_OK_AND_ASSIGN(auto gsi, db_->Scan(scan));
  EXPECT_EQ(gsi.consumed_capacity.global_secondary_indexes.at("KeysOnly").read_units, 2);
  scan.read.index_name = "ByL";  // in the table's four partitions
  scan.read.consistent_read = true;
  ASSERT_OK_AND_ASSIGN(auto lsi, db_->Scan(scan));
  EXPECT_EQ(lsi.consumed_capacity.local_secondary_indexes.at("ByL").read_units, 4);
}

// A provisioned 5 / 5 table has one partition: a Scan rounds once, as
// dynalite's recordings of DynamoDB show (a 1 MB page: 128 / 127.5 units).
TEST_F(EngineCapacityTest, ScanOfAOnePartitionTableRoundsOnce) {
  CreateTableRequest create;
  create.table_name = "Prov";
  create.attribute_definitions = {{"pk", AttrType::kS}, {"sk", AttrType::kS}};
  create.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  create.billing_mode = BillingMode::kProvisioned;
  create.provisioned_throughput = ProvisionedThroughput{5, 5};
  ASSERT_OK(db_->CreateTable(create).status());
  for (int i = 0; i < 4; ++i) {
    ASSERT_OK(Put(Sized("p" + std::to_string(i), "s", 2048), "Prov").status());
  }
  ScanRequest scan;
  scan.table_name = "Prov";
  scan.read.consistent_read = true;
  ASSERT_OK_AND_ASSIGN(auto r, db_->Scan(scan));
  EXPECT_EQ(r.consumed_capacity.table.read_units, 2);  // 8 KB
  scan.read.consistent_read = false;
  ASSERT_OK_AND_ASSIGN(auto e, db_->Scan(scan));
  EXPECT_EQ(e.consumed_capacity.table.read_units, 1);
}

// A page that stops at its Limit has gone over the partitions up to its last
// item; the next page resumes in that partition.
TEST_F(EngineCapacityTest, ScanPageStoppedByLimitPaysUpToItsLastItem) {
  const std::string pk = PkInPartition(2);
  ASSERT_OK(Put(Sized(pk, "s", 100)).status());
  ScanRequest scan;
  scan.table_name = "Tbl";
  scan.read.consistent_read = true;
  scan.read.limit = 1;
  ASSERT_OK_AND_ASSIGN(auto first, db_->Scan(scan));
  ASSERT_TRUE(first.last_evaluated_key.has_value());
  EXPECT_EQ(first.consumed_capacity.table.read_units, 3);  // partitions 0, 1, 2
  scan.read.exclusive_start_key = first.last_evaluated_key;
  ASSERT_OK_AND_ASSIGN(auto rest, db_->Scan(scan));
  EXPECT_FALSE(rest.last_evaluated_key.has_value());
  EXPECT_EQ(rest.consumed_capacity.table.read_units, 2);  // partitions 2, 3
}

// --- Batches ----------------------------------------------------------------

// The guide: 1.5 KB + 6.5 KB read by BatchGetItem = 4 KB + 8 KB = 3 units.
TEST_F(EngineCapacityTest, BatchGetItemRoundsEachItem) {
  ASSERT_OK(Put(Sized("a", "s", 1536)).status());
  ASSERT_OK(Put(Sized("b", "s", 6656)).status());
  ASSERT_OK(Put(Sized("c", "s", 100), "Ubl").status());
  BatchGetItemRequest req;
  KeysAndAttributes t;
  t.keys = {Item{{"pk", S("a")}, {"sk", S("s")}}, Item{{"pk", S("b")}, {"sk", S("s")}}};
  t.consistent_read = true;
  t.projection_expression = "pk";
  KeysAndAttributes u;
  u.keys = {Item{{"pk", S("c")}, {"sk", S("s")}}, Item{{"pk", S("missing")}, {"sk", S("s")}}};
  req.request_items = {{"Tbl", t}, {"Ubl", u}};
  ASSERT_OK_AND_ASSIGN(auto r, db_->BatchGetItem(req));
  ASSERT_EQ(r.consumed_capacity.size(), 2u);
  EXPECT_EQ(r.consumed_capacity[0].table_name, "Tbl");
  EXPECT_EQ(r.consumed_capacity[0].table.read_units, 3);
  EXPECT_EQ(r.consumed_capacity[1].table_name, "Ubl");
  EXPECT_EQ(r.consumed_capacity[1].table.read_units, 1);  // 0.5 + 0.5 (missing)
  ASSERT_EQ(r.capacity_charges.size(), 2u);
  EXPECT_EQ(r.capacity_charges[0].parts.size(), 2u);
  EXPECT_EQ(r.capacity_charges[1].parts[1].hash, Hash("missing"));
}

TEST_F(EngineCapacityTest, BatchWriteItemRoundsEachRequest) {
  ASSERT_OK(Put(Sized("old", "s", 3000), "Ubl").status());
  BatchWriteItemRequest req;
  std::vector<WriteRequest> t(2), u(1);
  t[0].put_item = Sized("a", "s", 1536);
  t[1].put_item = Sized("b", "s", 512);
  u[0].delete_key = Item{{"pk", S("old")}, {"sk", S("s")}};
  req.request_items = {{"Tbl", t}, {"Ubl", u}};
  ASSERT_OK_AND_ASSIGN(auto r, db_->BatchWriteItem(req));
  ASSERT_EQ(r.consumed_capacity.size(), 2u);
  EXPECT_EQ(r.consumed_capacity[0].table_name, "Tbl");
  EXPECT_EQ(r.consumed_capacity[0].table.write_units, 3);  // 2 + 1, not 2
  EXPECT_EQ(r.consumed_capacity[1].table.write_units, 3);
  EXPECT_EQ(r.capacity_charges[0].parts.size(), 2u);
  EXPECT_EQ(r.capacity_charges[1].parts[0].hash, Hash("old"));
}

// --- Indexes ----------------------------------------------------------------

TEST_F(EngineCapacityTest, NewItemWritesEveryIndexEntry) {
  ASSERT_OK_AND_ASSIGN(auto r, Put(IndexedItem("a", "g1"), "Tab"));
  const ConsumedCapacity& c = r.consumed_capacity;
  EXPECT_EQ(c.table.write_units, 1);
  EXPECT_EQ(c.global_secondary_indexes.at("ByG").write_units, 1);
  EXPECT_EQ(c.global_secondary_indexes.at("KeysOnly").write_units, 1);
  EXPECT_EQ(c.local_secondary_indexes.at("ByL").write_units, 1);
  EXPECT_EQ(c.Total().write_units, 4);
  ASSERT_EQ(r.capacity_charges.size(), 1u);
  const auto& parts = r.capacity_charges[0].parts;
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts[0].index_id, 0u);
  EXPECT_EQ(parts[0].hash, Hash("a"));
  // GSI parts are on the GSI partition key; the LSI's on the table's.
  std::set<uint32_t> ids;
  for (size_t i = 1; i < parts.size(); ++i) {
    EXPECT_NE(parts[i].index_id, 0u);
    ids.insert(parts[i].index_id);
  }
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_EQ(std::count_if(parts.begin(), parts.end(),
                          [](const PartitionUnits& p) { return p.hash == Hash("g1"); }),
            2);
  EXPECT_EQ(r.capacity_charges[0].Total(), c.Total());
}

TEST_F(EngineCapacityTest, GsiKeyChangeIsADeleteAndAPut) {
  ASSERT_OK(Put(IndexedItem("a", "g1"), "Tab").status());
  ASSERT_OK_AND_ASSIGN(auto r, Update("Tab", IndexedKey("a"), "SET g = :g", {{":g", S("g2")}}));
  const ConsumedCapacity& c = r.consumed_capacity;
  EXPECT_EQ(c.table.write_units, 1);
  EXPECT_EQ(c.global_secondary_indexes.at("ByG").write_units, 2);
  EXPECT_EQ(c.global_secondary_indexes.at("KeysOnly").write_units, 2);
  EXPECT_TRUE(c.local_secondary_indexes.empty());  // its entry did not change
  const auto& parts = r.capacity_charges[0].parts;
  ASSERT_EQ(parts.size(), 5u);
  EXPECT_EQ(std::count_if(parts.begin(), parts.end(),
                          [](const PartitionUnits& p) { return p.hash == Hash("g1"); }),
            2);
  EXPECT_EQ(std::count_if(parts.begin(), parts.end(),
                          [](const PartitionUnits& p) { return p.hash == Hash("g2"); }),
            2);
}

TEST_F(EngineCapacityTest, WriteNotTouchingAnIndexDoesNotListIt) {
  ASSERT_OK(Put(IndexedItem("a", "g1"), "Tab").status());
  ASSERT_OK_AND_ASSIGN(auto r, Update("Tab", IndexedKey("a"), "SET ox = :o", {{":o", S("p")}}));
  EXPECT_TRUE(r.consumed_capacity.global_secondary_indexes.empty());
  EXPECT_TRUE(r.consumed_capacity.local_secondary_indexes.empty());
  EXPECT_EQ(r.capacity_charges[0].parts.size(), 1u);
  // A projected attribute: only the index that projects it.
  ASSERT_OK_AND_ASSIGN(auto inc, Update("Tab", IndexedKey("a"), "SET inc = :i",
                                        {{":i", S(std::string(1500, 'i'))}}));
  EXPECT_EQ(inc.consumed_capacity.global_secondary_indexes.size(), 1u);
  EXPECT_EQ(inc.consumed_capacity.global_secondary_indexes.at("ByG").write_units, 2);
}

TEST_F(EngineCapacityTest, DeleteRemovesEveryIndexEntry) {
  ASSERT_OK(Put(IndexedItem("a", "g1", std::string(2000, 'i')), "Tab").status());
  DeleteItemRequest req;
  req.table_name = "Tab";
  req.key = IndexedKey("a");
  ASSERT_OK_AND_ASSIGN(auto r, db_->DeleteItem(req));
  EXPECT_EQ(r.consumed_capacity.table.write_units, 2);
  EXPECT_EQ(r.consumed_capacity.global_secondary_indexes.at("ByG").write_units, 2);
  EXPECT_EQ(r.consumed_capacity.global_secondary_indexes.at("KeysOnly").write_units, 1);
  EXPECT_EQ(r.consumed_capacity.local_secondary_indexes.at("ByL").write_units, 1);
}

TEST_F(EngineCapacityTest, GsiQueryIsEventuallyConsistentOnTheEntrySize) {
  // Entry: pk, sk, g, gs, inc (about 5 KB); the item is 15 KB with "ox".
  Item item = IndexedItem("a", "g1", std::string(5000, 'i'));
  item["ox"] = S(std::string(10000, 'o'));
  ASSERT_OK(Put(item, "Tab").status());
  ASSERT_OK(db_->WaitUntilIndexesCaughtUp());
  QueryRequest req;
  req.table_name = "Tab";
  req.read.index_name = "ByG";
  req.key_condition_expression = "g = :g";
  req.read.expression_attribute_values = ExpressionAttributeValues{{":g", S("g1")}};
  ASSERT_OK_AND_ASSIGN(auto r, db_->Query(req));
  ASSERT_EQ(r.scanned_count, 1);
  EXPECT_EQ(r.consumed_capacity.table.read_units, 0);
  EXPECT_EQ(r.consumed_capacity.global_secondary_indexes.at("ByG").read_units, 1);  // 8 KB / 2
  EXPECT_EQ(r.consumed_capacity.Total().read_units, 1);
  const auto& parts = r.capacity_charges[0].parts;
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_NE(parts[0].index_id, 0u);
  EXPECT_EQ(parts[0].hash, Hash("g1"));
}

TEST_F(EngineCapacityTest, LsiReadFetchingFromTheTableChargesTheTable) {
  Item item = IndexedItem("a", "g1");
  item["ox"] = S(std::string(10000, 'o'));
  ASSERT_OK(Put(item, "Tab").status());
  QueryRequest req;
  req.table_name = "Tab";
  req.read.index_name = "ByL";
  req.read.consistent_read = true;
  req.read.select = Select::kAllAttributes;
  req.key_condition_expression = "pk = :p";
  req.read.expression_attribute_values = ExpressionAttributeValues{{":p", S("a")}};
  ASSERT_OK_AND_ASSIGN(auto r, db_->Query(req));
  ASSERT_EQ(r.items.size(), 1u);
  EXPECT_EQ(r.consumed_capacity.local_secondary_indexes.at("ByL").read_units, 1);
  EXPECT_EQ(r.consumed_capacity.table.read_units, 3);  // the 10 KB item
  EXPECT_EQ(r.capacity_charges[0].Total().read_units, 4);
}

// The write path remembers items' existence and size so that a plain PutItem
// need not read the item it replaces (engine/data/item_size_cache.h). Every
// kind of write, streams turned on and off, and the table deleted and made
// again, on an engine that remembers and one that does not: the same
// statuses, the same units, the same counters.
TEST(EngineItemSizeCacheTest, RememberingItemsChangesNoUnitOrCounter) {
  EngineOptions forgetful = TestEngine::Options();
  forgetful.item_size_cache_entries = 0;
  TestEngine engines[2] = {TestEngine(), TestEngine(forgetful)};
  std::mt19937 rng(112911);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  // SimpleTable("Tbl", false): pk (S) alone.
  for (TestEngine& e : engines) ASSERT_OK(e->CreateTable(SimpleTable("Tbl", false)).status());
  auto simple_key = [](int k) { return Item{{"pk", S("k" + std::to_string(k))}}; };
  auto simple_sized = [&](int k) {
    static const int64_t kSizes[] = {20, 900, 1100, 3000, 7000};
    Item item = simple_key(k);
    item["d"] = S(std::string(static_cast<size_t>(kSizes[pick(5)]), 'x'));
    return item;
  };
  for (int step = 0; step < 1500; ++step) {
    const int op = pick(9);
    const int k = pick(16);
    const Item item = simple_sized(k);
    std::vector<int> others{pick(16), pick(16)};
    if (others[0] == others[1]) others.pop_back();
    std::vector<Item> other_items;
    for (int o : others) other_items.push_back(simple_sized(o));
    const bool enable = pick(2) == 0;
    const bool recreate = pick(4) == 0;
    std::vector<ErrorCode> codes;
    std::vector<int64_t> units;
    for (TestEngine& e : engines) {
      Status status;
      int64_t u = -1;
      // The status and, on success, the table's write units (a multi-item
      // call's for its one table).
      auto take = [&](const auto& r) {
        status = r.status();
        if (!r.ok()) return;
        if constexpr (std::is_same_v<std::decay_t<decltype(r->consumed_capacity)>,
                                     ConsumedCapacity>) {
          u = r->consumed_capacity.table.write_units;
        } else {
          u = r->consumed_capacity.at(0).table.write_units;
        }
      };
      switch (op) {
        case 0: case 1: case 2: case 3: {
          PutItemRequest put;
          put.table_name = "Tbl";
          put.item = item;
          // ALL_OLD reads the old item: not answered from what is remembered.
          if (op == 3) put.return_values = ReturnValues::kAllOld;
          take(e->PutItem(put));
          break;
        }
        case 4: {
          DeleteItemRequest del;
          del.table_name = "Tbl";
          del.key = simple_key(k);
          take(e->DeleteItem(del));
          break;
        }
        case 5: {
          UpdateItemRequest update;
          update.table_name = "Tbl";
          update.key = simple_key(k);
          update.update_expression = "SET d = :d";
          update.expression_attribute_values =
              ExpressionAttributeValues{{":d", item.at("d")}};
          take(e->UpdateItem(update));
          break;
        }
        case 6: {
          BatchWriteItemRequest batch;
          std::vector<WriteRequest> writes;
          for (size_t i = 0; i < others.size(); ++i) {
            WriteRequest w;
            if (i == 0) {
              w.put_item = other_items[i];
            } else {
              w.delete_key = simple_key(others[i]);
            }
            writes.push_back(std::move(w));
          }
          batch.request_items.emplace_back("Tbl", std::move(writes));
          take(e->BatchWriteItem(batch));
          break;
        }
        case 7: {
          TransactWriteItemsRequest tx;
          for (size_t i = 0; i < others.size(); ++i) {
            TransactWriteAction w;
            w.table_name = "Tbl";
            w.kind = i == 0 ? TransactWriteAction::Kind::kPut
                            : TransactWriteAction::Kind::kDelete;
            if (i == 0) {
              w.item = other_items[i];
            } else {
              w.key = simple_key(others[i]);
            }
            tx.actions.push_back(std::move(w));
          }
          take(e->TransactWriteItems(tx));
          break;
        }
        case 8: {
          if (recreate) {
            // Deleted and made again: the same name, no items.
            DeleteTableRequest del;
            del.table_name = "Tbl";
            status = e->DeleteTable(del).status();
            if (status.ok()) status = e->CreateTable(SimpleTable("Tbl", false)).status();
          } else {
            UpdateTableRequest update;
            update.table_name = "Tbl";
            StreamSpecification spec;
            spec.stream_enabled = enable;
            if (enable) spec.stream_view_type = StreamViewType::kNewAndOldImages;
            update.stream_specification = spec;
            status = e->UpdateTable(update).status();
          }
          break;
        }
      }
      codes.push_back(status.code());
      units.push_back(u);
    }
    ASSERT_EQ(codes[0], codes[1]) << "step " << step << " op " << op;
    ASSERT_EQ(units[0], units[1]) << "step " << step << " op " << op;
    DescribeTableRequest d;
    d.table_name = "Tbl";
    ASSERT_OK_AND_ASSIGN(TableDescription a, engines[0]->DescribeTable(d));
    ASSERT_OK_AND_ASSIGN(TableDescription b, engines[1]->DescribeTable(d));
    ASSERT_EQ(a.item_count, b.item_count) << "step " << step;
    ASSERT_EQ(a.table_size_bytes, b.table_size_bytes) << "step " << step;
  }
}

}  // namespace
}  // namespace dynarock
