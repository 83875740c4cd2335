// tools/simulate/write_sharding_reads.h
//
// The read runs of the write-sharding experiment, one per GSI variant, on
// the engine and simulated clock of the variant's table: every worker (one
// per shard key) queries its shard's open orders in the date range, retries
// throttled pages with the SDK's backoff, and the run records what it cost
// and which GSI partitions it touched.

#ifndef DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_READS_H_
#define DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_READS_H_

#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/status.h"
#include "tools/simulate/write_sharding.h"
#include "tools/simulate/write_sharding_tables.h"

namespace dynarock::tools::simulate {

// ReadMode::kSingleRead: every open order of the range once, as fast as
// throttling allows.
Result<ReadRun> ReadAllOpen(Engine& engine, SimulatedClock& clock,
                            const TableSpec& table, const IndexSpec& index,
                            const WriteShardingOptions& o, int from_day, int to_day);

// ReadMode::kSustained: each worker reads its shard's pages over and over,
// paced to required_items_per_second / workers, for duration_seconds; every
// simulated second is sampled.
Result<ReadRun> ReadSustained(Engine& engine, SimulatedClock& clock,
                              const TableSpec& table, const IndexSpec& index,
                              const WriteShardingOptions& o, int from_day, int to_day);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_READS_H_
