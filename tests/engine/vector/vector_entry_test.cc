#include "engine/vector/vector_entry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>

#include "tests/testutil/status_matchers.h"

namespace dynarock::vector {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

AttributeValue S(std::string s) { return AttributeValue::S(std::move(s)); }
AttributeValue N(const char* n) { return AttributeValue::N(Number::Parse(n).value()); }
AttributeValue L(AttributeValue::List list) { return AttributeValue::L(std::move(list)); }

class VectorEntryTest : public ::testing::Test {
 protected:
  VectorEntryTest() {
    table_key_.hash_name = "pk";
    table_key_.hash_type = AttrType::kS;
    auto def = std::make_shared<VectorIndexDef>();
    def->index_name = "emb";
    def->vector_attribute = "v";
    def->dimensions = 3;
    def->search_schema = {{"cat", SearchSchemaElementType::kHash},
                          {"color", SearchSchemaElementType::kInlineFilter}};
    index_.id = 9;
    index_.name = "emb";
    index_.global = true;
    index_.vector = def;
    index_.key.hash_name = "cat";
    index_.key.hash_type = AttrType::kS;
    auto flat = std::make_shared<VectorIndexDef>(*def);
    flat->search_schema = {{"color", SearchSchemaElementType::kInlineFilter}};
    flat_ = index_;
    flat_.vector = flat;
    flat_.key = KeyDef{};
  }

  KeyDef table_key_;
  IndexInfo index_;
  IndexInfo flat_;  // the same index without a HASH attribute
};

TEST_F(VectorEntryTest, FloatsOfChecksTypeDimensionsAndRange) {
  auto ok = FloatsOf(L({N("1"), N("-2.5"), N("0.125")}), 3, "SearchVector", "");
  ASSERT_OK(ok.status());
  EXPECT_THAT(*ok, ElementsAre(1.0f, -2.5f, 0.125f));
  EXPECT_THAT(FloatsOf(S("x"), 3, "SearchVector", "").status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("expected a list (L) of numbers")));
  EXPECT_THAT(FloatsOf(L({N("1")}), 3, "SearchVector", "").status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("(1) does not match the dimensions")));
  EXPECT_THAT(FloatsOf(L({N("1"), S("a"), N("2")}), 3, "SearchVector", "emb").status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("element 1: expected N, got S "
                                                         "IndexName: emb")));
  EXPECT_THAT(FloatsOf(L({N("1"), N("4e38"), N("2")}), 3, "SearchVector", "").status(),
              StatusIs(ErrorCode::kValidation, HasSubstr("32-bit float")));
  // DynamoDB's numbers have no NaN nor Infinity; the tiny and the f32
  // maximum are accepted (precision is lost, as documented).
  EXPECT_OK(FloatsOf(L({N("1e-130"), N("3.4e38"), N("-3.4e38")}), 3, "x", "").status());
}

TEST_F(VectorEntryTest, WritesAreRefusedOnlyForAMalformedPresentVector) {
  EXPECT_OK(CheckItem(index_, {{"pk", S("a")}}));
  EXPECT_OK(CheckItem(index_, {{"pk", S("a")}, {"v", L({N("1"), N("2"), N("3")})}}));
  EXPECT_THAT(CheckItem(index_, {{"pk", S("a")}, {"v", L({N("1"), N("2")})}}),
              StatusIs(ErrorCode::kValidation, HasSubstr("vector attribute v")));
  EXPECT_THAT(CheckItem(index_, {{"pk", S("a")}, {"cat", N("1")}}),
              StatusIs(ErrorCode::kValidation, HasSubstr("Type mismatch for Index Key cat")));
}

TEST_F(VectorEntryTest, AnEntryNeedsTheVectorAndTheHashAttribute) {
  const AttributeValue v = L({N("1"), N("2"), N("3")});
  EXPECT_TRUE(HasEntry(index_, {{"pk", S("a")}, {"cat", S("c")}, {"v", v}}));
  EXPECT_FALSE(HasEntry(index_, {{"pk", S("a")}, {"v", v}}));  // sparse on cat
  EXPECT_TRUE(HasEntry(flat_, {{"pk", S("a")}, {"v", v}}));
  EXPECT_FALSE(HasEntry(flat_, {{"pk", S("a")}}));
  EXPECT_FALSE(HasEntry(flat_, {{"pk", S("a")}, {"v", L({N("1")})}}));
}

TEST_F(VectorEntryTest, EntryKeysGroupByPartition) {
  const AttributeValue v = L({N("1"), N("2"), N("3")});
  const Item a1{{"pk", S("1")}, {"cat", S("a")}, {"v", v}};
  const Item a2{{"pk", S("2")}, {"cat", S("a")}, {"v", v}};
  const Item b1{{"pk", S("1")}, {"cat", S("b")}, {"v", v}};
  const std::string ka1 = EntryKey(index_, table_key_, a1);
  const std::string ka2 = EntryKey(index_, table_key_, a2);
  const std::string kb1 = EntryKey(index_, table_key_, b1);
  EXPECT_NE(ka1, kb1);
  // The partition's prefix is shared by its entries.
  const size_t common = std::mismatch(ka1.begin(), ka1.end(), ka2.begin()).first - ka1.begin();
  EXPECT_GT(common, 4u + 8u);
  EXPECT_EQ(PartitionOf(index_, a1), PartitionOf(index_, a2));
  EXPECT_NE(PartitionOf(index_, a1), PartitionOf(index_, b1));
  EXPECT_EQ(PartitionOf(flat_, a1), PartitionOf(flat_, b1));
  EXPECT_THAT(EntryAttributes(index_, table_key_), ElementsAre("cat", "color", "pk", "v"));
}

}  // namespace
}  // namespace dynarock::vector
