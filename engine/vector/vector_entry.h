// engine/vector/vector_entry.h
//
// What an item is to a vector index (docs/vector-search.md): the rules a
// write must pass, whether the item has an entry, and the entry's key and
// attributes. The entries live in the indexes column family and are kept
// from the GSI log exactly as a GSI's (engine/index/): these functions are
// what engine/index/index_entry.cc runs for an IndexInfo with `vector` set.
//
// Entry key:  index_id (4 BE) | [xxh64(hash) (8 BE) | ordered(hash)]
//             | ordered(table pk) | ordered(table sk)?
// The bracket is present when the search schema has a HASH attribute (an
// item without it has no entry, as a GSI's sparse key). Entry value: the
// projected item, which always holds the table's key, the vector attribute
// and every search-schema attribute present.
//
// Stateless functions; thread-safe.

#ifndef DYNAROCK_ENGINE_VECTOR_VECTOR_ENTRY_H_
#define DYNAROCK_ENGINE_VECTOR_VECTOR_ENTRY_H_

#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/types.h"

namespace dynarock::vector {

// The 32-bit floats of `v` as a vector of `dimensions`: a list (L) of
// numbers (N), each within float's finite range. `what` names the value in
// messages ("vector attribute embedding", "SearchVector").
// Errors: kValidation.
Result<std::vector<float>> FloatsOf(const AttributeValue& v, int64_t dimensions,
                                    std::string_view what, std::string_view index);

// The write-side checks of `item` for vector index `index`: a present
// vector attribute must be a vector of the index's dimensions (DynamoDB
// refuses the write otherwise), present search-schema attributes must have
// their defined type. Errors: kValidation.
Status CheckItem(const IndexInfo& index, const Item& item);

// The item has an entry: a well-formed vector and the HASH attribute (when
// the schema has one) of its defined type.
bool HasEntry(const IndexInfo& index, const Item& item);

// The attributes an entry always holds (table key, vector, search schema).
std::vector<std::string> EntryAttributes(const IndexInfo& index, const KeyDef& table_key);

// The entry key of `item`. REQUIRES: HasEntry and the table key present.
std::string EntryKey(const IndexInfo& index, const KeyDef& table_key, const Item& item);

// The HASH value's ordered encoding in `item` ("" without a HASH
// attribute): names the graph an entry belongs to.
std::string PartitionOf(const IndexInfo& index, const Item& item);
std::string PartitionOf(const VectorIndexDef& def, const Item& item);

}  // namespace dynarock::vector

#endif  // DYNAROCK_ENGINE_VECTOR_VECTOR_ENTRY_H_
