// engine/index/secondary_indexes.h
//
// SecondaryIndexes is the engine's one owner of index maintenance:
//   - the IndexWriter that WritePath stages every item change through (LSI
//     entries, GSI log records, item-collection sizes);
//   - the Propagator that applies the GSI log after each index's lag and
//     runs backfills, on a background thread or deterministically;
//   - the table-level changes to a table's set of indexes (CreateTable,
//     UpdateTable GlobalSecondaryIndexUpdates, DeleteTable), published under
//     the locks that keep writes, propagation and backfills consistent.
//
// Lock order: Propagator::PauseApply, then IndexWriter::ExcludeWriters, then
// the catalog's lock (inside Catalog::Replace). Thread-safe.

#ifndef DYNAROCK_ENGINE_INDEX_SECONDARY_INDEXES_H_
#define DYNAROCK_ENGINE_INDEX_SECONDARY_INDEXES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "engine/capacity/capacity_options.h"
#include "engine/index/gsi_update_plan.h"
#include "engine/index/index_writer.h"
#include "engine/index/propagator.h"
#include "engine/requests/index_lag_requests.h"
#include "engine/requests/table_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"

namespace dynarock {

class Clock;

struct SecondaryIndexOptions {
  int64_t gsi_lag_micros = 0;
  // No thread: propagation and backfills move only in Pump(),
  // PropagateDue() and WaitUntilCaughtUp().
  bool deterministic = false;
  int64_t backfill_chunk_items = 1000;
  int64_t item_collection_size_limit_bytes = int64_t{10} << 30;
};

// Adds to `batch` the entries of `item` in every index of `table` (GSIs
// too, directly, not through the log) and, for tables with LSIs, adds the
// item's bytes to its collection's total in `collections` (by
// ItemCollectionSizeKey). For building a table's indexes from its items
// while nothing else writes them (a rebuild, a restore).
void AddIndexEntriesOf(const TableInfo& table, const Item& item, WriteBatch* batch,
                       std::map<std::string, int64_t>* collections);

class SecondaryIndexes {
 public:
  // Reads the GSI log left by a previous run, registers every table's
  // indexes with the writer, rebuilds the indexes of tables whose records
  // predate index ids (catalog record version 1), resumes unfinished
  // backfills, and starts the propagation thread unless deterministic.
  // `store`, `catalog` and `clock` are not owned and must outlive it.
  // Errors: kCorruption, kIOError.
  static Result<std::unique_ptr<SecondaryIndexes>> Open(
      Store* store, Catalog* catalog, Clock* clock,
      const SecondaryIndexOptions& options);
  ~SecondaryIndexes();
  // Stops the propagation thread (idempotent).
  void Stop();

  IndexWriter* writer() { return &writer_; }
  // The in-memory graphs of every vector index (SearchVectors).
  const vector::VectorGraphs& vector_graphs() const { return vectors_; }
  Propagator* propagator() { return &propagator_; }

  // At the start of every engine call: in deterministic mode, applies what
  // is due at the clock's now (errors become the sticky status).
  void Pump();
  // The sticky propagation error (OK when none).
  Status status() const { return propagator_.status(); }

  // CreateTable (or a restore): the table's indexes are maintained from now
  // on; a vector index's graphs are built from its stored entries.
  // Errors: storage errors, kCorruption.
  Status TableCreated(const TableInfo& table);
  // A GSI (or vector index) being backfilled shows IndexStatus CREATING
  // and Backfilling.
  void Describe(const TableInfo& table, TableDescription* d) const;
  // Query and Scan on `index` (null: the table). Errors: kValidation
  // ("Cannot read from backfilling global secondary index"; a vector
  // index, which only SearchVectors reads).
  Status CheckReadable(const TableInfo& table, const IndexInfo* index) const;

  // UpdateTable: the pure plan of engine/index/gsi_update_plan.h, run with
  // whether a GSI of `current` is backfilling and the catalog's next id.
  // Errors: kValidation, kResourceNotFound, kLimitExceeded.
  Status PlanGsiUpdates(const UpdateTableRequest& req, const TableInfo& current,
                        int64_t now, const CapacityOptions& capacity,
                        TableInfo* next, GsiChanges* changes);
  // Publishes `next` (a new version of `current`) with `batch`: a deleted
  // index's entries and log records go in the same batch, a created index
  // starts its backfill. Errors: kResourceInUse when `current` is no longer
  // the published version (a concurrent UpdateTable), storage errors.
  Status Publish(const TableInfo& current,
                 std::shared_ptr<const TableInfo> next,
                 const GsiChanges& changes, WriteBatch* batch);
  // DeleteTable: publishes `next` (marked DELETING) with the deletion of
  // every index entry, log record and item-collection counter of `table`.
  // Errors: kResourceInUse while a GSI is being created.
  Status PublishTableDeletion(const TableInfo& table,
                              std::shared_ptr<const TableInfo> next,
                              WriteBatch* batch);

  Status WaitUntilCaughtUp() { return propagator_.CatchUp(); }
  Status PropagateDue() { return propagator_.RunDue(); }
  // Errors: kResourceNotFound (no such GSI), kValidation (an LSI).
  Status SetLag(const TableInfo& table, const std::string& index_name,
                int64_t lag_micros);
  IndexPropagationStats Stats() const { return propagator_.Stats(); }

 private:
  SecondaryIndexes(Store* store, Catalog* catalog, Clock* clock,
                   const SecondaryIndexOptions& options);
  // Builds the indexes of a table loaded from a version-1 record (ids,
  // entries, item-collection counters) and publishes it as version 2.
  Result<std::shared_ptr<const TableInfo>> Rebuild(const TableInfo& table);
  // Registers and loads the graphs of `table`'s vector indexes not kept yet.
  Status LoadVectorGraphs(const TableInfo& table);

  Store* const store_;
  Catalog* const catalog_;
  Clock* const clock_;
  const SecondaryIndexOptions options_;
  // Before propagator_, which feeds it.
  vector::VectorGraphs vectors_;
  Propagator propagator_;
  IndexWriter writer_;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_INDEX_SECONDARY_INDEXES_H_
