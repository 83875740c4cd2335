#include "engine/pages/query_scan.h"

#include <string_view>

#include "engine/expr/evaluate.h"
#include "engine/expr/key_range.h"
#include "engine/keys/key_codec.h"
#include "engine/value/encoded_item.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"

namespace dynarock {
namespace {

// The encoded partition prefix: table id | hash | ordered(pk).
std::string PartitionPrefix(uint32_t table_id, const AttributeValue& pk) {
  return keys::ItemKey(table_id, pk, nullptr);
}

// Ordered encodings are prefix-free, so every key greater than `key` that
// does not start with it is also greater than key + "\0": this is the first
// key after `key` itself.
std::string JustAfter(std::string key) {
  key.push_back('\0');
  return key;
}

}  // namespace

KeyRange QueryRange(uint32_t table_id, const AttributeValue& pk,
                    const expr::KeyConditionTerm* sort) {
  return expr::SortKeyRange(PartitionPrefix(table_id, pk), sort,
                            expr::AfterSortKey::kNothing);
}

KeyRange SegmentRange(uint32_t table_id, int64_t segment,
                      int64_t total_segments) {
  // Segment i covers hashes [i * 2^64 / n, (i + 1) * 2^64 / n).
  auto boundary = [&](int64_t i) {
    return static_cast<uint64_t>(
        (static_cast<unsigned __int128>(i) << 64) /
        static_cast<unsigned __int128>(total_segments));
  };
  KeyRange r;
  r.lower = keys::HashRangeStart(table_id, boundary(segment));
  r.upper = segment + 1 == total_segments
                ? keys::TableEnd(table_id)
                : keys::HashRangeStart(table_id, boundary(segment + 1));
  return r;
}

Result<Page> ReadPage(const StoreReader& store, const PageRequest& request) {
  std::string lower = request.range.lower;
  std::string upper = request.range.upper;
  if (request.exclusive_start) {
    if (request.forward) {
      lower = std::max(lower, JustAfter(*request.exclusive_start));
    } else {
      upper = std::min(upper, *request.exclusive_start);
    }
  }
  Page page;
  if (lower >= upper) return page;
  auto it = store.NewIterator(request.cf, lower, upper);
  if (request.forward) {
    it->SeekToFirst();
  } else {
    it->SeekToLast();
  }
  if ((request.encoded_items || request.count_only) &&
      request.filter == nullptr && request.fetch_table_key == nullptr) {
    // The same page as below without a filter or fetch, and without
    // decoding: the sizes (and so the 1 MB stop and the metering) come from
    // the encodings, which are exactly ItemSize of the decoded items. A
    // count_only page keeps none of them.
    for (; it->Valid(); request.forward ? it->Next() : it->Prev()) {
      const std::string_view value = it->value();
      DR_ASSIGN_OR_RETURN(const int64_t item_bytes, EncodedItemSize(value));
      ++page.scanned_count;
      page.read_bytes += item_bytes;
      AddToRuns(it->key(), item_bytes, &page.runs);
      if (!request.count_only) page.encoded_items.emplace_back(value);
      if ((request.limit && page.scanned_count >= *request.limit) ||
          page.read_bytes >= request.max_bytes) {
        page.last_evaluated_storage_key = std::string(it->key());
        DR_ASSIGN_OR_RETURN(page.last_evaluated_item, DecodeItem(value));
        break;
      }
    }
    DR_RETURN_IF_ERROR(it->status());
    return page;
  }
  for (; it->Valid(); request.forward ? it->Next() : it->Prev()) {
    DR_ASSIGN_OR_RETURN(Item item, DecodeItem(it->value()));
    ++page.scanned_count;
    const int64_t item_bytes = ItemSize(item);
    page.read_bytes += item_bytes;
    AddToRuns(it->key(), item_bytes, &page.runs);
    if (request.fetch_table_key != nullptr) {
      // The entry's item, from the table (an LSI entry never outlives its
      // item: both change in one batch).
      const KeyDef& k = *request.fetch_table_key;
      const AttributeValue* sk = k.range_name ? &item.at(*k.range_name) : nullptr;
      DR_ASSIGN_OR_RETURN(
          auto bytes, store.Get(Cf::kItems, keys::ItemKey(request.fetch_table_id,
                                                          item.at(k.hash_name), sk)));
      if (bytes) {
        DR_ASSIGN_OR_RETURN(item, DecodeItem(*bytes));
        ++page.fetched_count;
        page.fetched_bytes += ItemSize(item);
      }
    }
    const bool full =
        (request.limit && page.scanned_count >= *request.limit) ||
        page.read_bytes >= request.max_bytes;
    if (full) {
      page.last_evaluated_storage_key = std::string(it->key());
      page.last_evaluated_item = item;
    }
    if (request.filter == nullptr ||
        expr::EvaluateCondition(*request.filter, &item)) {
      page.items.push_back(std::move(item));
    }
    if (full) break;
  }
  DR_RETURN_IF_ERROR(it->status());
  return page;
}

}  // namespace dynarock
