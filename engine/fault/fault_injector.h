// engine/fault/fault_injector.h
//
// FaultInjector keeps an engine's fault rules (engine/fault/fault_rule.h)
// and decides, for each request the API is about to run, which of them fire
// and what the request gets instead: an error with DynamoDB's type, message
// and reasons, entries of a batch left unprocessed, or added latency. It
// counts what it injected per table, so that capacity statistics show
// injected failures beside real ones.
//
// Deciding is deterministic for a given sequence of requests: each rule's
// probability draws from its own generator seeded by the rule, and its
// counters (every Nth, first N) count the requests that matched it.
//
// Thread-safe. With no rule, Decide costs one atomic load.

#ifndef DYNAROCK_ENGINE_FAULT_FAULT_INJECTOR_H_
#define DYNAROCK_ENGINE_FAULT_FAULT_INJECTOR_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/clock.h"
#include "engine/fault/fault_rule.h"
#include "engine/status.h"
#include "engine/util/mutex.h"

namespace dynarock {

// Bounds that keep a rule from wedging the server or growing without limit.
inline constexpr size_t kMaxFaultRules = 100;

class FaultInjector {
 public:
  explicit FaultInjector(const Clock* clock) : clock_(clock) {}
  FaultInjector(const FaultInjector&) = delete;
  FaultInjector& operator=(const FaultInjector&) = delete;

  // Whether `code` is one of kInjectableFaultErrors.
  static bool Injectable(ErrorCode code);

  // Adds `rule`, or replaces the rule with its id (counters start again).
  // Returns the rule as stored (with its id). Errors: kValidation with what
  // is wrong (an error that cannot be injected, a probability outside
  // (0, 1], a latency outside (0, 60 s], an empty or reversed time window,
  // unprocessed entries or cancellation reasons for operations that have
  // none, more than kMaxFaultRules rules).
  Result<FaultRule> Put(FaultRule rule);
  // Errors: kResourceNotFound when no rule has `id`.
  Status Delete(std::string_view id);
  void Clear();
  // The rules in the order they are tried (the order they were first put).
  std::vector<FaultRuleStatus> List() const;
  bool empty() const { return count_.load(std::memory_order_acquire) == 0; }
  // Whether any rule could match a request of `operation` (one that lists
  // it, or names no operation), so that the API parses only those
  // requests for the rules. One atomic load when there is no rule.
  bool MayMatch(std::string_view operation) const;

  // The decisions of every rule that fires on `site`, in rule order; the
  // first error ends the list (a failed request is failed once).
  std::vector<FaultDecision> Decide(const FaultSite& site);

  // What was injected into requests on `table_name` of `scope` (the empty
  // name: requests without a table), by name, in name order.
  std::vector<InjectedFaultCount> Injected(const Scope& scope,
                                           std::string_view table_name) const;

 private:
  struct Entry {
    FaultRuleStatus status;
    uint64_t rng = 0;  // splitmix64 state
  };
  using CountKey = std::string;  // scope ns and table, joined

  static CountKey KeyOf(const Scope& scope, std::string_view table_name);
  bool Fires(Entry* entry, int64_t now) REQUIRES(mu_);

  const Clock* const clock_;
  mutable Mutex mu_;
  std::vector<Entry> rules_ GUARDED_BY(mu_);
  int64_t next_id_ GUARDED_BY(mu_) = 1;
  std::map<CountKey, std::map<std::string, int64_t>> injected_ GUARDED_BY(mu_);
  std::atomic<size_t> count_{0};
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_FAULT_FAULT_INJECTOR_H_
