// engine/partiql/plan_cache.h
//
// Read plans of PartiQL statements by statement text, so that a SELECT run
// again (the common case: one text, new Parameters each time) skips lexing,
// parsing and planning: about half the cost of a SELECT that plans into a
// GetItem (bench/engine/partiql_bench.cc).
//
// What is kept is the plan of the text with every `?` bound to a marker
// value, and which values of the plan are which parameter. Binding puts the
// request's parameters where the markers were. A template is kept only when
// binding reproduces exactly the plan the slow path made from the same
// request (Prepare checks it), and only for SELECTs that plan into a GetItem
// or a Query: neither the parser nor the planner looks at a parameter's
// value there (set literals, which do, are never cached), so a plan bound
// from the template is the plan that parsing and planning would give. A
// template also remembers the key it was planned against; a table created
// again with another key is planned again.
//
// Bounded (kMaxEntries texts; when full, it starts over). Thread-safe.

#ifndef DYNAROCK_ENGINE_PARTIQL_PLAN_CACHE_H_
#define DYNAROCK_ENGINE_PARTIQL_PLAN_CACHE_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/partiql/statement_planner.h"
#include "engine/status.h"
#include "engine/types.h"
#include "engine/util/mutex.h"
#include "engine/util/thread_annotations.h"

namespace dynarock::partiql {

class PlanCache {
 public:
  static constexpr size_t kMaxEntries = 1024;

  // Sets `*plan` (a default Plan) to the plan of `text` with `parameters`
  // and `options` bound, from the cache, and returns true; false when there
  // is none (the caller parses and plans, then offers its plan to
  // Remember). The table's key is looked up through `keys` to check that
  // the template still fits; a lookup error is also a miss, so that the
  // slow path reports it in its own order.
  bool Bind(std::string_view text, const std::vector<AttributeValue>& parameters,
            const KeyLookup& keys, const PlanOptions& options, Plan* plan) const;

  // Offers the plan the slow path made for (`text`, `parameters`,
  // `options`). Keeps a template when the statement is a cacheable read and
  // binding the template reproduces `plan` exactly.
  void Remember(std::string_view text,
                const std::vector<AttributeValue>& parameters,
                const KeyLookup& keys, const PlanOptions& options,
                const Plan& plan);

  size_t size() const;

 private:
  struct Template;
  std::shared_ptr<const Template> Find(std::string_view text) const;

  // Looked up by string_view, without building a std::string per lookup.
  struct TextHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const {
      return std::hash<std::string_view>{}(s);
    }
  };
  mutable SharedMutex mu_;
  std::unordered_map<std::string, std::shared_ptr<const Template>, TextHash,
                     std::equal_to<>>
      templates_ GUARDED_BY(mu_);
};

}  // namespace dynarock::partiql

#endif  // DYNAROCK_ENGINE_PARTIQL_PLAN_CACHE_H_
