// engine/storage/catalog.h
//
// Catalog holds every table's definition: persisted in the meta column
// family, cached in memory for lookups on every request. A TableInfo is
// immutable once published; a change (UpdateTable, DeleteTable) publishes a
// new one, so readers hold a shared_ptr and never lock.
//
// Per-table item count and size are counters in the meta column family,
// changed in the same WriteBatch as the items they describe, and mirrored in
// memory (TableStats) for DescribeTable.
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_STORAGE_CATALOG_H_
#define DYNAROCK_ENGINE_STORAGE_CATALOG_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/types.h"
#include "engine/util/mutex.h"

namespace dynarock {

struct TableStats {
  std::atomic<int64_t> item_count{0};
  std::atomic<int64_t> size_bytes{0};
};

// A secondary index as the write and read paths use it, resolved from the
// table's definition. `id` prefixes its entries in the indexes column family
// (and a GSI's records in gsi_log); ids come from the same sequence as table
// ids and are never reused, so a deleted index's leftovers can never be read
// as another index's entries.
struct IndexInfo {
  uint32_t id = 0;
  std::string name;
  bool global = false;
  KeyDef key;            // the index's own partition and sort key
  Projection projection;
  // Set for a vector index (engine/vector/): entries are kept from the GSI
  // log like a GSI's, read only by SearchVectors. `key` then holds the
  // search schema's HASH attribute (hash_name empty when it has none).
  std::shared_ptr<const VectorIndexDef> vector;
};

// A table's Time to Live setting (engine/ttl/): whether expired items are
// deleted, by which attribute, and when the setting last changed. Persisted
// in the table record; changed only through Catalog::UpdateSettings.
struct TimeToLiveSettings {
  bool enabled = false;
  // The attribute holding each item's expiry (epoch seconds); empty when
  // TTL was never enabled; once disabled, the last one (DISABLING shows it).
  std::string attribute_name;
  std::optional<int64_t> last_change_micros;
};

// Contributor insights of a table or one of its GSIs: on or off, when last
// switched (engine clock, micros), and the mode last enabled with.
struct ContributorInsightsSetting {
  bool enabled = false;
  int64_t last_change_micros = 0;
  ContributorInsightsMode mode = ContributorInsightsMode::kAccessedAndThrottledKeys;

  bool operator==(const ContributorInsightsSetting&) const = default;
};

struct TableInfo {
  uint32_t id = 0;   // key prefix of the table's items; never reused
  std::string ns;    // the Scope namespace the table lives in
  // The definition as DescribeTable reports it; table_status, item_count
  // and table_size_bytes are filled in at describe time.
  TableDescription desc;
  KeyDef key;
  std::optional<int64_t> updating_since_micros;
  std::optional<int64_t> deleting_since_micros;
  // Shared by every version of one table's TableInfo.
  std::shared_ptr<TableStats> stats;
  // The persisted id of every index of `desc`, by index name.
  std::map<std::string, uint32_t, std::less<>> index_ids;
  // `desc`'s indexes resolved (GSIs, then LSIs); see ResolveIndexes.
  std::vector<IndexInfo> indexes;
  // Loaded from a record written before index ids existed (version 1): the
  // indexes have no ids and no entries yet; Engine::Open rebuilds them.
  bool needs_index_rebuild = false;
  // Time to Live (record version 3; off in older records).
  TimeToLiveSettings ttl;
  // The table's tags by key (record version 4; none in older records).
  // Changed only through Catalog::UpdateSettings (and at creation).
  std::map<std::string, std::string> tags;
  // Contributor insights by resource: "" for the table, else a GSI's name.
  // Record version 6 (the mode since: see catalog.cc); none in older
  // records. Changed only through Catalog::UpdateSettings.
  std::map<std::string, ContributorInsightsSetting, std::less<>> contributor_insights;

  // The index named `name`, or null.
  const IndexInfo* FindIndex(std::string_view name) const;
  bool has_lsi() const { return !desc.local_secondary_indexes.empty(); }
  bool has_gsi() const { return !desc.global_secondary_indexes.empty(); }
  bool has_vector_index() const { return !desc.vector_indexes.empty(); }
};

// Fills `info->indexes` from `info->desc` and `info->index_ids` (an index
// without an id gets id 0).
void ResolveIndexes(TableInfo* info);

// The table record as the catalog persists it (versioned; decodes every
// older version). Backups keep their table's definition in it.
std::string EncodeTableRecord(const TableInfo& t);
// Errors: kCorruption.
Result<TableInfo> DecodeTableRecord(std::string_view bytes);

class Catalog {
 public:
  // Loads every table definition and counter from `store` (not owned).
  static Result<std::unique_ptr<Catalog>> Load(Store* store);

  // The table, or null.
  std::shared_ptr<const TableInfo> Find(std::string_view ns,
                                        std::string_view name) const;
  // Every table of a namespace, in ascending name order.
  std::vector<std::shared_ptr<const TableInfo>> List(std::string_view ns) const;
  // Every table of every namespace.
  std::vector<std::shared_ptr<const TableInfo>> All() const;

  // Assigns `info` an id (and every index of it an id), persists it and
  // publishes it. A restored table comes with ids already reserved
  // (ReserveId; `info.id` and `info.index_ids` set) and its counters
  // written (`info.stats` set); they are kept.
  // Errors: kResourceInUse ("Table already exists: <name>").
  Result<std::shared_ptr<const TableInfo>> Create(TableInfo info);
  // Persists and publishes a new version of an existing table; `batch`
  // carries other changes to commit with it (may be empty). The settings
  // UpdateSettings owns (`ttl`, `tags`) are kept from the version published now,
  // so a table change made from an older copy cannot undo them.
  Status Replace(std::shared_ptr<const TableInfo> info, WriteBatch* batch);
  // Changes the settings of the table published as (ns, name) with id `id`
  // (Time to Live, tags): under the catalog's lock, copies the current version,
  // lets `change` edit the copy (an error aborts with nothing changed),
  // persists and publishes it, and returns it. Concurrent changes of one
  // table are serialized, so none is lost.
  // Errors: kResourceNotFound (no such table now; the message is the
  // caller's to replace), kIOError, and `change`'s.
  Result<std::shared_ptr<const TableInfo>> UpdateSettings(
      std::string_view ns, std::string_view name, uint32_t id,
      const std::function<Status(TableInfo*)>& change);
  // A fresh id for a new index (UpdateTable): never handed out before and
  // never again, persisted before it is returned. Errors: kIOError.
  Result<uint32_t> ReserveId();
  // Forgets the table and its counters; `batch` carries other changes.
  Status Remove(const TableInfo& info, WriteBatch* batch);

  // Counter updates for a write to table `id`, to add to its WriteBatch;
  // ApplyStats mirrors them in memory once the batch is written.
  static void AddStats(uint32_t id, int64_t items, int64_t bytes,
                       WriteBatch* batch);
  static void ApplyStats(const TableInfo& info, int64_t items, int64_t bytes);

  // A secondary index's item count and size (IndexSizeBytes: its entries'
  // IndexEntry::size, i.e. projected item + 100 bytes each) are the same
  // kind of counters under the index's id, kept only on disk: AddStats with
  // the index id adds to them in a write's batch, IndexStats reads them
  // (DescribeTable), RemoveIndexStats deletes them with the index.
  // Errors: kIOError, kCorruption.
  static Result<std::pair<int64_t, int64_t>> IndexStats(const Store& store,
                                                        uint32_t index_id);
  static void RemoveIndexStats(uint32_t index_id, WriteBatch* batch);

 private:
  explicit Catalog(Store* store) : store_(store) {}
  using NameKey = std::pair<std::string, std::string>;  // (ns, name)

  Store* store_;
  mutable SharedMutex mu_;
  std::map<NameKey, std::shared_ptr<const TableInfo>, std::less<>> tables_
      GUARDED_BY(mu_);
  uint32_t next_id_ GUARDED_BY(mu_) = 1;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_STORAGE_CATALOG_H_
