// tests/fuzz/partiql_parser_fuzz.cc
//
// libFuzzer target for the PartiQL parser and planner. Each input is a
// statement; every `?` in it gets a parameter of a varied type, so inputs
// reach the grammar past the parameter-count check. Whatever parses is
// planned against a fixed table (pk, sk) and index (g, gs), and every
// expression the plan carries is parsed by the expression parser it is
// meant for. Any crash or sanitizer report is a finding; so is deep input
// exhausting the stack (the parser bounds its nesting).
//
// Build: clang, -DDYNAROCK_BUILD_FUZZERS=ON (see tests/fuzz/CMakeLists.txt).
// Run:   ./partiql_parser_fuzz -max_total_time=60 corpus_dir \
//            ../tests/fuzz/corpus/partiql_parser

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/expr/parser.h"
#include "engine/partiql/statement_parser.h"
#include "engine/partiql/statement_planner.h"
#include "engine/types.h"
#include "engine/value/number.h"

namespace {

using dynarock::AttributeValue;
using dynarock::KeyDef;
using dynarock::Number;
using dynarock::Result;
namespace expr = dynarock::expr;
namespace partiql = dynarock::partiql;

AttributeValue ParameterFor(size_t i) {
  switch (i % 6) {
    case 0: return AttributeValue::S("p");
    case 1: return AttributeValue::N(Number::Parse("7").value());
    case 2: return AttributeValue::Bool(true);
    case 3: return AttributeValue::B(std::string("\x01\x02", 2));
    case 4: return AttributeValue::L({AttributeValue::S("x"), AttributeValue::Null()});
    default: return AttributeValue::SS({"a", "b"});
  }
}

Result<KeyDef> Keys(std::string_view table, std::optional<std::string_view> index) {
  KeyDef k;
  if (index) {
    k.hash_name = "g";
    k.range_name = "gs";
  } else {
    k.hash_name = "pk";
    if (table != "h") k.range_name = "sk";
  }
  return k;
}

void ParseCondition(const std::optional<std::string>& text) {
  if (text) (void)expr::ParseCondition(*text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 8192) return 0;  // ExecuteStatement's Statement limit
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<AttributeValue> parameters;
  for (char c : text) {
    if (c == '?') parameters.push_back(ParameterFor(parameters.size()));
  }
  Result<partiql::Statement> statement = partiql::Parse(text, parameters);
  if (!statement.ok()) return 0;
  Result<partiql::Plan> plan =
      partiql::PlanStatement(*statement, Keys, partiql::PlanOptions{});
  if (!plan.ok()) return 0;
  ParseCondition(plan->query.key_condition_expression);
  ParseCondition(plan->query.read.filter_expression);
  ParseCondition(plan->scan.read.filter_expression);
  ParseCondition(plan->put.condition.condition_expression);
  ParseCondition(plan->update.condition.condition_expression);
  ParseCondition(plan->del.condition.condition_expression);
  ParseCondition(plan->check.condition_expression);
  if (plan->update.update_expression) (void)expr::ParseUpdate(*plan->update.update_expression);
  for (const std::optional<std::string>* p :
       {&plan->get.projection_expression, &plan->query.read.projection_expression,
        &plan->scan.read.projection_expression}) {
    if (*p) (void)expr::ParseProjection(**p);
  }
  if (!plan->is_read()) (void)partiql::ToTransactWrite(*plan);
  return 0;
}
