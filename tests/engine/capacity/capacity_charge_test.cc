#include "engine/capacity/capacity_charge.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/keys/key_codec.h"
#include "tests/engine/expr/expr_test_util.h"

namespace dynarock {
namespace {

TEST(CapacityChargeTest, PartOfHashesAndRendersThePartitionKey) {
  const PartitionUnits p = PartOf(7, AttributeValue::S("alice"), 0.5, 0);
  EXPECT_EQ(p.index_id, 7u);
  EXPECT_EQ(p.hash, keys::PartitionHash(AttributeValue::S("alice")));
  EXPECT_EQ(p.key, "{S:alice}");
  EXPECT_EQ(p.read_units, 0.5);
}

TEST(CapacityChargeTest, LongKeysAreTruncated) {
  const PartitionUnits p = PartOf(0, AttributeValue::S(std::string(1000, 'x')), 0, 1);
  EXPECT_EQ(p.key.size(), kMaxPartitionKeyRendering);
}

TEST(CapacityChargeTest, PartOfStorageKeyReadsTheHashAndKeyOfAnItemKey) {
  const AttributeValue pk = expr::testing::N("12.50");
  const AttributeValue sk = AttributeValue::S("s");
  const PartitionUnits p =
      PartOfStorageKey(0, keys::ItemKey(3, pk, &sk), AttrType::kN, 0, 2);
  EXPECT_EQ(p, PartOf(0, pk, 0, 2));
  EXPECT_EQ(p.key, "{N:12.5}");
}

TEST(CapacityChargeTest, MultiAttributePartitionKeyRendersEveryValue) {
  const AttributeValue t = AttributeValue::S("WINTER");
  const AttributeValue r = expr::testing::N("3");
  const AttributeValue* parts[] = {&t, &r};
  const AttrType types[] = {AttrType::kS, AttrType::kN};
  std::string key = keys::PartitionPrefix(9, parts);
  key += "sort key and table key follow";
  const PartitionUnits p = PartOfStorageKey(9, key, types, 0, 1);
  EXPECT_EQ(p.hash, keys::PartitionHash(parts));
  EXPECT_EQ(p.key, "{S:WINTER} | {N:3}");
  EXPECT_EQ(p.write_units, 1);
}

TEST(CapacityChargeTest, ShortStorageKeyGivesAnEmptyPart) {
  const PartitionUnits p = PartOfStorageKey(0, "abc", AttrType::kS, 1, 0);
  EXPECT_EQ(p.hash, 0u);
  EXPECT_EQ(p.key, "");
  EXPECT_EQ(p.read_units, 1);
}

std::string KeyOf(const std::string& pk) {
  return keys::ItemKey(1, AttributeValue::S(pk), nullptr);
}

TEST(CapacityChargeTest, RunsMergeConsecutiveItemsOfOnePartition) {
  std::vector<PartitionRun> runs;
  const AttributeValue sk1 = AttributeValue::S("1"), sk2 = AttributeValue::S("2");
  AddToRuns(keys::ItemKey(1, AttributeValue::S("a"), &sk1), 100, &runs);
  AddToRuns(keys::ItemKey(1, AttributeValue::S("a"), &sk2), 50, &runs);
  AddToRuns(KeyOf("b"), 10, &runs);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].bytes, 150);
  EXPECT_EQ(runs[1].bytes, 10);
  EXPECT_EQ(runs[1].hash, keys::PartitionHash(AttributeValue::S("b")));
}

TEST(CapacityChargeTest, SplitReadUnitsIsProportionalToBytes) {
  std::vector<PartitionRun> runs;
  AddToRuns(KeyOf("a"), 300, &runs);
  AddToRuns(KeyOf("b"), 100, &runs);
  const std::vector<PartitionUnits> parts =
      SplitReadUnits(0, AttrType::kS, runs, 2);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0], PartOf(0, AttributeValue::S("a"), 1.5, 0));
  EXPECT_EQ(parts[1], PartOf(0, AttributeValue::S("b"), 0.5, 0));
}

TEST(CapacityChargeTest, SplitReadUnitsCapsThePartsAndKeepsTheTotal) {
  std::vector<PartitionRun> runs;
  for (int i = 0; i < 200; ++i) AddToRuns(KeyOf("k" + std::to_string(i)), 7, &runs);
  const std::vector<PartitionUnits> parts =
      SplitReadUnits(4, AttrType::kS, runs, 3.5);
  ASSERT_EQ(parts.size(), kMaxScanParts);
  CapacityCharge charge{1, parts};
  EXPECT_DOUBLE_EQ(charge.Total().read_units, 3.5);
  EXPECT_EQ(parts[0].index_id, 4u);
  // The last part holds its own partition and every one after the cap.
  EXPECT_DOUBLE_EQ(parts.back().read_units, 3.5 * (200 - 63) / 200);
}

TEST(CapacityChargeTest, SplitReadUnitsOfNothingReadIsOnePart) {
  const std::vector<PartitionUnits> parts = SplitReadUnits(0, AttrType::kS, {}, 0.5);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0], (PartitionUnits{0, 0, "", 0.5, 0}));
}

TEST(CapacityChargeTest, MeteringMergeAddsUnitsAndAppendsParts) {
  Metering a;
  a.consumed.table = {0, 1};
  a.charge.parts.push_back(PartOf(0, AttributeValue::S("a"), 0, 1));
  Metering b;
  b.consumed.table = {0, 2};
  b.consumed.global_secondary_indexes["g"] = {0, 1};
  b.charge.parts.push_back(PartOf(0, AttributeValue::S("b"), 0, 2));
  b.charge.parts.push_back(PartOf(9, AttributeValue::S("x"), 0, 1));
  a.Merge(b);
  EXPECT_EQ(a.consumed.Total(), (Capacity{0, 4}));
  EXPECT_EQ(a.charge.parts.size(), 3u);
  EXPECT_EQ(a.charge.Total(), a.consumed.Total());
}

}  // namespace
}  // namespace dynarock
