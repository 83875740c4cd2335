#include "engine/storage/catalog.h"

#include <gtest/gtest.h>

#include <set>

#include "engine/schema/schema.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

TableInfo MakeTable(const std::string& ns, const std::string& name) {
  TableInfo t;
  t.ns = ns;
  t.desc.table_name = name;
  t.desc.table_arn = "arn:aws:dynamodb:ddblocal:000000000000:table/" + name;
  t.desc.table_id = "id-" + name;
  t.desc.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  t.desc.attribute_definitions = {{"pk", AttrType::kS}, {"sk", AttrType::kN}, {"g", AttrType::kB}};
  t.desc.billing_mode = BillingMode::kProvisioned;
  t.desc.provisioned_throughput.read_capacity_units = 7;
  t.desc.provisioned_throughput.write_capacity_units = 3;
  t.desc.provisioned_throughput.last_increase_micros = 42;
  GlobalSecondaryIndexDescription g;
  g.def.index_name = "gsi";
  g.def.key_schema = {{"g", KeyType::kHash}};
  g.def.projection = {ProjectionType::kInclude, {"a", "b"}};
  g.def.provisioned_throughput = ProvisionedThroughput{1, 2};
  g.index_arn = t.desc.table_arn + "/index/gsi";
  t.desc.global_secondary_indexes.push_back(g);
  LocalSecondaryIndexDescription l;
  l.def.index_name = "lsi";
  l.def.key_schema = {{"pk", KeyType::kHash}, {"g", KeyType::kRange}};
  l.def.projection = {ProjectionType::kKeysOnly, {}};
  t.desc.local_secondary_indexes.push_back(l);
  t.desc.creation_date_time_micros = 123456;
  t.key = ResolveKeyDef(t.desc.key_schema, t.desc.attribute_definitions);
  return t;
}

TEST(CatalogTest, DefinitionsAndCountersSurviveReload) {
  StoreOptions o;
  o.in_memory = true;
  ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
  uint32_t id;
  {
    ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
    ASSERT_OK_AND_ASSIGN(auto t, catalog->Create(MakeTable("ns", "Orders")));
    id = t->id;
    WriteBatch b;
    Catalog::AddStats(t->id, 3, 300, &b);
    ASSERT_OK(store->Write(&b));
  }
  ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
  auto t = catalog->Find("ns", "Orders");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->id, id);
  EXPECT_EQ(t->stats->item_count.load(), 3);
  EXPECT_EQ(t->stats->size_bytes.load(), 300);
  const TableInfo want = MakeTable("ns", "Orders");
  EXPECT_EQ(t->desc.key_schema, want.desc.key_schema);
  EXPECT_EQ(t->desc.attribute_definitions, want.desc.attribute_definitions);
  EXPECT_EQ(t->desc.provisioned_throughput.read_capacity_units, 7);
  EXPECT_EQ(t->desc.provisioned_throughput.last_increase_micros, std::optional<int64_t>(42));
  ASSERT_EQ(t->desc.global_secondary_indexes.size(), 1u);
  EXPECT_EQ(t->desc.global_secondary_indexes[0].def.projection, want.desc.global_secondary_indexes[0].def.projection);
  ASSERT_EQ(t->desc.local_secondary_indexes.size(), 1u);
  EXPECT_EQ(t->desc.local_secondary_indexes[0].def.key_schema, want.desc.local_secondary_indexes[0].def.key_schema);
  EXPECT_EQ(t->key, want.key);
  EXPECT_EQ(t->desc.creation_date_time_micros, 123456);
}

TEST(CatalogTest, NamesAreUniquePerNamespaceAndIdsNeverRepeat) {
  StoreOptions o;
  o.in_memory = true;
  ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
  ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
  ASSERT_OK_AND_ASSIGN(auto a, catalog->Create(MakeTable("n1", "Tab")));
  EXPECT_THAT(catalog->Create(MakeTable("n1", "Tab")),
              StatusIs(ErrorCode::kResourceInUse, "Table already exists: Tab"));
  ASSERT_OK_AND_ASSIGN(auto b, catalog->Create(MakeTable("n2", "Tab")));
  EXPECT_NE(a->id, b->id);
  WriteBatch batch;
  ASSERT_OK(catalog->Remove(*a, &batch));
  EXPECT_EQ(catalog->Find("n1", "Tab"), nullptr);
  ASSERT_OK_AND_ASSIGN(auto c, catalog->Create(MakeTable("n1", "Tab")));
  EXPECT_GT(c->id, b->id);
  ASSERT_OK_AND_ASSIGN(auto reloaded, Catalog::Load(store.get()));
  ASSERT_OK_AND_ASSIGN(auto d, reloaded->Create(MakeTable("n3", "Tab")));
  EXPECT_GT(d->id, c->id);
  EXPECT_EQ(reloaded->List("n1").size(), 1u);
  EXPECT_EQ(reloaded->List("n").size(), 0u);
}

}  // namespace
}  // namespace dynarock

namespace dynarock {
namespace {

TEST(CatalogIndexTest, IndexesGetIdsThatSurviveReloadAndNeverRepeat) {
  StoreOptions o;
  o.in_memory = true;
  ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
  uint32_t reserved;
  {
    ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
    ASSERT_OK_AND_ASSIGN(auto t, catalog->Create(MakeTable("ns", "Orders")));
    ASSERT_EQ(t->indexes.size(), 2u);
    EXPECT_EQ(t->indexes[0].name, "gsi");
    EXPECT_TRUE(t->indexes[0].global);
    EXPECT_EQ(t->indexes[0].key.hash_name, "g");
    EXPECT_EQ(t->indexes[0].key.hash_type, AttrType::kB);
    EXPECT_EQ(t->indexes[1].name, "lsi");
    EXPECT_FALSE(t->indexes[1].global);
    EXPECT_EQ(t->indexes[1].key.range_name, std::optional<std::string>("g"));
    std::set<uint32_t> ids = {t->id, t->indexes[0].id, t->indexes[1].id};
    EXPECT_EQ(ids.size(), 3u);
    EXPECT_EQ(t->FindIndex("lsi"), &t->indexes[1]);
    EXPECT_EQ(t->FindIndex("nope"), nullptr);
    ASSERT_OK_AND_ASSIGN(reserved, catalog->ReserveId());
    EXPECT_FALSE(ids.count(reserved));
  }
  ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
  auto t = catalog->Find("ns", "Orders");
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(t->needs_index_rebuild);
  ASSERT_EQ(t->indexes.size(), 2u);
  EXPECT_NE(t->indexes[0].id, 0u);
  EXPECT_EQ(t->index_ids.at("gsi"), t->indexes[0].id);
  ASSERT_OK_AND_ASSIGN(auto next, catalog->Create(MakeTable("ns", "Other")));
  EXPECT_GT(next->id, reserved);
  ASSERT_OK_AND_ASSIGN(uint32_t again, catalog->ReserveId());
  EXPECT_GT(again, next->indexes[1].id);
}

TEST(CatalogIndexTest, VersionOneRecordsLoadWithIndexesToRebuild) {
  StoreOptions o;
  o.in_memory = true;
  ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
  {
    ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
    ASSERT_OK(catalog->Create(MakeTable("ns", "Old")).status());
  }
  // Rewrite the record as version 1 wrote it: no trailing index ids.
  const std::string key = std::string("tns") + '\0' + "Old";
  ASSERT_OK_AND_ASSIGN(auto bytes, store->Get(Cf::kMeta, key));
  ASSERT_TRUE(bytes.has_value());
  std::string v1 = *bytes;
  v1[0] = 1;
  // count (1) + "gsi" (1 + 3) + id (1) + "lsi" (1 + 3) + id (1), and
  // version 3's Time to Live: enabled (1) + "" (1) + no last change (1),
  // and version 4's tags: count (1)
  v1.resize(v1.size() - 11 - 3 - 1);
  WriteBatch b;
  b.Put(Cf::kMeta, key, v1);
  ASSERT_OK(store->Write(&b));
  ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
  auto t = catalog->Find("ns", "Old");
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->needs_index_rebuild);
  ASSERT_EQ(t->indexes.size(), 2u);
  EXPECT_EQ(t->indexes[0].id, 0u);
  EXPECT_EQ(t->desc.global_secondary_indexes.size(), 1u);
}

TEST(CatalogIndexTest, MultiAttributeKeysSurviveReloadInAVersionEightRecord) {
  TableInfo t = MakeTable("ns", "Multi");
  // Older builds read version 7 at most: a table without a multi-attribute
  // key keeps writing it.
  EXPECT_EQ(EncodeTableRecord(t)[0], 7);
  t.desc.attribute_definitions.push_back({"h2", AttrType::kN});
  t.desc.attribute_definitions.push_back({"r1", AttrType::kS});
  t.desc.attribute_definitions.push_back({"r2", AttrType::kN});
  t.desc.global_secondary_indexes[0].def.key_schema = {
      {"g", KeyType::kHash}, {"h2", KeyType::kHash},
      {"r1", KeyType::kRange}, {"r2", KeyType::kRange}};
  const std::string record = EncodeTableRecord(t);
  EXPECT_EQ(record[0], 8);
  ASSERT_OK_AND_ASSIGN(TableInfo back, DecodeTableRecord(record));
  EXPECT_EQ(back.desc.global_secondary_indexes[0].def.key_schema,
            t.desc.global_secondary_indexes[0].def.key_schema);
  ASSERT_EQ(back.indexes.size(), 2u);
  const KeyDef& k = back.indexes[0].key;
  ASSERT_EQ(k.hash_count(), 2u);
  ASSERT_EQ(k.range_count(), 2u);
  EXPECT_EQ(k.hash_type_at(0), AttrType::kB);
  EXPECT_EQ(k.hash_name_at(1), "h2");
  EXPECT_EQ(k.hash_type_at(1), AttrType::kN);
  EXPECT_EQ(k.range_name_at(0), "r1");
  EXPECT_EQ(k.range_type_at(1), AttrType::kN);
  EXPECT_FALSE(back.indexes[1].key.multi_attribute());  // the LSI
}

TEST(CatalogSseTest, AKmsKeySurvivesInAVersionTenRecordOnlyWhenSet) {
  TableInfo t = MakeTable("ns", "Sse");
  EXPECT_EQ(EncodeTableRecord(t)[0], 7);  // no key: older builds still read it
  t.desc.sse_description = SseDescription{"arn:aws:kms:us-east-1:000000000000:key/k1"};
  const std::string record = EncodeTableRecord(t);
  EXPECT_EQ(record[0], 10);
  ASSERT_OK_AND_ASSIGN(TableInfo back, DecodeTableRecord(record));
  EXPECT_EQ(back.desc.sse_description, t.desc.sse_description);
  EXPECT_TRUE(back.desc.vector_indexes.empty());
  EXPECT_EQ(back.desc.global_secondary_indexes.size(), 1u);
  t.desc.sse_description.reset();
  ASSERT_OK_AND_ASSIGN(TableInfo plain, DecodeTableRecord(EncodeTableRecord(t)));
  EXPECT_FALSE(plain.desc.sse_description.has_value());
}

TEST(CatalogTableClassTest, TwoClassUpdatesSurviveInAVersionElevenRecord) {
  TableInfo t = MakeTable("ns", "Cls");
  t.desc.table_class_summary = TableClassSummary{TableClass::kStandardInfrequentAccess, 5, {}};
  EXPECT_EQ(EncodeTableRecord(t)[0], 7);  // one update: older builds still read it
  t.desc.table_class_summary->previous_update_micros = 3;
  for (bool sse : {false, true}) {
    if (sse) t.desc.sse_description = SseDescription{"arn:aws:kms:us-east-1:000000000000:key/k2"};
    const std::string record = EncodeTableRecord(t);
    EXPECT_EQ(record[0], 11);
    ASSERT_OK_AND_ASSIGN(TableInfo back, DecodeTableRecord(record));
    EXPECT_EQ(back.desc.table_class_summary, t.desc.table_class_summary);
    EXPECT_EQ(back.desc.sse_description, t.desc.sse_description);
    EXPECT_EQ(back.desc.global_secondary_indexes.size(), 1u);
  }
}

TEST(CatalogTtlTest, TimeToLiveSurvivesReloadAndTableChanges) {
  StoreOptions o;
  o.in_memory = true;
  ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
  uint32_t id = 0;
  {
    ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
    ASSERT_OK_AND_ASSIGN(auto created, catalog->Create(MakeTable("ns", "T")));
    id = created->id;
    std::shared_ptr<const TableInfo> stale = created;
    ASSERT_OK(catalog
                  ->UpdateSettings("ns", "T", id,
                                   [](TableInfo* t) {
                                     t->ttl.enabled = true;
                                     t->ttl.attribute_name = "exp";
                                     t->ttl.last_change_micros = 77;
                                     return Status::OK();
                                   })
                  .status());
    // A table change made from a copy older than the TTL change keeps it.
    auto next = std::make_shared<TableInfo>(*stale);
    next->desc.deletion_protection_enabled = true;
    WriteBatch batch;
    ASSERT_OK(catalog->Replace(next, &batch));
    auto t = catalog->Find("ns", "T");
    EXPECT_TRUE(t->ttl.enabled);
    EXPECT_TRUE(t->desc.deletion_protection_enabled);
    // A refused change changes nothing.
    EXPECT_THAT(catalog->UpdateSettings("ns", "T", id,
                                        [](TableInfo* t) {
                                          t->ttl.enabled = false;
                                          return Status::Validation("no");
                                        }),
                StatusIs(ErrorCode::kValidation, "no"));
    EXPECT_THAT(catalog->UpdateSettings("ns", "T", id + 100,
                                        [](TableInfo*) { return Status::OK(); }),
                StatusIs(ErrorCode::kResourceNotFound, ::testing::_));
  }
  ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
  auto t = catalog->Find("ns", "T");
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->ttl.enabled);
  EXPECT_EQ(t->ttl.attribute_name, "exp");
  EXPECT_EQ(t->ttl.last_change_micros, 77);
  EXPECT_TRUE(t->desc.deletion_protection_enabled);
}

TEST(CatalogTagsTest, TagsSurviveReloadAndTableChanges) {
  StoreOptions o;
  o.in_memory = true;
  ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
  {
    ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
    TableInfo info = MakeTable("ns", "T");
    info.tags["created"] = "yes";
    ASSERT_OK_AND_ASSIGN(auto created, catalog->Create(info));
    ASSERT_OK(catalog
                  ->UpdateSettings("ns", "T", created->id,
                                   [](TableInfo* t) {
                                     t->tags["env"] = "prod";
                                     t->tags["empty"] = "";
                                     return Status::OK();
                                   })
                  .status());
    auto next = std::make_shared<TableInfo>(*created);  // older than the tags
    WriteBatch batch;
    ASSERT_OK(catalog->Replace(next, &batch));
    EXPECT_EQ(catalog->Find("ns", "T")->tags.size(), 3u);
  }
  ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
  auto t = catalog->Find("ns", "T");
  ASSERT_NE(t, nullptr);
  const std::map<std::string, std::string> want = {
      {"created", "yes"}, {"empty", ""}, {"env", "prod"}};
  EXPECT_EQ(t->tags, want);
}

TEST(CatalogTtlTest, VersionTwoRecordsLoadWithTimeToLiveOff) {
  StoreOptions o;
  o.in_memory = true;
  ASSERT_OK_AND_ASSIGN(auto store, Store::Open(o));
  {
    ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
    ASSERT_OK(catalog->Create(MakeTable("ns", "Old")).status());
  }
  const std::string key = std::string("tns") + '\0' + "Old";
  ASSERT_OK_AND_ASSIGN(auto bytes, store->Get(Cf::kMeta, key));
  ASSERT_TRUE(bytes.has_value());
  std::string v2 = *bytes;
  v2[0] = 2;
  v2.resize(v2.size() - 3 - 1);  // version 3's Time to Live, version 4's tags
  WriteBatch b;
  b.Put(Cf::kMeta, key, v2);
  ASSERT_OK(store->Write(&b));
  ASSERT_OK_AND_ASSIGN(auto catalog, Catalog::Load(store.get()));
  auto t = catalog->Find("ns", "Old");
  ASSERT_NE(t, nullptr);
  EXPECT_FALSE(t->needs_index_rebuild);
  EXPECT_FALSE(t->ttl.enabled);
  EXPECT_EQ(t->indexes.size(), 2u);
  EXPECT_NE(t->indexes[0].id, 0u);
}

}  // namespace
}  // namespace dynarock
