// engine/capacity/table_capacity.h
//
// How a table's capacity model is set up from its catalog definition: the
// throughput configuration of a table version (provisioned or on-demand,
// with its GSIs), the partitions of every table seeded when the engine
// opens, and the exact sizes of the halves of a splitting partition,
// counted from storage.
//
// Why seeding does not scan: opening a large database must stay fast, so
// partition sizes start from the catalog's persisted item count and bytes,
// spread over the hash ring (partition hashes are uniform); the first real
// split counts exactly.

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

// Registers one table with `throughput`, its partitions seeded from its
// counters (`table.stats`): a table created with its items already stored
// (a restore).
void RegisterSeeded(const TableInfo& table, ThroughputController* throughput);

// Registers every live table of `catalog` with `throughput`, its partitions
// seeded from the catalog's counters and split while past the split size,
// then has `throughput` count split sizes exactly in `store`. Once, when
// the engine opens. `store` must outlive `throughput`.
void StartThroughput(const Catalog& catalog, const Store* store,
                     ThroughputController* throughput);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CAPACITY_TABLE_CAPACITY_H_
