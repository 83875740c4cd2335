#include "engine/transactions/transactions.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <random>
#include <string>
#include <thread>

#include <unistd.h>
#include <vector>

#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using Kind = TransactWriteAction::Kind;
using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::Eq;
using ::testing::HasSubstr;

Item Key(const std::string& pk, const char* sk = "1") { return SimpleKey(pk, sk); }

TransactWriteAction PutAction(const std::string& table, Item item,
                              std::optional<std::string> condition = std::nullopt) {
  TransactWriteAction a;
  a.kind = Kind::kPut;
  a.table_name = table;
  a.item = std::move(item);
  a.condition_expression = std::move(condition);
  return a;
}

TransactWriteAction KeyAction(Kind kind, const std::string& table, Item key) {
  TransactWriteAction a;
  a.kind = kind;
  a.table_name = table;
  a.key = std::move(key);
  return a;
}

// balance of `pk` moves by `delta`; with `floor`, only while balance >= floor.
TransactWriteAction AddBalance(const std::string& table, const std::string& pk,
                               int delta, bool guarded) {
  TransactWriteAction a = KeyAction(Kind::kUpdate, table, Key(pk));
  a.update_expression = "ADD balance :d";
  a.expression_attribute_values.emplace();
  (*a.expression_attribute_values)[":d"] =
      AttributeValue::N(Number::Parse(std::to_string(delta)).value());
  if (guarded) {
    a.condition_expression = "balance >= :need";
    (*a.expression_attribute_values)[":need"] =
        AttributeValue::N(Number::Parse(std::to_string(-delta)).value());
    a.return_values_on_condition_check_failure =
        ReturnValuesOnConditionCheckFailure::kAllOld;
  }
  return a;
}

std::vector<std::string> Codes(const Status& s) {
  std::vector<std::string> out;
  for (const CancellationReason& r : s.cancellation_reasons()) out.push_back(r.code);
  return out;
}

class TransactionsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_OK(engine_->CreateTable(SimpleTable("Acc")).status()); }

  void Put(const std::string& pk, int balance) {
    PutItemRequest req;
    req.table_name = "Acc";
    req.item = Key(pk);
    req.item["balance"] = AttributeValue::N(Number::Parse(std::to_string(balance)).value());
    ASSERT_OK(engine_->PutItem(req).status());
  }
  std::optional<Item> Get(const std::string& pk) {
    GetItemRequest req;
    req.table_name = "Acc";
    req.key = Key(pk);
    auto r = engine_->GetItem(req);
    EXPECT_OK(r.status());
    return r.ok() ? r->item : std::nullopt;
  }
  int64_t Balance(const std::string& pk) {
    std::optional<Item> item = Get(pk);
    if (!item) return -1;
    return std::stoll(item->at("balance").n().ToString());
  }
  Result<TransactWriteItemsResult> Write(std::vector<TransactWriteAction> actions,
                                         std::optional<std::string> token = std::nullopt) {
    TransactWriteItemsRequest req;
    req.actions = std::move(actions);
    req.client_request_token = std::move(token);
    return engine_->TransactWriteItems(req);
  }

  TestEngine engine_;
};

TEST_F(TransactionsTest, CommitsEveryActionTogether) {
  Put("a", 100);
  Put("b", 0);
  ASSERT_OK(Write({AddBalance("Acc", "a", -40, true), AddBalance("Acc", "b", 40, false),
                   PutAction("Acc", Key("c"), "attribute_not_exists(pk)")})
                .status());
  EXPECT_EQ(Balance("a"), 60);
  EXPECT_EQ(Balance("b"), 40);
  EXPECT_TRUE(Get("c").has_value());
}

TEST_F(TransactionsTest, OneFailedConditionCancelsAllWithReasonsInOrder) {
  Put("a", 10);
  Put("b", 0);
  auto r = Write({PutAction("Acc", Key("new")), AddBalance("Acc", "b", 50, false),
                  AddBalance("Acc", "a", -50, true)});
  ASSERT_EQ(r.status().code(), ErrorCode::kTransactionCanceled);
  EXPECT_EQ(r.status().message(),
            "Transaction cancelled, please refer cancellation reasons for specific "
            "reasons [None, None, ConditionalCheckFailed]");
  EXPECT_THAT(Codes(r.status()), ElementsAre("None", "None", "ConditionalCheckFailed"));
  const CancellationReason& failed = r.status().cancellation_reasons()[2];
  EXPECT_EQ(failed.message, "The conditional request failed");
  ASSERT_NE(failed.item, nullptr);  // ALL_OLD
  EXPECT_EQ(failed.item->at("balance").n().ToString(), "10");
  EXPECT_EQ(r.status().cancellation_reasons()[0].item, nullptr);
  EXPECT_FALSE(Get("new").has_value());
  EXPECT_EQ(Balance("a"), 10);
  EXPECT_EQ(Balance("b"), 0);
}

TEST_F(TransactionsTest, EveryFailingActionIsReported) {
  auto r = Write({KeyAction(Kind::kConditionCheck, "Acc", Key("x")),
                  PutAction("Acc", Key("y"), "attribute_exists(pk)")});
  // A ConditionCheck without a condition is its own validation error.
  EXPECT_THAT(r.status(),
              StatusIs(ErrorCode::kValidation,
                       HasSubstr("'transactItems.1.member.conditionCheck."
                                 "conditionExpression' failed to satisfy constraint")));
  TransactWriteAction check = KeyAction(Kind::kConditionCheck, "Acc", Key("x"));
  check.condition_expression = "attribute_exists(pk)";
  r = Write({check, PutAction("Acc", Key("z")), PutAction("Acc", Key("y"), "attribute_exists(pk)")});
  EXPECT_THAT(Codes(r.status()),
              ElementsAre("ConditionalCheckFailed", "None", "ConditionalCheckFailed"));
}

TEST_F(TransactionsTest, MissingKeyAttributeIsAValidationErrorReason) {
  Item no_key;
  no_key["pk"] = AttributeValue::S("only-pk");
  auto r = Write({PutAction("Acc", Key("ok")), PutAction("Acc", no_key)});
  ASSERT_EQ(r.status().code(), ErrorCode::kTransactionCanceled);
  EXPECT_THAT(Codes(r.status()), ElementsAre("None", "ValidationError"));
  EXPECT_THAT(r.status().cancellation_reasons()[1].message, HasSubstr("key"));
  EXPECT_FALSE(Get("ok").has_value());
}

TEST_F(TransactionsTest, OnlyTheFirstFailingKeyIsReported) {
  Item no_key;
  no_key["other"] = AttributeValue::S("x");
  auto r = Write({PutAction("Acc", no_key), PutAction("Acc", no_key),
                  PutAction("Acc", Key("c"), "attribute_exists(pk)")});
  EXPECT_THAT(Codes(r.status()), ElementsAre("ValidationError", "None", "None"));
}

TEST_F(TransactionsTest, TransactGetKeyErrorIsAValidationErrorReason) {
  TransactGetItemsRequest req;
  for (Item key : {Key("a"), Item{}}) {
    TransactGetAction g;
    g.table_name = "Acc";
    g.key = key;
    req.actions.push_back(g);
  }
  auto r = engine_->TransactGetItems(req);
  ASSERT_EQ(r.status().code(), ErrorCode::kTransactionCanceled);
  EXPECT_THAT(Codes(r.status()), ElementsAre("None", "ValidationError"));
  EXPECT_EQ(r.status().cancellation_reasons()[1].message,
            "The provided key element does not match the schema");
}

TEST_F(TransactionsTest, RequestLevelValidation) {
  EXPECT_THAT(Write({}).status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("greater than or equal to 1")));
  std::vector<TransactWriteAction> many;
  for (int i = 0; i < 101; ++i) many.push_back(PutAction("Acc", Key("k" + std::to_string(i))));
  EXPECT_THAT(Write(many).status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("less than or equal to 100")));
  many.pop_back();
  EXPECT_OK(Write(many).status());
  EXPECT_THAT(Write({PutAction("Acc", Key("d")), KeyAction(Kind::kDelete, "Acc", Key("d"))}).status(),
              StatusIs(ErrorCode::kValidation,
                       "Transaction request cannot include multiple operations on one item"));
  EXPECT_EQ(Write({PutAction("Nope", Key("d"))}).status().code(), ErrorCode::kResourceNotFound);
  EXPECT_EQ(Write({PutAction("Acc", Key("d"), "pk = ")}).status().code(), ErrorCode::kValidation);
  // 4 MB in all: eleven items of 390 KB.
  std::vector<TransactWriteAction> big;
  for (int i = 0; i < 11; ++i) {
    Item item = Key("big" + std::to_string(i));
    item["blob"] = AttributeValue::S(std::string(390 * 1024, 'x'));
    big.push_back(PutAction("Acc", item));
  }
  EXPECT_THAT(Write(big).status(), StatusIs(ErrorCode::kValidation, HasSubstr("4 MB")));
}

TEST_F(TransactionsTest, WritesCostTwiceAndConditionCheckIsAWrite) {
  Put("a", 1);
  Item big = Key("b");
  big["blob"] = AttributeValue::S(std::string(1500, 'x'));  // 2 KB rounded
  TransactWriteAction check = KeyAction(Kind::kConditionCheck, "Acc", Key("a"));
  check.condition_expression = "attribute_exists(pk)";
  ASSERT_OK_AND_ASSIGN(auto r, Write({check, PutAction("Acc", big)}));
  ASSERT_EQ(r.consumed_capacity.size(), 1u);
  EXPECT_EQ(r.consumed_capacity[0].table_name, "Acc");
  EXPECT_EQ(r.consumed_capacity[0].table.write_units, 2 * (1 + 2));
  ASSERT_EQ(r.capacity_charges.size(), 1u);
  EXPECT_EQ(r.capacity_charges[0].Total().write_units, 6);
}

TEST_F(TransactionsTest, TransactGetReadsInOrderAtTwiceTheConsistentUnits) {
  Put("a", 7);
  TransactGetItemsRequest req;
  for (const char* pk : {"a", "missing"}) {
    TransactGetAction g;
    g.table_name = "Acc";
    g.key = Key(pk);
    req.actions.push_back(g);
  }
  req.actions[0].projection_expression = "balance";
  ASSERT_OK_AND_ASSIGN(auto r, engine_->TransactGetItems(req));
  ASSERT_EQ(r.responses.size(), 2u);
  ASSERT_TRUE(r.responses[0].has_value());
  EXPECT_EQ(r.responses[0]->size(), 1u);  // projected
  EXPECT_FALSE(r.responses[1].has_value());
  ASSERT_EQ(r.consumed_capacity.size(), 1u);
  EXPECT_EQ(r.consumed_capacity[0].table.read_units, 4);  // 2 items x 2 RCU
  req.actions[1].key = Key("a");
  EXPECT_EQ(engine_->TransactGetItems(req).status().code(), ErrorCode::kValidation);
}

TEST_F(TransactionsTest, ClientRequestTokenAppliesOnceForTenMinutes) {
  Put("a", 0);
  ASSERT_OK_AND_ASSIGN(auto first, Write({AddBalance("Acc", "a", 5, false)}, "tok"));
  EXPECT_FALSE(first.replayed);
  EXPECT_EQ(first.consumed_capacity[0].table.write_units, 2);
  ASSERT_OK_AND_ASSIGN(auto again, Write({AddBalance("Acc", "a", 5, false)}, "tok"));
  EXPECT_TRUE(again.replayed);
  EXPECT_EQ(Balance("a"), 5);  // not written twice
  // The repeat reports reading the item, not writing it.
  EXPECT_EQ(again.consumed_capacity[0].table.write_units, 0);
  EXPECT_EQ(again.consumed_capacity[0].table.read_units, 1);
  EXPECT_THAT(Write({AddBalance("Acc", "a", 6, false)}, "tok").status(),
              StatusIs(ErrorCode::kIdempotentParameterMismatch,
                       "Request has a different parameters than the original request"));
  engine_.clock.Advance(IdempotencyCache::kWindowMicros - 1);
  ASSERT_OK_AND_ASSIGN(again, Write({AddBalance("Acc", "a", 5, false)}, "tok"));
  EXPECT_TRUE(again.replayed);
  engine_.clock.Advance(1);
  ASSERT_OK_AND_ASSIGN(again, Write({AddBalance("Acc", "a", 5, false)}, "tok"));
  EXPECT_FALSE(again.replayed);  // the window passed: a new request
  EXPECT_EQ(Balance("a"), 10);
  // A cancelled request is not remembered: its retry runs.
  EXPECT_EQ(Write({AddBalance("Acc", "a", -100, true)}, "tok2").status().code(),
            ErrorCode::kTransactionCanceled);
  Put("a", 100);
  EXPECT_OK(Write({AddBalance("Acc", "a", -100, true)}, "tok2").status());
  EXPECT_EQ(Balance("a"), 0);
}

TEST(IdempotencyCacheTest, RunningRequestRefusesItsRepeat) {
  SimulatedClock clock;
  IdempotencyCache cache(&clock);
  IdempotencyCache::Completed replay;
  bool replayed = false;
  ASSERT_OK(cache.Begin("ns", "t", "f1", &replay, &replayed));
  EXPECT_EQ(cache.Begin("ns", "t", "f1", &replay, &replayed).code(),
            ErrorCode::kTransactionInProgress);
  EXPECT_EQ(cache.Begin("ns", "t", "f2", &replay, &replayed).code(),
            ErrorCode::kIdempotentParameterMismatch);
  EXPECT_OK(cache.Begin("other-ns", "t", "f2", &replay, &replayed));  // per namespace
  cache.Finish("ns", "t", {});
  ASSERT_OK(cache.Begin("ns", "t", "f1", &replay, &replayed));
  EXPECT_TRUE(replayed);
  clock.Advance(IdempotencyCache::kWindowMicros);
  EXPECT_EQ(cache.TEST_size(), 1u);  // only other-ns's running entry
}

TEST_F(TransactionsTest, ConcurrentTransfersPreserveTheTotal) {
  constexpr int kAccounts = 8;
  constexpr int kStart = 1000;
  for (int i = 0; i < kAccounts; ++i) Put("acct" + std::to_string(i), kStart);
  std::atomic<int> committed{0};
  std::atomic<int> inconsistent_reads{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      for (int i = 0; i < 1500; ++i) {
        const int from = static_cast<int>(rng() % kAccounts);
        const int to = (from + 1 + static_cast<int>(rng() % (kAccounts - 1))) % kAccounts;
        const int amount = 1 + static_cast<int>(rng() % 300);
        TransactWriteItemsRequest req;
        req.actions = {AddBalance("Acc", "acct" + std::to_string(from), -amount, true),
                       AddBalance("Acc", "acct" + std::to_string(to), amount, false)};
        Result<TransactWriteItemsResult> r = engine_->TransactWriteItems(req);
        if (r.ok()) ++committed;
        if (!r.ok()) {
          ErrorCode c = r.status().code();
          EXPECT_TRUE(c == ErrorCode::kTransactionCanceled) << r.status().ToString();
        }
        if (i % 8 == t % 8) {
          // A plain write on a balance item's other attribute.
          UpdateItemRequest u;
          u.table_name = "Acc";
          u.key = Key("acct" + std::to_string(to));
          u.update_expression = "SET touched = :t";
          u.expression_attribute_values.emplace();
          (*u.expression_attribute_values)[":t"] = AttributeValue::S("t");
          Status s = engine_->UpdateItem(u).status();
          EXPECT_TRUE(s.ok() || s.code() == ErrorCode::kTransactionConflict) << s.ToString();
        }
        if (i % 16 == 0) {
          // A snapshot read of every account sums to the total.
          TransactGetItemsRequest g;
          for (int a = 0; a < kAccounts; ++a) {
            TransactGetAction get;
            get.table_name = "Acc";
            get.key = Key("acct" + std::to_string(a));
            g.actions.push_back(get);
          }
          auto read = engine_->TransactGetItems(g);
          if (read.ok()) {
            int64_t sum = 0;
            for (const auto& item : read->responses) {
              sum += std::stoll(item->at("balance").n().ToString());
            }
            if (sum != kAccounts * kStart) ++inconsistent_reads;
          }
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  int64_t total = 0;
  for (int i = 0; i < kAccounts; ++i) {
    const int64_t b = Balance("acct" + std::to_string(i));
    EXPECT_GE(b, 0);
    total += b;
  }
  EXPECT_EQ(total, kAccounts * kStart);
  EXPECT_EQ(inconsistent_reads.load(), 0);
  EXPECT_GT(committed.load(), 0);
}

// The number of single-item writes to one item that succeed when tried
// every 100 us for `seconds` of simulated time, as transactions or not.
int SucceededWrites(bool transactional, int seconds) {
  EngineOptions options = TestEngine::Options();
  options.throttling = true;
  TestEngine engine(options);
  EXPECT_OK(engine->CreateTable(SimpleTable("Hot")).status());
  int ok = 0;
  for (int i = 0; i < seconds * 10000; ++i) {
    engine.clock.Advance(100);
    Status s;
    if (transactional) {
      TransactWriteItemsRequest req;
      req.actions = {PutAction("Hot", Key("hot"))};
      s = engine->TransactWriteItems(req).status();
      if (!s.ok()) {
        EXPECT_EQ(s.code(), ErrorCode::kTransactionCanceled);
        EXPECT_THAT(Codes(s), ElementsAre("ProvisionedThroughputExceeded")) << s.message();
      }
    } else {
      PutItemRequest req;
      req.table_name = "Hot";
      req.item = Key("hot");
      s = engine->PutItem(req).status();
    }
    if (s.ok()) ++ok;
  }
  return ok;
}

TEST(TransactionThrottlingTest, HotPartitionThrottlesAtHalfTheRateOfPlainWrites) {
  const int plain = SucceededWrites(false, 5);
  const int transactional = SucceededWrites(true, 5);
  // A partition serves 1,000 WCU/s; a 1 KB write costs 1, in a transaction 2.
  EXPECT_GT(plain, 5000);
  EXPECT_LT(plain, 50000);
  const double ratio = static_cast<double>(transactional) / plain;
  EXPECT_NEAR(ratio, 0.5, 0.05) << transactional << " / " << plain;
}

// Ten ~350 KB puts into one partition key's partition: 6,840 WRU where a
// partition holds 1,000 a second.
std::vector<TransactWriteAction> LargePuts(int first_sort_key) {
  std::vector<TransactWriteAction> actions;
  for (int i = 0; i < 10; ++i) {
    Item item = Key("big", std::to_string(first_sort_key + i).c_str());
    item["payload"] = AttributeValue::S(std::string(350'000, 'x'));
    actions.push_back(PutAction("Big", std::move(item)));
  }
  return actions;
}

// DynamoDB admits a request when the buckets it touches are positive and then
// charges it whole; a 3.5 MB transaction succeeds on a new on-demand table
// (conformance suite, transactionLimits "approaching 4MB").
TEST(TransactionThrottlingTest, LargeTransactionIsAdmittedWholeAndLeavesDebt) {
  EngineOptions options = TestEngine::Options();
  options.throttling = true;
  TestEngine engine(options);
  ASSERT_OK(engine->CreateTable(SimpleTable("Big")).status());
  TransactWriteItemsRequest req;
  req.actions = LargePuts(0);
  ASSERT_OK_AND_ASSIGN(auto r, engine->TransactWriteItems(req));
  EXPECT_EQ(r.consumed_capacity.at(0).Total().write_units, 10 * 2 * 342);
  // The partition is ~5,840 units in debt: the next transaction there is
  // refused whole, every action reported, nothing written nor charged.
  req.actions = LargePuts(10);
  auto refused = engine->TransactWriteItems(req);
  ASSERT_EQ(refused.status().code(), ErrorCode::kTransactionCanceled);
  EXPECT_THAT(Codes(refused.status()), Each(Eq("ProvisionedThroughputExceeded")));
  GetItemRequest get;
  get.table_name = "Big";
  get.key = Key("big", "10");
  ASSERT_OK_AND_ASSIGN(auto missing, engine->GetItem(get));
  EXPECT_FALSE(missing.item.has_value());
  // 5.84 s of the partition's 1,000 units/s repay the debt; a refused call
  // charged nothing, so just after that the same transaction is admitted.
  engine.clock.Advance(5'850'000);
  ASSERT_OK(engine->TransactWriteItems(req).status());
}

CreateTableRequest IndexedTable() {
  CreateTableRequest req = SimpleTable("Idx");
  req.attribute_definitions.push_back({"g", AttrType::kS});
  req.attribute_definitions.push_back({"l", AttrType::kS});
  req.global_secondary_indexes.push_back(
      {"G", {{"g", KeyType::kHash}}, Projection{}, std::nullopt});
  req.local_secondary_indexes.push_back(
      {"L", {{"pk", KeyType::kHash}, {"l", KeyType::kRange}}, Projection{}});
  return req;
}

TEST(TransactionDurabilityTest, IndexesAndCountersStayWholeAcrossReopen) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("dynarock_tx_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  EngineOptions options = TestEngine::Options();
  options.in_memory = false;
  options.path = dir.string();
  {
    TestEngine engine(options);
    ASSERT_OK(engine->CreateTable(IndexedTable()).status());
    for (int i = 0; i < 20; ++i) {
      TransactWriteItemsRequest req;
      req.return_item_collection_metrics = ReturnItemCollectionMetrics::kSize;
      Item a = Key("p" + std::to_string(i % 3), std::to_string(i).c_str());
      a["g"] = AttributeValue::S("g" + std::to_string(i % 5));
      a["l"] = AttributeValue::S("l" + std::to_string(i));
      req.actions.push_back(PutAction("Idx", a));
      if (i > 0) {
        req.actions.push_back(KeyAction(Kind::kDelete, "Idx",
                                        Key("p" + std::to_string((i - 1) % 3),
                                            std::to_string(i - 1).c_str())));
      }
      ASSERT_OK_AND_ASSIGN(auto r, engine->TransactWriteItems(req));
      ASSERT_EQ(r.item_collection_metrics.size(), 1u);  // the table has an LSI
      EXPECT_EQ(r.item_collection_metrics[0].first, "Idx");
      // Delete on the GSI-keyed item: the GSI's units are doubled too.
      EXPECT_GT(r.consumed_capacity[0].global_secondary_indexes.at("G").write_units, 1);
    }
    ASSERT_OK(engine->WaitUntilIndexesCaughtUp());
    ASSERT_OK(engine->VerifyIndexes(Scope(), "Idx"));
  }
  {
    TestEngine engine(options);
    ASSERT_OK(engine->WaitUntilIndexesCaughtUp());
    ASSERT_OK(engine->VerifyIndexes(Scope(), "Idx"));
    ASSERT_OK_AND_ASSIGN(auto d, engine->DescribeTable({Scope(), "Idx"}));
    EXPECT_EQ(d.item_count, 1);  // each transaction put one and deleted the last
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace dynarock
