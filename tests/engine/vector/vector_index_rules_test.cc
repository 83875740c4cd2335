#include "engine/vector/vector_index_rules.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "tests/testutil/status_matchers.h"

namespace dynarock::vector {
namespace {

using ::testing::HasSubstr;

CreateTableRequest Table() {
  CreateTableRequest req;
  req.table_name = "t";
  req.attribute_definitions = {{"pk", AttrType::kS}, {"cat", AttrType::kS},
                               {"n", AttrType::kN}};
  req.key_schema = {{"pk", KeyType::kHash}};
  req.billing_mode = BillingMode::kPayPerRequest;
  VectorIndexDef def;
  def.index_name = "emb";
  def.vector_attribute = "v";
  def.dimensions = 8;
  def.search_schema = {{"cat", SearchSchemaElementType::kHash},
                       {"n", SearchSchemaElementType::kInlineFilter}};
  req.vector_indexes = {def};
  return req;
}

TEST(VectorIndexRulesTest, AValidDeclaration) { EXPECT_OK(CheckCreateTableVectorIndexes(Table())); }

TEST(VectorIndexRulesTest, OnDemandOnly) {
  CreateTableRequest req = Table();
  req.billing_mode = BillingMode::kProvisioned;
  EXPECT_THAT(CheckCreateTableVectorIndexes(req),
              StatusIs(ErrorCode::kValidation, HasSubstr("on-demand capacity mode")));
  req.billing_mode.reset();  // PROVISIONED by default
  EXPECT_THAT(CheckCreateTableVectorIndexes(req),
              StatusIs(ErrorCode::kValidation, HasSubstr("on-demand capacity mode")));
}

TEST(VectorIndexRulesTest, SearchSchemaMustBeDefined) {
  CreateTableRequest req = Table();
  req.vector_indexes[0].search_schema.push_back(
      {"undefined", SearchSchemaElementType::kInlineFilter});
  // DynamoDB's text (Troubleshooting vector indexes).
  EXPECT_THAT(CheckCreateTableVectorIndexes(req),
              StatusIs(ErrorCode::kValidation,
                       "One element in SearchSchema is not defined in attribute definitions"));
}

TEST(VectorIndexRulesTest, Limits) {
  CreateTableRequest req = Table();
  req.vector_indexes[0].dimensions = 0;
  EXPECT_THAT(CheckCreateTableVectorIndexes(req),
              StatusIs(ErrorCode::kValidation, HasSubstr("Dimensions must be between 1")));
  req.vector_indexes[0].dimensions = kMaxDimensions + 1;
  EXPECT_THAT(CheckCreateTableVectorIndexes(req),
              StatusIs(ErrorCode::kValidation, HasSubstr("Dimensions must be between 1")));
  req = Table();
  req.vector_indexes[0].search_schema.push_back({"n", SearchSchemaElementType::kHash});
  EXPECT_THAT(CheckCreateTableVectorIndexes(req),
              StatusIs(ErrorCode::kValidation, HasSubstr("Duplicate attribute")));
  req = Table();
  req.attribute_definitions.push_back({"h2", AttrType::kS});
  req.vector_indexes[0].search_schema.push_back({"h2", SearchSchemaElementType::kHash});
  EXPECT_THAT(CheckCreateTableVectorIndexes(req),
              StatusIs(ErrorCode::kValidation, HasSubstr("at most one HASH")));
  req = Table();
  req.vector_indexes.push_back(req.vector_indexes[0]);
  EXPECT_THAT(CheckCreateTableVectorIndexes(req),
              StatusIs(ErrorCode::kValidation, HasSubstr("Duplicate index name: emb")));
  req = Table();
  req.vector_indexes[0].vector_attribute = "pk";
  EXPECT_THAT(CheckCreateTableVectorIndexes(req),
              StatusIs(ErrorCode::kValidation, HasSubstr("key attribute")));
  req = Table();
  req.vector_indexes[0].projection.type = ProjectionType::kInclude;
  EXPECT_THAT(CheckCreateTableVectorIndexes(req),
              StatusIs(ErrorCode::kValidation, HasSubstr("NonKeyAttributes")));
  req = Table();
  for (size_t i = 0; i < kMaxVectorIndexesPerTable; ++i) {
    req.vector_indexes.push_back(req.vector_indexes[0]);
    req.vector_indexes.back().index_name = "emb" + std::to_string(i);
  }
  EXPECT_THAT(CheckCreateTableVectorIndexes(req),
              StatusIs(ErrorCode::kValidation, HasSubstr("per-table limit")));
}

}  // namespace
}  // namespace dynarock::vector
