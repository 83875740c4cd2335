#include "engine/stream/stream_reader.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "engine/schema/arns.h"
#include "engine/stream/stream_record.h"
#include "engine/util/coding.h"

namespace dynarock {
namespace {

// The iterator's parts: "<stream arn>|<shard id>|<sequence number>|<micros>".
struct IteratorPosition {
  std::string arn;
  std::string shard_id;
  uint64_t seq = 0;
  int64_t created_micros = 0;
};

std::string EncodeIterator(const IteratorPosition& p) {
  return p.arn + "|" + p.shard_id + "|" + SequenceNumberText(p.seq) + "|" +
         std::to_string(p.created_micros);
}

Status InvalidIterator() { return Status::Validation("Invalid ShardIterator"); }

Result<IteratorPosition> DecodeIterator(std::string_view text) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    const size_t bar = text.find('|', start);
    parts.push_back(text.substr(start, bar == std::string_view::npos
                                           ? std::string_view::npos
                                           : bar - start));
    if (bar == std::string_view::npos) break;
    start = bar + 1;
  }
  if (parts.size() != 4 || parts[0].empty() || parts[1].empty()) {
    return InvalidIterator();
  }
  IteratorPosition p;
  p.arn = std::string(parts[0]);
  p.shard_id = std::string(parts[1]);
  std::optional<uint64_t> seq = ParseSequenceNumber(parts[2]);
  std::optional<uint64_t> micros = ParseSequenceNumber(parts[3]);
  if (!seq || !micros || *micros > static_cast<uint64_t>(INT64_MAX)) {
    return InvalidIterator();
  }
  p.seq = *seq;
  p.created_micros = static_cast<int64_t>(*micros);
  return p;
}

// "arn:aws:dynamodb:<region>:<account>:table/<name>/stream/<label>".
bool WellFormedStreamArn(std::string_view arn) {
  std::optional<DynamoDbArn> parsed = ParseArn(arn);
  return parsed && parsed->sub_type == "stream";
}

Status InvalidStreamArn() { return Status::Validation("Invalid StreamArn"); }

Result<StreamInfo> FindStream(const StreamLog& log, const Scope& scope,
                              const std::string& arn) {
  if (!WellFormedStreamArn(arn)) return InvalidStreamArn();
  std::optional<StreamInfo> s = log.FindByArn(scope.ns, arn);
  if (!s) {
    return Status::ResourceNotFound("Requested resource not found: Stream: " + arn +
                                    " not found");
  }
  return std::move(*s);
}

Result<const ShardInfo*> FindShard(const StreamInfo& s, const std::string& shard_id) {
  for (const ShardInfo& shard : s.shards) {
    if (shard.shard_id == shard_id) return &shard;
  }
  return Status::ResourceNotFound("Requested resource not found: Shard does not exist");
}

Status Trimmed() {
  return Status(ErrorCode::kTrimmedDataAccess,
                "The operation attempted to read past the oldest stream record "
                "in a shard.");
}

}  // namespace

Result<ListStreamsResult> ListStreams(const StreamLog& log, StreamReads* reads,
                                      bool enforce, const ListStreamsRequest& req) {
  DR_RETURN_IF_ERROR(reads->AdmitListStreams(req.scope.ns, enforce));
  // A malformed start ARN is refused, not read as a position (Alternator's
  // test_list_streams_with_nonexistent_last_stream, run against DynamoDB;
  // the text is DescribeStream's).
  if (req.exclusive_start_stream_arn &&
      !WellFormedStreamArn(*req.exclusive_start_stream_arn)) {
    return InvalidStreamArn();
  }
  const size_t limit = static_cast<size_t>(std::clamp(req.limit.value_or(100), 1, 100));
  ListStreamsResult result;
  for (const StreamInfo& s : log.List(req.scope.ns)) {
    if (req.table_name && s.table_name != *req.table_name) continue;
    if (req.exclusive_start_stream_arn && s.arn <= *req.exclusive_start_stream_arn) {
      continue;
    }
    if (result.streams.size() == limit) {
      result.last_evaluated_stream_arn = result.streams.back().stream_arn;
      break;
    }
    result.streams.push_back({s.arn, s.table_name, s.label});
  }
  return result;
}

Result<StreamDescription> DescribeStream(const StreamLog& log, StreamReads* reads,
                                         bool enforce,
                                         const DescribeStreamRequest& req) {
  DR_RETURN_IF_ERROR(reads->AdmitDescribeStream(req.scope.ns, enforce));
  DR_ASSIGN_OR_RETURN(StreamInfo s, FindStream(log, req.scope, req.stream_arn));
  StreamDescription d;
  d.stream_arn = s.arn;
  d.stream_label = s.label;
  d.stream_status = s.disabled_micros ? StreamStatus::kDisabled : StreamStatus::kEnabled;
  d.stream_view_type = s.view_type;
  d.creation_request_date_time_micros = s.created_micros;
  d.table_name = s.table_name;
  d.key_schema = s.key_schema;
  const size_t limit = static_cast<size_t>(std::clamp(req.limit.value_or(100), 1, 100));
  bool started = !req.exclusive_start_shard_id.has_value();
  for (const ShardInfo& shard : s.shards) {
    if (!started) {
      started = shard.shard_id == *req.exclusive_start_shard_id;
      continue;
    }
    if (req.child_shards_of && shard.parent_shard_id != *req.child_shards_of) continue;
    if (d.shards.size() == limit) {
      d.last_evaluated_shard_id = d.shards.back().shard_id;
      break;
    }
    ShardDescription& sd = d.shards.emplace_back();
    sd.shard_id = shard.shard_id;
    if (!shard.parent_shard_id.empty()) sd.parent_shard_id = shard.parent_shard_id;
    sd.starting_sequence_number = SequenceNumberText(shard.starting_seq);
    if (shard.ending_seq) sd.ending_sequence_number = SequenceNumberText(*shard.ending_seq);
  }
  return d;
}

Result<std::string> GetShardIterator(const StreamLog& log,
                                     const GetShardIteratorRequest& req) {
  // A SequenceNumber with TRIM_HORIZON or LATEST is refused before the
  // stream is looked up (Alternator's test_get_shard_iterator, run against
  // DynamoDB; the text is ours, mirroring the one for its absence).
  if (req.sequence_number && (req.type == ShardIteratorType::kTrimHorizon ||
                              req.type == ShardIteratorType::kLatest)) {
    return Status::Validation(
        "Must not provide a SequenceNumber for a TRIM_HORIZON or LATEST "
        "shard iterator");
  }
  DR_ASSIGN_OR_RETURN(StreamInfo s, FindStream(log, req.scope, req.stream_arn));
  DR_ASSIGN_OR_RETURN(const ShardInfo* shard, FindShard(s, req.shard_id));
  IteratorPosition p;
  p.arn = s.arn;
  p.shard_id = shard->shard_id;
  p.created_micros = log.clock()->NowMicros();
  const uint64_t shard_last = shard->ending_seq ? *shard->ending_seq : log.last_seq();
  switch (req.type) {
    case ShardIteratorType::kTrimHorizon:
      p.seq = shard->trim_seq;
      break;
    case ShardIteratorType::kLatest:
      p.seq = shard_last + 1;
      break;
    case ShardIteratorType::kAtSequenceNumber:
    case ShardIteratorType::kAfterSequenceNumber: {
      if (!req.sequence_number) {
        return Status::Validation(
            "Must provide a SequenceNumber for an AT_SEQUENCE_NUMBER or "
            "AFTER_SEQUENCE_NUMBER shard iterator");
      }
      std::optional<uint64_t> seq = ParseSequenceNumber(*req.sequence_number);
      if (!seq || *seq < shard->starting_seq || *seq > shard_last) {
        return Status::Validation("Invalid SequenceNumber for shard " +
                                  shard->shard_id + ": " + *req.sequence_number);
      }
      if (*seq < shard->trim_seq) return Trimmed();
      p.seq = req.type == ShardIteratorType::kAtSequenceNumber ? *seq : *seq + 1;
      break;
    }
  }
  return EncodeIterator(p);
}

Result<GetRecordsResult> GetRecords(const StreamLog& log, StreamReads* reads,
                                    bool enforce, const GetRecordsRequest& req) {
  DR_ASSIGN_OR_RETURN(IteratorPosition p, DecodeIterator(req.shard_iterator));
  if (!WellFormedStreamArn(p.arn)) return InvalidIterator();
  const int64_t now = log.clock()->NowMicros();
  if (now - p.created_micros > log.options().iterator_lifetime_micros) {
    return Status(ErrorCode::kExpiredIterator, "Shard iterator has expired");
  }
  DR_ASSIGN_OR_RETURN(StreamInfo s, FindStream(log, req.scope, p.arn));
  const ShardInfo* shard = nullptr;
  for (const ShardInfo& candidate : s.shards) {
    if (candidate.shard_id == p.shard_id) shard = &candidate;
  }
  if (shard == nullptr) {
    return Status::ResourceNotFound("Invalid ShardId in ShardIterator");
  }
  DR_RETURN_IF_ERROR(reads->AdmitGetRecords(s.stream_id, shard->index, enforce));
  if (p.seq < shard->trim_seq) return Trimmed();
  const size_t limit = static_cast<size_t>(
      std::clamp(req.limit.value_or(kMaxGetRecordsLimit), 1, kMaxGetRecordsLimit));
  GetRecordsResult result;
  uint64_t next = p.seq;
  bool at_end = true;  // no record left after those returned
  if (!shard->ending_seq || p.seq <= *shard->ending_seq) {
    auto it = log.store()->NewIterator(
        Cf::kStreams, StreamLog::RecordKey(s.stream_id, shard->index, p.seq),
        StreamLog::ShardRecordsEnd(s.stream_id, shard->index));
    int64_t bytes = 0;
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      if (result.records.size() == limit || bytes >= kMaxGetRecordsBytes) {
        at_end = false;
        break;
      }
      const std::string_view key = it->key();
      if (key.size() != 17) return Status::Corruption("malformed stream record key");
      const uint64_t seq = DecodeFixed64BE(key.data() + 9);
      DR_ASSIGN_OR_RETURN(StoredStreamRecord stored, DecodeStreamRecord(it->value()));
      if (!result.records.empty() && bytes + stored.size_bytes > kMaxGetRecordsBytes) {
        at_end = false;
        break;
      }
      bytes += stored.size_bytes;
      StreamRecord r;
      r.event_id = StreamEventId(s.stream_id, seq);
      r.event_name = stored.event_name;
      r.aws_region = s.region;
      r.approximate_creation_micros = stored.created_micros;
      r.keys = std::move(stored.keys);
      r.new_image = std::move(stored.new_image);
      r.old_image = std::move(stored.old_image);
      r.sequence_number = SequenceNumberText(seq);
      r.size_bytes = stored.size_bytes;
      r.stream_view_type = s.view_type;
      r.user_identity = std::move(stored.user_identity);
      result.records.push_back(std::move(r));
      next = seq + 1;
    }
    DR_RETURN_IF_ERROR(it->status());
  }
  uint64_t bytes_read = 0;
  for (const StreamRecord& r : result.records) bytes_read += r.size_bytes;
  reads->RecordRead(s.stream_id, shard->index, result.records.size(), bytes_read, next);
  if (shard->ending_seq && at_end) return result;  // closed and read to its end
  IteratorPosition n = p;
  n.seq = next;
  n.created_micros = now;
  result.next_shard_iterator = EncodeIterator(n);
  return result;
}

Result<StreamStorageStats> DescribeStreamStats(const StreamLog& log,
                                               const StreamReads& reads,
                                               const std::string& ns,
                                               const std::string& table_name) {
  StreamStorageStats out;
  out.storage_bytes = log.store()->ApproximateBytes(Cf::kStreams);
  const int64_t now = log.clock()->NowMicros();
  for (const StreamInfo& s : log.List(ns)) {
    if (!table_name.empty() && s.table_name != table_name) continue;
    StreamStats& st = out.streams.emplace_back();
    st.stream_arn = s.arn;
    st.table_name = s.table_name;
    st.stream_status = s.disabled_micros ? StreamStatus::kDisabled : StreamStatus::kEnabled;
    for (const ShardInfo& shard : s.shards) {
      ShardStats& sh = st.shards.emplace_back();
      sh.shard_id = shard.shard_id;
      sh.parent_shard_id = shard.parent_shard_id;
      sh.open = shard.open();
      const ShardReadStats r = reads.Stats(s.stream_id, shard.index);
      sh.get_records_calls = r.get_records_calls;
      sh.throttled_calls = r.throttled_calls;
      sh.records_read = r.records_read;
      auto it = log.store()->NewIterator(
          Cf::kStreams, StreamLog::RecordKey(s.stream_id, shard.index, shard.trim_seq),
          StreamLog::ShardRecordsEnd(s.stream_id, shard.index));
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        const std::string_view key = it->key();
        if (key.size() != 17) return Status::Corruption("malformed stream record key");
        ++sh.records;
        sh.bytes += key.size() + it->value().size();
        if (DecodeFixed64BE(key.data() + 9) < r.read_position) continue;
        if (sh.unread_records++ == 0) {
          int64_t created = 0;
          if (StreamRecordCreatedMicros(it->value(), &created)) {
            sh.oldest_unread_age_micros = std::max<int64_t>(0, now - created);
          }
        }
      }
      DR_RETURN_IF_ERROR(it->status());
      st.records += sh.records;
      st.bytes += sh.bytes;
    }
  }
  return out;
}

}  // namespace dynarock
