#include "engine/index/index_entry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/value/item_codec.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

using ::testing::HasSubstr;

AttributeValue S(std::string s) { return AttributeValue::S(std::move(s)); }
AttributeValue N(const std::string& n) {
  return AttributeValue::N(*Number::Parse(n));
}

// Table pk (S) + sk (N); GSI on g (S) + gr (N); LSI on pk + l (S).
class IndexEntryTest : public ::testing::Test {
 protected:
  IndexEntryTest() {
    table_key_.hash_name = "pk";
    table_key_.hash_type = AttrType::kS;
    table_key_.range_name = "sk";
    table_key_.range_type = AttrType::kN;
    gsi_.id = 7;
    gsi_.name = "byG";
    gsi_.global = true;
    gsi_.key.hash_name = "g";
    gsi_.key.hash_type = AttrType::kS;
    gsi_.key.range_name = "gr";
    gsi_.key.range_type = AttrType::kN;
    gsi_.projection.type = ProjectionType::kKeysOnly;
    lsi_.id = 8;
    lsi_.name = "byL";
    lsi_.key.hash_name = "pk";
    lsi_.key.hash_type = AttrType::kS;
    lsi_.key.range_name = "l";
    lsi_.key.range_type = AttrType::kS;
    lsi_.projection.type = ProjectionType::kInclude;
    lsi_.projection.non_key_attributes = {"inc", "absent"};
    table_.indexes = {gsi_, lsi_};
  }

  Item MakeItem(const std::string& pk, const std::string& sk,
                const std::string& g, const std::string& gr) {
    Item item;
    item["pk"] = S(pk);
    item["sk"] = N(sk);
    item["g"] = S(g);
    item["gr"] = N(gr);
    item["l"] = S("lsi-" + sk);
    item["inc"] = S("included");
    item["other"] = S("not projected");
    return item;
  }

  KeyDef table_key_;
  IndexInfo gsi_;
  IndexInfo lsi_;
  TableInfo table_;
};

TEST_F(IndexEntryTest, KeysOnlyProjectsTableAndIndexKeys) {
  const Item item = MakeItem("p", "1", "G", "5");
  Item projected = ProjectForIndex(gsi_, table_key_, item);
  EXPECT_EQ(projected.size(), 4u);
  EXPECT_TRUE(projected.count("pk") && projected.count("sk") &&
              projected.count("g") && projected.count("gr"));
}

TEST_F(IndexEntryTest, IncludeAddsPresentNonKeyAttributes) {
  const Item item = MakeItem("p", "1", "G", "5");
  Item projected = ProjectForIndex(lsi_, table_key_, item);
  EXPECT_EQ(projected.size(), 4u);  // pk, sk, l, inc ("absent" is absent)
  EXPECT_EQ(projected.at("inc"), S("included"));
  EXPECT_FALSE(projected.count("other"));
}

TEST_F(IndexEntryTest, AllProjectsTheWholeItem) {
  IndexInfo all = gsi_;
  all.projection.type = ProjectionType::kAll;
  const Item item = MakeItem("p", "1", "G", "5");
  ASSERT_OK_AND_ASSIGN(Item decoded,
                       DecodeItem(EntryOf(all, table_key_, item)->value));
  EXPECT_EQ(decoded, item);
}

TEST_F(IndexEntryTest, ItemWithoutAnIndexKeyAttributeHasNoEntry) {
  Item item = MakeItem("p", "1", "G", "5");
  item.erase("gr");
  EXPECT_FALSE(EntryOf(gsi_, table_key_, item).has_value());
  EXPECT_TRUE(EntryOf(lsi_, table_key_, item).has_value());
  item.erase("l");
  EXPECT_FALSE(EntryOf(lsi_, table_key_, item).has_value());
  EXPECT_OK(CheckIndexKeys(table_, item));  // sparse is fine
}

TEST_F(IndexEntryTest, WrongTypeIsRefusedWithDynamoDbsMessage) {
  Item item = MakeItem("p", "1", "G", "5");
  item["g"] = N("3");
  EXPECT_THAT(
      CheckIndexKeys(table_, item),
      StatusIs(
          ErrorCode::kValidation,
          "One or more parameter values were invalid: Type mismatch for Index "
          "Key g Expected: S Actual: N IndexName: byG"));
  item["g"] = AttributeValue::Null();
  EXPECT_THAT(
      CheckIndexKeys(table_, item),
      StatusIs(
          ErrorCode::kValidation,
          "One or more parameter values were invalid: Type mismatch for Index "
          "Key g Expected: S Actual: NULL IndexName: byG"));
}

TEST_F(IndexEntryTest, EmptyStringOrBinaryIndexKeyIsRefused) {
  Item item = MakeItem("p", "1", "G", "5");
  item["l"] = S("");
  EXPECT_THAT(
      CheckIndexKeys(table_, item),
      StatusIs(
          ErrorCode::kValidation,
          "One or more parameter values are not valid. A value specified for a "
          "secondary index key is not supported. The AttributeValue for a key "
          "attribute cannot contain an empty string value. IndexName: byL, "
          "IndexKey: l"));
  IndexInfo binary = gsi_;
  binary.key.hash_type = AttrType::kB;
  item = MakeItem("p", "1", "G", "5");
  item["g"] = AttributeValue::B("");
  EXPECT_THAT(
      CheckIndexKeysOf(binary, item),
      StatusIs(
          ErrorCode::kValidation,
          "One or more parameter values are not valid. A value specified for a "
          "secondary index key is not supported. The AttributeValue for a key "
          "attribute cannot contain an empty binary value. IndexName: byG, "
          "IndexKey: g"));
}

TEST_F(IndexEntryTest,
       GsiEntriesAreNonUniqueAndSortedByIndexSortKeyThenTableKey) {
  // Same index key, two items: two entries. Sorted by gr, then pk, sk.
  std::map<std::string, std::string> entries;  // key -> label
  auto add = [&](const char* label, const Item& item) {
    entries[EntryOf(gsi_, table_key_, item)->key] = label;
  };
  add("G/5/b/1", MakeItem("b", "1", "G", "5"));
  add("G/5/a/2", MakeItem("a", "2", "G", "5"));
  add("G/5/a/1", MakeItem("a", "1", "G", "5"));
  add("G/-3/z/9", MakeItem("z", "9", "G", "-3"));
  add("G/10/a/1", MakeItem("a", "1", "G", "10"));
  add("H/5/a/1", MakeItem("a", "1", "H", "5"));
  EXPECT_EQ(entries.size(), 6u);
  std::vector<std::string> in_g;
  KeyRange g = IndexQueryRange(7, S("G"), nullptr);
  for (const auto& [key, label] : entries) {
    if (key >= g.lower && key < g.upper) in_g.push_back(label);
  }
  EXPECT_EQ(in_g, (std::vector<std::string>{"G/-3/z/9", "G/5/a/1", "G/5/a/2",
                                            "G/5/b/1", "G/10/a/1"}));
}

TEST_F(IndexEntryTest, SortKeyRangesCoverEveryTableKeySuffix) {
  std::map<std::string, std::string> entries;
  for (const char* gr : {"4", "5", "6"}) {
    for (const char* pk : {"a", "b"}) {
      entries[EntryOf(gsi_, table_key_, MakeItem(pk, "1", "G", gr))->key] =
          std::string(gr) + pk;
    }
  }
  auto labels = [&](expr::KeyOp op, std::vector<AttributeValue> values) {
    expr::KeyConditionTerm term{"gr", op, std::move(values)};
    KeyRange r = IndexQueryRange(7, S("G"), &term);
    std::string out;
    for (const auto& [key, label] : entries) {
      if (key >= r.lower && key < r.upper) out += label + " ";
    }
    return out;
  };
  EXPECT_EQ(labels(expr::KeyOp::kEq, {N("5")}), "5a 5b ");
  EXPECT_EQ(labels(expr::KeyOp::kLe, {N("5")}), "4a 4b 5a 5b ");
  EXPECT_EQ(labels(expr::KeyOp::kLt, {N("5")}), "4a 4b ");
  EXPECT_EQ(labels(expr::KeyOp::kGt, {N("5")}), "6a 6b ");
  EXPECT_EQ(labels(expr::KeyOp::kGe, {N("5")}), "5a 5b 6a 6b ");
  EXPECT_EQ(labels(expr::KeyOp::kBetween, {N("4"), N("5")}), "4a 4b 5a 5b ");
}

TEST_F(IndexEntryTest, BeginsWithOnAnIndexSortKey) {
  IndexInfo s = gsi_;
  s.key.range_type = AttrType::kS;
  std::map<std::string, std::string> entries;
  for (const char* gr : {"ab", "abc", "abd", "b"}) {
    Item item = MakeItem("p", "1", "G", "0");
    item["gr"] = S(gr);
    entries[EntryOf(s, table_key_, item)->key] = gr;
  }
  expr::KeyConditionTerm term{"gr", expr::KeyOp::kBeginsWith, {S("ab")}};
  KeyRange r = IndexQueryRange(7, S("G"), &term);
  std::string out;
  for (const auto& [key, label] : entries) {
    if (key >= r.lower && key < r.upper) out += label + " ";
  }
  EXPECT_EQ(out, "ab abc abd ");
}

TEST_F(IndexEntryTest, LsiKeyKeepsThePartitionAndEndsWithTheTableSortKey) {
  const Item a = MakeItem("p", "2", "G", "5");
  Item b = MakeItem("p", "1", "G", "5");
  b["l"] = a.at("l");  // same LSI sort key, different table sort key
  const std::string ka = EntryOf(lsi_, table_key_, a)->key;
  const std::string kb = EntryOf(lsi_, table_key_, b)->key;
  EXPECT_NE(ka, kb);
  EXPECT_LT(kb, ka);
  KeyRange p = IndexQueryRange(8, S("p"), nullptr);
  EXPECT_TRUE(ka >= p.lower && ka < p.upper && kb >= p.lower && kb < p.upper);
}

// A GSI of 2 HASH (t: S, r: N) + 2 RANGE (d: S, n: N) attributes.
IndexInfo MultiGsi() {
  IndexInfo m;
  m.id = 9;
  m.name = "multi";
  m.global = true;
  m.key.hash_name = "t";
  m.key.hash_type = AttrType::kS;
  m.key.extra_hash = {{"r", AttrType::kN}};
  m.key.range_name = "d";
  m.key.range_type = AttrType::kS;
  m.key.extra_range = {{"n", AttrType::kN}};
  m.projection.type = ProjectionType::kKeysOnly;
  return m;
}

Item MultiItem(const std::string& pk, const std::string& t, const char* r,
               const std::string& d, const char* n) {
  Item item;
  item["pk"] = S(pk);
  item["sk"] = N("1");
  item["t"] = S(t);
  item["r"] = N(r);
  item["d"] = S(d);
  item["n"] = N(n);
  item["other"] = S("x");
  return item;
}

TEST_F(IndexEntryTest, MultiAttributeEntryIsSparseUnlessEveryKeyAttributeIsThere) {
  const IndexInfo m = MultiGsi();
  Item item = MultiItem("p", "T", "1", "D", "2");
  ASSERT_TRUE(EntryOf(m, table_key_, item).has_value());
  for (const char* attr : {"t", "r", "d", "n"}) {
    Item missing = item;
    missing.erase(attr);
    EXPECT_FALSE(EntryOf(m, table_key_, missing).has_value()) << attr;
    EXPECT_OK(CheckIndexKeysOf(m, missing)) << attr;
  }
}

TEST_F(IndexEntryTest, MultiAttributeKeysOnlyHoldsEveryKeyAttribute) {
  const IndexInfo m = MultiGsi();
  const Item projected =
      ProjectForIndex(m, table_key_, MultiItem("p", "T", "1", "D", "2"));
  EXPECT_EQ(projected.size(), 6u);  // pk sk t r d n
  EXPECT_FALSE(projected.count("other"));
  EXPECT_EQ(IndexKeyAttributes(m, table_key_),
            (std::vector<std::string>{"d", "n", "pk", "r", "sk", "t"}));
}

TEST_F(IndexEntryTest, MultiAttributeWrongTypeIsRefusedForEveryAttribute) {
  const IndexInfo m = MultiGsi();
  Item item = MultiItem("p", "T", "1", "D", "2");
  item["n"] = S("two");
  EXPECT_THAT(CheckIndexKeysOf(m, item),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: Type mismatch for Index "
                       "Key n Expected: N Actual: S IndexName: multi"));
  item = MultiItem("p", "T", "1", "D", "2");
  item["r"] = S("one");
  EXPECT_THAT(CheckIndexKeysOf(m, item),
              StatusIs(ErrorCode::kValidation, HasSubstr("Key r Expected: N Actual: S")));
  item = MultiItem("p", "T", "1", "", "2");
  EXPECT_THAT(CheckIndexKeysOf(m, item),
              StatusIs(ErrorCode::kValidation, HasSubstr("IndexName: multi, IndexKey: d")));
}

TEST_F(IndexEntryTest, MultiAttributePartitionIsEveryHashValueHashedTogether) {
  const IndexInfo m = MultiGsi();
  const std::string a = EntryOf(m, table_key_, MultiItem("p", "T", "1", "D", "2"))->key;
  const std::string b = EntryOf(m, table_key_, MultiItem("q", "T", "1.0", "E", "0"))->key;
  const std::string c = EntryOf(m, table_key_, MultiItem("p", "T", "2", "D", "2"))->key;
  EXPECT_EQ(keys::HashOfKey(a), keys::HashOfKey(b));  // same (t, r)
  EXPECT_NE(keys::HashOfKey(a), keys::HashOfKey(c));
  const AttributeValue t = S("T");
  const AttributeValue r = N("1");
  const AttributeValue* partition[] = {&t, &r};
  KeyRange all = IndexQueryRange(9, partition, {}, nullptr);
  EXPECT_TRUE(a >= all.lower && a < all.upper);
  EXPECT_TRUE(b >= all.lower && b < all.upper);
  EXPECT_FALSE(c >= all.lower && c < all.upper);
}

TEST_F(IndexEntryTest, MultiAttributeSortKeyOrdersByEachAttributeInTurn) {
  const IndexInfo m = MultiGsi();
  // (d, n) pairs in the order the index must hold them.
  const std::vector<std::pair<std::string, const char*>> order = {
      {"a", "-3"}, {"a", "2"}, {"a", "10"}, {"ab", "1"}, {"b", "-1"}, {"b", "5"}};
  std::map<std::string, std::string> entries;  // key -> label
  for (size_t i = 0; i < order.size(); ++i) {
    Item item = MultiItem("p" + std::to_string(i), "T", "1", order[i].first, order[i].second);
    entries[EntryOf(m, table_key_, item)->key] = order[i].first + order[i].second;
  }
  std::string all;
  for (const auto& [key, label] : entries) all += label + " ";
  EXPECT_EQ(all, "a-3 a2 a10 ab1 b-1 b5 ");

  const AttributeValue t = S("T");
  const AttributeValue r = N("1");
  const AttributeValue* partition[] = {&t, &r};
  auto labels = [&](std::vector<const AttributeValue*> equal,
                    const expr::KeyConditionTerm* term) {
    KeyRange range = IndexQueryRange(9, partition, equal, term);
    std::string out;
    for (const auto& [key, label] : entries) {
      if (key >= range.lower && key < range.upper) out += label + " ";
    }
    return out;
  };
  const AttributeValue a = S("a");
  const AttributeValue b = S("b");
  EXPECT_EQ(labels({&a}, nullptr), "a-3 a2 a10 ");
  expr::KeyConditionTerm ge{"n", expr::KeyOp::kGe, {N("2")}};
  EXPECT_EQ(labels({&a}, &ge), "a2 a10 ");
  expr::KeyConditionTerm lt{"n", expr::KeyOp::kLt, {N("5")}};
  EXPECT_EQ(labels({&b}, &lt), "b-1 ");
  expr::KeyConditionTerm between{"n", expr::KeyOp::kBetween, {N("-3"), N("2")}};
  EXPECT_EQ(labels({&a}, &between), "a-3 a2 ");
  expr::KeyConditionTerm prefix{"d", expr::KeyOp::kBeginsWith, {S("a")}};
  EXPECT_EQ(labels({}, &prefix), "a-3 a2 a10 ab1 ");
  expr::KeyConditionTerm gt{"d", expr::KeyOp::kGt, {S("a")}};
  EXPECT_EQ(labels({}, &gt), "ab1 b-1 b5 ");
  expr::KeyConditionTerm eq{"n", expr::KeyOp::kEq, {N("10")}};
  EXPECT_EQ(labels({&a}, &eq), "a10 ");
}

// A binary sort-key attribute followed by a number: bytes order the first
// (a shorter value before its extensions, 0x00 and 0xff bytes included),
// the number only breaks ties.
TEST_F(IndexEntryTest, MultiAttributeBinarySortKeyOrdersBytewiseThenTheNextAttribute) {
  IndexInfo m;
  m.id = 11;
  m.name = "bin";
  m.global = true;
  m.key.hash_name = "t";
  m.key.hash_type = AttrType::kS;
  m.key.range_name = "b";
  m.key.range_type = AttrType::kB;
  m.key.extra_range = {{"n", AttrType::kN}};
  m.projection.type = ProjectionType::kKeysOnly;
  const std::vector<std::pair<std::string, const char*>> order = {
      {std::string("\x01", 1), "99"},     {std::string("\x01\x00", 2), "-5"},
      {std::string("\x01\x00", 2), "7"}, {std::string("\x01\x00\x00", 3), "-100"},
      {std::string("\x01\xff", 2), "0"}, {std::string("\x02", 1), "-100"}};
  std::map<std::string, size_t> entries;  // key -> position in `order`
  for (size_t i = 0; i < order.size(); ++i) {
    Item item{{"pk", S("p" + std::to_string(i))}, {"sk", N("1")}, {"t", S("T")},
              {"b", AttributeValue::B(order[i].first)},           {"n", N(order[i].second)}};
    std::optional<IndexEntry> e = EntryOf(m, table_key_, item);
    ASSERT_TRUE(e.has_value());
    entries[e->key] = i;
  }
  std::vector<size_t> held;
  for (const auto& [key, i] : entries) held.push_back(i);
  EXPECT_EQ(held, (std::vector<size_t>{0, 1, 2, 3, 4, 5}));
}

TEST_F(IndexEntryTest, IndexKeyValueLengthsAreLimited) {
  Item item = MakeItem("p", "1", std::string(2048, 'g'), "5");
  EXPECT_OK(CheckIndexKeysOf(gsi_, item));
  item["g"] = S(std::string(2049, 'g'));
  EXPECT_THAT(CheckIndexKeysOf(gsi_, item),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: Size limit exceeded "
                       "for Index Key g Actual Size: 2049 bytes Max Size: 2048 bytes "
                       "IndexName: " + gsi_.name));
  IndexInfo s = gsi_;
  s.key.range_type = AttrType::kS;
  item = MakeItem("p", "1", "G", "0");
  item["gr"] = S(std::string(1024, 'r'));
  EXPECT_OK(CheckIndexKeysOf(s, item));
  item["gr"] = S(std::string(1025, 'r'));
  EXPECT_THAT(CheckIndexKeysOf(s, item),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: Aggregated size of all "
                       "range keys has exceeded the size limit of 1024 bytes"));
  // Each value of a multi-attribute key on its own.
  const IndexInfo m = MultiGsi();
  Item multi = MultiItem("p", std::string(2048, 't'), "1", std::string(1024, 'd'), "2");
  EXPECT_OK(CheckIndexKeysOf(m, multi));
  multi["d"] = S(std::string(1025, 'd'));
  EXPECT_THAT(CheckIndexKeysOf(m, multi),
              StatusIs(ErrorCode::kValidation, HasSubstr("1024 bytes")));
  multi = MultiItem("p", std::string(3000, 't'), "1", "d", "2");
  EXPECT_THAT(CheckIndexKeysOf(m, multi),
              StatusIs(ErrorCode::kValidation,
                       "One or more parameter values were invalid: Size limit exceeded "
                       "for Index Key t Actual Size: 3000 bytes Max Size: 2048 bytes "
                       "IndexName: multi"));
}

}  // namespace
}  // namespace dynarock
