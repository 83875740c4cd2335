// tests/api/console/console_access_test.cc

#include "api/console/console_access.h"

#include <gtest/gtest.h>

namespace dynarock::api::console {
namespace {

TEST(ConsoleAccessTest, TheViewsReadsAreAllowed) {
  for (const char* op : {"ListTables", "DescribeTable", "Scan", "Query", "GetItem",
                         "DescribeTimeToLive", "DynamoRock_20251121.DescribeCapacity",
                         "DynamoRock_20251121.DescribeClock",
                         "DynamoRock_20251121.DescribeIndexPropagation",
                         "DynamoRock_20251121.DescribeStreamStats",
                         "DynamoDBStreams_20120810.DescribeStream"}) {
    EXPECT_TRUE(ReadsOnly(op)) << op;
    EXPECT_TRUE(ConsoleMayCall(ConsoleOptions{ConsoleAccess::kLoopback, false}, op)) << op;
  }
}

TEST(ConsoleAccessTest, WritesOnlyWithConsoleWrite) {
  for (const char* op : {"PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem",
                         "TransactWriteItems", "CreateTable", "DeleteTable", "UpdateTable",
                         "UpdateTimeToLive", "ExecuteStatement", "TagResource",
                         "DynamoDBStreams_20120810.GetRecords",
                         "DynamoDBStreams_20120810.GetShardIterator",
                         "DynamoRock_20251121.AdvanceClock", "DynamoRock_20251121.PutFaultRule",
                         "DynamoRock_20251121.SetThrottling", "DynamoRock_20251121.RunTimeToLiveSweep",
                         "scan", "", "NoSuchOperation"}) {
    EXPECT_FALSE(ReadsOnly(op)) << op;
    EXPECT_FALSE(ConsoleMayCall(ConsoleOptions{ConsoleAccess::kLoopback, false}, op)) << op;
    EXPECT_TRUE(ConsoleMayCall(ConsoleOptions{ConsoleAccess::kLoopback, true}, op)) << op;
  }
}

}  // namespace
}  // namespace dynarock::api::console
