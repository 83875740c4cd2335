// tests/scenarios/online_shop_test.cc
//
// The online shop of seed document 004 ("Using DynamoDB as the data store
// for an online shop"): its 16 access patterns, one test each, on the final
// model AnOnlineShop_14.json loaded with `dynarock load`'s Loader. Each test
// runs the pattern as the document's summary table says (GetItem, or Query
// with begins_with / BETWEEN on the table, GSI1 or GSI2) and checks the
// exact items returned, in order. The expectations were worked out by hand
// from the file's 19 items and DynamoDB's rules (sort keys in byte order;
// a GSI holds only the items that have its key attributes).
//
// Every request asks for ReturnConsumedCapacity = INDEXES, and each test
// checks the exact units with the arithmetic in a comment: the sizes of
// the items read (DynamoDB's rule: attribute names + values; checked with
// FileSizes), summed for a Query and rounded up once to 4 KB, at least one
// unit; half a unit per 4 KB when eventually consistent, which GSI reads
// always are (listed under the index, Table 0). Every item here is far
// below 4 KB, so one unit covers each read.
//
// AnOnlineShop_14 is the design-patterns repository's last step: it drops
// the "i#" / "p#" prefixes of GSI2-SK and filters on EntityType instead, so
// patterns 15 and 16 run both ways: as revised on _14, and as the seed
// document writes them (SK BETWEEN "i#date1" AND "i#date2") on _13, the
// model the document imports for them.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "tests/scenarios/scenario_test_util.h"

namespace dynarock::scenarios {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class OnlineShopTest : public ScenarioTest {
 protected:
  void SetUp() override { Load("an-online-shop/AnOnlineShop_14.json"); }

  Json Get(const std::string& pk, const std::string& sk, bool consistent = false) {
    return Call("GetItem", {{"TableName", "OnlineShop"},
                            {"Key", {{"PK", {{"S", pk}}}, {"SK", {{"S", sk}}}}},
                            {"ConsistentRead", consistent},
                            {"ReturnConsumedCapacity", "INDEXES"}});
  }

  // Query of the table or an index with a key condition on `pk_name` /
  // `sk_name`; `values` binds :pk and the sort-key placeholders.
  Json Query(const std::string& index, const std::string& condition,
             const std::string& pk_name, const std::string& sk_name,
             const Json& values, const Json& extra = Json::object()) {
    Json req = {{"TableName", "OnlineShop"},
                {"KeyConditionExpression", condition},
                {"ExpressionAttributeNames", {{"#pk", pk_name}}},
                {"ExpressionAttributeValues", values},
                {"ReturnConsumedCapacity", "INDEXES"}};
    if (!sk_name.empty()) req["ExpressionAttributeNames"]["#sk"] = sk_name;
    if (!index.empty()) req["IndexName"] = index;
    for (const auto& [k, v] : extra.items()) {
      if (k == "ExpressionAttributeNames") {
        for (const auto& [n, a] : v.items()) req[k][n] = a;
      } else {
        req[k] = v;
      }
    }
    Json r = Call("Query", req);
    EXPECT_EQ(r["Count"], r["Items"].size());
    // Every pattern reads one page, unless it asks for fewer items.
    EXPECT_EQ(r.contains("LastEvaluatedKey"), extra.contains("Limit"));
    return r;
  }

  static Json S(const std::string& s) { return {{"S", s}}; }

  // What the table's reads and GSI1's / GSI2's consume.
  static Json TableRead(double units) { return Consumed("OnlineShop", units); }
  static Json Gsi1Read(double units) { return IndexRead("OnlineShop", "GSI1", units); }
  static Json Gsi2Read(double units) { return IndexRead("OnlineShop", "GSI2", units); }
};

// The load: the Loader's BatchWriteItem puts the 19 items, each <= 261 B
// -> 1 x 1 KB: 19 WCU on the table; 8 of them carry GSI1-PK and GSI1-SK
// (the order lines, invoice, shipments, shipment items): 8 x 1 WCU on
// GSI1; 7 carry GSI2-PK and GSI2-SK (two warehouse lines, the order
// lines, invoice, shipments): 7 x 1 WCU on GSI2; 34 in all.
TEST_F(OnlineShopTest, LoadConsumesOneWcuPerItemAndPerIndexEntry) {
  int64_t largest = 0;
  for (const auto& item : plan_.tables[0].items) largest = std::max(largest, SizeOf(item.item));
  EXPECT_EQ(largest, 261);
  EXPECT_EQ(load_wcu_["OnlineShop"],
            (std::map<std::string, double>{{"Table", 19}, {"GSI1", 8}, {"GSI2", 7}}));
}

// 1. getCustomerByCustomerId: GetItem PK=customerId, SK=customerId.
TEST_F(OnlineShopTest, P01_GetCustomerByCustomerId) {
  Json r = Get("c#12345", "c#12345");
  EXPECT_EQ(r["Item"], Json::parse(R"({"PK": {"S": "c#12345"}, "SK": {"S": "c#12345"},
      "EntityType": {"S": "customer"}, "Email": {"S": "samaneh@example.com"},
      "Name": {"S": "Samaneh"}})"));
  // 1 item: 71 B -> 1 x 4 KB -> 0.5 RCU eventually consistent.
  EXPECT_EQ(SizeOf(r["Item"]), 71);
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
  // Strongly consistent: the same 1 x 4 KB -> 1 RCU.
  EXPECT_EQ(Get("c#12345", "c#12345", true)["ConsumedCapacity"], TableRead(1));
  // A missing item still costs 1 x 4 KB -> 0.5 RCU.
  r = Get("c#99999", "c#99999");
  EXPECT_FALSE(r.contains("Item"));
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
}

// 2. getProductByProductId: GetItem PK=productId, SK=productId.
TEST_F(OnlineShopTest, P02_GetProductByProductId) {
  Json r = Get("p#12345", "p#12345");
  EXPECT_EQ(r["Item"], Json::parse(R"({"PK": {"S": "p#12345"}, "SK": {"S": "p#12345"},
      "EntityType": {"S": "product"}, "Price": {"S": "100"},
      "Detail": {"M": {"Name": {"S": "Options Open"},
                       "Description": {"S": "The latest album"}}}})"));
  // 1 item: 97 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_EQ(SizeOf(r["Item"]), 97);
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
}

// 3. getWarehouseByWarehouseId: GetItem PK=warehouseId, SK=warehouseId.
TEST_F(OnlineShopTest, P03_GetWarehouseByWarehouseId) {
  Json r = Get("w#12345", "w#12345");
  EXPECT_EQ(r["Item"]["EntityType"], S("warehouse"));
  EXPECT_EQ(r["Item"]["Address"]["M"]["City"], S("Goteborg"));
  EXPECT_EQ(r["Item"], FileItem("w#12345", "w#12345"));
  // 1 item: 135 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_EQ(SizeOf(r["Item"]), 135);
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
}

// 4. getProductInventoryByProductId: Query PK=productId AND SK
// begins_with "w#" (one warehouseItem per warehouse holding the product).
TEST_F(OnlineShopTest, P04_GetProductInventoryByProductId) {
  Json r = Query("", "#pk = :pk AND begins_with(#sk, :w)", "PK", "SK",
                 {{":pk", S("p#99887")}, {":w", S("w#")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("p#99887 w#12345", "p#99887 w#12376"));
  EXPECT_EQ(r["Items"][0]["Quantity"], S("4"));
  ExpectItemsAsInFile(r["Items"]);
  // 2 items read: 78 + 50 = 128 B -> 1 x 4 KB -> 0.5 RCU (the product item
  // itself is outside the key condition, so not read).
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(78, 50));
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
  // The document's example: product p#12345 is in one warehouse; the
  // product item itself (SK p#12345) is not an inventory line.
  r = Query("", "#pk = :pk AND begins_with(#sk, :w)", "PK", "SK",
            {{":pk", S("p#12345")}, {":w", S("w#")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("p#12345 w#12345"));
  EXPECT_EQ(r["Items"][0]["Quantity"], S("50"));
  // 1 item read: 79 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(79));
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
}

// 5. getOrderDetailsByOrderId: Query PK=orderId: the whole order item
// collection, in sort-key byte order ("sh#" before "shp#": '#' < 'p').
TEST_F(OnlineShopTest, P05_GetOrderDetailsByOrderId) {
  Json r = Query("", "#pk = :pk", "PK", "", {{":pk", S("o#12345")}});
  EXPECT_THAT(Keys(r["Items"]),
              ElementsAre("o#12345 c#12345", "o#12345 i#55443", "o#12345 p#12345",
                          "o#12345 p#99887", "o#12345 sh#88899", "o#12345 sh#98765",
                          "o#12345 shp#12345", "o#12345 shp#54321",
                          "o#12345 shp#55555"));
  ExpectItemsAsInFile(r["Items"]);
  // 9 items read: 56 + 261 + 134 + 133 + 231 + 231 + 80 + 80 + 80 =
  // 1,286 B -> 1 x 4 KB (summed, rounded once) -> 0.5 RCU.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(56, 261, 134, 133, 231, 231, 80, 80, 80));
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
  // Strongly consistent: the same 1,286 B -> 1 x 4 KB -> 1 RCU.
  r = Query("", "#pk = :pk", "PK", "", {{":pk", S("o#12345")}},
            {{"ConsistentRead", true}});
  EXPECT_EQ(r["Count"], 9);
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(1));
  // The same 9 items by BatchGetItem are rounded one by one: 9 x (1 x 4 KB
  // -> 0.5 RCU) = 4.5 RCU, where the Query rounded their sum once.
  Json keys = Json::array();
  for (const Json& item : r["Items"]) keys.push_back({{"PK", item["PK"]}, {"SK", item["SK"]}});
  Json batch = Call("BatchGetItem", {{"RequestItems", {{"OnlineShop", {{"Keys", keys}}}}},
                                     {"ReturnConsumedCapacity", "INDEXES"}});
  EXPECT_EQ(batch["Responses"]["OnlineShop"].size(), 9u);
  EXPECT_EQ(batch["ConsumedCapacity"], Json::array({TableRead(4.5)}));
  // Backwards, as ScanIndexForward=false reads it.
  r = Query("", "#pk = :pk", "PK", "", {{":pk", S("o#12345")}},
            {{"ScanIndexForward", false}, {"Limit", 2}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 shp#55555", "o#12345 shp#54321"));
  // Limit 2: 2 items read: 80 + 80 = 160 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(80, 80));
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
}

// 6. getProductByOrderId: Query PK=orderId AND SK begins_with "p#".
TEST_F(OnlineShopTest, P06_GetProductByOrderId) {
  Json r = Query("", "#pk = :pk AND begins_with(#sk, :p)", "PK", "SK",
                 {{":pk", S("o#12345")}, {":p", S("p#")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 p#12345", "o#12345 p#99887"));
  EXPECT_EQ(r["Items"][0]["Quantity"], S("2"));
  EXPECT_EQ(r["Items"][1]["Quantity"], S("5"));
  ExpectItemsAsInFile(r["Items"]);
  // 2 items read: 134 + 133 = 267 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(134, 133));
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
}

// 7. getInvoiceByOrderId: Query PK=orderId AND SK begins_with "i#".
TEST_F(OnlineShopTest, P07_GetInvoiceByOrderId) {
  Json r = Query("", "#pk = :pk AND begins_with(#sk, :i)", "PK", "SK",
                 {{":pk", S("o#12345")}, {":i", S("i#")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 i#55443"));
  EXPECT_EQ(r["Items"][0]["Amount"], S("400"));
  ExpectItemsAsInFile(r["Items"]);
  // 1 item read: 261 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(261));
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
}

// 8. getShipmentByOrderId: Query PK=orderId AND SK begins_with "sh#"; the
// shipmentItems ("shp#...") do not match the prefix.
TEST_F(OnlineShopTest, P08_GetShipmentByOrderId) {
  Json r = Query("", "#pk = :pk AND begins_with(#sk, :sh)", "PK", "SK",
                 {{":pk", S("o#12345")}, {":sh", S("sh#")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 sh#88899", "o#12345 sh#98765"));
  ExpectItemsAsInFile(r["Items"]);
  // 2 items read: 231 + 231 = 462 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(231, 231));
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
}

// 9. getOrderByProductIdForDateRange: Query GSI1 GSI1-PK=productId AND
// GSI1-SK BETWEEN date1 AND date2 (the repository's example range).
TEST_F(OnlineShopTest, P09_GetOrderByProductIdForDateRange) {
  Json values = {{":pk", S("p#99887")},
                 {":d1", S("2020-06-21T00:00:00")},
                 {":d2", S("2020-06-21T23:59:00")}};
  Json r = Query("GSI1", "#pk = :pk AND #sk BETWEEN :d1 AND :d2", "GSI1-PK",
                 "GSI1-SK", values);
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 p#99887"));
  EXPECT_EQ(r["Items"][0]["GSI1-SK"], S("2020-06-21T19:20:00"));
  ExpectItemsAsInFile(r["Items"]);
  // 1 GSI1 entry read (ALL projected: the whole item): 133 B -> 1 x 4 KB
  // -> 0.5 RCU on GSI1 (eventually consistent), 0 on the table.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(133));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
  // A range that ends before the order was placed finds nothing.
  values[":d2"] = S("2020-06-21T19:19:59");
  r = Query("GSI1", "#pk = :pk AND #sk BETWEEN :d1 AND :d2", "GSI1-PK", "GSI1-SK",
            values);
  EXPECT_THAT(r["Items"], IsEmpty());
  // Nothing read: 0 B -> at least 1 x 4 KB -> 0.5 RCU on GSI1.
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
}

// 10. getInvoiceByInvoiceId: Query GSI1 GSI1-PK=invoiceId AND
// GSI1-SK=invoiceId.
TEST_F(OnlineShopTest, P10_GetInvoiceByInvoiceId) {
  Json r = Query("GSI1", "#pk = :i AND #sk = :i", "GSI1-PK", "GSI1-SK",
                 {{":i", S("i#55443")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 i#55443"));
  EXPECT_EQ(r["Items"][0]["EntityType"], S("invoice"));
  ExpectItemsAsInFile(r["Items"]);
  // 1 GSI1 entry read: 261 B -> 1 x 4 KB -> 0.5 RCU on GSI1.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(261));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
}

// 11. getPaymentByInvoiceId: the same key condition as pattern 10; the
// payments are the invoice's Detail.Payments list (a map attribute).
TEST_F(OnlineShopTest, P11_GetPaymentByInvoiceId) {
  Json r = Query("GSI1", "#pk = :i AND #sk = :i", "GSI1-PK", "GSI1-SK",
                 {{":i", S("i#55443")}},
                 {{"ProjectionExpression", "#d.Payments"},
                  {"ExpressionAttributeNames", {{"#d", "Detail"}}}});
  ASSERT_EQ(r["Items"].size(), 1u);
  EXPECT_EQ(r["Items"][0], Json::parse(R"({"Detail": {"M": {"Payments": {"L": [
      {"M": {"Type": {"S": "GiftCard"}, "Amount": {"N": "100"},
             "Data": {"S": "GiftCard data here..."}}},
      {"M": {"Type": {"S": "MasterCard"}, "Amount": {"N": "300"},
             "Data": {"S": "Payment data here..."}}}]}}}})"));
  // The projection does not reduce the cost: the whole 261 B entry read
  // -> 1 x 4 KB -> 0.5 RCU on GSI1.
  EXPECT_EQ(SizeOf(FileItem("o#12345", "i#55443")), 261);
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
}

// 12. getShipmentDetailsByShipmentId: Query GSI1 GSI1-PK=shipmentId AND
// GSI1-SK=shipmentId (the seed's table) gives the shipment; the
// repository's PK-only form also gives its shipmentItems, whose GSI1-SK is
// the product id ("p#..." sorts before "sh#...").
TEST_F(OnlineShopTest, P12_GetShipmentDetailsByShipmentId) {
  Json r = Query("GSI1", "#pk = :s AND #sk = :s", "GSI1-PK", "GSI1-SK",
                 {{":s", S("sh#98765")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 sh#98765"));
  ExpectItemsAsInFile(r["Items"]);
  // 1 GSI1 entry read: 231 B -> 1 x 4 KB -> 0.5 RCU on GSI1.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(231));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
  r = Query("GSI1", "#pk = :s", "GSI1-PK", "", {{":s", S("sh#98765")}});
  EXPECT_THAT(Keys(r["Items"]),
              ElementsAre("o#12345 shp#55555", "o#12345 shp#12345", "o#12345 sh#98765"));
  EXPECT_EQ(r["Items"][0]["GSI1-SK"], S("p#12345"));
  EXPECT_EQ(r["Items"][1]["GSI1-SK"], S("p#99887"));
  ExpectItemsAsInFile(r["Items"]);
  // 3 GSI1 entries read: 80 + 80 + 231 = 391 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(80, 80, 231));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
}

// 13. getShipmentByWarehouseId: Query GSI2 GSI2-PK=warehouseId AND
// GSI2-SK begins_with "sh#".
TEST_F(OnlineShopTest, P13_GetShipmentByWarehouseId) {
  Json r = Query("GSI2", "#pk = :w AND begins_with(#sk, :sh)", "GSI2-PK", "GSI2-SK",
                 {{":w", S("w#12345")}, {":sh", S("sh#")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 sh#98765"));
  ExpectItemsAsInFile(r["Items"]);
  // 1 GSI2 entry read: 231 B -> 1 x 4 KB -> 0.5 RCU on GSI2.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(231));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi2Read(0.5));
  r = Query("GSI2", "#pk = :w AND begins_with(#sk, :sh)", "GSI2-PK", "GSI2-SK",
            {{":w", S("w#12376")}, {":sh", S("sh#")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 sh#88899"));
  // 1 GSI2 entry read: 231 B -> 1 x 4 KB -> 0.5 RCU on GSI2.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(231));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi2Read(0.5));
}

// 14. getProductInventoryByWarehouseId: Query GSI2 GSI2-PK=warehouseId AND
// GSI2-SK begins_with "p#". In _14 the warehouseItem p#99887 / w#12376
// has no GSI2 attributes, so warehouse w#12376 lists no inventory (the
// index is sparse).
TEST_F(OnlineShopTest, P14_GetProductInventoryByWarehouseId) {
  Json r = Query("GSI2", "#pk = :w AND begins_with(#sk, :p)", "GSI2-PK", "GSI2-SK",
                 {{":w", S("w#12345")}, {":p", S("p#")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("p#12345 w#12345", "p#99887 w#12345"));
  EXPECT_EQ(r["Items"][0]["Quantity"], S("50"));
  EXPECT_EQ(r["Items"][1]["Quantity"], S("4"));
  ExpectItemsAsInFile(r["Items"]);
  // 2 GSI2 entries read: 79 + 78 = 157 B -> 1 x 4 KB -> 0.5 RCU on GSI2.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(79, 78));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi2Read(0.5));
  r = Query("GSI2", "#pk = :w AND begins_with(#sk, :p)", "GSI2-PK", "GSI2-SK",
            {{":w", S("w#12376")}, {":p", S("p#")}});
  EXPECT_THAT(r["Items"], IsEmpty());
  // Nothing read: 0 B -> at least 1 x 4 KB -> 0.5 RCU on GSI2.
  EXPECT_EQ(r["ConsumedCapacity"], Gsi2Read(0.5));
}

// 15. getInvoiceByCustomerIdForDateRange, as revised in _14: Query GSI2
// GSI2-PK=customerId AND GSI2-SK BETWEEN date1 AND date2, filter
// EntityType = "invoice". The range holds the invoice and both orderItems
// (3 read, 1 returned).
TEST_F(OnlineShopTest, P15_GetInvoiceByCustomerIdForDateRange) {
  Json extra = {{"FilterExpression", "#t = :type"},
                {"ExpressionAttributeNames", {{"#t", "EntityType"}}}};
  Json values = {{":c", S("c#12345")},
                 {":d1", S("2020-06-01")},
                 {":d2", S("2020-06-30")},
                 {":type", S("invoice")}};
  extra["ExpressionAttributeValues"] = values;
  Json r = Query("GSI2", "#pk = :c AND #sk BETWEEN :d1 AND :d2", "GSI2-PK", "GSI2-SK",
                 values, extra);
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 i#55443"));
  EXPECT_EQ(r["ScannedCount"], 3);
  ExpectItemsAsInFile(r["Items"]);
  // 3 GSI2 entries read before the filter (the invoice and both order
  // lines): 261 + 134 + 133 = 528 B -> 1 x 4 KB -> 0.5 RCU on GSI2.
  EXPECT_EQ(SizeOf(FileItem("o#12345", "i#55443")), 261);
  EXPECT_EQ(SizeOf(FileItem("o#12345", "p#12345")), 134);
  EXPECT_EQ(SizeOf(FileItem("o#12345", "p#99887")), 133);
  EXPECT_EQ(r["ConsumedCapacity"], Gsi2Read(0.5));
  // The repository's example range (June 1-15) ends before the order.
  values[":d2"] = S("2020-06-15");
  extra["ExpressionAttributeValues"] = values;
  r = Query("GSI2", "#pk = :c AND #sk BETWEEN :d1 AND :d2", "GSI2-PK", "GSI2-SK",
            values, extra);
  EXPECT_THAT(r["Items"], IsEmpty());
  EXPECT_EQ(r["ScannedCount"], 0);
  // Nothing read: 0 B -> at least 1 x 4 KB -> 0.5 RCU on GSI2.
  EXPECT_EQ(r["ConsumedCapacity"], Gsi2Read(0.5));
}

// 16. getProductsByCustomerIdForDateRange, as revised in _14: the same
// range with EntityType = "orderItem": both order lines, in GSI2-SK order.
TEST_F(OnlineShopTest, P16_GetProductsByCustomerIdForDateRange) {
  Json values = {{":c", S("c#12345")},
                 {":d1", S("2020-06-01")},
                 {":d2", S("2020-06-30")},
                 {":type", S("orderItem")}};
  Json extra = {{"FilterExpression", "#t = :type"},
                {"ExpressionAttributeNames", {{"#t", "EntityType"}}}};
  Json r = Query("GSI2", "#pk = :c AND #sk BETWEEN :d1 AND :d2", "GSI2-PK", "GSI2-SK",
                 values, extra);
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 p#12345", "o#12345 p#99887"));
  EXPECT_EQ(r["Items"][0]["GSI2-SK"], S("2020-06-21T19:18:00"));
  EXPECT_EQ(r["Items"][1]["GSI2-SK"], S("2020-06-21T19:20:00"));
  ExpectItemsAsInFile(r["Items"]);
  // The same 3 entries read as pattern 15 (the invoice filtered out):
  // 261 + 134 + 133 = 528 B -> 1 x 4 KB -> 0.5 RCU on GSI2.
  EXPECT_EQ(r["ScannedCount"], 3);
  EXPECT_EQ(SizeOf(FileItem("o#12345", "i#55443")), 261);
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(134, 133));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi2Read(0.5));
}

// Patterns 15 and 16 exactly as the seed document writes them, on
// AnOnlineShop_13.json, whose GSI2-SK values carry the "i#" / "p#" prefix.
class OnlineShopPrefixedDatesTest : public OnlineShopTest {
 protected:
  void SetUp() override { Load("an-online-shop/AnOnlineShop_13.json"); }
};

// 15. GSI2-PK=customerId AND GSI2-SK BETWEEN "i#date1" AND "i#date2".
TEST_F(OnlineShopPrefixedDatesTest, P15_InvoicesBetweenPrefixedDates) {
  Json r = Query("GSI2", "#pk = :c AND #sk BETWEEN :d1 AND :d2", "GSI2-PK", "GSI2-SK",
                 {{":c", S("c#12345")},
                  {":d1", S("i#2020-06-01")},
                  {":d2", S("i#2020-06-30")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 i#55443"));
  EXPECT_EQ(r["Items"][0]["GSI2-SK"], S("i#2020-06-21T19:18:00"));
  ExpectItemsAsInFile(r["Items"]);
  // 1 GSI2 entry read (_13's invoice, 2 B more GSI2-SK): 263 B -> 1 x 4 KB
  // -> 0.5 RCU on GSI2.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(263));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi2Read(0.5));
}

// 16. GSI2-PK=customerId AND GSI2-SK BETWEEN "p#date1" AND "p#date2".
TEST_F(OnlineShopPrefixedDatesTest, P16_ProductsBetweenPrefixedDates) {
  Json r = Query("GSI2", "#pk = :c AND #sk BETWEEN :d1 AND :d2", "GSI2-PK", "GSI2-SK",
                 {{":c", S("c#12345")},
                  {":d1", S("p#2020-06-21T19:19:00")},
                  {":d2", S("p#2020-06-30")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 p#99887"));
  // 1 GSI2 entry read: 135 B -> 1 x 4 KB -> 0.5 RCU on GSI2.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(135));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi2Read(0.5));
  r = Query("GSI2", "#pk = :c AND #sk BETWEEN :d1 AND :d2", "GSI2-PK", "GSI2-SK",
            {{":c", S("c#12345")}, {":d1", S("p#2020-06-01")}, {":d2", S("p#2020-06-30")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("o#12345 p#12345", "o#12345 p#99887"));
  ExpectItemsAsInFile(r["Items"]);
  // 2 GSI2 entries read: 136 + 135 = 271 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(136, 135));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi2Read(0.5));
}

}  // namespace
}  // namespace dynarock::scenarios
