// engine/stream/stream_log.h
//
// StreamLog keeps every DynamoDB stream of the database: the streams (one
// enabled per table at most, disabled ones readable for the retention),
// their shards, and their records, all in the `streams` column family:
//
//   "d" stream_id(4 BE)                     -> stream descriptor
//   "s" stream_id(4 BE) shard(4 BE)         -> shard descriptor
//   "r" stream_id(4 BE) shard(4 BE) seq(8 BE) -> record (stream_record.h)
//
// Records are added to the item change's own WriteBatch (Write), so a
// crash never loses or invents one. Sequence numbers come from one counter
// for the database, assigned and committed under one lock, so within a
// shard records are committed in sequence-number order and a reader never
// skips one.
//
// Shards follow partitions: a stream starts with one open shard per
// partition of its table; when a partition splits (PartitionSplit, called
// by the throughput controller's split listener) the open shard holding
// the split point closes (EndingSequenceNumber) and two children open with
// it as parent. An open shard also rolls over into a child with the same
// range after `shard_rollover_micros`. Records older than the retention
// are trimmed; closed shards and disabled streams go once they are older
// than the retention (Maintain, on the engine clock).
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_STREAM_STREAM_LOG_H_
#define DYNAROCK_ENGINE_STREAM_STREAM_LOG_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "engine/clock.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/types.h"

namespace dynarock {

struct StreamOptions {
  int64_t retention_micros = int64_t{24} * 3600 * 1'000'000;
  int64_t shard_rollover_micros = int64_t{4} * 3600 * 1'000'000;
  int64_t iterator_lifetime_micros = int64_t{15} * 60 * 1'000'000;
  // How often Maintain looks for rollovers and trims, on the clock.
  int64_t maintenance_interval_micros = 1'000'000;
  // Trimming deletes records (RocksDB range deletions); their space is
  // freed by compacting the streams column family, at most once per this
  // interval of the clock when something was trimmed since the last one.
  // Stream storage is so bounded by the retention plus this interval.
  int64_t compaction_interval_micros = int64_t{3600} * 1'000'000;
};

struct ShardInfo {
  uint32_t index = 0;  // order of creation within the stream
  std::string shard_id;
  std::string parent_shard_id;  // empty: none
  uint64_t begin = 0;           // hash range [begin, end); end 0 = 2^64
  uint64_t end = 0;
  uint64_t starting_seq = 0;
  std::optional<uint64_t> ending_seq;  // set once closed
  int64_t created_micros = 0;
  int64_t closed_micros = 0;
  uint64_t trim_seq = 0;  // records below it are trimmed

  bool open() const { return !ending_seq; }
  bool Contains(uint64_t hash) const {
    return hash >= begin && (end == 0 || hash < end);
  }
};

// A stream and its shards, as a copy (StreamLog::Find).
struct StreamInfo {
  uint32_t stream_id = 0;
  uint32_t table_id = 0;
  std::string ns;
  std::string table_name;
  std::string arn;
  std::string label;
  std::string region;
  StreamViewType view_type = StreamViewType::kKeysOnly;
  std::vector<KeySchemaElement> key_schema;
  KeyDef key;
  int64_t created_micros = 0;
  std::optional<int64_t> disabled_micros;
  uint32_t next_shard_index = 0;
  std::vector<ShardInfo> shards;  // by index: parents before children
};

// One record staged by the write path, waiting for its sequence number.
struct PendingStreamRecord {
  uint32_t table_id = 0;
  uint64_t hash = 0;   // the item's partition hash: picks the shard
  std::string value;   // EncodeChangeRecord
};

class StreamLog {
 public:
  // Loads every stream from `store` (not owned; must outlive this).
  static Result<std::unique_ptr<StreamLog>> Open(Store* store, const Clock* clock,
                                                 StreamOptions options);

  const StreamOptions& options() const { return options_; }
  const Clock* clock() const { return clock_; }
  Store* store() const { return store_; }

  // --- Write path ---
  // The view type of the table's enabled stream, or nullopt.
  std::optional<StreamViewType> ActiveViewType(uint32_t table_id) const;
  // Gives each record a sequence number and a shard of its table's enabled
  // stream (records of tables without one are dropped), adds them to
  // `batch` and writes it. With no records this is Store::Write.
  Status Write(WriteBatch* batch, const std::vector<PendingStreamRecord>& records);

  // --- Partitions ---
  // The table's partition [begin, end) split at `at`: the open shard of its
  // enabled stream that holds `at` strictly inside closes and two children
  // open. Nothing when `at` is already a shard boundary.
  void PartitionSplit(uint32_t table_id, uint64_t at);

  // --- Lifecycle ---
  // A new enabled stream for `table_id` with one open shard per range of
  // `partitions` (ascending, covering the ring). `arn_prefix` is the table
  // ARN; the label is the clock's time (made unique per table).
  // REQUIRES: the table has no enabled stream.
  Result<StreamInfo> Enable(uint32_t table_id, const std::string& ns,
                            const std::string& table_name,
                            const std::string& table_arn,
                            const std::string& region, StreamViewType view,
                            const std::vector<KeySchemaElement>& key_schema,
                            const KeyDef& key,
                            const std::vector<std::pair<uint64_t, uint64_t>>& partitions);
  // Disables the table's enabled stream (its shards close); no-op if none.
  Status Disable(uint32_t table_id);
  // Disables every enabled stream whose table is not `live(table_id, arn)`
  // (a crash between a stream's descriptor and its table's catalog record).
  template <typename Live>
  Status Reconcile(const Live& live) {
    std::vector<uint32_t> stale;
    {
      std::shared_lock lock(state_mu_);
      for (const auto& [id, s] : streams_) {
        if (!s.disabled_micros && !live(s.table_id, s.arn)) stale.push_back(s.table_id);
      }
    }
    for (uint32_t t : stale) DR_RETURN_IF_ERROR(Disable(t));
    return Status::OK();
  }

  // --- Maintenance ---
  // Rolls over old shards, trims records past the retention, drops expired
  // closed shards and disabled streams, and compacts what was trimmed
  // (outside the commit lock; writers go on). At most once per maintenance
  // interval of the clock unless `force`.
  Status Maintain(bool force = false);

  // --- Reads ---
  std::optional<StreamInfo> FindByArn(const std::string& ns,
                                      const std::string& arn) const;
  // Every stream of a namespace, in ARN order.
  std::vector<StreamInfo> List(const std::string& ns) const;
  // The last sequence number handed out.
  uint64_t last_seq() const { return last_seq_.load(std::memory_order_acquire); }

  // Key helpers for readers.
  static std::string RecordKey(uint32_t stream_id, uint32_t shard, uint64_t seq);
  static std::string ShardRecordsEnd(uint32_t stream_id, uint32_t shard);

 private:
  StreamLog(Store* store, const Clock* clock, StreamOptions options)
      : store_(store), clock_(clock), options_(options) {}

  // REQUIRES: commit_mu_ and state_mu_ (exclusive) held.
  ShardInfo NewShard(StreamInfo* s, uint64_t begin, uint64_t end,
                     const std::string& parent, int64_t now);
  void CloseShard(ShardInfo* shard, int64_t now);
  uint64_t NextSeq() { return last_seq_.fetch_add(1) + 1; }
  Status RollOver(int64_t now);
  Status Trim(int64_t now);

  Store* const store_;
  const Clock* const clock_;
  const StreamOptions options_;
  // Held from sequence-number assignment to the end of Store::Write, and by
  // every shard change: commits of stream records are serialized.
  std::mutex commit_mu_;
  // Guards the maps below (exclusive only with commit_mu_ held).
  mutable std::shared_mutex state_mu_;
  std::map<uint32_t, StreamInfo> streams_;      // by stream id
  std::map<uint32_t, uint32_t> enabled_;        // table id -> stream id
  std::atomic<uint64_t> last_seq_{0};
  std::atomic<int64_t> next_maintenance_micros_{0};
  uint32_t next_stream_id_ = 1;  // guarded by commit_mu_
  // Something was trimmed since the last compaction (guarded by commit_mu_).
  bool trimmed_ = false;
  int64_t last_compaction_micros_ = 0;  // guarded by commit_mu_
};

// Descriptor encodings (exposed for tests).
std::string EncodeStreamDescriptor(const StreamInfo& s);
Result<StreamInfo> DecodeStreamDescriptor(std::string_view bytes);
std::string EncodeShardDescriptor(const ShardInfo& shard);
Result<ShardInfo> DecodeShardDescriptor(std::string_view bytes);
// "2026-11-26T09:16:05.123" (UTC, milliseconds): a stream's label.
std::string StreamLabelAt(int64_t micros);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_STREAM_STREAM_LOG_H_
