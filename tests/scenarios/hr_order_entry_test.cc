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
//
// Every request asks for ReturnConsumedCapacity = INDEXES and each test
// checks the exact units, the arithmetic in a comment: item sizes by
// DynamoDB's rule (names + values; a Number is 1 byte per 2 significant
// digits + 1, so Salary 50000 is 6 + 2 B; checked with FileSizes), a
// Query's items summed and rounded up once to 4 KB (at least one unit),
// 0.5 RCU per 4 KB eventually consistent; gsi1 and gsi2 project ALL, their
// reads are eventually consistent and listed under the index (Table 0).
// A scatter/gather over shards pays the 1-unit minimum on every query.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <map>

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
                {"Key", {{"PK", S(pk)}, {"SK", S(sk)}}},
                {"ReturnConsumedCapacity", "INDEXES"}};
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
                {"ExpressionAttributeValues", values},
                {"ReturnConsumedCapacity", "INDEXES"}};
    if (!index.empty()) req["IndexName"] = index;
    for (const auto& [k, v] : extra.items()) req[k] = v;
    req["ExpressionAttributeNames"] = names;
    return Call("Query", req);
  }

  // What reads of the table, gsi1 and gsi2 consume.
  static Json TableRead(double units) { return Consumed("HR-Table", units); }
  static Json Gsi1Read(double units) { return IndexRead("HR-Table", "gsi1", units); }
  static Json Gsi2Read(double units) { return IndexRead("HR-Table", "gsi2", units); }
};

// The load: 12 items, each <= 79 B -> 1 x 1 KB: 12 WCU on the table;
// every item has SK and Data, so 12 gsi1 entries (12 WCU); the two order
// lines with GSI-Bucket make 2 gsi2 entries (2 WCU); 26 in all.
TEST_F(HrOrderEntryTest, LoadConsumesOneWcuPerItemAndPerIndexEntry) {
  int64_t largest = 0;
  for (const auto& item : plan_.tables[0].items) largest = std::max(largest, SizeOf(item.item));
  EXPECT_EQ(largest, 79);
  EXPECT_EQ(load_wcu_["HR-Table"],
            (std::map<std::string, double>{{"Table", 12}, {"gsi1", 12}, {"gsi2", 2}}));
}

// 1. Look up employee details by employee ID: GetItem PK=HR-EMPLOYEE1,
// SK=EMPLOYEE1.
TEST_F(HrOrderEntryTest, P01_EmployeeByEmployeeId) {
  Json r = Get("HR-EMPLOYEE1", "EMPLOYEE1");
  EXPECT_EQ(r["Item"], Json::parse(R"({"PK": {"S": "HR-EMPLOYEE1"}, "SK": {"S": "EMPLOYEE1"},
      "Data": {"S": "John Smith"}, "StartDate": {"S": "01-12-2019"}})"));
  // 1 item: 58 B -> 1 x 4 KB -> 0.5 RCU eventually consistent.
  EXPECT_EQ(SizeOf(r["Item"]), 58);
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
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
  // 1 gsi1 entry read (the prefix bounds the range): 58 B -> 1 x 4 KB ->
  // 0.5 RCU on gsi1.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(58));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
}

// 3. An employee's current job details only: PK=HR-EMPLOYEE1 AND SK
// begins_with "v0" (the current version of the job-history items).
TEST_F(HrOrderEntryTest, P03_CurrentJobOfAnEmployee) {
  Json r = Query("", "#pk = :e AND begins_with(#sk, :v)",
                 {{":e", S("HR-EMPLOYEE1")}, {":v", S("v0")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("HR-EMPLOYEE1 v0"));
  EXPECT_EQ(r["Items"][0]["Data"], S("Principle Account Manager"));
  // 1 item read: 47 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(47));
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
}

// 4. Open orders of a customer in a date range: gsi1 SK=CUSTOMER1 AND Data
// begins_with "OPEN#2019-01". The customer's own item (Data "Ace Building
// Supplies") is in the partition but not the range.
TEST_F(HrOrderEntryTest, P04_OpenOrdersOfACustomerInADateRange) {
  Json r = Query("gsi1", "#pk = :c AND begins_with(#d, :open)",
                 {{":c", S("CUSTOMER1")}, {":open", S("OPEN#2019-01")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("OE-ORDER1 CUSTOMER1"));
  EXPECT_EQ(r["Items"][0]["Data"], S("OPEN#2019-01-18"));
  // 1 gsi1 entry read: 59 B -> 1 x 4 KB -> 0.5 RCU on gsi1.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(59));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
  r = Query("gsi1", "#pk = :c", {{":c", S("CUSTOMER1")}});
  EXPECT_THAT(Keys(r["Items"]),
              ElementsAre("OE-CUSTOMER1 CUSTOMER1", "OE-ORDER1 CUSTOMER1"));  // "A" < "O"
  // 2 gsi1 entries read: 66 + 59 = 125 B -> 1 x 4 KB -> 0.5 RCU on gsi1.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(66, 59));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
}

// 5. All OPEN orders in a date range across customers: gsi2 is
// write-sharded, so every shard key is queried (the file's two order items
// are in Bucket-6 and Bucket-4) with Data BETWEEN "OPEN#2019-01" AND
// "OPEN#2019-02".
TEST_F(HrOrderEntryTest, P05_AllOpenOrdersInADateRange) {
  std::vector<std::string> all;
  std::vector<int64_t> sizes;
  double units = 0;
  for (int shard = 0; shard < 15; ++shard) {
    Json r = Query("gsi2", "#pk = :b AND #d BETWEEN :from AND :to",
                   {{":b", S("Bucket-" + std::to_string(shard))},
                    {":from", S("OPEN#2019-01")},
                    {":to", S("OPEN#2019-02")}});
    for (const std::string& k : Keys(r["Items"])) all.push_back(k);
    for (int64_t size : FileSizes(r["Items"])) sizes.push_back(size);
    // Each shard: at most 73 B read -> 1 x 4 KB -> 0.5 RCU on gsi2.
    EXPECT_EQ(r["ConsumedCapacity"], Gsi2Read(0.5)) << shard;
    units += r["ConsumedCapacity"]["CapacityUnits"].get<double>();
  }
  EXPECT_THAT(all, ElementsAre("OE-ORDER1 PRODUCT1", "OE-ORDER1 CUSTOMER1"));
  EXPECT_THAT(sizes, ElementsAre(73, 59));
  // 15 queries x 0.5 RCU = 7.5 RCU for 2 items: 13 shards pay the minimum
  // for reading nothing.
  EXPECT_EQ(units, 7.5);
}

// 6. All employees hired recently: gsi1 SK=HR-CONFIDENTIAL AND
// Data > "2019-01-01" (the hire date).
TEST_F(HrOrderEntryTest, P06_EmployeesHiredRecently) {
  Json r = Query("gsi1", "#pk = :h AND #d > :since",
                 {{":h", S("HR-CONFIDENTIAL")}, {":since", S("2019-01-01")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("HR-EMPLOYEE1 HR-CONFIDENTIAL"));
  EXPECT_EQ(r["Items"][0]["Salary"], Json({{"N", "50000"}}));
  // 1 gsi1 entry read: 71 B (Salary 50000: 6 + 1 digit "5" -> 2 = 8 B) ->
  // 1 x 4 KB -> 0.5 RCU on gsi1.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(71));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
  r = Query("gsi1", "#pk = :h AND #d > :since",
            {{":h", S("HR-CONFIDENTIAL")}, {":since", S("2019-02-12")}});
  EXPECT_THAT(r["Items"], IsEmpty());  // > is strict
  // Nothing read: 0 B -> at least 1 x 4 KB -> 0.5 RCU on gsi1.
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
}

// 7. All employees in a warehouse: gsi1 SK=WAREHOUSE1.
TEST_F(HrOrderEntryTest, P07_EmployeesInAWarehouse) {
  Json r = Query("gsi1", "#pk = :w", {{":w", S("WAREHOUSE1")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("HR-EMPLOYEE1 WAREHOUSE1"));
  ExpectItemsAsInFile(r["Items"]);
  // 1 gsi1 entry read: 63 B -> 1 x 4 KB -> 0.5 RCU on gsi1.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(63));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
}

// 8. All order items of a product, with the warehouse inventories: gsi1
// SK=PRODUCT1 gives the order line (Data "OPEN#...") and the product item
// (Data "Quickcrete ...", with Warehouse1/2); the spec's filter
// attribute_exists(Warehouse1) keeps the inventory only.
TEST_F(HrOrderEntryTest, P08_OrderItemsOfAProductWithInventories) {
  Json r = Query("gsi1", "#pk = :p", {{":p", S("PRODUCT1")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("OE-ORDER1 PRODUCT1", "OE-PRODUCT1 PRODUCT1"));
  ExpectItemsAsInFile(r["Items"]);
  // 2 gsi1 entries read: 73 + 79 = 152 B -> 1 x 4 KB -> 0.5 RCU on gsi1.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(73, 79));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
  r = Query("gsi1", "#pk = :p", {{":p", S("PRODUCT1")}},
            {{"FilterExpression", "attribute_exists(Warehouse1)"}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("OE-PRODUCT1 PRODUCT1"));
  EXPECT_EQ(r["ScannedCount"], 2);
  // The filter runs after the read: the same 73 + 79 = 152 B -> 0.5 RCU.
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
}

// 9. Customers by account rep: gsi1 SK=EMPLOYEE1, filter
// attribute_exists(Address). Data orders the partition: "Ace ..." <
// "John Smith" < "OPEN#...".
TEST_F(HrOrderEntryTest, P09_CustomersByAccountRep) {
  Json r = Query("gsi1", "#pk = :e", {{":e", S("EMPLOYEE1")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("OE-CUSTOMER1 EMPLOYEE1", "HR-EMPLOYEE1 EMPLOYEE1",
                                            "OE-ORDER1 EMPLOYEE1"));
  // 3 gsi1 entries read: 66 + 58 + 53 = 177 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(66, 58, 53));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
  r = Query("gsi1", "#pk = :e", {{":e", S("EMPLOYEE1")}},
            {{"FilterExpression", "attribute_exists(Address)"}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("OE-CUSTOMER1 EMPLOYEE1"));
  EXPECT_EQ(r["Items"][0]["Address"], S("1600 Penn"));
  // Filtered after the read: the same 3 entries, 177 B -> 0.5 RCU.
  EXPECT_EQ(r["ScannedCount"], 3);
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
}

// 10. Orders by account rep and date: gsi1 SK=EMPLOYEE1 AND Data =
// "<STATUS>#2019-01-12", scatter/gather over OPEN, PENDING, FULFILLED.
TEST_F(HrOrderEntryTest, P10_OrdersByAccountRepAndDate) {
  std::vector<std::string> all;
  for (const char* status : {"OPEN", "PENDING", "FULFILLED"}) {
    Json r = Query("gsi1", "#pk = :e AND #d = :sd",
                   {{":e", S("EMPLOYEE1")}, {":sd", S(std::string(status) + "#2019-01-12")}});
    for (const std::string& k : Keys(r["Items"])) all.push_back(k);
    // OPEN: 53 B read, PENDING and FULFILLED: 0 B; each -> 1 x 4 KB ->
    // 0.5 RCU on gsi1: 1.5 RCU for the scatter/gather.
    EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5)) << status;
  }
  EXPECT_THAT(all, ElementsAre("OE-ORDER1 EMPLOYEE1"));
  EXPECT_EQ(SizeOf(FileItem("OE-ORDER1", "EMPLOYEE1")), 53);
}

// 11. All employees with a job title: gsi1 SK=v0 (the current job items),
// Data is the title.
TEST_F(HrOrderEntryTest, P11_EmployeesWithAJobTitle) {
  Json r = Query("gsi1", "#pk = :v AND #d = :title",
                 {{":v", S("v0")}, {":title", S("Principle Account Manager")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("HR-EMPLOYEE1 v0"));
  // 1 gsi1 entry read: 47 B -> 1 x 4 KB -> 0.5 RCU on gsi1.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(47));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
  r = Query("gsi1", "#pk = :v", {{":v", S("v0")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("HR-EMPLOYEE1 v0"));
  // The same 47 B -> 0.5 RCU on gsi1.
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
}

// 12. Inventory of a product in a warehouse: GetItem PK=OE-PRODUCT1,
// SK=PRODUCT1, projecting the warehouse's attribute.
TEST_F(HrOrderEntryTest, P12_InventoryByProductAndWarehouse) {
  Json r = Get("OE-PRODUCT1", "PRODUCT1", {{"ProjectionExpression", "Warehouse1"}});
  EXPECT_EQ(r["Item"], Json::parse(R"({"Warehouse1": {"N": "46"}})"));
  // The projection does not reduce the cost: the whole item, 79 B -> 1 x
  // 4 KB -> 0.5 RCU.
  EXPECT_EQ(SizeOf(FileItem("OE-PRODUCT1", "PRODUCT1")), 79);
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
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
  // 1 item: 79 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_EQ(SizeOf(r["Item"]), 79);
  EXPECT_EQ(r["ConsumedCapacity"], TableRead(0.5));
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
  // 2 gsi1 entries read: 54 + 55 = 109 B -> 1 x 4 KB -> 0.5 RCU on gsi1.
  EXPECT_THAT(FileSizes(r["Items"]), ElementsAre(54, 55));
  EXPECT_EQ(r["ConsumedCapacity"], Gsi1Read(0.5));
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
    const Json item = {{"PK", S(o.id)},
                       {"SK", S("CUSTOMER2")},
                       {"Data", S(o.status_date)},
                       {"GSI-Bucket", S("Bucket-" + std::to_string(o.shard))}};
    Json r = Call("PutItem", {{"TableName", "HR-Table"},
                              {"Item", item},
                              {"ReturnConsumedCapacity", "INDEXES"}});
    // A new item of at most 2 + 10 + 2 + 9 + 4 + 20 + 10 + 9 = 66 B -> 1 x
    // 1 KB -> 1 WCU on the table, and a new entry (the whole item) in gsi1
    // (SK, Data) and gsi2 (GSI-Bucket, Data): 1 WCU each; 3 in all.
    EXPECT_LE(SizeOf(item), 66);
    EXPECT_EQ(r["ConsumedCapacity"], Consumed("HR-Table", 1, {{"gsi1", 1}, {"gsi2", 1}}))
        << o.id;
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
  double units = 0;
  for (auto& reply : replies) {
    const Json r = reply.get();
    for (const std::string& k : Keys(r["Items"])) gathered.push_back(k);
    // Each shard reads at most 2 entries of <= 73 B -> 1 x 4 KB -> 0.5 RCU.
    EXPECT_EQ(r["ConsumedCapacity"], Gsi2Read(0.5));
    units += r["ConsumedCapacity"]["CapacityUnits"].get<double>();
  }
  // 15 shards x 0.5 RCU = 7.5 RCU on gsi2.
  EXPECT_EQ(units, 7.5);
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
