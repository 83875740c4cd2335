// SortedRuns (engine/transfer/sorted_runs.cc): keys come out once each, in
// order, with the value added last, whether they stayed in memory or went
// through many run files; the runs' directory is gone afterwards.
#include "engine/transfer/sorted_runs.h"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

std::unique_ptr<Store> OpenMem() {
  StoreOptions o;
  o.in_memory = true;
  auto s = Store::Open(o);
  EXPECT_OK(s.status());
  return std::move(s).value();
}

// Adds `n` pairs of random keys (many repeated), and checks Merge against a
// std::map that kept the last value of each key.
void AddAndMerge(Store* store, size_t budget, int n, size_t* runs, size_t* files = nullptr) {
  const std::string dir = store->path() + "/runs";
  std::map<std::string, std::string> want;
  {
    SortedRuns sorted(store, dir, budget);
    std::mt19937 rng(45);
    for (int i = 0; i < n; ++i) {
      // About n / 4 distinct keys, each added four times on average, with
      // bytes above 0x7f (an unsigned order).
      const uint32_t k = rng() % static_cast<uint32_t>(n / 4);
      std::string key = "k" + std::to_string(k);
      key.push_back(static_cast<char>(k % 256));
      const std::string value = "v" + std::to_string(i) + std::string(100, 'x');
      ASSERT_OK(sorted.Add(key, value));
      want[key] = value;
    }
    *runs = sorted.runs();
    if (files != nullptr) *files = sorted.files();
    std::vector<std::pair<std::string, std::string>> got;
    ASSERT_OK(sorted.Merge([&](std::string_view key, std::string_view value) {
      got.emplace_back(std::string(key), std::string(value));
      return Status::OK();
    }));
    ASSERT_EQ(got.size(), want.size());
    size_t i = 0;
    for (const auto& [key, value] : want) {  // std::map: the same unsigned byte order
      ASSERT_EQ(got[i].first, key) << i;
      EXPECT_EQ(got[i].second, value) << key;
      ++i;
    }
  }
  EXPECT_TRUE(store->ListDir(dir).empty());
}

TEST(SortedRunsTest, InMemoryUnderTheBudgetWithoutAFile) {
  auto store = OpenMem();
  size_t runs = 0;
  AddAndMerge(store.get(), size_t{64} << 20, 4000, &runs);
  EXPECT_EQ(runs, 0u);
}

TEST(SortedRunsTest, ManyRunsMergeInOrderAndTheLastValueWins) {
  auto store = OpenMem();
  size_t runs = 0, files = 0;
  // 20,000 pairs of about 210 bytes against a 64 KiB budget: ~60 runs, and
  // most keys in several of them; every 16 runs of a level were merged into
  // one of the next (the files a merge opens stay few).
  AddAndMerge(store.get(), size_t{64} << 10, 20000, &runs, &files);
  EXPECT_GT(runs, 32u);
  EXPECT_LE(files, 30u);  // at most 15 a level, two levels
  EXPECT_LT(files, runs / 2);
}

TEST(SortedRunsTest, AVisitorErrorStopsTheMerge) {
  auto store = OpenMem();
  SortedRuns sorted(store.get(), store->path() + "/runs", 1024);
  for (int i = 0; i < 100; ++i) ASSERT_OK(sorted.Add("k" + std::to_string(i), "v"));
  ASSERT_GT(sorted.runs(), 1u);
  int seen = 0;
  Status s = sorted.Merge([&](std::string_view, std::string_view) {
    return ++seen == 3 ? Status::Validation("stop") : Status::OK();
  });
  EXPECT_EQ(s.code(), ErrorCode::kValidation);
  EXPECT_EQ(seen, 3);
}

}  // namespace
}  // namespace dynarock
