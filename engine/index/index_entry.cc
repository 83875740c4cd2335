#include "engine/index/index_entry.h"

#include <algorithm>
#include <array>
#include <string>

#include "engine/expr/key_range.h"
#include "engine/keys/key_codec.h"
#include "engine/schema/schema.h"
#include "engine/util/coding.h"
#include "engine/vector/vector_entry.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"

namespace dynarock {
namespace {

// The checks of one present index key attribute.
Status CheckIndexKeyValue(const IndexInfo& index, const std::string& name,
                          AttrType want, const AttributeValue& v,
                          bool is_hash) {
  if (v.type() != want) {
    return Status::Validation(
        "One or more parameter values were invalid: Type mismatch for Index "
        "Key " +
        name + " Expected: " + std::string(AttrTypeName(want)) + " Actual: " +
        std::string(AttrTypeName(v.type())) + " IndexName: " + index.name);
  }
  if (v.type() == AttrType::kN) return Status::OK();
  const std::string& bytes = v.s();  // S and B share storage
  if (bytes.empty()) {
    return Status::Validation(
        "One or more parameter values are not valid. A value specified for a "
        "secondary index key is not supported. The AttributeValue for a key "
        "attribute cannot contain an empty " +
        std::string(v.type() == AttrType::kB ? "binary" : "string") +
        " value. IndexName: " + index.name + ", IndexKey: " + name);
  }
  // DynamoDB names the attribute, its size and the index for an index
  // partition-key value (recorded from DynamoDB's responses); for a sort-key
  // value it answers the table's text (as recorded by moto), which
  // docs/compatibility.md lists as unverified.
  if (is_hash && bytes.size() > kMaxPartitionKeyBytes) {
    return Status::Validation(
        "One or more parameter values were invalid: Size limit exceeded for "
        "Index Key " +
        name + " Actual Size: " + std::to_string(bytes.size()) +
        " bytes Max Size: " + std::to_string(kMaxPartitionKeyBytes) +
        " bytes IndexName: " + index.name);
  }
  if (!is_hash && bytes.size() > kMaxSortKeyBytes) {
    return Status::Validation(
        "One or more parameter values were invalid: Aggregated size of all "
        "range keys has exceeded the size limit of 1024 bytes");
  }
  return Status::OK();
}

void AddIfPresent(const Item& item, const std::string& name, Item* out) {
  auto it = item.find(name);
  if (it != item.end()) (*out)[name] = it->second;
}

}  // namespace

Status CheckIndexKeys(const TableInfo& table, const Item& item) {
  return CheckIndexKeys(table.indexes, item);
}

Status CheckIndexKeys(const std::vector<IndexInfo>& indexes, const Item& item) {
  for (const IndexInfo& index : indexes) {
    DR_RETURN_IF_ERROR(CheckIndexKeysOf(index, item));
  }
  return Status::OK();
}

Status CheckIndexKeysOf(const IndexInfo& index, const Item& item) {
  if (index.vector) return vector::CheckItem(index, item);
  const KeyDef& k = index.key;
  for (size_t i = 0; i < k.hash_count(); ++i) {
    auto it = item.find(k.hash_name_at(i));
    if (it != item.end()) {
      DR_RETURN_IF_ERROR(CheckIndexKeyValue(index, k.hash_name_at(i),
                                            k.hash_type_at(i), it->second,
                                            /*is_hash=*/true));
    }
  }
  for (size_t i = 0; i < k.range_count(); ++i) {
    auto it = item.find(k.range_name_at(i));
    if (it != item.end()) {
      DR_RETURN_IF_ERROR(CheckIndexKeyValue(index, k.range_name_at(i),
                                            k.range_type_at(i), it->second,
                                            /*is_hash=*/false));
    }
  }
  return Status::OK();
}

bool HasIndexKey(const IndexInfo& index, const Item& item) {
  if (index.vector) return vector::HasEntry(index, item);
  const KeyDef& k = index.key;
  for (size_t i = 0; i < k.hash_count(); ++i) {
    auto it = item.find(k.hash_name_at(i));
    if (it == item.end() || it->second.type() != k.hash_type_at(i)) return false;
  }
  for (size_t i = 0; i < k.range_count(); ++i) {
    auto it = item.find(k.range_name_at(i));
    if (it == item.end() || it->second.type() != k.range_type_at(i)) {
      return false;
    }
  }
  return true;
}

std::vector<std::string> IndexKeyAttributes(const IndexInfo& index,
                                            const KeyDef& table_key) {
  if (index.vector) return vector::EntryAttributes(index, table_key);
  std::vector<std::string> names = {table_key.hash_name};
  if (table_key.range_name) names.push_back(*table_key.range_name);
  for (size_t i = 0; i < index.key.hash_count(); ++i) {
    names.push_back(index.key.hash_name_at(i));
  }
  for (size_t i = 0; i < index.key.range_count(); ++i) {
    names.push_back(index.key.range_name_at(i));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

Item ProjectForIndex(const IndexInfo& index, const KeyDef& table_key,
                     const Item& item) {
  if (index.projection.type == ProjectionType::kAll) return item;
  Item out;
  for (const std::string& name : IndexKeyAttributes(index, table_key)) {
    AddIfPresent(item, name, &out);
  }
  if (index.projection.type == ProjectionType::kInclude) {
    for (const std::string& name : index.projection.non_key_attributes) {
      AddIfPresent(item, name, &out);
    }
  }
  return out;
}

std::string IndexEntryKey(const IndexInfo& index, const KeyDef& table_key,
                          const Item& item) {
  // The partition-key values hashed together (one for every table, LSI and
  // single-attribute GSI, for which this is ItemKey(id, pk, nullptr)), then
  // each sort-key value in order: a tuple of self-delimiting, ordered
  // encodings sorts as the values, attribute by attribute.
  if (index.vector) return vector::EntryKey(index, table_key, item);
  const KeyDef& k = index.key;
  std::array<const AttributeValue*, kMaxKeyAttributesPerKind> parts{};
  const size_t n = k.hash_count();
  for (size_t i = 0; i < n; ++i) parts[i] = &item.at(k.hash_name_at(i));
  std::string key = keys::PartitionPrefix(index.id, {parts.data(), n});
  for (size_t i = 0; i < k.range_count(); ++i) {
    keys::AppendOrdered(item.at(k.range_name_at(i)), &key);
  }
  // The table's primary key makes the entry unique. An LSI shares the
  // table's partition key, which is already in the prefix.
  if (index.global) keys::AppendOrdered(item.at(table_key.hash_name), &key);
  if (table_key.range_name)
    keys::AppendOrdered(item.at(*table_key.range_name), &key);
  return key;
}

std::optional<IndexEntry> EntryOf(const IndexInfo& index,
                                  const KeyDef& table_key, const Item& item) {
  if (!HasIndexKey(index, item)) return std::nullopt;
  IndexEntry entry;
  entry.key = IndexEntryKey(index, table_key, item);
  if (index.projection.type == ProjectionType::kAll) {
    EncodeItem(item, &entry.value);
    entry.size = ItemSize(item) + kIndexEntryOverheadBytes;
  } else {
    const Item projected = ProjectForIndex(index, table_key, item);
    EncodeItem(projected, &entry.value);
    entry.size = ItemSize(projected) + kIndexEntryOverheadBytes;
  }
  return entry;
}

KeyRange IndexQueryRange(uint32_t index_id, const AttributeValue& pk,
                         const expr::KeyConditionTerm* sort) {
  const AttributeValue* part = &pk;
  return IndexQueryRange(index_id, {&part, 1}, {}, sort);
}

KeyRange IndexQueryRange(uint32_t index_id,
                         std::span<const AttributeValue* const> partition,
                         std::span<const AttributeValue* const> sort_equal,
                         const expr::KeyConditionTerm* sort) {
  std::string prefix = keys::PartitionPrefix(index_id, partition);
  for (const AttributeValue* v : sort_equal) keys::AppendOrdered(*v, &prefix);
  return expr::SortKeyRange(prefix, sort, expr::AfterSortKey::kTableKey);
}

}  // namespace dynarock
