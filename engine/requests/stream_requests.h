// engine/requests/stream_requests.h
//
// DynamoDB Streams (DynamoDBStreams_20120810): ListStreams, DescribeStream,
// GetShardIterator, GetRecords (engine/stream/), and the streams' statistics
// (a dynarock extension: Engine::DescribeStreamStats, `dynarock stats`).

#ifndef DYNAROCK_ENGINE_REQUESTS_STREAM_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_STREAM_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/requests/scope.h"
#include "engine/types.h"

namespace dynarock {

struct ListStreamsRequest {
  Scope scope;
  std::optional<std::string> table_name;
  std::optional<int> limit;  // 1..100; unset = 100
  std::optional<std::string> exclusive_start_stream_arn;
};

struct StreamSummary {
  std::string stream_arn;
  std::string table_name;
  std::string stream_label;
};

struct ListStreamsResult {
  std::vector<StreamSummary> streams;
  std::optional<std::string> last_evaluated_stream_arn;
};

enum class StreamStatus { kEnabling, kEnabled, kDisabling, kDisabled };
std::string_view StreamStatusName(StreamStatus status);

struct DescribeStreamRequest {
  Scope scope;
  std::string stream_arn;
  std::optional<int> limit;  // shards, 1..100; unset = 100
  std::optional<std::string> exclusive_start_shard_id;
  // ShardFilter {Type: CHILD_SHARDS, ShardId}: only that shard's children.
  std::optional<std::string> child_shards_of;
};

struct ShardDescription {
  std::string shard_id;
  std::optional<std::string> parent_shard_id;
  std::string starting_sequence_number;
  std::optional<std::string> ending_sequence_number;  // set once closed
};

struct StreamDescription {
  std::string stream_arn;
  std::string stream_label;
  StreamStatus stream_status = StreamStatus::kEnabled;
  StreamViewType stream_view_type = StreamViewType::kKeysOnly;
  int64_t creation_request_date_time_micros = 0;
  std::string table_name;
  std::vector<KeySchemaElement> key_schema;
  std::vector<ShardDescription> shards;  // oldest first: parents before children
  std::optional<std::string> last_evaluated_shard_id;
};

enum class ShardIteratorType {
  kTrimHorizon,
  kLatest,
  kAtSequenceNumber,
  kAfterSequenceNumber,
};

struct GetShardIteratorRequest {
  Scope scope;
  std::string stream_arn;
  std::string shard_id;
  ShardIteratorType type = ShardIteratorType::kTrimHorizon;
  std::optional<std::string> sequence_number;  // AT_/AFTER_SEQUENCE_NUMBER
};

struct GetRecordsRequest {
  Scope scope;
  std::string shard_iterator;
  std::optional<int> limit;  // 1..1000; unset = 1000
};

// Persisted in stream records; never renumber.
enum class StreamEventName : uint8_t { kInsert = 1, kModify = 2, kRemove = 3 };
std::string_view StreamEventNameOf(StreamEventName name);

// One stream record as GetRecords returns it.
struct StreamRecord {
  std::string event_id;
  StreamEventName event_name = StreamEventName::kInsert;
  std::string aws_region;
  int64_t approximate_creation_micros = 0;
  Item keys;
  std::optional<Item> new_image;
  std::optional<Item> old_image;
  std::string sequence_number;
  int64_t size_bytes = 0;
  StreamViewType stream_view_type = StreamViewType::kKeysOnly;
  std::optional<StreamUserIdentity> user_identity;
};

struct GetRecordsResult {
  std::vector<StreamRecord> records;
  // Absent once a closed shard has been read to its end.
  std::optional<std::string> next_shard_iterator;
};

// One shard's retained records and its reads (Engine::DescribeStreamStats,
// `dynarock stats`). The lag is measured from the read position: the
// sequence number after the last record the furthest GetRecords caller was
// given on the shard (the shard's trim horizon when nobody read it yet).
struct ShardStats {
  std::string shard_id;
  std::string parent_shard_id;  // empty: none
  bool open = false;
  uint64_t records = 0;  // retained records
  uint64_t bytes = 0;    // their stored size (keys and values)
  uint64_t get_records_calls = 0;
  uint64_t throttled_calls = 0;  // refused: over 10 calls per second
  uint64_t records_read = 0;
  // Retained records at or after the read position, and the age on the
  // engine clock of the oldest of them (0 when none).
  uint64_t unread_records = 0;
  int64_t oldest_unread_age_micros = 0;
};

struct StreamStats {
  std::string stream_arn;
  std::string table_name;
  StreamStatus stream_status = StreamStatus::kEnabled;
  uint64_t records = 0;  // sums of the shards'
  uint64_t bytes = 0;
  std::vector<ShardStats> shards;  // oldest first
};

struct StreamStorageStats {
  // The bytes of every stream of the database on disk and in memtables
  // (RocksDB's `streams` column family): what retention bounds.
  uint64_t storage_bytes = 0;
  std::vector<StreamStats> streams;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_STREAM_REQUESTS_H_
