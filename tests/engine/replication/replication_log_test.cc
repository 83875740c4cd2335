// The replication log's records (engine/replication/replication_log.cc):
// last-writer-wins order, log keys ordered by target then stamp and parsed
// back, and what a member's change stages: its version and one record per
// target, nothing for other tables.
#include "engine/replication/replication_log.h"

#include <gtest/gtest.h>

#include "engine/clock.h"
#include "engine/keys/key_codec.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

TEST(ReplicationLogTest, NewerIsLaterStampThenGreaterRegion) {
  EXPECT_TRUE(Newer({2, "a"}, {1, "z"}));
  EXPECT_FALSE(Newer({1, "z"}, {2, "a"}));
  EXPECT_TRUE(Newer({1, "us-west-2"}, {1, "us-east-1"}));
  EXPECT_FALSE(Newer({1, "us-east-1"}, {1, "us-east-1"}));  // the same change
}

TEST(ReplicationLogTest, KeysOrderByTargetThenStampAndParseBack) {
  const std::string k1 = ReplicationLog::LogKey(3, 100, "us-east-1", "item");
  const std::string k2 = ReplicationLog::LogKey(3, 101, "eu-west-1", "a");
  EXPECT_LT(k1, k2);
  EXPECT_LT(k2, ReplicationLog::LogBegin(4));
  EXPECT_GE(k1, ReplicationLog::LogBegin(3));
  EXPECT_LT(k1, ReplicationLog::LogEnd(3, 100));  // inclusive of 100
  EXPECT_GE(k2, ReplicationLog::LogEnd(3, 100));
  const std::string item = "bytes";
  const std::string put = ReplicationLog::RecordValue(&item);
  ASSERT_OK_AND_ASSIGN(ReplicationLog::Record r, ReplicationLog::ParseRecord(k1, put));
  EXPECT_EQ(r.target_id, 3u);
  EXPECT_EQ(r.stamp_micros, 100);
  EXPECT_EQ(r.origin, "us-east-1");
  EXPECT_EQ(r.suffix, "item");
  ASSERT_TRUE(r.item.has_value());
  EXPECT_EQ(*r.item, "bytes");
  const std::string del = ReplicationLog::RecordValue(nullptr);
  ASSERT_OK_AND_ASSIGN(r, ReplicationLog::ParseRecord(k2, del));
  EXPECT_FALSE(r.item.has_value());
  EXPECT_FALSE(ReplicationLog::ParseRecord("short", put).ok());
  ASSERT_OK_AND_ASSIGN(ItemVersion v, ReplicationLog::DecodeVersion(
                                          ReplicationLog::EncodeVersion({42, "ap-south-1"})));
  EXPECT_EQ(v.stamp_micros, 42);
  EXPECT_EQ(v.origin_region, "ap-south-1");
  EXPECT_FALSE(ReplicationLog::DecodeVersion("1234").ok());
}

TEST(ReplicationLogTest, StagesVersionAndOneRecordPerTargetForMembersOnly) {
  StoreOptions options;
  options.in_memory = true;
  ASSERT_OK_AND_ASSIGN(auto store, Store::Open(options));
  SimulatedClock clock;
  ReplicationLog log(store.get(), &clock);
  TableInfo table;
  table.id = 7;
  const std::string key = keys::ItemKey(7, AttributeValue::S("a"), nullptr);
  const std::string item = "encoded";
  WriteBatch none;
  ASSERT_OK(log.Stage(table, key, &item, nullptr, &none));
  EXPECT_TRUE(none.empty());

  log.SetMember(7, "us-east-1", {{8, "us-west-2", "n8", "T"}, {9, "eu-west-1", "n9", "T"}});
  EXPECT_EQ(log.AllTargets().size(), 2u);
  WriteBatch batch;
  ASSERT_OK(log.Stage(table, key, &item, nullptr, &batch));
  ASSERT_OK(store->Write(&batch));
  const std::string suffix = key.substr(4);
  const int64_t now = clock.NowMicros();
  for (uint32_t target : {8u, 9u}) {
    ASSERT_OK_AND_ASSIGN(auto record, store->Get(Cf::kMeta, ReplicationLog::LogKey(
                                                                target, now, "us-east-1", suffix)));
    EXPECT_TRUE(record.has_value()) << target;
  }
  // A second write in the same microsecond is stamped one later: it
  // supersedes the first everywhere.
  WriteBatch again;
  ASSERT_OK(log.Stage(table, key, nullptr, nullptr, &again));
  ASSERT_OK(store->Write(&again));
  ASSERT_OK_AND_ASSIGN(auto version, store->Get(Cf::kMeta, ReplicationLog::VersionKey(7, suffix)));
  ASSERT_TRUE(version.has_value());
  ASSERT_OK_AND_ASSIGN(ItemVersion v, ReplicationLog::DecodeVersion(*version));
  EXPECT_EQ(v.stamp_micros, now + 1);
  // A replicated change keeps its version and fans out nowhere.
  ReplicatedChange change{5, "us-west-2", "unused"};
  WriteBatch replicated;
  ASSERT_OK(log.Stage(table, key, &item, &change, &replicated));
  ASSERT_OK(store->Write(&replicated));
  ASSERT_OK_AND_ASSIGN(version, store->Get(Cf::kMeta, ReplicationLog::VersionKey(7, suffix)));
  ASSERT_OK_AND_ASSIGN(v, ReplicationLog::DecodeVersion(*version));
  EXPECT_EQ(v.stamp_micros, 5);
  EXPECT_EQ(v.origin_region, "us-west-2");
  ASSERT_OK_AND_ASSIGN(auto fanned,
                       store->Get(Cf::kMeta, ReplicationLog::LogKey(8, 5, "us-west-2", suffix)));
  EXPECT_FALSE(fanned.has_value());
  log.RemoveMember(7);
  EXPECT_TRUE(log.AllTargets().empty());
}

}  // namespace
}  // namespace dynarock
