#include "engine/expr/reserved_words.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace dynarock::expr {
namespace {

TEST(ReservedWordsTest, TheFullListOf573WordsSortedAndUpperCase) {
  std::span<const std::string_view> words = ReservedWords();
  EXPECT_EQ(573u, words.size());
  EXPECT_TRUE(std::is_sorted(words.begin(), words.end()));
  EXPECT_EQ(words.end(), std::adjacent_find(words.begin(), words.end()));
  for (std::string_view w : words) {
    for (char c : w) EXPECT_TRUE(c >= 'A' && c <= 'Z') << w;
    EXPECT_TRUE(IsReservedWord(w)) << w;
  }
  EXPECT_EQ("ABORT", words.front());
  EXPECT_EQ("ZONE", words.back());
}

TEST(ReservedWordsTest, LookupIsCaseInsensitive) {
  for (std::string_view w : {"name", "NAME", "Name", "nAmE", "status", "size",
                             "count", "Year", "value", "set", "and", "ttl",
                             "flattern", "innter", "loged"}) {
    EXPECT_TRUE(IsReservedWord(w)) << w;
  }
}

TEST(ReservedWordsTest, OrdinaryNamesAreNotReserved) {
  for (std::string_view w :
       {"", "a", "p", "c", "pk", "sk", "names2", "nam", "id", "email",
        "attribute_exists", "size_", "ABORTS", "ZONES", "localtimestamps",
        "averylongattributenamethatisnotreserved"}) {
    EXPECT_FALSE(IsReservedWord(w)) << w;
  }
}

}  // namespace
}  // namespace dynarock::expr
