// tools/load/item_check.cc

#include "tools/load/item_check.h"

#include <map>

#include "engine/types.h"
#include "engine/value/attribute_value_validation.h"

namespace dynarock::tools::load {
namespace {

using api::Json;

// The attribute types declared by a CreateTable request.
std::map<std::string, std::string> DeclaredTypes(const Json& create_table) {
  std::map<std::string, std::string> types;
  auto defs = create_table.find("AttributeDefinitions");
  if (defs == create_table.end() || !defs->is_array()) return types;
  for (const Json& d : *defs) {
    types[d.value("AttributeName", "")] = d.value("AttributeType", "");
  }
  return types;
}

std::vector<std::string> KeyNames(const Json& key_schema) {
  std::vector<std::string> names;
  if (!key_schema.is_array()) return names;
  for (const Json& k : key_schema) names.push_back(k.value("AttributeName", ""));
  return names;
}

// Why key attribute `name` of `item` is unusable ("" when it is fine).
// `whose` is "the table" or "index <name>".
std::string CheckKeyAttribute(const Item& item, const std::string& name,
                              const std::string& declared,
                              const std::string& whose, bool required) {
  auto it = item.find(name);
  if (it == item.end()) {
    return required ? "missing key attribute " + name + " (" + declared + ")"
                    : "";
  }
  const std::string actual(AttrTypeName(it->second.type()));
  if (actual != declared) {
    return "key attribute " + name + " of " + whose + " is " + actual +
           ", declared " + declared;
  }
  if ((it->second.type() == AttrType::kS || it->second.type() == AttrType::kB) &&
      it->second.s().empty()) {
    return "key attribute " + name + " of " + whose + " is empty";
  }
  return "";
}

}  // namespace

std::string FormatInvalidItem(const InvalidItem& invalid) {
  std::string line = invalid.source + ": table " + invalid.table + ", item " +
                     std::to_string(invalid.index);
  if (!invalid.facet.empty()) line += " (facet " + invalid.facet + ")";
  return line + ": " + invalid.reason;
}

std::string CheckItem(const Json& create_table, const Json& item_json) {
  if (!item_json.is_object()) return "not an object of attribute values";
  // Decode as the server would: JSON types first, then values.
  for (const auto& [name, value] : item_json.items()) {
    Status types = api::CheckAttributeValueTypes(value);
    if (!types.ok()) return "attribute " + name + ": " + types.message();
    Result<AttributeValue> decoded = api::DecodeAttributeValue(value);
    if (!decoded.ok()) return "attribute " + name + ": " + decoded.status().message();
  }
  Result<Item> item = api::DecodeItem(item_json);
  if (!item.ok()) return item.status().message();
  if (Status valid = ValidateItem(*item); !valid.ok()) return valid.message();

  const std::map<std::string, std::string> types = DeclaredTypes(create_table);
  for (const std::string& key : KeyNames(create_table.value("KeySchema", Json()))) {
    auto declared = types.find(key);
    if (declared == types.end()) continue;  // CreateTable will refuse it
    std::string why = CheckKeyAttribute(*item, key, declared->second,
                                        "the table", /*required=*/true);
    if (!why.empty()) return why;
  }
  for (const Json& gsi :
       create_table.value("GlobalSecondaryIndexes", Json::array())) {
    const std::string whose = "index " + gsi.value("IndexName", "");
    for (const std::string& key : KeyNames(gsi.value("KeySchema", Json()))) {
      auto declared = types.find(key);
      if (declared == types.end()) continue;
      std::string why = CheckKeyAttribute(*item, key, declared->second, whose,
                                          /*required=*/false);
      if (!why.empty()) return why;
    }
  }
  return "";
}

std::vector<InvalidItem> CheckItems(const LoadPlan& plan) {
  std::vector<InvalidItem> invalid;
  for (const PlannedTable& table : plan.tables) {
    for (const PlannedItem& item : table.items) {
      std::string why = CheckItem(table.create_table, item.item);
      if (!why.empty()) {
        invalid.push_back(
            InvalidItem{plan.source, table.name, item.index, item.facet, why});
      }
    }
  }
  return invalid;
}

}  // namespace dynarock::tools::load
