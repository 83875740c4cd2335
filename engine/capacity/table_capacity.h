// engine/capacity/table_capacity.h
//
// How a table's capacity model is set up from its catalog definition: the
// throughput configuration of a table version (provisioned or on-demand,
// with its GSIs), the partitions of every table seeded when the engine
// opens, and the exact sizes of the halves of a splitting partition,
// counted from storage.
//
// Why seeding does not scan: opening a large database must stay fast, so
// partition sizes start from the catalog's persisted item counts and bytes
// (the table's and each GSI's), spread over the hash ring (partition hashes
// are uniform). A split counts its halves exactly only while they are small:
// it runs under the table's lock in the throughput controller, which every
// request's capacity check takes, so a split that scanned a partition of
// millions of entries stopped every request of the table for seconds
// (bench/README, issue 45: the stall after a restart, when the first
// seconds' load split the on-demand partitions again). Past the bound the
// controller spreads the partition's counters by hash range.

#ifndef DYNAROCK_ENGINE_CAPACITY_TABLE_CAPACITY_H_
#define DYNAROCK_ENGINE_CAPACITY_TABLE_CAPACITY_H_

#include "engine/capacity/throughput_controller.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"

namespace dynarock {

// The throughput settings of a table as the controller needs them: the
// provisioned RCU / WCU of the table and each GSI (or on-demand), and the
// ids of its indexes (GSIs without an id yet are left out).
TableThroughputConfig ThroughputConfigOf(const TableInfo& table);

// The most entries a split counts (about 4 MB of 1 KB items, a few
// milliseconds); a larger partition is split by proportion.
inline constexpr int64_t kSplitCountEntries = 4096;

// The sizes of the halves [begin, mid) and [mid, end) (end 0: the end of
// the ring) of a partition of table `table_id` (index_id 0) or of its GSI
// `index_id`, counted in `store`: exact when both together hold at most
// `max_entries` entries, else `counted` false (the counts so far are
// partial). Reads at most max_entries + 1 entries.
SplitSizes CountSplit(const Store& store, uint32_t table_id, uint32_t index_id,
                      uint64_t begin, uint64_t mid, uint64_t end, int64_t max_entries);

// Registers one table with `throughput`, its partitions seeded from its
// counters (`table.stats`): a table created with its items already stored
// (a restore).
void RegisterSeeded(const TableInfo& table, ThroughputController* throughput);

// Registers every live table of `catalog` with `throughput`, its and its
// GSIs' partitions seeded from the catalog's counters and split while past
// the split size, then has `throughput` count split sizes in `store`
// (CountSplit, at most kSplitCountEntries). Once, when
// the engine opens. `store` must outlive `throughput`.
void StartThroughput(const Catalog& catalog, const Store* store,
                     ThroughputController* throughput);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CAPACITY_TABLE_CAPACITY_H_
