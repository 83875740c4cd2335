#include "engine/backup/pitr_log.h"

#include "engine/clock.h"
#include "engine/keys/key_codec.h"
#include "engine/util/coding.h"

namespace dynarock {

bool PitrLog::Logging(uint32_t table_id) const {
  ReaderMutexLock lock(&mu_);
  return logging_.count(table_id) != 0;
}

void PitrLog::SetLogging(uint32_t table_id, bool on) {
  WriterMutexLock lock(&mu_);
  if (on) {
    logging_.insert(table_id);
  } else {
    logging_.erase(table_id);
  }
}

Status PitrLog::Stage(const TableInfo& table, std::string_view item_key,
                      const std::string* new_value, const ReplicatedChange* /*replicated*/,
                      WriteBatch* batch) {
  if (!Logging(table.id) || item_key.size() < 4) return Status::OK();
  std::string value(1, new_value ? '\1' : '\0');
  if (new_value) value.append(*new_value);
  batch->Put(Cf::kPitr, LogKey(table.id, clock_->NowMicros(), item_key.substr(4)), value);
  return Status::OK();
}

std::string PitrLog::LogKey(uint32_t table_id, int64_t micros,
                            std::string_view suffix) {
  std::string key = keys::TablePrefix(table_id);
  PutFixed64BE(&key, static_cast<uint64_t>(micros < 0 ? 0 : micros));
  key.append(suffix);
  return key;
}

std::string PitrLog::LogBegin(uint32_t table_id) { return keys::TablePrefix(table_id); }

std::string PitrLog::LogEnd(uint32_t table_id, int64_t micros_inclusive) {
  std::string key = keys::TablePrefix(table_id);
  PutFixed64BE(&key, static_cast<uint64_t>(micros_inclusive < 0 ? 0 : micros_inclusive) + 1);
  return key;
}

Result<PitrLog::Change> PitrLog::ParseEntry(std::string_view key,
                                            std::string_view value) {
  if (key.size() < 12 || value.empty()) {
    return Status::Corruption("bad point-in-time recovery log entry");
  }
  Change c;
  c.micros = static_cast<int64_t>(DecodeFixed64BE(key.data() + 4));
  c.suffix = key.substr(12);
  if (value[0] == '\1') c.value = value.substr(1);
  return c;
}

}  // namespace dynarock
