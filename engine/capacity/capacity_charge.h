// engine/capacity/capacity_charge.h
//
// WHERE a request consumed its capacity units: per table, the units taken at
// each partition key of the table and of its indexes. ConsumedCapacity
// (consumed_capacity.h) is what the client is told; a CapacityCharge is what
// throttling (token buckets per partition) and per-partition statistics
// (hot keys) consume. Both are produced together by the metering of every
// data operation, and always agree: the units of a CapacityCharge's parts
// sum to the ConsumedCapacity's Total() of the same table.
//
// The contract with the throttler:
//   - writes: WritePath::Apply / ApplyMany (engine/data/write_path.h) fill a
//     Metering per item write once the item is STAGED, i.e. after the old
//     item was read, the condition evaluated, the new item and its index
//     changes computed, and BEFORE the WriteBatch is committed; an admission
//     check placed between staging and Store::Write sees the complete
//     charge. A write whose condition fails (kConditionalCheckFailed) still
//     produces its charge (the old item's size, 1 unit when there is none);
//     other errors produce none.
//   - reads: GetItem, BatchGetItem, Query and Scan produce their charge
//     right after reading (before the result is built); the engine results
//     carry it (requests.h, `capacity_charges`).
//
// Plain values; no synchronization.

#ifndef DYNAROCK_ENGINE_CAPACITY_CAPACITY_CHARGE_H_
#define DYNAROCK_ENGINE_CAPACITY_CAPACITY_CHARGE_H_

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/capacity/consumed_capacity.h"
#include "engine/types.h"

namespace dynarock {

// Units consumed at one partition key of one table or index.
struct PartitionUnits {
  uint32_t index_id = 0;  // 0: the base table; else the catalog index id (IndexInfo) of a GSI or LSI
  uint64_t hash = 0;      // keys::PartitionHash of the partition key value (the index's partition key for a GSI)
  std::string key;        // a short printable rendering of that partition key value, for hot-key reports (truncate long values to ~64 bytes)
  double read_units = 0;
  double write_units = 0;
  bool operator==(const PartitionUnits&) const = default;
};

// Everything one request consumed on one table (and its indexes).
struct CapacityCharge {
  uint32_t table_id = 0;
  std::vector<PartitionUnits> parts;

  // The sum over every part.
  Capacity Total() const;
  bool operator==(const CapacityCharge&) const = default;
};

// What one operation (or one item of a batch) consumed on one table: the
// client's view and the throttler's, filled together.
struct Metering {
  ConsumedCapacity consumed;
  CapacityCharge charge;

  // Adds `other` (same table): units merged, parts appended.
  void Merge(const Metering& other);
  // Multiplies every unit (the client's view and every part) by `factor`:
  // transactions cost twice what the same plain reads and writes cost.
  void Scale(double factor);
};

// The longest printable rendering a PartitionUnits carries.
inline constexpr size_t kMaxPartitionKeyRendering = 64;
// The most parts a Scan page's charge is split into.
inline constexpr size_t kMaxScanParts = 64;

// A part for partition key `pk` of index `index_id` (0: the table).
PartitionUnits PartOf(uint32_t index_id, const AttributeValue& pk,
                      double read_units, double write_units);

// A part for the partition of `storage_key`, a base item key or an index
// entry key (both start: id (4 BE) | hash (8 BE) | ordered(partition key)),
// whose partition key has type `pk_type`. A key too short or undecodable
// (never the case for keys the engine wrote) gives hash 0 and an empty key.
PartitionUnits PartOfStorageKey(uint32_t index_id, std::string_view storage_key,
                                AttrType pk_type, double read_units,
                                double write_units);
// The same for a partition key of several attributes (a multi-attribute GSI
// key; `pk_types` in KeySchema order): the key renders as the values joined
// by " | ", e.g. {S:WINTER2024} | {N:3}.
PartitionUnits PartOfStorageKey(uint32_t index_id, std::string_view storage_key,
                                std::span<const AttrType> pk_types,
                                double read_units, double write_units);

// The bytes a page read at each partition, in read order: consecutive items
// of one partition (same hash) are one run. ReadPage fills it
// (engine/pages/query_scan.h).
struct PartitionRun {
  uint64_t hash = 0;
  std::string first_key;  // the storage key of the run's first item
  int64_t bytes = 0;
};

// Adds an item of `bytes` read at `storage_key` to `runs`. REQUIRES:
// storage_key holds at least the id and the hash (12 bytes).
void AddToRuns(std::string_view storage_key, int64_t bytes,
               std::vector<PartitionRun>* runs);

// Splits `read_units` over the partitions of `runs` in proportion to the
// bytes read at each: runs of the same hash are grouped, at most
// kMaxScanParts parts (the rest merged into the last, in read order). With
// no runs (or no bytes) the units go to one part of hash 0 and empty key.
std::vector<PartitionUnits> SplitReadUnits(uint32_t index_id, AttrType pk_type,
                                           std::span<const PartitionRun> runs,
                                           double read_units);
std::vector<PartitionUnits> SplitReadUnits(uint32_t index_id,
                                           std::span<const AttrType> pk_types,
                                           std::span<const PartitionRun> runs,
                                           double read_units);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CAPACITY_CAPACITY_CHARGE_H_
