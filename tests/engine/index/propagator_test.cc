#include "engine/index/propagator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <random>
#include <set>
#include <thread>

#include "engine/clock.h"
#include "engine/index/consistency_checker.h"
#include "engine/index/gsi_log.h"
#include "engine/index/index_entry.h"
#include "engine/index/index_writer.h"
#include "engine/keys/key_codec.h"
#include "engine/data/item_locks.h"
#include "engine/data/write_path.h"
#include "engine/value/encoded_item.h"
#include "engine/value/item_codec.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

constexpr uint32_t kTable = 1;
constexpr uint32_t kGsi = 2;
constexpr uint32_t kLsi = 3;

AttributeValue S(std::string s) { return AttributeValue::S(std::move(s)); }

// A table (pk S, sk S) with a KEYS_ONLY GSI on g and an LSI on l, driven
// through WritePath with IndexWriter and a Propagator on a simulated clock.
class PropagatorTest : public ::testing::Test {
 protected:
  PropagatorTest() {
    StoreOptions o;
    o.in_memory = true;
    store_ = std::move(Store::Open(o)).value();
    table_.id = kTable;
    table_.stats = std::make_shared<TableStats>();
    table_.key = {"pk", AttrType::kS, "sk", AttrType::kS};
    IndexInfo gsi;
    gsi.id = kGsi;
    gsi.name = "byG";
    gsi.global = true;
    gsi.key.hash_name = "g";
    gsi.projection.type = ProjectionType::kKeysOnly;
    IndexInfo lsi;
    lsi.id = kLsi;
    lsi.name = "byL";
    lsi.key = {"pk", AttrType::kS, "l", AttrType::kS};
    lsi.projection.type = ProjectionType::kAll;
    table_.indexes = {gsi, lsi};
    Reopen();
  }

  // A fresh propagator and writer on the same store, as after a restart.
  void Reopen(PropagatorOptions options = {},
              int64_t limit = int64_t{10} << 30) {
    path_.reset();
    writer_.reset();
    propagator_.reset();
    propagator_ = std::make_unique<Propagator>(store_.get(), &clock_, options);
    ASSERT_OK(propagator_->Recover());
    writer_ = std::make_unique<IndexWriter>(store_.get(), &clock_,
                                            propagator_.get(), limit);
    auto excluded = writer_->ExcludeWriters();
    writer_->SetTable(excluded, table_);
    path_ = std::make_unique<WritePath>(store_.get(), &locks_, writer_.get());
  }

  static std::string Key(const std::string& pk, const std::string& sk = "s") {
    AttributeValue s = S(sk);
    return keys::ItemKey(kTable, S(pk), &s);
  }

  Status Put(const std::string& pk, std::optional<std::string> g,
             std::optional<std::string> l = std::nullopt,
             const std::string& sk = "s") {
    Item item;
    item["pk"] = S(pk);
    item["sk"] = S(sk);
    if (g) item["g"] = S(*g);
    if (l) item["l"] = S(*l);
    return path_
        ->Apply(table_, Key(pk, sk),
                [&](const std::optional<Item>&) {
                  return Result<ItemChange>(ItemChange{item, false});
                })
        .status();
  }
  Status Delete(const std::string& pk, const std::string& sk = "s") {
    return path_
        ->Apply(table_, Key(pk, sk),
                [](const std::optional<Item>&) {
                  return Result<ItemChange>(ItemChange{std::nullopt, false});
                })
        .status();
  }

  // The GSI as sorted "g:pk" strings.
  std::vector<std::string> Gsi() {
    std::vector<std::string> out;
    auto it = store_->NewIterator(Cf::kIndexes, keys::TablePrefix(kGsi),
                                  keys::TableEnd(kGsi));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      Item item = std::move(DecodeItem(it->value())).value();
      out.push_back(item.at("g").s() + ":" + item.at("pk").s());
    }
    std::sort(out.begin(), out.end());  // index order is hash order
    return out;
  }
  int64_t LogRecords() {
    return std::move(propagator_->TEST_LogRecords()).value();
  }
  // The log's records, in order.
  std::vector<GsiLogRecord> Records() {
    std::vector<GsiLogRecord> out;
    auto it = store_->NewIterator(Cf::kGsiLog, std::string(),
                                  std::string(12, '\xff'));
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      out.push_back(std::move(DecodeGsiLogRecord(it->value())).value());
    }
    return out;
  }
  // The size (IndexEntry::size) of the stored entry at `key`, -1 if none.
  int64_t StoredEntrySize(const std::string& key) {
    auto value = std::move(store_->Get(Cf::kIndexes, key)).value();
    if (!value) return -1;
    return std::move(EncodedItemSize(*value)).value() + kIndexEntryOverheadBytes;
  }
  void StartBackfill() {
    auto paused = propagator_->PauseApply();
    auto excluded = writer_->ExcludeWriters();
    writer_->SetTable(excluded, table_);
    propagator_->StartBackfill(
        paused, BackfillTask{kTable, table_.key, table_.indexes[0]});
  }

  void ExpectConsistent() {
    ASSERT_OK_AND_ASSIGN(auto diffs, CheckTableIndexes(*store_, table_));
    for (const auto& d : diffs) ADD_FAILURE() << d.ToString();
  }

  SimulatedClock clock_;
  std::unique_ptr<Store> store_;
  ItemLocks locks_;
  TableInfo table_;
  std::unique_ptr<Propagator> propagator_;
  std::unique_ptr<IndexWriter> writer_;
  std::unique_ptr<WritePath> path_;
};

TEST_F(PropagatorTest, WritesLogRecordsThatRunDueApplies) {
  ASSERT_OK(Put("a", "x"));
  EXPECT_EQ(LogRecords(), 1);
  EXPECT_TRUE(Gsi().empty());  // asynchronous: nothing until propagation
  ASSERT_OK(propagator_->RunDue());
  EXPECT_EQ(Gsi(), std::vector<std::string>{"x:a"});
  EXPECT_EQ(LogRecords(), 0);
  EXPECT_EQ(propagator_->Stats().applied_records, 1);
}

TEST_F(PropagatorTest, LagIsMeasuredOnTheClock) {
  propagator_->SetLag(kGsi, 1'000'000);
  ASSERT_OK(Put("a", "x"));
  ASSERT_OK(propagator_->RunDue());
  EXPECT_TRUE(Gsi().empty());
  clock_.Advance(999'999);
  ASSERT_OK(propagator_->RunDue());
  EXPECT_TRUE(Gsi().empty());
  clock_.Advance(1);
  ASSERT_OK(propagator_->RunDue());
  EXPECT_EQ(Gsi(), std::vector<std::string>{"x:a"});
  PropagationStats stats = propagator_->Stats();
  EXPECT_EQ(stats.lag_p50_micros, 1'000'000);
  EXPECT_EQ(stats.lag_max_micros, 1'000'000);
}

TEST_F(PropagatorTest, RecordsApplyInOrderWhenDue) {
  propagator_->SetLag(kGsi, 100);
  ASSERT_OK(Put("a", "x"));
  clock_.Advance(50);
  ASSERT_OK(Put("a", "y"));  // key change: delete x:a, put y:a
  clock_.Advance(50);
  ASSERT_OK(propagator_->RunDue());
  EXPECT_EQ(Gsi(), std::vector<std::string>{
                       "x:a"});  // the stale read a lagging GSI gives
  clock_.Advance(50);
  ASSERT_OK(propagator_->RunDue());
  EXPECT_EQ(Gsi(), std::vector<std::string>{"y:a"});
}

TEST_F(PropagatorTest, SparseAndDeletes) {
  ASSERT_OK(Put("a", std::nullopt));
  EXPECT_EQ(LogRecords(), 0);  // no entry before or after: nothing to log
  ASSERT_OK(Put("a", "x"));
  ASSERT_OK(Put("b", "x"));
  ASSERT_OK(propagator_->RunDue());
  EXPECT_EQ(Gsi(), (std::vector<std::string>{"x:a", "x:b"}));
  ASSERT_OK(Put("a", std::nullopt));  // loses its key: leaves the index
  ASSERT_OK(Delete("b"));
  ASSERT_OK(propagator_->RunDue());
  EXPECT_TRUE(Gsi().empty());
  ExpectConsistent();
}

TEST_F(PropagatorTest, UnchangedEntryWritesNoRecord) {
  ASSERT_OK(Put("a", "x", "l1"));
  ASSERT_OK(propagator_->RunDue());
  ASSERT_OK(Put("a", "x", "l2"));  // KEYS_ONLY entry unchanged; LSI changes
  EXPECT_EQ(LogRecords(), 0);
  ExpectConsistent();
}

TEST_F(PropagatorTest, CatchUpIgnoresTheLag) {
  propagator_->SetLag(kGsi, 3'600'000'000);
  ASSERT_OK(Put("a", "x"));
  ASSERT_OK(propagator_->CatchUp());
  EXPECT_EQ(Gsi(), std::vector<std::string>{"x:a"});
}

TEST_F(PropagatorTest, ResumesFromTheLogAfterARestart) {
  propagator_->SetLag(kGsi, 1000);
  ASSERT_OK(Put("a", "x"));
  ASSERT_OK(Put("b", "y"));
  ASSERT_OK(Put("a", "z"));
  Reopen();  // lag back to the default 0
  EXPECT_EQ(LogRecords(), 3);
  ASSERT_OK(Put("c", "w"));  // numbered after the recovered records
  ASSERT_OK(propagator_->RunDue());
  EXPECT_EQ(Gsi(), (std::vector<std::string>{"w:c", "y:b", "z:a"}));
  EXPECT_EQ(LogRecords(), 0);
  ExpectConsistent();
}

TEST_F(PropagatorTest, AnIoErrorIsRetriedAndLosesNothing) {
  ASSERT_OK(Put("a", "x"));
  // A full disk: the apply fails, the record stays in the log.
  propagator_->TEST_FailWrites(Status::IOError("No space left on device"));
  EXPECT_THAT(propagator_->RunDue(),
              StatusIs(ErrorCode::kIOError, "No space left on device"));
  EXPECT_THAT(propagator_->CatchUp(),
              StatusIs(ErrorCode::kIOError, ::testing::HasSubstr("No space")));
  EXPECT_TRUE(Gsi().empty());
  EXPECT_EQ(LogRecords(), 1);
  // Not sticky: once space returns the next pass applies it, without a
  // restart.
  propagator_->TEST_FailWrites(Status::OK());
  ASSERT_OK(propagator_->status());
  ASSERT_OK(propagator_->RunDue());
  EXPECT_EQ(Gsi(), std::vector<std::string>{"x:a"});
  EXPECT_EQ(LogRecords(), 0);
  ExpectConsistent();
}

TEST_F(PropagatorTest, AFailedApplyOtherThanIoIsStickyAndLosesNothing) {
  ASSERT_OK(Put("a", "x"));
  propagator_->TEST_FailWrites(Status::Corruption("bad block"));
  EXPECT_THAT(propagator_->RunDue(),
              StatusIs(ErrorCode::kCorruption, "bad block"));
  propagator_->TEST_FailWrites(Status::OK());
  // Sticky: no more propagation, every call reports it.
  EXPECT_THAT(propagator_->status(),
              StatusIs(ErrorCode::kCorruption, "bad block"));
  EXPECT_THAT(propagator_->RunDue(),
              StatusIs(ErrorCode::kCorruption, "bad block"));
  EXPECT_THAT(propagator_->CatchUp(),
              StatusIs(ErrorCode::kCorruption, "bad block"));
  EXPECT_TRUE(Gsi().empty());
  EXPECT_EQ(LogRecords(), 1);
  Reopen();  // a restart clears it and applies the log
  ASSERT_OK(propagator_->CatchUp());
  EXPECT_EQ(Gsi(), std::vector<std::string>{"x:a"});
}

TEST_F(PropagatorTest, TheBackgroundThreadRetriesAfterAnIoError) {
  propagator_->TEST_FailWrites(Status::IOError("No space left on device"));
  propagator_->Start();
  ASSERT_OK(Put("a", "x"));
  ASSERT_OK(Put("b", "y"));
  // The thread's passes fail while the "disk" is full; the records wait.
  propagator_->TEST_FailWrites(Status::OK());
  // Bounded wait (no timing assertion): the thread gets there on its own.
  for (int i = 0; i < 2000 && LogRecords() != 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_EQ(LogRecords(), 0);
  ASSERT_OK(propagator_->status());
  EXPECT_EQ(Gsi(), (std::vector<std::string>{"x:a", "y:b"}));
}

TEST_F(PropagatorTest, ABackfillChunkThatFailsToWriteIsRetriedFromTheSameCursor) {
  IndexInfo gsi = table_.indexes[0];
  for (int i = 0; i < 10; ++i) ASSERT_OK(Put("p" + std::to_string(i), "g"));
  ASSERT_OK(propagator_->CatchUp());
  WriteBatch wipe;
  wipe.DeleteRange(Cf::kIndexes, keys::TablePrefix(kGsi), keys::TableEnd(kGsi));
  Catalog::RemoveIndexStats(kGsi, &wipe);  // and its counters, as a new index
  ASSERT_OK(store_->Write(&wipe));
  PropagatorOptions options;
  options.backfill_chunk_items = 4;
  Reopen(options);
  {
    auto paused = propagator_->PauseApply();
    propagator_->StartBackfill(paused, BackfillTask{kTable, table_.key, gsi});
  }
  ASSERT_OK(propagator_->RunDue());  // items 0..3
  propagator_->TEST_FailWrites(Status::IOError("No space left on device"));
  // The chunk 4..7 is not written.
  EXPECT_THAT(propagator_->RunDue(),
              StatusIs(ErrorCode::kIOError, ::testing::HasSubstr("No space")));
  propagator_->TEST_FailWrites(Status::OK());
  while (propagator_->Backfilling(kGsi)) ASSERT_OK(propagator_->RunDue());
  ExpectConsistent();
  EXPECT_EQ(Gsi().size(), 10u);
}

TEST_F(PropagatorTest, LsiEntriesAreWrittenWithTheItem) {
  ASSERT_OK(Put("a", std::nullopt, "l1"));
  ASSERT_OK(Put("a", std::nullopt, "l2", "t"));
  ExpectConsistent();  // no propagation needed
  ASSERT_OK(Put("a", std::nullopt, "l3"));
  ASSERT_OK(Delete("a", "t"));
  ExpectConsistent();
}

TEST_F(PropagatorTest, ItemCollectionLimitRefusesGrowthNotShrinking) {
  Reopen({}, /*limit=*/300);
  // An item (pk, sk, l ~ 8 bytes) plus its ALL-projected LSI entry (+100).
  ASSERT_OK(Put("a", std::nullopt, "l1"));
  ASSERT_OK_AND_ASSIGN(int64_t size,
                       writer_->ItemCollectionSize(kTable, S("a")));
  EXPECT_GT(size, 100);
  ASSERT_OK(Put("a", std::nullopt, "l2", "t"));
  EXPECT_THAT(Put("a", std::nullopt, "l3", "u"),
              StatusIs(ErrorCode::kItemCollectionSizeLimitExceeded,
                       "Collection size exceeded."));
  ASSERT_OK(Put("b", std::nullopt, "l3", "u"));  // another collection
  ASSERT_OK(Delete("a", "t"));                   // shrinking is always allowed
  ASSERT_OK_AND_ASSIGN(int64_t after,
                       writer_->ItemCollectionSize(kTable, S("a")));
  EXPECT_EQ(after, size);
  ExpectConsistent();
}

TEST_F(PropagatorTest, BackfillThenHeldRecordsGiveTheRightIndex) {
  // Items written before the index exists.
  IndexInfo gsi = table_.indexes[0];
  TableInfo without = table_;
  without.indexes = {table_.indexes[1]};
  {
    auto excluded = writer_->ExcludeWriters();
    writer_->SetTable(excluded, without);
  }
  for (int i = 0; i < 10; ++i)
    ASSERT_OK(Put("p" + std::to_string(i), "g" + std::to_string(i % 3)));
  // A bad key type written before the index: left out by the backfill.
  {
    Item bad;
    bad["pk"] = S("bad");
    bad["sk"] = S("s");
    bad["g"] = AttributeValue::Bool(true);
    ASSERT_OK(path_
                  ->Apply(without, Key("bad"),
                          [&](const std::optional<Item>&) {
                            return Result<ItemChange>(ItemChange{bad, false});
                          })
                  .status());
  }
  PropagatorOptions options;
  options.backfill_chunk_items = 3;
  Reopen(options);
  {
    auto paused = propagator_->PauseApply();
    auto excluded = writer_->ExcludeWriters();
    writer_->SetTable(excluded, table_);
    BackfillTask task;
    task.table_id = kTable;
    task.table_key = table_.key;
    task.index = gsi;
    propagator_->StartBackfill(paused, task);
  }
  EXPECT_TRUE(propagator_->Backfilling(kGsi));
  ASSERT_OK(propagator_->RunDue());  // one step: 3 items
  // Writes during the backfill: a key change of a backfilled item, a delete
  // of one not reached yet, a new item, a change of one not reached yet.
  ASSERT_OK(Put("p0", "changed"));
  ASSERT_OK(Delete("p9"));
  ASSERT_OK(Put("new", "g1"));
  ASSERT_OK(Put("p8", "late"));
  while (propagator_->Backfilling(kGsi)) ASSERT_OK(propagator_->RunDue());
  ASSERT_OK(propagator_->RunDue());
  EXPECT_EQ(LogRecords(), 0);
  ExpectConsistent();
  EXPECT_EQ(Gsi().size(), 10u);  // p0..p8 + new
}

TEST_F(PropagatorTest, WritersCarryTheSizesOfReplacedEntriesOnlyWhenTheyKnowThem) {
  // An ALL projection, so that an entry can change under the same key.
  table_.indexes[0].projection.type = ProjectionType::kAll;
  TableInfo without = table_;
  without.indexes = {table_.indexes[1]};
  {
    auto excluded = writer_->ExcludeWriters();
    writer_->SetTable(excluded, without);
  }
  for (int i = 0; i < 6; ++i)
    ASSERT_OK(Put("p" + std::to_string(i), "g" + std::to_string(i)));
  // An empty string, refused as an index key once the index exists: the
  // backfill leaves these items out.
  ASSERT_OK(Put("e1", ""));
  ASSERT_OK(Put("e2", ""));
  PropagatorOptions options;
  options.backfill_chunk_items = 2;
  Reopen(options);
  StartBackfill();
  ASSERT_OK(propagator_->RunDue());  // one chunk
  ASSERT_TRUE(propagator_->Backfilling(kGsi));
  ASSERT_OK(Put("p0", "during"));   // the backfill may read either state
  ASSERT_OK(Put("p5", "during"));
  std::vector<GsiLogRecord> held = Records();
  ASSERT_EQ(held.size(), 2u);
  EXPECT_FALSE(held[0].sizes_known);
  EXPECT_FALSE(held[1].sizes_known);
  while (propagator_->Backfilling(kGsi)) ASSERT_OK(propagator_->RunDue());
  ASSERT_OK(propagator_->RunDue());
  ASSERT_EQ(LogRecords(), 0);
  ExpectConsistent();

  ASSERT_OK(Put("p1", "moved"));         // a key change
  ASSERT_OK(Put("p2", "g2", "l"));       // a new value under the same key
  ASSERT_OK(Delete("p3"));
  ASSERT_OK(Put("new", "n"));            // no entry before
  ASSERT_OK(Put("e1", "x"));             // its "" entry was never written
  ASSERT_OK(Delete("e2"));
  const std::vector<GsiLogRecord> r = Records();
  ASSERT_EQ(r.size(), 6u);
  ASSERT_TRUE(r[0].sizes_known);
  EXPECT_EQ(r[0].deleted_size, StoredEntrySize(*r[0].delete_key));
  EXPECT_EQ(r[0].overwritten_size, -1);
  ASSERT_TRUE(r[1].sizes_known);
  EXPECT_FALSE(r[1].delete_key.has_value());
  EXPECT_EQ(r[1].overwritten_size, StoredEntrySize(*r[1].put_key));
  EXPECT_GT(r[1].overwritten_size, 0);
  ASSERT_TRUE(r[2].sizes_known);
  EXPECT_EQ(r[2].deleted_size, StoredEntrySize(*r[2].delete_key));
  ASSERT_TRUE(r[3].sizes_known);
  EXPECT_EQ(r[3].overwritten_size, -1);
  EXPECT_FALSE(r[4].sizes_known);
  EXPECT_FALSE(r[5].sizes_known);
  ASSERT_OK(propagator_->RunDue());
  ExpectConsistent();
}

TEST_F(PropagatorTest, AKnownSizeIsCountedWithoutReadingTheEntry) {
  // A record that says it deletes an entry of 500 bytes: the counters
  // trust it (the writer knew; see GsiLogRecord::sizes_known), even though
  // no such entry is stored.
  GsiLogRecord record;
  record.delete_key = keys::TablePrefix(kGsi) + "absent";
  record.sizes_known = true;
  record.deleted_size = 500;
  std::string value;
  EncodeGsiLogRecord(record, &value);
  WriteBatch batch;
  batch.Put(Cf::kGsiLog, GsiLogKey(kGsi, 1), value);
  ASSERT_OK(store_->Write(&batch));
  Reopen();
  ASSERT_OK(propagator_->RunDue());
  EXPECT_EQ(LogRecords(), 0);
  ASSERT_OK_AND_ASSIGN(const auto stats, Catalog::IndexStats(*store_, kGsi));
  EXPECT_EQ(stats, std::make_pair(int64_t{-1}, int64_t{-500}));
}

TEST_F(PropagatorTest, BackfillResumesFromItsCursorAfterARestart) {
  IndexInfo gsi = table_.indexes[0];
  for (int i = 0; i < 10; ++i) ASSERT_OK(Put("p" + std::to_string(i), "g"));
  ASSERT_OK(propagator_->CatchUp());
  // Start over as if the index were new: drop its entries.
  WriteBatch wipe;
  wipe.DeleteRange(Cf::kIndexes, keys::TablePrefix(kGsi), keys::TableEnd(kGsi));
  Catalog::RemoveIndexStats(kGsi, &wipe);  // and its counters, as a new index
  ASSERT_OK(store_->Write(&wipe));
  PropagatorOptions options;
  options.backfill_chunk_items = 4;
  auto start = [&] {
    auto paused = propagator_->PauseApply();
    propagator_->StartBackfill(paused, BackfillTask{kTable, table_.key, gsi});
  };
  Reopen(options);
  start();
  ASSERT_OK(propagator_->RunDue());
  ASSERT_OK(Delete("p5"));
  Reopen(options);  // crash: the cursor and the held record survive
  start();
  ASSERT_OK(propagator_->RunDue());
  ASSERT_OK(propagator_->RunDue());
  EXPECT_FALSE(propagator_->Backfilling(kGsi));
  ASSERT_OK(propagator_->RunDue());
  ExpectConsistent();
  EXPECT_EQ(Gsi().size(), 9u);
}

TEST_F(PropagatorTest, ABackfillCountsExactlyFreshOrOverEntriesLeftBehind) {
  // A fresh backfill (an empty index) counts its entries without looking
  // them up; one that starts with no cursor over entries a previous run
  // left (a crash after its last chunk) counts each rewritten entry once.
  IndexInfo gsi = table_.indexes[0];
  for (int i = 0; i < 10; ++i) ASSERT_OK(Put("p" + std::to_string(i), "g"));
  ASSERT_OK(propagator_->CatchUp());
  ASSERT_OK_AND_ASSIGN(const auto before, Catalog::IndexStats(*store_, kGsi));
  EXPECT_EQ(before.first, 10);
  PropagatorOptions options;
  options.backfill_chunk_items = 4;
  auto backfill = [&] {
    Reopen(options);
    {
      auto paused = propagator_->PauseApply();
      propagator_->StartBackfill(paused, BackfillTask{kTable, table_.key, gsi});
    }
    while (propagator_->Backfilling(kGsi)) ASSERT_OK(propagator_->RunDue());
    ExpectConsistent();
  };
  backfill();  // over the 10 entries: rewritten, not added
  ASSERT_OK_AND_ASSIGN(auto again, Catalog::IndexStats(*store_, kGsi));
  EXPECT_EQ(again, before);
  WriteBatch wipe;
  wipe.DeleteRange(Cf::kIndexes, keys::TablePrefix(kGsi), keys::TableEnd(kGsi));
  Catalog::RemoveIndexStats(kGsi, &wipe);
  ASSERT_OK(store_->Write(&wipe));
  backfill();  // fresh
  ASSERT_OK_AND_ASSIGN(auto fresh, Catalog::IndexStats(*store_, kGsi));
  EXPECT_EQ(fresh, before);
  EXPECT_EQ(Gsi().size(), 10u);
}

TEST_F(PropagatorTest, BackgroundThreadKeepsUpWithConcurrentWriters) {
  propagator_->Start();
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([this, t] {
      std::mt19937 rng(t);
      for (int i = 0; i < 300; ++i) {
        const std::string pk = "k" + std::to_string(rng() % 40);
        Status s;
        switch (rng() % 4) {
          case 0:
            s = Delete(pk);
            break;
          case 1:
            s = Put(pk, std::nullopt, "l" + std::to_string(i));
            break;
          default:
            s = Put(pk, "g" + std::to_string(rng() % 5),
                    "l" + std::to_string(i));
        }
        ASSERT_OK(s);
      }
    });
  }
  for (auto& t : threads) t.join();
  // The thread drains the log on its own; CatchUp then finds nothing left.
  for (int i = 0; i < 2000 && LogRecords() > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(LogRecords(), 0);
  ASSERT_OK(propagator_->CatchUp());
  ExpectConsistent();
  propagator_->Stop();
}

TEST_F(PropagatorTest, CatchUpEndsUnderASustainedWriteLoad) {
  // Deterministic mode: only CatchUp applies. A writer keeps writing; each
  // CatchUp applies what was committed before it and returns.
  std::atomic<bool> stop{false};
  std::atomic<int> written{0};
  std::thread writer([&] {
    for (int i = 0; !stop.load(); ++i) {
      ASSERT_OK(Put("k" + std::to_string(i % 50), "g" + std::to_string(i)));
      written.fetch_add(1);
    }
  });
  while (written.load() < 100) std::this_thread::yield();
  for (int i = 0; i < 5; ++i) {
    const int before = written.load();
    ASSERT_OK(propagator_->CatchUp());
    // Everything written before the call is in the index now.
    EXPECT_GE(propagator_->Stats().applied_records, before);
  }
  stop.store(true);
  writer.join();
  ASSERT_OK(propagator_->CatchUp());
  EXPECT_EQ(LogRecords(), 0);
  ExpectConsistent();
}

}  // namespace
}  // namespace dynarock
