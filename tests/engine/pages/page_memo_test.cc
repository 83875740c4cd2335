// tests/engine/pages/page_memo_test.cc
//
// PageMemo: a remembered count_only page comes back for the same request at
// the same write generation, and for nothing else.

#include "engine/pages/page_memo.h"

#include <gtest/gtest.h>

#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

constexpr uint32_t kTable = 7;

AttributeValue Str(std::string s) { return AttributeValue::S(std::move(s)); }

class PageMemoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StoreOptions o;
    o.in_memory = true;
    store_ = std::move(Store::Open(o)).value();
    for (int i = 0; i < 10; ++i) {
      Item item;
      item["pk"] = Str("p");
      item["sk"] = Str("s" + std::to_string(i));
      std::string value;
      EncodeItem(item, &value);
      WriteBatch b;
      b.Put(Cf::kItems, keys::ItemKey(kTable, item["pk"], &item["sk"]), value);
      ASSERT_OK(store_->Write(&b));
    }
  }

  PageRequest Request(std::optional<int64_t> limit = 4) const {
    PageRequest r;
    r.range = QueryRange(kTable, Str("p"), nullptr);
    r.limit = limit;
    r.count_only = true;
    return r;
  }

  Page Read(const PageRequest& r) const {
    Result<Page> page = ReadPage(*store_, r);
    EXPECT_TRUE(page.ok());
    return page.ok() ? std::move(page).value() : Page{};
  }

  std::unique_ptr<Store> store_;
};

TEST_F(PageMemoTest, ACountOnlyPageKeepsNoItemButEverythingElse) {
  PageRequest counted = Request();
  PageRequest read = counted;
  read.count_only = false;
  const Page a = Read(counted);
  const Page b = Read(read);
  EXPECT_TRUE(a.items.empty() && a.encoded_items.empty());
  EXPECT_EQ(b.items.size(), 4u);
  EXPECT_EQ(a.scanned_count, b.scanned_count);
  EXPECT_EQ(a.read_bytes, b.read_bytes);
  EXPECT_EQ(a.runs.size(), b.runs.size());
  EXPECT_EQ(a.last_evaluated_storage_key, b.last_evaluated_storage_key);
  EXPECT_EQ(a.last_evaluated_item, b.last_evaluated_item);
}

TEST_F(PageMemoTest, RemembersAPageUntilTheStoreChanges) {
  PageMemo memo;
  const PageRequest r = Request();
  const uint64_t g = store_->WriteGeneration();
  EXPECT_FALSE(memo.Find(r, g));
  const Page page = Read(r);
  memo.Remember(r, g, page);
  std::optional<Page> again = memo.Find(r, g);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->scanned_count, 4);
  EXPECT_EQ(again->read_bytes, page.read_bytes);
  EXPECT_EQ(again->last_evaluated_storage_key, page.last_evaluated_storage_key);
  EXPECT_EQ(memo.hits(), 1);

  // Another limit, another start, another direction: other pages.
  EXPECT_FALSE(memo.Find(Request(5), g));
  PageRequest resumed = r;
  resumed.exclusive_start = page.last_evaluated_storage_key;
  EXPECT_FALSE(memo.Find(resumed, g));
  PageRequest backward = r;
  backward.forward = false;
  EXPECT_FALSE(memo.Find(backward, g));

  // A write anywhere moves the generation: forgotten.
  WriteBatch b;
  b.Put(Cf::kMeta, "unrelated", "x");
  ASSERT_OK(store_->Write(&b));
  const uint64_t later = store_->WriteGeneration();
  EXPECT_GT(later, g);
  EXPECT_FALSE(memo.Find(r, later));
  // ... and what was read before the write is not remembered after it.
  memo.Remember(r, g, page);
  EXPECT_FALSE(memo.Find(r, later));
  EXPECT_FALSE(memo.Find(r, g));
  EXPECT_EQ(memo.hits(), 1);
}

TEST_F(PageMemoTest, StartsOverPastItsSize) {
  // Pages whose last item is 1 MB: the memo keeps a few, then starts over.
  PageMemo memo;
  const uint64_t g = store_->WriteGeneration();
  Page big;
  Item last;
  last["pk"] = Str(std::string(1 << 20, 'x'));
  big.last_evaluated_item = last;
  const int pages = static_cast<int>(PageMemo::kMaxBytes >> 20);
  for (int i = 1; i <= pages; ++i) memo.Remember(Request(i), g, big);
  int kept = 0;
  for (int i = 1; i <= pages; ++i) kept += memo.Find(Request(i), g) ? 1 : 0;
  EXPECT_GT(kept, 0);
  EXPECT_LT(kept, pages);
}

}  // namespace
}  // namespace dynarock
