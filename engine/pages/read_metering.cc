#include "engine/pages/read_metering.h"

#include <algorithm>
#include <limits>

#include "engine/keys/key_codec.h"

namespace dynarock {

namespace {

// The first and last hash (inclusive) a Scan page went over: from where it
// resumed (or its range's start) to its last item when it stopped early,
// else to its range's end.
std::pair<uint64_t, uint64_t> TraversedHashes(const PageRequest& request,
                                              const Page& page) {
  const uint64_t first = keys::HashOfKey(
      request.exclusive_start ? *request.exclusive_start : request.range.lower);
  uint64_t last = std::numeric_limits<uint64_t>::max();
  if (page.last_evaluated_storage_key) {
    last = keys::HashOfKey(*page.last_evaluated_storage_key);
  } else if (request.range.upper.size() >= keys::kHashedPrefixSize) {
    // A segment's end is where the next one starts.
    const uint64_t end = keys::HashOfKey(request.range.upper);
    if (end > 0) last = end - 1;
  }
  return {first, std::max(first, last)};
}

// The position of the partition holding `hash` among `begins` (ring order,
// the first 0).
size_t PartitionOf(std::span<const uint64_t> begins, uint64_t hash) {
  auto it = std::upper_bound(begins.begin(), begins.end(), hash);
  return it == begins.begin() ? 0 : static_cast<size_t>(it - begins.begin()) - 1;
}

struct ScanUnits {
  double units = 0;
  std::vector<PartitionUnits> parts;
};

// Each partition a Scan page went over is read on its own: its bytes are
// rounded up to 4 KB, at least one unit (half eventually consistent) even
// when it holds nothing; the page costs their sum (one tiny item on a new
// on-demand table, four partitions: 4, or 2 eventually consistent, as
// DynamoDB reports; docs/compatibility.md "Scan metering").
ScanUnits MeterScanPartitions(uint32_t index_id, std::span<const AttrType> pk_types,
                              const std::vector<PartitionRun>& runs,
                              std::span<const uint64_t> begins,
                              std::pair<uint64_t, uint64_t> traversed,
                              bool consistent) {
  static constexpr uint64_t kWholeRing[] = {0};
  if (begins.empty()) begins = kWholeRing;
  ScanUnits out;
  size_t next_run = 0;
  const size_t last = PartitionOf(begins, traversed.second);
  for (size_t i = PartitionOf(begins, traversed.first); i <= last; ++i) {
    const bool final_partition = i + 1 == begins.size();
    const size_t first_run = next_run;
    int64_t bytes = 0;
    // Runs are in ring order, as the page read them.
    while (next_run < runs.size() &&
           (final_partition || runs[next_run].hash < begins[i + 1])) {
      bytes += runs[next_run++].bytes;
    }
    const double units = ReadUnits(bytes, consistent);
    out.units += units;
    if (next_run == first_run) {
      out.parts.push_back(PartitionUnits{index_id, begins[i], {}, units, 0});
    } else {
      const std::span<const PartitionRun> here(runs.data() + first_run, next_run - first_run);
      for (PartitionUnits& part : SplitReadUnits(index_id, pk_types, here, units)) {
        out.parts.push_back(std::move(part));
      }
    }
  }
  if (out.parts.size() > kMaxScanParts) {
    for (size_t i = kMaxScanParts; i < out.parts.size(); ++i) {
      out.parts[kMaxScanParts - 1].read_units += out.parts[i].read_units;
    }
    out.parts.resize(kMaxScanParts);
  }
  return out;
}

}  // namespace

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
                   const Page& page, PageKind kind, bool consistent_read,
                   std::span<const uint64_t> partition_begins) {
  const IndexInfo* index = request.index;
  // GSI reads are always eventually consistent (ConsistentRead = true is
  // refused on a GSI before anything is read).
  const bool consistent = consistent_read && (index == nullptr || !index->global);
  const uint32_t index_id = index != nullptr ? index->id : 0;
  // A multi-attribute GSI partition key is every partition-key attribute.
  const std::vector<AttrType> pk_type =
      index != nullptr ? index->key.hash_types() : table.key.hash_types();
  ScanUnits scan;
  if (kind == PageKind::kScan) {
    scan = MeterScanPartitions(index_id, pk_type, page.runs, partition_begins,
                               TraversedHashes(request, page), consistent);
  }
  const double units = kind == PageKind::kScan
                           ? scan.units
                           : ReadUnits(page.read_bytes, consistent);

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
    m.charge.parts = std::move(scan.parts);
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
