#include "engine/partiql/expression_writer.h"

#include <gtest/gtest.h>

#include <string>

namespace dynarock::partiql {
namespace {

TEST(ExpressionWriterTest, NamesAreSharedAndValuesNumberedInOrder) {
  ExpressionWriter w;
  EXPECT_FALSE(w.names().has_value());
  EXPECT_FALSE(w.values().has_value());
  EXPECT_EQ(w.Name("a"), "#n0");
  EXPECT_EQ(w.Name("b"), "#n1");
  EXPECT_EQ(w.Name("a"), "#n0");
  EXPECT_EQ(w.Value(AttributeValue::S("x")), ":v0");
  EXPECT_EQ(w.Value(AttributeValue::S("x")), ":v1");
  ASSERT_TRUE(w.names().has_value());
  EXPECT_EQ(w.names()->at("#n1"), "b");
  EXPECT_EQ(w.values()->at(":v1"), AttributeValue::S("x"));
}

TEST(ExpressionWriterTest, PathsAndProjections) {
  ExpressionWriter w;
  const Path path = {{"a", std::nullopt}, {"", 2}, {"b", std::nullopt}};
  EXPECT_EQ(w.PathText(path), "#n0[2].#n1");
  Statement select;
  EXPECT_FALSE(w.ProjectionText(select).has_value());  // SELECT *
  select.projection = {path, {{"c", std::nullopt}}};
  EXPECT_EQ(w.ProjectionText(select), "#n0[2].#n1, #n2");
}

}  // namespace
}  // namespace dynarock::partiql
