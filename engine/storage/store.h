// engine/storage/store.h
//
// Store wraps the RocksDB database: its column families, atomic write
// batches, point reads and range iterators. It is the only place where
// rocksdb::Status becomes Status, and the only engine file that includes
// RocksDB headers.
//
// Column families:
//   meta     the catalog (table definitions) and per-table counters
//   items    base-table items (keys: engine/keys/key_codec.h)
//   indexes  GSI and LSI entries
//   gsi_log  pending asynchronous GSI updates
//   streams  DynamoDB Streams: stream and shard descriptors, stream records
//   pitr     point-in-time recovery: each PITR table's item changes
//
// It also owns the files beside the database that backups and snapshots are
// made of (SST files written with RocksDB's SstFileWriter and ingested with
// IngestExternalFile), in the database's Env: on disk under the database
// directory, or in memory with an in-memory database.
//
// Thread-safe: Get, Write and NewIterator may be called concurrently.

#ifndef DYNAROCK_ENGINE_STORAGE_STORE_H_
#define DYNAROCK_ENGINE_STORAGE_STORE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"

namespace rocksdb {
class WriteBatch;
}

namespace dynarock {

enum class Cf {
  kMeta = 0,
  kItems = 1,
  kIndexes = 2,
  kGsiLog = 3,
  kStreams = 4,
  kPitr = 5,
};
inline constexpr int kNumColumnFamilies = 6;

struct StoreOptions {
  std::string path;
  bool in_memory = false;
  // Every Write syncs the WAL to stable storage (WriteOptions::sync) before
  // it returns. Without it the WAL is still written (write(2) into the OS
  // page cache) before Write returns, so a process crash loses nothing; a
  // power loss can lose the writes the OS had not yet flushed.
  bool sync_writes = false;
  // Writes are refused (kIOError) while the filesystem of `path` has less
  // free space than this, so that RocksDB never meets a full disk itself:
  // its flushes and compactions keep room to finish, and writes resume by
  // themselves once space returns. 0 turns the check off. Ignored in memory.
  int64_t min_free_disk_bytes = 0;
  // Bytes a column family's memtable holds before it is flushed to an SST
  // file (RocksDB's write_buffer_size); 0: RocksDB's default (64 MB). A
  // smaller one bounds the memory of an in-memory store's unflushed writes
  // and keeps each memtable's skip list small.
  int64_t memtable_bytes = 0;
  // The indexes column family's memtable: at most this many bytes (or
  // memtable_bytes, if smaller). Its writes land at random places of an
  // index, two per moved entry (a tombstone and a put), so a short skip
  // list is cheaper to insert into and to read past, for the price of more
  // flushes (store.cc). 0: as the other column families.
  int64_t index_memtable_bytes = int64_t{8} << 20;
  // The WAL files kept for memtables not yet flushed: past this total,
  // RocksDB flushes the column families holding the oldest one (its
  // max_total_wal_size). Without it a column family that is written little
  // (the meta counters) keeps every WAL file since its last flush, up to
  // four times all memtables together (3.5 GB) on disk and to replay after
  // a crash. 0: RocksDB's default.
  int64_t max_wal_bytes = int64_t{512} << 20;
  // One LRU block cache shared by every column family, holding data blocks
  // and the index and filter blocks too (so the memory the store reads
  // through is bounded by this plus the memtables, whatever the data's
  // size; docs/storage-tuning.md). 0: RocksDB's defaults (an 8 MB cache per
  // column family, index and filter blocks outside it, all of them in
  // memory for every open table file). In memory: at most 32 MiB.
  int64_t block_cache_bytes = int64_t{256} << 20;
};

// A set of changes that Store::Write applies atomically.
class WriteBatch {
 public:
  WriteBatch();
  ~WriteBatch();
  WriteBatch(const WriteBatch&) = delete;
  WriteBatch& operator=(const WriteBatch&) = delete;

  void Put(Cf cf, std::string_view key, std::string_view value);
  void Delete(Cf cf, std::string_view key);
  // Removes every key in [begin, end). In Cf::kGsiLog, `begin` must not be
  // a whole record key (12 bytes): the log's memtable insert hints, which
  // RocksDB shares with range deletions, take exactly those (store.cc).
  void DeleteRange(Cf cf, std::string_view begin, std::string_view end);
  // Adds `delta` to the signed 64-bit counter stored at `key` (meta only;
  // a missing counter counts as 0). Read it back with Store::GetCounter.
  void AddToCounter(std::string_view key, int64_t delta);
  bool empty() const;

 private:
  friend class Store;
  std::unique_ptr<rocksdb::WriteBatch> rep_;
  // Holds a DeleteRange of Cf::kItems (Store::ItemsBulkGeneration).
  bool deletes_item_range_ = false;
};

// A leveldb-style iterator over [lower, upper) of one column family. Check
// status() when Valid() turns false. Not thread-safe; use one per thread.
class StoreIterator {
 public:
  virtual ~StoreIterator() = default;
  virtual bool Valid() const = 0;
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  // First key >= target.
  virtual void Seek(std::string_view target) = 0;
  // Last key <= target.
  virtual void SeekForPrev(std::string_view target) = 0;
  virtual void Next() = 0;
  virtual void Prev() = 0;
  // Valid until the next move. REQUIRES: Valid()
  virtual std::string_view key() const = 0;
  virtual std::string_view value() const = 0;
  virtual Status status() const = 0;
};

// What a read needs of the database: point reads and range iterators, of
// its latest state (Store) or of a point in time (StoreSnapshot), so that
// one read path serves both. Thread-safe.
class StoreReader {
 public:
  virtual ~StoreReader() = default;
  // The value, or nullopt when the key is absent.
  virtual Result<std::optional<std::string>> Get(Cf cf,
                                                 std::string_view key) const = 0;
  // An iterator bounded to [lower, upper); both bounds are copied.
  // REQUIRES: destroyed before the reader.
  virtual std::unique_ptr<StoreIterator> NewIterator(
      Cf cf, std::string_view lower, std::string_view upper) const = 0;
};

// A consistent point-in-time view of the database (a RocksDB snapshot):
// reads through it see exactly the writes committed before it was taken.
// Released when destroyed. REQUIRES: destroyed before its Store.
// Thread-safe.
class StoreSnapshot : public StoreReader {};

// Writes one SST file of ascending keys (RocksDB's SstFileWriter), for
// Store::Ingest or Store::ReadSst. Not thread-safe.
class SstWriter {
 public:
  virtual ~SstWriter() = default;
  // REQUIRES: `key` greater than every key put before.
  virtual Status Put(std::string_view key, std::string_view value) = 0;
  // Entries put so far.
  virtual uint64_t entries() const = 0;
  // Completes the file. A writer with no entries writes no file (RocksDB
  // refuses empty SST files); Finish then returns OK.
  virtual Status Finish() = 0;
};

class Store final : public StoreReader {
 public:
  // Opens or creates the database. Errors: kIOError, kCorruption.
  static Result<std::unique_ptr<Store>> Open(const StoreOptions& options);
  ~Store() override;

  // Point read: the value, or nullopt when the key is absent.
  Result<std::optional<std::string>> Get(Cf cf, std::string_view key) const override;
  // A snapshot of the database now (TransactGetItems reads through one).
  std::unique_ptr<StoreSnapshot> NewSnapshot() const;
  // A counter written with WriteBatch::AddToCounter (0 when absent).
  Result<int64_t> GetCounter(std::string_view key) const;

  // Applies the batch atomically; its WAL record is written before this
  // returns (and synced, with StoreOptions::sync_writes). On an error
  // nothing of the batch is applied and reads go on. Below
  // StoreOptions::min_free_disk_bytes the error is kIOError "No space left
  // on device" and writes succeed again as soon as space returns; an I/O
  // error from RocksDB itself (the disk filled past the floor, a failing
  // device) stops writes until a restart. Writes that do not sync enter
  // RocksDB one at a time (see Store::Rep::write_mu); synced ones in
  // RocksDB's write groups, which share one sync.
  Status Write(WriteBatch* batch);
  // Whether Write syncs the WAL (the WriteOptions every Write passes).
  bool syncs_writes() const;
  // A number that changes (grows) once each Write or Ingest has applied,
  // failed ones included: while it stays the same, the database's contents
  // have not changed. Read it BEFORE reading, to tag what is read with it
  // (a change that lands during the read then shows as a newer number).
  uint64_t WriteGeneration() const;
  // As WriteGeneration, but it changes only after a change to Cf::kItems
  // that is not a write of single keys: a Write holding a DeleteRange of
  // it, or an Ingest into it (table deletion, restores, snapshots). What is
  // known of single items (engine/data/item_size_cache.h) is tagged with it.
  uint64_t ItemsBulkGeneration() const;

  // An iterator bounded to [lower, upper); both bounds are copied.
  std::unique_ptr<StoreIterator> NewIterator(Cf cf, std::string_view lower,
                                             std::string_view upper) const override;

  // Flushes memtables to SST files (for tests and clean shutdown).
  Status Flush();
  // Flushes and compacts the whole column family, so that the space of its
  // deleted keys (range deletions included) is freed. Errors: kIOError.
  Status Compact(Cf cf);
  // The bytes the column family occupies now: its SST files plus its
  // memtables.
  uint64_t ApproximateBytes(Cf cf) const;

  // --- Files beside the database (backups, snapshots) ---
  // The directory of the database in its Env: the path it was opened
  // with, or the in-memory Env's root.
  const std::string& path() const;
  // A writer of a new SST file at `file` (in the database's Env).
  std::unique_ptr<SstWriter> NewSstWriter(const std::string& file) const;
  // An iterator over the entries of the SST file `file` (unbounded; not
  // positioned: Seek first). Errors: kIOError, kCorruption.
  Result<std::unique_ptr<StoreIterator>> NewSstIterator(const std::string& file) const;
  // Calls `fn(key, value)` for every entry of the SST file in key order;
  // stops at the first error `fn` returns. Errors: kIOError, kCorruption.
  Status ReadSst(const std::string& file,
                 const std::function<Status(std::string_view, std::string_view)>& fn) const;
  // Adds the entries of the SST files (written by SstWriter, keys not
  // overlapping each other) to `cf` atomically. With `move` the files are
  // moved into the database (hard-linked where possible), else copied.
  Status Ingest(Cf cf, const std::vector<std::string>& files, bool move);
  // Creates `dir` and its parents (no error when it exists).
  Status CreateDirs(const std::string& dir) const;
  // Removes `path` and, for a directory, everything under it; no error when
  // it does not exist.
  Status RemoveAll(const std::string& path) const;
  // The names in `dir` (not . and ..); empty when it does not exist.
  std::vector<std::string> ListDir(const std::string& dir) const;
  bool FileExists(const std::string& file) const;
  // The file's size in bytes (0 when absent).
  uint64_t FileSize(const std::string& file) const;

 private:
  struct Rep;
  explicit Store(std::unique_ptr<Rep> rep);
  std::unique_ptr<Rep> rep_;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_STORAGE_STORE_H_
