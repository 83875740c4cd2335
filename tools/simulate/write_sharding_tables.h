// tools/simulate/write_sharding_tables.h
//
// The tables of the write-sharding experiment (write_sharding.h): which GSI
// variants (unsharded, random or hash sharded over N keys) each table
// holds, so that every thread has a table and an engine of its own. Shared
// by the loader (write_sharding.cc) and the readers
// (write_sharding_reads.cc).

#ifndef DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_TABLES_H_
#define DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_TABLES_H_

#include <cstdint>
#include <string>
#include <vector>

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

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_WRITE_SHARDING_TABLES_H_
