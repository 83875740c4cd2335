// engine/stream/stream_reads.h
//
// StreamReads meters and limits the reads of DynamoDB Streams, on the
// engine clock, as DynamoDB documents them:
//   - GetRecords: at most 10 calls per second per shard (DynamoDB documents
//     no rate, only that a shard be read by at most two processes; two
//     Lambda consumers poll it 4 times a second each, so DynamoDB serves
//     8; Kinesis's 5 per second is not DynamoDB's: docs/streams.md);
//   - DescribeStream: at most 10 calls per second (API reference), and
//     ListStreams at most 5 per second, per account (here: per namespace).
// Each limit is a token bucket holding one second of calls (a burst of 5 or
// 10 is admitted, then the rate); a call needs a whole call's worth, and a
// call over its limit consumes nothing. GetRecords is refused with
// LimitExceededException "Rate exceeded" (its only throttling error in the
// API reference); DescribeStream and ListStreams with ThrottlingException
// "Rate exceeded", as users report DynamoDB Streams' control calls throttled
// (docs/streams.md; ../shared/design/capacity-evidence.md section 5), which
// every SDK retries, boto3's default legacy mode included.
//
// It also keeps, per shard, what was read: GetRecords calls, records and
// bytes returned, refused calls, and the read position (the sequence
// number after the last record the furthest reader was given), from which
// StreamLog reports the shard's lag. In memory only: a restart forgets
// positions (every record then counts as unread).
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_STREAM_STREAM_READS_H_
#define DYNAROCK_ENGINE_STREAM_STREAM_READS_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "engine/capacity/token_bucket.h"
#include "engine/clock.h"
#include "engine/status.h"

namespace dynarock {

struct StreamReadLimits {
  int64_t get_records_per_shard_per_second = 10;
  int64_t describe_stream_per_second = 10;
  int64_t list_streams_per_second = 5;
};

// What was read from one shard (since the engine opened).
struct ShardReadStats {
  uint64_t get_records_calls = 0;  // admitted calls
  uint64_t throttled_calls = 0;    // refused with LimitExceededException
  uint64_t records_read = 0;
  uint64_t bytes_read = 0;         // SizeBytes of the records returned
  uint64_t read_position = 0;      // next sequence number of the furthest reader; 0: none
};

class StreamReads {
 public:
  StreamReads(const Clock* clock, StreamReadLimits limits)
      : clock_(clock), limits_(limits) {}

  // Admits one GetRecords call on a shard, or answers LimitExceededException
  // when `enforce` and the shard is over its rate. Errors: kLimitExceeded.
  Status AdmitGetRecords(uint32_t stream_id, uint32_t shard, bool enforce);
  // Counts what an admitted GetRecords call returned; `next_seq` is the
  // sequence number its NextShardIterator starts at.
  void RecordRead(uint32_t stream_id, uint32_t shard, uint64_t records,
                  uint64_t bytes, uint64_t next_seq);
  // DescribeStream / ListStreams of a namespace. Errors: kThrottling.
  Status AdmitDescribeStream(const std::string& ns, bool enforce);
  Status AdmitListStreams(const std::string& ns, bool enforce);

  ShardReadStats Stats(uint32_t stream_id, uint32_t shard) const;

 private:
  struct ShardState {
    TokenBucket bucket;
    ShardReadStats stats;
  };
  // One call from `key`'s bucket (created full at `rate` on first use).
  // REQUIRES: mu_ held.
  Status Admit(std::map<std::string, TokenBucket>* buckets, const std::string& key,
               int64_t rate, bool enforce);

  const Clock* const clock_;
  const StreamReadLimits limits_;
  mutable std::mutex mu_;  // guards the maps below
  std::map<std::pair<uint32_t, uint32_t>, ShardState> shards_;
  std::map<std::string, TokenBucket> describe_;
  std::map<std::string, TokenBucket> list_;
};

// LimitExceededException "Rate exceeded", as DynamoDB Streams answers a
// GetRecords over its rate.
Status StreamRateExceeded();
// ThrottlingException "Rate exceeded": DescribeStream / ListStreams over
// their rates.
Status StreamControlRateExceeded();

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_STREAM_STREAM_READS_H_
