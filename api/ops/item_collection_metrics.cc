#include "api/ops/item_collection_metrics.h"

#include "api/ops/fields.h"

namespace dynarock::api::ops {

ReturnItemCollectionMetrics DecodeReturnItemCollectionMetrics(const Json& request) {
  return StringOr(request, "ReturnItemCollectionMetrics") == "SIZE"
             ? ReturnItemCollectionMetrics::kSize
             : ReturnItemCollectionMetrics::kNone;
}

Json EncodeItemCollectionMetrics(const ItemCollectionMetrics& m) {
  return Json{{"ItemCollectionKey", EncodeItem(m.item_collection_key)},
              {"SizeEstimateRangeGB",
               Json::array({m.size_estimate_lower_gb, m.size_estimate_upper_gb})}};
}

void AddItemCollectionMetrics(
    const std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>& per_table,
    Json* response) {
  if (per_table.empty()) return;
  Json metrics = Json::object();
  for (const auto& [table, list] : per_table) {
    Json entries = Json::array();
    for (const ItemCollectionMetrics& m : list) {
      entries.push_back(EncodeItemCollectionMetrics(m));
    }
    metrics[table] = std::move(entries);
  }
  (*response)["ItemCollectionMetrics"] = std::move(metrics);
}

}  // namespace dynarock::api::ops
