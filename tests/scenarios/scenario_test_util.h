// tests/scenarios/scenario_test_util.h
//
// ScenarioTest: an api::Client on an in-memory engine, a model file loaded
// into it with `dynarock load`'s Loader, and helpers to run access patterns
// and compare what they return with the file's items and the capacity they
// consumed.
//
// Capacity expectations are written out in each test: the item sizes (by
// DynamoDB's documented rule, checked here against engine/value/item_size.h
// with SizeOf / FileSizes), their sum, the rounding (4 KB per read unit,
// 1 KB per write unit) and the units, as literals. Consumed() only shapes
// the expected ConsumedCapacity object; it computes no units.

#ifndef DYNAROCK_TESTS_SCENARIOS_SCENARIO_TEST_UTIL_H_
#define DYNAROCK_TESTS_SCENARIOS_SCENARIO_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "api/client.h"
#include "api/json_codec.h"
#include "engine/value/item_size.h"
#include "tests/testutil/test_engine.h"
#include "tools/load/loader.h"
#include "tools/load/model_file.h"

namespace dynarock::scenarios {

using api::Json;

class ScenarioTest : public ::testing::Test {
 protected:
  ScenarioTest() : client_(engine_.engine.get()) {}

  // Loads tests/data/models/<relative> (every item must be valid). The
  // loader's BatchWriteItem requests ask for ReturnConsumedCapacity =
  // INDEXES, and what they consumed is summed into load_wcu_.
  void Load(const std::string& relative) {
    Result<tools::load::LoadPlan> plan = tools::load::ReadModelFile(
        std::string(DYNAROCK_TEST_MODELS_DIR) + "/" + relative);
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    plan_ = std::move(plan).value();
    tools::load::Loader loader(
        [this](std::string_view op, std::string_view body) {
          if (op != "BatchWriteItem") return client_.Call(op, body);
          Json req = Json::parse(body);
          req["ReturnConsumedCapacity"] = "INDEXES";
          api::Response r = client_.Call(op, req.dump());
          const Json reply = r.ok() ? Json::parse(r.body) : Json::object();
          if (reply.contains("ConsumedCapacity")) {
            for (const Json& c : reply["ConsumedCapacity"]) {
              auto& units = load_wcu_[c["TableName"].get<std::string>()];
              units["Table"] += c["Table"]["CapacityUnits"].get<double>();
              const Json gsis = c.value("GlobalSecondaryIndexes", Json::object());
              for (const auto& [index, u] : gsis.items()) {
                units[index] += u["CapacityUnits"].get<double>();
              }
            }
          }
          return r;
        },
        tools::load::LoaderOptions{});
    tools::load::LoadReport report;
    Status s = loader.Load({plan_}, &report);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }

  // Sends `body`; the call must succeed.
  Json Call(std::string_view op, const Json& body) {
    api::Response r = client_.Call(op, body.dump());
    EXPECT_TRUE(r.ok()) << op << " " << body.dump() << " -> " << r.body;
    return Json::parse(r.body);
  }

  // DynamoDB's GSIs are eventually consistent; dynarock's extension waits
  // until every write so far has reached them.
  void WaitForIndexes() { Call("DynamoRock_20251121.WaitForIndexes", Json::object()); }

  // "<pk> <sk>" of each item, in order (the model's key attribute names).
  static std::vector<std::string> Keys(const Json& items,
                                       const std::string& pk = "PK",
                                       const std::string& sk = "SK") {
    std::vector<std::string> keys;
    for (const Json& item : items) {
      keys.push_back(item[pk]["S"].get<std::string>() + " " +
                     item[sk]["S"].get<std::string>());
    }
    return keys;
  }

  // The item of the loaded file with this key (DynamoDB JSON); null if none.
  Json FileItem(const std::string& pk_value, const std::string& sk_value,
                const std::string& pk = "PK", const std::string& sk = "SK") const {
    for (const auto& table : plan_.tables) {
      for (const auto& item : table.items) {
        if (item.item[pk]["S"] == pk_value && item.item[sk]["S"] == sk_value) {
          return item.item;
        }
      }
    }
    return Json();
  }

  // Every returned item is exactly the file's item with its key (indexes
  // here project ALL attributes).
  void ExpectItemsAsInFile(const Json& items, const std::string& pk = "PK",
                           const std::string& sk = "SK") const {
    for (const Json& item : items) {
      const std::string p = item[pk]["S"], s = item[sk]["S"];
      EXPECT_EQ(item, FileItem(p, s, pk, sk)) << p << " " << s;
    }
  }

  // DynamoDB's size of an item given in DynamoDB JSON, in bytes.
  static int64_t SizeOf(const Json& item) {
    Result<Item> decoded = api::DecodeItem(item);
    EXPECT_TRUE(decoded.ok()) << item.dump();
    return decoded.ok() ? ItemSize(decoded.value()) : -1;
  }

  // The sizes of the file's items with the keys of `items`, in order: what
  // a Query read for them, whatever it projected.
  std::vector<int64_t> FileSizes(const Json& items, const std::string& pk = "PK",
                                 const std::string& sk = "SK") const {
    std::vector<int64_t> sizes;
    for (const Json& item : items) {
      sizes.push_back(SizeOf(FileItem(item[pk]["S"], item[sk]["S"], pk, sk)));
    }
    return sizes;
  }

  // ConsumedCapacity as ReturnConsumedCapacity = INDEXES shows it:
  // CapacityUnits (the table's units plus every listed GSI's), Table, and
  // GlobalSecondaryIndexes when a GSI was read or had an entry changed.
  static Json Consumed(const std::string& table, double table_units,
                       const std::map<std::string, double>& gsis = {}) {
    double total = table_units;
    Json out = {{"TableName", table}, {"Table", {{"CapacityUnits", table_units}}}};
    for (const auto& [name, units] : gsis) {
      out["GlobalSecondaryIndexes"][name] = {{"CapacityUnits", units}};
      total += units;
    }
    out["CapacityUnits"] = total;
    return out;
  }
  // A read of GSI `index`: the index's units, 0 on the table.
  static Json IndexRead(const std::string& table, const std::string& index,
                        double units) {
    return Consumed(table, 0, {{index, units}});
  }

  TestEngine engine_;
  api::Client client_;
  tools::load::LoadPlan plan_;
  // Write units the Load's batches consumed: table name -> "Table" or an
  // index name -> units.
  std::map<std::string, std::map<std::string, double>> load_wcu_;
};

}  // namespace dynarock::scenarios

#endif  // DYNAROCK_TESTS_SCENARIOS_SCENARIO_TEST_UTIL_H_
