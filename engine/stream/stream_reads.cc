#include "engine/stream/stream_reads.h"

namespace dynarock {

Status StreamRateExceeded() {
  return Status(ErrorCode::kLimitExceeded, "Rate exceeded");
}

Status StreamControlRateExceeded() {
  return Status(ErrorCode::kThrottling, "Rate exceeded");
}

Status StreamReads::AdmitGetRecords(uint32_t stream_id, uint32_t shard, bool enforce) {
  const int64_t now = clock_->NowMicros();
  std::lock_guard lock(mu_);
  auto [it, inserted] = shards_.try_emplace({stream_id, shard});
  ShardState& state = it->second;
  const int64_t rate = limits_.get_records_per_shard_per_second;
  if (inserted) state.bucket = TokenBucket(rate, rate, now);
  if (enforce && state.bucket.Balance(now) < 1) {
    ++state.stats.throttled_calls;
    return StreamRateExceeded();
  }
  state.bucket.Charge(1, now);
  ++state.stats.get_records_calls;
  return Status::OK();
}

void StreamReads::RecordRead(uint32_t stream_id, uint32_t shard, uint64_t records,
                             uint64_t bytes, uint64_t next_seq) {
  std::lock_guard lock(mu_);
  ShardReadStats& stats = shards_[{stream_id, shard}].stats;
  stats.records_read += records;
  stats.bytes_read += bytes;
  if (next_seq > stats.read_position) stats.read_position = next_seq;
}

Status StreamReads::Admit(std::map<std::string, TokenBucket>* buckets,
                          const std::string& key, int64_t rate, bool enforce) {
  const int64_t now = clock_->NowMicros();
  auto [it, inserted] = buckets->try_emplace(key);
  if (inserted) it->second = TokenBucket(rate, rate, now);
  if (enforce && it->second.Balance(now) < 1) return StreamControlRateExceeded();
  it->second.Charge(1, now);
  return Status::OK();
}

Status StreamReads::AdmitDescribeStream(const std::string& ns, bool enforce) {
  std::lock_guard lock(mu_);
  return Admit(&describe_, ns, limits_.describe_stream_per_second, enforce);
}

Status StreamReads::AdmitListStreams(const std::string& ns, bool enforce) {
  std::lock_guard lock(mu_);
  return Admit(&list_, ns, limits_.list_streams_per_second, enforce);
}

ShardReadStats StreamReads::Stats(uint32_t stream_id, uint32_t shard) const {
  std::lock_guard lock(mu_);
  auto it = shards_.find({stream_id, shard});
  return it == shards_.end() ? ShardReadStats() : it->second.stats;
}

}  // namespace dynarock
