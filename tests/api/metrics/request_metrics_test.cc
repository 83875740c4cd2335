#include "api/metrics/request_metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace dynarock::api::metrics {
namespace {

constexpr std::string_view kPut = R"({"TableName":"Music","Item":{"pk":{"S":"a"}}})";

std::string Error(std::string_view type) {
  return R"({"__type":"com.amazonaws.dynamodb.v20120810#)" + std::string(type) +
         R"(","message":"m"})";
}

const OperationCounts* Find(const std::vector<TableCounts>& tables, std::string_view ns,
                            std::string_view table, std::string_view op) {
  for (const TableCounts& t : tables) {
    if (t.ns != ns || t.table != table) continue;
    for (const OperationCounts& o : t.operations) {
      if (o.operation == op) return &o;
    }
  }
  return nullptr;
}

TEST(RequestMetricsTest, CountsSuccessesWithTheirLatency) {
  RequestMetrics m;
  m.Record({"k_r", "PutItem", kPut, 200, "{}", 300});    // bucket <= 500 us
  m.Record({"k_r", "PutItem", kPut, 200, "{}", 7'000});  // bucket <= 10 ms
  const auto snapshot = m.Snapshot();
  const OperationCounts* put = Find(snapshot, "k_r", "Music", "PutItem");
  ASSERT_NE(put, nullptr);
  EXPECT_EQ(put->requests, 2);
  EXPECT_EQ(put->successes, 2);
  EXPECT_EQ(put->latency_micros_sum, 7'300);
  EXPECT_EQ(put->latency_buckets[1], 1);  // 500 us
  EXPECT_EQ(put->latency_buckets[5], 1);  // 10 ms
  EXPECT_EQ(put->user_errors, 0);
}

TEST(RequestMetricsTest, SortsErrorsAsCloudWatchDoes) {
  RequestMetrics m;
  m.Record({"", "PutItem", kPut, 400, Error("ConditionalCheckFailedException"), 1});
  m.Record({"", "PutItem", kPut, 400, Error("ProvisionedThroughputExceededException"), 1});
  m.Record({"", "PutItem", kPut, 400, Error("TransactionConflictException"), 1});
  m.Record({"", "PutItem", kPut, 500, Error("InternalServerError"), 1});
  m.Record({"", "PutItem", kPut, 400, Error("ValidationException"), 1});
  m.Record({"", "PutItem", kPut, 400, Error("ResourceNotFoundException"), 1});
  const auto snapshot = m.Snapshot();
  const OperationCounts* put = Find(snapshot, "", "Music", "PutItem");
  ASSERT_NE(put, nullptr);
  EXPECT_EQ(put->requests, 4);
  EXPECT_EQ(put->conditional_check_failed, 1);
  EXPECT_EQ(put->throttled_requests, 1);
  EXPECT_EQ(put->transaction_conflicts, 1);
  EXPECT_EQ(put->system_errors, 1);
  EXPECT_EQ(put->successes, 0);
  // User errors are counted per namespace, under no table.
  const OperationCounts* user = Find(snapshot, "", "", "PutItem");
  ASSERT_NE(user, nullptr);
  EXPECT_EQ(user->user_errors, 2);
}

TEST(RequestMetricsTest, CountsReturnedItemsAndCancelledConflicts) {
  RequestMetrics m;
  m.Record({"", "Query", R"({"TableName":"Music"})", 200, R"({"Count":4,"Items":[]})", 1});
  m.Record({"", "Scan", R"({"TableName":"Music"})", 200, R"({"Count":2,"Items":[]})", 1});
  m.Record({"", "TransactWriteItems", R"({"TransactItems":[{"Put":{"TableName":"Music"}}]})",
            400,
            R"({"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","CancellationReasons":[{"Code":"TransactionConflict"}]})",
            1});
  const auto snapshot = m.Snapshot();
  EXPECT_EQ(Find(snapshot, "", "Music", "Query")->returned_items, 4);
  EXPECT_EQ(Find(snapshot, "", "Music", "Scan")->returned_items, 2);
  const OperationCounts* tx = Find(snapshot, "", "", "TransactWriteItems");
  ASSERT_NE(tx, nullptr);
  EXPECT_EQ(tx->user_errors, 1);
  EXPECT_EQ(tx->transaction_conflicts, 1);
}

TEST(RequestMetricsTest, TablesBeyondTheBoundAreCountedTogether) {
  RequestMetrics m(/*max_series_tables=*/2);
  for (std::string name : {"Aaa", "Bbb", "Ccc", "Ddd"}) {
    m.Record({"", "GetItem", R"({"TableName":")" + name + "\"}", 200, "{}", 1});
  }
  const auto snapshot = m.Snapshot();
  EXPECT_NE(Find(snapshot, "", "Aaa", "GetItem"), nullptr);
  EXPECT_NE(Find(snapshot, "", "Bbb", "GetItem"), nullptr);
  EXPECT_EQ(Find(snapshot, "", "Ccc", "GetItem"), nullptr);
  const OperationCounts* other = Find(snapshot, "", kOtherTables, "GetItem");
  ASSERT_NE(other, nullptr);
  EXPECT_EQ(other->requests, 2);
}

TEST(RequestMetricsTest, UnknownOperationsShareOneLabel) {
  RequestMetrics m;
  for (std::string op : {"Foo", "Bar"}) {
    m.Record({"", op, "{}", 400, Error("UnknownOperationException"), 1});
  }
  const auto snapshot = m.Snapshot();
  const OperationCounts* unknown = Find(snapshot, "", "", kUnknownOperation);
  ASSERT_NE(unknown, nullptr);
  EXPECT_EQ(unknown->user_errors, 2);
  EXPECT_EQ(Find(snapshot, "", "", "Foo"), nullptr);
}

TEST(RequestMetricsTest, NamespacesAreListedSorted) {
  RequestMetrics m;
  m.Record({"b_us-east-1", "ListTables", "{}", 200, "{}", 1});
  m.Record({"a_us-east-1", "ListTables", "{}", 200, "{}", 1});
  EXPECT_THAT(m.Namespaces(), ::testing::ElementsAre("a_us-east-1", "b_us-east-1"));
}

TEST(RequestMetricsTest, ConcurrentRecordsAreAllCounted) {
  RequestMetrics m;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&m, t] {
      const std::string body = R"({"TableName":"T)" + std::to_string(t % 2) + "xx\"}";
      for (int i = 0; i < 1000; ++i) m.Record({"", "PutItem", body, 200, "{}", 1});
    });
  }
  for (auto& t : threads) t.join();
  const auto snapshot = m.Snapshot();
  EXPECT_EQ(Find(snapshot, "", "T0xx", "PutItem")->requests, 2000);
  EXPECT_EQ(Find(snapshot, "", "T1xx", "PutItem")->requests, 2000);
}

}  // namespace
}  // namespace dynarock::api::metrics
