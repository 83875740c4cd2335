#include "engine/capacity/table_capacity.h"

#include <optional>
#include <string>
#include <utility>

#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"

namespace dynarock {
namespace {

// Items and bytes of the table's (gsi false) or GSI's keys of `id` whose
// hash is in [begin, end) (end 0: the end of the ring), counting at most
// `*budget` entries (taken from it); false when the range has more.
bool CountRange(const Store& store, uint32_t id, bool gsi, uint64_t begin,
                uint64_t end, int64_t* budget, int64_t* items, int64_t* bytes) {
  const std::string lower = keys::HashRangeStart(id, begin);
  const std::string upper = keys::HashRangeEnd(id, end);
  auto it = store.NewIterator(gsi ? Cf::kIndexes : Cf::kItems, lower, upper);
  for (it->Seek(lower); it->Valid(); it->Next()) {
    if (--*budget < 0) return false;
    Result<Item> item = DecodeItem(it->value());
    if (!item.ok()) continue;  // counted by the consistency checker, not here
    ++*items;
    // Base items at their DynamoDB size; GSI entries as IndexEntry::size
    // counts them (what the write path records).
    *bytes += ItemSize(*item) + (gsi ? kIndexEntryOverheadBytes : 0);
  }
  return true;
}

// The resource whose partitions are `index_id`'s: the table (0) or a GSI.
const ResourceStats* ResourceOf(const TableThroughputStats& stats, uint32_t index_id) {
  if (index_id == 0) return &stats.table;
  for (const ResourceStats& g : stats.global_secondary_indexes) {
    if (g.index_id == index_id) return &g;
  }
  return nullptr;
}

// Spreads the persisted items and bytes of a table (index_id 0) or GSI over
// its partitions in proportion to their hash ranges, then halves what is
// past the split size.
void SeedPartitions(uint32_t table_id, uint32_t index_id, int64_t items, int64_t bytes,
                    ThroughputController* throughput) {
  const long double kRing = 18446744073709551616.0L;  // 2^64
  if (items == 0 && bytes == 0) return;
  std::optional<TableThroughputStats> stats = throughput->Describe(table_id, 0);
  if (!stats || ResourceOf(*stats, index_id) == nullptr) return;
  int64_t items_done = 0, bytes_done = 0;
  for (const PartitionStats& p : ResourceOf(*stats, index_id)->partitions) {
    const long double end = p.end == 0 ? kRing : static_cast<long double>(p.end);
    const long double upto = end / kRing;
    const int64_t items_upto = p.end == 0 ? items
        : static_cast<int64_t>(static_cast<long double>(items) * upto);
    const int64_t bytes_upto = p.end == 0 ? bytes
        : static_cast<int64_t>(static_cast<long double>(bytes) * upto);
    throughput->RecordWrite(table_id, index_id, p.begin, items_upto - items_done,
                            bytes_upto - bytes_done);
    items_done = items_upto;
    bytes_done = bytes_upto;
  }
  // A RecordWrite splits once; halve what is still past the split size.
  for (bool split = true; split;) {
    split = false;
    stats = throughput->Describe(table_id, 0);
    for (const PartitionStats& p : ResourceOf(*stats, index_id)->partitions) {
      if (p.bytes <= throughput->options().split_size_bytes) continue;
      throughput->RecordWrite(table_id, index_id, p.begin, 0, 0);
      split = true;
    }
  }
}

}  // namespace

SplitSizes CountSplit(const Store& store, uint32_t table_id, uint32_t index_id,
                      uint64_t begin, uint64_t mid, uint64_t end, int64_t max_entries) {
  // index_id 0 is the table; any other is a GSI (LSIs have no partitions).
  const uint32_t id = index_id == 0 ? table_id : index_id;
  const bool gsi = index_id != 0;
  SplitSizes sizes;
  int64_t budget = max_entries;
  sizes.counted =
      CountRange(store, id, gsi, begin, mid, &budget, &sizes.left_items, &sizes.left_bytes) &&
      CountRange(store, id, gsi, mid, end, &budget, &sizes.right_items, &sizes.right_bytes);
  return sizes;
}

TableThroughputConfig ThroughputConfigOf(const TableInfo& t) {
  TableThroughputConfig c;
  c.table_id = t.id;
  c.table_name = t.desc.table_name;
  c.table_arn = t.desc.table_arn;
  c.billing_mode = t.desc.billing_mode;
  c.read_capacity_units = t.desc.provisioned_throughput.read_capacity_units;
  c.write_capacity_units = t.desc.provisioned_throughput.write_capacity_units;
  c.max_read_request_units = t.desc.settings.max_read_request_units;
  c.max_write_request_units = t.desc.settings.max_write_request_units;
  c.warm_read_units = t.desc.settings.warm_read_units_per_second;
  c.warm_write_units = t.desc.settings.warm_write_units_per_second;
  for (const auto& g : t.desc.global_secondary_indexes) {
    auto id = t.index_ids.find(g.def.index_name);
    if (id == t.index_ids.end()) continue;
    IndexThroughputConfig ic;
    ic.index_id = id->second;
    ic.index_name = g.def.index_name;
    ic.read_capacity_units = g.provisioned_throughput.read_capacity_units;
    ic.write_capacity_units = g.provisioned_throughput.write_capacity_units;
    ic.max_read_request_units = g.settings.max_read_request_units;
    ic.max_write_request_units = g.settings.max_write_request_units;
    ic.warm_read_units = g.settings.warm_read_units_per_second;
    ic.warm_write_units = g.settings.warm_write_units_per_second;
    c.global_secondary_indexes.push_back(std::move(ic));
  }
  for (const auto& l : t.desc.local_secondary_indexes) {
    auto id = t.index_ids.find(l.def.index_name);
    if (id != t.index_ids.end()) c.local_secondary_index_ids.push_back(id->second);
  }
  return c;
}

void RegisterSeeded(const TableInfo& table, ThroughputController* throughput) {
  throughput->RegisterTable(ThroughputConfigOf(table));
  SeedPartitions(table.id, 0, table.stats->item_count.load(), table.stats->size_bytes.load(),
                 throughput);
}

void StartThroughput(const Catalog& catalog, const Store* store,
                     ThroughputController* throughput) {
  for (const auto& table : catalog.All()) {
    if (table->deleting_since_micros) continue;
    RegisterSeeded(*table, throughput);
    // GSIs from their persisted counters (Catalog::IndexStats); one that
    // cannot be read starts empty and counts the writes from here.
    for (const auto& g : table->desc.global_secondary_indexes) {
      auto id = table->index_ids.find(g.def.index_name);
      if (id == table->index_ids.end()) continue;
      Result<std::pair<int64_t, int64_t>> stats = Catalog::IndexStats(*store, id->second);
      if (!stats.ok()) continue;
      SeedPartitions(table->id, id->second, stats->first, stats->second, throughput);
    }
  }
  throughput->SetSplitSizeFn([store](uint32_t table_id, uint32_t index_id,
                                     uint64_t begin, uint64_t mid, uint64_t end) {
    return CountSplit(*store, table_id, index_id, begin, mid, end, kSplitCountEntries);
  });
}

}  // namespace dynarock
