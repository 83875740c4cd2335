// tests/engine/backup/backup_test_util.h
//
// What the backup tests share: a table with two GSIs and an LSI, and a
// table's (or index's) whole contents read page by page, as encoded items
// sorted, so that two tables compare with ==.

#ifndef DYNAROCK_TESTS_ENGINE_BACKUP_BACKUP_TEST_UTIL_H_
#define DYNAROCK_TESTS_ENGINE_BACKUP_BACKUP_TEST_UTIL_H_

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "engine/value/item_codec.h"

namespace dynarock {

// pk (S) + sk (N); GSIs byG (g, sk) and byH (h), LSI byL (pk, l).
inline CreateTableRequest IndexedTable(const std::string& name) {
  CreateTableRequest req;
  req.table_name = name;
  req.billing_mode = BillingMode::kPayPerRequest;
  req.attribute_definitions = {{"pk", AttrType::kS}, {"sk", AttrType::kN},
                               {"g", AttrType::kS},  {"h", AttrType::kN},
                               {"l", AttrType::kS}};
  req.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  GlobalSecondaryIndexDef g;
  g.index_name = "byG";
  g.key_schema = {{"g", KeyType::kHash}, {"sk", KeyType::kRange}};
  GlobalSecondaryIndexDef h;
  h.index_name = "byH";
  h.key_schema = {{"h", KeyType::kHash}};
  h.projection.type = ProjectionType::kKeysOnly;
  req.global_secondary_indexes = {g, h};
  LocalSecondaryIndexDef l;
  l.index_name = "byL";
  l.key_schema = {{"pk", KeyType::kHash}, {"l", KeyType::kRange}};
  req.local_secondary_indexes = {l};
  return req;
}

inline Item IndexedItem(int i, const std::string& tag = "") {
  Item item;
  item["pk"] = AttributeValue::S("p" + std::to_string(i % 97));
  item["sk"] = AttributeValue::N(Number::Parse(std::to_string(i)).value());
  item["g"] = AttributeValue::S("g" + std::to_string(i % 7));
  if (i % 3 != 0) item["h"] = AttributeValue::N(Number::Parse(std::to_string(i % 11)).value());
  if (i % 2 == 0) item["l"] = AttributeValue::S("l" + std::to_string(i % 5) + tag);
  item["payload"] = AttributeValue::S(std::string(static_cast<size_t>(i % 50), 'x') + tag);
  return item;
}

// Every item of the table (or of `index`), encoded, sorted.
inline std::vector<std::string> Contents(Engine* db, const std::string& table,
                                         std::optional<std::string> index = std::nullopt) {
  std::vector<std::string> out;
  ScanRequest req;
  req.table_name = table;
  req.read.index_name = index;
  for (;;) {
    auto page = db->Scan(req);
    if (!page.ok()) {
      out.push_back("error: " + page.status().ToString());
      return out;
    }
    for (const Item& item : page->items) {
      std::string encoded;
      EncodeItem(item, &encoded);
      out.push_back(std::move(encoded));
    }
    if (!page->last_evaluated_key) break;
    req.read.exclusive_start_key = page->last_evaluated_key;
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace dynarock

#endif  // DYNAROCK_TESTS_ENGINE_BACKUP_BACKUP_TEST_UTIL_H_
