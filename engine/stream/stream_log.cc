#include "engine/stream/stream_log.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <ctime>

#include "engine/stream/stream_record.h"
#include "engine/util/coding.h"

namespace dynarock {
namespace {

constexpr char kStreamPrefix = 'd';
constexpr char kShardPrefix = 's';
constexpr char kRecordPrefix = 'r';
constexpr uint8_t kDescriptorVersion = 1;

std::string StreamKey(uint32_t stream_id) {
  std::string key(1, kStreamPrefix);
  PutFixed32BE(&key, stream_id);
  return key;
}

std::string ShardKey(uint32_t stream_id, uint32_t shard) {
  std::string key(1, kShardPrefix);
  PutFixed32BE(&key, stream_id);
  PutFixed32BE(&key, shard);
  return key;
}

std::string StreamShardsEnd(uint32_t stream_id) {
  std::string key(1, kShardPrefix);
  PutFixed32BE(&key, stream_id + 1);
  return key;
}

std::string StreamRecordsBegin(uint32_t stream_id) {
  std::string key(1, kRecordPrefix);
  PutFixed32BE(&key, stream_id);
  return key;
}

std::string StreamRecordsEnd(uint32_t stream_id) {
  std::string key(1, kRecordPrefix);
  PutFixed32BE(&key, stream_id + 1);
  return key;
}

using Reader = RecordReader;

}  // namespace

std::string StreamLabelAt(int64_t micros) {
  const std::time_t seconds = static_cast<std::time_t>(micros / 1'000'000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03d",
                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                tm.tm_min, tm.tm_sec, static_cast<int>((micros / 1000) % 1000));
  return buf;
}

std::string EncodeStreamDescriptor(const StreamInfo& s) {
  std::string out;
  RecordWriter w(&out);
  w.Byte(kDescriptorVersion);
  w.Varint(s.stream_id);
  w.Varint(s.table_id);
  w.String(s.ns);
  w.String(s.table_name);
  w.String(s.arn);
  w.String(s.label);
  w.String(s.region);
  w.Byte(s.view_type);
  w.Varint(s.key_schema.size());
  for (const auto& e : s.key_schema) {
    w.String(e.attribute_name);
    w.Byte(e.key_type);
  }
  w.String(s.key.hash_name);
  w.OptionalString(s.key.range_name);
  w.Signed(s.created_micros);
  w.OptionalSigned(s.disabled_micros);
  w.Varint(s.next_shard_index);
  return out;
}

Result<StreamInfo> DecodeStreamDescriptor(std::string_view bytes) {
  Reader r{bytes};
  if (r.Byte() != kDescriptorVersion) {
    return Status::Corruption("unknown stream descriptor version");
  }
  StreamInfo s;
  s.stream_id = static_cast<uint32_t>(r.Varint());
  s.table_id = static_cast<uint32_t>(r.Varint());
  s.ns = r.String();
  s.table_name = r.String();
  s.arn = r.String();
  s.label = r.String();
  s.region = r.String();
  s.view_type = static_cast<StreamViewType>(r.Byte());
  const uint64_t n = r.Varint();
  for (uint64_t i = 0; i < n && r.ok && i < 2; ++i) {
    KeySchemaElement e;
    e.attribute_name = r.String();
    e.key_type = static_cast<KeyType>(r.Byte());
    s.key_schema.push_back(std::move(e));
  }
  s.key.hash_name = r.String();
  s.key.range_name = r.OptionalString();
  s.created_micros = r.Signed();
  s.disabled_micros = r.OptionalSigned();
  s.next_shard_index = static_cast<uint32_t>(r.Varint());
  if (!r.ok || n > 2) return Status::Corruption("truncated stream descriptor");
  return s;
}

std::string EncodeShardDescriptor(const ShardInfo& shard) {
  std::string out;
  RecordWriter w(&out);
  w.Byte(kDescriptorVersion);
  w.Varint(shard.index);
  w.String(shard.shard_id);
  w.String(shard.parent_shard_id);
  w.Varint(shard.begin);
  w.Varint(shard.end);
  w.Varint(shard.starting_seq);
  w.Bool(shard.ending_seq.has_value());
  if (shard.ending_seq) w.Varint(*shard.ending_seq);
  w.Signed(shard.created_micros);
  w.Signed(shard.closed_micros);
  w.Varint(shard.trim_seq);
  return out;
}

Result<ShardInfo> DecodeShardDescriptor(std::string_view bytes) {
  Reader r{bytes};
  if (r.Byte() != kDescriptorVersion) {
    return Status::Corruption("unknown shard descriptor version");
  }
  ShardInfo s;
  s.index = static_cast<uint32_t>(r.Varint());
  s.shard_id = r.String();
  s.parent_shard_id = r.String();
  s.begin = r.Varint();
  s.end = r.Varint();
  s.starting_seq = r.Varint();
  if (r.Byte()) s.ending_seq = r.Varint();
  s.created_micros = r.Signed();
  s.closed_micros = r.Signed();
  s.trim_seq = r.Varint();
  if (!r.ok) return Status::Corruption("truncated shard descriptor");
  return s;
}

std::string StreamLog::RecordKey(uint32_t stream_id, uint32_t shard, uint64_t seq) {
  std::string key(1, kRecordPrefix);
  PutFixed32BE(&key, stream_id);
  PutFixed32BE(&key, shard);
  PutFixed64BE(&key, seq);
  return key;
}

std::string StreamLog::ShardRecordsEnd(uint32_t stream_id, uint32_t shard) {
  // The shard's records end before the next shard index (or stream).
  if (shard == UINT32_MAX) return StreamRecordsEnd(stream_id);
  std::string key(1, kRecordPrefix);
  PutFixed32BE(&key, stream_id);
  PutFixed32BE(&key, shard + 1);
  return key;
}

Result<std::unique_ptr<StreamLog>> StreamLog::Open(Store* store, const Clock* clock,
                                                   StreamOptions options) {
  std::unique_ptr<StreamLog> log(new StreamLog(store, clock, options));
  uint64_t max_seq = 0;
  auto it = store->NewIterator(Cf::kStreams, std::string(1, kStreamPrefix),
                               std::string(1, kStreamPrefix + 1));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    DR_ASSIGN_OR_RETURN(StreamInfo s, DecodeStreamDescriptor(it->value()));
    log->next_stream_id_ = std::max(log->next_stream_id_, s.stream_id + 1);
    auto shards = store->NewIterator(Cf::kStreams, ShardKey(s.stream_id, 0),
                                     StreamShardsEnd(s.stream_id));
    for (shards->SeekToFirst(); shards->Valid(); shards->Next()) {
      DR_ASSIGN_OR_RETURN(ShardInfo shard, DecodeShardDescriptor(shards->value()));
      max_seq = std::max(max_seq, shard.starting_seq);
      if (shard.ending_seq) max_seq = std::max(max_seq, *shard.ending_seq);
      // The shard's last record.
      auto records = store->NewIterator(
          Cf::kStreams, RecordKey(s.stream_id, shard.index, 0),
          ShardRecordsEnd(s.stream_id, shard.index));
      records->SeekToLast();
      if (records->Valid() && records->key().size() == 17) {
        max_seq = std::max(max_seq, DecodeFixed64BE(records->key().data() + 9));
      }
      DR_RETURN_IF_ERROR(records->status());
      s.shards.push_back(std::move(shard));
    }
    DR_RETURN_IF_ERROR(shards->status());
    if (!s.disabled_micros) log->enabled_[s.table_id] = s.stream_id;
    log->streams_[s.stream_id] = std::move(s);
  }
  DR_RETURN_IF_ERROR(it->status());
  log->last_seq_ = max_seq;
  return log;
}

std::optional<StreamViewType> StreamLog::ActiveViewType(uint32_t table_id) const {
  std::shared_lock lock(state_mu_);
  auto it = enabled_.find(table_id);
  if (it == enabled_.end()) return std::nullopt;
  return streams_.at(it->second).view_type;
}

Status StreamLog::Write(WriteBatch* batch,
                        const std::vector<PendingStreamRecord>& records) {
  if (records.empty()) return store_->Write(batch);
  std::lock_guard commit(commit_mu_);
  {
    std::shared_lock lock(state_mu_);
    for (const PendingStreamRecord& r : records) {
      auto e = enabled_.find(r.table_id);
      if (e == enabled_.end()) continue;  // disabled meanwhile
      const StreamInfo& s = streams_.at(e->second);
      const ShardInfo* shard = nullptr;
      for (const ShardInfo& candidate : s.shards) {
        if (candidate.open() && candidate.Contains(r.hash)) {
          shard = &candidate;
          break;
        }
      }
      if (shard == nullptr) continue;  // cannot happen: open shards cover the ring
      batch->Put(Cf::kStreams, RecordKey(s.stream_id, shard->index, NextSeq()),
                 r.value);
    }
  }
  return store_->Write(batch);
}

ShardInfo StreamLog::NewShard(StreamInfo* s, uint64_t begin, uint64_t end,
                              const std::string& parent, int64_t now) {
  ShardInfo shard;
  shard.index = s->next_shard_index++;
  char id[64];
  std::snprintf(id, sizeof(id), "shardId-%020" PRId64 "-%08" PRIx32,
                now / 1000, shard.index);
  shard.shard_id = id;
  shard.parent_shard_id = parent;
  shard.begin = begin;
  shard.end = end;
  // A shard's first sequence number is its own, so that even a shard
  // closed before any record has Starting <= Ending.
  shard.starting_seq = NextSeq();
  shard.trim_seq = shard.starting_seq;
  shard.created_micros = now;
  return shard;
}

void StreamLog::CloseShard(ShardInfo* shard, int64_t now) {
  shard->ending_seq = last_seq_.load();
  shard->closed_micros = now;
}

Result<StreamInfo> StreamLog::Enable(
    uint32_t table_id, const std::string& ns, const std::string& table_name,
    const std::string& table_arn, const std::string& region, StreamViewType view,
    const std::vector<KeySchemaElement>& key_schema, const KeyDef& key,
    const std::vector<std::pair<uint64_t, uint64_t>>& partitions) {
  std::lock_guard commit(commit_mu_);
  const int64_t now = clock_->NowMicros();
  StreamInfo s;
  s.stream_id = next_stream_id_;
  s.table_id = table_id;
  s.ns = ns;
  s.table_name = table_name;
  s.region = region;
  s.view_type = view;
  s.key_schema = key_schema;
  s.key = key;
  s.created_micros = now;
  // Labels are unique per table: a stream enabled in the same millisecond
  // as an earlier one of the table gets the next millisecond.
  int64_t label_micros = now;
  for (;;) {
    s.label = StreamLabelAt(label_micros);
    s.arn = table_arn + "/stream/" + s.label;
    bool taken = false;
    {
      std::shared_lock lock(state_mu_);
      for (const auto& [id, other] : streams_) {
        if (other.ns == ns && other.arn == s.arn) taken = true;
      }
    }
    if (!taken) break;
    label_micros += 1000;
  }
  WriteBatch batch;
  for (const auto& [begin, end] : partitions) {
    s.shards.push_back(NewShard(&s, begin, end, "", now));
    batch.Put(Cf::kStreams, ShardKey(s.stream_id, s.shards.back().index),
              EncodeShardDescriptor(s.shards.back()));
  }
  batch.Put(Cf::kStreams, StreamKey(s.stream_id), EncodeStreamDescriptor(s));
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  std::unique_lock lock(state_mu_);
  ++next_stream_id_;
  enabled_[table_id] = s.stream_id;
  streams_[s.stream_id] = s;
  return s;
}

Status StreamLog::Disable(uint32_t table_id) {
  std::lock_guard commit(commit_mu_);
  std::unique_lock lock(state_mu_);
  auto e = enabled_.find(table_id);
  if (e == enabled_.end()) return Status::OK();
  StreamInfo next = streams_.at(e->second);
  const int64_t now = clock_->NowMicros();
  next.disabled_micros = now;
  WriteBatch batch;
  for (ShardInfo& shard : next.shards) {
    if (!shard.open()) continue;
    CloseShard(&shard, now);
    batch.Put(Cf::kStreams, ShardKey(next.stream_id, shard.index),
              EncodeShardDescriptor(shard));
  }
  batch.Put(Cf::kStreams, StreamKey(next.stream_id), EncodeStreamDescriptor(next));
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  streams_[next.stream_id] = std::move(next);
  enabled_.erase(e);
  return Status::OK();
}

void StreamLog::PartitionSplit(uint32_t table_id, uint64_t at) {
  std::lock_guard commit(commit_mu_);
  std::unique_lock lock(state_mu_);
  auto e = enabled_.find(table_id);
  if (e == enabled_.end()) return;
  StreamInfo next = streams_.at(e->second);
  const int64_t now = clock_->NowMicros();
  WriteBatch batch;
  const size_t count = next.shards.size();
  for (size_t i = 0; i < count; ++i) {
    ShardInfo& parent = next.shards[i];
    if (!parent.open() || at <= parent.begin || (parent.end != 0 && at >= parent.end)) {
      continue;
    }
    CloseShard(&parent, now);
    const ShardInfo closed = parent;  // push_back below may move it
    batch.Put(Cf::kStreams, ShardKey(next.stream_id, closed.index),
              EncodeShardDescriptor(closed));
    for (auto [b, en] : {std::pair{closed.begin, at}, std::pair{at, closed.end}}) {
      next.shards.push_back(NewShard(&next, b, en, closed.shard_id, now));
      batch.Put(Cf::kStreams, ShardKey(next.stream_id, next.shards.back().index),
                EncodeShardDescriptor(next.shards.back()));
    }
    break;
  }
  if (batch.empty()) return;
  batch.Put(Cf::kStreams, StreamKey(next.stream_id), EncodeStreamDescriptor(next));
  // A failed write leaves the shards as they were: records keep going to
  // the parent, which is still a correct (if coarser) stream.
  if (!store_->Write(&batch).ok()) return;
  streams_[next.stream_id] = std::move(next);
}

Status StreamLog::RollOver(int64_t now) {
  // REQUIRES: commit_mu_ held.
  std::unique_lock lock(state_mu_);
  for (auto& [id, stream] : streams_) {
    if (stream.disabled_micros) continue;
    StreamInfo next = stream;
    WriteBatch batch;
    const size_t count = next.shards.size();
    for (size_t i = 0; i < count; ++i) {
      if (!next.shards[i].open() ||
          now - next.shards[i].created_micros < options_.shard_rollover_micros) {
        continue;
      }
      CloseShard(&next.shards[i], now);
      const ShardInfo closed = next.shards[i];
      batch.Put(Cf::kStreams, ShardKey(id, closed.index), EncodeShardDescriptor(closed));
      next.shards.push_back(NewShard(&next, closed.begin, closed.end,
                                     closed.shard_id, now));
      batch.Put(Cf::kStreams, ShardKey(id, next.shards.back().index),
                EncodeShardDescriptor(next.shards.back()));
    }
    if (batch.empty()) continue;
    batch.Put(Cf::kStreams, StreamKey(id), EncodeStreamDescriptor(next));
    DR_RETURN_IF_ERROR(store_->Write(&batch));
    stream = std::move(next);
  }
  return Status::OK();
}

Status StreamLog::Trim(int64_t now) {
  // REQUIRES: commit_mu_ held.
  const int64_t horizon = now - options_.retention_micros;
  std::unique_lock lock(state_mu_);
  for (auto it = streams_.begin(); it != streams_.end();) {
    StreamInfo& stream = it->second;
    const uint32_t id = stream.stream_id;
    if (stream.disabled_micros && *stream.disabled_micros < horizon) {
      // The whole stream is past its retention.
      WriteBatch batch;
      batch.Delete(Cf::kStreams, StreamKey(id));
      batch.DeleteRange(Cf::kStreams, ShardKey(id, 0), StreamShardsEnd(id));
      batch.DeleteRange(Cf::kStreams, StreamRecordsBegin(id), StreamRecordsEnd(id));
      DR_RETURN_IF_ERROR(store_->Write(&batch));
      trimmed_ = true;
      it = streams_.erase(it);
      continue;
    }
    WriteBatch batch;
    std::vector<ShardInfo> kept;
    for (ShardInfo& shard : stream.shards) {
      if (!shard.open() && shard.closed_micros < horizon) {
        batch.Delete(Cf::kStreams, ShardKey(id, shard.index));
        batch.DeleteRange(Cf::kStreams, RecordKey(id, shard.index, 0),
                          ShardRecordsEnd(id, shard.index));
        continue;
      }
      // Records older than the horizon: from the trim point up to the
      // first young one.
      auto records = store_->NewIterator(Cf::kStreams,
                                         RecordKey(id, shard.index, shard.trim_seq),
                                         ShardRecordsEnd(id, shard.index));
      uint64_t first_kept = shard.trim_seq;
      for (records->SeekToFirst(); records->Valid(); records->Next()) {
        int64_t created = 0;
        if (!StreamRecordCreatedMicros(records->value(), &created)) break;
        if (created >= horizon) break;
        first_kept = DecodeFixed64BE(records->key().data() + 9) + 1;
      }
      DR_RETURN_IF_ERROR(records->status());
      if (first_kept != shard.trim_seq) {
        batch.DeleteRange(Cf::kStreams, RecordKey(id, shard.index, shard.trim_seq),
                          RecordKey(id, shard.index, first_kept));
        shard.trim_seq = first_kept;
        batch.Put(Cf::kStreams, ShardKey(id, shard.index), EncodeShardDescriptor(shard));
      }
      kept.push_back(shard);
    }
    if (!batch.empty()) {
      DR_RETURN_IF_ERROR(store_->Write(&batch));
      trimmed_ = true;
      stream.shards = std::move(kept);
    }
    ++it;
  }
  return Status::OK();
}

Status StreamLog::Maintain(bool force) {
  const int64_t now = clock_->NowMicros();
  if (!force && now < next_maintenance_micros_.load(std::memory_order_relaxed)) {
    return Status::OK();
  }
  {
    std::shared_lock lock(state_mu_);
    if (streams_.empty()) {
      next_maintenance_micros_ = now + options_.maintenance_interval_micros;
      return Status::OK();
    }
  }
  bool compact = false;
  {
    std::lock_guard commit(commit_mu_);
    next_maintenance_micros_ = now + options_.maintenance_interval_micros;
    DR_RETURN_IF_ERROR(RollOver(now));
    DR_RETURN_IF_ERROR(Trim(now));
    if (trimmed_ && now - last_compaction_micros_ >= options_.compaction_interval_micros) {
      compact = true;
      trimmed_ = false;
      last_compaction_micros_ = now;
    }
  }
  return compact ? store_->Compact(Cf::kStreams) : Status::OK();
}

std::optional<StreamInfo> StreamLog::FindByArn(const std::string& ns,
                                               const std::string& arn) const {
  std::shared_lock lock(state_mu_);
  for (const auto& [id, s] : streams_) {
    if (s.ns == ns && s.arn == arn) return s;
  }
  return std::nullopt;
}

std::vector<StreamInfo> StreamLog::List(const std::string& ns) const {
  std::vector<StreamInfo> out;
  {
    std::shared_lock lock(state_mu_);
    for (const auto& [id, s] : streams_) {
      if (s.ns == ns) out.push_back(s);
    }
  }
  std::sort(out.begin(), out.end(),
            [](const StreamInfo& a, const StreamInfo& b) { return a.arn < b.arn; });
  return out;
}

}  // namespace dynarock
