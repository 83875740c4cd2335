#include "engine/vector/vector_entry.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "engine/keys/key_codec.h"

namespace dynarock::vector {
namespace {

Status Invalid(const std::string& text) {
  return Status::Validation("One or more parameter values were invalid: " + text);
}

// The number's value as a double, through its canonical parts (at most 38
// digits: strtod rounds correctly).
double ToDouble(const Number& n) {
  if (n.is_zero()) return 0.0;
  std::string text = n.negative() ? "-0." : "0.";
  text += n.digits();
  text += "e" + std::to_string(n.exponent());
  return std::strtod(text.c_str(), nullptr);
}

}  // namespace

Result<std::vector<float>> FloatsOf(const AttributeValue& v, int64_t dimensions,
                                    std::string_view what, std::string_view index) {
  const std::string suffix = index.empty() ? "" : " IndexName: " + std::string(index);
  if (v.type() != AttrType::kL) {
    return Invalid("Invalid parameter type for " + std::string(what) +
                   ": expected a list (L) of numbers, got " +
                   std::string(AttrTypeName(v.type())) + suffix);
  }
  const AttributeValue::List& list = v.l();
  if (static_cast<int64_t>(list.size()) != dimensions) {
    return Invalid("The number of dimensions of " + std::string(what) + " (" +
                   std::to_string(list.size()) +
                   ") does not match the dimensions of the vector index (" +
                   std::to_string(dimensions) + ")" + suffix);
  }
  std::vector<float> out;
  out.reserve(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i].type() != AttrType::kN) {
      return Invalid("Invalid parameter type for " + std::string(what) + " element " +
                     std::to_string(i) + ": expected N, got " +
                     std::string(AttrTypeName(list[i].type())) + suffix);
    }
    const double d = ToDouble(list[i].n());
    if (!std::isfinite(d) || std::fabs(d) > std::numeric_limits<float>::max()) {
      return Invalid("The value of " + std::string(what) + " element " +
                     std::to_string(i) + " is out of the range of a 32-bit float" + suffix);
    }
    out.push_back(static_cast<float>(d));
  }
  return out;
}

Status CheckItem(const IndexInfo& index, const Item& item) {
  const VectorIndexDef& def = *index.vector;
  auto it = item.find(def.vector_attribute);
  if (it != item.end()) {
    Result<std::vector<float>> floats = FloatsOf(
        it->second, def.dimensions, "vector attribute " + def.vector_attribute, index.name);
    if (!floats.ok()) return floats.status();
  }
  if (!index.key.hash_name.empty()) {
    auto h = item.find(index.key.hash_name);
    if (h != item.end() && h->second.type() != index.key.hash_type) {
      return Invalid("Type mismatch for Index Key " + index.key.hash_name +
                     " Expected: " + std::string(AttrTypeName(index.key.hash_type)) +
                     " Actual: " + std::string(AttrTypeName(h->second.type())) +
                     " IndexName: " + index.name);
    }
  }
  return Status::OK();
}

bool HasEntry(const IndexInfo& index, const Item& item) {
  const VectorIndexDef& def = *index.vector;
  auto it = item.find(def.vector_attribute);
  if (it == item.end() || it->second.type() != AttrType::kL ||
      static_cast<int64_t>(it->second.l().size()) != def.dimensions) {
    return false;
  }
  for (const AttributeValue& e : it->second.l()) {
    if (e.type() != AttrType::kN) return false;
  }
  if (!index.key.hash_name.empty()) {
    auto h = item.find(index.key.hash_name);
    if (h == item.end() || h->second.type() != index.key.hash_type) return false;
  }
  return true;
}

std::vector<std::string> EntryAttributes(const IndexInfo& index, const KeyDef& table_key) {
  std::vector<std::string> names = {table_key.hash_name, index.vector->vector_attribute};
  if (table_key.range_name) names.push_back(*table_key.range_name);
  for (const SearchSchemaElement& e : index.vector->search_schema) {
    names.push_back(e.attribute_name);
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

std::string EntryKey(const IndexInfo& index, const KeyDef& table_key, const Item& item) {
  std::string key;
  if (index.key.hash_name.empty()) {
    key = keys::TablePrefix(index.id);
  } else {
    const AttributeValue* part = &item.at(index.key.hash_name);
    key = keys::PartitionPrefix(index.id, {&part, 1});
  }
  keys::AppendOrdered(item.at(table_key.hash_name), &key);
  if (table_key.range_name) keys::AppendOrdered(item.at(*table_key.range_name), &key);
  return key;
}

std::string PartitionOf(const VectorIndexDef& def, const Item& item) {
  std::string out;
  for (const SearchSchemaElement& e : def.search_schema) {
    if (e.type != SearchSchemaElementType::kHash) continue;
    auto it = item.find(e.attribute_name);
    if (it != item.end()) keys::AppendOrdered(it->second, &out);
  }
  return out;
}

std::string PartitionOf(const IndexInfo& index, const Item& item) {
  return PartitionOf(*index.vector, item);
}

}  // namespace dynarock::vector
