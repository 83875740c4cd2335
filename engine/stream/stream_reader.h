// engine/stream/stream_reader.h
//
// The read side of DynamoDB Streams over a StreamLog: ListStreams,
// DescribeStream, GetShardIterator and GetRecords with DynamoDB's paging
// and errors. Shard iterators are self-contained text (stream ARN, shard
// id, next sequence number, creation time), so the server keeps no
// iterator state; they expire `iterator_lifetime_micros` after they were
// handed out (ExpiredIteratorException), and a position before the shard's
// trim horizon is TrimmedDataAccessException.
//
// Calls are metered and limited by a StreamReads (stream_reads.h); with
// `enforce` false (throttling off) nothing is refused.
//
// Thread-safe (StreamLog and StreamReads are).

#ifndef DYNAROCK_ENGINE_STREAM_STREAM_READER_H_
#define DYNAROCK_ENGINE_STREAM_STREAM_READER_H_

#include <string>
#include <vector>

#include "engine/requests/stream_requests.h"
#include "engine/status.h"
#include "engine/stream/stream_log.h"
#include "engine/stream/stream_reads.h"

namespace dynarock {

// GetRecords' limits.
inline constexpr int kMaxGetRecordsLimit = 1000;
inline constexpr int64_t kMaxGetRecordsBytes = int64_t{1} << 20;

// Errors: kValidation (TableName of a missing table is not an error: no
// streams), kThrottling.
Result<ListStreamsResult> ListStreams(const StreamLog& log, StreamReads* reads,
                                      bool enforce, const ListStreamsRequest& req);
// Errors: kValidation (malformed ARN), kResourceNotFound, kThrottling.
Result<StreamDescription> DescribeStream(const StreamLog& log, StreamReads* reads,
                                         bool enforce,
                                         const DescribeStreamRequest& req);
// Errors: kValidation (malformed ARN, missing or foreign sequence number),
// kResourceNotFound (stream or shard), kTrimmedDataAccess.
Result<std::string> GetShardIterator(const StreamLog& log,
                                     const GetShardIteratorRequest& req);
// Up to Limit records (1,000) and 1 MB from the iterator's position.
// Errors: kValidation (malformed iterator), kExpiredIterator,
// kTrimmedDataAccess, kResourceNotFound (stream or shard gone),
// kLimitExceeded (the shard's 10 calls per second), kCorruption.
Result<GetRecordsResult> GetRecords(const StreamLog& log, StreamReads* reads,
                                    bool enforce, const GetRecordsRequest& req);

// The streams of a table (`table_name`, or every table when empty) with
// their shards' records, bytes, reads and lag (requests.h), and the
// storage of all streams. Reads every retained record of those streams.
// Errors: kCorruption, kIOError.
Result<StreamStorageStats> DescribeStreamStats(const StreamLog& log,
                                               const StreamReads& reads,
                                               const std::string& ns,
                                               const std::string& table_name);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_STREAM_STREAM_READER_H_
