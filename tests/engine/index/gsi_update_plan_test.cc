#include "engine/index/gsi_update_plan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// An on-demand table t (pk: S) and the plans of UpdateTable requests on it,
// with the catalog's ids and the backfill state given by the test.
class GsiUpdatePlanTest : public ::testing::Test {
 protected:
  GsiUpdatePlanTest() {
    table_.id = 1;
    table_.desc.table_name = "t";
    table_.desc.table_arn = "arn:aws:dynamodb:ddblocal:000000000000:table/t";
    table_.desc.attribute_definitions = {{"pk", AttrType::kS}};
    table_.desc.key_schema = {{"pk", KeyType::kHash}};
    table_.desc.billing_mode = BillingMode::kPayPerRequest;
  }

  static GlobalSecondaryIndexUpdate Create(const std::string& name,
                                           const std::string& key) {
    GlobalSecondaryIndexUpdate u;
    u.create = GlobalSecondaryIndexDef{};
    u.create->index_name = name;
    u.create->key_schema = {{key, KeyType::kHash}};
    u.create->projection.type = ProjectionType::kKeysOnly;
    return u;
  }
  static GlobalSecondaryIndexUpdate Delete(const std::string& name) {
    GlobalSecondaryIndexUpdate u;
    u.del = GlobalSecondaryIndexUpdate::DeleteAction{name};
    return u;
  }
  static UpdateTableRequest Request(std::vector<GlobalSecondaryIndexUpdate> updates) {
    UpdateTableRequest req;
    req.table_name = "t";
    req.global_secondary_index_updates = std::move(updates);
    return req;
  }

  // Plans `req` on table_; the result in next_ and changes_.
  Status Plan(const UpdateTableRequest& req, bool backfilling = false) {
    next_ = table_;
    changes_ = GsiChanges();
    GsiUpdateContext context{table_, 1000, capacity_, backfilling, [this] {
                               ++reserved_;
                               return Result<uint32_t>(41 + reserved_);
                             }};
    return PlanGsiUpdates(req, context, &next_, &changes_);
  }

  CapacityOptions capacity_;
  TableInfo table_;
  TableInfo next_;
  GsiChanges changes_;
  int reserved_ = 0;
};

TEST_F(GsiUpdatePlanTest, CreateAddsTheIndexWithItsIdArnAndKeyDefinition) {
  UpdateTableRequest req = Request({Create("byG", "g")});
  req.attribute_definitions = {{"g", AttrType::kS}, {"unused", AttrType::kN}};
  ASSERT_OK(Plan(req));
  EXPECT_EQ(changes_.created, "byG");
  EXPECT_FALSE(changes_.deleted.has_value());
  ASSERT_EQ(next_.desc.global_secondary_indexes.size(), 1u);
  EXPECT_EQ(next_.desc.global_secondary_indexes[0].index_arn,
            "arn:aws:dynamodb:ddblocal:000000000000:table/t/index/byG");
  EXPECT_EQ(next_.index_ids.at("byG"), 42u);
  const IndexInfo* index = next_.FindIndex("byG");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->id, 42u);
  EXPECT_TRUE(index->global);
  // Only the new key attribute is kept, in name order.
  std::vector<std::string> names;
  for (const auto& a : next_.desc.attribute_definitions) names.push_back(a.attribute_name);
  EXPECT_THAT(names, ElementsAre("g", "pk"));
  // The table as it was is untouched.
  EXPECT_TRUE(table_.desc.global_secondary_indexes.empty());
}

TEST_F(GsiUpdatePlanTest, DeleteRemovesTheIndexAndTheDefinitionsOnlyItUsed) {
  UpdateTableRequest create = Request({Create("byG", "g")});
  create.attribute_definitions = {{"g", AttrType::kS}};
  ASSERT_OK(Plan(create));
  table_ = next_;
  ASSERT_OK(Plan(Request({Delete("byG")})));
  ASSERT_TRUE(changes_.deleted.has_value());
  EXPECT_EQ(changes_.deleted->name, "byG");
  EXPECT_EQ(changes_.deleted->id, 42u);
  EXPECT_TRUE(next_.desc.global_secondary_indexes.empty());
  EXPECT_FALSE(next_.index_ids.count("byG"));
  ASSERT_EQ(next_.desc.attribute_definitions.size(), 1u);
  EXPECT_EQ(next_.desc.attribute_definitions[0].attribute_name, "pk");
}

TEST_F(GsiUpdatePlanTest, ChecksEveryUpdateBeforeReservingAnything) {
  EXPECT_THAT(Plan(Request({})),
              StatusIs(ErrorCode::kValidation, HasSubstr("is empty")));
  GlobalSecondaryIndexUpdate both = Create("a", "g");
  both.del = GlobalSecondaryIndexUpdate::DeleteAction{"a"};
  EXPECT_THAT(Plan(Request({both})),
              StatusIs(ErrorCode::kValidation, HasSubstr("Only one global secondary index action")));
  EXPECT_THAT(Plan(Request({Create("a", "g"), Create("b", "h")})),
              StatusIs(ErrorCode::kLimitExceeded, HasSubstr("Only 1 online index")));
  UpdateTableRequest create = Request({Create("a", "g")});
  create.attribute_definitions = {{"g", AttrType::kS}};
  EXPECT_THAT(Plan(create, /*backfilling=*/true),
              StatusIs(ErrorCode::kLimitExceeded, HasSubstr("Only 1 online index")));
  // A valid Create followed by a Delete of a missing index: nothing planned.
  EXPECT_THAT(Plan(Request({create.global_secondary_index_updates->front(), Delete("nope")})),
              StatusIs(ErrorCode::kLimitExceeded, HasSubstr("Only 1 online index")));
  EXPECT_THAT(Plan(Request({Delete("nope")})),
              StatusIs(ErrorCode::kResourceNotFound,
                       "Requested resource not found: Index nope for table t"));
  EXPECT_EQ(reserved_, 0);
}

TEST_F(GsiUpdatePlanTest, SwitchToProvisionedNeedsEveryIndexThroughput) {
  UpdateTableRequest create = Request({Create("byG", "g")});
  create.attribute_definitions = {{"g", AttrType::kS}};
  ASSERT_OK(Plan(create));
  table_ = next_;
  // The table-level part of the request switched next_ to PROVISIONED.
  next_ = table_;
  next_.desc.billing_mode = BillingMode::kProvisioned;
  GsiChanges changes;
  GsiUpdateContext context{table_, 1000, capacity_, false,
                           [] { return Result<uint32_t>(99u); }};
  EXPECT_THAT(PlanGsiUpdates(UpdateTableRequest{}, context, &next_, &changes),
              StatusIs(ErrorCode::kValidation,
                       HasSubstr("ProvisionedThroughput must be specified for index: byG")));
}

}  // namespace
}  // namespace dynarock
