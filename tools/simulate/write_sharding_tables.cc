// tools/simulate/write_sharding_tables.cc

#include "tools/simulate/write_sharding_tables.h"

#include <algorithm>
#include <set>
#include <utility>

namespace dynarock::tools::simulate {

namespace {
constexpr int kMaxGsisPerTable = 20;
}  // namespace

std::vector<TableSpec> PlanTables(const WriteShardingOptions& o) {
  std::vector<IndexSpec> all;
  if (o.unsharded) {
    all.push_back({ShardingKind::kUnsharded, 1, "GSI2_unsharded", "Status"});
  }
  std::set<int> ns(o.shards.begin(), o.shards.end());
  ns.insert(o.hash_shards.begin(), o.hash_shards.end());
  auto has = [](const std::vector<int>& v, int n) {
    return std::find(v.begin(), v.end(), n) != v.end();
  };
  for (int n : ns) {
    if (o.random && has(o.shards, n)) {
      all.push_back({ShardingKind::kRandom, n, "GSI2_rand_" + std::to_string(n),
                     "R" + std::to_string(n)});
    }
    if (o.hash && has(o.hash_shards, n)) {
      all.push_back({ShardingKind::kHash, n, "GSI2_hash_" + std::to_string(n),
                     "H" + std::to_string(n)});
    }
  }
  // At most 20 GSIs a table; as many tables as threads when there are
  // enough GSIs, so that every thread has a table (an engine) of its own.
  const size_t total = all.size();
  size_t tables = std::max<size_t>(1, (total + kMaxGsisPerTable - 1) / kMaxGsisPerTable);
  const size_t threads = static_cast<size_t>(std::max(1, o.threads));
  if (total >= threads) tables = (tables + threads - 1) / threads * threads;
  tables = std::min(tables, std::max<size_t>(1, total));
  std::vector<TableSpec> out;
  size_t next = 0;
  for (size_t t = 0; t < tables; ++t) {
    const size_t count = total / tables + (t < total % tables ? 1 : 0);
    TableSpec spec{tables == 1 ? "Orders" : "Orders" + std::to_string(t + 1),
                   t == 0, {}};
    for (size_t i = 0; i < count; ++i) spec.indexes.push_back(all[next++]);
    out.push_back(std::move(spec));
  }
  return out;
}

}  // namespace dynarock::tools::simulate
