// tools/simulate/write_sharding_tables.h
//
// The tables of the write-sharding experiment (write_sharding.h): which GSI
// variants (unsharded, random or hash sharded over N keys) each table
// holds, so that every thread has a table and an engine of its own; the
// CreateTable request of a table, the Order items loaded into it, and the
// Query each shard key's reader sends. Shared by the loader
// (write_sharding.cc), the readers (write_sharding_reads.cc) and the run
// against an endpoint (endpoint_write_sharding.cc), so that all of them
// use one table design and one workload. Pure functions; thread-safe.

#ifndef DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_TABLES_H_
#define DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_TABLES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/requests/table_requests.h"
#include "engine/types.h"
#include "tools/simulate/write_sharding.h"

namespace dynarock::tools::simulate {

inline constexpr int64_t kMicrosPerSecond = 1'000'000;

// One GSI of the sweep.
struct IndexSpec {
  ShardingKind kind = ShardingKind::kUnsharded;
  int shards = 1;
  std::string index_name;
  std::string key_attribute;  // the GSI's partition key attribute
};

struct TableSpec {
  std::string name;
  bool first = false;  // holds the OrderItems (--with-order-items)
  std::vector<IndexSpec> indexes;
};

// The variants `o` asks for, spread over tables of at most 20 GSIs; as
// many tables as threads when there are enough GSIs.
std::vector<TableSpec> PlanTables(const WriteShardingOptions& o);

// What the loader and the reader need to know about order `id`: drawn from
// the seed, the same in every run.
struct OrderFacts {
  bool open = false;
  int day = 0;
  int customer = 0;
};
OrderFacts FactsOf(uint64_t seed, int64_t id, const WriteShardingOptions& o);

// "O#00000042": the partition key of order `id`.
std::string OrderKey(int64_t id);

// The Order item without shard keys, padded to `bytes` where it can be.
Item OrderItem(int64_t id, const OrderFacts& f, int64_t bytes);

// Order `id` as loaded into `t`: an open order carries each sharded GSI's
// shard key. nullopt when the run does not load it (a closed order without
// with_closed_orders).
std::optional<Item> OrderToLoad(const WriteShardingOptions& o, const TableSpec& t, int64_t id);

// The CreateTable request of `t` (its name, PK/SK, one GSI per IndexSpec
// projecting the order's own attributes) in capacity mode `mode`.
CreateTableRequest OrdersTableRequest(const TableSpec& t, const CapacityMode& mode);

// The Query a reader of `index` sends: "#p = :p AND #s BETWEEN :a AND :b"
// with one partition key per reader (unsharded: "OPEN"; sharded: 0..N-1)
// over the date range [from_day, to_day].
struct ShardQuerySpec {
  std::vector<AttributeValue> partition_keys;  // one per reader
  std::string partition_attribute;            // #p
  std::string sort_attribute;                 // #s
  AttributeValue lo, hi;                      // :a, :b
};
ShardQuerySpec ShardQueryOf(const IndexSpec& index, int from_day, int to_day);

// The read's date range as day offsets, from_day..to_day of `o` (-1: the
// whole spread) clamped into 0..days-1.
std::pair<int, int> ReadDayRange(const WriteShardingOptions& o);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_TABLES_H_
