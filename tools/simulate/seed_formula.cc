// tools/simulate/seed_formula.cc

#include "tools/simulate/seed_formula.h"

#include <algorithm>
#include <cmath>

#include "engine/capacity/consumed_capacity.h"

namespace dynarock::tools::simulate {

ShardFormula ComputeShardFormula(int64_t max_required_io, double avg_item_bytes,
                                 bool eventually_consistent,
                                 int64_t partition_read_units) {
  ShardFormula f;
  f.avg_item_bytes = avg_item_bytes;
  f.partition_read_units = partition_read_units;
  f.max_required_io = max_required_io;
  const double unit_bytes =
      static_cast<double>(kReadUnitBytes) * (eventually_consistent ? 2 : 1);
  f.items_per_rcu = std::max<int64_t>(
      1, static_cast<int64_t>(std::floor(unit_bytes / avg_item_bytes)));
  f.partition_max_read_rate = partition_read_units * f.items_per_rcu;
  f.n_exact = static_cast<double>(max_required_io) /
              static_cast<double>(f.partition_max_read_rate);
  f.n = std::max(1, static_cast<int>(std::ceil(f.n_exact - 1e-9)));
  return f;
}

}  // namespace dynarock::tools::simulate
