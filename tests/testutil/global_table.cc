#include "tests/testutil/global_table.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include "tests/testutil/status_matchers.h"

namespace dynarock::global_table_test {

Scope In(const std::string& region) {
  Scope s;
  s.access_key = "AKID";
  s.region = region;
  s.ns = NamespaceFor("AKID", region);
  return s;
}

EngineOptions Options() {
  EngineOptions o = TestEngine::Options();
  o.replication_lag_micros = kLag;
  return o;
}

void Put(Engine* db, const Scope& scope, const std::string& pk, const std::string& payload) {
  PutItemRequest req;
  req.scope = scope;
  req.table_name = "Tab";
  req.item = SimpleItem(pk, "1", payload);
  ASSERT_OK(db->PutItem(req).status());
}

void Delete(Engine* db, const Scope& scope, const std::string& pk) {
  DeleteItemRequest req;
  req.scope = scope;
  req.table_name = "Tab";
  req.key = SimpleKey(pk, "1");
  ASSERT_OK(db->DeleteItem(req).status());
}

std::string Get(Engine* db, const Scope& scope, const std::string& pk) {
  GetItemRequest req;
  req.scope = scope;
  req.table_name = "Tab";
  req.key = SimpleKey(pk, "1");
  req.consistent_read = true;
  Result<GetItemResult> got = db->GetItem(req);
  EXPECT_OK(got.status());
  if (!got.ok() || !got->item) return "";
  return got->item->at("payload").s();
}

Result<TableDescription> Replicas(Engine* db, const Scope& scope,
                                  std::vector<ReplicationGroupUpdate> updates) {
  UpdateTableRequest req;
  req.scope = scope;
  req.table_name = "Tab";
  req.replica_updates = std::move(updates);
  return db->UpdateTable(req);
}

ReplicationGroupUpdate Action(ReplicationGroupUpdate::Action action, const std::string& region) {
  ReplicationGroupUpdate u;
  u.action = action;
  u.region_name = region;
  return u;
}

TableDescription Describe(Engine* db, const Scope& scope) {
  DescribeTableRequest req;
  req.scope = scope;
  req.table_name = "Tab";
  Result<TableDescription> d = db->DescribeTable(req);
  EXPECT_OK(d.status());
  return d.ok() ? *d : TableDescription();
}

std::vector<StreamRecord> StreamRecords(Engine* db, const Scope& scope) {
  std::vector<StreamRecord> out;
  DescribeStreamRequest ds;
  ds.scope = scope;
  ds.stream_arn = Describe(db, scope).latest_stream_arn;
  Result<StreamDescription> desc = db->DescribeStream(ds);
  EXPECT_OK(desc.status());
  if (!desc.ok()) return out;
  for (const ShardDescription& shard : desc->shards) {
    GetShardIteratorRequest gi;
    gi.scope = scope;
    gi.stream_arn = ds.stream_arn;
    gi.shard_id = shard.shard_id;
    Result<std::string> iterator = db->GetShardIterator(gi);
    EXPECT_OK(iterator.status());
    if (!iterator.ok()) continue;
    GetRecordsRequest gr;
    gr.scope = scope;
    gr.shard_iterator = *iterator;
    Result<GetRecordsResult> got = db->GetRecords(gr);
    EXPECT_OK(got.status());
    if (got.ok()) out.insert(out.end(), got->records.begin(), got->records.end());
  }
  return out;
}

void MakeGlobal(TestEngine& db, bool stream) {
  ASSERT_OK(db->AdvanceClock(10 * kLag).status());
  CreateTableRequest create = SimpleTable("Tab");
  create.scope = kEast;
  if (stream) create.stream_specification = StreamSpecification{true, StreamViewType::kNewAndOldImages};
  ASSERT_OK(db->CreateTable(create).status());
  ASSERT_OK(
      Replicas(db.engine.get(), kEast, {Action(ReplicationGroupUpdate::Action::kCreate, "us-west-2")})
          .status());
}

DiskDatabase::DiskDatabase(const std::string& name)
    : dir(std::filesystem::temp_directory_path() /
          ("dynarock_" + name + "_" + std::to_string(::getpid()))),
      options(Options()) {
  std::filesystem::remove_all(dir);
  options.in_memory = false;
  options.path = dir.string();
  options.clock = &clock;
}

DiskDatabase::~DiskDatabase() { std::filesystem::remove_all(dir); }

}  // namespace dynarock::global_table_test
