// bench/engine/expr/expr_bench.cc
//
// ns/op of the expression engine on a typical condition and a typical
// update: parse, resolve, evaluate/apply, and the three together as one
// request pays them (without a parse cache). Also a projection.

#include <benchmark/benchmark.h>

#include <string>
#include <string_view>

#include "engine/expr/evaluate.h"
#include "engine/expr/parser.h"
#include "engine/expr/resolve.h"
#include "engine/types.h"
#include "engine/value/number.h"

namespace dynarock::expr {
namespace {

constexpr std::string_view kCondition =
    "attribute_exists(#pk) AND #status = :active AND #count < :max AND "
    "(begins_with(sk, :prefix) OR size(tags) > :zero)";

constexpr std::string_view kUpdate =
    "SET #count = if_not_exists(#count, :zero) + :one, updatedAt = :now, "
    "tags = list_append(tags, :tag) REMOVE draft ADD visits :one";

constexpr std::string_view kProjection = "#pk, sk, #status, profile.email, tags[0]";

Number Num(std::string_view text) { return Number::Parse(text).value(); }

const NameMap& Names() {
  static const NameMap* names = new NameMap{
      {"#pk", "pk"}, {"#status", "status"}, {"#count", "count"}};
  return *names;
}

const ValueMap& Values() {
  static const ValueMap* values = new ValueMap{
      {":active", AttributeValue::S("ACTIVE")},
      {":max", AttributeValue::N(Num("100"))},
      {":prefix", AttributeValue::S("ORDER#")},
      {":zero", AttributeValue::N(Num("0"))},
      {":one", AttributeValue::N(Num("1"))},
      {":now", AttributeValue::S("2024-05-01T12:00:00Z")},
      {":tag", AttributeValue::L({AttributeValue::S("new")})},
  };
  return *values;
}

// A typical item of ten attributes.
const Item& TypicalItem() {
  static const Item* item = new Item{
      {"pk", AttributeValue::S("USER#12345")},
      {"sk", AttributeValue::S("ORDER#2024-05-01#0001")},
      {"status", AttributeValue::S("ACTIVE")},
      {"count", AttributeValue::N(Num("41"))},
      {"visits", AttributeValue::N(Num("7"))},
      {"total", AttributeValue::N(Num("129.95"))},
      {"draft", AttributeValue::Bool(false)},
      {"updatedAt", AttributeValue::S("2024-04-30T08:00:00Z")},
      {"tags", AttributeValue::L({AttributeValue::S("a"), AttributeValue::S("b")})},
      {"profile", AttributeValue::M({{"email", AttributeValue::S("u@example.com")},
                                     {"name", AttributeValue::S("User")}})},
  };
  return *item;
}

ConditionExpression ResolvedCondition() {
  Resolver resolver(&Names(), &Values());
  return resolver.Resolve(ParseCondition(kCondition).value()).value();
}

UpdateExpression ResolvedUpdate() {
  Resolver resolver(&Names(), &Values());
  return resolver.Resolve(ParseUpdate(kUpdate).value()).value();
}

void BM_ParseCondition(benchmark::State& state) {
  for (auto _ : state) {
    Result<ConditionExpression> c = ParseCondition(kCondition);
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_ParseCondition);

void BM_ResolveCondition(benchmark::State& state) {
  const ConditionExpression parsed = ParseCondition(kCondition).value();
  for (auto _ : state) {
    Resolver resolver(&Names(), &Values());
    Result<ConditionExpression> c = resolver.Resolve(parsed);
    benchmark::DoNotOptimize(c);
  }
}
BENCHMARK(BM_ResolveCondition);

void BM_EvaluateCondition(benchmark::State& state) {
  const ConditionExpression condition = ResolvedCondition();
  const Item& item = TypicalItem();
  for (auto _ : state) {
    bool b = EvaluateCondition(condition, &item);
    benchmark::DoNotOptimize(b);
  }
}
BENCHMARK(BM_EvaluateCondition);

void BM_ConditionRequest(benchmark::State& state) {
  const Item& item = TypicalItem();
  for (auto _ : state) {
    Resolver resolver(&Names(), &Values());
    ConditionExpression c =
        resolver.Resolve(ParseCondition(kCondition).value()).value();
    bool b = EvaluateCondition(c, &item);
    benchmark::DoNotOptimize(b);
  }
}
BENCHMARK(BM_ConditionRequest);

void BM_ParseUpdate(benchmark::State& state) {
  for (auto _ : state) {
    Result<UpdateExpression> u = ParseUpdate(kUpdate);
    benchmark::DoNotOptimize(u);
  }
}
BENCHMARK(BM_ParseUpdate);

void BM_ResolveUpdate(benchmark::State& state) {
  const UpdateExpression parsed = ParseUpdate(kUpdate).value();
  for (auto _ : state) {
    Resolver resolver(&Names(), &Values());
    Result<UpdateExpression> u = resolver.Resolve(parsed);
    benchmark::DoNotOptimize(u);
  }
}
BENCHMARK(BM_ResolveUpdate);

void BM_ApplyUpdate(benchmark::State& state) {
  const UpdateExpression update = ResolvedUpdate();
  const Item& item = TypicalItem();
  for (auto _ : state) {
    Result<Item> out = ApplyUpdate(update, item);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_ApplyUpdate);

void BM_UpdateRequest(benchmark::State& state) {
  const Item& item = TypicalItem();
  for (auto _ : state) {
    Resolver resolver(&Names(), &Values());
    UpdateExpression u = resolver.Resolve(ParseUpdate(kUpdate).value()).value();
    ConditionExpression c =
        resolver.Resolve(ParseCondition(kCondition).value()).value();
    bool ok = resolver.CheckAllUsed().ok() && EvaluateCondition(c, &item);
    Result<Item> out = ApplyUpdate(u, item);
    benchmark::DoNotOptimize(ok);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_UpdateRequest);

void BM_ProjectItem(benchmark::State& state) {
  Resolver resolver(&Names(), nullptr);
  const ProjectionExpression projection =
      resolver.Resolve(ParseProjection(kProjection).value()).value();
  const Item& item = TypicalItem();
  for (auto _ : state) {
    Item out = ProjectItem(item, projection);
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_ProjectItem);

}  // namespace
}  // namespace dynarock::expr

BENCHMARK_MAIN();
