// engine/pages/read_metering.h
//
// What reads cost, by DynamoDB's rules (engine/capacity/consumed_capacity.h
// for the units, capacity_charge.h for where they are charged):
//
//   - one item (GetItem, each key of BatchGetItem): its size rounded up to
//     4 KB, at least 1 unit even when the item is missing, half when
//     eventually consistent; the projection does not reduce it;
//   - a Query page: the sizes of every item READ (before the filter,
//     projection and Select) summed and rounded once, at least 1 unit;
//   - a Scan page: the same, for each physical partition it went over
//     (from where it started to where it stopped), each rounded on its own
//     and at least 1 unit even when empty, then summed.
//   An index read is sized on the index entries, is always eventually
//   consistent on a GSI and is listed under the index, the table part being
//   0; an LSI read that fetched items from the table also charges the table
//   for the fetched items (summed and rounded once).
//
// A Query is charged at its partition key; a Scan page at each partition it
// went over, split over the keys it read there in proportion to their bytes.
//
// Stateless functions; thread-safe.

#ifndef DYNAROCK_ENGINE_PAGES_READ_METERING_H_
#define DYNAROCK_ENGINE_PAGES_READ_METERING_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "engine/capacity/capacity_charge.h"
#include "engine/storage/catalog.h"
#include "engine/pages/query_scan.h"

namespace dynarock {

// One item read at `item_key` of `table`: `bytes` is its size, 0 when it
// was missing.
Metering MeterItemRead(const TableInfo& table, std::string_view item_key,
                       int64_t bytes, bool consistent_read);

// What a Query or Scan kind of read is.
enum class PageKind { kQuery, kScan };

// One page read with `request` (planned against `table`). A Scan page is
// metered over `partition_begins`, the first hash of each partition of what
// it read (ThroughputController::PartitionBegins; empty: one partition).
Metering MeterPage(const TableInfo& table, const PageRequest& request,
                   const Page& page, PageKind kind, bool consistent_read,
                   std::span<const uint64_t> partition_begins = {});

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_PAGES_READ_METERING_H_
