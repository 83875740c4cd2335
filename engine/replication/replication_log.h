// engine/replication/replication_log.h
//
// ReplicationLog is the write side of global tables (version 2019.11.21,
// multi-Region eventual consistency): WritePath's ChangeHook. For every
// committed change of an item of a member table it adds, in the change's
// own WriteBatch (so a change and its replication are durable together):
//
//   the item's version      "V" table_id (4 BE) | item key suffix
//                             -> stamp (8 BE) | origin Region
//   one log record per other replica of the group
//                           "L" target_id (4 BE) | stamp (8 BE) |
//                             origin length (1) | origin | item key suffix
//                             -> 1 | encoded new item   or   0 (a delete)
//
// both in the meta column family. A local write's stamp is the engine clock,
// pushed past the item's stored version (stamp + 1 µs) so that a write
// always supersedes what its Region has seen of the item; a replicated
// apply keeps its record's stamp and origin. Versions are kept after a
// delete (tombstones) so that an older write arriving later cannot bring
// the item back. Last writer wins: the higher stamp, then the greater
// origin Region name (Newer). Only a write's own Region fans it out.
//
// The membership (which table replicates to which) is kept here in memory,
// set by GlobalTables, which persists it. Thread-safe.

#ifndef DYNAROCK_ENGINE_REPLICATION_REPLICATION_LOG_H_
#define DYNAROCK_ENGINE_REPLICATION_REPLICATION_LOG_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/data/write_path.h"
#include "engine/util/mutex.h"

namespace dynarock {

class Clock;

// Where a change of an item was made, and when: what last-writer-wins
// compares.
struct ItemVersion {
  int64_t stamp_micros = 0;
  std::string origin_region;
};
// Whether `a` supersedes `b`: a later stamp, or the same stamp from a
// greater Region name.
bool Newer(const ItemVersion& a, const ItemVersion& b);

// A replica a member table's changes go to.
struct ReplicationTarget {
  uint32_t table_id = 0;
  std::string region;
  std::string ns;
  std::string table_name;
};

class ReplicationLog : public ChangeHook {
 public:
  // Neither is owned; both outlive this.
  ReplicationLog(const StoreReader* store, const Clock* clock) : store_(store), clock_(clock) {}

  // Makes `table_id` (in `region`) a member replicating to `targets`
  // (none: it only keeps versions), or no member.
  void SetMember(uint32_t table_id, std::string region, std::vector<ReplicationTarget> targets);
  void RemoveMember(uint32_t table_id);
  // Every table some member replicates to.
  std::vector<ReplicationTarget> AllTargets() const;
  // The Regions of the members that replicate to `target_id`.
  std::vector<std::string> OriginRegions(uint32_t target_id) const;

  // ChangeHook: the version and the log records of a member's change.
  Status Stage(const TableInfo& table, std::string_view item_key, const std::string* new_value,
               const ReplicatedChange* replicated, WriteBatch* batch) override;
  // ChangeHook: the tombstone version of a replicated delete of an item the
  // replica never held.
  Status StageTombstone(const TableInfo& table, std::string_view item_key,
                        const ReplicatedChange& replicated, WriteBatch* batch) override {
    return Stage(table, item_key, nullptr, &replicated, batch);
  }

  // --- Record formats ---
  static std::string VersionKey(uint32_t table_id, std::string_view suffix);
  static std::string VersionsBegin(uint32_t table_id);
  static std::string VersionsEnd(uint32_t table_id);
  static std::string EncodeVersion(const ItemVersion& v);
  // Errors: kCorruption.
  static Result<ItemVersion> DecodeVersion(std::string_view bytes);

  static std::string LogKey(uint32_t target_id, int64_t stamp, std::string_view origin,
                            std::string_view suffix);
  // [LogBegin(id), LogEnd(id, t)) holds the target's records stamped up to
  // and including t.
  static std::string LogBegin(uint32_t target_id);
  static std::string LogEnd(uint32_t target_id, int64_t stamp_inclusive);
  // A log record split. Views `key` and `value`: both must outlive it.
  struct Record {
    uint32_t target_id = 0;
    int64_t stamp_micros = 0;
    std::string_view origin;
    std::string_view suffix;                // the item key without table id
    std::optional<std::string_view> item;   // nullopt: a delete
  };
  // Errors: kCorruption.
  static Result<Record> ParseRecord(std::string_view key, std::string_view value);
  // The value of a log record of `item` (null: a delete).
  static std::string RecordValue(const std::string* item);

 private:
  struct Member {
    std::string region;
    std::vector<ReplicationTarget> targets;
  };
  const StoreReader* const store_;
  const Clock* const clock_;
  // How many members there are: writes of other tables skip the lock.
  std::atomic<size_t> count_{0};
  mutable SharedMutex mu_;
  // Shared, so that a write holds its member without copying it.
  std::map<uint32_t, std::shared_ptr<const Member>> members_ GUARDED_BY(mu_);
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REPLICATION_REPLICATION_LOG_H_
