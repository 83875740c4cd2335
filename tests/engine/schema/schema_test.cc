#include "engine/schema/schema.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

using ::testing::HasSubstr;

CreateTableRequest Base() {
  CreateTableRequest req;
  req.table_name = "Table";
  req.attribute_definitions = {{"pk", AttrType::kS}, {"sk", AttrType::kS}};
  req.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}};
  req.billing_mode = BillingMode::kPayPerRequest;
  return req;
}

TEST(SchemaTest, AcceptsAValidDefinition) { EXPECT_OK(ValidateCreateTable(Base())); }

TEST(SchemaTest, TableNames) {
  EXPECT_TRUE(IsValidTableName("abc"));
  EXPECT_TRUE(IsValidTableName("A-b_c.9"));
  EXPECT_TRUE(IsValidTableName(std::string(255, 'x')));
  EXPECT_FALSE(IsValidTableName("ab"));
  EXPECT_FALSE(IsValidTableName(std::string(256, 'x')));
  EXPECT_FALSE(IsValidTableName("has space"));
  EXPECT_FALSE(IsValidTableName("ünï"));
}

struct Case {
  const char* name;
  void (*mutate)(CreateTableRequest*);
  const char* message;
};

TEST(SchemaTest, RejectsWithDynamoDbMessages) {
  const Case cases[] = {
      {"undefined key", [](CreateTableRequest* r) { r->attribute_definitions.pop_back(); },
       "Invalid KeySchema: Some index key attribute have no definition"},
      {"same name", [](CreateTableRequest* r) { r->key_schema[1].attribute_name = "pk"; },
       "Both the Hash Key and the Range Key element in the KeySchema have the same name"},
      {"first not hash", [](CreateTableRequest* r) { std::swap(r->key_schema[0], r->key_schema[1]); r->key_schema[0].key_type = KeyType::kRange; r->key_schema[1].key_type = KeyType::kHash; },
       "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"},
      {"second not range", [](CreateTableRequest* r) { r->key_schema[1].key_type = KeyType::kHash; },
       "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type"},
      {"unused definition", [](CreateTableRequest* r) { r->attribute_definitions.push_back({"x", AttrType::kN}); },
       "One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions"},
      {"duplicate definition", [](CreateTableRequest* r) { r->attribute_definitions.push_back({"pk", AttrType::kN}); },
       "Attribute Name is duplicated: pk"},
      {"provisioned without throughput", [](CreateTableRequest* r) { r->billing_mode = BillingMode::kProvisioned; },
       "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED"},
      {"on-demand with throughput", [](CreateTableRequest* r) { r->provisioned_throughput = ProvisionedThroughput{1, 1}; },
       "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST"},
      {"lsi on hash-only table", [](CreateTableRequest* r) {
         r->key_schema.pop_back();
         r->local_secondary_indexes.push_back({"lsi", {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}}, {}});
       },
       "One or more parameter values were invalid: Table KeySchema does not have a range key, which is required when specifying a LocalSecondaryIndex"},
      {"lsi other hash", [](CreateTableRequest* r) {
         r->local_secondary_indexes.push_back({"lsi", {{"sk", KeyType::kHash}, {"pk", KeyType::kRange}}, {}});
       },
       "One or more parameter values were invalid: Index KeySchema does not have the same leading hash key as table KeySchema for index: lsi. index hash key: sk, table hash key: pk"},
      {"duplicate index", [](CreateTableRequest* r) {
         r->global_secondary_indexes.push_back({"g", {{"sk", KeyType::kHash}}, {}, std::nullopt});
         r->global_secondary_indexes.push_back({"g", {{"sk", KeyType::kHash}}, {}, std::nullopt});
       },
       "One or more parameter values were invalid: Duplicate index name: g"},
      {"non-key attributes without INCLUDE", [](CreateTableRequest* r) {
         r->global_secondary_indexes.push_back({"g", {{"sk", KeyType::kHash}}, {ProjectionType::kAll, {"a"}}, std::nullopt});
       },
       "One or more parameter values were invalid: ProjectionType is ALL, but NonKeyAttributes is specified"},
      {"unused with indexes", [](CreateTableRequest* r) {
         r->attribute_definitions.push_back({"x", AttrType::kN});
         r->global_secondary_indexes.push_back({"g", {{"sk", KeyType::kHash}}, {}, std::nullopt});
       },
       "One or more parameter values were invalid: Some AttributeDefinitions are not used. AttributeDefinitions: [pk, sk, x], keys used: [pk, sk]"},
      // DynamoDB's order (dynalite test/createTable.js): the throughput
      // before the key schema, more keys than definitions before an
      // undefined key, an index's projection type among its checks.
      {"throughput before keys", [](CreateTableRequest* r) {
         r->billing_mode = BillingMode::kProvisioned;
         r->attribute_definitions.clear();
       },
       "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED"},
      {"read units out of bounds", [](CreateTableRequest* r) {
         r->billing_mode = BillingMode::kProvisioned;
         r->provisioned_throughput = ProvisionedThroughput{1000000000001, 1000000000001};
         r->attribute_definitions.clear();
       },
       "Given value 1000000000001 for ReadCapacityUnits is out of bounds"},
      {"write units out of bounds", [](CreateTableRequest* r) {
         r->billing_mode = BillingMode::kProvisioned;
         r->provisioned_throughput = ProvisionedThroughput{1000000000000, 1000000000001};
       },
       "Given value 1000000000001 for WriteCapacityUnits is out of bounds"},
      {"one name twice, defined", [](CreateTableRequest* r) {
         r->attribute_definitions.pop_back();
         r->key_schema[1].attribute_name = "pk";
       },
       "Invalid KeySchema: Some index key attribute have no definition"},
      {"hash-only key not defined", [](CreateTableRequest* r) {
         r->key_schema.pop_back();
         r->attribute_definitions = {{"sk", AttrType::kS}};
       },
       "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [pk], AttributeDefinitions: [sk]"},
      {"projection type absent before duplicate name", [](CreateTableRequest* r) {
         Projection absent;
         absent.type_absent = true;
         r->global_secondary_indexes.push_back({"g", {{"sk", KeyType::kHash}}, {}, std::nullopt});
         r->global_secondary_indexes.push_back({"g", {{"sk", KeyType::kHash}}, absent, std::nullopt});
       },
       "One or more parameter values were invalid: Unknown ProjectionType: null"},
      {"lsi key not defined", [](CreateTableRequest* r) {
         r->local_secondary_indexes.push_back({"lsi", {{"pk", KeyType::kHash}, {"x", KeyType::kRange}}, {}});
       },
       "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [pk, x], AttributeDefinitions: [pk, sk]"},
  };
  for (const Case& c : cases) {
    CreateTableRequest req = Base();
    c.mutate(&req);
    EXPECT_THAT(ValidateCreateTable(req), StatusIs(ErrorCode::kValidation, c.message)) << c.name;
  }
}

// Multi-attribute GSI keys: 1..4 HASH elements, then 0..4 RANGE elements.
CreateTableRequest WithMultiKeyGsi(std::vector<KeySchemaElement> key_schema) {
  CreateTableRequest req = Base();
  for (const char* a : {"h1", "h2", "h3", "h4", "h5", "r1", "r2", "r3", "r4", "r5"}) {
    req.attribute_definitions.push_back({a, a[0] == 'h' ? AttrType::kS : AttrType::kN});
  }
  req.global_secondary_indexes.push_back({"multi", std::move(key_schema), {}, std::nullopt});
  // Every definition must be used: a second index uses the rest.
  std::vector<KeySchemaElement> rest;
  for (const auto& d : req.attribute_definitions) {
    bool used = d.attribute_name == "pk" || d.attribute_name == "sk";
    for (const auto& e : req.global_secondary_indexes[0].key_schema) {
      used = used || e.attribute_name == d.attribute_name;
    }
    if (!used) req.global_secondary_indexes.push_back({"use_" + d.attribute_name, {{d.attribute_name, KeyType::kHash}}, {}, std::nullopt});
  }
  return req;
}

TEST(SchemaMultiAttributeKeyTest, AcceptsUpToFourHashThenUpToFourRange) {
  using K = KeyType;
  EXPECT_OK(ValidateCreateTable(WithMultiKeyGsi({{"h1", K::kHash}, {"h2", K::kHash}})));
  EXPECT_OK(ValidateCreateTable(WithMultiKeyGsi({{"h1", K::kHash}, {"r1", K::kRange}, {"r2", K::kRange}})));
  EXPECT_OK(ValidateCreateTable(WithMultiKeyGsi(
      {{"h1", K::kHash}, {"h2", K::kHash}, {"h3", K::kHash}, {"h4", K::kHash},
       {"r1", K::kRange}, {"r2", K::kRange}, {"r3", K::kRange}, {"r4", K::kRange}})));
}

TEST(SchemaMultiAttributeKeyTest, RejectsWithDynamoDbStyleMessages) {
  using K = KeyType;
  struct MultiCase {
    const char* name;
    std::vector<KeySchemaElement> ks;
    const char* message;
  };
  const MultiCase cases[] = {
      {"five hash", {{"h1", K::kHash}, {"h2", K::kHash}, {"h3", K::kHash}, {"h4", K::kHash}, {"h5", K::kHash}},
       "Invalid KeySchema: KeySchema can have at most 4 HASH key type elements"},
      {"five range", {{"h1", K::kHash}, {"r1", K::kRange}, {"r2", K::kRange}, {"r3", K::kRange}, {"r4", K::kRange}, {"r5", K::kRange}},
       "Invalid KeySchema: KeySchema can have at most 4 RANGE key type elements"},
      {"interleaved", {{"h1", K::kHash}, {"r1", K::kRange}, {"h2", K::kHash}},
       "Invalid KeySchema: All HASH key type KeySchemaElements must precede all RANGE key type KeySchemaElements"},
      {"range first", {{"r1", K::kRange}, {"h1", K::kHash}, {"h2", K::kHash}},
       "Invalid KeySchema: The first KeySchemaElement is not a HASH key type"},
      {"duplicate hash", {{"h1", K::kHash}, {"h1", K::kHash}},
       "Both the Hash Key and the Range Key element in the KeySchema have the same name"},
      {"duplicate across kinds", {{"h1", K::kHash}, {"r1", K::kRange}, {"h1", K::kRange}},
       "Both the Hash Key and the Range Key element in the KeySchema have the same name"},
      {"undefined", {{"h1", K::kHash}, {"nope", K::kHash}},
       "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [h1, nope], AttributeDefinitions: [pk, sk, h1, h2, h3, h4, h5, r1, r2, r3, r4, r5]"},
  };
  for (const MultiCase& c : cases) {
    EXPECT_THAT(ValidateCreateTable(WithMultiKeyGsi(c.ks)),
                StatusIs(ErrorCode::kValidation, c.message))
        << c.name;
  }
}

TEST(SchemaMultiAttributeKeyTest, TablesAndLsisKeepOneAttributeOfEachKind) {
  CreateTableRequest req = Base();
  req.key_schema = {{"pk", KeyType::kHash}, {"sk", KeyType::kHash}};
  EXPECT_THAT(ValidateCreateTable(req),
              StatusIs(ErrorCode::kValidation,
                       "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type"));
  req = Base();
  req.attribute_definitions.push_back({"l", AttrType::kS});
  req.local_secondary_indexes.push_back(
      {"lsi", {{"pk", KeyType::kHash}, {"l", KeyType::kRange}, {"sk", KeyType::kRange}}, {}});
  EXPECT_THAT(ValidateCreateTable(req),
              StatusIs(ErrorCode::kValidation,
                       "Invalid KeySchema: KeySchema must have 1 or 2 elements"));
}

TEST(SchemaMultiAttributeKeyTest, ResolvesEveryAttributeInKeySchemaOrder) {
  const std::vector<KeySchemaElement> ks = {{"b", KeyType::kHash},
                                            {"a", KeyType::kHash},
                                            {"d", KeyType::kRange},
                                            {"c", KeyType::kRange}};
  const std::vector<AttributeDefinition> defs = {
      {"a", AttrType::kN}, {"b", AttrType::kS}, {"c", AttrType::kB}, {"d", AttrType::kN}};
  const KeyDef k = ResolveKeyDef(ks, defs);
  EXPECT_TRUE(k.multi_attribute());
  ASSERT_EQ(k.hash_count(), 2u);
  ASSERT_EQ(k.range_count(), 2u);
  EXPECT_EQ(k.hash_name_at(0), "b");
  EXPECT_EQ(k.hash_type_at(0), AttrType::kS);
  EXPECT_EQ(k.hash_name_at(1), "a");
  EXPECT_EQ(k.hash_type_at(1), AttrType::kN);
  EXPECT_EQ(k.range_name_at(0), "d");
  EXPECT_EQ(k.range_type_at(1), AttrType::kB);
  EXPECT_EQ(k.hash_types(), (std::vector<AttrType>{AttrType::kS, AttrType::kN}));
  const KeyDef single = ResolveKeyDef(Base().key_schema, Base().attribute_definitions);
  EXPECT_FALSE(single.multi_attribute());
  EXPECT_EQ(single.range_count(), 1u);
}

TEST(SchemaTest, ProjectionRules) {
  auto with_projection = [](Projection p) {
    CreateTableRequest req = Base();
    req.global_secondary_indexes.push_back({"gsi", {{"sk", KeyType::kHash}}, std::move(p), std::nullopt});
    return req;
  };
  EXPECT_OK(ValidateCreateTable(with_projection({ProjectionType::kInclude, {"a", "b"}})));
  EXPECT_THAT(ValidateCreateTable(with_projection({ProjectionType::kInclude, {}})),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: NonKeyAttributes must not be empty"));
  EXPECT_THAT(ValidateCreateTable(with_projection({ProjectionType::kInclude, {"a", "b", "a"}})),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: Duplicate NonKeyAttributes in projection: a"));
  EXPECT_THAT(ValidateCreateTable(with_projection({ProjectionType::kKeysOnly, {"a"}})),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: ProjectionType is KEYS_ONLY, but NonKeyAttributes is specified"));
  // Projected names: at most 255 bytes (CreateTable and UpdateTable's index
  // Create both use ValidateProjection).
  const std::string n255(255, 'n');
  EXPECT_OK(ValidateCreateTable(with_projection({ProjectionType::kInclude, {n255}})));
  EXPECT_THAT(ValidateCreateTable(with_projection({ProjectionType::kInclude, {"a", n255 + "n"}})),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: NonKeyAttributes name is too long, must be at most 255 bytes: " + n255 + "n"));
}

TEST(SchemaTest, AtMostOneHundredProjectedAttributesOverAllIndexes) {
  CreateTableRequest req = Base();
  std::vector<std::string> twenty;
  for (int i = 0; i < 20; ++i) twenty.push_back("a" + std::to_string(i));
  // The same attribute in two indexes counts twice: 5 x 20 = 100 is fine.
  for (int i = 0; i < 5; ++i) {
    req.global_secondary_indexes.push_back(
        {"gsi" + std::to_string(i), {{"sk", KeyType::kHash}}, {ProjectionType::kInclude, twenty}, std::nullopt});
  }
  EXPECT_OK(ValidateCreateTable(req));
  req.local_secondary_indexes.push_back(
      {"lsi", {{"pk", KeyType::kHash}, {"sk", KeyType::kRange}}, {ProjectionType::kInclude, {"x"}}});
  EXPECT_THAT(ValidateCreateTable(req),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: Number of projected attributes in all "
                       "indexes exceeds limit of 100, number of projected attributes: 101"));
}

TEST(SchemaTest, UndefinedHashKeyNamesKeysAndDefinitions) {
  CreateTableRequest req = Base();
  req.key_schema.pop_back();
  req.attribute_definitions = {{"other", AttrType::kS}};
  EXPECT_THAT(ValidateCreateTable(req),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [pk], AttributeDefinitions: [other]"));
}

TEST(SchemaTest, TooManyIndexes) {
  CreateTableRequest req = Base();
  for (int i = 0; i < 21; ++i) {
    req.global_secondary_indexes.push_back({"g" + std::to_string(i), {{"sk", KeyType::kHash}}, {}, std::nullopt});
  }
  EXPECT_THAT(ValidateCreateTable(req), StatusIs(ErrorCode::kValidation, HasSubstr("per-table limit of 20")));
}

TEST(SchemaTest, KeyOfItemFindsBothKeys) {
  KeyDef key = ResolveKeyDef(Base().key_schema, Base().attribute_definitions);
  EXPECT_EQ(key.hash_name, "pk");
  ASSERT_TRUE(key.range_name.has_value());
  Item item;
  item["pk"] = AttributeValue::S("a");
  item["sk"] = AttributeValue::S("b");
  item["other"] = AttributeValue::N(Number());
  ASSERT_OK_AND_ASSIGN(PrimaryKey pk, KeyOfItem(key, item));
  EXPECT_EQ(*pk.hash, AttributeValue::S("a"));
  EXPECT_EQ(*pk.range, AttributeValue::S("b"));
  item["sk"] = AttributeValue::S(std::string(1025, 's'));
  EXPECT_THAT(KeyOfItem(key, item), StatusIs(ErrorCode::kValidation, HasSubstr("Aggregated size of all range keys")));
  item["sk"] = AttributeValue::B("");
  EXPECT_THAT(KeyOfItem(key, item), StatusIs(ErrorCode::kValidation, HasSubstr("Type mismatch for key sk expected: S actual: B")));
}

}  // namespace
}  // namespace dynarock
