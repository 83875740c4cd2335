// tests/tools/simulate/item_practices_test.cc

#include "tools/simulate/item_practices.h"

#include <gtest/gtest.h>

namespace dynarock::tools::simulate {
namespace {

const PracticeStep* Find(const ItemPracticesReport& r, const std::string& op_prefix) {
  for (const PracticeStep& s : r.steps) {
    if (s.operation.rfind(op_prefix, 0) == 0) return &s;
  }
  return nullptr;
}

TEST(ItemPracticesTest, SeedNumbers) {
  Result<ItemPracticesReport> r = RunItemPractices(ItemPracticesOptions{});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const ItemPracticesReport& report = r.value();
  // Vertical partitioning: the seed's 3 KB item vs its 300 B hot part.
  const PracticeStep* whole = Find(report, "UpdateItem ProductCatalog");
  const PracticeStep* hot = Find(report, "UpdateItem ProductAvailability");
  ASSERT_TRUE(whole && hot);
  EXPECT_DOUBLE_EQ(whole->write_units, 3);
  EXPECT_DOUBLE_EQ(hot->write_units, 1);

  // Compression: smaller item, fewer units both ways.
  const PracticeStep* put_plain = Find(report, "PutItem Reply, message as String");
  const PracticeStep* put_zlib = Find(report, "PutItem Reply, message as Binary");
  const PracticeStep* get_plain = Find(report, "GetItem Reply (strongly consistent), String");
  const PracticeStep* get_zlib = Find(report, "GetItem Reply (strongly consistent), Binary");
  ASSERT_TRUE(put_plain && put_zlib && get_plain && get_zlib);
  EXPECT_LT(report.compressed_bytes, 32 * 1024 / 2);
  EXPECT_DOUBLE_EQ(put_plain->write_units, 33);  // 32 KB + names and key
  EXPECT_LT(put_zlib->write_units, put_plain->write_units / 2);
  EXPECT_DOUBLE_EQ(get_plain->read_units, 9);
  EXPECT_LT(get_zlib->read_units, get_plain->read_units);
  EXPECT_EQ(get_zlib->note, "inflated back to the same text");

  // Chunking: 1 MB refused whole; 16 chunks of 64 KB (+ key and name).
  const PracticeStep* refused = Find(report, "PutItem Reply, the whole value");
  ASSERT_NE(refused, nullptr);
  EXPECT_NE(refused->note.find("refused"), std::string::npos);
  EXPECT_EQ(report.chunks, 16);
  const PracticeStep* bw = Find(report, "BatchWriteItem ReplyChunks");
  const PracticeStep* bg = Find(report, "BatchGetItem ReplyChunks, strongly");
  const PracticeStep* bge = Find(report, "BatchGetItem ReplyChunks, eventually");
  ASSERT_TRUE(bw && bg && bge);
  EXPECT_DOUBLE_EQ(bw->write_units, 16 * 65);  // ceil(64 KB + ~60 B / 1 KB)
  EXPECT_DOUBLE_EQ(bg->read_units, 16 * 17);   // ceil(64 KB + ~60 B / 4 KB)
  EXPECT_DOUBLE_EQ(bge->read_units, 16 * 8.5);
}

TEST(ItemPracticesTest, DeflateInflateRoundTrip) {
  const std::string text(10'000, 'a');
  Result<std::string> packed = Deflate(text);
  ASSERT_TRUE(packed.ok());
  EXPECT_LT(packed.value().size(), 200u);
  Result<std::string> back = Inflate(packed.value(), text.size());
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back.value(), text);
  EXPECT_FALSE(Inflate("not zlib", 10).ok());
}

// By hand at us-east-1's list prices of 2026-12-01: 3 WRU a call is
// $1.875 a million calls ($0.625 per million WRU); one call a second for a
// 730-hour month is 3 WCU and the minimum 1 RCU: 3 x 0.00065 x 730 +
// 0.00013 x 730 = $1.5184.
TEST(ItemPracticesTest, EachStepIsBilledAsStatsCostBillsIt) {
  PracticeStep step;
  step.write_units = 3;
  const PracticeStepCost c = CostOfStep(step);
  EXPECT_NEAR(c.on_demand_per_million, 1.875, 1e-12);
  EXPECT_NEAR(c.provisioned_month_at_one_per_second, 1.5184, 1e-12);
  Result<ItemPracticesReport> r = RunItemPractices(ItemPracticesOptions{});
  ASSERT_TRUE(r.ok());
  const std::string table = ItemPracticesTable(r.value()).Render();
  EXPECT_NE(table.find("on_demand_per_1M_calls"), std::string::npos);
  EXPECT_NE(table.find("$1.88"), std::string::npos);  // the 3 KB UpdateItem
}

}  // namespace
}  // namespace dynarock::tools::simulate
