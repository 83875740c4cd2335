#include "engine/table/read_metering.h"

namespace dynarock {

Metering MeterItemRead(const TableInfo& table, std::string_view item_key,
                       int64_t bytes, bool consistent_read) {
  Metering m;
  m.consumed.table_name = table.desc.table_name;
  m.consumed.table.read_units = ReadUnits(bytes, consistent_read);
  m.charge.table_id = table.id;
  m.charge.parts.push_back(PartOfStorageKey(0, item_key, table.key.hash_type,
                                            m.consumed.table.read_units, 0));
  return m;
}

Metering MeterPage(const TableInfo& table, const PageRequest& request,
                   const Page& page, PageKind kind, bool consistent_read) {
  const IndexInfo* index = request.index;
  // GSI reads are always eventually consistent (ConsistentRead = true is
  // refused on a GSI before anything is read).
  const bool consistent = consistent_read && (index == nullptr || !index->global);
  const double units = ReadUnits(page.read_bytes, consistent);
  const uint32_t index_id = index != nullptr ? index->id : 0;
  // A multi-attribute GSI partition key is every partition-key attribute.
  const std::vector<AttrType> pk_type =
      index != nullptr ? index->key.hash_types() : table.key.hash_types();

  Metering m;
  m.consumed.table_name = table.desc.table_name;
  m.charge.table_id = table.id;
  if (index == nullptr) {
    m.consumed.table.read_units = units;
  } else if (index->global) {
    m.consumed.global_secondary_indexes[index->name].read_units = units;
  } else {
    m.consumed.local_secondary_indexes[index->name].read_units = units;
  }
  if (kind == PageKind::kQuery) {
    // Every key of a Query's range starts with its partition.
    m.charge.parts.push_back(
        PartOfStorageKey(index_id, request.range.lower, pk_type, units, 0));
  } else {
    m.charge.parts = SplitReadUnits(index_id, pk_type, page.runs, units);
  }
  if (page.fetched_count > 0) {
    // An LSI read fetching unprojected attributes also reads the items.
    const double fetched = ReadUnits(page.fetched_bytes, consistent);
    m.consumed.table.read_units += fetched;
    if (kind == PageKind::kQuery) {
      m.charge.parts.push_back(PartOfStorageKey(0, request.range.lower,
                                                table.key.hash_type, fetched, 0));
    } else {
      for (PartitionUnits& p : SplitReadUnits(0, table.key.hash_type, page.runs,
                                              fetched)) {
        m.charge.parts.push_back(std::move(p));
      }
    }
  }
  return m;
}

}  // namespace dynarock
