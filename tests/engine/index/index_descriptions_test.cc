#include "engine/index/index_descriptions.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

constexpr char kTable[] = "arn:aws:dynamodb:ddblocal:000000000000:table/t";

TEST(IndexDescriptionsTest, GsiHasItsArnStatusAndThroughput) {
  GlobalSecondaryIndexDef def;
  def.index_name = "byG";
  def.key_schema = {{"g", KeyType::kHash}};
  def.provisioned_throughput = ProvisionedThroughput{5, 7};
  ASSERT_OK_AND_ASSIGN(GlobalSecondaryIndexDescription g,
                       NewGsiDescription(kTable, def, BillingMode::kProvisioned,
                                         CapacityOptions{}, "ddblocal"));
  EXPECT_EQ(g.index_arn, std::string(kTable) + "/index/byG");
  EXPECT_EQ(g.index_status, TableStatus::kActive);
  EXPECT_EQ(g.provisioned_throughput.read_capacity_units, 5);
  EXPECT_EQ(g.provisioned_throughput.write_capacity_units, 7);
  EXPECT_EQ(g.def.index_name, "byG");
}

TEST(IndexDescriptionsTest, UnsetThroughputIsZero) {
  ProvisionedThroughputDescription d = ThroughputDescriptionOf(std::nullopt);
  EXPECT_EQ(d.read_capacity_units, 0);
  EXPECT_EQ(d.write_capacity_units, 0);
}

TEST(IndexDescriptionsTest, LsiHasItsArn) {
  LocalSecondaryIndexDef def;
  def.index_name = "byL";
  EXPECT_EQ(NewLsiDescription(kTable, def).index_arn, std::string(kTable) + "/index/byL");
}

}  // namespace
}  // namespace dynarock
