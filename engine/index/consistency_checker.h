// engine/index/consistency_checker.h
//
// Rebuilds a secondary index from its base table and compares the result
// with the entries stored in the indexes column family: the test oracle of
// index maintenance (LSI writes, the GSI log and propagator, backfills).
// Items whose index key attributes fail CheckIndexKeysOf (possible only for
// items written before a GSI existed) are left out, as a backfill does.
//
// Compare a GSI only once its log is applied (Engine::WaitUntilIndexesCaughtUp
// or Propagator::CatchUp); otherwise pending records show up as differences.
// Reads through one iterator per column family; not a consistent snapshot of
// both, so quiesce writers first. Stateless; thread-safe.

#ifndef DYNAROCK_ENGINE_INDEX_CONSISTENCY_CHECKER_H_
#define DYNAROCK_ENGINE_INDEX_CONSISTENCY_CHECKER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"

namespace dynarock {

struct IndexDifference {
  std::string index_name;
  int64_t expected_entries = 0;  // rebuilt from the table
  int64_t stored_entries = 0;
  // Entry keys (hex) missing from the index, present but not expected, and
  // present with another value; at most kMaxReported of each.
  std::vector<std::string> missing;
  std::vector<std::string> unexpected;
  std::vector<std::string> wrong_value;
  int64_t missing_count = 0;
  int64_t unexpected_count = 0;
  int64_t wrong_value_count = 0;
  // The stored entries' bytes (IndexEntry::size) and what the index's
  // counters (Catalog::IndexStats, DescribeTable's ItemCount and
  // IndexSizeBytes) say.
  int64_t stored_bytes = 0;
  int64_t counted_entries = 0;
  int64_t counted_bytes = 0;

  static constexpr size_t kMaxReported = 10;
  bool empty() const {
    return missing_count == 0 && unexpected_count == 0 &&
           wrong_value_count == 0 && counted_entries == stored_entries &&
           counted_bytes == stored_bytes;
  }
  // One line per difference, for test failure messages.
  std::string ToString() const;
};

// Compares one index of a table. Errors: kCorruption, kIOError.
Result<IndexDifference> CheckIndex(const Store& store, uint32_t table_id,
                                   const KeyDef& table_key,
                                   const IndexInfo& index);

// Compares every index of `table` (those with an id); returns only the
// indexes that differ (empty: all consistent).
Result<std::vector<IndexDifference>> CheckTableIndexes(const Store& store,
                                                       const TableInfo& table);

// Recounts the table's stored items and their bytes (DynamoDB item sizes)
// against its counters (ItemCount, TableSizeBytes). Every write moves the
// counters in the batch that writes its item, so on a quiet table they
// agree. Returns "" when they do, else one line describing the difference.
// Errors: kCorruption, kIOError.
Result<std::string> CheckTableCounters(const Store& store, const TableInfo& table);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_INDEX_CONSISTENCY_CHECKER_H_
