#include "engine/storage/store.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

std::unique_ptr<Store> OpenMem() {
  StoreOptions o;
  o.in_memory = true;
  auto s = Store::Open(o);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::move(s).value();
}

TEST(StoreTest, BatchIsAtomicAcrossColumnFamilies) {
  auto store = OpenMem();
  WriteBatch b;
  b.Put(Cf::kItems, "k1", "v1");
  b.Put(Cf::kMeta, "m1", "x");
  b.AddToCounter("cnt", 5);
  ASSERT_OK(store->Write(&b));
  ASSERT_OK_AND_ASSIGN(auto v, store->Get(Cf::kItems, "k1"));
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(*v, "v1");
  // Column families are separate key spaces.
  ASSERT_OK_AND_ASSIGN(auto none, store->Get(Cf::kItems, "m1"));
  EXPECT_FALSE(none.has_value());
  ASSERT_OK_AND_ASSIGN(int64_t cnt, store->GetCounter("cnt"));
  EXPECT_EQ(cnt, 5);
}

TEST(StoreTest, WriteGenerationMovesWithEveryWriteAndIngestion) {
  auto store = OpenMem();
  const uint64_t g0 = store->WriteGeneration();
  ASSERT_OK_AND_ASSIGN(auto none, store->Get(Cf::kItems, "k"));
  EXPECT_FALSE(none.has_value());
  auto it = store->NewIterator(Cf::kItems, "", "");
  it->SeekToFirst();
  EXPECT_EQ(store->WriteGeneration(), g0);  // reads change nothing
  WriteBatch b;
  b.Put(Cf::kItems, "k", "v");
  ASSERT_OK(store->Write(&b));
  const uint64_t g1 = store->WriteGeneration();
  EXPECT_GT(g1, g0);
  const std::string file = store->path() + "/gen.sst";
  auto writer = store->NewSstWriter(file);
  ASSERT_OK(writer->Put("z", "v"));
  ASSERT_OK(writer->Finish());
  ASSERT_OK(store->Ingest(Cf::kItems, {file}, /*move=*/true));
  EXPECT_GT(store->WriteGeneration(), g1);
}

TEST(StoreTest, ItemsBulkGenerationMovesOnlyWithBulkChangesOfItems) {
  auto store = OpenMem();
  const uint64_t g0 = store->ItemsBulkGeneration();
  {
    // Single keys, counters and range deletions elsewhere: no move.
    WriteBatch b;
    b.Put(Cf::kItems, "k", "v");
    b.Delete(Cf::kItems, "j");
    b.Put(Cf::kIndexes, "i", "v");
    b.DeleteRange(Cf::kIndexes, "a", "b");
    b.DeleteRange(Cf::kStreams, "a", "b");
    b.AddToCounter("c", 1);
    ASSERT_OK(store->Write(&b));
  }
  EXPECT_EQ(store->ItemsBulkGeneration(), g0);
  {
    WriteBatch b;
    b.DeleteRange(Cf::kItems, "a", "z");
    ASSERT_OK(store->Write(&b));
  }
  const uint64_t g1 = store->ItemsBulkGeneration();
  EXPECT_GT(g1, g0);
  const std::string index_file = store->path() + "/index.sst";
  auto index_writer = store->NewSstWriter(index_file);
  ASSERT_OK(index_writer->Put("x", "v"));
  ASSERT_OK(index_writer->Finish());
  ASSERT_OK(store->Ingest(Cf::kIndexes, {index_file}, /*move=*/true));
  EXPECT_EQ(store->ItemsBulkGeneration(), g1);
  const std::string items_file = store->path() + "/items.sst";
  auto items_writer = store->NewSstWriter(items_file);
  ASSERT_OK(items_writer->Put("z", "v"));
  ASSERT_OK(items_writer->Finish());
  ASSERT_OK(store->Ingest(Cf::kItems, {items_file}, /*move=*/true));
  EXPECT_GT(store->ItemsBulkGeneration(), g1);
}

TEST(StoreTest, ASmallMemtableFlushesAndLosesNothing) {
  // 2 MB of very compressible writes: with the default 64 MB memtable they
  // all stay in it; with 64 KB ones they go through many flushes into
  // (compressed) table files.
  const std::string value(1000, 'v');
  for (int64_t memtable : {int64_t{0}, int64_t{64} << 10}) {
    StoreOptions o;
    o.in_memory = true;
    o.memtable_bytes = memtable;
    ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
    for (int i = 0; i < 2000; ++i) {
      WriteBatch b;
      b.Put(Cf::kItems, "k" + std::to_string(100'000 + i), value);
      ASSERT_OK(store->Write(&b));
    }
    int n = 0;
    auto it = store->NewIterator(Cf::kItems, "", "");
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      EXPECT_EQ(it->value(), value);
      ++n;
    }
    EXPECT_EQ(n, 2000);
    if (memtable == 0) {
      EXPECT_GT(store->ApproximateBytes(Cf::kItems), uint64_t{2} << 20);
    } else {
      EXPECT_LT(store->ApproximateBytes(Cf::kItems), uint64_t{1} << 20);
    }
  }
}

TEST(StoreTest, ReadsEveryKeyBackThroughASharedCacheSmallerThanTheData) {
  // Partitioned indexes and filters in a block cache far smaller than the
  // files (StoreOptions::block_cache_bytes), and RocksDB's own layout (0),
  // on disk: every key is found by a point read and by a scan, after
  // flushes and a compaction, and an absent key is not.
  for (int64_t cache : {int64_t{64} << 10, int64_t{0}}) {
    const std::string dir = testing::TempDir() + "/store_cache_test_" +
                            std::to_string(getpid()) + "_" + std::to_string(cache);
    std::filesystem::remove_all(dir);
    StoreOptions o;
    o.path = dir;
    o.memtable_bytes = 256 << 10;
    o.block_cache_bytes = cache;
    ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
    auto value_of = [](int i) { return std::string(200 + i % 300, static_cast<char>('a' + i % 26)); };
    for (int i = 0; i < 5000; ++i) {
      WriteBatch b;
      b.Put(Cf::kItems, "k" + std::to_string(100'000 + i), value_of(i));
      ASSERT_OK(store->Write(&b));
    }
    ASSERT_OK(store->Flush());
    ASSERT_OK(store->Compact(Cf::kItems));
    for (int i = 0; i < 5000; i += 7) {
      ASSERT_OK_AND_ASSIGN(auto v, store->Get(Cf::kItems, "k" + std::to_string(100'000 + i)));
      ASSERT_TRUE(v.has_value()) << i;
      EXPECT_EQ(*v, value_of(i));
    }
    ASSERT_OK_AND_ASSIGN(auto absent, store->Get(Cf::kItems, "k99999"));
    EXPECT_FALSE(absent.has_value());
    int n = 0;
    {
      auto it = store->NewIterator(Cf::kItems, "", "");
      for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
    }  // before the store closes
    EXPECT_EQ(n, 5000);
    store.reset();
    std::filesystem::remove_all(dir);
  }
}

TEST(StoreTest, TheIndexesMemtableIsSmallerThanTheOthers) {
  // 24 MB of very compressible writes into each of items and indexes, with
  // the default options: items stay in their 64 MB memtable; the indexes'
  // 8 MB memtables are flushed into (compressed) table files on the way, at
  // most two of them in memory at a time.
  ASSERT_OK_AND_ASSIGN(auto store, Store::Open(StoreOptions{.in_memory = true}));
  const std::string value(1000, 'v');
  for (int i = 0; i < 24'000; ++i) {
    WriteBatch b;
    const std::string key = "k" + std::to_string(100'000 + i);
    b.Put(Cf::kItems, key, value);
    b.Put(Cf::kIndexes, key, value);
    ASSERT_OK(store->Write(&b));
  }
  EXPECT_GT(store->ApproximateBytes(Cf::kItems), uint64_t{24} << 20);
  EXPECT_LT(store->ApproximateBytes(Cf::kIndexes), uint64_t{18} << 20);
  int n = 0;
  auto it = store->NewIterator(Cf::kIndexes, "", "");
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    EXPECT_EQ(it->value(), value);
    ++n;
  }
  ASSERT_OK(it->status());
  EXPECT_EQ(n, 24'000);
}

TEST(StoreTest, TheWalIsBoundedWhenAColumnFamilyIsRarelyWritten) {
  // One counter in meta, then 6 MB of items through 256 KB memtables: every
  // WAL file since the counter's write backs meta's unflushed memtable. With
  // RocksDB's own bound (four times all memtables) they all stay; with
  // max_wal_bytes, meta is flushed once they pass it and they go.
  auto wal_bytes = [](const std::filesystem::path& dir) {
    uint64_t total = 0;
    for (const auto& f : std::filesystem::directory_iterator(dir)) {
      if (f.path().extension() == ".log") total += f.file_size();
    }
    return total;
  };
  const std::string value(1000, 'v');
  for (int64_t bound : {int64_t{0}, int64_t{1} << 20}) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("dynarock_store_walbound_" + std::to_string(::getpid()) +
                      "_" + std::to_string(bound));
    std::filesystem::remove_all(dir);
    StoreOptions o;
    o.path = dir.string();
    o.memtable_bytes = int64_t{256} << 10;
    o.max_wal_bytes = bound;
    {
      ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
      WriteBatch counter;
      counter.AddToCounter("count", 1);
      ASSERT_OK(store->Write(&counter));
      for (int i = 0; i < 6000; ++i) {
        WriteBatch b;
        b.Put(Cf::kItems, "k" + std::to_string(100'000 + i), value);
        ASSERT_OK(store->Write(&b));
      }
      if (bound == 0) {
        EXPECT_GT(wal_bytes(dir), uint64_t{5} << 20);  // about all of it
      } else {
        // The bound, plus what was written while meta's flush ran.
        EXPECT_LT(wal_bytes(dir), uint64_t{4} << 20);
      }
      ASSERT_OK_AND_ASSIGN(int64_t n, store->GetCounter("count"));
      EXPECT_EQ(n, 1);
    }
    std::filesystem::remove_all(dir);
  }
}

TEST(StoreTest, CountersAddSignedDeltas) {
  auto store = OpenMem();
  for (int64_t d : {10, -3, 7, -20}) {
    WriteBatch b;
    b.AddToCounter("c", d);
    ASSERT_OK(store->Write(&b));
  }
  ASSERT_OK_AND_ASSIGN(int64_t c, store->GetCounter("c"));
  EXPECT_EQ(c, -6);
  ASSERT_OK_AND_ASSIGN(int64_t missing, store->GetCounter("nope"));
  EXPECT_EQ(missing, 0);
}

TEST(StoreTest, DeleteRangeAndBoundedIteration) {
  auto store = OpenMem();
  WriteBatch b;
  for (const char* k : {"a1", "a2", "b1", "b2", "c1"}) b.Put(Cf::kItems, k, k);
  ASSERT_OK(store->Write(&b));
  WriteBatch del;
  del.DeleteRange(Cf::kItems, "b", "c");
  ASSERT_OK(store->Write(&del));
  auto it = store->NewIterator(Cf::kItems, "a", "z");
  std::vector<std::string> keys;
  for (it->SeekToFirst(); it->Valid(); it->Next()) keys.emplace_back(it->key());
  ASSERT_OK(it->status());
  EXPECT_EQ(keys, (std::vector<std::string>{"a1", "a2", "c1"}));
  auto bounded = store->NewIterator(Cf::kItems, "a2", "c");
  keys.clear();
  for (bounded->SeekToLast(); bounded->Valid(); bounded->Prev()) keys.emplace_back(bounded->key());
  EXPECT_EQ(keys, (std::vector<std::string>{"a2"}));
}

TEST(StoreTest, OnDiskDataSurvivesReopen) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("dynarock_store_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  StoreOptions o;
  o.path = dir.string();
  {
    ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
    WriteBatch b;
    b.Put(Cf::kItems, "k", "v");
    b.AddToCounter("c", 3);
    ASSERT_OK(store->Write(&b));
  }
  {
    ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
    ASSERT_OK_AND_ASSIGN(auto v, store->Get(Cf::kItems, "k"));
    ASSERT_TRUE(v.has_value());
    EXPECT_EQ(*v, "v");
    ASSERT_OK_AND_ASSIGN(int64_t c, store->GetCounter("c"));
    EXPECT_EQ(c, 3);
  }
  std::filesystem::remove_all(dir);
}

TEST(StoreTest, WritesBelowTheFreeSpaceFloorAreRefusedWhole) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("dynarock_store_floor_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  StoreOptions o;
  o.path = dir.string();
  {
    ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
    WriteBatch b;
    b.Put(Cf::kItems, "before", "v");
    ASSERT_OK(store->Write(&b));
  }
  // A floor above any disk's free space: every write is refused, with
  // nothing of it applied, and reads go on.
  o.min_free_disk_bytes = int64_t{1} << 62;
  {
    ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
    WriteBatch b;
    b.Put(Cf::kItems, "k", "v");
    b.AddToCounter("c", 1);
    EXPECT_THAT(store->Write(&b),
                StatusIs(ErrorCode::kIOError, ::testing::HasSubstr("No space left on device")));
    EXPECT_THAT(store->Write(&b), StatusIs(ErrorCode::kIOError, ::testing::_));
    ASSERT_OK_AND_ASSIGN(auto k, store->Get(Cf::kItems, "k"));
    EXPECT_FALSE(k.has_value());
    ASSERT_OK_AND_ASSIGN(int64_t c, store->GetCounter("c"));
    EXPECT_EQ(c, 0);
    ASSERT_OK_AND_ASSIGN(auto before, store->Get(Cf::kItems, "before"));
    EXPECT_TRUE(before.has_value());
  }
  // A floor the disk is above: writes go through.
  o.min_free_disk_bytes = 1;
  {
    ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
    WriteBatch b;
    b.Put(Cf::kItems, "k", "v");
    ASSERT_OK(store->Write(&b));
  }
  std::filesystem::remove_all(dir);
}

// The first writes after Open, from several threads at once, must see the
// disk's real free space: the first look at the filesystem used to race
// them, and a writer that read the not-yet-set value refused its write with
// "0 MB free" (found by the SIGKILL crash test, whose writers reconnect to a
// restarted server all at once).
TEST(StoreTest, ConcurrentFirstWritesSeeTheRealFreeSpace) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("dynarock_store_first_writes_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  StoreOptions o;
  o.path = dir.string();
  o.min_free_disk_bytes = 1;
  constexpr int kThreads = 8;
  for (int round = 0; round < 20; ++round) {
    ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
    std::atomic<int> ready{0};
    std::atomic<int> refused{0};
    std::vector<std::thread> writers;
    for (int t = 0; t < kThreads; ++t) {
      writers.emplace_back([&, t] {
        ready.fetch_add(1);
        while (ready.load() < kThreads) {
        }
        WriteBatch b;
        b.Put(Cf::kItems, "k" + std::to_string(t), "v");
        if (!store->Write(&b).ok()) refused.fetch_add(1);
      });
    }
    for (std::thread& w : writers) w.join();
    EXPECT_EQ(refused.load(), 0) << "round " << round;
  }
  std::filesystem::remove_all(dir);
}

// Writers that do not sync take turns at a spinning-then-sleeping mutex
// (Store::Write): from more threads than cores, every write lands whole,
// the GSI log's hinted inserts and the counters' merges included.
TEST(StoreTest, ConcurrentWritersAllLand) {
  StoreOptions o;
  o.in_memory = true;
  ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
  constexpr int kThreads = 6;
  constexpr int kWrites = 2000;
  std::vector<std::thread> writers;
  std::atomic<int> failed{0};
  for (int t = 0; t < kThreads; ++t) {
    writers.emplace_back([&, t] {
      for (int w = 0; w < kWrites; ++w) {
        WriteBatch b;
        b.Put(Cf::kItems, "t" + std::to_string(t) + "/" + std::to_string(w), "v");
        // A GSI log record key: 4 bytes of index, 8 of sequence.
        std::string record(12, '\0');
        record[3] = static_cast<char>(t);
        for (int k = 0; k < 4; ++k) record[11 - k] = static_cast<char>(w >> (8 * k));
        b.Put(Cf::kGsiLog, record, "r");
        b.AddToCounter("count", 1);
        if (!store->Write(&b).ok()) failed.fetch_add(1);
      }
    });
  }
  for (std::thread& w : writers) w.join();
  EXPECT_EQ(failed.load(), 0);
  ASSERT_OK_AND_ASSIGN(int64_t count, store->GetCounter("count"));
  EXPECT_EQ(count, int64_t{kThreads} * kWrites);
  for (int t = 0; t < kThreads; ++t) {
    for (int w = 0; w < kWrites; w += 97) {
      ASSERT_OK_AND_ASSIGN(auto v, store->Get(Cf::kItems, "t" + std::to_string(t) + "/" + std::to_string(w)));
      EXPECT_EQ(v, std::optional<std::string>("v"));
    }
  }
}

TEST(StoreTest, SyncWritesReachesTheWriteOptions) {
  StoreOptions o;
  o.in_memory = true;
  ASSERT_OK_AND_ASSIGN(auto plain, Store::Open(o));
  EXPECT_FALSE(plain->syncs_writes());
  o.sync_writes = true;
  ASSERT_OK_AND_ASSIGN(auto synced, Store::Open(o));
  EXPECT_TRUE(synced->syncs_writes());
}

// What a kill -9 leaves: the files as they are while the database is still
// open (nothing flushed, nothing closed). Without sync_writes, a write that
// returned must already be in the WAL file, so a copy of the directory taken
// right after it opens with the write in it.
TEST(StoreTest, WriteIsInTheWalWhenItReturnsWithAndWithoutSync) {
  for (bool sync : {false, true}) {
    const auto base = std::filesystem::temp_directory_path() /
                      ("dynarock_store_wal_" + std::to_string(::getpid()) +
                       (sync ? "_sync" : "_nosync"));
    const auto live = base / "live";
    const auto copy = base / "copy";
    std::filesystem::remove_all(base);
    std::filesystem::create_directories(base);
    StoreOptions o;
    o.path = live.string();
    o.sync_writes = sync;
    ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
    WriteBatch b;
    b.Put(Cf::kItems, "acknowledged", "v");
    b.AddToCounter("count", 1);
    ASSERT_OK(store->Write(&b));
    std::filesystem::copy(live, copy, std::filesystem::copy_options::recursive);
    StoreOptions c;
    c.path = copy.string();
    {
      ASSERT_OK_AND_ASSIGN(auto recovered, Store::Open(c));
      ASSERT_OK_AND_ASSIGN(auto v, recovered->Get(Cf::kItems, "acknowledged"));
      ASSERT_TRUE(v.has_value()) << "sync=" << sync;
      EXPECT_EQ(*v, "v");
      ASSERT_OK_AND_ASSIGN(int64_t n, recovered->GetCounter("count"));
      EXPECT_EQ(n, 1);
    }
    store.reset();
    std::filesystem::remove_all(base);
  }
}

TEST(StoreTest, OpenFailureIsAnIOErrorNotACrash) {
  StoreOptions o;
  o.path = "/proc/definitely/not/writable";
  auto s = Store::Open(o);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().code(), ErrorCode::kOk);
}

}  // namespace
}  // namespace dynarock
