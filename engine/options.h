// engine/options.h
//
// EngineOptions: everything an embedding program chooses when it opens an
// Engine. Defaults give an on-disk engine on the real clock.

#ifndef DYNAROCK_ENGINE_OPTIONS_H_
#define DYNAROCK_ENGINE_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/capacity/capacity_options.h"
#include "engine/fault/fault_rule.h"

namespace dynarock {

class Clock;
class TransferFiles;

// EngineOptions::item_size_cache_entries: a million items, 16 MiB at most.
inline constexpr size_t kDefaultItemSizeCacheEntries = size_t{1} << 20;

// How GSI log records reach their indexes (engine/index/propagator.h).
enum class GsiPropagation {
  // kDeterministic when `clock` is a SimulatedClock, else kBackground.
  kAuto,
  // A background thread applies each record once its lag has passed.
  kBackground,
  // No thread: every engine call first applies what is due at the clock's
  // current time (and runs one step of each backfill), so a simulation on a
  // SimulatedClock is reproducible. Engine::PropagateIndexes does the same
  // on demand.
  kDeterministic,
};

struct EngineOptions {
  // Directory of the RocksDB database; created if missing. Ignored when
  // in_memory is set.
  std::string path = "dynarock-data";
  // Keep everything in memory (RocksDB on an in-memory Env); nothing
  // survives the Engine.
  bool in_memory = false;
  // The one source of time. Null means RealClock::Default(). Not owned;
  // must outlive the Engine.
  Clock* clock = nullptr;
  // How long a new table stays CREATING and a deleted one DELETING before it
  // is ACTIVE or gone. Short but non-zero by default, so that SDK waiters
  // see the transitions DynamoDB has.
  int64_t table_create_delay_micros = 50'000;
  int64_t table_delete_delay_micros = 50'000;
  // Synchronous RocksDB writes: every write's WAL record is fsynced
  // (WriteOptions::sync) before the write returns, so an acknowledged write
  // survives a power loss. Off by default: the WAL record is still written
  // (into the OS page cache) before the write returns, so a process crash
  // (kill -9) loses nothing acknowledged; a power loss or kernel crash can
  // lose the last writes. `dynarock serve --sync-writes` sets it.
  bool sync_writes = false;
  // Writes are refused with an I/O error (InternalServerError) while the
  // database's filesystem has less free space than this, so that RocksDB
  // keeps room to flush and compact and never meets a full disk itself;
  // writes resume as soon as space returns. 0 = no floor. On-disk only.
  int64_t min_free_disk_bytes = int64_t{64} << 20;
  // Bytes each column family's memtable holds before RocksDB flushes it to
  // a table file; 0: RocksDB's default (64 MB). The indexes' memtable holds
  // at most 8 MB either way (StoreOptions::index_memtable_bytes). An
  // in-memory engine holds its memtables besides its (compressed) table
  // files, so a smaller one bounds its memory; simulations set it.
  int64_t memtable_bytes = 0;
  // The store's shared block cache (StoreOptions::block_cache_bytes): data,
  // index and filter blocks of the table files; with the memtables, the
  // bound of what the store keeps in memory. 0: RocksDB's defaults.
  int64_t block_cache_bytes = int64_t{256} << 20;
  // How many items' existence and size the write path remembers
  // (engine/data/item_size_cache.h), so that a PutItem that needs nothing
  // else of the item it replaces does not read it. 16 bytes a slot, this
  // many slots rounded up to a power of two in each of 64 shards, allocated
  // as items are written. 0 remembers nothing.
  size_t item_size_cache_entries = kDefaultItemSizeCacheEntries;

  // --- Eventually consistent reads ---
  // How far behind the latest write an eventually consistent read of a table
  // or an LSI may be, on `clock`: such a read sees the items as they were
  // this long ago (engine/storage/lagging_replica.h), as a DynamoDB read
  // landing on a replica outside the write quorum may ("usually within one
  // second"). Strongly consistent reads, transactions and writes never lag;
  // GSIs lag by gsi_lag_micros. 0 (the default): every read sees the latest
  // write.
  int64_t eventual_read_lag_micros = 0;

  // --- Global tables ---
  // How long after a write to a replica of a global table it reaches the
  // other replicas, on `clock` (docs/global-tables.md). DynamoDB's is
  // "typically within a second"; 0 = at the next due work.
  int64_t replication_lag_micros = 1'000'000;
  // How long, at least, a replica keeps the version of a deleted item (its
  // tombstone) once no change waiting for the replica is older than it
  // (engine/replication/replicator.h): long enough for any write whose
  // stamp is already taken to reach the log.
  int64_t replication_tombstone_retention_micros = int64_t{10} * 60 * 1'000'000;
  // Serve CreateGlobalTable (global tables version 2017.11.29) as an account
  // that still has legacy global tables. Off (DynamoDB today for every new
  // table): CreateGlobalTable answers ValidationException "... version
  // 2017.11.29 is not supported ...", so no legacy table exists and the
  // other 2017.11.29 operations answer GlobalTableNotFoundException, and
  // ListGlobalTables an empty list (docs/global-tables.md).
  bool legacy_global_tables = false;

  // --- Secondary indexes ---
  // How long after a write its changes become visible in a GSI, on `clock`;
  // 0 = as fast as propagation goes. Engine::SetIndexLag overrides it per
  // index at runtime.
  int64_t gsi_lag_micros = 0;
  GsiPropagation gsi_propagation = GsiPropagation::kAuto;
  // Items an UpdateTable-created GSI's backfill reads per step.
  int64_t gsi_backfill_chunk_items = 1000;
  // The item-collection limit of tables with LSIs (DynamoDB: 10 GB); lower
  // it to make tests reach ItemCollectionSizeLimitExceededException.
  int64_t item_collection_size_limit_bytes = int64_t{10} << 30;

  // --- DynamoDB Streams ---
  // How long stream records (and closed shards, and disabled streams) are
  // kept: DynamoDB's 24 hours. On the engine clock.
  int64_t stream_retention_micros = int64_t{24} * 3600 * 1'000'000;
  // An open shard closes and a child with the same hash range opens after
  // this long (DynamoDB rolls shards over every few hours).
  int64_t stream_shard_rollover_micros = int64_t{4} * 3600 * 1'000'000;
  // Trimmed records' space is freed by a compaction of the stream storage
  // at most this often (StreamOptions::compaction_interval_micros).
  int64_t stream_compaction_interval_micros = int64_t{3600} * 1'000'000;
  // DynamoDB Streams' read limits (engine/stream/stream_reads.h), enforced
  // while throttling is on: GetRecords calls per second per shard,
  // DescribeStream and ListStreams calls per second per namespace.
  int64_t stream_get_records_per_shard_per_second = 10;
  int64_t stream_describe_stream_per_second = 10;
  int64_t stream_list_streams_per_second = 5;
  // --- Tags ---
  // The most tags one ListTagsOfResource call answers (NextToken for the
  // rest). A table has at most 50, so the default answers all at once.
  int64_t list_tags_page_size = 50;

  // --- Time to Live (engine/ttl/) ---
  // How often a sweep for expired items starts, on `clock`. Sweeps run in
  // the engine's due work (at the start of engine calls), at most
  // `ttl_sweep_chunk_items` items per call, so a call never waits for a
  // whole table. Engine::RunTimeToLiveSweep sweeps at once.
  int64_t ttl_sweep_interval_micros = 1'000'000;
  int64_t ttl_sweep_chunk_items = 1000;
  // When > 0, a thread of the engine's runs the due work (Engine::RunDueWork)
  // this often, in wall time, so that an idle engine still expires items and
  // trims streams: what `dynarock serve` and the Python package use on the
  // real clock. 0: only calls run it (a simulation on a SimulatedClock moves
  // the work with its calls and clock).
  int64_t due_work_interval_micros = 0;
  // Wall time a step of the due work spends on a bulk put job's records
  // before it returns (the job goes on at the next due work), so that
  // nothing that runs the due work waits behind a whole unpaced job; at
  // least one record a step (0: exactly one).
  int64_t due_work_step_slice_micros = 50'000;
  // The memory ImportTable sorts its items in: past it, the sorted items
  // are written to a run file beside the database (engine/transfer/
  // sorted_runs.h), and the table is built from a merge of the runs.
  size_t import_sort_budget_bytes = size_t{64} << 20;
  // DynamoDB deletes expired items "within a few days". Each expired item is
  // deleted once its expiry plus a delay of its own (a hash of its key, in
  // [0, spread)) has passed: 0 deletes at the first sweep after expiry; two
  // days models DynamoDB's typical delay, deterministically.
  int64_t ttl_deletion_spread_micros = 0;
  // DynamoDB refuses a second UpdateTimeToLive on a table within about an
  // hour of the last change ("Time to live has been modified multiple
  // times within a fixed interval"); 0 (the default, as DynamoDB Local)
  // never refuses.
  int64_t ttl_change_cooldown_micros = 0;
  // DynamoDB takes a while to apply an UpdateTimeToLive ("up to one hour");
  // for this long after a change DescribeTimeToLive answers ENABLING or
  // DISABLING. 0 (the default, as DynamoDB Local) settles at once; `serve
  // --ttl-status-delay-ms` sets it.
  int64_t ttl_status_delay_micros = 0;

  // --- Export and import (engine/transfer/, docs/export.md) ---
  // Where ExportTableToPointInTime writes and ImportTable reads: the
  // "S3 buckets" (`dynarock serve --s3-dir`). Null: exports and imports
  // fail with FailureCode S3NoSuchBucket. Not owned; must outlive the
  // Engine.
  TransferFiles* transfer_files = nullptr;

  // --- Capacity and throttling ---
  // Refuse requests beyond capacity, as DynamoDB does
  // (ProvisionedThroughputExceededException with ThrottlingReasons;
  // BatchWriteItem/BatchGetItem return the throttled part as
  // UnprocessedItems/UnprocessedKeys). Metering and per-partition statistics
  // are always on; this only decides whether a request can be refused.
  // `dynarock serve` turns it on by default (--throttling on|off).
  // Engine::SetThrottling changes it at runtime.
  bool throttling = false;
  // The throughput model's parameters (DynamoDB's values by default); tests
  // shrink split sizes and times.
  CapacityOptions capacity;

  // --- Test control (docs/testing.md) ---
  // Fault rules in force from the start (`dynarock serve --fault-rules`);
  // Engine::PutFaultRule and the others change them at run time. A rule
  // that Engine::PutFaultRule would refuse makes Open fail (kValidation).
  std::vector<FaultRule> fault_rules;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_OPTIONS_H_
