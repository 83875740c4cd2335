// The restore pipeline (engine/backup/table_restore.cc), through the Engine:
// a table with two GSIs and an LSI restored from a backup is identical to
// its source (items, every index's entries, item count, size, partitions),
// and passes the consistency checker; the definition's overrides; a failed
// restore leaves nothing behind.
#include "engine/backup/table_restore.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/engine/backup/backup_test_util.h"
#include "tests/testutil/status_matchers.h"
#include "tests/testutil/test_engine.h"

namespace dynarock {
namespace {

std::string Backup(Engine* db, const std::string& table) {
  CreateBackupRequest req;
  req.table_name = table;
  req.backup_name = "b-" + table;
  auto b = db->CreateBackup(req);
  EXPECT_OK(b.status());
  return b.ok() ? b->backup_arn : "";
}

Result<TableDescription> Restore(Engine* db, const std::string& arn,
                                 const std::string& target,
                                 RestoreOverrides overrides = {}) {
  RestoreTableFromBackupRequest req;
  req.backup_arn = arn;
  req.target_table_name = target;
  req.overrides = std::move(overrides);
  return db->RestoreTableFromBackup(req);
}

TableDescription Describe(Engine* db, const std::string& table) {
  DescribeTableRequest req;
  req.table_name = table;
  auto d = db->DescribeTable(req);
  EXPECT_OK(d.status());
  return d.ok() ? *d : TableDescription();
}

TEST(TableRestoreTest, RestoredTableWithTwoGsisIsIdenticalToItsSource) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(IndexedTable("Src")).status());
  for (int i = 0; i < 2000; ++i) {
    PutItemRequest put;
    put.table_name = "Src";
    put.item = IndexedItem(i);
    ASSERT_OK(db->PutItem(put).status());
  }
  ASSERT_OK(db->WaitUntilIndexesCaughtUp());
  const std::string arn = Backup(db.engine.get(), "Src");
  ASSERT_OK(Restore(db.engine.get(), arn, "Dst").status());

  EXPECT_EQ(Contents(db.engine.get(), "Dst"), Contents(db.engine.get(), "Src"));
  EXPECT_EQ(Contents(db.engine.get(), "Src").size(), 2000u);
  for (const char* index : {"byG", "byH", "byL"}) {
    EXPECT_EQ(Contents(db.engine.get(), "Dst", index),
              Contents(db.engine.get(), "Src", index))
        << index;
  }
  const TableDescription src = Describe(db.engine.get(), "Src");
  const TableDescription dst = Describe(db.engine.get(), "Dst");
  EXPECT_EQ(dst.item_count, 2000);
  EXPECT_EQ(dst.item_count, src.item_count);
  EXPECT_EQ(dst.table_size_bytes, src.table_size_bytes);
  EXPECT_EQ(dst.key_schema, src.key_schema);
  ASSERT_EQ(dst.global_secondary_indexes.size(), 2u);
  EXPECT_EQ(dst.global_secondary_indexes[1].def.projection.type, ProjectionType::kKeysOnly);
  EXPECT_EQ(dst.local_secondary_indexes.size(), 1u);
  EXPECT_NE(dst.table_id, src.table_id);
  // Indexes, counters and item-collection sizes agree with the items.
  EXPECT_OK(db->VerifyIndexes(Scope(), "Dst"));
  // The throughput model sees the restored items in its partitions.
  ASSERT_OK_AND_ASSIGN(TableThroughputStats stats, db->DescribeCapacity(Scope(), "Dst"));
  int64_t items = 0;
  for (const PartitionStats& p : stats.table.partitions) items += p.items;
  EXPECT_EQ(items, 2000);
  // The restored table is a table like any other: writes maintain its indexes.
  PutItemRequest put;
  put.table_name = "Dst";
  put.item = IndexedItem(5000, "new");
  ASSERT_OK(db->PutItem(put).status());
  ASSERT_OK(db->WaitUntilIndexesCaughtUp());
  EXPECT_OK(db->VerifyIndexes(Scope(), "Dst"));
  EXPECT_EQ(Describe(db.engine.get(), "Dst").item_count, 2001);
}

// The size: 100,000 items (BatchWriteItem of 25), both GSIs and the
// LSI; the restored table equals its source item for item and entry for
// entry, and every counter DescribeTable reports agrees.
TEST(TableRestoreTest, HundredThousandItemTableRestoresIdentical) {
  constexpr int kItems = 100'000;
  TestEngine db;
  ASSERT_OK(db->CreateTable(IndexedTable("Big")).status());
  for (int i = 0; i < kItems;) {
    BatchWriteItemRequest batch;
    std::vector<WriteRequest> writes;
    for (int k = 0; k < 25 && i < kItems; ++k, ++i) {
      WriteRequest w;
      w.put_item = IndexedItem(i);
      writes.push_back(std::move(w));
    }
    batch.request_items.emplace_back("Big", std::move(writes));
    ASSERT_OK_AND_ASSIGN(BatchWriteItemResult r, db->BatchWriteItem(batch));
    ASSERT_TRUE(r.unprocessed_items.empty());
  }
  ASSERT_OK(db->WaitUntilIndexesCaughtUp());
  const std::string arn = Backup(db.engine.get(), "Big");
  ASSERT_OK(Restore(db.engine.get(), arn, "BigCopy").status());
  ASSERT_OK(db->WaitUntilIndexesCaughtUp());

  const std::vector<std::string> items = Contents(db.engine.get(), "Big");
  EXPECT_EQ(items.size(), static_cast<size_t>(kItems));
  EXPECT_TRUE(Contents(db.engine.get(), "BigCopy") == items);
  for (const char* index : {"byG", "byH", "byL"}) {
    const std::vector<std::string> entries = Contents(db.engine.get(), "Big", index);
    EXPECT_FALSE(entries.empty()) << index;
    EXPECT_TRUE(Contents(db.engine.get(), "BigCopy", index) == entries) << index;
  }
  const TableDescription src = Describe(db.engine.get(), "Big");
  const TableDescription dst = Describe(db.engine.get(), "BigCopy");
  EXPECT_EQ(dst.item_count, kItems);
  EXPECT_EQ(dst.item_count, src.item_count);
  EXPECT_EQ(dst.table_size_bytes, src.table_size_bytes);
  ASSERT_EQ(dst.global_secondary_indexes.size(), src.global_secondary_indexes.size());
  for (size_t i = 0; i < src.global_secondary_indexes.size(); ++i) {
    const auto& a = src.global_secondary_indexes[i];
    const auto& b = dst.global_secondary_indexes[i];
    EXPECT_EQ(b.def.index_name, a.def.index_name);
    EXPECT_EQ(b.item_count, a.item_count) << a.def.index_name;
    EXPECT_EQ(b.index_size_bytes, a.index_size_bytes) << a.def.index_name;
  }
  ASSERT_EQ(dst.local_secondary_indexes.size(), 1u);
  EXPECT_EQ(dst.local_secondary_indexes[0].item_count,
            src.local_secondary_indexes[0].item_count);
  EXPECT_EQ(dst.local_secondary_indexes[0].index_size_bytes,
            src.local_secondary_indexes[0].index_size_bytes);
  EXPECT_OK(db->VerifyIndexes(Scope(), "BigCopy"));
}

TEST(TableRestoreTest, EmptyTableRestoresEmpty) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(IndexedTable("Empty")).status());
  const std::string arn = Backup(db.engine.get(), "Empty");
  ASSERT_OK(Restore(db.engine.get(), arn, "Empty2").status());
  EXPECT_TRUE(Contents(db.engine.get(), "Empty2").empty());
  EXPECT_EQ(Describe(db.engine.get(), "Empty2").item_count, 0);
}

TEST(TableRestoreTest, OverridesReplaceBillingThroughputAndIndexes) {
  TestEngine db;
  ASSERT_OK(db->CreateTable(IndexedTable("Src")).status());
  PutItemRequest put;
  put.table_name = "Src";
  put.item = IndexedItem(1);
  ASSERT_OK(db->PutItem(put).status());
  const std::string arn = Backup(db.engine.get(), "Src");

  RestoreOverrides o;
  o.billing_mode = BillingMode::kProvisioned;
  o.provisioned_throughput = ProvisionedThroughput{9, 4};
  // byH (h, KEYS_ONLY) kept under a new name; byG dropped.
  GlobalSecondaryIndexDef only;
  only.index_name = "onlyH";
  only.key_schema = {{"h", KeyType::kHash}};
  only.projection.type = ProjectionType::kKeysOnly;
  o.global_secondary_indexes = std::vector<GlobalSecondaryIndexDef>{only};
  o.local_secondary_indexes = std::vector<LocalSecondaryIndexDef>{};
  ASSERT_OK_AND_ASSIGN(TableDescription d, Restore(db.engine.get(), arn, "Dst", o));
  EXPECT_EQ(d.billing_mode, BillingMode::kProvisioned);
  EXPECT_EQ(d.provisioned_throughput.read_capacity_units, 9);
  ASSERT_EQ(d.global_secondary_indexes.size(), 1u);
  EXPECT_EQ(d.global_secondary_indexes[0].def.index_name, "onlyH");
  // A provisioned table's GSI without throughput gets the table's.
  EXPECT_EQ(d.global_secondary_indexes[0].provisioned_throughput.write_capacity_units, 4);
  EXPECT_TRUE(d.local_secondary_indexes.empty());
  // The renamed index holds what byH held.
  EXPECT_EQ(Contents(db.engine.get(), "Dst", "onlyH"), Contents(db.engine.get(), "Src", "byH"));
  EXPECT_OK(db->VerifyIndexes(Scope(), "Dst"));

  // An override that is none of the source's indexes (another key or
  // projection) is refused with DynamoDB's text, nothing created.
  RestoreOverrides bad;
  GlobalSecondaryIndexDef other = only;
  other.index_name = "byHAll";
  other.projection.type = ProjectionType::kAll;
  bad.global_secondary_indexes = std::vector<GlobalSecondaryIndexDef>{other};
  EXPECT_THAT(Restore(db.engine.get(), arn, "Bad", bad).status(),
              StatusIs(ErrorCode::kValidation,
                       "Invalid Request: Index byHAll does not match a secondary index that "
                       "existed in the source table and cannot be created during the restore "
                       "operation"));
  RestoreOverrides bad_lsi;
  LocalSecondaryIndexDef lsi;
  lsi.index_name = "byZ";
  lsi.key_schema = {{"pk", KeyType::kHash}, {"z", KeyType::kRange}};
  bad_lsi.local_secondary_indexes = std::vector<LocalSecondaryIndexDef>{lsi};
  EXPECT_THAT(Restore(db.engine.get(), arn, "Bad", bad_lsi).status(),
              StatusIs(ErrorCode::kValidation, testing::HasSubstr("Index byZ does not match")));
  DescribeTableRequest describe;
  describe.table_name = "Bad";
  EXPECT_THAT(db->DescribeTable(describe).status(),
              StatusIs(ErrorCode::kResourceNotFound, testing::_));
}

// VectorIndexOverride keeps some of the source's vector indexes (each as it
// was defined); none kept lets the restore be provisioned.
TEST(TableRestoreTest, VectorIndexOverrideKeepsSomeOfTheSources) {
  TestEngine db;
  CreateTableRequest create = SimpleTable("Src", /*with_sort=*/false);
  create.billing_mode = BillingMode::kPayPerRequest;
  for (const char* name : {"emb1", "emb2"}) {
    VectorIndexDef v;
    v.index_name = name;
    v.vector_attribute = "v";
    v.dimensions = 2;
    v.distance_function = VectorDistanceFunction::kEuclidean;
    v.projection.type = ProjectionType::kKeysOnly;
    create.vector_indexes.push_back(v);
  }
  ASSERT_OK(db->CreateTable(create).status());
  for (int i = 0; i < 3; ++i) {
    PutItemRequest put;
    put.table_name = "Src";
    put.item = {{"pk", AttributeValue::S("k" + std::to_string(i))},
                {"v", AttributeValue::L({AttributeValue::N(Number::Parse(std::to_string(i)).value()),
                                         AttributeValue::N(Number::Parse("0").value())})}};
    ASSERT_OK(db->PutItem(put).status());
  }
  ASSERT_OK(db->WaitUntilIndexesCaughtUp());
  const std::string arn = Backup(db.engine.get(), "Src");

  RestoreOverrides o;
  o.vector_indexes = std::vector<VectorIndexDef>{create.vector_indexes[1]};
  ASSERT_OK_AND_ASSIGN(TableDescription d, Restore(db.engine.get(), arn, "Dst", o));
  ASSERT_EQ(d.vector_indexes.size(), 1u);
  EXPECT_EQ(d.vector_indexes[0].def, create.vector_indexes[1]);
  ASSERT_OK(db->WaitUntilIndexesCaughtUp());
  SearchVectorsRequest search;
  search.table_name = "Dst";
  search.index_name = "emb2";
  search.search_vector = {AttributeValue::N(Number::Parse("2").value()),
                          AttributeValue::N(Number::Parse("0").value())};
  search.top_k = 1;
  ASSERT_OK_AND_ASSIGN(SearchVectorsResult found, db->SearchVectors(search));
  ASSERT_EQ(found.results.size(), 1u);
  EXPECT_EQ(found.results[0].item.at("pk").s(), "k2");
  search.index_name = "emb1";
  EXPECT_THAT(db->SearchVectors(search).status(),
              StatusIs(ErrorCode::kValidation,
                       "The table does not have the specified index: emb1"));

  // Vector indexes need an on-demand table: a provisioned restore keeps
  // none of them or is refused.
  RestoreOverrides provisioned;
  provisioned.billing_mode = BillingMode::kProvisioned;
  provisioned.provisioned_throughput = ProvisionedThroughput{5, 5};
  EXPECT_THAT(Restore(db.engine.get(), arn, "Prov", provisioned).status(),
              StatusIs(ErrorCode::kValidation, testing::HasSubstr("on-demand capacity mode")));
  provisioned.vector_indexes = std::vector<VectorIndexDef>{};
  ASSERT_OK_AND_ASSIGN(d, Restore(db.engine.get(), arn, "Prov", provisioned));
  EXPECT_TRUE(d.vector_indexes.empty());
  EXPECT_EQ(Contents(db.engine.get(), "Prov").size(), 3u);

  // An index the source did not have as given, or given twice, is refused.
  RestoreOverrides bad;
  VectorIndexDef other = create.vector_indexes[0];
  other.dimensions = 3;
  bad.vector_indexes = std::vector<VectorIndexDef>{other};
  EXPECT_THAT(Restore(db.engine.get(), arn, "Bad", bad).status(),
              StatusIs(ErrorCode::kValidation,
                       "Invalid Request: Index emb1 does not match a vector index that existed "
                       "in the source table and cannot be created during the restore "
                       "operation"));
  bad.vector_indexes = std::vector<VectorIndexDef>{create.vector_indexes[0],
                                                   create.vector_indexes[0]};
  EXPECT_THAT(Restore(db.engine.get(), arn, "Bad", bad).status(),
              StatusIs(ErrorCode::kValidation, testing::HasSubstr("Duplicate index name: emb1")));
  DescribeTableRequest describe;
  describe.table_name = "Bad";
  EXPECT_THAT(db->DescribeTable(describe).status(),
              StatusIs(ErrorCode::kResourceNotFound, testing::_));
}

TEST(TableRestoreTest, StreamTtlAndTagsAreNotRestored) {
  TestEngine db;
  CreateTableRequest create = IndexedTable("Src");
  create.stream_specification = StreamSpecification{true, StreamViewType::kNewImage};
  create.tags = {{"team", "a"}};
  ASSERT_OK(db->CreateTable(create).status());
  UpdateTimeToLiveRequest ttl;
  ttl.table_name = "Src";
  ttl.specification = {true, "exp"};
  ASSERT_OK(db->UpdateTimeToLive(ttl).status());
  const std::string arn = Backup(db.engine.get(), "Src");
  ASSERT_OK_AND_ASSIGN(TableDescription d, Restore(db.engine.get(), arn, "Dst"));
  EXPECT_FALSE(d.stream_specification.has_value());
  DescribeTimeToLiveRequest dt;
  dt.table_name = "Dst";
  ASSERT_OK_AND_ASSIGN(TimeToLiveDescription t, db->DescribeTimeToLive(dt));
  EXPECT_EQ(t.status, TimeToLiveStatus::kDisabled);
  ListTagsOfResourceRequest tags;
  tags.resource_arn = d.table_arn;
  ASSERT_OK_AND_ASSIGN(ListTagsOfResourceResult listed, db->ListTagsOfResource(tags));
  EXPECT_TRUE(listed.tags.empty());
}

TEST(TableRestoreTest, OnDemandMaximaAreRestoredTheTableClassIsNot) {
  TestEngine db;
  CreateTableRequest create = IndexedTable("Src");
  create.table_class = TableClass::kStandardInfrequentAccess;
  create.on_demand_throughput = OnDemandThroughput{100, 50};
  create.warm_throughput = WarmThroughput{20000, 8000};
  create.global_secondary_indexes[0].on_demand_throughput =
      OnDemandThroughput{std::nullopt, 7};
  ASSERT_OK(db->CreateTable(create).status());
  const std::string arn = Backup(db.engine.get(), "Src");
  ASSERT_OK_AND_ASSIGN(TableDescription d, Restore(db.engine.get(), arn, "Dst"));
  // As DynamoDB: the restored table is STANDARD (no TableClassSummary).
  EXPECT_FALSE(d.table_class_summary.has_value());
  // The maxima come along; the warm throughput starts at the default.
  EXPECT_EQ(d.settings, (ThroughputSettings{100, 50, 12000, 4000}));
  ASSERT_EQ(d.global_secondary_indexes.size(), 2u);
  EXPECT_EQ(d.global_secondary_indexes[0].settings.max_write_request_units, 7);
  ASSERT_OK_AND_ASSIGN(TableThroughputStats stats, db->DescribeCapacity(Scope(), "Dst"));
  EXPECT_EQ(stats.table.write_units_per_second, 50);

  // OnDemandThroughputOverride replaces the maxima it names.
  RestoreOverrides o;
  o.on_demand_throughput = OnDemandThroughput{std::nullopt, 9};
  ASSERT_OK_AND_ASSIGN(d, Restore(db.engine.get(), arn, "Dst2", o));
  EXPECT_EQ(d.settings.max_read_request_units, 100);
  EXPECT_EQ(d.settings.max_write_request_units, 9);
  o.on_demand_throughput = OnDemandThroughput{0, std::nullopt};
  EXPECT_THAT(Restore(db.engine.get(), arn, "Dst3", o).status(),
              StatusIs(ErrorCode::kValidation,
                       testing::Eq("Invalid Request: Requested MaxReadRequestUnits for "
                                   "OnDemandThroughput is outside of valid range")));
  // A provisioned restore keeps no maxima and takes no override of them.
  o.billing_mode = BillingMode::kProvisioned;
  o.provisioned_throughput = ProvisionedThroughput{5, 5};
  o.on_demand_throughput = OnDemandThroughput{10, std::nullopt};
  EXPECT_THAT(Restore(db.engine.get(), arn, "Dst3", o).status(),
              StatusIs(ErrorCode::kValidation,
                       testing::Eq("Cannot override MaxReadRequestUnits for "
                                   "OnDemandThroughput unless BillingModeOverride is "
                                   "PAY_PER_REQUEST")));
  o.on_demand_throughput.reset();
  ASSERT_OK_AND_ASSIGN(d, Restore(db.engine.get(), arn, "Dst3", o));
  EXPECT_EQ(d.settings.max_read_request_units, 0);
  EXPECT_EQ(d.settings.max_write_request_units, 0);
}

}  // namespace
}  // namespace dynarock
