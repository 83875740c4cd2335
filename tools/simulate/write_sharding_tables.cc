// tools/simulate/write_sharding_tables.cc

#include "tools/simulate/write_sharding_tables.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <utility>

#include "engine/value/item_size.h"
#include "tools/simulate/sim_support.h"

namespace dynarock::tools::simulate {

namespace {

constexpr int kMaxGsisPerTable = 20;

// The shard of order `id` for a sharded index: a random draw made at insert
// time (a seeded hash of seed, id and N, so the run is reproducible), or a
// hash of the order id a reader could compute.
int ShardOf(const IndexSpec& index, uint64_t seed, int64_t id,
            const std::string& order_key) {
  const uint64_t n = static_cast<uint64_t>(index.shards);
  if (index.kind == ShardingKind::kRandom) {
    return static_cast<int>(
        Mix64(seed * 31 + static_cast<uint64_t>(id) * 1'000'003 + n) % n);
  }
  return static_cast<int>(Fnv1a64(order_key) % n);
}

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

std::string OrderKey(int64_t id) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "O#%08lld", static_cast<long long>(id));
  return buf;
}

OrderFacts FactsOf(uint64_t seed, int64_t id, const WriteShardingOptions& o) {
  OrderFacts f;
  const uint64_t r = Mix64(seed ^ (static_cast<uint64_t>(id) * 0x9E37u + 1));
  f.open = static_cast<double>(r >> 11) * 0x1.0p-53 < o.open_fraction;
  f.day = static_cast<int>(Mix64(r) % static_cast<uint64_t>(o.days));
  f.customer = static_cast<int>(Mix64(r + 7) % 100'000);
  return f;
}

CreateTableRequest OrdersTableRequest(const TableSpec& t, const CapacityMode& mode) {
  CreateTableRequest req;
  req.table_name = t.name;
  req.key_schema = {{"PK", KeyType::kHash}, {"SK", KeyType::kRange}};
  req.attribute_definitions = {{"PK", AttrType::kS}, {"SK", AttrType::kS}};
  bool has_gsi2sk = false;
  std::optional<ProvisionedThroughput> throughput;
  if (mode.provisioned) {
    throughput = ProvisionedThroughput{mode.read_capacity_units,
                                       mode.write_capacity_units};
    req.billing_mode = BillingMode::kProvisioned;
    req.provisioned_throughput = throughput;
  } else {
    req.billing_mode = BillingMode::kPayPerRequest;
  }
  for (const IndexSpec& index : t.indexes) {
    GlobalSecondaryIndexDef gsi;
    gsi.index_name = index.index_name;
    gsi.projection.type = ProjectionType::kInclude;
    if (index.kind == ShardingKind::kUnsharded) {
      gsi.key_schema = {{"Status", KeyType::kHash},
                        {"OrderDate", KeyType::kRange}};
      req.attribute_definitions.push_back({"Status", AttrType::kS});
      req.attribute_definitions.push_back({"OrderDate", AttrType::kS});
      gsi.projection.non_key_attributes = {"Detail", "GSI2SK"};
    } else {
      gsi.key_schema = {{index.key_attribute, KeyType::kHash},
                        {"GSI2SK", KeyType::kRange}};
      req.attribute_definitions.push_back({index.key_attribute, AttrType::kN});
      has_gsi2sk = true;
      gsi.projection.non_key_attributes = {"Detail", "Status", "OrderDate"};
    }
    gsi.provisioned_throughput = throughput;
    req.global_secondary_indexes.push_back(std::move(gsi));
  }
  if (has_gsi2sk) req.attribute_definitions.push_back({"GSI2SK", AttrType::kS});
  return req;
}

Item OrderItem(int64_t id, const OrderFacts& f, int64_t bytes) {
  Item item;
  item["PK"] = AttributeValue::S(OrderKey(id));
  char customer[16];
  std::snprintf(customer, sizeof customer, "C#%06d", f.customer);
  item["SK"] = AttributeValue::S(customer);
  const std::string status = f.open ? "OPEN" : "CLOSED";
  const std::string date = DateOf(f.day);
  item["Status"] = AttributeValue::S(status);
  item["OrderDate"] = AttributeValue::S(date);
  item["GSI2SK"] = AttributeValue::S(status + "#" + date);
  item["Detail"] = AttributeValue::S("");
  const int64_t size = ItemSize(item);
  if (size < bytes) {
    item["Detail"] = AttributeValue::S(std::string(bytes - size, 'x'));
  }
  return item;
}

std::optional<Item> OrderToLoad(const WriteShardingOptions& o, const TableSpec& t, int64_t id) {
  const OrderFacts f = FactsOf(o.seed, id, o);
  if (!f.open && !o.with_closed_orders) return std::nullopt;
  Item order = OrderItem(id, f, o.order_bytes);
  if (f.open) {
    const std::string key = order.at("PK").s();
    for (const IndexSpec& index : t.indexes) {
      if (index.kind == ShardingKind::kUnsharded) continue;
      order[index.key_attribute] =
          AttributeValue::N(IntNumber(ShardOf(index, o.seed, id, key)));
    }
  }
  return order;
}

ShardQuerySpec ShardQueryOf(const IndexSpec& index, int from_day, int to_day) {
  ShardQuerySpec q;
  const bool unsharded = index.kind == ShardingKind::kUnsharded;
  if (unsharded) {
    q.partition_keys.push_back(AttributeValue::S("OPEN"));
  } else {
    for (int k = 0; k < index.shards; ++k) {
      q.partition_keys.push_back(AttributeValue::N(IntNumber(k)));
    }
  }
  q.partition_attribute = index.key_attribute;
  q.sort_attribute = unsharded ? "OrderDate" : "GSI2SK";
  const std::string from = DateOf(from_day), to = DateOf(to_day);
  q.lo = AttributeValue::S(unsharded ? from : "OPEN#" + from);
  q.hi = AttributeValue::S(unsharded ? to : "OPEN#" + to);
  return q;
}

std::pair<int, int> ReadDayRange(const WriteShardingOptions& o) {
  const int from_day = o.from_day < 0 ? 0 : std::min(o.from_day, o.days - 1);
  const int to_day = o.to_day < 0 ? o.days - 1 : std::min(o.to_day, o.days - 1);
  return {from_day, to_day};
}

}  // namespace dynarock::tools::simulate
