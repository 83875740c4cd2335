#include "engine/storage/store.h"

#include <rocksdb/cache.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>
#include <rocksdb/slice_transform.h>
#include <rocksdb/sst_file_manager.h>
#include <rocksdb/table.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/sst_file_reader.h>
#include <rocksdb/sst_file_writer.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <string>

#include <sys/statvfs.h>
#include <vector>

namespace dynarock {
namespace {

constexpr const char* kCfNames[] = {"meta",    "items",   "indexes",
                                    "gsi_log", "streams", "pitr"};
constexpr int kNumCfs = kNumColumnFamilies;
static_assert(sizeof(kCfNames) / sizeof(kCfNames[0]) == kNumCfs);

Status FromRocks(const rocksdb::Status& s) {
  if (s.ok()) return Status::OK();
  if (s.IsCorruption()) return Status::Corruption(s.ToString());
  if (s.IsIOError()) return Status::IOError(s.ToString());
  return Status::Internal(s.ToString());
}

rocksdb::Slice ToSlice(std::string_view s) {
  return rocksdb::Slice(s.data(), s.size());
}

int64_t DecodeCounter(const rocksdb::Slice& s) {
  int64_t v = 0;
  if (s.size() == sizeof(v)) std::memcpy(&v, s.data(), sizeof(v));
  return v;
}

std::string EncodeCounter(int64_t v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(v));
}

// Sums signed 64-bit counters (host byte order; counters are rebuilt
// nowhere else, and the database is not meant to move between machines of
// different endianness).
class CounterAddOperator : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing,
             const rocksdb::Slice& value, std::string* new_value,
             rocksdb::Logger*) const override {
    int64_t sum = (existing ? DecodeCounter(*existing) : 0) +
                  DecodeCounter(value);
    *new_value = EncodeCounter(sum);
    return true;
  }
  const char* Name() const override { return "dynarock.CounterAdd"; }
};

// A StoreIterator over a column family's range, or over an SST file's
// entries (then owning the file's reader).
class IteratorImpl final : public StoreIterator {
 public:
  explicit IteratorImpl(std::unique_ptr<rocksdb::SstFileReader> reader)
      : reader_(std::move(reader)) {
    rocksdb::ReadOptions ro;
    ro.fill_cache = false;  // read once, in order: keep the block cache for the tables
    it_.reset(reader_->NewIterator(ro));
  }
  IteratorImpl(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf,
               std::string_view lower, std::string_view upper,
               const rocksdb::Snapshot* snapshot = nullptr)
      : lower_(lower), upper_(upper) {
    lower_slice_ = rocksdb::Slice(lower_);
    upper_slice_ = rocksdb::Slice(upper_);
    rocksdb::ReadOptions ro;
    ro.snapshot = snapshot;
    ro.iterate_lower_bound = &lower_slice_;
    if (!upper_.empty()) ro.iterate_upper_bound = &upper_slice_;
    it_.reset(db->NewIterator(ro, cf));
  }
  bool Valid() const override { return it_->Valid(); }
  void SeekToFirst() override { it_->SeekToFirst(); }
  void SeekToLast() override { it_->SeekToLast(); }
  void Seek(std::string_view t) override { it_->Seek(ToSlice(t)); }
  void SeekForPrev(std::string_view t) override {
    it_->SeekForPrev(ToSlice(t));
  }
  void Next() override { it_->Next(); }
  void Prev() override { it_->Prev(); }
  std::string_view key() const override {
    rocksdb::Slice k = it_->key();
    return {k.data(), k.size()};
  }
  std::string_view value() const override {
    rocksdb::Slice v = it_->value();
    return {v.data(), v.size()};
  }
  Status status() const override { return FromRocks(it_->status()); }

 private:
  std::string lower_, upper_;
  rocksdb::Slice lower_slice_, upper_slice_;
  std::unique_ptr<rocksdb::SstFileReader> reader_;  // an SST file's, or none
  std::unique_ptr<rocksdb::Iterator> it_;            // destroyed before reader_
};

// The GSI log's memtable insert hints: one per index, for the record keys
// (index id, 4 bytes, then the sequence number, 8). Only whole record keys
// are in the domain: RocksDB's MemTable keeps one hint map for its point
// entries and its range deletions, two different skip lists, so a range
// deletion starting at a record key would reuse a point entry's hint in the
// wrong list (an assertion in InlineSkipList::Insert, or worse). The GSI
// log's range deletions start at an index's 4-byte prefix
// (SecondaryIndexes' index deletion) or at "" (the Engine's snapshot reset); see
// WriteBatch::DeleteRange.
class GsiLogInsertHint : public rocksdb::SliceTransform {
 public:
  static constexpr size_t kRecordKeySize = 12;
  const char* Name() const override { return "dynarock.GsiLogInsertHint"; }
  rocksdb::Slice Transform(const rocksdb::Slice& key) const override {
    return rocksdb::Slice(key.data(), 4);
  }
  bool InDomain(const rocksdb::Slice& key) const override {
    return key.size() == kRecordKeySize;
  }
};

// Takes `lock`'s mutex, trying it for a while before sleeping on it. A
// write holds Rep::write_mu for a few microseconds (the memtable inserts of
// one batch), less than what a writer that sleeps on a taken mutex pays to
// be put to sleep and woken (futex calls, two context switches): under
// concurrent PutItems, spinning first gave 3-5 % more requests/s and 4 %
// less CPU per request (bench/README.md, issue 18, fifth pass). Bounded,
// for the writer that finds the mutex held by a long batch or by a thread
// the scheduler took off its core.
void LockSpinningFirst(std::unique_lock<std::mutex>* lock) {
  constexpr int kTries = 1000;
  for (int i = 0; i < kTries; ++i) {
    if (lock->try_lock()) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }
  lock->lock();
}

}  // namespace

struct Store::Rep {
  std::unique_ptr<rocksdb::Env> mem_env;  // in-memory mode only
  std::string files_dir;  // the database directory in its Env (Store::path)
  rocksdb::Options file_options;  // env + comparator for SST files
  rocksdb::Env* env() const { return file_options.env; }
  std::unique_ptr<rocksdb::DB> db;
  std::vector<rocksdb::ColumnFamilyHandle*> cfs;
  rocksdb::WriteOptions write_options;
  // Held around DB::Write when writes do not sync. Concurrent writers
  // otherwise form RocksDB write groups, whose leader/follower hand-offs
  // (JoinBatchGroup, parallel memtable writers) put every writer to sleep
  // and wake it again: on the two shared cores of bench/README's HTTP
  // figures, more than half of DB::Write's time under concurrent PutItems.
  // Write groups pay off by sharing a WAL sync, which only synced writes
  // have. Taken with LockSpinningFirst.
  std::mutex write_mu;
  std::string path;
  int64_t min_free_disk_bytes = 0;
  // The free space of `path`'s filesystem at the last look, and the bytes
  // written since (CheckFreeSpace); racy on purpose, it is an estimate.
  std::atomic<int64_t> free_bytes{0};
  std::atomic<int64_t> written_since{0};
  std::atomic<int64_t> looked_at_micros{0};
  // Store::WriteGeneration: bumped after every Write and Ingest applied.
  std::atomic<uint64_t> write_generation{0};
  // Store::ItemsBulkGeneration: bumped after every Write holding a range
  // deletion of Cf::kItems and every Ingest into it.
  std::atomic<uint64_t> items_bulk_generation{0};

  static int64_t NowMicros() {
    return std::chrono::duration_cast<std::chrono::microseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  // Takes the filesystem's free space (statvfs), `written` bytes being
  // already counted against it. Open looks once before the first write:
  // otherwise writers racing the first look would read free_bytes' initial
  // 0 and refuse their writes as if the disk were full.
  void LookAtFilesystem(int64_t written) {
    struct statvfs fs;
    if (statvfs(path.c_str(), &fs) == 0) {
      free_bytes.store(static_cast<int64_t>(fs.f_bavail) * static_cast<int64_t>(fs.f_frsize));
      written_since.store(written);
    }
  }

  // Refuses a write that would take the filesystem below the floor. Looks
  // at the filesystem at most every 50 ms or 4 MB written.
  Status CheckFreeSpace(int64_t batch_bytes) {
    if (min_free_disk_bytes <= 0) return Status::OK();
    const int64_t now = NowMicros();
    int64_t looked = looked_at_micros.load(std::memory_order_relaxed);
    const int64_t written = written_since.fetch_add(batch_bytes) + batch_bytes;
    if ((now - looked >= 50'000 || written >= (4 << 20)) &&
        looked_at_micros.compare_exchange_strong(looked, now)) {
      LookAtFilesystem(batch_bytes);
    }
    const int64_t left = free_bytes.load() - written_since.load();
    if (left >= min_free_disk_bytes) return Status::OK();
    written_since.fetch_sub(batch_bytes);  // not written after all
    return Status::IOError("No space left on device: " + path + " has " +
                           std::to_string(std::max<int64_t>(left, 0) >> 20) +
                           " MB free, below the " +
                           std::to_string(min_free_disk_bytes >> 20) +
                           " MB kept for flushes and compactions");
  }

  ~Rep() {
    if (db) {
      for (auto* cf : cfs) db->DestroyColumnFamilyHandle(cf);
      db->Close().PermitUncheckedError();
      db.reset();
    }
  }
};

WriteBatch::WriteBatch() : rep_(std::make_unique<rocksdb::WriteBatch>()) {}
WriteBatch::~WriteBatch() = default;
bool WriteBatch::empty() const { return rep_->Count() == 0; }

// A WriteBatch is filled before it meets a Store, but rocksdb::WriteBatch
// wants a ColumnFamilyHandle* per op, of which it only reads the id and the
// comparator. These static handles carry our fixed ids, so batches need no
// Store to be built.
namespace {
class CfIdHandle final : public rocksdb::ColumnFamilyHandle {
 public:
  explicit CfIdHandle(uint32_t id) : id_(id) {}
  const std::string& GetName() const override { return name_; }
  uint32_t GetID() const override { return id_; }
  rocksdb::Status GetDescriptor(rocksdb::ColumnFamilyDescriptor*) override {
    return rocksdb::Status::NotSupported();
  }
  const rocksdb::Comparator* GetComparator() const override {
    return rocksdb::BytewiseComparator();
  }

 private:
  uint32_t id_;
  std::string name_;
};

// RocksDB assigns column family ids in creation order: default = 0, then
// meta, items, indexes, gsi_log, streams, pitr = 1..6 (Store::Open creates them in that
// order and checks the ids it gets back).
rocksdb::ColumnFamilyHandle* HandleFor(Cf cf) {
  static CfIdHandle handles[kNumCfs] = {CfIdHandle(1), CfIdHandle(2),
                                        CfIdHandle(3), CfIdHandle(4),
                                        CfIdHandle(5), CfIdHandle(6)};
  return &handles[static_cast<int>(cf)];
}
}  // namespace

void WriteBatch::Put(Cf cf, std::string_view key, std::string_view value) {
  rep_->Put(HandleFor(cf), ToSlice(key), ToSlice(value)).PermitUncheckedError();
}
void WriteBatch::Delete(Cf cf, std::string_view key) {
  rep_->Delete(HandleFor(cf), ToSlice(key)).PermitUncheckedError();
}
void WriteBatch::DeleteRange(Cf cf, std::string_view begin,
                             std::string_view end) {
  rep_->DeleteRange(HandleFor(cf), ToSlice(begin), ToSlice(end))
      .PermitUncheckedError();
  if (cf == Cf::kItems) deletes_item_range_ = true;
}
void WriteBatch::AddToCounter(std::string_view key, int64_t delta) {
  rep_->Merge(HandleFor(Cf::kMeta), ToSlice(key), EncodeCounter(delta))
      .PermitUncheckedError();
}

Store::Store(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}
Store::~Store() = default;

namespace {

// The SST files' table options: bloom filters, and the block cache that
// bounds their index and filter blocks (StoreOptions::block_cache_bytes).
rocksdb::BlockBasedTableOptions TableOptionsFor(const StoreOptions& options) {
  rocksdb::BlockBasedTableOptions table_options;
  table_options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  if (options.block_cache_bytes > 0) {
    // RocksDB's defaults keep every open file's index and filter blocks
    // outside any cache, for as long as the file is open (max_open_files
    // -1): memory that grows with the data (bench/README, issue 45: a
    // restarted server's RSS 76 MiB at 100,000 items, 266 at 10 million).
    // In one shared cache they are bounded with the data blocks; L0's stay
    // pinned (they are read by every lookup), and with partitioned indexes
    // and filters only their small top level is pinned, the partitions
    // cached as they are used.
    // In memory the files are memory already: the cache only saves
    // decompressing, and each byte in it is held twice, so it stays small.
    const int64_t cache_bytes = options.in_memory
        ? std::min<int64_t>(options.block_cache_bytes, int64_t{32} << 20)
        : options.block_cache_bytes;
    table_options.block_cache = rocksdb::NewLRUCache(static_cast<size_t>(cache_bytes));
    table_options.cache_index_and_filter_blocks = true;
    table_options.cache_index_and_filter_blocks_with_high_priority = true;
    table_options.pin_l0_filter_and_index_blocks_in_cache = true;
    table_options.index_type = rocksdb::BlockBasedTableOptions::kTwoLevelIndexSearch;
    table_options.partition_filters = true;
    table_options.pin_top_level_index_and_filter = true;
  }
  return table_options;
}

// The column families in creation order (the default one first, unused),
// each with `cf_options` and what its data needs on top of them.
std::vector<rocksdb::ColumnFamilyDescriptor> ColumnFamiliesFor(
    const StoreOptions& options, const rocksdb::ColumnFamilyOptions& cf_options) {
  rocksdb::ColumnFamilyOptions meta_options = cf_options;
  meta_options.merge_operator = std::make_shared<CounterAddOperator>();

  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  descriptors.emplace_back(rocksdb::kDefaultColumnFamilyName, cf_options);
  // The GSI log's records are appended in sequence order per index
  // (index id, 4 bytes, then the sequence number) and deleted in the same
  // order: each memtable insert lands beside the previous one of its index,
  // which the skip list finds from a hint instead of a search from its head
  // (bench/README, issue 18's fourth pass). Hints need memtable inserts that
  // do not run concurrently (Store::Open).
  rocksdb::ColumnFamilyOptions log_options = cf_options;
  log_options.memtable_insert_with_hint_prefix_extractor =
      std::make_shared<GsiLogInsertHint>();
  // The propagator writes index entries where their keys fall, all over an
  // index, and each entry that moves leaves a tombstone as well as a put.
  // In a 64 MB memtable those inserts took 12 % of the server's CPU under
  // PutItem with two GSIs on disk, twice what the request threads' inserts
  // took (bench/README, issue 18, ninth pass), mostly in the skip list's
  // search. A small memtable keeps the skip list short, for the price of
  // more flushes, each writing only the newest version of the keys it
  // holds. Levels sized to it (L1 of as many memtables as trigger an L0
  // compaction; files of one) keep each L0 compaction in proportion to
  // what it merges, as RocksDB's tuning guide asks of a smaller write
  // buffer.
  rocksdb::ColumnFamilyOptions index_options = cf_options;
  if (options.index_memtable_bytes > 0 &&
      static_cast<size_t>(options.index_memtable_bytes) <
          index_options.write_buffer_size) {
    index_options.write_buffer_size =
        static_cast<size_t>(options.index_memtable_bytes);
    index_options.max_bytes_for_level_base =
        static_cast<uint64_t>(index_options.level0_file_num_compaction_trigger) *
        index_options.write_buffer_size;
    index_options.target_file_size_base = index_options.write_buffer_size;
  }
  for (int i = 0; i < kNumCfs; ++i) {
    const rocksdb::ColumnFamilyOptions& cf =
        i == static_cast<int>(Cf::kMeta)      ? meta_options
        : i == static_cast<int>(Cf::kGsiLog)  ? log_options
        : i == static_cast<int>(Cf::kIndexes) ? index_options
                                              : cf_options;
    descriptors.emplace_back(kCfNames[i], cf);
  }
  return descriptors;
}

}  // namespace

Result<std::unique_ptr<Store>> Store::Open(const StoreOptions& options) {
  auto rep = std::make_unique<Rep>();
  rocksdb::DBOptions db_options;
  db_options.create_if_missing = true;
  db_options.create_missing_column_families = true;
  db_options.max_background_jobs = 2;
  if (options.max_wal_bytes > 0) {
    db_options.max_total_wal_size = static_cast<uint64_t>(options.max_wal_bytes);
  }
  if (options.in_memory) {
    rep->mem_env.reset(rocksdb::NewMemEnv(rocksdb::Env::Default()));
    db_options.env = rep->mem_env.get();
    // Nothing survives the database: flushing the memtables on close (what
    // RocksDB does without a WAL) would be work for nothing.
    db_options.avoid_flush_during_shutdown = true;
  } else {
    // Tracks the database's files and, should RocksDB itself meet a full
    // disk (past min_free_disk_bytes), tries RocksDB's own recovery.
    db_options.sst_file_manager.reset(rocksdb::NewSstFileManager(db_options.env));
    rep->path = options.path;
    rep->min_free_disk_bytes = options.min_free_disk_bytes;
  }

  rocksdb::ColumnFamilyOptions cf_options;
  // Level targets sized from the last level's actual size: about 1.1x
  // space amplification and no level sized for data that is not there
  // (RocksDB's recommended setting, its default from 8.4; 7.8 is here).
  cf_options.level_compaction_dynamic_level_bytes = true;
  if (options.memtable_bytes > 0) {
    cf_options.write_buffer_size = static_cast<size_t>(options.memtable_bytes);
  }
  cf_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(TableOptionsFor(options)));
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors =
      ColumnFamiliesFor(options, cf_options);
  // The GSI log's insert hints (ColumnFamiliesFor) need memtable inserts
  // that do not run concurrently: writes that do not sync enter one at a
  // time anyway (Rep::write_mu), and synced writes' groups gain little from
  // parallel inserts on a few cores.
  db_options.allow_concurrent_memtable_write = false;
  const std::string path = options.in_memory ? "/dynarock-mem" : options.path;
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  rocksdb::Status s =
      rocksdb::DB::Open(db_options, path, descriptors, &handles, &db);
  if (!s.ok()) return FromRocks(s);
  rep->db.reset(db);
  // handles[0] is the default CF, unused.
  rep->db->DestroyColumnFamilyHandle(handles[0]).PermitUncheckedError();
  for (int i = 0; i < kNumCfs; ++i) {
    rep->cfs.push_back(handles[i + 1]);
    if (handles[i + 1]->GetID() != static_cast<uint32_t>(i + 1)) {
      return Status::Corruption(std::string("column family ") + kCfNames[i] +
                                " has an unexpected id");
    }
  }
  rep->files_dir = path;
  rep->file_options = rocksdb::Options(db_options, cf_options);
  rep->write_options.sync = options.sync_writes;
  // An in-memory database dies with the process, so a WAL (itself held in
  // memory there) protects nothing and doubles the memory every write costs.
  rep->write_options.disableWAL = options.in_memory;
  if (rep->min_free_disk_bytes > 0) {  // the directory exists now
    rep->LookAtFilesystem(0);
    rep->looked_at_micros.store(Rep::NowMicros());
  }
  return std::unique_ptr<Store>(new Store(std::move(rep)));
}

Result<std::optional<std::string>> Store::Get(Cf cf,
                                              std::string_view key) const {
  std::string value;
  rocksdb::Status s = rep_->db->Get(rocksdb::ReadOptions(),
                                    rep_->cfs[static_cast<int>(cf)],
                                    ToSlice(key), &value);
  if (s.IsNotFound()) return std::optional<std::string>();
  if (!s.ok()) return FromRocks(s);
  return std::optional<std::string>(std::move(value));
}

namespace {

class SnapshotImpl final : public StoreSnapshot {
 public:
  SnapshotImpl(rocksdb::DB* db, const std::vector<rocksdb::ColumnFamilyHandle*>* cfs)
      : db_(db), cfs_(cfs), snapshot_(db->GetSnapshot()) {}
  ~SnapshotImpl() override { db_->ReleaseSnapshot(snapshot_); }

  Result<std::optional<std::string>> Get(Cf cf,
                                         std::string_view key) const override {
    rocksdb::ReadOptions options;
    options.snapshot = snapshot_;
    std::string value;
    rocksdb::Status s =
        db_->Get(options, (*cfs_)[static_cast<int>(cf)], ToSlice(key), &value);
    if (s.IsNotFound()) return std::optional<std::string>();
    if (!s.ok()) return FromRocks(s);
    return std::optional<std::string>(std::move(value));
  }

  std::unique_ptr<StoreIterator> NewIterator(
      Cf cf, std::string_view lower, std::string_view upper) const override {
    return std::make_unique<IteratorImpl>(db_, (*cfs_)[static_cast<int>(cf)],
                                          lower, upper, snapshot_);
  }

 private:
  rocksdb::DB* db_;
  const std::vector<rocksdb::ColumnFamilyHandle*>* cfs_;
  const rocksdb::Snapshot* snapshot_;
};

}  // namespace

std::unique_ptr<StoreSnapshot> Store::NewSnapshot() const {
  return std::make_unique<SnapshotImpl>(rep_->db.get(), &rep_->cfs);
}

Result<int64_t> Store::GetCounter(std::string_view key) const {
  DR_ASSIGN_OR_RETURN(auto value, Get(Cf::kMeta, key));
  if (!value) return int64_t{0};
  return DecodeCounter(rocksdb::Slice(*value));
}

bool Store::syncs_writes() const { return rep_->write_options.sync; }

Status Store::Write(WriteBatch* batch) {
  // No DB::Resume() after a failed write: with a WAL write error, RocksDB
  // 7.8 (Debian's, built with assertions) aborts the process in Resume.
  // Hence the floor, which keeps RocksDB from meeting a full disk at all.
  DR_RETURN_IF_ERROR(
      rep_->CheckFreeSpace(static_cast<int64_t>(batch->rep_->GetDataSize())));
  rocksdb::Status s;
  {
    std::unique_lock<std::mutex> one_at_a_time(rep_->write_mu, std::defer_lock);
    if (!rep_->write_options.sync) LockSpinningFirst(&one_at_a_time);
    s = rep_->db->Write(rep_->write_options, batch->rep_.get());
  }
  // After the write, so that a reader that saw the old number read before
  // it could see the change.
  rep_->write_generation.fetch_add(1, std::memory_order_acq_rel);
  if (batch->deletes_item_range_) {
    rep_->items_bulk_generation.fetch_add(1, std::memory_order_acq_rel);
  }
  return FromRocks(s);
}

uint64_t Store::WriteGeneration() const {
  return rep_->write_generation.load(std::memory_order_acquire);
}

uint64_t Store::ItemsBulkGeneration() const {
  return rep_->items_bulk_generation.load(std::memory_order_acquire);
}

std::unique_ptr<StoreIterator> Store::NewIterator(Cf cf,
                                                  std::string_view lower,
                                                  std::string_view upper) const {
  return std::make_unique<IteratorImpl>(
      rep_->db.get(), rep_->cfs[static_cast<int>(cf)], lower, upper);
}

Status Store::Flush() {
  rocksdb::FlushOptions fo;
  return FromRocks(rep_->db->Flush(fo, rep_->cfs));
}

// --- Files beside the database ------------------------------------------

namespace {

class SstWriterImpl final : public SstWriter {
 public:
  SstWriterImpl(const rocksdb::Options& options, std::string file)
      : writer_(rocksdb::EnvOptions(), options), file_(std::move(file)) {}
  ~SstWriterImpl() override {
    // An unfinished file is abandoned; RocksDB removes nothing for us.
    if (opened_ && !finished_) writer_.Finish().PermitUncheckedError();
  }

  Status Put(std::string_view key, std::string_view value) override {
    if (!opened_) {
      DR_RETURN_IF_ERROR(FromRocks(writer_.Open(file_)));
      opened_ = true;
    }
    ++entries_;
    return FromRocks(writer_.Put(ToSlice(key), ToSlice(value)));
  }
  uint64_t entries() const override { return entries_; }
  Status Finish() override {
    finished_ = true;
    if (!opened_) return Status::OK();
    return FromRocks(writer_.Finish());
  }

 private:
  rocksdb::SstFileWriter writer_;
  std::string file_;
  uint64_t entries_ = 0;
  bool opened_ = false;
  bool finished_ = false;
};


}  // namespace

const std::string& Store::path() const { return rep_->files_dir; }

std::unique_ptr<SstWriter> Store::NewSstWriter(const std::string& file) const {
  return std::make_unique<SstWriterImpl>(rep_->file_options, file);
}

Result<std::unique_ptr<StoreIterator>> Store::NewSstIterator(const std::string& file) const {
  auto reader = std::make_unique<rocksdb::SstFileReader>(rep_->file_options);
  DR_RETURN_IF_ERROR(FromRocks(reader->Open(file)));
  return std::unique_ptr<StoreIterator>(std::make_unique<IteratorImpl>(std::move(reader)));
}

Status Store::ReadSst(
    const std::string& file,
    const std::function<Status(std::string_view, std::string_view)>& fn) const {
  DR_ASSIGN_OR_RETURN(std::unique_ptr<StoreIterator> it, NewSstIterator(file));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    DR_RETURN_IF_ERROR(fn(it->key(), it->value()));
  }
  return it->status();
}

Status Store::Ingest(Cf cf, const std::vector<std::string>& files, bool move) {
  if (files.empty()) return Status::OK();
  rocksdb::IngestExternalFileOptions options;
  options.move_files = move;
  // The keys are new to the database (a fresh table id, or an emptied
  // column family): no global sequence number needs to be assigned over
  // existing keys, but allow it for safety.
  options.allow_global_seqno = true;
  options.allow_blocking_flush = true;
  const rocksdb::Status s = rep_->db->IngestExternalFile(
      rep_->cfs[static_cast<int>(cf)], files, options);
  rep_->write_generation.fetch_add(1, std::memory_order_acq_rel);
  if (cf == Cf::kItems) {
    rep_->items_bulk_generation.fetch_add(1, std::memory_order_acq_rel);
  }
  return FromRocks(s);
}

Status Store::CreateDirs(const std::string& dir) const {
  // CreateDirIfMissing creates one level; walk the parents.
  for (size_t pos = 1; pos != std::string::npos;) {
    pos = dir.find('/', pos);
    const std::string part = dir.substr(0, pos);
    if (!part.empty()) {
      rocksdb::Status s = rep_->env()->CreateDirIfMissing(part);
      if (!s.ok()) return FromRocks(s);
    }
    if (pos != std::string::npos) ++pos;
  }
  return Status::OK();
}

Status Store::RemoveAll(const std::string& path) const {
  rocksdb::Env* env = rep_->env();
  // A directory's children first (GetChildren fails on a file on disk and
  // lists nothing for one in memory), then the path as a file and as a
  // directory: the in-memory Env keeps directories as entries of their own.
  std::vector<std::string> children;
  if (env->GetChildren(path, &children).ok()) {
    for (const std::string& child : children) {
      if (child == "." || child == "..") continue;
      DR_RETURN_IF_ERROR(RemoveAll(path + "/" + child));
    }
  }
  // DeleteDir only on what exists: the in-memory Env's DeleteDir of a
  // missing path dereferences a null entry.
  if (!env->DeleteFile(path).ok() && env->FileExists(path).ok()) {
    env->DeleteDir(path).PermitUncheckedError();
  }
  if (!ListDir(path).empty()) return Status::IOError("cannot remove " + path);
  return Status::OK();
}

std::vector<std::string> Store::ListDir(const std::string& dir) const {
  std::vector<std::string> children, out;
  if (!rep_->env()->GetChildren(dir, &children).ok()) return out;
  for (std::string& c : children) {
    if (c != "." && c != "..") out.push_back(std::move(c));
  }
  return out;
}

bool Store::FileExists(const std::string& file) const {
  return rep_->env()->FileExists(file).ok();
}

uint64_t Store::FileSize(const std::string& file) const {
  uint64_t size = 0;
  if (!rep_->env()->GetFileSize(file, &size).ok()) return 0;
  return size;
}

Status Store::Compact(Cf cf) {
  rocksdb::ColumnFamilyHandle* handle = rep_->cfs[static_cast<size_t>(cf)];
  rocksdb::FlushOptions fo;
  DR_RETURN_IF_ERROR(FromRocks(rep_->db->Flush(fo, handle)));
  rocksdb::CompactRangeOptions co;
  co.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  return FromRocks(rep_->db->CompactRange(co, handle, nullptr, nullptr));
}

uint64_t Store::ApproximateBytes(Cf cf) const {
  rocksdb::ColumnFamilyHandle* handle = rep_->cfs[static_cast<size_t>(cf)];
  uint64_t sst = 0;
  uint64_t mem = 0;
  rep_->db->GetIntProperty(handle, rocksdb::DB::Properties::kTotalSstFilesSize, &sst);
  rep_->db->GetIntProperty(handle, rocksdb::DB::Properties::kCurSizeAllMemTables, &mem);
  return sst + mem;
}

}  // namespace dynarock
