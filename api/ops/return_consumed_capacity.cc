#include "api/ops/return_consumed_capacity.h"

#include <map>
#include <string>

#include "api/ops/fields.h"

namespace dynarock::api::ops {

namespace {

Json Units(const Capacity& c) { return Json{{"CapacityUnits", c.units()}}; }

Json IndexMap(const std::map<std::string, Capacity>& indexes) {
  Json out = Json::object();
  for (const auto& [name, c] : indexes) out[name] = Units(c);
  return out;
}

}  // namespace

ReturnConsumedCapacity DecodeReturnConsumedCapacity(const Json& request) {
  const std::string what = StringOr(request, "ReturnConsumedCapacity", "NONE");
  if (what == "TOTAL") return ReturnConsumedCapacity::kTotal;
  if (what == "INDEXES") return ReturnConsumedCapacity::kIndexes;
  return ReturnConsumedCapacity::kNone;
}

Json EncodeConsumedCapacity(const ConsumedCapacity& consumed,
                            ReturnConsumedCapacity what) {
  Json out = Json::object();
  out["TableName"] = consumed.table_name;
  out["CapacityUnits"] = consumed.Total().units();
  if (what == ReturnConsumedCapacity::kIndexes) {
    out["Table"] = Units(consumed.table);
    if (!consumed.global_secondary_indexes.empty()) {
      out["GlobalSecondaryIndexes"] = IndexMap(consumed.global_secondary_indexes);
    }
    if (!consumed.local_secondary_indexes.empty()) {
      out["LocalSecondaryIndexes"] = IndexMap(consumed.local_secondary_indexes);
    }
    // A write's bytes replicated to each vector index (VectorSearchMonitoring).
    for (const auto& [name, bytes] : consumed.vector_indexes) {
      out["VectorIndexes"][name] = Json{{"VectorWriteRequestBytes", bytes}};
    }
  }
  return out;
}

void AddConsumedCapacity(const Json& request, const ConsumedCapacity& consumed,
                         Json* response) {
  const ReturnConsumedCapacity what = DecodeReturnConsumedCapacity(request);
  if (what == ReturnConsumedCapacity::kNone) return;
  (*response)["ConsumedCapacity"] = EncodeConsumedCapacity(consumed, what);
}

void AddConsumedCapacity(const Json& request,
                         const std::vector<ConsumedCapacity>& consumed,
                         Json* response) {
  const ReturnConsumedCapacity what = DecodeReturnConsumedCapacity(request);
  if (what == ReturnConsumedCapacity::kNone) return;
  Json list = Json::array();
  for (const ConsumedCapacity& c : consumed) {
    list.push_back(EncodeConsumedCapacity(c, what));
  }
  (*response)["ConsumedCapacity"] = std::move(list);
}

}  // namespace dynarock::api::ops
