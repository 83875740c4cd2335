#include "engine/expr/render.h"

#include <gtest/gtest.h>

#include <string>

#include "engine/expr/parser.h"
#include "engine/expr/resolve.h"
#include "tests/engine/expr/expr_test_util.h"

namespace dynarock::expr {
namespace {

using namespace testing;  // NOLINT: value builders

TEST(RenderTest, TheExamplesOfTheHeader) {
  EXPECT_EQ("SET a = (a + :v)", Render(ParseUpdate("SET a = a + :v").value()));
  EXPECT_EQ("(a < b OR ((NOT c = :v) AND begins_with(d, :p)))",
            Render(ParseCondition("a<b or not c=:v and begins_with(d,:p)")
                       .value()));
}

TEST(RenderTest, HandBuiltTrees) {
  Path path;
  path.elements = {PathElement::Name("a"), PathElement::Index(3),
                   PathElement::Placeholder("#b"), PathElement::Index(0)};
  EXPECT_EQ("a[3].#b[0]", Render(path));

  Operand call = Operand::MakeCall(
      "begins_with", {Operand::MakePath(path), Operand::MakeValue(":p")});
  EXPECT_EQ("begins_with(a[3].#b[0], :p)", Render(call));

  Condition cmp;
  cmp.kind = Condition::Kind::kCompare;
  cmp.op = CompareOp::kGe;
  cmp.operands = {Operand::MakeValue(":x"), Operand::MakeCall("size", {})};
  EXPECT_EQ(":x >= size()", Render(cmp));

  Condition fn;
  fn.kind = Condition::Kind::kFunction;
  fn.operands = {call};
  Condition neg;
  neg.kind = Condition::Kind::kNot;
  neg.children = {fn};
  Condition both;
  both.kind = Condition::Kind::kOr;
  both.children = {cmp, neg};
  EXPECT_EQ("(:x >= size() OR (NOT begins_with(a[3].#b[0], :p)))",
            Render(both));

  Operand sum = Operand::MakeArithmetic(Operand::Kind::kMinus,
                                        Operand::MakeValue(":a"),
                                        Operand::MakePath(path));
  EXPECT_EQ("(:a - a[3].#b[0])", Render(sum));
}

TEST(RenderTest, UpdateClausesInTheirOrder) {
  EXPECT_EQ("DELETE s :t, u :w ADD n :one REMOVE x, y[1] SET a = :v, b = c",
            Render(ParseUpdate("delete s :t,u :w add n :one "
                               "remove x,y[1] set a=:v,b=c")
                       .value()));
}

TEST(RenderTest, ProjectionsAndPlaceholders) {
  EXPECT_EQ("#a.b[2], c", Render(ParseProjection(" #a . b [ 2 ] ,c").value()));
}

TEST(RenderTest, ResolvedTreesShowNamesAndValues) {
  NameMap names = {{"#a", "weird.name"}, {"#k", "key"}};
  ValueMap values = {{":v", N("1.50")}, {":l", L({S("x"), Null()})}};
  Resolver resolver(&names, &values);
  ConditionExpression c =
      resolver.Resolve(ParseCondition("#a IN (:v, :l) AND #k.x = :v").value())
          .value();
  EXPECT_EQ("(weird.name IN ({N:1.5}, {L:[{S:x}, {NULL:true}]}) AND key.x = "
            "{N:1.5})",
            RenderResolved(c));
  EXPECT_EQ("(#a IN (:v, :l) AND #k.x = :v)", Render(c));
}

TEST(RenderTest, ValuesOfEveryType) {
  EXPECT_EQ("{S:hi}", RenderValue(S("hi")));
  EXPECT_EQ("{S:}", RenderValue(S("")));
  EXPECT_EQ("{N:-0.001}", RenderValue(N("-1E-3")));
  EXPECT_EQ("{N:100}", RenderValue(N("1E2")));
  EXPECT_EQ("{B:}", RenderValue(B("")));
  EXPECT_EQ("{B:Zg==}", RenderValue(B("f")));
  EXPECT_EQ("{B:Zm8=}", RenderValue(B("fo")));
  EXPECT_EQ("{B:Zm9v}", RenderValue(B("foo")));
  EXPECT_EQ("{B:Zm9vYg==}", RenderValue(B("foob")));
  EXPECT_EQ("{BOOL:true}", RenderValue(Bool(true)));
  EXPECT_EQ("{BOOL:false}", RenderValue(Bool(false)));
  EXPECT_EQ("{NULL:true}", RenderValue(Null()));
  EXPECT_EQ("{L:[]}", RenderValue(L({})));
  EXPECT_EQ("{L:[{N:1}, {L:[{S:a}]}]}", RenderValue(L({N("1"), L({S("a")})})));
  EXPECT_EQ("{M:{}}", RenderValue(M({})));
  EXPECT_EQ("{M:{a:{N:1}, b:{M:{c:{BOOL:false}}}}}",
            RenderValue(M({{"b", M({{"c", Bool(false)}})}, {"a", N("1")}})));
  EXPECT_EQ("{SS:[b, a]}", RenderValue(SS({"b", "a"})));
  EXPECT_EQ("{NS:[2, 1.5]}", RenderValue(NS({"2", "1.50"})));
  EXPECT_EQ("{BS:[Zm9v, YQ==]}", RenderValue(BS({"foo", "a"})));
}

TEST(RenderTest, Items) {
  EXPECT_EQ("{}", RenderItem(Item{}));
  EXPECT_EQ("{a:{N:1}, b:{S:x}}", RenderItem(Item{{"b", S("x")}, {"a", N("1")}}));
}

}  // namespace
}  // namespace dynarock::expr
