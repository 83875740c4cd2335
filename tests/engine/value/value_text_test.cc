#include "engine/value/value_text.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/types.h"

namespace dynarock {
namespace {

using AV = AttributeValue;

TEST(ValueTextTest, ScalarsAsDynamoDbPrintsThemInMessages) {
  EXPECT_EQ(ValueForMessage(AV::S("dog")), "{S:dog}");
  EXPECT_EQ(ValueForMessage(AV::N(Number::Parse("5").value())), "{N:5}");
  EXPECT_EQ(ValueForMessage(AV::B("foo")), "{B:Zm9v}");
  EXPECT_EQ(ValueForMessage(AV::Bool(false)), "{BOOL:false}");
  EXPECT_EQ(ValueForMessage(AV::Null()), "{NULL:true}");
  // Messages never spell out a container.
  EXPECT_EQ(ValueForMessage(AV::L({AV::S("x")})), "{L:...}");
}

TEST(ValueTextTest, ContainersElementByElement) {
  AV::Map m;
  m.emplace("k", AV::L({AV::S("a"), AV::Bool(true)}));
  EXPECT_EQ(RenderValue(AV::M(m)), "{M:{k:{L:[{S:a}, {BOOL:true}]}}}");
  EXPECT_EQ(RenderValue(AV::SS({"a", "b"})), "{SS:[a, b]}");
  EXPECT_EQ(RenderValue(AV::BS({"f"})), "{BS:[Zg==]}");
}

TEST(ValueTextTest, ItemsInNameOrder) {
  Item item;
  item.emplace("b", AV::S("2"));
  item.emplace("a", AV::S("1"));
  EXPECT_EQ(RenderItem(item), "{a:{S:1}, b:{S:2}}");
  EXPECT_EQ(RenderItem(Item()), "{}");
}

}  // namespace
}  // namespace dynarock
