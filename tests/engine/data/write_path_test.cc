#include "engine/data/write_path.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>

#include "engine/keys/key_codec.h"
#include "engine/value/encoded_item.h"
#include "engine/value/item_codec.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

class WritePathTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StoreOptions o;
    o.in_memory = true;
    store_ = std::move(Store::Open(o)).value();
    table_.id = 3;
    table_.stats = std::make_shared<TableStats>();
  }

  static std::string Key(const std::string& pk) {
    return keys::ItemKey(3, AttributeValue::S(pk), nullptr);
  }
  static Item MakeItem(const std::string& pk, const std::string& v = "v") {
    Item item;
    item["pk"] = AttributeValue::S(pk);
    item["v"] = AttributeValue::S(v);
    return item;
  }
  static ItemMutation PutOf(Item item) {
    return [item](const std::optional<Item>&) { return Result<ItemChange>(ItemChange{item, false}); };
  }
  bool Exists(const std::string& pk) {
    auto r = ReadItem(*store_, Key(pk));
    return r.ok() && r->has_value();
  }

  std::unique_ptr<Store> store_;
  ItemLocks locks_;
  TableInfo table_;
};

TEST_F(WritePathTest, ApplyManyWritesAllItemsInOneBatch) {
  WritePath path(store_.get(), &locks_);
  std::vector<WritePath::ItemWrite> writes;
  for (const char* pk : {"a", "b", "c"}) writes.push_back({&table_, Key(pk), PutOf(MakeItem(pk))});
  ASSERT_OK_AND_ASSIGN(auto old, path.ApplyMany(writes));
  EXPECT_EQ(old.size(), 3u);
  EXPECT_TRUE(Exists("a") && Exists("b") && Exists("c"));
  EXPECT_EQ(table_.stats->item_count.load(), 3);
}

TEST_F(WritePathTest, ApplyManyWritesNothingWhenOneMutationFails) {
  WritePath path(store_.get(), &locks_);
  std::vector<WritePath::ItemWrite> writes;
  writes.push_back({&table_, Key("a"), PutOf(MakeItem("a"))});
  writes.push_back({&table_, Key("b"), [](const std::optional<Item>&) {
                      return Result<ItemChange>(Status::Validation("refused"));
                    }});
  writes.push_back({&table_, Key("c"), PutOf(MakeItem("c"))});
  EXPECT_THAT(path.ApplyMany(writes), StatusIs(ErrorCode::kValidation, "refused"));
  EXPECT_FALSE(Exists("a"));
  EXPECT_FALSE(Exists("c"));
  EXPECT_EQ(table_.stats->item_count.load(), 0);
}

TEST_F(WritePathTest, MutationSeesTheOldItemAndDeletesCountDown) {
  WritePath path(store_.get(), &locks_);
  ASSERT_OK(path.Apply(table_, Key("a"), PutOf(MakeItem("a", "first"))).status());
  std::optional<Item> seen;
  ASSERT_OK(path.Apply(table_, Key("a"), [&](const std::optional<Item>& old) {
                  seen = old;
                  return Result<ItemChange>(ItemChange{std::nullopt, false});
                }).status());
  ASSERT_TRUE(seen.has_value());
  EXPECT_EQ(seen->at("v"), AttributeValue::S("first"));
  EXPECT_FALSE(Exists("a"));
  EXPECT_EQ(table_.stats->item_count.load(), 0);
  EXPECT_EQ(table_.stats->size_bytes.load(), 0);
}

TEST_F(WritePathTest, OverlappingMultiItemWritersDoNotDeadlock) {
  WritePath path(store_.get(), &locks_);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        std::vector<WritePath::ItemWrite> writes;
        // Opposite orders across threads: a naive lock order would deadlock.
        for (int k = 0; k < 5; ++k) {
          const int n = (t % 2 == 0) ? k : 4 - k;
          const std::string pk = "k" + std::to_string(n);
          writes.push_back({&table_, Key(pk), PutOf(MakeItem(pk, std::to_string(i)))});
        }
        EXPECT_OK(path.ApplyMany(writes).status());
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(table_.stats->item_count.load(), 5);
}

// --- Metering -------------------------------------------------------------

TEST_F(WritePathTest, PutMetersTheLargerOfOldAndNewItem) {
  WritePath path(store_.get(), &locks_);
  table_.desc.table_name = "T";
  Metering m;
  ASSERT_OK(path.Apply(table_, Key("a"), PutOf(MakeItem("a", std::string(5000, 'x'))), &m)
                .status());
  EXPECT_EQ(m.consumed.table_name, "T");
  EXPECT_EQ(m.consumed.table.write_units, 5);  // 5009 bytes
  ASSERT_OK(path.Apply(table_, Key("a"), PutOf(MakeItem("a")), &m).status());
  EXPECT_EQ(m.consumed.table.write_units, 5);  // the old item was bigger
  ASSERT_EQ(m.charge.parts.size(), 1u);
  EXPECT_EQ(m.charge.table_id, 3u);
  EXPECT_EQ(m.charge.parts[0], PartOf(0, AttributeValue::S("a"), 0, 5));
}

// Put decodes no old item when nothing needs one; its metering, counters
// and stored bytes must be exactly Apply's: a new item, a larger and a
// smaller replacement, each through both on twin tables.
TEST_F(WritePathTest, UnconditionalPutCountsAndMetersAsApply) {
  WritePath path(store_.get(), &locks_);
  TableInfo twin;
  twin.id = 4;
  twin.stats = std::make_shared<TableStats>();
  auto twin_key = [](const std::string& pk) {
    return keys::ItemKey(4, AttributeValue::S(pk), nullptr);
  };
  for (const std::string& v : {std::string("small"), std::string(5000, 'x'), std::string("s")}) {
    const Item item = MakeItem("a", v);
    Metering applied, put;
    ASSERT_OK(path.Apply(table_, Key("a"), PutOf(item), &applied).status());
    ASSERT_OK(path.Put(twin, twin_key("a"), item, &put));
    EXPECT_EQ(put.consumed.table.write_units, applied.consumed.table.write_units) << v.size();
    ASSERT_EQ(put.charge.parts.size(), 1u);
    EXPECT_EQ(put.charge.parts[0], applied.charge.parts[0]);
    EXPECT_EQ(twin.stats->item_count.load(), table_.stats->item_count.load());
    EXPECT_EQ(twin.stats->size_bytes.load(), table_.stats->size_bytes.load());
    ASSERT_OK_AND_ASSIGN(std::optional<Item> stored, ReadItem(*store_, twin_key("a")));
    EXPECT_EQ(stored, std::optional<Item>(item));
  }
  EXPECT_EQ(twin.stats->item_count.load(), 1);
}

TEST_F(WritePathTest, FailedConditionStillConsumesTheOldItem) {
  WritePath path(store_.get(), &locks_);
  ASSERT_OK(path.Apply(table_, Key("a"), PutOf(MakeItem("a", std::string(2500, 'x')))).status());
  auto refuse = [](const std::optional<Item>&) {
    return Result<ItemChange>(Status::ConditionalCheckFailed(nullptr));
  };
  Metering m;
  EXPECT_EQ(path.Apply(table_, Key("a"), refuse, &m).status().code(),
            ErrorCode::kConditionalCheckFailed);
  EXPECT_EQ(m.consumed.table.write_units, 3);  // 2509 bytes
  EXPECT_EQ(m.charge.Total().write_units, 3);
  // No item: one unit.
  EXPECT_EQ(path.Apply(table_, Key("b"), refuse, &m).status().code(),
            ErrorCode::kConditionalCheckFailed);
  EXPECT_EQ(m.consumed.table.write_units, 1);
  EXPECT_EQ(m.charge.parts[0].hash, keys::PartitionHash(AttributeValue::S("b")));
}

TEST_F(WritePathTest, OtherErrorsConsumeNothing) {
  WritePath path(store_.get(), &locks_);
  Metering m;
  m.consumed.table.write_units = 42;
  auto invalid = [](const std::optional<Item>&) {
    return Result<ItemChange>(Status::Validation("refused"));
  };
  EXPECT_FALSE(path.Apply(table_, Key("a"), invalid, &m).ok());
  EXPECT_EQ(m.consumed.Total().units(), 0);
  EXPECT_TRUE(m.charge.parts.empty());
}

TEST_F(WritePathTest, DeleteOfMissingItemIsOneUnit) {
  WritePath path(store_.get(), &locks_);
  Metering m;
  auto del = [](const std::optional<Item>&) { return Result<ItemChange>(ItemChange{}); };
  ASSERT_OK(path.Apply(table_, Key("nope"), del, &m).status());
  EXPECT_EQ(m.consumed.table.write_units, 1);
}

TEST_F(WritePathTest, ApplyManyMetersEachWrite) {
  WritePath path(store_.get(), &locks_);
  std::vector<WritePath::ItemWrite> writes;
  writes.push_back({&table_, Key("a"), PutOf(MakeItem("a", std::string(1500, 'x')))});
  writes.push_back({&table_, Key("b"), PutOf(MakeItem("b", std::string(500, 'x')))});
  std::vector<Metering> m;
  ASSERT_OK(path.ApplyMany(writes, &m).status());
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].consumed.table.write_units, 2);
  EXPECT_EQ(m[1].consumed.table.write_units, 1);
}

// --- What the write path remembers of items (ItemSizeCache) ---------------

// A plain Put takes the old item's existence and size from what the write
// path last wrote or read of it, not from the store: a change made behind
// its back (no item is written that way) shows only with the cache off.
TEST_F(WritePathTest, APlainPutTakesTheOldSizeFromWhatTheWritePathLastSaw) {
  for (size_t known_items : {size_t{1} << 10, size_t{0}}) {
    SetUp();
    WritePath path(store_.get(), &locks_, nullptr, known_items);
    ASSERT_OK(path.Put(table_, Key("a"), MakeItem("a", std::string(900, 'x'))));
    WriteBatch behind;
    std::string big;
    EncodeItem(MakeItem("a", std::string(4900, 'x')), &big);
    behind.Put(Cf::kItems, Key("a"), big);
    ASSERT_OK(store_->Write(&behind));
    Metering m;
    ASSERT_OK(path.Put(table_, Key("a"), MakeItem("a"), &m));
    EXPECT_EQ(m.consumed.table.write_units, known_items == 0 ? 5 : 1) << known_items;
  }
}

// A range deletion of the items (DeleteTable) or an ingestion (restores)
// bypasses the item locks: what was remembered before it is not used after.
TEST_F(WritePathTest, AfterABulkChangeOfTheItemsTheOldItemIsReadAgain) {
  WritePath path(store_.get(), &locks_);
  ASSERT_OK(path.Put(table_, Key("a"), MakeItem("a", std::string(4900, 'x'))));
  WriteBatch wipe;
  wipe.DeleteRange(Cf::kItems, keys::TablePrefix(3), keys::TableEnd(3));
  ASSERT_OK(store_->Write(&wipe));
  Metering m;
  ASSERT_OK(path.Put(table_, Key("a"), MakeItem("a"), &m));
  EXPECT_EQ(m.consumed.table.write_units, 1);  // no old item any more
  EXPECT_EQ(table_.stats->item_count.load(), 2);  // the wipe was not counted

  const std::string file = store_->path() + "/restore.sst";
  auto writer = store_->NewSstWriter(file);
  std::string restored;
  EncodeItem(MakeItem("a", std::string(2900, 'x')), &restored);
  ASSERT_OK(writer->Put(Key("a"), restored));
  ASSERT_OK(writer->Finish());
  ASSERT_OK(store_->Ingest(Cf::kItems, {file}, /*move=*/true));
  ASSERT_OK(path.Put(table_, Key("a"), MakeItem("a"), &m));
  EXPECT_EQ(m.consumed.table.write_units, 3);  // the ingested item's size
}

// Writers racing on the same few items, plain Puts (answered from what is
// remembered) among deletions and batches: the table's counters still add
// up to exactly what is stored.
TEST_F(WritePathTest, RacingWritersOfTheSameItemsKeepTheCountersExact) {
  WritePath path(store_.get(), &locks_);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      for (int i = 0; i < 400; ++i) {
        const std::string pk = "k" + std::to_string(rng() % 6);
        const Item item = MakeItem(pk, std::string(rng() % 3000, 'x'));
        switch (rng() % 4) {
          case 0:
          case 1:
            EXPECT_OK(path.Put(table_, Key(pk), item));
            break;
          case 2:
            EXPECT_OK(path.Apply(table_, Key(pk), [](const std::optional<Item>&) {
                            return Result<ItemChange>(ItemChange{});
                          }).status());
            break;
          case 3: {
            const std::string other = "k" + std::to_string(6 + rng() % 2);
            std::vector<WritePath::ItemWrite> writes;
            writes.push_back({&table_, Key(pk), PutOf(item)});
            writes.push_back({&table_, Key(other), PutOf(MakeItem(other, "y"))});
            EXPECT_OK(path.ApplyMany(writes).status());
            break;
          }
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  int64_t count = 0, bytes = 0;
  auto it = store_->NewIterator(Cf::kItems, "", "");
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    ++count;
    ASSERT_OK_AND_ASSIGN(int64_t size, EncodedItemSize(it->value()));
    bytes += size;
  }
  EXPECT_GT(count, 0);
  EXPECT_EQ(table_.stats->item_count.load(), count);
  EXPECT_EQ(table_.stats->size_bytes.load(), bytes);
}

// Every writer of the items, in random mixes, through a write path that
// remembers items and one that reads every old item, on twin stores: the
// same statuses, units and counters, and the same items at the end.
TEST_F(WritePathTest, RememberingItemsChangesNoResultOfAnyWriter) {
  StoreOptions o;
  o.in_memory = true;
  ASSERT_OK_AND_ASSIGN(std::unique_ptr<Store> twin_store, Store::Open(o));
  ItemLocks twin_locks;
  TableInfo twin_table = table_;
  twin_table.stats = std::make_shared<TableStats>();
  WritePath remembering(store_.get(), &locks_);
  WritePath reading(twin_store.get(), &twin_locks, nullptr, /*known_items=*/0);
  struct Side {
    WritePath* path;
    Store* store;
    TableInfo* table;
  };
  Side sides[2] = {{&remembering, store_.get(), &table_},
                   {&reading, twin_store.get(), &twin_table}};

  std::mt19937 rng(20261129);
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<unsigned>(n)); };
  auto sized = [&](const std::string& pk) {
    static const int kSizes[] = {1, 100, 1000, 1100, 2500, 4000, 9000};
    return MakeItem(pk, std::string(kSizes[pick(7)], 'x'));
  };
  auto put_of = [](Item item) { return PutOf(std::move(item)); };
  auto delete_of = [](const std::optional<Item>&) { return Result<ItemChange>(ItemChange{}); };
  auto unchanged = [](const std::optional<Item>&) {
    ItemChange c;
    c.unchanged = true;
    return Result<ItemChange>(std::move(c));
  };
  auto refused = [](const std::optional<Item>&) {
    return Result<ItemChange>(Status::ConditionalCheckFailed(nullptr));
  };
  int64_t units[2] = {0, 0};
  for (int step = 0; step < 3000; ++step) {
    const int op = pick(10);
    const std::string pk = "k" + std::to_string(pick(24));
    const Item item = sized(pk);
    // Several distinct items for the multi-item writers.
    std::vector<std::string> pks;
    for (int i = pick(4) + 1; i > 0; --i) {
      std::string other = "k" + std::to_string(pick(24));
      if (std::find(pks.begin(), pks.end(), other) == pks.end()) pks.push_back(other);
    }
    std::vector<Item> items;
    std::vector<int> kinds;
    for (const std::string& p : pks) {
      items.push_back(sized(p));
      kinds.push_back(pick(8));
    }
    const bool wipe = pick(8) == 0;
    const bool refuse = pick(2) == 0;
    Status first_status;
    std::vector<int64_t> first_units;
    for (int side = 0; side < 2; ++side) {
      const Side& s = sides[side];
      Status status;
      std::vector<Metering> ms(1);
      switch (op) {
        case 0: case 1: case 2:
          status = s.path->Put(*s.table, Key(pk), item, &ms[0]);
          break;
        case 3:
          status = s.path->Apply(*s.table, Key(pk), put_of(item), &ms[0]).status();
          break;
        case 4:
          status = s.path->Apply(*s.table, Key(pk), delete_of, &ms[0]).status();
          break;
        case 5:
          status = s.path->Apply(*s.table, Key(pk), refuse ? refused : unchanged, &ms[0]).status();
          break;
        case 6:
          status = s.path->ApplyAsService(*s.table, Key(pk), delete_of).status();
          break;
        case 7: case 8: {
          std::vector<WritePath::ItemWrite> writes;
          for (size_t i = 0; i < pks.size(); ++i) {
            ItemMutation mutation = kinds[i] < 5 ? put_of(items[i])
                                    : kinds[i] < 7 ? ItemMutation(delete_of)
                                                   : ItemMutation(refused);
            writes.push_back({s.table, Key(pks[i]), std::move(mutation)});
          }
          std::vector<Status> statuses;
          ApplyManyOptions options;
          options.transactional = op == 8;
          options.unit_factor = op == 8 ? 2 : 1;
          options.statuses = &statuses;
          status = s.path->ApplyMany(writes, &ms, nullptr, options).status();
          break;
        }
        case 9: {
          // Now and then a bulk change: the table's items wiped (its
          // counters are left, as the other side's are).
          ms.clear();
          if (!wipe) break;
          WriteBatch batch;
          batch.DeleteRange(Cf::kItems, keys::TablePrefix(3), keys::TableEnd(3));
          status = s.store->Write(&batch);
          break;
        }
      }
      SCOPED_TRACE("step " + std::to_string(step) + " op " + std::to_string(op));
      std::vector<int64_t> these_units;
      for (const Metering& m : ms) these_units.push_back(m.charge.Total().write_units);
      if (side == 0) {
        first_status = status;
        first_units = these_units;
      } else {
        EXPECT_EQ(status.code(), first_status.code());
        EXPECT_EQ(these_units, first_units);
      }
      for (int64_t u : these_units) units[side] += u;
    }
    ASSERT_EQ(table_.stats->item_count.load(), twin_table.stats->item_count.load()) << step;
    ASSERT_EQ(table_.stats->size_bytes.load(), twin_table.stats->size_bytes.load()) << step;
  }
  EXPECT_EQ(units[0], units[1]);
  EXPECT_GT(units[0], 3000);
  auto contents = [](const Store& store) {
    std::vector<std::pair<std::string, std::string>> kv;
    auto it = store.NewIterator(Cf::kItems, "", "");
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      kv.emplace_back(std::string(it->key()), std::string(it->value()));
    }
    return kv;
  };
  EXPECT_EQ(contents(*store_), contents(*twin_store));
  EXPECT_FALSE(contents(*store_).empty());
}

}  // namespace
}  // namespace dynarock

namespace dynarock {
namespace {

class WritePathMarksTest : public WritePathTest {};

TEST_F(WritePathMarksTest, PlainWriteOnAMarkedItemIsATransactionConflict) {
  WritePath path(store_.get(), &locks_);
  ASSERT_TRUE(locks_.TryMark({Key("a")}).empty());
  Metering m;
  EXPECT_THAT(path.Apply(table_, Key("a"), PutOf(MakeItem("a")), &m).status(),
              StatusIs(ErrorCode::kTransactionConflict,
                       "Transaction is ongoing for the item"));
  EXPECT_FALSE(Exists("a"));
  EXPECT_TRUE(m.charge.parts.empty());  // costs nothing
  // A second transaction cannot mark it; the other key stays free.
  EXPECT_EQ(locks_.TryMark({Key("b"), Key("a")}), std::vector<size_t>{1});
  EXPECT_FALSE(locks_.IsMarked(Key("b")));
  locks_.Unmark({Key("a")});
  EXPECT_OK(path.Apply(table_, Key("a"), PutOf(MakeItem("a"))).status());
}

TEST_F(WritePathMarksTest, BatchLeavesMarkedItemsOutAsUnprocessed) {
  WritePath path(store_.get(), &locks_);
  ASSERT_TRUE(locks_.TryMark({Key("b")}).empty());
  std::vector<WritePath::ItemWrite> writes;
  for (const char* pk : {"a", "b"}) writes.push_back({&table_, Key(pk), PutOf(MakeItem(pk))});
  std::vector<bool> throttled;
  std::vector<Metering> metering;
  ASSERT_OK(path.ApplyMany(writes, &metering, &throttled).status());
  EXPECT_EQ(throttled, (std::vector<bool>{false, true}));
  EXPECT_TRUE(Exists("a"));
  EXPECT_FALSE(Exists("b"));
  ASSERT_EQ(metering.size(), 2u);
  EXPECT_TRUE(metering[1].charge.parts.empty());
  // Without the flags the whole batch is refused.
  EXPECT_EQ(path.ApplyMany(writes).status().code(), ErrorCode::kTransactionConflict);
  locks_.Unmark({Key("b")});
}

TEST_F(WritePathMarksTest, TransactionalModeReportsEveryFailureAndWritesNothing) {
  WritePath path(store_.get(), &locks_);
  std::vector<WritePath::ItemWrite> writes;
  writes.push_back({&table_, Key("a"), PutOf(MakeItem("a"))});
  writes.push_back({&table_, Key("b"), [](const std::optional<Item>&) {
                      return Result<ItemChange>(Status::ConditionalCheckFailed(nullptr));
                    }});
  writes.push_back({&table_, Key("c"), PutOf(MakeItem("c"))});
  writes.push_back({&table_, Key("d"), [](const std::optional<Item>&) {
                      return Result<ItemChange>(Status::Validation("bad"));
                    }});
  std::vector<Status> statuses;
  std::vector<Metering> metering;
  ApplyManyOptions options;
  options.transactional = true;
  options.unit_factor = 2;
  options.statuses = &statuses;
  EXPECT_FALSE(path.ApplyMany(writes, &metering, nullptr, options).ok());
  ASSERT_EQ(statuses.size(), 4u);
  EXPECT_TRUE(statuses[0].ok());
  EXPECT_EQ(statuses[1].code(), ErrorCode::kConditionalCheckFailed);
  EXPECT_TRUE(statuses[2].ok());
  EXPECT_EQ(statuses[3].code(), ErrorCode::kValidation);
  EXPECT_FALSE(Exists("a") || Exists("c"));
  EXPECT_EQ(table_.stats->item_count.load(), 0);
  // Success: doubled units, one batch.
  writes.resize(1);
  ASSERT_OK(path.ApplyMany(writes, &metering, nullptr, options).status());
  EXPECT_TRUE(Exists("a"));
  ASSERT_EQ(metering.size(), 1u);
  EXPECT_EQ(metering[0].consumed.table.write_units, 2);
  EXPECT_EQ(metering[0].charge.Total().write_units, 2);
}

}  // namespace
}  // namespace dynarock
