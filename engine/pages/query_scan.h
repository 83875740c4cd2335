// engine/pages/query_scan.h
//
// One page of a Query or a Scan, read as DynamoDB reads it: a contiguous
// range of the items column family, forward or backward, stopping after
// `limit` items or once the items read reach 1 MB (both counted BEFORE the
// filter), with the filter applied to what was read. Projection, Select and
// metering are the caller's; ReadPage reports what it read so that they can
// be done exactly.
//
// The ranges come from the key layout (engine/keys/key_codec.h): a Query is
// one item collection narrowed by its sort-key condition; a Scan segment is
// a slice of the table's hash ring.
//
// Stateless functions; thread-safe.

#ifndef DYNAROCK_ENGINE_PAGES_QUERY_SCAN_H_
#define DYNAROCK_ENGINE_PAGES_QUERY_SCAN_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/capacity/capacity_charge.h"
#include "engine/expr/ast.h"
#include "engine/expr/key_condition.h"
#include "engine/keys/key_codec.h"
#include "engine/status.h"
#include "engine/storage/store.h"
#include "engine/types.h"

namespace dynarock {

// 1 MB: the most item data one Query or Scan page reads.
inline constexpr int64_t kMaxPageBytes = 1024 * 1024;

// The keys of one item collection (partition key `pk` of table `table_id`)
// that satisfy `sort` (all of them when null).
// REQUIRES: `sort` values have the table's sort-key type.
KeyRange QueryRange(uint32_t table_id, const AttributeValue& pk,
                    const expr::KeyConditionTerm* sort);

// The keys of Scan segment `segment` of `total_segments`: a slice of the
// 64-bit hash ring, so the segments are disjoint and together are the whole
// table. REQUIRES: 0 <= segment < total_segments.
KeyRange SegmentRange(uint32_t table_id, int64_t segment,
                      int64_t total_segments);

struct IndexInfo;

struct PageRequest {
  KeyRange range;
  // The column family read: the items, or the indexes for an IndexName
  // read (whose entries are projected items).
  Cf cf = Cf::kItems;
  // The index read, or null for the table. Not owned (points into the
  // TableInfo the request planned against).
  const IndexInfo* index = nullptr;
  // An LSI read that needs attributes the index does not project: each
  // entry read is replaced by its item, read from table `fetch_table_id`
  // (whose key is `*fetch_table_key`), as DynamoDB fetches from the table.
  const KeyDef* fetch_table_key = nullptr;
  uint32_t fetch_table_id = 0;
  bool forward = true;
  // Resume strictly after (forward) or before (backward) this storage key.
  std::optional<std::string> exclusive_start;
  // Items to read at most (before the filter); unset = no limit but 1 MB.
  std::optional<int64_t> limit;
  int64_t max_bytes = kMaxPageBytes;
  // Resolved FilterExpression, or null. Not owned.
  const expr::ConditionExpression* filter = nullptr;
  // Keep the items read as their stored bytes (Page::encoded_items), sized
  // from the encoding; only the last item of a full page is decoded (for
  // LastEvaluatedKey). REQUIRES: no filter and no fetch_table_key (nothing
  // needs to look into an item).
  bool encoded_items = false;
  // The caller needs the page's counts, sizes, runs and last item only, not
  // the items (Select COUNT without a filter): nothing is kept of the items
  // read. Such a page depends only on the request and the store's
  // contents, so ReadPath may answer a repeat from its PageMemo
  // (page_memo.h). REQUIRES: no filter and no fetch_table_key.
  bool count_only = false;
};

struct Page {
  // The items read that passed the filter, in read order.
  std::vector<Item> items;
  // Instead of `items` for an encoded_items request: the values read.
  std::vector<std::string> encoded_items;
  // Items read (ScannedCount), and the sum of their DynamoDB sizes (what a
  // Query or Scan is metered on).
  int64_t scanned_count = 0;
  int64_t read_bytes = 0;
  // Items fetched from the base table for an LSI read (metered as extra
  // reads by DynamoDB), and their sizes.
  int64_t fetched_count = 0;
  int64_t fetched_bytes = 0;
  // The bytes read at each partition (entry sizes for an index read), in
  // read order: where a Scan's units are charged.
  std::vector<PartitionRun> runs;
  // Set when the page stopped at `limit` or `max_bytes`: the storage key of
  // the last item read, to resume after (DynamoDB returns LastEvaluatedKey
  // then even when no item follows).
  std::optional<std::string> last_evaluated_storage_key;
  // The last item read (its key attributes make LastEvaluatedKey).
  std::optional<Item> last_evaluated_item;
};

// Reads one page. Errors: kCorruption / kIOError from storage.
Result<Page> ReadPage(const StoreReader& store, const PageRequest& request);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_PAGES_QUERY_SCAN_H_
