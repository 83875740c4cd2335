// tests/scenarios/online_shop_multi_attribute_test.cc
//
// The online shop of seed document 004 with multi-attribute GSI keys. The
// final model (AnOnlineShop_14.json) builds its GSI keys by hand:
// "p#12345", "w#12345", "c#12345", "sh#98765" for partitions, and "p#..."
// or ISO dates for sort keys. Here the same items go into a second table
// whose GSIs use typed attributes instead:
//
//   GSI1M: HASH G1Kind, G1Id; RANGE G1SortKind, G1Sort
//   GSI2M: HASH G2Kind, G2Id; RANGE G2SortKind, G2Sort
//
// Each "<kind>#<id>" value becomes its two parts, and a date (no '#')
// becomes kind "t" and the date. Every GSI access pattern of the document
// (9 to 16) runs on both tables, the concatenated way and the
// multi-attribute way, and must return the same items in the same order.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/scenarios/scenario_test_util.h"

namespace dynarock::scenarios {
namespace {

using ::testing::ElementsAre;

class OnlineShopMultiAttributeTest : public ScenarioTest {
 protected:
  void SetUp() override {
    Load("an-online-shop/AnOnlineShop_14.json");
    Json create = Json::parse(R"({"TableName":"ShopMulti","BillingMode":"PAY_PER_REQUEST",
      "KeySchema":[{"AttributeName":"PK","KeyType":"HASH"},
                   {"AttributeName":"SK","KeyType":"RANGE"}],
      "AttributeDefinitions":[{"AttributeName":"PK","AttributeType":"S"},
                              {"AttributeName":"SK","AttributeType":"S"}]})");
    Json gsis = Json::array();
    for (const char* g : {"G1", "G2"}) {
      const std::string p(g);
      for (const char* part : {"Kind", "Id", "SortKind", "Sort"}) {
        create["AttributeDefinitions"].push_back(
            {{"AttributeName", p + part}, {"AttributeType", "S"}});
      }
      gsis.push_back({{"IndexName", "GSI" + p.substr(1) + "M"},
                      {"KeySchema", {{{"AttributeName", p + "Kind"}, {"KeyType", "HASH"}},
                                     {{"AttributeName", p + "Id"}, {"KeyType", "HASH"}},
                                     {{"AttributeName", p + "SortKind"}, {"KeyType", "RANGE"}},
                                     {{"AttributeName", p + "Sort"}, {"KeyType", "RANGE"}}}},
                      {"Projection", {{"ProjectionType", "ALL"}}}});
    }
    create["GlobalSecondaryIndexes"] = gsis;
    Call("CreateTable", create);
    for (const auto& table : plan_.tables) {
      for (const auto& item : table.items) {
        Call("PutItem", {{"TableName", "ShopMulti"}, {"Item", Split(item.item)}});
      }
    }
    WaitForIndexes();
  }

  // "<kind>#<id>" -> (kind, id); a value without '#' (a date) -> ("t", value).
  static std::pair<std::string, std::string> Parts(const std::string& v) {
    const size_t hash = v.find('#');
    if (hash == std::string::npos) return {"t", v};
    return {v.substr(0, hash), v.substr(hash + 1)};
  }

  // The item with GSI1-PK / -SK and GSI2-PK / -SK replaced by their parts.
  static Json Split(Json item) {
    for (const char* g : {"1", "2"}) {
      const std::string concat = std::string("GSI") + g;
      const std::string multi = std::string("G") + g;
      for (const auto& [suffix, kind, value] :
           {std::tuple{"-PK", "Kind", "Id"}, std::tuple{"-SK", "SortKind", "Sort"}}) {
        const std::string name = concat + suffix;
        if (!item.contains(name)) continue;
        auto [k, v] = Parts(item[name]["S"].get<std::string>());
        item[multi + kind] = {{"S", k}};
        item[multi + value] = {{"S", v}};
        item.erase(name);
      }
    }
    return item;
  }

  static Json S(const std::string& s) { return {{"S", s}}; }

  // Query `table` / `index` with `condition`; every name is a placeholder
  // (#-prefixed) in `names`.
  std::vector<std::string> Query(const std::string& table, const std::string& index,
                                 const std::string& condition, const Json& names,
                                 const Json& values, const Json& filter = Json()) {
    Json req = {{"TableName", table}, {"IndexName", index},
                {"KeyConditionExpression", condition},
                {"ExpressionAttributeNames", names},
                {"ExpressionAttributeValues", values}};
    if (!filter.is_null()) {
      req["FilterExpression"] = filter;
      req["ExpressionAttributeNames"]["#type"] = "EntityType";
    }
    Json r = Call("Query", req);
    return Keys(r["Items"]);
  }

  // Runs a pattern both ways; returns the concatenated version's keys after
  // checking the multi-attribute version's are the same.
  std::vector<std::string> Both(const std::string& concat_index,
                                const std::string& concat_condition,
                                const Json& concat_values, const std::string& multi_index,
                                const std::string& multi_condition,
                                const Json& multi_values, const Json& filter = Json()) {
    const Json concat_names = {{"#pk", concat_index + "-PK"}, {"#sk", concat_index + "-SK"}};
    Json cond_names = Json::object();
    for (const char* n : {"#pk", "#sk"}) {
      if (concat_condition.find(n) != std::string::npos) cond_names[n] = concat_names[n];
    }
    const std::string g = "G" + concat_index.substr(3);
    Json multi_names = Json::object();
    for (const auto& [placeholder, suffix] :
         {std::pair{"#k", "Kind"}, std::pair{"#i", "Id"}, std::pair{"#sk", "SortKind"},
          std::pair{"#s", "Sort"}}) {
      if (multi_condition.find(std::string(placeholder) + " ") != std::string::npos ||
          multi_condition.find(std::string(placeholder) + ",") != std::string::npos) {
        multi_names[placeholder] = g + suffix;
      }
    }
    const auto concat = Query("OnlineShop", concat_index, concat_condition, cond_names,
                              concat_values, filter);
    const auto multi = Query("ShopMulti", multi_index, multi_condition, multi_names,
                             multi_values, filter);
    EXPECT_EQ(concat, multi) << concat_condition << " vs " << multi_condition;
    return concat;
  }
};

// 9. Orders of a product in a date range: GSI1-PK = "p#99887" AND GSI1-SK
// BETWEEN two dates.
TEST_F(OnlineShopMultiAttributeTest, P09_OrdersOfAProductInADateRange) {
  EXPECT_THAT(
      Both("GSI1", "#pk = :pk AND #sk BETWEEN :d1 AND :d2",
           {{":pk", S("p#99887")}, {":d1", S("2020-06-21T00:00:00")},
            {":d2", S("2020-06-21T23:59:00")}},
           "GSI1M", "#k = :k AND #i = :i AND #sk = :t AND #s BETWEEN :d1 AND :d2",
           {{":k", S("p")}, {":i", S("99887")}, {":t", S("t")},
            {":d1", S("2020-06-21T00:00:00")}, {":d2", S("2020-06-21T23:59:00")}}),
      ElementsAre("o#12345 p#99887"));
}

// 10 and 11. The invoice by invoice id: both GSI1 keys "i#55443".
TEST_F(OnlineShopMultiAttributeTest, P10_InvoiceByInvoiceId) {
  EXPECT_THAT(Both("GSI1", "#pk = :i AND #sk = :i", {{":i", S("i#55443")}}, "GSI1M",
                   "#k = :k AND #i = :i AND #sk = :k AND #s = :i",
                   {{":k", S("i")}, {":i", S("55443")}}),
              ElementsAre("o#12345 i#55443"));
}

// 12. A shipment and its items: every entry of GSI1 partition "sh#98765".
TEST_F(OnlineShopMultiAttributeTest, P12_ShipmentDetailsByShipmentId) {
  EXPECT_THAT(Both("GSI1", "#pk = :s", {{":s", S("sh#98765")}}, "GSI1M",
                   "#k = :k AND #i = :i", {{":k", S("sh")}, {":i", S("98765")}}),
              ElementsAre("o#12345 shp#55555", "o#12345 shp#12345", "o#12345 sh#98765"));
}

// 13. Shipments from a warehouse: begins_with(GSI2-SK, "sh#") is equality
// on the sort key's first attribute.
TEST_F(OnlineShopMultiAttributeTest, P13_ShipmentsByWarehouseId) {
  for (const char* w : {"12345", "12376"}) {
    Both("GSI2", "#pk = :w AND begins_with(#sk, :sh)",
         {{":w", S(std::string("w#") + w)}, {":sh", S("sh#")}}, "GSI2M",
         "#k = :k AND #i = :i AND #sk = :sh", {{":k", S("w")}, {":i", S(w)}, {":sh", S("sh")}});
  }
}

// 14. Inventory of a warehouse: begins_with(GSI2-SK, "p#").
TEST_F(OnlineShopMultiAttributeTest, P14_InventoryByWarehouseId) {
  EXPECT_THAT(Both("GSI2", "#pk = :w AND begins_with(#sk, :p)",
                   {{":w", S("w#12345")}, {":p", S("p#")}}, "GSI2M",
                   "#k = :k AND #i = :i AND #sk = :p",
                   {{":k", S("w")}, {":i", S("12345")}, {":p", S("p")}}),
              ElementsAre("p#12345 w#12345", "p#99887 w#12345"));
}

// 15 and 16. A customer's invoices and ordered products in a date range,
// filtered on EntityType as _14 revises them.
TEST_F(OnlineShopMultiAttributeTest, P15_P16_ByCustomerIdForDateRange) {
  for (const auto& [type, expected] :
       {std::pair<std::string, std::vector<std::string>>{"invoice", {"o#12345 i#55443"}},
        {"orderItem", {"o#12345 p#12345", "o#12345 p#99887"}}}) {
    EXPECT_EQ(Both("GSI2", "#pk = :c AND #sk BETWEEN :d1 AND :d2",
                   {{":c", S("c#12345")}, {":d1", S("2020-06-01")}, {":d2", S("2020-06-30")},
                    {":type", S(type)}},
                   "GSI2M", "#k = :k AND #i = :i AND #sk = :t AND #s BETWEEN :d1 AND :d2",
                   {{":k", S("c")}, {":i", S("12345")}, {":t", S("t")},
                    {":d1", S("2020-06-01")}, {":d2", S("2020-06-30")}, {":type", S(type)}},
                   "#type = :type"),
              expected);
  }
}

// Items without every key attribute of a multi-attribute GSI are not in it,
// as items without GSI1-PK are not in GSI1.
TEST_F(OnlineShopMultiAttributeTest, IndexesHoldTheSameItems) {
  for (const auto& [concat, multi] : {std::pair{"GSI1", "GSI1M"}, std::pair{"GSI2", "GSI2M"}}) {
    Json a = Call("Scan", {{"TableName", "OnlineShop"}, {"IndexName", concat}});
    Json b = Call("Scan", {{"TableName", "ShopMulti"}, {"IndexName", multi}});
    std::vector<std::string> ka = Keys(a["Items"]), kb = Keys(b["Items"]);
    std::sort(ka.begin(), ka.end());
    std::sort(kb.begin(), kb.end());
    EXPECT_EQ(ka, kb) << concat;
  }
}

}  // namespace
}  // namespace dynarock::scenarios
