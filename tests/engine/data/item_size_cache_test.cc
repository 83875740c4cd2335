#include "engine/data/item_size_cache.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace dynarock {
namespace {

using Known = ItemSizeCache::Known;

std::string KeyOf(int i) { return "item-" + std::to_string(i); }

TEST(ItemSizeCacheTest, FindsNothingItWasNotTold) {
  ItemSizeCache cache(1000);
  EXPECT_FALSE(cache.Find("a", 0).has_value());
  EXPECT_EQ(cache.size(), 0u);
}

TEST(ItemSizeCacheTest, RemembersTheLastStateOfEachItem) {
  ItemSizeCache cache(1000);
  cache.Remember("a", {true, 300}, 0);
  cache.Remember("b", {false, 0}, 0);
  EXPECT_EQ(cache.Find("a", 0), (Known{true, 300}));
  EXPECT_EQ(cache.Find("b", 0), (Known{false, 0}));
  cache.Remember("a", {false, 0}, 0);
  cache.Remember("b", {true, 4096}, 0);
  EXPECT_EQ(cache.Find("a", 0), (Known{false, 0}));
  EXPECT_EQ(cache.Find("b", 0), (Known{true, 4096}));
  EXPECT_FALSE(cache.Find("c", 0).has_value());
}

TEST(ItemSizeCacheTest, AnEntryFromBeforeABulkChangeIsNotAnswered) {
  ItemSizeCache cache(1000);
  cache.Remember("a", {true, 300}, 4);
  EXPECT_FALSE(cache.Find("a", 5).has_value());
  // Not even to a caller that read the generation before the change.
  EXPECT_FALSE(cache.Find("a", 4).has_value());
  cache.Remember("a", {true, 200}, 5);
  EXPECT_EQ(cache.Find("a", 5), (Known{true, 200}));
}

TEST(ItemSizeCacheTest, AStateReadBeforeABulkChangeIsNotRemembered) {
  ItemSizeCache cache(1000);
  // A reader tagged its read with generation 4; a bulk change moved it to 5
  // and another writer has seen that.
  EXPECT_FALSE(cache.Find("a", 5).has_value());
  cache.Remember("a", {true, 300}, 4);
  EXPECT_FALSE(cache.Find("a", 5).has_value());
}

TEST(ItemSizeCacheTest, ForgetDropsOnlyThatItem) {
  ItemSizeCache cache(100000);
  for (int i = 0; i < 2000; ++i) cache.Remember(KeyOf(i), {true, i + 1}, 0);
  cache.Forget(KeyOf(7));
  cache.Forget("never remembered");
  EXPECT_FALSE(cache.Find(KeyOf(7), 0).has_value());
  int found = 0;
  for (int i = 0; i < 2000; ++i) {
    if (i == 7) continue;
    std::optional<Known> k = cache.Find(KeyOf(i), 0);
    if (!k) continue;
    ++found;
    EXPECT_EQ(*k, (Known{true, i + 1})) << i;
  }
  EXPECT_EQ(found, 1999);
  // Remembered again after being forgotten.
  cache.Remember(KeyOf(7), {true, 9}, 0);
  EXPECT_EQ(cache.Find(KeyOf(7), 0), (Known{true, 9}));
}

TEST(ItemSizeCacheTest, EverythingRememberedWithinItsBoundIsAnswered) {
  ItemSizeCache cache(1 << 20);
  constexpr int kItems = 100000;
  for (int i = 0; i < kItems; ++i) cache.Remember(KeyOf(i), {i % 3 != 0, i}, 0);
  int found = 0;
  for (int i = 0; i < kItems; ++i) {
    std::optional<Known> k = cache.Find(KeyOf(i), 0);
    if (!k) continue;
    ++found;
    EXPECT_EQ(*k, (Known{i % 3 != 0, i % 3 != 0 ? i : 0})) << i;
  }
  // A slot more than 16 places from its home is dropped when a shard grows:
  // rare below three quarters full.
  EXPECT_GE(found, kItems * 999 / 1000);
  EXPECT_EQ(cache.size(), static_cast<size_t>(found));
}

TEST(ItemSizeCacheTest, StaysWithinItsBoundAndKeepsAnsweringTheNewest) {
  constexpr size_t kBound = 1000;
  ItemSizeCache cache(kBound);
  for (int i = 0; i < 50000; ++i) cache.Remember(KeyOf(i), {true, i}, 0);
  // 64 shards of 16 slots: the bound rounded up per shard.
  EXPECT_LE(cache.size(), 1024u);
  EXPECT_GE(cache.size(), 900u);
  // Whatever is answered is right, and the newest entries are mostly there.
  int newest_found = 0;
  for (int i = 0; i < 50000; ++i) {
    std::optional<Known> k = cache.Find(KeyOf(i), 0);
    if (!k) continue;
    EXPECT_EQ(*k, (Known{true, i}));
    if (i >= 49900) ++newest_found;
  }
  EXPECT_GE(newest_found, 80);
}

TEST(ItemSizeCacheTest, SizesBeyondAnItemsAreNotKept) {
  ItemSizeCache cache(1000);
  cache.Remember("a", {true, 300}, 0);
  cache.Remember("a", {true, int64_t{1} << 40}, 0);
  EXPECT_FALSE(cache.Find("a", 0).has_value());
}

TEST(ItemSizeCacheTest, ABoundOfZeroRemembersNothing) {
  ItemSizeCache cache(0);
  cache.Remember("a", {true, 300}, 0);
  EXPECT_FALSE(cache.Find("a", 0).has_value());
  EXPECT_EQ(cache.size(), 0u);
}

TEST(ItemSizeCacheTest, ConcurrentWritersOfDifferentItemsEachReadTheirOwn) {
  ItemSizeCache cache(1 << 16);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&cache, t] {
      for (int round = 0; round < 20; ++round) {
        for (int i = 0; i < 500; ++i) {
          const std::string key = KeyOf(t * 1000 + i);
          cache.Remember(key, {true, round * 1000 + i}, 0);
          std::optional<Known> k = cache.Find(key, 0);
          if (k) {
            EXPECT_EQ(*k, (Known{true, round * 1000 + i}));
          }
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_GT(cache.size(), 1900u);
}

}  // namespace
}  // namespace dynarock
