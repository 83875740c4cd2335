// ExecuteStatement, BatchExecuteStatement and ExecuteTransaction through the
// in-process Client: whole DynamoDB JSON requests and responses, each
// statement costing what its GetItem / Query / Scan / write form costs, and
// DynamoDB's errors (DuplicateItemException, key-less UPDATE, syntax).

#include <gtest/gtest.h>

#include <string>

#include "tests/api/api_test_util.h"

namespace dynarock::api {
namespace {

using nlohmann::json;

class PartiqlOpsTest : public ApiTest {
 protected:
  void SetUp() override {
    CreateTable("tbl", /*range=*/true);
    for (int sk = 1; sk <= 4; ++sk) {
      json put = {{"TableName", "tbl"},
                  {"Item", {{"pk", {{"S", "a"}}}, {"sk", {{"N", std::to_string(sk)}}},
                            {"v", {{"S", "x" + std::to_string(sk)}}}}}};
      ASSERT_EQ(Call("PutItem", put).http_status, 200);
    }
  }
  Reply Statement(const json& body) { return Call("ExecuteStatement", body); }
};

TEST_F(PartiqlOpsTest, SelectByFullKeyIsAGetItem) {
  Reply r = Statement({{"Statement", R"(SELECT v FROM "tbl" WHERE pk = 'a' AND sk = 2)"},
                       {"ReturnConsumedCapacity", "TOTAL"}});
  ASSERT_EQ(r.http_status, 200) << r;
  Reply get = Call("GetItem", R"({"TableName": "tbl", "Key": {"pk": {"S": "a"}, "sk": {"N": "2"}},
                                  "ProjectionExpression": "v", "ReturnConsumedCapacity": "TOTAL"})");
  EXPECT_EQ(r.body, json({{"Items", json::array({get.body["Item"]})},
                          {"ConsumedCapacity", get.body["ConsumedCapacity"]}}));
}

TEST_F(PartiqlOpsTest, SelectByPartitionKeyIsAQueryWithSortKeyRange) {
  Reply r = Statement({{"Statement", "SELECT * FROM tbl WHERE pk = ? AND sk BETWEEN 2 AND 3 ORDER BY sk DESC"},
                       {"Parameters", {{{"S", "a"}}}},
                       {"ReturnConsumedCapacity", "TOTAL"}});
  ASSERT_EQ(r.http_status, 200) << r;
  Reply q = Call("Query", R"({"TableName": "tbl", "KeyConditionExpression": "pk = :p AND sk BETWEEN :a AND :b",
    "ExpressionAttributeValues": {":p": {"S": "a"}, ":a": {"N": "2"}, ":b": {"N": "3"}},
    "ScanIndexForward": false, "ReturnConsumedCapacity": "TOTAL"})");
  EXPECT_EQ(r.body["Items"], q.body["Items"]);
  EXPECT_EQ(r.body["ConsumedCapacity"], q.body["ConsumedCapacity"]);
  ASSERT_EQ(r.body["Items"].size(), 2u);
  EXPECT_EQ(r.body["Items"][0]["sk"], json({{"N", "3"}}));
}

TEST_F(PartiqlOpsTest, LimitAndNextTokenPage) {
  json req = {{"Statement", "SELECT * FROM tbl WHERE pk = 'a' AND v <> 'x2'"}, {"Limit", 2}};
  Reply first = Statement(req);
  ASSERT_EQ(first.http_status, 200) << first;
  ASSERT_EQ(first.body["Items"].size(), 1u);  // 2 read, 1 passed the filter
  ASSERT_TRUE(first.body.contains("NextToken")) << first;
  req["NextToken"] = first.body["NextToken"];
  Reply second = Statement(req);
  ASSERT_EQ(second.http_status, 200) << second;
  ASSERT_EQ(second.body["Items"].size(), 2u);
  EXPECT_EQ(second.body["Items"][1]["sk"], json({{"N", "4"}}));

  req["NextToken"] = "bm90IGpzb24=";
  EXPECT_EQ(Statement(req).body, ValidationError("The provided starting key is invalid"));
}

TEST_F(PartiqlOpsTest, ScanWithFunctions) {
  Reply r = Statement({{"Statement",
                        "SELECT sk FROM tbl WHERE begins_with(v, 'x') AND sk IN [1, 3] "
                        "AND attribute_type(v, 'S') AND nope IS MISSING AND size(v) = 2"}});
  ASSERT_EQ(r.http_status, 200) << r;
  std::vector<std::string> sks;
  for (const json& item : r.body["Items"]) sks.push_back(item["sk"]["N"]);
  std::sort(sks.begin(), sks.end());
  EXPECT_EQ(sks, (std::vector<std::string>{"1", "3"}));
}

TEST_F(PartiqlOpsTest, InsertThenDuplicate) {
  json req = {{"Statement", "INSERT INTO tbl VALUE {'pk': 'b', 'sk': 1, 'tags': <<'p', 'q'>>, 'm': {'l': [1, true, null]}}"},
              {"ReturnConsumedCapacity", "TOTAL"}};
  Reply r = Statement(req);
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"Items": [], "ConsumedCapacity": {"TableName": "tbl", "CapacityUnits": 1.0}})"));
  Reply got = Call("GetItem", R"({"TableName": "tbl", "Key": {"pk": {"S": "b"}, "sk": {"N": "1"}}})");
  EXPECT_EQ(got.body["Item"]["m"], json::parse(R"({"M": {"l": {"L": [{"N": "1"}, {"BOOL": true}, {"NULL": true}]}}})"));
  Reply dup = Statement(req);
  EXPECT_EQ(dup.http_status, 400);
  EXPECT_EQ(dup.body, ErrorBody("com.amazonaws.dynamodb.v20120810#DuplicateItemException",
                                "Duplicate primary key exists in table"));
}

TEST_F(PartiqlOpsTest, UpdateNeedsFullKeyAndAnExistingItem) {
  Reply r = Statement({{"Statement", "UPDATE tbl SET n = 5 SET v = 'y' REMOVE w WHERE pk = 'a' AND sk = 1 RETURNING ALL NEW *"}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"Items": [{"pk": {"S": "a"}, "sk": {"N": "1"}, "n": {"N": "5"}, "v": {"S": "y"}}]})"));
  r = Statement({{"Statement", "UPDATE tbl SET n = n + 1 WHERE pk = 'a' AND sk = 1 RETURNING MODIFIED OLD *"}});
  EXPECT_EQ(r.body, json::parse(R"({"Items": [{"n": {"N": "5"}}]})"));

  EXPECT_EQ(Statement({{"Statement", "UPDATE tbl SET n = 1 WHERE pk = 'a'"}}).body,
            ValidationError("Where clause does not contain a mandatory equality on all key attributes"));
  Reply missing = Statement({{"Statement", "UPDATE tbl SET n = 1 WHERE pk = 'zz' AND sk = 1"}});
  EXPECT_EQ(missing.body, ErrorBody("com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
                                    "The conditional request failed"));
  Reply cond = Statement({{"Statement", "UPDATE tbl SET n = 1 WHERE pk = 'a' AND sk = 1 AND v = 'other'"}});
  EXPECT_EQ(cond.body["__type"], "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException");
}

// list_append, set_add, set_delete and REMOVE as UpdateItem applies them,
// with each RETURNING form.
TEST_F(PartiqlOpsTest, UpdateFunctionsAndEveryReturning) {
  auto update = [&](const std::string& text) {
    Reply r = Statement({{"Statement", text}});
    EXPECT_EQ(r.http_status, 200) << text << ": " << r;
    return r.body;
  };
  EXPECT_EQ(update("UPDATE tbl SET l = [1] SET s = <<'p', 'q'>> WHERE pk = 'a' AND sk = 3 "
                   "RETURNING ALL OLD *"),
            json::parse(R"({"Items": [{"pk": {"S": "a"}, "sk": {"N": "3"}, "v": {"S": "x3"}}]})"));
  EXPECT_EQ(update("UPDATE tbl SET l = list_append(l, [2, 'z']) SET s = set_add(s, <<'r'>>) "
                   "WHERE pk = 'a' AND sk = 3 RETURNING MODIFIED NEW *"),
            json::parse(R"({"Items": [{"l": {"L": [{"N": "1"}, {"N": "2"}, {"S": "z"}]},
                                       "s": {"SS": ["p", "q", "r"]}}]})"));
  EXPECT_EQ(update("UPDATE tbl SET s = set_delete(s, <<'p', 'r'>>) REMOVE v, l[0] "
                   "WHERE pk = 'a' AND sk = 3 RETURNING ALL NEW *"),
            json::parse(R"({"Items": [{"pk": {"S": "a"}, "sk": {"N": "3"},
                                       "l": {"L": [{"N": "2"}, {"S": "z"}]}, "s": {"SS": ["q"]}}]})"));
  EXPECT_EQ(update("UPDATE tbl SET s = set_delete(s, <<'q'>>) WHERE pk = 'a' AND sk = 3 "
                   "RETURNING MODIFIED OLD *"),
            json::parse(R"({"Items": [{"s": {"SS": ["q"]}}]})"));
  // Deleting the last member removes the attribute, as UpdateItem's DELETE.
  Reply got = Call("GetItem", R"({"TableName": "tbl", "Key": {"pk": {"S": "a"}, "sk": {"N": "3"}}})");
  EXPECT_FALSE(got.body["Item"].contains("s")) << got;
}

TEST_F(PartiqlOpsTest, DeleteReturningAllOld) {
  Reply r = Statement({{"Statement", "DELETE FROM tbl WHERE pk = 'a' AND sk = 4 RETURNING ALL OLD *"}});
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body, json::parse(R"({"Items": [{"pk": {"S": "a"}, "sk": {"N": "4"}, "v": {"S": "x4"}}]})"));
  // A missing item: nothing to delete, no error.
  EXPECT_EQ(Statement({{"Statement", "DELETE FROM tbl WHERE pk = 'a' AND sk = 4"}}).body,
            json::parse(R"({"Items": []})"));
}

TEST_F(PartiqlOpsTest, Errors) {
  EXPECT_EQ(Statement({{"Statement", "DROP TABLE t"}}).body,
            ValidationError("Statement wasn't well formed, can't be processed: Expected data manipulation"));
  EXPECT_EQ(Statement({{"Statement", "SELECT * FROM tbl WHERE pk = ?"}}).body,
            ValidationError("Number of parameters in request and statement don't match."));
  Reply nf = Statement({{"Statement", "SELECT * FROM nope"}});
  EXPECT_EQ(nf.body["__type"], "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException");
  EXPECT_EQ(Statement({{"Statement", ""}}).http_status, 400);
}

TEST_F(PartiqlOpsTest, BatchExecuteStatement) {
  Reply r = Call("BatchExecuteStatement", R"({"Statements": [
    {"Statement": "SELECT * FROM tbl WHERE pk = 'a' AND sk = 1"},
    {"Statement": "SELECT * FROM tbl WHERE pk = 'a' AND sk = 9"},
    {"Statement": "SELECT * FROM tbl WHERE pk = 'a'"}],
    "ReturnConsumedCapacity": "TOTAL"})");
  ASSERT_EQ(r.http_status, 200) << r;
  EXPECT_EQ(r.body["Responses"][0], json::parse(R"({"TableName": "tbl",
    "Item": {"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": "x1"}}})"));
  EXPECT_EQ(r.body["Responses"][1], json::parse(R"({"TableName": "tbl"})"));
  EXPECT_EQ(r.body["Responses"][2]["Error"]["Code"], "ValidationError");
  EXPECT_EQ(r.body["ConsumedCapacity"], json::parse(R"([{"TableName": "tbl", "CapacityUnits": 1.0}])"));

  Reply w = Call("BatchExecuteStatement", R"({"Statements": [
    {"Statement": "INSERT INTO tbl VALUE {'pk': 'c', 'sk': 1}"},
    {"Statement": "INSERT INTO tbl VALUE {'pk': 'a', 'sk': 1}"}]})");
  ASSERT_EQ(w.http_status, 200) << w;
  EXPECT_EQ(w.body["Responses"][0], json::parse(R"({"TableName": "tbl"})"));
  EXPECT_EQ(w.body["Responses"][1], json::parse(R"({"TableName": "tbl", "Error": {
    "Code": "DuplicateItem", "Message": "Duplicate primary key exists in table"}})"));
}

TEST_F(PartiqlOpsTest, ExecuteTransactionSharesTheCoordinator) {
  Reply w = Call("ExecuteTransaction", R"j({"TransactStatements": [
    {"Statement": "INSERT INTO tbl VALUE {'pk': 'c', 'sk': 1}"},
    {"Statement": "UPDATE tbl SET n = ? WHERE pk = 'a' AND sk = 1", "Parameters": [{"N": "7"}]},
    {"Statement": "EXISTS(SELECT * FROM tbl WHERE pk = 'a' AND sk = 2 AND v = 'x2')"}],
    "ClientRequestToken": "tok", "ReturnConsumedCapacity": "TOTAL"})j");
  ASSERT_EQ(w.http_status, 200) << w;
  EXPECT_EQ(w.body, json::parse(R"({"ConsumedCapacity": [{"TableName": "tbl", "CapacityUnits": 6.0}]})"));

  Reply dup = Call("ExecuteTransaction", R"({"TransactStatements": [
    {"Statement": "INSERT INTO tbl VALUE {'pk': 'a', 'sk': 2}"},
    {"Statement": "DELETE FROM tbl WHERE pk = 'a' AND sk = 3"}]})");
  EXPECT_EQ(dup.body, json::parse(R"({
    "__type": "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
    "Message": "Transaction cancelled, please refer cancellation reasons for specific reasons [DuplicateItem, None]",
    "CancellationReasons": [{"Code": "DuplicateItem", "Message": "Duplicate primary key exists in table"},
                            {"Code": "None"}]})"));

  Reply g = Call("ExecuteTransaction", R"({"TransactStatements": [
    {"Statement": "SELECT n FROM tbl WHERE pk = 'a' AND sk = 1"},
    {"Statement": "SELECT * FROM tbl WHERE pk = 'q' AND sk = 1"}]})");
  ASSERT_EQ(g.http_status, 200) << g;
  EXPECT_EQ(g.body, json::parse(R"({"Responses": [{"Item": {"n": {"N": "7"}}}, {}]})"));

  Reply mixed = Call("ExecuteTransaction", R"({"TransactStatements": [
    {"Statement": "SELECT * FROM tbl WHERE pk = 'a' AND sk = 1"},
    {"Statement": "DELETE FROM tbl WHERE pk = 'a' AND sk = 3"}]})");
  EXPECT_EQ(mixed.body["__type"], "com.amazon.coral.validate#ValidationException");
}

// ReturnValuesOnConditionCheckFailure ALL_OLD: the item in the
// ConditionalCheckFailedException, and in a batch statement's Error.
TEST_F(PartiqlOpsTest, ReturnValuesOnConditionCheckFailure) {
  const std::string failing = "UPDATE tbl SET v = 'y' WHERE pk = 'a' AND sk = 1 AND v = 'other'";
  const json old_item = json::parse(R"({"pk": {"S": "a"}, "sk": {"N": "1"}, "v": {"S": "x1"}})");
  Reply plain = Statement({{"Statement", failing}});
  EXPECT_EQ(plain.body, ErrorBody("com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
                                  "The conditional request failed"));
  Reply with_item = Statement({{"Statement", failing},
                               {"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}});
  EXPECT_EQ(with_item.http_status, 400);
  EXPECT_EQ(with_item.body["__type"],
            "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException");
  EXPECT_EQ(with_item.body["Item"], old_item) << with_item;

  Reply batch = Call("BatchExecuteStatement", json{{"Statements", json::array({
      json{{"Statement", failing}, {"ReturnValuesOnConditionCheckFailure", "ALL_OLD"}},
      json{{"Statement", "UPDATE tbl SET v = 'y' WHERE pk = 'a' AND sk = 2 AND v = 'other'"}}})}});
  ASSERT_EQ(batch.http_status, 200) << batch;
  EXPECT_EQ(batch.body["Responses"][0], json({{"TableName", "tbl"}, {"Error", {
      {"Code", "ConditionalCheckFailed"}, {"Message", "The conditional request failed"},
      {"Item", old_item}}}}));
  EXPECT_EQ(batch.body["Responses"][1], json({{"TableName", "tbl"}, {"Error", {
      {"Code", "ConditionalCheckFailed"}, {"Message", "The conditional request failed"}}}}));
}

// The statement counts (25 a batch, 100 a transaction) and a batch of reads
// and writes together.
TEST_F(PartiqlOpsTest, StatementLimits) {
  auto statements = [](size_t n, const std::string& text) {
    json list = json::array();
    for (size_t i = 0; i < n; ++i) {
      list.push_back({{"Statement", text + std::to_string(i) + "}"}});
    }
    return list;
  };
  auto refused = [](const Reply& r, const std::string& member, int max) {
    const std::string message = r.body.value("message", r.body.value("Message", ""));
    EXPECT_EQ(r.http_status, 400) << r;
    EXPECT_TRUE(message.starts_with("1 validation error detected: Value '[")) << message;
    EXPECT_TRUE(message.ends_with("]' at '" + member +
                                  "' failed to satisfy constraint: Member must have length "
                                  "less than or equal to " + std::to_string(max)))
        << message;
  };
  const std::string insert = "INSERT INTO tbl VALUE {'pk': 'n', 'sk': ";
  refused(Call("BatchExecuteStatement", json{{"Statements", statements(26, insert)}}),
          "statements", 25);
  Reply batch = Call("BatchExecuteStatement", json{{"Statements", statements(25, insert)}});
  ASSERT_EQ(batch.http_status, 200) << batch;
  EXPECT_EQ(batch.body["Responses"].size(), 25u);
  for (const json& r : batch.body["Responses"]) EXPECT_EQ(r, json({{"TableName", "tbl"}}));

  const std::string tx_insert = "INSERT INTO tbl VALUE {'pk': 't', 'sk': ";
  refused(Call("ExecuteTransaction", json{{"TransactStatements", statements(101, tx_insert)}}),
          "transactStatements", 100);
  Reply tx = Call("ExecuteTransaction", json{{"TransactStatements", statements(100, tx_insert)},
                                             {"ClientRequestToken", "hundred"},
                                             {"ReturnConsumedCapacity", "TOTAL"}});
  ASSERT_EQ(tx.http_status, 200) << tx;
  EXPECT_EQ(tx.body["ConsumedCapacity"], json::parse(R"([{"TableName": "tbl", "CapacityUnits": 200.0}])"));
  Reply count = Statement({{"Statement", "SELECT sk FROM tbl WHERE pk = 't'"}});
  EXPECT_EQ(count.body["Items"].size(), 100u);

  Reply mixed = Call("BatchExecuteStatement", json::parse(R"({"Statements": [
    {"Statement": "SELECT * FROM tbl WHERE pk = 'a' AND sk = 1"},
    {"Statement": "DELETE FROM tbl WHERE pk = 'a' AND sk = 2"}]})"));
  EXPECT_EQ(mixed.body, ValidationError("Statements in a BatchExecuteStatement request must be "
                                        "all reads or all writes"));
  Reply still = Call("GetItem", R"({"TableName": "tbl", "Key": {"pk": {"S": "a"}, "sk": {"N": "2"}}})");
  EXPECT_TRUE(still.body.contains("Item"));  // nothing of the refused batch ran

  // One item twice (keys compare as values: 2 and 2.0), reads or writes:
  // the whole batch is refused, as BatchGetItem / BatchWriteItem.
  const json duplicates = ValidationError("Provided list of item keys contains duplicates");
  EXPECT_EQ(Call("BatchExecuteStatement", json::parse(R"({"Statements": [
    {"Statement": "DELETE FROM tbl WHERE pk = 'a' AND sk = 2"},
    {"Statement": "INSERT INTO tbl VALUE {'pk': 'z', 'sk': 1}"},
    {"Statement": "UPDATE tbl SET v = 'w' WHERE pk = 'a' AND sk = 2.0"}]})")).body,
            duplicates);
  EXPECT_EQ(Call("BatchExecuteStatement", json::parse(R"({"Statements": [
    {"Statement": "INSERT INTO tbl VALUE {'pk': 'z', 'sk': 1, 'v': 'one'}"},
    {"Statement": "INSERT INTO tbl VALUE {'pk': 'z', 'sk': 1, 'v': 'two'}"}]})")).body,
            duplicates);
  EXPECT_EQ(Call("BatchExecuteStatement", json::parse(R"({"Statements": [
    {"Statement": "SELECT * FROM tbl WHERE pk = 'a' AND sk = 1"},
    {"Statement": "SELECT v FROM tbl WHERE sk = 1 AND pk = ?", "Parameters": [{"S": "a"}]}]})")).body,
            duplicates);
  EXPECT_TRUE(Call("GetItem", R"({"TableName": "tbl", "Key": {"pk": {"S": "a"}, "sk": {"N": "2"}}})")
                  .body.contains("Item"));
  EXPECT_FALSE(Call("GetItem", R"({"TableName": "tbl", "Key": {"pk": {"S": "z"}, "sk": {"N": "1"}}})")
                   .body.contains("Item"));
}

}  // namespace
}  // namespace dynarock::api
