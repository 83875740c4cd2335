// StreamReads: DynamoDB Streams' read limits on the simulated clock (10
// GetRecords per second per shard, DescribeStream 10 and ListStreams 5 per
// second), enforced only with throttling on; and the per-shard read
// statistics and lag that Engine::DescribeStreamStats reports, with the
// stream storage size that trimming frees.

#include "engine/stream/stream_reads.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

using ::testing::SizeIs;

constexpr int64_t kSecond = 1'000'000;
constexpr int64_t kHour = int64_t{3600} * kSecond;

TEST(StreamReadsTest, GetRecordsTenCallsPerSecondPerShard) {
  SimulatedClock clock;
  StreamReads reads(&clock, StreamReadLimits{});
  for (int i = 0; i < 10; ++i) ASSERT_OK(reads.AdmitGetRecords(1, 0, true));
  EXPECT_THAT(reads.AdmitGetRecords(1, 0, true),
              StatusIs(ErrorCode::kLimitExceeded, "Rate exceeded"));
  // Another shard has its own limit.
  ASSERT_OK(reads.AdmitGetRecords(1, 1, true));
  // One call's worth comes back after a tenth of a second.
  clock.Advance(kSecond / 10 - 1);
  EXPECT_FALSE(reads.AdmitGetRecords(1, 0, true).ok());
  clock.Advance(1);
  ASSERT_OK(reads.AdmitGetRecords(1, 0, true));
  EXPECT_FALSE(reads.AdmitGetRecords(1, 0, true).ok());
  // Not enforced: admitted (and counted) whatever the rate.
  ASSERT_OK(reads.AdmitGetRecords(1, 0, false));
  ShardReadStats stats = reads.Stats(1, 0);
  EXPECT_EQ(stats.get_records_calls, 12u);
  EXPECT_EQ(stats.throttled_calls, 3u);
}

TEST(StreamReadsTest, DescribeStreamTenAndListStreamsFivePerSecondPerNamespace) {
  SimulatedClock clock;
  StreamReads reads(&clock, StreamReadLimits{});
  for (int i = 0; i < 10; ++i) ASSERT_OK(reads.AdmitDescribeStream("a", true));
  // ThrottlingException, which SDKs retry, unlike GetRecords' LimitExceeded.
  EXPECT_THAT(reads.AdmitDescribeStream("a", true),
              StatusIs(ErrorCode::kThrottling, "Rate exceeded"));
  ASSERT_OK(reads.AdmitDescribeStream("b", true));
  for (int i = 0; i < 5; ++i) ASSERT_OK(reads.AdmitListStreams("a", true));
  EXPECT_FALSE(reads.AdmitListStreams("a", true).ok());
  clock.Advance(kSecond);
  ASSERT_OK(reads.AdmitDescribeStream("a", true));
  ASSERT_OK(reads.AdmitListStreams("a", true));
}

TEST(StreamReadsTest, ReadPositionOnlyMovesForward) {
  SimulatedClock clock;
  StreamReads reads(&clock, StreamReadLimits{});
  reads.RecordRead(1, 0, 3, 300, 10);
  reads.RecordRead(1, 0, 1, 100, 7);  // a slower second reader
  ShardReadStats stats = reads.Stats(1, 0);
  EXPECT_EQ(stats.records_read, 4u);
  EXPECT_EQ(stats.bytes_read, 400u);
  EXPECT_EQ(stats.read_position, 10u);
}

// --- Through the engine ---------------------------------------------------

CreateTableRequest StreamTable(const std::string& name) {
  CreateTableRequest req = SimpleTable(name);
  req.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  return req;
}

struct StreamFixture {
  explicit StreamFixture(EngineOptions options = TestEngine::Options()) : db(options) {
    EXPECT_OK(db->CreateTable(StreamTable("Tab")).status());
    DescribeTableRequest dt;
    dt.table_name = "Tab";
    arn = db->DescribeTable(dt)->latest_stream_arn;
  }
  StreamDescription Describe() {
    DescribeStreamRequest req;
    req.stream_arn = arn;
    Result<StreamDescription> d = db->DescribeStream(req);
    EXPECT_OK(d.status());
    return d.ok() ? *d : StreamDescription();
  }
  std::string Iterator(const std::string& shard) {
    GetShardIteratorRequest req;
    req.stream_arn = arn;
    req.shard_id = shard;
    Result<std::string> it = db->GetShardIterator(req);
    EXPECT_OK(it.status());
    return it.ok() ? *it : "";
  }
  Status Put(const std::string& pk, const char* sk) {
    PutItemRequest req;
    req.table_name = "Tab";
    req.item = SimpleItem(pk, sk, std::string(100, 'x'));
    return db->PutItem(req).status();
  }
  // The one shard holding records after Put("a", ...).
  std::string ShardOf(const std::string& pk) {
    StreamStorageStats stats = *db->DescribeStreamStats(Scope{}, "Tab");
    for (const ShardStats& s : stats.streams.at(0).shards) {
      if (s.records > 0) return s.shard_id;
    }
    (void)pk;
    return "";
  }
  TestEngine db;
  std::string arn;
};

TEST(StreamReadsTest, EngineRefusesTheEleventhGetRecordsOfASecondWithThrottlingOn) {
  EngineOptions options = TestEngine::Options();
  options.throttling = true;
  StreamFixture f(options);
  const std::string shard = f.Describe().shards.at(0).shard_id;
  GetRecordsRequest req;
  req.shard_iterator = f.Iterator(shard);
  for (int i = 0; i < 10; ++i) ASSERT_OK(f.db->GetRecords(req).status());
  EXPECT_THAT(f.db->GetRecords(req).status(),
              StatusIs(ErrorCode::kLimitExceeded, "Rate exceeded"));
  f.db.clock.Advance(kSecond / 10);
  ASSERT_OK(f.db->GetRecords(req).status());
  // Off at runtime: nothing is refused.
  f.db->SetThrottling(false);
  for (int i = 0; i < 20; ++i) ASSERT_OK(f.db->GetRecords(req).status());
  f.db->SetThrottling(true);
  // DescribeStream: 10 a second for the namespace (one call made above).
  f.db.clock.Advance(kSecond);
  for (int i = 0; i < 10; ++i) f.Describe();
  DescribeStreamRequest d;
  d.stream_arn = f.arn;
  EXPECT_THAT(f.db->DescribeStream(d).status(),
              StatusIs(ErrorCode::kThrottling, "Rate exceeded"));
  ListStreamsRequest l;
  for (int i = 0; i < 5; ++i) ASSERT_OK(f.db->ListStreams(l).status());
  EXPECT_THAT(f.db->ListStreams(l).status(),
              StatusIs(ErrorCode::kThrottling, "Rate exceeded"));
}

TEST(StreamReadsTest, AnIteratorOfAShardThatIsGoneIsInvalidShardId) {
  StreamFixture f;
  const std::string shard = f.Describe().shards.at(0).shard_id;
  std::string it = f.Iterator(shard);
  const size_t bar = it.find("|shardId-");
  ASSERT_NE(bar, std::string::npos);
  it.replace(bar + 1, 8, "shardId-9");  // another (absent) shard id
  GetRecordsRequest req;
  req.shard_iterator = it;
  EXPECT_THAT(f.db->GetRecords(req).status(),
              StatusIs(ErrorCode::kResourceNotFound, "Invalid ShardId in ShardIterator"));
}

TEST(StreamReadsTest, StatsShowRecordsReadsAndLag) {
  StreamFixture f;
  ASSERT_OK(f.Put("a", "1"));
  f.db.clock.Advance(10 * kSecond);
  ASSERT_OK(f.Put("a", "2"));
  ASSERT_OK(f.Put("a", "3"));
  f.db.clock.Advance(5 * kSecond);
  const std::string shard = f.ShardOf("a");
  ASSERT_FALSE(shard.empty());
  auto shard_stats = [&]() {
    StreamStorageStats stats = *f.db->DescribeStreamStats(Scope{}, "Tab");
    for (const ShardStats& s : stats.streams.at(0).shards) {
      if (s.shard_id == shard) return s;
    }
    return ShardStats();
  };
  // Nobody read: everything is lag, the oldest record 15 s old.
  ShardStats s = shard_stats();
  EXPECT_EQ(s.records, 3u);
  EXPECT_GT(s.bytes, 300u);
  EXPECT_EQ(s.unread_records, 3u);
  EXPECT_EQ(s.oldest_unread_age_micros, 15 * kSecond);
  // A reader takes two records: one left, 5 s old.
  GetRecordsRequest req;
  req.shard_iterator = f.Iterator(shard);
  req.limit = 2;
  ASSERT_OK_AND_ASSIGN(GetRecordsResult r, f.db->GetRecords(req));
  ASSERT_THAT(r.records, SizeIs(2));
  s = shard_stats();
  EXPECT_EQ(s.get_records_calls, 1u);
  EXPECT_EQ(s.records_read, 2u);
  EXPECT_EQ(s.unread_records, 1u);
  EXPECT_EQ(s.oldest_unread_age_micros, 5 * kSecond);
  req.shard_iterator = *r.next_shard_iterator;
  ASSERT_OK(f.db->GetRecords(req).status());
  s = shard_stats();
  EXPECT_EQ(s.unread_records, 0u);
  EXPECT_EQ(s.oldest_unread_age_micros, 0);
  // Every table's streams without a name; none for a table without one.
  EXPECT_THAT(f.db->DescribeStreamStats(Scope{}, "")->streams, SizeIs(1));
  EXPECT_THAT(f.db->DescribeStreamStats(Scope{}, "Other")->streams, SizeIs(0));
}

TEST(StreamReadsTest, TrimmingFreesTheStreamStorage) {
  EngineOptions options = TestEngine::Options();
  options.stream_shard_rollover_micros = 1000 * kHour;
  options.stream_compaction_interval_micros = 0;
  StreamFixture f(options);
  for (int i = 0; i < 2000; ++i) {
    ASSERT_OK(f.Put("k" + std::to_string(i), "1"));
  }
  StreamStorageStats before = *f.db->DescribeStreamStats(Scope{}, "Tab");
  EXPECT_EQ(before.streams.at(0).records, 2000u);
  EXPECT_GT(before.storage_bytes, 200'000u);
  f.db.clock.Advance(25 * kHour);
  StreamStorageStats after = *f.db->DescribeStreamStats(Scope{}, "Tab");
  EXPECT_EQ(after.streams.at(0).records, 0u);
  EXPECT_LT(after.storage_bytes, before.storage_bytes / 10);
}

}  // namespace
}  // namespace dynarock
