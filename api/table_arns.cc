#include "api/table_arns.h"

#include <array>
#include <utility>

#include "engine/schema/arns.h"

namespace dynarock::api {

namespace {

// The operations whose TableName is a new table's name, never an ARN.
constexpr std::array<std::string_view, 1> kNewTableOperations = {"CreateTable"};

// Top-level members naming an existing table.
constexpr std::array<std::string_view, 2> kTableMembers = {"TableName", "SourceTableName"};

// The actions of TransactGetItems / TransactWriteItems.
constexpr std::array<std::string_view, 5> kTransactActions = {"Get", "Put", "Update", "Delete",
                                                              "ConditionCheck"};

// The batch members keyed by table.
constexpr std::array<std::string_view, 4> kBatchMaps = {"Responses", "UnprocessedKeys",
                                                        "UnprocessedItems",
                                                        "ItemCollectionMetrics"};

Status Resolve(std::string_view operation, const Scope& scope, Json* value,
               TableArnAliases* aliases) {
  if (!value->is_string() || !LooksLikeArn(value->get_ref<const std::string&>())) {
    return Status::OK();
  }
  std::string arn = value->get<std::string>();
  DR_ASSIGN_OR_RETURN(std::string name, TableNameOfArn(scope, arn, operation));
  *value = name;
  (*aliases)[std::move(name)] = std::move(arn);
  return Status::OK();
}

Status ResolveKeys(std::string_view operation, const Scope& scope, Json* map,
                   TableArnAliases* aliases) {
  if (!map->is_object()) return Status::OK();
  bool any = false;
  for (const auto& [key, value] : map->items()) any = any || LooksLikeArn(key);
  if (!any) return Status::OK();
  Json resolved = Json::object();
  for (auto& [key, value] : map->items()) {
    Json name = key;
    DR_RETURN_IF_ERROR(Resolve(operation, scope, &name, aliases));
    const std::string& n = name.get_ref<const std::string&>();
    if (resolved.contains(n)) {
      return Status::Validation(
          "One or more parameter values were invalid: the table " + n +
          " is named twice in RequestItems, by its name and by its ARN");
    }
    resolved[n] = std::move(value);
  }
  *map = std::move(resolved);
  return Status::OK();
}

void RestoreName(const TableArnAliases& aliases, Json* object) {
  if (!object->is_object()) return;
  auto it = object->find("TableName");
  if (it == object->end() || !it->is_string()) return;
  auto alias = aliases.find(it->get<std::string>());
  if (alias != aliases.end()) *it = alias->second;
}

}  // namespace

Status ResolveTableArns(std::string_view operation, const Scope& scope, Json* request,
                        TableArnAliases* aliases) {
  if (!request->is_object()) return Status::OK();
  for (std::string_view op : kNewTableOperations) {
    if (op == operation) return Status::OK();
  }
  for (std::string_view member : kTableMembers) {
    auto it = request->find(member);
    if (it != request->end()) DR_RETURN_IF_ERROR(Resolve(operation, scope, &*it, aliases));
  }
  auto items = request->find("RequestItems");
  if (items != request->end()) {
    DR_RETURN_IF_ERROR(ResolveKeys(operation, scope, &*items, aliases));
  }
  auto transact = request->find("TransactItems");
  if (transact != request->end() && transact->is_array()) {
    for (Json& item : *transact) {
      if (!item.is_object()) continue;
      for (std::string_view action : kTransactActions) {
        auto a = item.find(action);
        if (a == item.end() || !a->is_object()) continue;
        auto name = a->find("TableName");
        if (name != a->end()) DR_RETURN_IF_ERROR(Resolve(operation, scope, &*name, aliases));
      }
    }
  }
  return Status::OK();
}

void RestoreTableArns(const TableArnAliases& aliases, Json* response) {
  if (aliases.empty() || !response->is_object()) return;
  auto consumed = response->find("ConsumedCapacity");
  if (consumed != response->end()) {
    if (consumed->is_array()) {
      for (Json& c : *consumed) RestoreName(aliases, &c);
    } else {
      RestoreName(aliases, &*consumed);
    }
  }
  for (std::string_view member : kBatchMaps) {
    auto map = response->find(member);
    if (map == response->end() || !map->is_object()) continue;
    Json renamed = Json::object();
    for (auto& [key, value] : map->items()) {
      auto alias = aliases.find(key);
      renamed[alias == aliases.end() ? key : alias->second] = std::move(value);
    }
    *map = std::move(renamed);
  }
}

}  // namespace dynarock::api
