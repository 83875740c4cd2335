#include "engine/types.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace dynarock {

// The persisted numbering of AttrType must never change (item codec,
// catalog); these asserts make a renumbering a compile error.
static_assert(static_cast<int>(AttrType::kS) == 1);
static_assert(static_cast<int>(AttrType::kN) == 2);
static_assert(static_cast<int>(AttrType::kB) == 3);
static_assert(static_cast<int>(AttrType::kBool) == 4);
static_assert(static_cast<int>(AttrType::kNull) == 5);
static_assert(static_cast<int>(AttrType::kL) == 6);
static_assert(static_cast<int>(AttrType::kM) == 7);
static_assert(static_cast<int>(AttrType::kSS) == 8);
static_assert(static_cast<int>(AttrType::kNS) == 9);
static_assert(static_cast<int>(AttrType::kBS) == 10);

namespace {

struct TypeNameEntry {
  AttrType type;
  std::string_view name;
};

// One table serves both directions, so the two can never disagree.
constexpr TypeNameEntry kTypeNames[] = {
    {AttrType::kS, "S"},       {AttrType::kN, "N"},       {AttrType::kB, "B"},
    {AttrType::kBool, "BOOL"}, {AttrType::kNull, "NULL"}, {AttrType::kL, "L"},
    {AttrType::kM, "M"},       {AttrType::kSS, "SS"},     {AttrType::kNS, "NS"},
    {AttrType::kBS, "BS"},
};

// Sets compare as sets: order does not matter, and (for values that skipped
// validation) neither does repetition. Sorting copies keeps this O(n log n).
bool SameStringSet(const std::vector<std::string>& a,
                   const std::vector<std::string>& b) {
  std::vector<std::string_view> x(a.begin(), a.end());
  std::vector<std::string_view> y(b.begin(), b.end());
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  x.erase(std::unique(x.begin(), x.end()), x.end());
  y.erase(std::unique(y.begin(), y.end()), y.end());
  return x == y;
}

// Numbers are normalized, so representation equality is numeric equality
// ("1" and "1.0" parse to the same Number).
bool SameNumberSet(const std::vector<Number>& a, const std::vector<Number>& b) {
  auto sorted_unique = [](const std::vector<Number>& v) {
    std::vector<const Number*> p;
    p.reserve(v.size());
    for (const Number& n : v) p.push_back(&n);
    std::sort(p.begin(), p.end(), [](const Number* l, const Number* r) {
      return l->Compare(*r) < 0;
    });
    p.erase(
        std::unique(p.begin(), p.end(),
                    [](const Number* l, const Number* r) { return *l == *r; }),
        p.end());
    return p;
  };
  std::vector<const Number*> x = sorted_unique(a);
  std::vector<const Number*> y = sorted_unique(b);
  return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                    [](const Number* l, const Number* r) { return *l == *r; });
}

}  // namespace

std::string_view AttrTypeName(AttrType type) {
  for (const TypeNameEntry& e : kTypeNames) {
    if (e.type == type) return e.name;
  }
  return "";
}

std::optional<AttrType> AttrTypeFromName(std::string_view name) {
  for (const TypeNameEntry& e : kTypeNames) {
    if (e.name == name) return e.type;
  }
  return std::nullopt;
}

std::string_view StreamViewTypeName(StreamViewType type) {
  switch (type) {
    case StreamViewType::kKeysOnly:
      return "KEYS_ONLY";
    case StreamViewType::kNewImage:
      return "NEW_IMAGE";
    case StreamViewType::kOldImage:
      return "OLD_IMAGE";
    case StreamViewType::kNewAndOldImages:
      return "NEW_AND_OLD_IMAGES";
  }
  return "";
}

std::optional<StreamViewType> StreamViewTypeFromName(std::string_view name) {
  for (StreamViewType t :
       {StreamViewType::kKeysOnly, StreamViewType::kNewImage,
        StreamViewType::kOldImage, StreamViewType::kNewAndOldImages}) {
    if (StreamViewTypeName(t) == name) return t;
  }
  return std::nullopt;
}

std::string_view TableClassName(TableClass table_class) {
  switch (table_class) {
    case TableClass::kStandard:
      return "STANDARD";
    case TableClass::kStandardInfrequentAccess:
      return "STANDARD_INFREQUENT_ACCESS";
  }
  return "";
}

std::optional<TableClass> TableClassFromName(std::string_view name) {
  for (TableClass c : {TableClass::kStandard, TableClass::kStandardInfrequentAccess}) {
    if (TableClassName(c) == name) return c;
  }
  return std::nullopt;
}

std::string_view ReplicaStatusName(ReplicaStatus s) {
  switch (s) {
    case ReplicaStatus::kCreating:
      return "CREATING";
    case ReplicaStatus::kActive:
      return "ACTIVE";
    case ReplicaStatus::kUpdating:
      return "UPDATING";
    case ReplicaStatus::kDeleting:
      return "DELETING";
  }
  return "";
}

std::string_view VectorDistanceFunctionName(VectorDistanceFunction f) {
  switch (f) {
    case VectorDistanceFunction::kCosine:
      return "COSINE";
    case VectorDistanceFunction::kEuclidean:
      return "EUCLIDEAN";
    case VectorDistanceFunction::kDotProduct:
      return "DOT_PRODUCT";
  }
  return "";
}

std::optional<VectorDistanceFunction> VectorDistanceFunctionFromName(std::string_view name) {
  for (VectorDistanceFunction f :
       {VectorDistanceFunction::kCosine, VectorDistanceFunction::kEuclidean,
        VectorDistanceFunction::kDotProduct}) {
    if (VectorDistanceFunctionName(f) == name) return f;
  }
  return std::nullopt;
}

std::string_view SearchSchemaElementTypeName(SearchSchemaElementType t) {
  return t == SearchSchemaElementType::kHash ? "HASH" : "INLINE_FILTER";
}

std::optional<SearchSchemaElementType> SearchSchemaElementTypeFromName(std::string_view name) {
  if (name == "HASH") return SearchSchemaElementType::kHash;
  if (name == "INLINE_FILTER") return SearchSchemaElementType::kInlineFilter;
  return std::nullopt;
}

std::string_view TableStatusName(TableStatus status) {
  switch (status) {
    case TableStatus::kCreating:
      return "CREATING";
    case TableStatus::kUpdating:
      return "UPDATING";
    case TableStatus::kDeleting:
      return "DELETING";
    case TableStatus::kActive:
      return "ACTIVE";
  }
  return "";
}

AttributeValue AttributeValue::S(std::string s) {
  return AttributeValue(AttrType::kS, std::move(s));
}
AttributeValue AttributeValue::N(Number n) {
  return AttributeValue(AttrType::kN, std::move(n));
}
AttributeValue AttributeValue::B(std::string bytes) {
  return AttributeValue(AttrType::kB, std::move(bytes));
}
AttributeValue AttributeValue::Bool(bool b) {
  return AttributeValue(AttrType::kBool, b);
}
AttributeValue AttributeValue::Null() {
  return AttributeValue(AttrType::kNull, std::monostate());
}
AttributeValue AttributeValue::L(List list) {
  return AttributeValue(AttrType::kL, std::move(list));
}
AttributeValue AttributeValue::M(Map map) {
  return AttributeValue(AttrType::kM, std::move(map));
}
AttributeValue AttributeValue::SS(std::vector<std::string> members) {
  return AttributeValue(AttrType::kSS, std::move(members));
}
AttributeValue AttributeValue::NS(std::vector<Number> members) {
  return AttributeValue(AttrType::kNS, std::move(members));
}
AttributeValue AttributeValue::BS(std::vector<std::string> members) {
  return AttributeValue(AttrType::kBS, std::move(members));
}

bool AttributeValue::operator==(const AttributeValue& other) const {
  if (type_ != other.type_) return false;
  switch (type_) {
    case AttrType::kS:
    case AttrType::kB:
      return s() == other.s();
    case AttrType::kN:
      return n() == other.n();
    case AttrType::kBool:
      return boolean() == other.boolean();
    case AttrType::kNull:
      return true;
    case AttrType::kL:
      // Element-wise, recursing through operator==.
      return l() == other.l();
    case AttrType::kM:
      // std::map equality: same keys in order, values by operator==.
      return m() == other.m();
    case AttrType::kSS:
    case AttrType::kBS:
      return SameStringSet(ss(), other.ss());
    case AttrType::kNS:
      return SameNumberSet(ns(), other.ns());
  }
  return false;
}

std::vector<AttrType> KeyDef::hash_types() const {
  std::vector<AttrType> types = {hash_type};
  for (const KeyAttribute& a : extra_hash) types.push_back(a.type);
  return types;
}

}  // namespace dynarock
