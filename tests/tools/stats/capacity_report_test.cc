// The readable `dynarock stats` report from a DescribeCapacity response:
// the exact layout of one table with a GSI, and lenient rendering of a
// partial response.

#include "tools/stats/capacity_report.h"

#include <gtest/gtest.h>

namespace dynarock::tools::stats {
namespace {

using api::Json;

Json Window(double read, double write, int64_t throttled_writes) {
  return Json{{"ConsumedReadUnits", read},
              {"ConsumedWriteUnits", write},
              {"ThrottledReadUnits", 0.0},
              {"ThrottledWriteUnits", throttled_writes * 300.0},
              {"ThrottledReadRequests", 0},
              {"ThrottledWriteRequests", throttled_writes}};
}

TEST(CapacityReportTest, TableThenPartitionsThenIndexesWithHotKeys) {
  Json partition0 = {{"Id", 0},
                     {"HashBegin", "0000000000000000"},
                     {"HashEnd", "8000000000000000"},
                     {"ItemCount", 3},
                     {"SizeBytes", 615424},
                     {"ReadBalance", 3000.0},
                     {"WriteBalance", 400.0},
                     {"LastMinute", Window(1.5, 600, 1)}};
  Json partition1 = {{"Id", 1},
                     {"HashBegin", "8000000000000000"},
                     {"HashEnd", "0000000000000000"},
                     {"ItemCount", 0},
                     {"SizeBytes", 0},
                     {"LastMinute", Window(0, 0, 0)}};
  Json table = {
      {"TableName", "Music"},
      {"Arn", "arn:aws:dynamodb:us-east-1:000000000000:table/Music"},
      {"ReadUnitsPerSecond", 12000},
      {"WriteUnitsPerSecond", 4000},
      {"ReadBalance", 12000.0},
      {"WriteBalance", 3400.0},
      {"PeakReadUnits", 1.5},
      {"PeakWriteUnits", 600.0},
      {"LastMinute", Window(1.5, 600, 1)},
      {"Partitions", {partition0, partition1}},
      {"HotKeys",
       {{{"Key", "\"Acme Band\""},
         {"Hash", "1a2b3c4d5e6f7081"},
         {"Units", 601.5},
         {"ReadUnits", 1.5},
         {"WriteUnits", 600.0},
         {"ThrottledUnits", 300.0}},
        {{"Key", std::string(40, 'k')},
         {"Hash", "9a2b3c4d5e6f7081"},
         {"Units", 1.0},
         {"ReadUnits", 0.0},
         {"WriteUnits", 1.0},
         {"ThrottledUnits", 0.0}}}}};
  Json gsi = {{"IndexName", "byGenre"},
              {"Arn", "arn:aws:dynamodb:us-east-1:000000000000:table/Music/index/byGenre"},
              {"ReadUnitsPerSecond", 12000},
              {"WriteUnitsPerSecond", 4000},
              {"ReadBalance", 12000.0},
              {"WriteBalance", 4000.0},
              {"LastMinute", Window(0, 0, 0)},
              {"Partitions", {partition1}},
              {"HotKeys", Json::array()}};
  Json stats = {{"BillingMode", "PAY_PER_REQUEST"},
                {"Table", table},
                {"GlobalSecondaryIndexes", {gsi}}};

  EXPECT_EQ(
      FormatCapacityReport(stats),
      "Table Music  PAY_PER_REQUEST  arn:aws:dynamodb:us-east-1:000000000000:table/Music\n"
      "  capacity     read 12000/s (balance 12000.0)  write 4000/s (balance 3400.0)  peak second: read 1.5  write 600.0\n"
      "  last minute  consumed read 1.5  write 600.0  throttled read 0.0 (0 requests)  write 300.0 (1 requests)\n"
      "\n"
      "  Partitions: 2 (consumed units, throttled requests: last minute)\n"
      "    ID  HASH RANGE       ITEMS        SIZE        READ       WRITE  THR READ  THR WRITE\n"
      "     0  0000..8000           3    601.0 KB         1.5       600.0         0          1\n"
      "     1  8000..end            0         0 B         0.0         0.0         0          0\n"
      "\n"
      "  Hot keys: 2 (units since the table was created)\n"
      "  KEY                       HASH                   UNITS        READ       WRITE   THROTTLED\n"
      "  \"Acme Band\"               1a2b3c4d5e6f7081       601.5         1.5       600.0       300.0\n"
      "  kkkkkkkkkkkkkkkkkkkkk...  9a2b3c4d5e6f7081         1.0         0.0         1.0         0.0\n"
      "\n"
      "Index byGenre of Music  arn:aws:dynamodb:us-east-1:000000000000:table/Music/index/byGenre\n"
      "  capacity     read 12000/s (balance 12000.0)  write 4000/s (balance 4000.0)  peak second: read 0.0  write 0.0\n"
      "  last minute  consumed read 0.0  write 0.0  throttled read 0.0 (0 requests)  write 0.0 (0 requests)\n"
      "\n"
      "  Partitions: 1 (consumed units, throttled requests: last minute)\n"
      "    ID  HASH RANGE       ITEMS        SIZE        READ       WRITE  THR READ  THR WRITE\n"
      "     1  8000..end            0         0 B         0.0         0.0         0          0\n"
      "\n"
      "  Hot keys: 0 (units since the table was created)\n");
}

TEST(CapacityReportTest, MissingOrMistypedMembersRenderAsZeros) {
  const std::string report =
      FormatCapacityReport(Json{{"Table", {{"TableName", "T"},
                                           {"ReadUnitsPerSecond", "many"},
                                           {"Partitions", {{{"Id", 0}}}}}}});
  EXPECT_NE(report.find("Table T"), std::string::npos) << report;
  EXPECT_NE(report.find("read 0/s"), std::string::npos) << report;
  EXPECT_NE(report.find("Partitions: 1"), std::string::npos) << report;
  EXPECT_NE(FormatCapacityReport(Json()).find("Partitions: 0"), std::string::npos);
  EXPECT_NE(FormatCapacityReport(Json::array()).find("Table "), std::string::npos);
}

TEST(CapacityReportTest, InjectedFaultsApartFromThrottles) {
  const std::string report = FormatCapacityReport(
      Json{{"Table", {{"TableName", "T"}}},
           {"InjectedFaults", {{"ThrottlingException", 3}, {"UnprocessedItems", 2}}}});
  EXPECT_NE(report.find("  injected by fault rules: ThrottlingException 3 UnprocessedItems 2\n"),
            std::string::npos)
      << report;
  EXPECT_EQ(FormatCapacityReport(Json{{"InjectedFaults", Json::object()}}).find("injected"),
            std::string::npos);
}

TEST(CapacityReportTest, HumanBytesAndHashRanges) {
  EXPECT_EQ(HumanBytes(0), "0 B");
  EXPECT_EQ(HumanBytes(1023), "1023 B");
  EXPECT_EQ(HumanBytes(1536), "1.5 KB");
  EXPECT_EQ(HumanBytes(int64_t{10} << 30), "10.0 GB");
  EXPECT_EQ(ShortHashRange("0000000000000000", "0000000000000000"), "0000..end");
  EXPECT_EQ(ShortHashRange("4000000000000000", "c000000000000000"), "4000..c000");
  EXPECT_EQ(ShortHashRange("", ""), "..end");
}

TEST(CapacityReportTest, StreamReportShowsShardsAndLag) {
  Json stats = Json::parse(R"({"StorageBytes": 2048, "Streams": [{
      "StreamArn": "arn:s", "StreamStatus": "ENABLED", "Records": 3, "Bytes": 1536,
      "Shards": [{"ShardId": "shardId-1", "Open": false, "Records": 1, "Bytes": 512,
                  "GetRecordsCalls": 4, "ThrottledCalls": 1, "RecordsRead": 1,
                  "UnreadRecords": 0, "OldestUnreadAgeSeconds": 0},
                 {"ShardId": "shardId-2", "ParentShardId": "shardId-1", "Open": true,
                  "Records": 2, "Bytes": 1024, "GetRecordsCalls": 0,
                  "ThrottledCalls": 0, "RecordsRead": 0, "UnreadRecords": 2,
                  "OldestUnreadAgeSeconds": 12.5}]}]})");
  EXPECT_EQ(FormatStreamReport(stats),
            "\nStream storage: 2.0 KB (every stream of the database)\n"
            "\nStream arn:s (ENABLED): 3 records, 1.5 KB, 2 shards\n"
            "  SHARD                                   STATE    RECORDS        SIZE"
            "     READS  THROTTLED    UNREAD   OLDEST (s)\n"
            "  shardId-1                               closed         1       512 B"
            "         4          1         0          0.0\n"
            "  shardId-2                               open           2      1.0 KB"
            "         0          0         2         12.5\n");
  EXPECT_EQ(FormatStreamReport(Json::parse(R"({"Streams": []})")), "");
  EXPECT_EQ(FormatStreamReport(Json()), "");
}

}  // namespace
}  // namespace dynarock::tools::stats
