// tests/scenarios/online_library_test.cc
//
// The online library of seed document 001 ("How to do single-table design
// with DynamoDB"): authors, categories and books in one table under PK/SK
// ("AUTH#<name>", "CAT#<name>", "BOOK#<isbn>"), the author's books as an
// item collection (the single-table join), a GSI GS1PK/GS1SK for books by
// category, and a reservation as a map attribute of the book. No data file
// exists for it, so the test writes the items. GS1 is overloaded, as in the
// HR example, to find a book by title: each author-book edge item carries
// GS1PK = "TITLE#<title>".
//
// One test per access pattern, with the exact items expected in order and
// the exact capacity consumed (ReturnConsumedCapacity = INDEXES), the
// arithmetic in a comment: item sizes by DynamoDB's rule (names + values,
// checked with SizeOf), a Query's items summed and rounded up once to 4 KB,
// 0.5 RCU per 4 KB eventually consistent (GSI reads always are); a write
// max(old, new) rounded up to 1 KB, plus 1 KB per GS1 entry it changes
// (GS1 projects ALL, so every change to an indexed book changes its entry).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/scenarios/scenario_test_util.h"

namespace dynarock::scenarios {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

Json S(const std::string& s) { return {{"S", s}}; }

class OnlineLibraryTest : public ScenarioTest {
 protected:
  void SetUp() override {
    Call("CreateTable", Json::parse(R"({
      "TableName": "Library", "BillingMode": "PAY_PER_REQUEST",
      "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"},
                    {"AttributeName": "SK", "KeyType": "RANGE"}],
      "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"},
                               {"AttributeName": "SK", "AttributeType": "S"},
                               {"AttributeName": "GS1PK", "AttributeType": "S"},
                               {"AttributeName": "GS1SK", "AttributeType": "S"}],
      "GlobalSecondaryIndexes": [{"IndexName": "GS1",
        "KeySchema": [{"AttributeName": "GS1PK", "KeyType": "HASH"},
                      {"AttributeName": "GS1SK", "KeyType": "RANGE"}],
        "Projection": {"ProjectionType": "ALL"}}]})"));
    const char* items[] = {
        // Authors and their books (item collections keyed by author).
        R"({"PK": {"S": "AUTH#Tolkien_JRR"}, "SK": {"S": "AUTH#Tolkien_JRR"},
            "Name": {"S": "J.R.R. Tolkien"}})",
        R"({"PK": {"S": "AUTH#Tolkien_JRR"}, "SK": {"S": "BOOK#12355"},
            "Title": {"S": "The Hobbit"},
            "GS1PK": {"S": "TITLE#The Hobbit"}, "GS1SK": {"S": "BOOK#12355"}})",
        R"({"PK": {"S": "AUTH#Tolkien_JRR"}, "SK": {"S": "BOOK#12356"},
            "Title": {"S": "The Silmarillion"},
            "GS1PK": {"S": "TITLE#The Silmarillion"}, "GS1SK": {"S": "BOOK#12356"}})",
        R"({"PK": {"S": "AUTH#Herbert_Frank"}, "SK": {"S": "AUTH#Herbert_Frank"},
            "Name": {"S": "Frank Herbert"}})",
        R"({"PK": {"S": "AUTH#Herbert_Frank"}, "SK": {"S": "BOOK#23456"},
            "Title": {"S": "Dune"},
            "GS1PK": {"S": "TITLE#Dune"}, "GS1SK": {"S": "BOOK#23456"}})",
        // Categories.
        R"({"PK": {"S": "CAT#Fantasy"}, "SK": {"S": "CAT#Fantasy"}, "Name": {"S": "Fantasy"}})",
        R"({"PK": {"S": "CAT#SciFi"}, "SK": {"S": "CAT#SciFi"}, "Name": {"S": "Science fiction"}})",
        // Books; the category's GSI collection holds them in ISBN order.
        R"({"PK": {"S": "BOOK#12355"}, "SK": {"S": "BOOK#12355"}, "Title": {"S": "The Hobbit"},
            "Author": {"S": "Tolkien_JRR"}, "GS1PK": {"S": "CAT#Fantasy"},
            "GS1SK": {"S": "BOOK#12355"}})",
        R"({"PK": {"S": "BOOK#12356"}, "SK": {"S": "BOOK#12356"},
            "Title": {"S": "The Silmarillion"}, "Author": {"S": "Tolkien_JRR"},
            "GS1PK": {"S": "CAT#Fantasy"}, "GS1SK": {"S": "BOOK#12356"},
            "Reservation": {"M": {"Member": {"S": "m#7"}, "Until": {"S": "2024-05-01"}}}})",
        R"({"PK": {"S": "BOOK#23456"}, "SK": {"S": "BOOK#23456"}, "Title": {"S": "Dune"},
            "Author": {"S": "Herbert_Frank"}, "GS1PK": {"S": "CAT#SciFi"},
            "GS1SK": {"S": "BOOK#23456"}})",
    };
    Json requests = Json::array();
    for (const char* item : items) {
      requests.push_back({{"PutRequest", {{"Item", Json::parse(item)}}}});
    }
    Json r = Call("BatchWriteItem", {{"RequestItems", {{"Library", requests}}},
                                     {"ReturnConsumedCapacity", "INDEXES"}});
    // 10 puts, each item <= 133 B -> 1 x 1 KB: 10 WCU on the table; 6 of
    // them (3 author-book edges, 3 books) add a GS1 entry <= 133 B -> 6 x 1
    // WCU on GS1; 16 in all.
    for (const char* item : items) EXPECT_LE(SizeOf(Json::parse(item)), 133);
    EXPECT_EQ(r["ConsumedCapacity"],
              Json::array({Consumed("Library", 10, {{"GS1", 6}})}));
    WaitForIndexes();
  }

  Json Query(const std::string& index, const std::string& condition, const Json& names,
             const Json& values) {
    Json req = {{"TableName", "Library"},
                {"KeyConditionExpression", condition},
                {"ExpressionAttributeValues", values}};
    if (!names.empty()) req["ExpressionAttributeNames"] = names;  // never {}
    if (!index.empty()) req["IndexName"] = index;
    req["ReturnConsumedCapacity"] = "INDEXES";
    return Call("Query", req);
  }

  Json GetBook(const std::string& isbn) {
    return Call("GetItem", {{"TableName", "Library"},
                            {"Key", {{"PK", S("BOOK#" + isbn)}, {"SK", S("BOOK#" + isbn)}}},
                            {"ReturnConsumedCapacity", "INDEXES"}});
  }

  // Reserves the book for `member` until `until` if nobody holds it.
  api::Response Reserve(const std::string& isbn, const std::string& member,
                        const std::string& until) {
    Json req = {{"TableName", "Library"},
                {"Key", {{"PK", S("BOOK#" + isbn)}, {"SK", S("BOOK#" + isbn)}}},
                {"UpdateExpression", "SET Reservation = :r"},
                {"ConditionExpression", "attribute_exists(PK) AND attribute_not_exists(Reservation)"},
                {"ExpressionAttributeValues",
                 {{":r", {{"M", {{"Member", S(member)}, {"Until", S(until)}}}}}}},
                {"ReturnValues", "ALL_NEW"},
                {"ReturnConsumedCapacity", "INDEXES"}};
    return client_.Call("UpdateItem", req.dump());
  }
};

// Books of an author: Query PK = "AUTH#<name>": the author item first
// ("AUTH#" < "BOOK#"), then the books.
TEST_F(OnlineLibraryTest, BooksByAuthor) {
  Json r = Query("", "PK = :a", Json::object(), {{":a", S("AUTH#Tolkien_JRR")}});
  EXPECT_THAT(Keys(r["Items"]),
              ElementsAre("AUTH#Tolkien_JRR AUTH#Tolkien_JRR", "AUTH#Tolkien_JRR BOOK#12355",
                          "AUTH#Tolkien_JRR BOOK#12356"));
  // 3 items read: 54 + 81 + 93 = 228 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_EQ(SizeOf(r["Items"][0]) + SizeOf(r["Items"][1]) + SizeOf(r["Items"][2]), 228);
  EXPECT_EQ(r["ConsumedCapacity"], Consumed("Library", 0.5));
  // Only the books: SK begins_with "BOOK#".
  r = Query("", "PK = :a AND begins_with(SK, :b)", Json::object(),
            {{":a", S("AUTH#Tolkien_JRR")}, {":b", S("BOOK#")}});
  EXPECT_THAT(Keys(r["Items"]),
              ElementsAre("AUTH#Tolkien_JRR BOOK#12355", "AUTH#Tolkien_JRR BOOK#12356"));
  EXPECT_EQ(r["Items"][1]["Title"], S("The Silmarillion"));
  // 2 items read: 81 + 93 = 174 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_EQ(SizeOf(r["Items"][0]), 81);
  EXPECT_EQ(SizeOf(r["Items"][1]), 93);
  EXPECT_EQ(r["ConsumedCapacity"], Consumed("Library", 0.5));
}

// Books of a category: Query GS1 GS1PK = "CAT#<name>".
TEST_F(OnlineLibraryTest, BooksByCategory) {
  Json r = Query("GS1", "GS1PK = :c", Json::object(), {{":c", S("CAT#Fantasy")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("BOOK#12355 BOOK#12355", "BOOK#12356 BOOK#12356"));
  // 2 GS1 entries read (ALL projected): 87 + 133 = 220 B -> 1 x 4 KB ->
  // 0.5 RCU on GS1, 0 on the table.
  EXPECT_EQ(SizeOf(r["Items"][0]), 87);
  EXPECT_EQ(SizeOf(r["Items"][1]), 133);
  EXPECT_EQ(r["ConsumedCapacity"], IndexRead("Library", "GS1", 0.5));
  r = Query("GS1", "GS1PK = :c", Json::object(), {{":c", S("CAT#SciFi")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("BOOK#23456 BOOK#23456"));
  // 1 GS1 entry read: 81 B -> 1 x 4 KB -> 0.5 RCU on GS1.
  EXPECT_EQ(SizeOf(r["Items"][0]), 81);
  EXPECT_EQ(r["ConsumedCapacity"], IndexRead("Library", "GS1", 0.5));
  r = Query("GS1", "GS1PK = :c", Json::object(), {{":c", S("CAT#Poetry")}});
  EXPECT_THAT(r["Items"], IsEmpty());
  // Nothing read: 0 B -> at least 1 x 4 KB -> 0.5 RCU on GS1.
  EXPECT_EQ(r["ConsumedCapacity"], IndexRead("Library", "GS1", 0.5));
}

// A book by ISBN: GetItem PK = SK = "BOOK#<isbn>".
TEST_F(OnlineLibraryTest, BookByIsbn) {
  Json r = GetBook("23456");
  EXPECT_EQ(r["Item"], Json::parse(R"({"PK": {"S": "BOOK#23456"}, "SK": {"S": "BOOK#23456"},
      "Title": {"S": "Dune"}, "Author": {"S": "Herbert_Frank"},
      "GS1PK": {"S": "CAT#SciFi"}, "GS1SK": {"S": "BOOK#23456"}})"));
  // 1 item: 81 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_EQ(SizeOf(r["Item"]), 81);
  EXPECT_EQ(r["ConsumedCapacity"], Consumed("Library", 0.5));
}

// A book by title: Query GS1 GS1PK = "TITLE#<title>" finds the author-book
// edge, whose GS1SK is the book's key.
TEST_F(OnlineLibraryTest, BookByTitle) {
  Json r = Query("GS1", "GS1PK = :t", Json::object(), {{":t", S("TITLE#The Hobbit")}});
  EXPECT_THAT(Keys(r["Items"]), ElementsAre("AUTH#Tolkien_JRR BOOK#12355"));
  EXPECT_EQ(r["Items"][0]["GS1SK"], S("BOOK#12355"));
  // 1 GS1 entry read: 81 B -> 1 x 4 KB -> 0.5 RCU on GS1.
  EXPECT_EQ(SizeOf(r["Items"][0]), 81);
  EXPECT_EQ(r["ConsumedCapacity"], IndexRead("Library", "GS1", 0.5));
  // Titles are exact keys, not a text search (the post's point).
  r = Query("GS1", "GS1PK = :t", Json::object(), {{":t", S("TITLE#the hobbit")}});
  EXPECT_THAT(r["Items"], IsEmpty());
  // Nothing read: 0 B -> at least 1 x 4 KB -> 0.5 RCU on GS1.
  EXPECT_EQ(r["ConsumedCapacity"], IndexRead("Library", "GS1", 0.5));
}

// Reserving a book: UpdateItem sets the Reservation map only if the book
// exists and is not reserved; a reserved book's reservation is extended by
// updating one member of the map under a condition on another.
TEST_F(OnlineLibraryTest, ReserveABook) {
  api::Response first = Reserve("12355", "m#1", "2024-06-01");
  ASSERT_TRUE(first.ok()) << first.body;
  EXPECT_EQ(Json::parse(first.body)["Attributes"]["Reservation"],
            Json::parse(R"({"M": {"Member": {"S": "m#1"}, "Until": {"S": "2024-06-01"}}})"));
  // The Hobbit grows from 87 B to 127 B (+ "Reservation" map: 11 + 3 +
  // (1 + 6 + 3) + (1 + 5 + 10) = 40 B): max(87, 127) = 127 B -> 1 x 1 KB
  // -> 1 WCU on the table; its GS1 entry (ALL) changes from 87 B to 127 B
  // under the same key -> 1 x 1 KB -> 1 WCU on GS1; 2 in all.
  EXPECT_EQ(SizeOf(Json::parse(first.body)["Attributes"]), 127);
  EXPECT_EQ(Json::parse(first.body)["ConsumedCapacity"],
            Consumed("Library", 1, {{"GS1", 1}}));

  // Taken now: the condition fails and nothing changes. The error shows
  // no ConsumedCapacity (DynamoDB's errors carry none).
  api::Response second = Reserve("12355", "m#2", "2024-06-02");
  EXPECT_EQ(second.http_status, 400);
  EXPECT_EQ(Json::parse(second.body)["__type"],
            "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException");
  EXPECT_FALSE(Json::parse(second.body).contains("ConsumedCapacity"));
  Json hobbit = GetBook("12355");
  EXPECT_EQ(hobbit["Item"]["Reservation"]["M"]["Member"], S("m#1"));
  // 1 item: 127 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_EQ(hobbit["ConsumedCapacity"], Consumed("Library", 0.5));

  // The Silmarillion was reserved in the data already.
  EXPECT_EQ(Reserve("12356", "m#1", "2024-06-01").http_status, 400);
  // No such book: attribute_exists(PK) keeps UpdateItem from creating one.
  EXPECT_EQ(Reserve("99999", "m#1", "2024-06-01").http_status, 400);
  Json missing = GetBook("99999");
  EXPECT_FALSE(missing.contains("Item"));
  // A missing item still costs 1 x 4 KB -> 0.5 RCU.
  EXPECT_EQ(missing["ConsumedCapacity"], Consumed("Library", 0.5));

  // The holder extends the reservation: SET Reservation.Until, on the
  // condition that Reservation.Member is the holder.
  Json extend = {{"TableName", "Library"},
                 {"Key", {{"PK", S("BOOK#12356")}, {"SK", S("BOOK#12356")}}},
                 {"UpdateExpression", "SET Reservation.#u = :until"},
                 // MEMBER and UNTIL are DynamoDB reserved words.
                 {"ConditionExpression", "Reservation.#m = :m"},
                 {"ExpressionAttributeNames", {{"#u", "Until"}, {"#m", "Member"}}},
                 {"ExpressionAttributeValues", {{":until", S("2024-05-15")}, {":m", S("m#7")}}},
                 {"ReturnValues", "UPDATED_NEW"},
                 {"ReturnConsumedCapacity", "INDEXES"}};
  Json r = Call("UpdateItem", extend);
  EXPECT_EQ(r["Attributes"],
            Json::parse(R"({"Reservation": {"M": {"Until": {"S": "2024-05-15"}}}})"));
  // The Silmarillion stays 133 B (a 10-byte date for another): max(133,
  // 133) = 133 B -> 1 x 1 KB -> 1 WCU on the table; its GS1 entry's value
  // changes under the same key: 133 B -> 1 x 1 KB -> 1 WCU on GS1.
  EXPECT_EQ(r["ConsumedCapacity"], Consumed("Library", 1, {{"GS1", 1}}));
  extend["ExpressionAttributeValues"][":m"] = S("m#1");  // not the holder
  api::Response refused = client_.Call("UpdateItem", extend.dump());
  EXPECT_EQ(refused.http_status, 400);
  EXPECT_FALSE(Json::parse(refused.body).contains("ConsumedCapacity"));
  Json silmarillion = GetBook("12356");
  EXPECT_EQ(silmarillion["Item"]["Reservation"],
            Json::parse(R"({"M": {"Member": {"S": "m#7"}, "Until": {"S": "2024-05-15"}}})"));
  // 1 item: 133 B -> 1 x 4 KB -> 0.5 RCU.
  EXPECT_EQ(SizeOf(silmarillion["Item"]), 133);
  EXPECT_EQ(silmarillion["ConsumedCapacity"], Consumed("Library", 0.5));
}

}  // namespace
}  // namespace dynarock::scenarios
