#include "engine/index/consistency_checker.h"

#include <map>

#include "engine/index/index_entry.h"
#include "engine/keys/key_codec.h"
#include "engine/value/encoded_item.h"
#include "engine/value/item_codec.h"

namespace dynarock {
namespace {

std::string Hex(std::string_view bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

void Report(std::vector<std::string>* list, int64_t* count,
            std::string_view key) {
  ++*count;
  if (list->size() < IndexDifference::kMaxReported) list->push_back(Hex(key));
}

}  // namespace

std::string IndexDifference::ToString() const {
  std::string out = "index " + index_name + ": expected " +
                    std::to_string(expected_entries) + " entries, stored " +
                    std::to_string(stored_entries) + "; missing " +
                    std::to_string(missing_count) + ", unexpected " +
                    std::to_string(unexpected_count) + ", wrong value " +
                    std::to_string(wrong_value_count) + "; stored " +
                    std::to_string(stored_bytes) + " bytes, counters say " +
                    std::to_string(counted_entries) + " entries of " +
                    std::to_string(counted_bytes) + " bytes\n";
  for (const auto& k : missing) out += "  missing " + k + "\n";
  for (const auto& k : unexpected) out += "  unexpected " + k + "\n";
  for (const auto& k : wrong_value) out += "  wrong value " + k + "\n";
  return out;
}

Result<IndexDifference> CheckIndex(const Store& store, uint32_t table_id,
                                   const KeyDef& table_key,
                                   const IndexInfo& index) {
  IndexDifference diff;
  diff.index_name = index.name;
  std::map<std::string, std::string> expected;
  auto items = store.NewIterator(Cf::kItems, keys::TablePrefix(table_id),
                                 keys::TableEnd(table_id));
  for (items->SeekToFirst(); items->Valid(); items->Next()) {
    DR_ASSIGN_OR_RETURN(Item item, DecodeItem(items->value()));
    if (!CheckIndexKeysOf(index, item).ok()) continue;
    if (std::optional<IndexEntry> e = EntryOf(index, table_key, item)) {
      expected[std::move(e->key)] = std::move(e->value);
    }
  }
  DR_RETURN_IF_ERROR(items->status());
  diff.expected_entries = static_cast<int64_t>(expected.size());

  auto stored = store.NewIterator(Cf::kIndexes, keys::TablePrefix(index.id),
                                  keys::TableEnd(index.id));
  auto want = expected.begin();
  for (stored->SeekToFirst(); stored->Valid(); stored->Next()) {
    ++diff.stored_entries;
    DR_ASSIGN_OR_RETURN(int64_t size, EncodedItemSize(stored->value()));
    diff.stored_bytes += size + kIndexEntryOverheadBytes;
    const std::string_view key = stored->key();
    while (want != expected.end() && want->first < key) {
      Report(&diff.missing, &diff.missing_count, want->first);
      ++want;
    }
    if (want == expected.end() || want->first != key) {
      Report(&diff.unexpected, &diff.unexpected_count, key);
      continue;
    }
    // The encoding is deterministic (attributes in name order), so equal
    // projected items have equal bytes.
    if (want->second != stored->value()) {
      Report(&diff.wrong_value, &diff.wrong_value_count, key);
    }
    ++want;
  }
  DR_RETURN_IF_ERROR(stored->status());
  for (; want != expected.end(); ++want) {
    Report(&diff.missing, &diff.missing_count, want->first);
  }
  DR_ASSIGN_OR_RETURN(auto counted, Catalog::IndexStats(store, index.id));
  diff.counted_entries = counted.first;
  diff.counted_bytes = counted.second;
  return diff;
}

Result<std::vector<IndexDifference>> CheckTableIndexes(const Store& store,
                                                       const TableInfo& table) {
  std::vector<IndexDifference> out;
  for (const IndexInfo& index : table.indexes) {
    if (index.id == 0) continue;
    DR_ASSIGN_OR_RETURN(IndexDifference d,
                        CheckIndex(store, table.id, table.key, index));
    if (!d.empty()) out.push_back(std::move(d));
  }
  return out;
}

Result<std::string> CheckTableCounters(const Store& store, const TableInfo& table) {
  int64_t items = 0;
  int64_t bytes = 0;
  auto it = store.NewIterator(Cf::kItems, keys::TablePrefix(table.id),
                              keys::TableEnd(table.id));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    DR_ASSIGN_OR_RETURN(int64_t size, EncodedItemSize(it->value()));
    ++items;
    bytes += size;
  }
  DR_RETURN_IF_ERROR(it->status());
  const int64_t counted_items = table.stats->item_count.load();
  const int64_t counted_bytes = table.stats->size_bytes.load();
  if (items == counted_items && bytes == counted_bytes) return std::string();
  return "table " + table.desc.table_name + ": stored " + std::to_string(items) +
         " items of " + std::to_string(bytes) + " bytes; counters say " +
         std::to_string(counted_items) + " items of " +
         std::to_string(counted_bytes) + " bytes\n";
}

}  // namespace dynarock
