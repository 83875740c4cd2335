#include "engine/replication/replication_log.h"

#include <algorithm>
#include <utility>

#include "engine/clock.h"
#include "engine/util/coding.h"

namespace dynarock {
namespace {

constexpr char kVersionPrefix = 'V';
constexpr char kLogPrefix = 'L';

std::string Prefixed(char prefix, uint32_t id) {
  std::string key(1, prefix);
  PutFixed32BE(&key, id);
  return key;
}

uint64_t Unsigned(int64_t micros) { return static_cast<uint64_t>(micros < 0 ? 0 : micros); }

}  // namespace

bool Newer(const ItemVersion& a, const ItemVersion& b) {
  if (a.stamp_micros != b.stamp_micros) return a.stamp_micros > b.stamp_micros;
  return a.origin_region > b.origin_region;
}

void ReplicationLog::SetMember(uint32_t table_id, std::string region,
                               std::vector<ReplicationTarget> targets) {
  WriterMutexLock lock(&mu_);
  members_[table_id] =
      std::make_shared<const Member>(Member{std::move(region), std::move(targets)});
  count_.store(members_.size(), std::memory_order_release);
}

void ReplicationLog::RemoveMember(uint32_t table_id) {
  WriterMutexLock lock(&mu_);
  members_.erase(table_id);
  count_.store(members_.size(), std::memory_order_release);
}

std::vector<ReplicationTarget> ReplicationLog::AllTargets() const {
  ReaderMutexLock lock(&mu_);
  std::vector<ReplicationTarget> out;
  for (const auto& [id, m] : members_) {
    for (const ReplicationTarget& t : m->targets) {
      const bool seen = std::any_of(out.begin(), out.end(), [&](const ReplicationTarget& o) {
        return o.table_id == t.table_id;
      });
      if (!seen) out.push_back(t);
    }
  }
  return out;
}

std::vector<std::string> ReplicationLog::OriginRegions(uint32_t target_id) const {
  ReaderMutexLock lock(&mu_);
  std::vector<std::string> out;
  for (const auto& [id, m] : members_) {
    const bool replicates = std::any_of(m->targets.begin(), m->targets.end(),
                                        [&](const ReplicationTarget& t) {
                                          return t.table_id == target_id;
                                        });
    if (replicates) out.push_back(m->region);
  }
  return out;
}

Status ReplicationLog::Stage(const TableInfo& table, std::string_view item_key,
                             const std::string* new_value, const ReplicatedChange* replicated,
                             WriteBatch* batch) {
  if (count_.load(std::memory_order_acquire) == 0 || item_key.size() < 4) return Status::OK();
  // A reference, not a copy: every write of a member table comes here.
  std::shared_ptr<const Member> member;
  {
    ReaderMutexLock lock(&mu_);
    auto it = members_.find(table.id);
    if (it == members_.end()) return Status::OK();
    member = it->second;
  }
  const std::string_view suffix = item_key.substr(4);
  const std::string version_key = VersionKey(table.id, suffix);
  if (replicated != nullptr) {
    batch->Put(Cf::kMeta, version_key,
               EncodeVersion({replicated->stamp_micros, replicated->origin_region}));
    return Status::OK();
  }
  // Under the item's lock: the stored version is the item's latest.
  int64_t stamp = clock_->NowMicros();
  DR_ASSIGN_OR_RETURN(std::optional<std::string> stored, store_->Get(Cf::kMeta, version_key));
  if (stored) {
    DR_ASSIGN_OR_RETURN(ItemVersion seen, DecodeVersion(*stored));
    stamp = std::max(stamp, seen.stamp_micros + 1);
  }
  batch->Put(Cf::kMeta, version_key, EncodeVersion({stamp, member->region}));
  const std::string value = RecordValue(new_value);
  for (const ReplicationTarget& t : member->targets) {
    batch->Put(Cf::kMeta, LogKey(t.table_id, stamp, member->region, suffix), value);
  }
  return Status::OK();
}

std::string ReplicationLog::VersionKey(uint32_t table_id, std::string_view suffix) {
  std::string key = Prefixed(kVersionPrefix, table_id);
  key.append(suffix);
  return key;
}

std::string ReplicationLog::VersionsBegin(uint32_t table_id) {
  return Prefixed(kVersionPrefix, table_id);
}

std::string ReplicationLog::VersionsEnd(uint32_t table_id) {
  return Prefixed(kVersionPrefix, table_id + 1);
}

std::string ReplicationLog::EncodeVersion(const ItemVersion& v) {
  std::string out;
  PutFixed64BE(&out, Unsigned(v.stamp_micros));
  out.append(v.origin_region);
  return out;
}

Result<ItemVersion> ReplicationLog::DecodeVersion(std::string_view bytes) {
  if (bytes.size() < 8) return Status::Corruption("bad global table item version");
  ItemVersion v;
  v.stamp_micros = static_cast<int64_t>(DecodeFixed64BE(bytes.data()));
  v.origin_region = std::string(bytes.substr(8));
  return v;
}

std::string ReplicationLog::LogKey(uint32_t target_id, int64_t stamp, std::string_view origin,
                                   std::string_view suffix) {
  std::string key = Prefixed(kLogPrefix, target_id);
  PutFixed64BE(&key, Unsigned(stamp));
  key.push_back(static_cast<char>(std::min<size_t>(origin.size(), 255)));
  key.append(origin.substr(0, 255));
  key.append(suffix);
  return key;
}

std::string ReplicationLog::LogBegin(uint32_t target_id) {
  return Prefixed(kLogPrefix, target_id);
}

std::string ReplicationLog::LogEnd(uint32_t target_id, int64_t stamp_inclusive) {
  std::string key = Prefixed(kLogPrefix, target_id);
  PutFixed64BE(&key, Unsigned(stamp_inclusive) + 1);
  return key;
}

Result<ReplicationLog::Record> ReplicationLog::ParseRecord(std::string_view key,
                                                           std::string_view value) {
  if (key.size() < 14 || key[0] != kLogPrefix || value.empty()) {
    return Status::Corruption("bad global table replication record");
  }
  Record r;
  r.target_id = DecodeFixed32BE(key.data() + 1);
  r.stamp_micros = static_cast<int64_t>(DecodeFixed64BE(key.data() + 5));
  const size_t origin_size = static_cast<uint8_t>(key[13]);
  if (key.size() < 14 + origin_size) {
    return Status::Corruption("bad global table replication record");
  }
  r.origin = key.substr(14, origin_size);
  r.suffix = key.substr(14 + origin_size);
  if (value[0] == '\1') r.item = value.substr(1);
  return r;
}

std::string ReplicationLog::RecordValue(const std::string* item) {
  std::string value(1, item != nullptr ? '\1' : '\0');
  if (item != nullptr) value.append(*item);
  return value;
}

}  // namespace dynarock
