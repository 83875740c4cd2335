// bench/common/bench_world.h
//
// The preloaded databases that the benchmarks run against. A World is one
// configuration (in-memory or on-disk RocksDB) holding two databases with
// the same kPreloadItems Order items under the same keys:
//
//   - an Engine with table "Orders" (PK, SK), filled with PutItem;
//   - a raw RocksDB opened with the options of engine/storage/store.cc and
//     the same column families, filled with Put of keys::ItemKey ->
//     EncodeItem bytes, i.e. exactly what the engine stores.
//
// On disk, both are flushed to SST files after the preload (the engine by
// reopening it). Header-only; single-threaded setup.

#ifndef DYNAROCK_BENCH_COMMON_BENCH_WORLD_H_
#define DYNAROCK_BENCH_COMMON_BENCH_WORLD_H_

#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bench/common/check.h"
#include "bench/common/order_items.h"
#include "bench/common/orders_table.h"
#include "engine/engine.h"
#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"

namespace dynarock::bench {

inline constexpr int64_t kPreloadItems = 100'000;
// The engine numbers its tables from 1; the first table's items live under
// table id 1, so raw RocksDB uses the very same keys.
inline constexpr uint32_t kTableId = 1;

inline std::string MakeTempDir(const char* tag) {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "dynarock-bench-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) Die("mkdtemp failed");
  return pattern + "/" + tag;
}

// --- raw RocksDB, configured as engine/storage/store.cc ------------------

class RawDb {
 public:
  RawDb(bool in_memory, const std::string& path) : path_(path) {
    rocksdb::DBOptions db_options;
    db_options.create_if_missing = true;
    db_options.create_missing_column_families = true;
    db_options.max_background_jobs = 2;
    if (in_memory) {
      env_.reset(rocksdb::NewMemEnv(rocksdb::Env::Default()));
      db_options.env = env_.get();
    }
    rocksdb::BlockBasedTableOptions table_options;
    table_options.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
    rocksdb::ColumnFamilyOptions cf_options;
    cf_options.table_factory.reset(
        rocksdb::NewBlockBasedTableFactory(table_options));
    // The engine's column families, so that the WAL and the memtables are
    // laid out alike; items go to "items", as the engine's do.
    std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
    for (const char* name :
         {"default", "meta", "items", "indexes", "gsi_log"}) {
      descriptors.emplace_back(name, cf_options);
    }
    rocksdb::DB* db = nullptr;
    rocksdb::Status s = rocksdb::DB::Open(
        db_options, in_memory ? "/raw-mem" : path, descriptors, &handles_, &db);
    if (!s.ok()) Die("raw open: " + s.ToString());
    db_.reset(db);
    items_ = handles_[2];
  }

  ~RawDb() {
    for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    db_->Close().PermitUncheckedError();
  }

  void Put(const std::string& key, const std::string& value) {
    rocksdb::Status s = db_->Put(write_options_, items_, key, value);
    if (!s.ok()) Die("raw put: " + s.ToString());
  }

  // Like Store::Get: a fresh std::string per read.
  bool Get(const std::string& key, std::string* value) const {
    rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), items_, key, value);
    if (s.IsNotFound()) return false;
    if (!s.ok()) Die("raw get: " + s.ToString());
    return true;
  }

  // An iterator over the items column family, as Store::NewIterator makes
  // one (bounds in `options`, which must outlive the iterator).
  std::unique_ptr<rocksdb::Iterator> NewItemsIterator(
      const rocksdb::ReadOptions& options) const {
    return std::unique_ptr<rocksdb::Iterator>(db_->NewIterator(options, items_));
  }

  void Flush() {
    rocksdb::Status s = db_->Flush(rocksdb::FlushOptions(), handles_);
    if (!s.ok()) Die("raw flush: " + s.ToString());
  }

 private:
  std::string path_;
  std::unique_ptr<rocksdb::Env> env_;
  std::unique_ptr<rocksdb::DB> db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  rocksdb::ColumnFamilyHandle* items_ = nullptr;
  rocksdb::WriteOptions write_options_;  // sync = false, as the engine's default
};

// --- the data set, built once ---------------------------------------------

struct DataSet {
  std::vector<PutItemRequest> puts;
  std::vector<GetItemRequest> gets;
  std::vector<std::string> raw_keys;
  std::vector<std::string> raw_values;
};

inline const DataSet& Data() {
  static const DataSet* data = [] {
    auto* d = new DataSet;
    d->puts.reserve(kPreloadItems);
    d->gets.reserve(kPreloadItems);
    d->raw_keys.reserve(kPreloadItems);
    d->raw_values.reserve(kPreloadItems);
    for (int64_t i = 0; i < kPreloadItems; ++i) {
      PutItemRequest put;
      put.table_name = kTableName;
      put.item = OrderItem(i);
      if (ItemSize(put.item) != kOrderItemBytes) {
        Die("item " + std::to_string(i) + " is " +
            std::to_string(ItemSize(put.item)) + " bytes");
      }
      GetItemRequest get;
      get.table_name = kTableName;
      get.key = OrderKey(i);
      d->raw_keys.push_back(keys::ItemKey(kTableId, get.key.at("PK"),
                                         &get.key.at("SK")));
      std::string value;
      EncodeItem(put.item, &value);
      d->raw_values.push_back(std::move(value));
      d->puts.push_back(std::move(put));
      d->gets.push_back(std::move(get));
    }
    return d;
  }();
  return *data;
}

// PutItem of every item of Data() (kPreloadItems) into the Orders table.
inline void PreloadData(Engine& engine) {
  for (const PutItemRequest& put : Data().puts) {
    Check(engine.PutItem(put).status(), "preload PutItem");
  }
}

// --- one configuration: an engine and a raw database, preloaded ------------

class World {
 public:
  explicit World(bool in_memory) : in_memory_(in_memory) {
    const DataSet& data = Data();
    engine_path_ = in_memory ? "" : MakeTempDir("engine");
    raw_path_ = in_memory ? "" : MakeTempDir("raw");

    OpenEngine();
    CreateOrdersTable(*engine_);
    PreloadData(*engine_);
    raw_ = std::make_unique<RawDb>(in_memory, raw_path_);
    for (int64_t i = 0; i < kPreloadItems; ++i) {
      raw_->Put(data.raw_keys[i], data.raw_values[i]);
    }
    if (!in_memory) {
      engine_.reset();  // flushes the memtables to SST files
      OpenEngine();
      raw_->Flush();
    }
    Verify();
  }

  ~World() {
    engine_.reset();
    raw_.reset();
    for (const std::string& p : {engine_path_, raw_path_}) {
      if (!p.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(std::filesystem::path(p).parent_path(), ec);
      }
    }
  }

  Engine& engine() { return *engine_; }
  RawDb& raw() { return *raw_; }

 private:
  void OpenEngine() {
    engine_ = OpenBenchEngine(BenchEngineOptions(in_memory_, engine_path_));
  }

  // Both sides hold the same items under the same keys.
  void Verify() {
    const DataSet& data = Data();
    for (int64_t i : {int64_t{0}, kPreloadItems / 2, kPreloadItems - 1}) {
      auto got = engine_->GetItem(data.gets[i]);
      Check(got.status(), "verify GetItem");
      if (!got->item || *got->item != data.puts[i].item) Die("engine item differs");
      std::string value;
      if (!raw_->Get(data.raw_keys[i], &value) || value != data.raw_values[i]) {
        Die("raw value differs");
      }
    }
  }

  bool in_memory_;
  std::string engine_path_, raw_path_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<RawDb> raw_;
};

// The preloaded World of each configuration, built on first use.
inline std::unique_ptr<World>& WorldSlot(bool in_memory) {
  static std::unique_ptr<World> worlds[2];
  return worlds[in_memory ? 0 : 1];
}

inline World& WorldFor(bool in_memory) {
  auto& w = WorldSlot(in_memory);
  if (!w) w = std::make_unique<World>(in_memory);
  return *w;
}

// Prints the heading of the ratios after a run on the Worlds:
//   "\n<title> (same run; <n> items of <size> bytes preloaded, random keys<detail>):"
inline void PrintRatiosHeading(const char* title, const char* detail = "") {
  std::printf("\n%s (same run; %lld items of %lld bytes preloaded, random keys%s):\n",
              title, static_cast<long long>(kPreloadItems),
              static_cast<long long>(kOrderItemBytes), detail);
}

// Closes both Worlds (and removes their directories); call at the end of
// main(), after the run.
inline void ReleaseWorlds() {
  WorldSlot(true).reset();
  WorldSlot(false).reset();
}

}  // namespace dynarock::bench

#endif  // DYNAROCK_BENCH_COMMON_BENCH_WORLD_H_
