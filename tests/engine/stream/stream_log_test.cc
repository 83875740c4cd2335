// StreamLog through the Engine: records in the item's own batch, shards
// that follow partition splits and roll over, retention and iterator
// expiry on the simulated clock, and a restart that keeps everything.

#include "engine/stream/stream_log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "engine/stream/stream_record.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

constexpr int64_t kHour = int64_t{3600} * 1'000'000;
constexpr int64_t kMinute = int64_t{60} * 1'000'000;

CreateTableRequest StreamTable(const std::string& name,
                               StreamViewType view = StreamViewType::kNewAndOldImages) {
  CreateTableRequest req = SimpleTable(name);
  req.stream_specification = StreamSpecification{true, view};
  return req;
}

std::string Arn(Engine* e, const std::string& table) {
  DescribeTableRequest req;
  req.table_name = table;
  Result<TableDescription> d = e->DescribeTable(req);
  EXPECT_OK(d.status());
  return d.ok() ? d->latest_stream_arn : "";
}

StreamDescription Describe(Engine* e, const std::string& arn) {
  DescribeStreamRequest req;
  req.stream_arn = arn;
  Result<StreamDescription> d = e->DescribeStream(req);
  EXPECT_OK(d.status());
  return d.ok() ? *d : StreamDescription();
}

std::string Iterator(Engine* e, const std::string& arn, const std::string& shard,
                     ShardIteratorType type = ShardIteratorType::kTrimHorizon,
                     std::optional<std::string> seq = std::nullopt) {
  GetShardIteratorRequest req;
  req.stream_arn = arn;
  req.shard_id = shard;
  req.type = type;
  req.sequence_number = seq;
  Result<std::string> it = e->GetShardIterator(req);
  EXPECT_OK(it.status());
  return it.ok() ? *it : "";
}

// Every record of the stream, shard by shard, parents first.
std::vector<StreamRecord> ReadAll(Engine* e, const std::string& arn) {
  std::vector<StreamRecord> out;
  for (const ShardDescription& shard : Describe(e, arn).shards) {
    std::optional<std::string> it = Iterator(e, arn, shard.shard_id);
    while (it) {
      GetRecordsRequest req;
      req.shard_iterator = *it;
      Result<GetRecordsResult> r = e->GetRecords(req);
      EXPECT_OK(r.status());
      if (!r.ok()) break;
      out.insert(out.end(), r->records.begin(), r->records.end());
      it = r->next_shard_iterator;
      if (r->records.empty()) break;
    }
  }
  return out;
}

Status Put(Engine* e, const std::string& table, const std::string& pk, const char* sk,
           std::string payload = "x") {
  PutItemRequest req;
  req.table_name = table;
  req.item = SimpleItem(pk, sk, std::move(payload));
  return e->PutItem(req).status();
}

TEST(StreamLogTest, OneRecordPerChangeInOrder) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(StreamTable("Tab")).status());
  const std::string arn = Arn(db.engine.get(), "Tab");
  ASSERT_OK(Put(db.engine.get(), "Tab", "a", "1", "v1"));
  ASSERT_OK(Put(db.engine.get(), "Tab", "a", "1", "v1"));  // unchanged: no record
  ASSERT_OK(Put(db.engine.get(), "Tab", "a", "1", "v2"));
  // A failed condition writes nothing, and no record.
  PutItemRequest conditional;
  conditional.table_name = "Tab";
  conditional.item = SimpleItem("a", "1", "v3");
  conditional.condition.condition_expression = "attribute_not_exists(pk)";
  EXPECT_THAT(db->PutItem(conditional).status(),
              StatusIs(ErrorCode::kConditionalCheckFailed, ::testing::_));
  DeleteItemRequest del;
  del.table_name = "Tab";
  del.key = SimpleKey("a", "1");
  ASSERT_OK(db->DeleteItem(del).status());
  std::vector<StreamRecord> records = ReadAll(db.engine.get(), arn);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].event_name, StreamEventName::kInsert);
  EXPECT_EQ(records[1].event_name, StreamEventName::kModify);
  EXPECT_EQ(records[1].old_image->at("payload"), AttributeValue::S("v1"));
  EXPECT_EQ(records[1].new_image->at("payload"), AttributeValue::S("v2"));
  EXPECT_EQ(records[2].event_name, StreamEventName::kRemove);
  EXPECT_LT(records[0].sequence_number, records[1].sequence_number);
  EXPECT_LT(records[1].sequence_number, records[2].sequence_number);
  EXPECT_EQ(records[0].approximate_creation_micros, db.clock.NowMicros());
}

TEST(StreamLogTest, TablesWithoutAStreamWriteNoRecords) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Plain")).status());
  ASSERT_OK(Put(db.engine.get(), "Plain", "a", "1"));
  ListStreamsRequest req;
  ASSERT_OK_AND_ASSIGN(ListStreamsResult r, db->ListStreams(req));
  EXPECT_TRUE(r.streams.empty());
}

TEST(StreamLogTest, SplitClosesTheShardAndOpensChildren) {
  EngineOptions options = TestEngine::Options();
  options.capacity.split_size_bytes = 8000;
  TestEngine db(options);
  ASSERT_OK(db->CreateTable(StreamTable("Tab")).status());
  const std::string arn = Arn(db.engine.get(), "Tab");
  const size_t initial = Describe(db.engine.get(), arn).shards.size();
  ASSERT_GE(initial, 1u);
  std::map<std::string, int> versions;  // per item: how many writes
  for (int i = 0; i < 400; ++i) {
    const std::string pk = "k" + std::to_string(i % 100);
    ASSERT_OK(Put(db.engine.get(), "Tab", pk, "1", std::string(500, 'a' + i / 100)));
    ++versions[pk];
  }
  StreamDescription d = Describe(db.engine.get(), arn);
  ASSERT_GT(d.shards.size(), initial);
  std::map<std::string, const ShardDescription*> by_id;
  for (const ShardDescription& s : d.shards) by_id[s.shard_id] = &s;
  int children = 0;
  for (const ShardDescription& s : d.shards) {
    if (!s.parent_shard_id) continue;
    ++children;
    // Every parent is listed before its child, closed, and ends before
    // the child starts.
    ASSERT_TRUE(by_id.count(*s.parent_shard_id));
    const ShardDescription& parent = *by_id[*s.parent_shard_id];
    ASSERT_TRUE(parent.ending_sequence_number);
    EXPECT_LT(*parent.ending_sequence_number, s.starting_sequence_number);
  }
  EXPECT_GE(children, 2);
  // Read parents first: every write's record, in order per item.
  std::vector<StreamRecord> records = ReadAll(db.engine.get(), arn);
  ASSERT_EQ(records.size(), 400u);
  std::map<std::string, std::string> last_payload;
  std::map<std::string, int> seen;
  for (const StreamRecord& r : records) {
    const std::string pk = r.keys.at("pk").s();
    ++seen[pk];
    const std::string payload = r.new_image->at("payload").s();
    if (last_payload.count(pk)) {
      EXPECT_LT(last_payload[pk], payload) << pk;
    }
    last_payload[pk] = payload;
  }
  EXPECT_EQ(seen, versions);
  // CHILD_SHARDS lists only a parent's children.
  const ShardDescription& child = *std::find_if(
      d.shards.begin(), d.shards.end(),
      [](const ShardDescription& s) { return s.parent_shard_id.has_value(); });
  DescribeStreamRequest filter;
  filter.stream_arn = arn;
  filter.child_shards_of = *child.parent_shard_id;
  ASSERT_OK_AND_ASSIGN(StreamDescription kids, db->DescribeStream(filter));
  EXPECT_EQ(kids.shards.size(), 2u);
  for (const ShardDescription& s : kids.shards) {
    EXPECT_EQ(s.parent_shard_id, child.parent_shard_id);
  }
}

TEST(StreamLogTest, ShardsRollOverOnTheClock) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(StreamTable("Tab")).status());
  const std::string arn = Arn(db.engine.get(), "Tab");
  ASSERT_OK(Put(db.engine.get(), "Tab", "a", "1", "before"));
  const size_t initial = Describe(db.engine.get(), arn).shards.size();
  db.clock.Advance(4 * kHour);
  ASSERT_OK(Put(db.engine.get(), "Tab", "a", "1", "after"));
  StreamDescription d = Describe(db.engine.get(), arn);
  ASSERT_EQ(d.shards.size(), 2 * initial);
  for (size_t i = 0; i < initial; ++i) {
    EXPECT_TRUE(d.shards[i].ending_sequence_number);
    EXPECT_EQ(d.shards[initial + i].parent_shard_id, d.shards[i].shard_id);
    EXPECT_FALSE(d.shards[initial + i].ending_sequence_number);
  }
  std::vector<StreamRecord> records = ReadAll(db.engine.get(), arn);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].new_image->at("payload"), AttributeValue::S("before"));
  EXPECT_EQ(records[1].new_image->at("payload"), AttributeValue::S("after"));
}

TEST(StreamLogTest, IteratorsExpireAfterFifteenMinutes) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(StreamTable("Tab")).status());
  const std::string arn = Arn(db.engine.get(), "Tab");
  const std::string shard = Describe(db.engine.get(), arn).shards[0].shard_id;
  GetRecordsRequest req;
  req.shard_iterator = Iterator(db.engine.get(), arn, shard);
  db.clock.Advance(15 * kMinute);
  ASSERT_OK(db->GetRecords(req).status());
  db.clock.Advance(1);
  EXPECT_THAT(db->GetRecords(req).status(),
              StatusIs(ErrorCode::kExpiredIterator, "Shard iterator has expired"));
  req.shard_iterator = "not an iterator";
  EXPECT_THAT(db->GetRecords(req).status(), StatusIs(ErrorCode::kValidation, ::testing::_));
}

TEST(StreamLogTest, RecordsPastTheRetentionAreTrimmed) {
  EngineOptions options = TestEngine::Options();
  options.stream_shard_rollover_micros = 100 * kHour;
  TestEngine db(options);
  ASSERT_OK(db->CreateTable(StreamTable("Tab", StreamViewType::kKeysOnly)).status());
  const std::string arn = Arn(db.engine.get(), "Tab");
  ASSERT_OK(Put(db.engine.get(), "Tab", "a", "1", "old"));
  std::vector<StreamRecord> first = ReadAll(db.engine.get(), arn);
  ASSERT_EQ(first.size(), 1u);
  std::string shard;
  for (const ShardDescription& s : Describe(db.engine.get(), arn).shards) {
    GetRecordsRequest r;
    r.shard_iterator = Iterator(db.engine.get(), arn, s.shard_id);
    if (!db->GetRecords(r)->records.empty()) shard = s.shard_id;
  }
  ASSERT_FALSE(shard.empty());
  db.clock.Advance(24 * kHour - kMinute);
  GetRecordsRequest stale;
  stale.shard_iterator = Iterator(db.engine.get(), arn, shard);
  db.clock.Advance(2 * kMinute);
  // The call's own maintenance trims the record the iterator points at.
  EXPECT_THAT(db->GetRecords(stale).status(), StatusIs(ErrorCode::kTrimmedDataAccess, ::testing::_));
  GetShardIteratorRequest at;
  at.stream_arn = arn;
  at.shard_id = shard;
  at.type = ShardIteratorType::kAtSequenceNumber;
  at.sequence_number = first[0].sequence_number;
  EXPECT_THAT(db->GetShardIterator(at).status(), StatusIs(ErrorCode::kTrimmedDataAccess, ::testing::_));
  ASSERT_OK(Put(db.engine.get(), "Tab", "a", "1", "new"));
  std::vector<StreamRecord> now = ReadAll(db.engine.get(), arn);
  ASSERT_EQ(now.size(), 1u);
  EXPECT_GT(now[0].sequence_number, first[0].sequence_number);
}

TEST(StreamLogTest, DisabledStreamsGoAfterTheRetention) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(StreamTable("Tab")).status());
  const std::string arn = Arn(db.engine.get(), "Tab");
  UpdateTableRequest off;
  off.table_name = "Tab";
  off.stream_specification = StreamSpecification{false, std::nullopt};
  ASSERT_OK(db->UpdateTable(off).status());
  EXPECT_EQ(Describe(db.engine.get(), arn).stream_status, StreamStatus::kDisabled);
  db.clock.Advance(24 * kHour + kMinute);
  DescribeStreamRequest req;
  req.stream_arn = arn;
  EXPECT_THAT(db->DescribeStream(req).status(), StatusIs(ErrorCode::kResourceNotFound, ::testing::_));
}

TEST(StreamLogTest, RestartKeepsStreamsAndRecords) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("dynarock_stream_log_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  SimulatedClock clock;
  EngineOptions options = TestEngine::Options();
  options.in_memory = false;
  options.path = dir.string();
  options.clock = &clock;
  std::string arn;
  std::string last_seq;
  {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Engine> e, Engine::Open(options));
    ASSERT_OK(e->CreateTable(StreamTable("Tab")).status());
    arn = Arn(e.get(), "Tab");
    for (const char* sk : {"1", "2", "3"}) ASSERT_OK(Put(e.get(), "Tab", "a", sk));
    last_seq = ReadAll(e.get(), arn).back().sequence_number;
  }
  {
    ASSERT_OK_AND_ASSIGN(std::unique_ptr<Engine> e, Engine::Open(options));
    DescribeTableRequest dt;
    dt.table_name = "Tab";
    ASSERT_OK_AND_ASSIGN(TableDescription d, e->DescribeTable(dt));
    ASSERT_TRUE(d.stream_specification);
    EXPECT_TRUE(d.stream_specification->stream_enabled);
    EXPECT_EQ(d.stream_specification->stream_view_type, StreamViewType::kNewAndOldImages);
    EXPECT_EQ(d.latest_stream_arn, arn);
    ASSERT_EQ(ReadAll(e.get(), arn).size(), 3u);
    ASSERT_OK(Put(e.get(), "Tab", "a", "4"));
    std::vector<StreamRecord> records = ReadAll(e.get(), arn);
    ASSERT_EQ(records.size(), 4u);
    EXPECT_GT(records.back().sequence_number, last_seq);
  }
  std::filesystem::remove_all(dir);
}

TEST(StreamLogTest, UpdateTableRules) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(SimpleTable("Tab")).status());
  UpdateTableRequest req;
  req.table_name = "Tab";
  req.stream_specification = StreamSpecification{false, std::nullopt};
  EXPECT_THAT(db->UpdateTable(req).status(),
              StatusIs(ErrorCode::kValidation,
                       "Table has no stream to disable: TableName: Tab"));
  req.stream_specification = StreamSpecification{true, std::nullopt};
  EXPECT_THAT(db->UpdateTable(req).status(),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: If stream is being "
                       "enabled then UpdateViewType is required"));
  req.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  ASSERT_OK_AND_ASSIGN(TableDescription d, db->UpdateTable(req));
  EXPECT_FALSE(d.latest_stream_arn.empty());
  EXPECT_EQ(d.latest_stream_arn, d.table_arn + "/stream/" + d.latest_stream_label);
  req.stream_specification = StreamSpecification{true, StreamViewType::kKeysOnly};
  EXPECT_THAT(db->UpdateTable(req).status(),
              StatusIs(ErrorCode::kValidation,
                       "Table already has an enabled stream: TableName: Tab"));
  req.stream_specification = StreamSpecification{false, StreamViewType::kNewImage};
  EXPECT_THAT(db->UpdateTable(req).status(),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: If stream is being "
                       "disabled, then UpdateViewType must not be specified"));
  // Off and on again: a new stream with a new label; both listed. Off, the
  // table shows no StreamSpecification but keeps its LatestStreamArn.
  req.stream_specification = StreamSpecification{false, std::nullopt};
  ASSERT_OK_AND_ASSIGN(TableDescription off, db->UpdateTable(req));
  EXPECT_FALSE(off.stream_specification);
  EXPECT_EQ(off.latest_stream_arn, d.latest_stream_arn);
  db.clock.Advance(1000);
  req.stream_specification = StreamSpecification{true, StreamViewType::kKeysOnly};
  ASSERT_OK_AND_ASSIGN(TableDescription again, db->UpdateTable(req));
  EXPECT_NE(again.latest_stream_arn, d.latest_stream_arn);
  ListStreamsRequest list;
  list.table_name = "Tab";
  ASSERT_OK_AND_ASSIGN(ListStreamsResult streams, db->ListStreams(list));
  EXPECT_EQ(streams.streams.size(), 2u);
  list.limit = 1;
  ASSERT_OK_AND_ASSIGN(ListStreamsResult page, db->ListStreams(list));
  ASSERT_EQ(page.streams.size(), 1u);
  ASSERT_TRUE(page.last_evaluated_stream_arn);
  list.exclusive_start_stream_arn = page.last_evaluated_stream_arn;
  ASSERT_OK_AND_ASSIGN(ListStreamsResult rest, db->ListStreams(list));
  ASSERT_EQ(rest.streams.size(), 1u);
  EXPECT_NE(rest.streams[0].stream_arn, page.streams[0].stream_arn);
}

TEST(StreamLogTest, TimeToLiveDeletionsCarryTheServiceIdentity) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(StreamTable("Tab", StreamViewType::kOldImage)).status());
  const std::string arn = Arn(db.engine.get(), "Tab");
  UpdateTimeToLiveRequest ttl;
  ttl.table_name = "Tab";
  ttl.specification = TimeToLiveSpecification{true, "expires"};
  ASSERT_OK(db->UpdateTimeToLive(ttl).status());
  PutItemRequest put;
  put.table_name = "Tab";
  put.item = SimpleItem("a", "1");
  put.item["expires"] = AttributeValue::N(
      *Number::Parse(std::to_string(db.clock.NowMicros() / 1'000'000 - 10)));
  ASSERT_OK(db->PutItem(put).status());
  DeleteItemRequest del;  // a client's delete of another item: no identity
  del.table_name = "Tab";
  del.key = SimpleKey("b", "1");
  ASSERT_OK(Put(db.engine.get(), "Tab", "b", "1"));
  ASSERT_OK(db->DeleteItem(del).status());
  TimeToLiveSweepRequest sweep;
  sweep.table_name = "Tab";
  ASSERT_OK_AND_ASSIGN(TimeToLiveSweepResult swept, db->RunTimeToLiveSweep(sweep));
  EXPECT_EQ(swept.deleted_items, 1);
  int ttl_removes = 0;
  for (const StreamRecord& r : ReadAll(db.engine.get(), arn)) {
    if (r.event_name != StreamEventName::kRemove) {
      EXPECT_FALSE(r.user_identity);
      continue;
    }
    if (r.keys.at("pk").s() == "a") {
      ++ttl_removes;
      EXPECT_EQ(r.user_identity, (StreamUserIdentity{"Service", "dynamodb.amazonaws.com"}));
      EXPECT_TRUE(r.old_image);
    } else {
      EXPECT_FALSE(r.user_identity);
    }
  }
  EXPECT_EQ(ttl_removes, 1);
}

TEST(StreamLogTest, TransactionsWriteOneRecordPerChangedItem) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(StreamTable("Tab", StreamViewType::kNewImage)).status());
  const std::string arn = Arn(db.engine.get(), "Tab");
  ASSERT_OK(Put(db.engine.get(), "Tab", "b", "1"));
  TransactWriteItemsRequest tx;
  TransactWriteAction put;
  put.table_name = "Tab";
  put.item = SimpleItem("a", "1", "tx");
  TransactWriteAction del;
  del.kind = TransactWriteAction::Kind::kDelete;
  del.table_name = "Tab";
  del.key = SimpleKey("b", "1");
  tx.actions = {put, del};
  ASSERT_OK(db->TransactWriteItems(tx).status());
  // A cancelled transaction writes no record.
  TransactWriteAction check = put;
  check.item = SimpleItem("c", "1");
  check.condition_expression = "attribute_exists(pk)";
  tx.actions = {check};
  EXPECT_FALSE(db->TransactWriteItems(tx).ok());
  std::vector<std::string> events;
  for (const StreamRecord& r : ReadAll(db.engine.get(), arn)) {
    events.push_back(std::string(StreamEventNameOf(r.event_name)) + " " +
                     r.keys.at("pk").s());
  }
  std::sort(events.begin(), events.end());
  EXPECT_THAT(events, ::testing::ElementsAre("INSERT a", "INSERT b", "REMOVE b"));
}

TEST(StreamLogTest, DescriptorsRoundTrip) {
  ShardInfo s;
  s.index = 3;
  s.shard_id = "shardId-1";
  s.parent_shard_id = "shardId-0";
  s.begin = 5;
  s.end = 0;
  s.starting_seq = 10;
  s.ending_seq = 20;
  s.created_micros = -4;
  s.closed_micros = 9;
  s.trim_seq = 11;
  ASSERT_OK_AND_ASSIGN(ShardInfo back, DecodeShardDescriptor(EncodeShardDescriptor(s)));
  EXPECT_EQ(back.shard_id, s.shard_id);
  EXPECT_EQ(back.ending_seq, s.ending_seq);
  EXPECT_EQ(back.trim_seq, s.trim_seq);
  EXPECT_FALSE(DecodeShardDescriptor("").ok());
  EXPECT_EQ(StreamLabelAt(1'700'000'000'123'456), "2023-11-14T22:13:20.123");
}

}  // namespace
}  // namespace dynarock
