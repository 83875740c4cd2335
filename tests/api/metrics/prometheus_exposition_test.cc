#include "api/metrics/prometheus_exposition.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "api/client.h"
#include "tests/testutil/test_engine.h"

namespace dynarock::api::metrics {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class PrometheusExpositionTest : public ::testing::Test {
 protected:
  PrometheusExpositionTest() {
    ClientOptions options;
    options.request_metrics = &requests_;
    client_ = std::make_unique<Client>(test_engine_.engine.get(), options);
  }

  void Call(std::string_view op, std::string_view body, int status = 200) {
    Response r = client_->Call(op, body, caller_);
    ASSERT_EQ(r.http_status, status) << r.body;
  }

  void CreateTable(std::string_view name, std::string_view extra = "") {
    Call("CreateTable", std::string(R"({"TableName":")") + std::string(name) +
                            R"(","BillingMode":"PAY_PER_REQUEST",)"
                            R"("AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],)"
                            R"("KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}])" +
                            std::string(extra) + "}");
  }

  void Put(std::string_view table, std::string_view pk) {
    Call("PutItem", std::string(R"({"TableName":")") + std::string(table) +
                        R"(","Item":{"pk":{"S":")" + std::string(pk) + R"("}}})");
  }

  TestEngine test_engine_;
  RequestMetrics requests_;
  CallerIdentity caller_{"AKID", "us-east-1"};
  std::unique_ptr<Client> client_;
};

TEST_F(PrometheusExpositionTest, RequestAndCapacitySeriesOfATable) {
  CreateTable("Music");
  for (const char* pk : {"a", "b", "c"}) Put("Music", pk);
  Call("GetItem", R"({"TableName":"Music","Key":{"pk":{"S":"a"}}})");
  Call("GetItem", R"({"TableName":"Nope","Key":{"pk":{"S":"a"}}})", 400);
  const std::string text = RenderMetrics(test_engine_.engine.get(), &requests_);

  const std::string labels = R"(namespace="AKID_us-east-1",table="Music")";
  EXPECT_THAT(text, HasSubstr("# TYPE dynamodb_consumed_write_capacity_units_total counter\n"));
  EXPECT_THAT(text, HasSubstr("dynamodb_consumed_write_capacity_units_total{" + labels + "} 3\n"));
  EXPECT_THAT(text, HasSubstr("dynamodb_consumed_read_capacity_units_total{" + labels + "} 0.5\n"));
  EXPECT_THAT(text, HasSubstr("dynarock_items{" + labels + "} 3\n"));
  EXPECT_THAT(text, HasSubstr("dynarock_partitions{" + labels + "} "));
  EXPECT_THAT(text, HasSubstr("dynarock_partition_consumed_write_units_total{" + labels +
                              ",partition=\""));
  EXPECT_THAT(text, HasSubstr("dynarock_requests_total{" + labels + R"(,operation="PutItem"} 3)"));
  EXPECT_THAT(text, HasSubstr("dynamodb_successful_request_latency_seconds_count{" + labels +
                              R"(,operation="PutItem"} 3)"));
  EXPECT_THAT(text, HasSubstr("dynamodb_successful_request_latency_seconds_bucket{" + labels +
                              R"(,operation="PutItem",le="+Inf"} 3)"));
  // The unknown table is a user error of the namespace, not a table.
  EXPECT_THAT(text, HasSubstr(R"(dynamodb_user_errors_total{namespace="AKID_us-east-1",operation="GetItem"} 1)"));
  EXPECT_THAT(text, Not(HasSubstr("Nope")));
  EXPECT_THAT(text, HasSubstr("dynarock_metrics_tables 1\n"));
}

TEST_F(PrometheusExpositionTest, GsiSeriesCarryTheIndexLabel) {
  Call("CreateTable",
       R"({"TableName":"Orders","BillingMode":"PAY_PER_REQUEST",
           "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                                   {"AttributeName":"g","AttributeType":"S"}],
           "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
           "GlobalSecondaryIndexes":[{"IndexName":"ByG",
              "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
              "Projection":{"ProjectionType":"ALL"}}]})");
  Call("PutItem", R"({"TableName":"Orders","Item":{"pk":{"S":"a"},"g":{"S":"x"}}})");
  ASSERT_TRUE(test_engine_->WaitUntilIndexesCaughtUp().ok());
  const std::string text = RenderMetrics(test_engine_.engine.get(), &requests_);
  EXPECT_THAT(text, HasSubstr(R"(dynamodb_consumed_write_capacity_units_total{namespace="AKID_us-east-1",table="Orders",index="ByG"} 1)"));
  EXPECT_THAT(text, HasSubstr(R"(dynarock_index_backfilling{namespace="AKID_us-east-1",table="Orders",index="ByG"} 0)"));
}

// CloudWatch's TimeToLiveDeletedItemCount, a table metric: the items a
// sweep deleted; the GSI's series have none.
TEST_F(PrometheusExpositionTest, TimeToLiveDeletionsAreCountedPerTable) {
  Call("CreateTable",
       R"({"TableName":"Sessions","BillingMode":"PAY_PER_REQUEST",
           "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"},
                                   {"AttributeName":"g","AttributeType":"S"}],
           "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}],
           "GlobalSecondaryIndexes":[{"IndexName":"ByG",
              "KeySchema":[{"AttributeName":"g","KeyType":"HASH"}],
              "Projection":{"ProjectionType":"ALL"}}]})");
  Call("UpdateTimeToLive",
       R"({"TableName":"Sessions","TimeToLiveSpecification":{"Enabled":true,"AttributeName":"exp"}})");
  const std::string past = std::to_string(test_engine_.clock.NowMicros() / 1'000'000 - 10);
  for (const char* pk : {"a", "b", "c"}) {
    Call("PutItem", std::string(R"({"TableName":"Sessions","Item":{"pk":{"S":")") + pk +
                        R"("},"g":{"S":"x"},"exp":{"N":")" + past + R"("}}})");
  }
  Put("Sessions", "kept");
  Call("DynamoRock_20251121.RunTimeToLiveSweep", R"({"TableName":"Sessions"})");
  const std::string text = RenderMetrics(test_engine_.engine.get(), &requests_);
  EXPECT_THAT(text, HasSubstr("# TYPE dynamodb_time_to_live_deleted_item_count_total counter\n"));
  EXPECT_THAT(text, HasSubstr(R"(dynamodb_time_to_live_deleted_item_count_total{namespace="AKID_us-east-1",table="Sessions"} 3)"));
  EXPECT_THAT(text, Not(HasSubstr(R"(dynamodb_time_to_live_deleted_item_count_total{namespace="AKID_us-east-1",table="Sessions",index="ByG"})")));
}

TEST_F(PrometheusExpositionTest, AReplicaShowsItsReplicationLatencyAndBacklog) {
  CreateTable("Orders");
  Call("UpdateTable",
       R"({"TableName":"Orders","ReplicaUpdates":[{"Create":{"RegionName":"us-west-2"}}]})");
  Put("Orders", "a");
  Put("Orders", "b");
  // Applied in us-west-2 on the first call after the default 1 s lag, 2 s
  // after the writes; then one more change waits.
  Call("DynamoRock_20251121.AdvanceClock", R"({"Seconds":2})");
  const CallerIdentity west{"AKID", "us-west-2"};
  Response r = client_->Call("GetItem", R"({"TableName":"Orders","Key":{"pk":{"S":"a"}}})", west);
  ASSERT_EQ(r.http_status, 200) << r.body;
  ASSERT_NE(r.body.find("\"a\""), std::string::npos) << r.body;
  Put("Orders", "c");
  const std::string text = RenderMetrics(test_engine_.engine.get(), &requests_);
  EXPECT_THAT(text, HasSubstr("# TYPE dynamodb_replication_latency_seconds gauge\n"));
  // The west replica's labels, without the closing brace.
  const std::string labels =
      R"({namespace="AKID_us-west-2",table="Orders",receiving_region="us-west-2")";
  EXPECT_THAT(text, HasSubstr("dynamodb_replication_latency_seconds" + labels +
                              R"(,quantile="0.5"} 2)"));
  EXPECT_THAT(text, HasSubstr("dynamodb_replication_latency_seconds" + labels +
                              R"(,quantile="1"} 2)"));
  EXPECT_THAT(text, HasSubstr("dynarock_replication_pending_changes" + labels + "} 1\n"));
  // The source has received nothing: a backlog of 0 and no latency yet.
  EXPECT_THAT(text, HasSubstr(
      R"(dynarock_replication_pending_changes{namespace="AKID_us-east-1",table="Orders",receiving_region="us-east-1"} 0)"));
  EXPECT_THAT(text, Not(HasSubstr(R"(dynamodb_replication_latency_seconds{namespace="AKID_us-east-1")")));
}

TEST_F(PrometheusExpositionTest, TablesBeyondTheBoundAreOmittedAndCounted) {
  for (const char* name : {"Aaa", "Bbb", "Ccc"}) CreateTable(name);
  ExpositionOptions options;
  options.max_tables = 2;
  const std::string text = RenderMetrics(test_engine_.engine.get(), &requests_, options);
  EXPECT_THAT(text, HasSubstr(R"(table="Aaa")"));
  EXPECT_THAT(text, HasSubstr(R"(table="Bbb")"));
  EXPECT_THAT(text, Not(HasSubstr(R"(dynarock_partitions{namespace="AKID_us-east-1",table="Ccc")")));
  EXPECT_THAT(text, HasSubstr("dynarock_metrics_omitted{what=\"tables\"} 1\n"));
}

TEST_F(PrometheusExpositionTest, ProvisionedTablesShowTheirCapacity) {
  Call("CreateTable",
       R"({"TableName":"Prov","ProvisionedThroughput":{"ReadCapacityUnits":7,"WriteCapacityUnits":3},
           "AttributeDefinitions":[{"AttributeName":"pk","AttributeType":"S"}],
           "KeySchema":[{"AttributeName":"pk","KeyType":"HASH"}]})");
  const std::string text = RenderMetrics(test_engine_.engine.get(), &requests_);
  EXPECT_THAT(text, HasSubstr(R"(dynamodb_provisioned_read_capacity_units{namespace="AKID_us-east-1",table="Prov"} 7)"));
  EXPECT_THAT(text, HasSubstr(R"(dynamodb_provisioned_write_capacity_units{namespace="AKID_us-east-1",table="Prov"} 3)"));
}

TEST_F(PrometheusExpositionTest, EveryFamilyIsDeclaredOnceAndSamplesFollowIt) {
  CreateTable("Music");
  Put("Music", "a");
  const std::string text = RenderMetrics(test_engine_.engine.get(), &requests_);
  std::set<std::string> declared;
  std::string current;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    ASSERT_NE(end, std::string::npos);
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    if (line.rfind("# TYPE ", 0) == 0) {
      current = line.substr(7, line.find(' ', 7) - 7);
      EXPECT_TRUE(declared.insert(current).second) << current;
    } else if (line[0] != '#') {
      // A sample of the family declared last (its name, or with a suffix).
      EXPECT_EQ(line.rfind(current, 0), 0u) << line << " under " << current;
    }
  }
}

}  // namespace
}  // namespace dynarock::api::metrics
