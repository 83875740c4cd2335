#include "engine/vector/vector_search.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>
#include <vector>

#include "engine/expr/evaluate.h"
#include "engine/expr/parser.h"
#include "engine/expr/resolve.h"
#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"
#include "engine/vector/vector_entry.h"
#include "engine/vector/vector_index_rules.h"

namespace dynarock::vector {
namespace {

using Equalities = std::vector<std::pair<std::string, AttributeValue>>;

Status InvalidComparator() {
  // Documented (Troubleshooting vector indexes).
  return Status::Validation("Invalid comparator used in SearchConditionExpression");
}

// `root` as equalities of search-schema attributes: only `path = :value`
// (either side) joined by AND. Walked with an explicit stack: the parser
// bounds the depth, and no recursion follows the client's nesting.
Result<Equalities> EqualitiesOf(const expr::Condition& root, const VectorIndexDef& def) {
  Equalities out;
  std::vector<const expr::Condition*> stack = {&root};
  while (!stack.empty()) {
    const expr::Condition* c = stack.back();
    stack.pop_back();
    if (c->kind == expr::Condition::Kind::kAnd) {
      for (const expr::Condition& child : c->children) stack.push_back(&child);
      continue;
    }
    if (c->kind != expr::Condition::Kind::kCompare || c->op != expr::CompareOp::kEq ||
        c->operands.size() != 2) {
      return InvalidComparator();
    }
    const expr::Operand* path = &c->operands[0];
    const expr::Operand* value = &c->operands[1];
    if (path->kind == expr::Operand::Kind::kValue) std::swap(path, value);
    if (path->kind != expr::Operand::Kind::kPath ||
        value->kind != expr::Operand::Kind::kValue || !value->value) {
      return InvalidComparator();
    }
    if (path->path.elements.size() != 1 || !path->path.elements[0].is_name()) {
      return Status::Validation(
          "SearchConditionExpression can reference only top-level attributes of the "
          "vector index's SearchSchema");
    }
    const std::string& name = path->path.top();
    const bool in_schema = std::any_of(
        def.search_schema.begin(), def.search_schema.end(),
        [&](const SearchSchemaElement& e) { return e.attribute_name == name; });
    if (!in_schema) {
      return Status::Validation(
          "SearchConditionExpression can reference only attributes of the vector index's "
          "SearchSchema; attribute: " + name);
    }
    for (const auto& [seen, v] : out) {
      if (seen == name) {
        return Status::Validation(
            "SearchConditionExpression references an attribute more than once; attribute: " +
            name);
      }
    }
    out.emplace_back(name, *value->value);
  }
  return out;
}

// The attributes a result may hold: the entry's always-kept attributes
// (without the vector unless the projection names it) and the projection's.
bool Projected(const IndexInfo& index, const KeyDef& table_key, const std::string& name) {
  if (index.projection.type == ProjectionType::kAll) return true;
  if (index.projection.type == ProjectionType::kInclude &&
      std::count(index.projection.non_key_attributes.begin(),
                 index.projection.non_key_attributes.end(), name)) {
    return true;
  }
  if (name == index.vector->vector_attribute) return false;
  for (const std::string& a : EntryAttributes(index, table_key)) {
    if (a == name) return true;
  }
  return false;
}

}  // namespace

Status CheckSearchRequest(const SearchVectorsRequest& req) {
  if (req.top_k < kMinTopK || req.top_k > kMaxTopK) {
    // Documented (Troubleshooting vector indexes): TopK from 1 to 100.
    return Status::Validation("Provided TopK value is out of valid range");
  }
  return Status::OK();
}

double SearchRequestBytes(int64_t dimensions, int64_t examined, int64_t returned_bytes) {
  return static_cast<double>(examined * dimensions * 4 + returned_bytes);
}

Result<SearchVectorsResult> Search(const SearchVectorsRequest& req, const TableInfo& table,
                                   const IndexInfo& index, const VectorGraphs& graphs,
                                   const StoreReader& store) {
  DR_RETURN_IF_ERROR(CheckSearchRequest(req));
  const VectorIndexDef& def = *index.vector;
  DR_ASSIGN_OR_RETURN(std::vector<float> query,
                      FloatsOf(AttributeValue::L(req.search_vector), def.dimensions,
                               "SearchVector", ""));
  const expr::NameMap* names =
      req.expression_attribute_names ? &*req.expression_attribute_names : nullptr;
  const expr::ValueMap* values =
      req.expression_attribute_values ? &*req.expression_attribute_values : nullptr;
  expr::Resolver resolver(names, values);
  Equalities equalities;
  if (req.search_condition_expression) {
    DR_ASSIGN_OR_RETURN(expr::ConditionExpression parsed,
                        expr::ParseCondition(*req.search_condition_expression,
                                             expr::ExpressionKind::kFilter));
    DR_ASSIGN_OR_RETURN(expr::ConditionExpression resolved, resolver.Resolve(parsed));
    DR_ASSIGN_OR_RETURN(equalities, EqualitiesOf(resolved.root, def));
  }
  std::optional<expr::ProjectionExpression> projection;
  if (req.projection_expression) {
    DR_ASSIGN_OR_RETURN(expr::ProjectionExpression parsed,
                        expr::ParseProjection(*req.projection_expression));
    DR_ASSIGN_OR_RETURN(projection, resolver.Resolve(parsed));
    for (const expr::Path& p : projection->paths) {
      if (!Projected(index, table.key, p.top())) {
        return Status::Validation(
            "ProjectionExpression can retrieve only attributes projected into the vector "
            "index; attribute: " + p.top());
      }
    }
  }
  DR_RETURN_IF_ERROR(resolver.CheckAllUsed());

  SearchFilter filter;
  bool has_hash = false;
  for (auto& [name, value] : equalities) {
    if (name == index.key.hash_name) {
      keys::AppendOrdered(value, &filter.partition);
      has_hash = true;
    } else {
      filter.equals.emplace_back(name, value);
    }
  }
  if (!index.key.hash_name.empty() && !has_hash) {
    // Documented (Troubleshooting vector indexes).
    return Status::Validation(
        "SearchConditionExpression must be provided when SearchSchema has a HASH key");
  }
  DR_ASSIGN_OR_RETURN(SearchOutcome outcome,
                      graphs.Search(index.id, query, static_cast<size_t>(req.top_k), filter));
  SearchVectorsResult result;
  int64_t bytes = 0;
  for (const SearchHit& hit : outcome.hits) {
    DR_ASSIGN_OR_RETURN(std::optional<std::string> stored,
                        store.Get(Cf::kIndexes, hit.entry_key));
    if (!stored) continue;  // removed since the graph was searched
    DR_ASSIGN_OR_RETURN(Item entry, DecodeItem(*stored));
    Item item;
    if (projection) {
      item = expr::ProjectItem(entry, *projection);
    } else {
      for (auto& [name, value] : entry) {
        if (Projected(index, table.key, name)) item.emplace(name, std::move(value));
      }
    }
    const int64_t size = ItemSize(item);
    // No pagination: the answer stops at 16 MB (documented).
    if (bytes + size > kMaxResponseBytes) break;
    bytes += size;
    result.results.push_back({std::move(item), hit.score});
  }
  // Scales with the vectors the search examined and the data returned
  // (VectorSearchMonitoring); an exact search examines every vector, a
  // graph search about ef per layer (log2 of the vectors).
  int64_t examined = outcome.vectors;
  if (!outcome.exact && outcome.vectors > 1) {
    const int64_t ef = std::max<int64_t>(req.top_k, outcome.ef);
    const int64_t layers = static_cast<int64_t>(std::ceil(std::log2(outcome.vectors)));
    examined = std::min<int64_t>(outcome.vectors, ef * (1 + layers));
  }
  result.vector_search_request_bytes = SearchRequestBytes(def.dimensions, examined, bytes);
  return result;
}

}  // namespace dynarock::vector
