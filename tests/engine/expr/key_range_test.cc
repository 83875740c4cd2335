#include "engine/expr/key_range.h"

#include <gtest/gtest.h>

#include <string>

namespace dynarock::expr {
namespace {

KeyConditionTerm Term(KeyOp op, std::string a, std::string b = "") {
  KeyConditionTerm t;
  t.attribute = "sk";
  t.op = op;
  t.values.push_back(AttributeValue::S(std::move(a)));
  if (!b.empty()) t.values.push_back(AttributeValue::S(std::move(b)));
  return t;
}

std::string With(const std::string& prefix, const std::string& s) {
  std::string key = prefix;
  keys::AppendOrdered(AttributeValue::S(s), &key);
  return key;
}

const std::string kPrefix = "P";

TEST(KeyRangeTest, NoTermIsThePrefix) {
  KeyRange r = SortKeyRange(kPrefix, nullptr, AfterSortKey::kNothing);
  EXPECT_EQ(r.lower, kPrefix);
  EXPECT_EQ(r.upper, PrefixSuccessor(kPrefix));
}

TEST(KeyRangeTest, InclusiveBoundsCoverWhatFollowsTheSortKey) {
  const KeyConditionTerm eq = Term(KeyOp::kEq, "a");
  KeyRange base = SortKeyRange(kPrefix, &eq, AfterSortKey::kNothing);
  KeyRange index = SortKeyRange(kPrefix, &eq, AfterSortKey::kTableKey);
  EXPECT_EQ(base.lower, With(kPrefix, "a"));
  EXPECT_EQ(index.lower, With(kPrefix, "a"));
  // The base key itself only; the index entries of every table key.
  EXPECT_EQ(base.upper, With(kPrefix, "a") + std::string(1, '\0'));
  EXPECT_EQ(index.upper, PrefixSuccessor(With(kPrefix, "a")));
  const KeyConditionTerm lt = Term(KeyOp::kLt, "m");
  EXPECT_EQ(SortKeyRange(kPrefix, &lt, AfterSortKey::kTableKey).upper, With(kPrefix, "m"));
}

TEST(KeyRangeTest, BetweenAndBeginsWith) {
  const KeyConditionTerm between = Term(KeyOp::kBetween, "b", "d");
  KeyRange r = SortKeyRange(kPrefix, &between, AfterSortKey::kNothing);
  EXPECT_EQ(r.lower, With(kPrefix, "b"));
  EXPECT_EQ(r.upper, With(kPrefix, "d") + std::string(1, '\0'));
  const KeyConditionTerm begins = Term(KeyOp::kBeginsWith, "ab");
  r = SortKeyRange(kPrefix, &begins, AfterSortKey::kNothing);
  EXPECT_LT(r.lower, With(kPrefix, "ab"));
  EXPECT_LT(With(kPrefix, "abz"), r.upper);
  EXPECT_LT(r.upper, With(kPrefix, "ac"));
}

}  // namespace
}  // namespace dynarock::expr
