// bench/common/two_gsi_table.h
//
// The table the backup and export/import benchmarks copy: pk (S) + sk (N),
// ~200-byte items, and two GSIs that every item is in (byG: g + sk, ALL;
// byH: h, KEYS_ONLY), filled with BatchWriteItem. Item i is a pure function
// of i, so every run copies the same data. Any failure is fatal (check.h).
//
// Header-only.

#ifndef DYNAROCK_BENCH_COMMON_TWO_GSI_TABLE_H_
#define DYNAROCK_BENCH_COMMON_TWO_GSI_TABLE_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bench/common/check.h"
#include "engine/engine.h"

namespace dynarock::bench {

inline CreateTableRequest TwoGsiTable(const std::string& name) {
  CreateTableRequest req;
  req.table_name = name;
  req.billing_mode = BillingMode::kPayPerRequest;
  req.attribute_definitions = {{"pk", AttrType::kS}, {"sk", AttrType::kN},
                               {"g", AttrType::kS}, {"h", AttrType::kN}};
  req.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  GlobalSecondaryIndexDef g;
  g.index_name = "byG";
  g.key_schema = {{"g", KeyType::kHash}, {"sk", KeyType::kRange}};
  GlobalSecondaryIndexDef h;
  h.index_name = "byH";
  h.key_schema = {{"h", KeyType::kHash}};
  h.projection.type = ProjectionType::kKeysOnly;
  req.global_secondary_indexes = {g, h};
  return req;
}

// Items 0..items-1 of `table` (a TwoGsiTable), 25 to a BatchWriteItem.
// Does not wait for the GSIs.
inline void FillTwoGsiTable(Engine* db, const std::string& table, int64_t items) {
  for (int64_t i = 0; i < items;) {
    BatchWriteItemRequest batch;
    std::vector<WriteRequest> writes;
    for (int k = 0; k < 25 && i < items; ++k, ++i) {
      Item item;
      item["pk"] = AttributeValue::S("user#" + std::to_string(i % 10007));
      item["sk"] = AttributeValue::N(Number::Parse(std::to_string(i)).value());
      item["g"] = AttributeValue::S("g" + std::to_string(i % 97));
      item["h"] = AttributeValue::N(Number::Parse(std::to_string(i % 1013)).value());
      item["payload"] = AttributeValue::S(std::string(150, static_cast<char>('a' + i % 26)));
      WriteRequest w;
      w.put_item = std::move(item);
      writes.push_back(std::move(w));
    }
    batch.request_items.emplace_back(table, std::move(writes));
    Check(db->BatchWriteItem(batch).status(), "fill");
  }
}

}  // namespace dynarock::bench

#endif  // DYNAROCK_BENCH_COMMON_TWO_GSI_TABLE_H_
