// tests/scenarios/hr_order_entry_test.cc
//
// The HR / order-entry example of seed documents 000 / 003 ("Example of
// modeling relational data in DynamoDB"): one table with the adjacency-list
// pattern, GSI overloading (gsi1: SK -> Data) and a write-sharded gsi2
// (GSI-Bucket -> Data). The table and its 12 items come from
// hr-order-entry-relational/relationalModeling.json (a recreation of the
// AWS example, loaded with `dynarock load`'s Loader from its spec format);
// its 14 access patterns are run one test each, with the exact items
// expected in order. Data is a string everywhere, so it sorts as text.
//
// The write sharding of gsi2 is exercised beyond the file's two orders:
// the test adds orders spread over N = 15 shard keys ("Bucket-0" ..
// "Bucket-14"), N chosen with the seed's formula, and gathers the OPEN
// orders of a date range by querying every shard.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>

#include "tests/scenarios/scenario_test_util.h"

namespace dynarock::scenarios {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

class HrOrderEntryTest : public ScenarioTest {
 protected:
  void SetUp() override { Load("hr-order-entry-relational/relationalModeling.json"); }

  static Json S(const std::string& s) { return {{"S", s}}; }

  Json Get(const std::string& pk, const std::string& sk, const Json& extra = {}) {
    Json req = {{"TableName", "HR-Table"},
                {"Key", {{"PK", S(pk)}, {"SK", S(sk)}}}};
    if (extra.is_object()) {
      for (const auto& [k, v] : extra.items()) req[k] = v;
    }
    return Call("GetItem", req);
  }

  // A Query of `index` ("" for the table): `condition` over #pk / #d
  // (Data) / #sk, with `values`; `extra` members are added as given.
  Json Query(const std::string& index, const std::string& condition,
             const Json& values, Json extra = Json::object()) {
    Json names = extra.value("ExpressionAttributeNames", Json::object());
    const std::string pk = index.empty() ? "PK" : index == "gsi1" ? "SK" : "GSI-Bucket";
    names["#pk"] = pk;
    if (condition.find("#d") != std::string::npos) names["#d"] = "Data";
    if (condition.find("#sk") != std::string::npos) names["#sk"] = "SK";
    Json req = {{"TableName", "HR-Table"},
                {"KeyConditionExpression", condition},
                {"ExpressionAttributeValues", values}};
    if (!index.empty()) req["IndexName"] = index;
    for (const auto& [k, v] : extra.items()) req[k] = v;
    req["ExpressionAttributeNames"] = names;
    return Call("Query", req);
  }
};

// 1. Look up employee details by employee ID: GetItem PK=HR-EMPLOYEE1,
// SK=EMPLOYEE1.
TEST_F(HrOrderEntryTest, P01_EmployeeByEmployeeId) {
  Json r = Get("HR-EMPLOYEE1", "EMPLOYEE1");
  EXPECT_EQ(r["Item"], Json::parse(R"({"PK": {"S": "HR-EMPLOYEE1"}, "SK": {"S": "EMPLOYEE1"},
      "Data": {"S": "John Smith"}, "StartDate": {"S": "01-12-2019"}})"));
}

// 2. Query employee details by employee name: gsi1 SK=EMPLOYEE1 AND Data
// begins_with "John". The partition also holds the order and the customer
// that point at EMPLOYEE1 (Data "OPEN#..." / "Ace ..."), which the prefix
// leaves out.
TEST_F(HrOrderEntryTest, P02_EmployeeByName) {
  Json r = Query("gsi1", "#pk = :e AND begins_with(#d, :name)",
                 {{":e", S("EMPLOYEE1")}, {":name", S("John")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("HR-EMPLOYEE1 EMPLOYEE1"));
  ExpectItemsAsInFile(r["Items"]);
}

// 3. An employee's current job details only: PK=HR-EMPLOYEE1 AND SK
// begins_with "v0" (the current version of the job-history items).
TEST_F(HrOrderEntryTest, P03_CurrentJobOfAnEmployee) {
  Json r = Query("", "#pk = :e AND begins_with(#sk, :v)",
                 {{":e", S("HR-EMPLOYEE1")}, {":v", S("v0")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("HR-EMPLOYEE1 v0"));
  EXPECT_EQ(r["Items"][0]["Data"], S("Principle Account Manager"));
}

// 4. Open orders of a customer in a date range: gsi1 SK=CUSTOMER1 AND Data
// begins_with "OPEN#2019-01". The customer's own item (Data "Ace Building
// Supplies") is in the partition but not the range.
TEST_F(HrOrderEntryTest, P04_OpenOrdersOfACustomerInADateRange) {
  Json r = Query("gsi1", "#pk = :c AND begins_with(#d, :open)",
                 {{":c", S("CUSTOMER1")}, {":open", S("OPEN#2019-01")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("OE-ORDER1 CUSTOMER1"));
  EXPECT_EQ(r["Items"][0]["Data"], S("OPEN#2019-01-18"));
  r = Query("gsi1", "#pk = :c", {{":c", S("CUSTOMER1")}});
  EXPECT_THAT(Keys(r["Items"]),
              ElementsAre("OE-CUSTOMER1 CUSTOMER1", "OE-ORDER1 CUSTOMER1"));  // "A" < "O"
}

// 5. All OPEN orders in a date range across customers: gsi2 is
// write-sharded, so every shard key is queried (the file's two order items
// are in Bucket-6 and Bucket-4) with Data BETWEEN "OPEN#2019-01" AND
// "OPEN#2019-02".
TEST_F(HrOrderEntryTest, P05_AllOpenOrdersInADateRange) {
  std::vector<std::string> all;
  for (int shard = 0; shard < 15; ++shard) {
    Json r = Query("gsi2", "#pk = :b AND #d BETWEEN :from AND :to",
                   {{":b", S("Bucket-" + std::to_string(shard))},
                    {":from", S("OPEN#2019-01")},
                    {":to", S("OPEN#2019-02")}});
    for (const std::string& k : Keys(r["Items"])) all.push_back(k);
  }
  EXPECT_THAT(all, ElementsAre("OE-ORDER1 PRODUCT1", "OE-ORDER1 CUSTOMER1"));
}

// 6. All employees hired recently: gsi1 SK=HR-CONFIDENTIAL AND
// Data > "2019-01-01" (the hire date).
TEST_F(HrOrderEntryTest, P06_EmployeesHiredRecently) {
  Json r = Query("gsi1", "#pk = :h AND #d > :since",
                 {{":h", S("HR-CONFIDENTIAL")}, {":since", S("2019-01-01")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("HR-EMPLOYEE1 HR-CONFIDENTIAL"));
  EXPECT_EQ(r["Items"][0]["Salary"], Json({{"N", "50000"}}));
  r = Query("gsi1", "#pk = :h AND #d > :since",
            {{":h", S("HR-CONFIDENTIAL")}, {":since", S("2019-02-12")}});
  EXPECT_THAT(r["Items"], IsEmpty());  // > is strict
}

// 7. All employees in a warehouse: gsi1 SK=WAREHOUSE1.
TEST_F(HrOrderEntryTest, P07_EmployeesInAWarehouse) {
  Json r = Query("gsi1", "#pk = :w", {{":w", S("WAREHOUSE1")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("HR-EMPLOYEE1 WAREHOUSE1"));
  ExpectItemsAsInFile(r["Items"]);
}

// 8. All order items of a product, with the warehouse inventories: gsi1
// SK=PRODUCT1 gives the order line (Data "OPEN#...") and the product item
// (Data "Quickcrete ...", with Warehouse1/2); the spec's filter
// attribute_exists(Warehouse1) keeps the inventory only.
TEST_F(HrOrderEntryTest, P08_OrderItemsOfAProductWithInventories) {
  Json r = Query("gsi1", "#pk = :p", {{":p", S("PRODUCT1")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("OE-ORDER1 PRODUCT1", "OE-PRODUCT1 PRODUCT1"));
  ExpectItemsAsInFile(r["Items"]);
  r = Query("gsi1", "#pk = :p", {{":p", S("PRODUCT1")}},
            {{"FilterExpression", "attribute_exists(Warehouse1)"}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("OE-PRODUCT1 PRODUCT1"));
  EXPECT_EQ(r["ScannedCount"], 2);
}

// 9. Customers by account rep: gsi1 SK=EMPLOYEE1, filter
// attribute_exists(Address). Data orders the partition: "Ace ..." <
// "John Smith" < "OPEN#...".
TEST_F(HrOrderEntryTest, P09_CustomersByAccountRep) {
  Json r = Query("gsi1", "#pk = :e", {{":e", S("EMPLOYEE1")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("OE-CUSTOMER1 EMPLOYEE1", "HR-EMPLOYEE1 EMPLOYEE1",
                                            "OE-ORDER1 EMPLOYEE1"));
  r = Query("gsi1", "#pk = :e", {{":e", S("EMPLOYEE1")}},
            {{"FilterExpression", "attribute_exists(Address)"}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("OE-CUSTOMER1 EMPLOYEE1"));
  EXPECT_EQ(r["Items"][0]["Address"], S("1600 Penn"));
}

// 10. Orders by account rep and date: gsi1 SK=EMPLOYEE1 AND Data =
// "<STATUS>#2019-01-12", scatter/gather over OPEN, PENDING, FULFILLED.
TEST_F(HrOrderEntryTest, P10_OrdersByAccountRepAndDate) {
  std::vector<std::string> all;
  for (const char* status : {"OPEN", "PENDING", "FULFILLED"}) {
    Json r = Query("gsi1", "#pk = :e AND #d = :sd",
                   {{":e", S("EMPLOYEE1")}, {":sd", S(std::string(status) + "#2019-01-12")}});
    for (const std::string& k : Keys(r["Items"])) all.push_back(k);
  }
  EXPECT_THAT(all, ElementsAre("OE-ORDER1 EMPLOYEE1"));
}

// 11. All employees with a job title: gsi1 SK=v0 (the current job items),
// Data is the title.
TEST_F(HrOrderEntryTest, P11_EmployeesWithAJobTitle) {
  Json r = Query("gsi1", "#pk = :v AND #d = :title",
                 {{":v", S("v0")}, {":title", S("Principle Account Manager")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("HR-EMPLOYEE1 v0"));
  r = Query("gsi1", "#pk = :v", {{":v", S("v0")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("HR-EMPLOYEE1 v0"));
}

// 12. Inventory of a product in a warehouse: GetItem PK=OE-PRODUCT1,
// SK=PRODUCT1, projecting the warehouse's attribute.
TEST_F(HrOrderEntryTest, P12_InventoryByProductAndWarehouse) {
  Json r = Get("OE-PRODUCT1", "PRODUCT1", {{"ProjectionExpression", "Warehouse1"}});
  EXPECT_EQ(r["Item"], Json::parse(R"({"Warehouse1": {"N": "46"}})"));
}

// 13. Total inventory of a product: the same item; the sum of its
// Warehouse<N> attributes.
TEST_F(HrOrderEntryTest, P13_TotalProductInventory) {
  Json r = Get("OE-PRODUCT1", "PRODUCT1");
  int total = 0;
  for (const auto& [name, value] : r["Item"].items()) {
    if (name.rfind("Warehouse", 0) == 0) total += std::stoi(value["N"].get<std::string>());
  }
  EXPECT_EQ(total, 58);
}

// 14. Account reps ranked by order total for a sales period: gsi1
// SK=2018-Q4, ScanIndexForward=false. Data holds the totals as strings,
// so they rank as text: "5000" > "10000" (DynamoDB compares S values byte
// by byte); the model would need zero-padded or numeric totals to rank
// by amount.
TEST_F(HrOrderEntryTest, P14_AccountRepsRankedBySalesPeriod) {
  Json r = Query("gsi1", "#pk = :q", {{":q", S("2018-Q4")}}, {{"ScanIndexForward", false}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("HR-EMPLOYEE1 2018-Q4", "HR-EMPLOYEE2 2018-Q4"));
  EXPECT_EQ(r["Items"][0]["Data"], S("5000"));
  EXPECT_EQ(r["Items"][1]["Data"], S("10000"));
}

// The seed's shard count: ItemsPerRCU = 4 KB / average item size;
// PartitionMaxReadRate = 3K * ItemsPerRCU; N = MaxRequiredIO /
// PartitionMaxReadRate, rounded up.
int ShardCount(int avg_item_bytes, int max_required_io) {
  const int items_per_rcu = 4000 / avg_item_bytes;
  const int partition_max_read_rate = 3000 * items_per_rcu;
  return (max_required_io + partition_max_read_rate - 1) / partition_max_read_rate;
}

TEST(HrShardCountTest, TheSeedsWorkedExample) {
  // 3M orders, 20% OPEN, 250 B per order entity: 16 items per RCU, 48K
  // reads per partition, 0.6M / 48K = 12.5 -> 13 (padded to 15 in the
  // seed, as the tests below use).
  EXPECT_EQ(ShardCount(250, 600'000), 13);
}

// 5 (sharded). Orders written with GSI-Bucket = "Bucket-<0..14>", as the
// seed writes a random shard into every order; the OPEN orders of January
// 2019 are gathered by querying the 15 shards in parallel.
TEST_F(HrOrderEntryTest, P05_WriteShardedOpenOrdersGatheredFromEveryShard) {
  struct Order {
    const char* id;
    const char* status_date;
    int shard;
  };
  const Order orders[] = {
      {"OE-ORDER2", "OPEN#2019-01-05", 0},       {"OE-ORDER3", "OPEN#2019-01-25", 1},
      {"OE-ORDER4", "FULFILLED#2019-01-07", 2},  {"OE-ORDER5", "OPEN#2019-02-03", 3},
      {"OE-ORDER6", "OPEN#2018-12-31", 4},       {"OE-ORDER7", "PENDING#2019-01-09", 5},
      {"OE-ORDER8", "OPEN#2019-01-31", 14},      {"OE-ORDER9", "OPEN#2019-01-02", 14},
      {"OE-ORDER10", "OPEN#2019-01-18", 7},      {"OE-ORDER11", "OPEN#2019-02", 9},
  };
  for (const Order& o : orders) {
    Call("PutItem", {{"TableName", "HR-Table"},
                     {"Item", {{"PK", S(o.id)},
                               {"SK", S("CUSTOMER2")},
                               {"Data", S(o.status_date)},
                               {"GSI-Bucket", S("Bucket-" + std::to_string(o.shard))}}}});
  }
  WaitForIndexes();

  constexpr int kShards = 15;
  std::vector<std::future<Json>> replies;
  for (int shard = 0; shard < kShards; ++shard) {
    replies.push_back(std::async(std::launch::async, [this, shard] {
      return Query("gsi2", "#pk = :b AND #d BETWEEN :from AND :to",
                   {{":b", S("Bucket-" + std::to_string(shard))},
                    {":from", S("OPEN#2019-01")},
                    {":to", S("OPEN#2019-02")}});
    }));
  }
  std::vector<std::string> gathered;
  for (auto& reply : replies) {
    for (const std::string& k : Keys(reply.get()["Items"])) gathered.push_back(k);
  }
  // In shard order, each shard in Data order. Left out: FULFILLED and
  // PENDING orders, December 2018, and "OPEN#2019-02-03" (greater than
  // the bound "OPEN#2019-02", which BETWEEN includes itself).
  EXPECT_THAT(gathered,
              ElementsAre("OE-ORDER2 CUSTOMER2", "OE-ORDER3 CUSTOMER2",
                          "OE-ORDER1 PRODUCT1", "OE-ORDER1 CUSTOMER1",
                          "OE-ORDER10 CUSTOMER2", "OE-ORDER11 CUSTOMER2",
                          "OE-ORDER9 CUSTOMER2", "OE-ORDER8 CUSTOMER2"));
}

}  // namespace
}  // namespace dynarock::scenarios
