#include "engine/index/gsi_log.h"

#include <algorithm>
#include <limits>

#include "engine/util/coding.h"

namespace dynarock {
namespace {

// Version 2 added the sizes (kHasSizes); version 1 records may still be in
// a log written before it.
constexpr uint8_t kRecordVersion = 2;
constexpr uint8_t kHasDelete = 1;
constexpr uint8_t kHasPut = 2;
constexpr uint8_t kHasSizes = 4;

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
  RecordWriter w(out);
  w.Byte(kRecordVersion);
  w.Signed(record.time_micros);
  uint8_t flags = 0;
  if (record.delete_key) flags |= kHasDelete;
  if (record.put_key) flags |= kHasPut;
  if (record.sizes_known) flags |= kHasSizes;
  w.Byte(flags);
  if (record.delete_key) w.String(*record.delete_key);
  if (record.put_key) {
    w.String(*record.put_key);
    w.String(record.put_value);
  }
  if (record.sizes_known) {
    if (record.delete_key) w.Varint(static_cast<uint64_t>(record.deleted_size));
    if (record.put_key) w.Signed(record.overwritten_size);
  }
}

Result<GsiLogRecord> DecodeGsiLogRecord(std::string_view in) {
  if (in.empty()) return Corrupt();
  const uint8_t version = static_cast<uint8_t>(in[0]);
  if (version != 1 && version != kRecordVersion) return Corrupt();
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
  const uint8_t known_flags =
      kHasDelete | kHasPut | (version >= 2 ? kHasSizes : 0);
  if ((flags & ~known_flags) != 0) return Corrupt();
  if (flags & kHasSizes) {
    record.sizes_known = true;
    uint64_t deleted = 0;
    if ((flags & kHasDelete) &&
        (!GetVarint64(&in, &deleted) ||
         deleted > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))) {
      return Corrupt();
    }
    record.deleted_size = static_cast<int64_t>(deleted);
    if ((flags & kHasPut) &&
        (!GetSignedVarint64(&in, &record.overwritten_size) ||
         record.overwritten_size < -1)) {
      return Corrupt();
    }
  }
  if (!in.empty()) return Corrupt();
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
