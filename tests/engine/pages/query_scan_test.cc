#include "engine/pages/query_scan.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "engine/expr/parser.h"
#include "engine/expr/resolve.h"
#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

using expr::KeyConditionTerm;
using expr::KeyOp;

constexpr uint32_t kTable = 9;

AttributeValue Num(const char* text) { return AttributeValue::N(Number::Parse(text).value()); }
AttributeValue Str(std::string s) { return AttributeValue::S(std::move(s)); }

class QueryScanTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StoreOptions o;
    o.in_memory = true;
    store_ = std::move(Store::Open(o)).value();
  }

  void PutRaw(uint32_t table, const AttributeValue& pk, const AttributeValue& sk,
              std::string payload = "") {
    Item item;
    item["pk"] = pk;
    item["sk"] = sk;
    if (!payload.empty()) item["data"] = Str(std::move(payload));
    std::string value;
    EncodeItem(item, &value);
    WriteBatch b;
    b.Put(Cf::kItems, keys::ItemKey(table, pk, &sk), value);
    ASSERT_OK(store_->Write(&b));
  }

  // The sort keys of a page, rendered ("1.5", "a").
  static std::vector<std::string> SortKeys(const Page& page) {
    std::vector<std::string> out;
    for (const Item& item : page.items) {
      const AttributeValue& sk = item.at("sk");
      out.push_back(sk.type() == AttributeValue::N(Number()).type() ? sk.n().ToString() : sk.s());
    }
    return out;
  }

  Page Read(KeyRange range, bool forward = true, std::optional<int64_t> limit = std::nullopt,
            std::optional<std::string> start = std::nullopt) {
    PageRequest req;
    req.range = std::move(range);
    req.forward = forward;
    req.limit = limit;
    req.exclusive_start = std::move(start);
    auto page = ReadPage(*store_, req);
    EXPECT_TRUE(page.ok()) << page.status().ToString();
    return page.ok() ? std::move(page).value() : Page{};
  }

  std::unique_ptr<Store> store_;
};

TEST_F(QueryScanTest, NumericSortKeysComeBackInNumericOrderBothWays) {
  for (const char* n : {"10", "-1.5", "0", "2", "-100", "0.25", "1E-5", "-0.001"}) {
    PutRaw(kTable, Str("p"), Num(n));
  }
  PutRaw(kTable, Str("other"), Num("5"));
  const KeyRange all = QueryRange(kTable, Str("p"), nullptr);
  EXPECT_THAT(SortKeys(Read(all)),
              ::testing::ElementsAre("-100", "-1.5", "-0.001", "0", "0.00001", "0.25", "2", "10"));
  EXPECT_THAT(SortKeys(Read(all, /*forward=*/false)),
              ::testing::ElementsAre("10", "2", "0.25", "0.00001", "0", "-0.001", "-1.5", "-100"));
}

TEST_F(QueryScanTest, EverySortKeyOperatorSelectsItsRange) {
  for (const char* n : {"1", "2", "3", "4", "5"}) PutRaw(kTable, Str("p"), Num(n));
  struct Case {
    KeyOp op;
    std::vector<const char*> values;
    std::vector<std::string> want;
  };
  const Case cases[] = {
      {KeyOp::kEq, {"3"}, {"3"}},
      {KeyOp::kEq, {"3.5"}, {}},
      {KeyOp::kLt, {"3"}, {"1", "2"}},
      {KeyOp::kLe, {"3"}, {"1", "2", "3"}},
      {KeyOp::kGt, {"3"}, {"4", "5"}},
      {KeyOp::kGe, {"3"}, {"3", "4", "5"}},
      {KeyOp::kBetween, {"2", "4"}, {"2", "3", "4"}},
      {KeyOp::kBetween, {"2.5", "2.6"}, {}},
      {KeyOp::kGe, {"-7"}, {"1", "2", "3", "4", "5"}},
  };
  for (const Case& c : cases) {
    KeyConditionTerm term;
    term.attribute = "sk";
    term.op = c.op;
    for (const char* v : c.values) term.values.push_back(Num(v));
    EXPECT_EQ(SortKeys(Read(QueryRange(kTable, Str("p"), &term))), c.want)
        << expr::KeyOpName(c.op) << " " << c.values[0];
  }
}

TEST_F(QueryScanTest, BeginsWithOnStringsAndBinariesWithEdgeBytes) {
  for (std::string s : {std::string("ORDER#1"), std::string("ORDER#2"), std::string("ORDERS"),
                        std::string("ORD"), std::string("ORDER#\xff\xff", 8), std::string("ORDER"),
                        std::string("ORDER#\0x", 8), std::string("P")}) {
    PutRaw(kTable, Str("p"), Str(s));
  }
  KeyConditionTerm term{"sk", KeyOp::kBeginsWith, {Str("ORDER#")}};
  EXPECT_THAT(SortKeys(Read(QueryRange(kTable, Str("p"), &term))),
              ::testing::ElementsAre(std::string("ORDER#\0x", 8), "ORDER#1", "ORDER#2",
                                     std::string("ORDER#\xff\xff", 8)));
  KeyConditionTerm ff{"sk", KeyOp::kBeginsWith, {Str("ORDER#\xff")}};
  EXPECT_EQ(Read(QueryRange(kTable, Str("p"), &ff)).items.size(), 1u);

  // Binary sort keys compare as unsigned bytes.
  for (std::string b : {std::string("\x01\x02", 2), std::string("\x01\xff", 2),
                        std::string("\x01", 1), std::string("\x02", 1)}) {
    PutRaw(kTable, Str("bin"), AttributeValue::B(b));
  }
  KeyConditionTerm bt{"sk", KeyOp::kBeginsWith, {AttributeValue::B(std::string("\x01", 1))}};
  EXPECT_EQ(Read(QueryRange(kTable, Str("bin"), &bt)).items.size(), 3u);
}

TEST_F(QueryScanTest, LimitStopsWithLastEvaluatedKeyEvenOnTheLastItem) {
  for (const char* n : {"1", "2", "3"}) PutRaw(kTable, Str("p"), Num(n));
  const KeyRange all = QueryRange(kTable, Str("p"), nullptr);
  Page two = Read(all, true, 2);
  EXPECT_THAT(SortKeys(two), ::testing::ElementsAre("1", "2"));
  ASSERT_TRUE(two.last_evaluated_storage_key.has_value());
  Page rest = Read(all, true, 2, two.last_evaluated_storage_key);
  EXPECT_THAT(SortKeys(rest), ::testing::ElementsAre("3"));
  EXPECT_FALSE(rest.last_evaluated_storage_key.has_value());
  Page exact = Read(all, true, 3);
  EXPECT_EQ(exact.items.size(), 3u);
  ASSERT_TRUE(exact.last_evaluated_storage_key.has_value());
  EXPECT_EQ(exact.last_evaluated_item->at("sk"), Num("3"));
  EXPECT_TRUE(Read(all, true, 3, exact.last_evaluated_storage_key).items.empty());
}

TEST_F(QueryScanTest, ReversePagesResumeBeforeTheStartKey) {
  for (const char* n : {"1", "2", "3", "4", "5"}) PutRaw(kTable, Str("p"), Num(n));
  const KeyRange all = QueryRange(kTable, Str("p"), nullptr);
  std::vector<std::string> seen;
  std::optional<std::string> start;
  int pages = 0;
  do {
    Page page = Read(all, false, 2, start);
    for (auto& s : SortKeys(page)) seen.push_back(s);
    start = page.last_evaluated_storage_key;
    ++pages;
  } while (start && pages < 10);
  EXPECT_THAT(seen, ::testing::ElementsAre("5", "4", "3", "2", "1"));
  EXPECT_EQ(pages, 3);
}

TEST_F(QueryScanTest, PageStopsAtOneMegabyteOfItemsRead) {
  // Each item is exactly 1/8 MB by DynamoDB's size rules.
  const int64_t eighth = kMaxPageBytes / 8;
  for (int i = 0; i < 10; ++i) {
    Item probe;
    probe["pk"] = Str("p");
    probe["sk"] = Num(std::to_string(i).c_str());
    probe["data"] = Str("");
    const int64_t overhead = ItemSize(probe);
    PutRaw(kTable, Str("p"), Num(std::to_string(i).c_str()), std::string(eighth - overhead, 'x'));
  }
  Page page = Read(QueryRange(kTable, Str("p"), nullptr));
  EXPECT_EQ(page.scanned_count, 8);
  EXPECT_EQ(page.read_bytes, kMaxPageBytes);
  ASSERT_TRUE(page.last_evaluated_item.has_value());
  EXPECT_EQ(page.last_evaluated_item->at("sk"), Num("7"));
}

TEST_F(QueryScanTest, FilterDropsItemsButTheyStillCountAsRead) {
  for (const char* n : {"1", "2", "3", "4"}) PutRaw(kTable, Str("p"), Num(n));
  auto parsed = expr::ParseCondition("sk > :two", expr::ExpressionKind::kFilter);
  ASSERT_OK(parsed.status());
  expr::ValueMap values{{":two", Num("2")}};
  expr::Resolver resolver(nullptr, &values);
  ASSERT_OK_AND_ASSIGN(auto filter, resolver.Resolve(*parsed));
  PageRequest req;
  req.range = QueryRange(kTable, Str("p"), nullptr);
  req.limit = 3;
  req.filter = &filter;
  ASSERT_OK_AND_ASSIGN(Page page, ReadPage(*store_, req));
  EXPECT_THAT(SortKeys(page), ::testing::ElementsAre("3"));
  EXPECT_EQ(page.scanned_count, 3);
  ASSERT_TRUE(page.last_evaluated_item.has_value());
  EXPECT_EQ(page.last_evaluated_item->at("sk"), Num("3"));
}

TEST_F(QueryScanTest, ScanSegmentsAreDisjointAndCoverTheTable) {
  std::set<std::string> all;
  for (int i = 0; i < 200; ++i) {
    PutRaw(kTable, Str("pk" + std::to_string(i)), Num("1"));
    all.insert("pk" + std::to_string(i));
  }
  PutRaw(kTable + 1, Str("other-table"), Num("1"));
  for (int64_t total : {1, 3, 7, 1000}) {
    std::set<std::string> seen;
    size_t count = 0;
    for (int64_t s = 0; s < total; ++s) {
      for (const Item& item : Read(SegmentRange(kTable, s, total)).items) {
        seen.insert(item.at("pk").s());
        ++count;
      }
    }
    EXPECT_EQ(seen, all) << total;
    EXPECT_EQ(count, all.size()) << total;
  }
}

}  // namespace
}  // namespace dynarock
