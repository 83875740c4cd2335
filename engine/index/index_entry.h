// engine/index/index_entry.h
//
// What an item looks like in a secondary index: the entry's storage key in
// the indexes column family, and its value, the projected item.
//
// Entry key (the index id prefixes every entry; ids are never reused):
//
//   GSI:  index_id (4 BE) | xxh64(gsi pk) (8 BE) | ordered(gsi pk)
//         | ordered(gsi sk)? | ordered(table pk) | ordered(table sk)?
//
// A multi-attribute GSI key (up to four partition-key and four sort-key
// attributes) puts every value where the one would be: xxh64 over all the
// partition-key values together (keys::PartitionHash), then each
// partition-key value and each sort-key value, ordered, in KeySchema order.
// Ordered encodings are self-delimiting, so the entries of one partition
// sort by the first sort-key attribute, then the second, each by its own
// type. An item is in the index only when it has every key attribute.
//   LSI:  index_id (4 BE) | xxh64(pk) (8 BE) | ordered(pk)
//         | ordered(lsi sk) | ordered(table sk)
//
// Index keys are not unique, so the item's primary key ends the entry key:
// two items with the same index key are two entries, next to each other in
// table-key order. Both layouts start like a base item key, so an index
// partition is one contiguous range sorted by the index sort key (Query),
// and an index is one range in hash order (Scan, parallel scan segments).
//
// Entry value: EncodeItem of the projected item, which always holds the
// table's key attributes and the index's key attributes, plus the
// NonKeyAttributes of an INCLUDE projection, or everything for ALL.
//
// Sparse indexes: an item that lacks any index key attribute has no entry.
// An index key attribute of the wrong type (or an empty S / B) is refused on
// write with DynamoDB's message (CheckIndexKeys).
//
// Stateless functions; thread-safe.

#ifndef DYNAROCK_ENGINE_INDEX_INDEX_ENTRY_H_
#define DYNAROCK_ENGINE_INDEX_INDEX_ENTRY_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/expr/key_condition.h"
#include "engine/keys/key_codec.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/types.h"
#include "engine/value/item_size.h"

namespace dynarock {

struct IndexEntry {
  std::string key;    // storage key in the indexes column family
  std::string value;  // EncodeItem(projected item)
  int64_t size = 0;   // ItemSize(projected item) + kIndexEntryOverheadBytes
  bool operator==(const IndexEntry&) const = default;
};

// Checks the index key attributes of an item about to be written, for every
// index of `table`: an attribute that is present must have the type of its
// attribute definition and, for S and B, be non-empty and within the key
// size limits. Absent attributes are fine (sparse). Errors: kValidation
// ("One or more parameter values were invalid: Type mismatch for Index Key
// <attr> Expected: <T> Actual: <T> IndexName: <index>" and the empty-value
// message naming the index).
Status CheckIndexKeys(const TableInfo& table, const Item& item);
Status CheckIndexKeys(const std::vector<IndexInfo>& indexes, const Item& item);
// The same checks for one index.
Status CheckIndexKeysOf(const IndexInfo& index, const Item& item);

// The index key attributes of `item` are all present and well typed.
bool HasIndexKey(const IndexInfo& index, const Item& item);

// The projected item an index stores for `item`.
Item ProjectForIndex(const IndexInfo& index, const KeyDef& table_key,
                     const Item& item);

// The attribute names `index` always holds: the table's and its own keys.
std::vector<std::string> IndexKeyAttributes(const IndexInfo& index,
                                            const KeyDef& table_key);

// The storage key of the entry of an item whose key attributes are in
// `item`. REQUIRES: HasIndexKey(index, item) and the table key attributes
// present.
std::string IndexEntryKey(const IndexInfo& index, const KeyDef& table_key,
                          const Item& item);

// The entry of `item`, or nullopt when it has none (sparse). REQUIRES:
// `item` passed CheckIndexKeys or is skipped by the caller when it did not.
std::optional<IndexEntry> EntryOf(const IndexInfo& index,
                                  const KeyDef& table_key, const Item& item);

// The keys of one index partition (index partition key `pk`) satisfying the
// sort-key condition `sort` (all of them when null). The index layout puts
// the table key after the index sort key, so bounds on the sort key cover
// every entry that starts with it. REQUIRES: values of the index key types.
KeyRange IndexQueryRange(uint32_t index_id, const AttributeValue& pk,
                         const expr::KeyConditionTerm* sort);
// The same for a multi-attribute key: the partition's values (every
// partition-key attribute, in KeySchema order), equality on the leading
// sort-key attributes `sort_equal`, and `sort` (may be null) on the next.
KeyRange IndexQueryRange(uint32_t index_id,
                         std::span<const AttributeValue* const> partition,
                         std::span<const AttributeValue* const> sort_equal,
                         const expr::KeyConditionTerm* sort);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_INDEX_INDEX_ENTRY_H_
