// engine/keys/key_codec.h
//
// The RocksDB key layouts and the order-preserving encodings of key values.
//
// Base item key:  table_id (4 bytes BE) | xxh64(partition key) (8 bytes BE)
//                 | ordered(partition key) | ordered(sort key, if any)
//
// - Items of one partition key (an item collection) are one contiguous
//   range, sorted by sort key: Query is a range scan, forward or reverse.
// - A table is one contiguous range in hash order: Scan walks hash order
//   like DynamoDB, and a physical partition is a hash range.
//
// Ordered encodings are self-delimiting, and byte order equals DynamoDB's
// order: S and B as unsigned bytes, N numerically. These bytes are on disk;
// never change them.

#ifndef DYNAROCK_ENGINE_KEYS_KEY_CODEC_H_
#define DYNAROCK_ENGINE_KEYS_KEY_CODEC_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "engine/status.h"
#include "engine/types.h"

namespace dynarock::keys {

// Appends the order-preserving, self-delimiting encoding of a key value.
// REQUIRES: value.type() is S, N or B.
void AppendOrdered(const AttributeValue& value, std::string* out);

// Decodes one value written by AppendOrdered from the front of `*in`, of
// the given type, and advances `*in`. Errors: kCorruption.
Result<AttributeValue> DecodeOrdered(AttrType type, std::string_view* in);

// The 64-bit hash that places a partition key in the hash ring: xxh64 of
// its type and ordered encoding, so equal keys ("1" and "1.0") hash alike.
uint64_t PartitionHash(const AttributeValue& partition_key);

// A multi-attribute partition key (a GSI's, up to four values in KeySchema
// order): xxh64 of every value's type and ordered encoding, one after the
// other, so the values are hashed together. For one value it equals
// PartitionHash(value).
uint64_t PartitionHash(std::span<const AttributeValue* const> parts);

// The key prefix of one partition of a (possibly multi-attribute) partition
// key: id (4 BE) | PartitionHash(parts) (8 BE) | ordered(v1) .. ordered(vn).
// For one value it equals ItemKey(id, value, nullptr).
std::string PartitionPrefix(uint32_t id,
                            std::span<const AttributeValue* const> parts);

// The full base-table key of an item. `sort_key` is null for tables with
// no sort key.
std::string ItemKey(uint32_t table_id, const AttributeValue& partition_key,
                    const AttributeValue* sort_key);

// The 4-byte prefix shared by every key of a table (or index) id, and the
// first key after all of them: [TablePrefix(id), TableEnd(id)) holds them.
std::string TablePrefix(uint32_t table_id);
std::string TableEnd(uint32_t table_id);

// Keys of one table (or index) id in hash order: the key where hash `hash`
// starts, and the end of the hash range [begin, end) with end 0 meaning the
// end of the ring (TableEnd). Physical partitions and Scan segments are such
// ranges.
std::string HashRangeStart(uint32_t table_id, uint64_t hash);
std::string HashRangeEnd(uint32_t table_id, uint64_t end);

// Size of a storage key's id and hash; the ordered partition key follows.
inline constexpr size_t kHashedPrefixSize = 12;

// The partition hash a storage key (item or GSI entry) carries after its
// id; 0 for a key shorter than id and hash (a bound at the ring's start).
uint64_t HashOfKey(std::string_view storage_key);

}  // namespace dynarock::keys

namespace dynarock {

// A half-open range [lower, upper) of storage keys.
struct KeyRange {
  std::string lower;
  std::string upper;
};

// The smallest string greater than every string that starts with `prefix`
// (empty when there is none: `prefix` is all 0xff bytes).
std::string PrefixSuccessor(std::string prefix);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_KEYS_KEY_CODEC_H_
