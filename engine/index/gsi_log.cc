#include "engine/index/gsi_log.h"

#include <algorithm>

#include "engine/util/coding.h"

namespace dynarock {
namespace {

constexpr uint8_t kRecordVersion = 1;
constexpr uint8_t kHasDelete = 1;
constexpr uint8_t kHasPut = 2;

Status Corrupt() { return Status::Corruption("corrupt GSI log record"); }

}  // namespace

std::string GsiLogKey(uint32_t index_id, uint64_t seq) {
  std::string key;
  key.reserve(12);
  PutFixed32BE(&key, index_id);
  PutFixed64BE(&key, seq);
  return key;
}

Status ParseGsiLogKey(std::string_view key, uint32_t* index_id, uint64_t* seq) {
  if (!GetFixed32BE(&key, index_id) || !GetFixed64BE(&key, seq) ||
      !key.empty()) {
    return Status::Corruption("corrupt GSI log key");
  }
  return Status::OK();
}

void EncodeGsiLogRecord(const GsiLogRecord& record, std::string* out) {
  out->push_back(static_cast<char>(kRecordVersion));
  PutSignedVarint64(out, record.time_micros);
  uint8_t flags = 0;
  if (record.delete_key) flags |= kHasDelete;
  if (record.put_key) flags |= kHasPut;
  out->push_back(static_cast<char>(flags));
  if (record.delete_key) PutLengthPrefixed(out, *record.delete_key);
  if (record.put_key) {
    PutLengthPrefixed(out, *record.put_key);
    PutLengthPrefixed(out, record.put_value);
  }
}

Result<GsiLogRecord> DecodeGsiLogRecord(std::string_view in) {
  if (in.size() < 1 || static_cast<uint8_t>(in[0]) != kRecordVersion) {
    return Corrupt();
  }
  in.remove_prefix(1);
  GsiLogRecord record;
  if (!GetSignedVarint64(&in, &record.time_micros) || in.empty())
    return Corrupt();
  const uint8_t flags = static_cast<uint8_t>(in[0]);
  in.remove_prefix(1);
  std::string_view s;
  if (flags & kHasDelete) {
    if (!GetLengthPrefixed(&in, &s)) return Corrupt();
    record.delete_key = std::string(s);
  }
  if (flags & kHasPut) {
    if (!GetLengthPrefixed(&in, &s)) return Corrupt();
    record.put_key = std::string(s);
    if (!GetLengthPrefixed(&in, &s)) return Corrupt();
    record.put_value = std::string(s);
  }
  if (!in.empty() || (flags & ~(kHasDelete | kHasPut)) != 0) return Corrupt();
  return record;
}

void SequenceTracker::Reset(uint64_t last_used) {
  MutexLock lock(&mu_);
  next_ = std::max(next_, last_used + 1);
}

SequenceTracker::Ticket SequenceTracker::Reserve(int64_t now_micros) {
  MutexLock lock(&mu_);
  Ticket t;
  t.seq = next_++;
  last_time_ = std::max(last_time_, now_micros);
  t.time_micros = last_time_;
  in_flight_.insert(t.seq);
  return t;
}

void SequenceTracker::Release(uint64_t seq) {
  MutexLock lock(&mu_);
  auto it = in_flight_.find(seq);
  if (it != in_flight_.end()) in_flight_.erase(it);
}

uint64_t SequenceTracker::Next() const {
  MutexLock lock(&mu_);
  return next_;
}

uint64_t SequenceTracker::Watermark() const {
  MutexLock lock(&mu_);
  return in_flight_.empty() ? next_ : *in_flight_.begin();
}

}  // namespace dynarock
