// engine/fault/fault_rule.h
//
// Fault rules: DynamoDB's failures on demand, for tests of the code that must
// survive them (SDK retries, idempotent handlers, partial batches). A rule
// says which requests it matches (FaultMatch), what it does to them
// (FaultEffect) and when (FaultSchedule). The engine keeps the rules and
// decides (engine/fault/fault_injector.h); the DynamoDB API applies the
// decision before a request runs, so an injected failure takes no effect
// (api/fault_injection.h). docs/testing.md has the JSON form and recipes.

#ifndef DYNAROCK_ENGINE_FAULT_FAULT_RULE_H_
#define DYNAROCK_ENGINE_FAULT_FAULT_RULE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/requests/scope.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

// The errors a rule may inject (FaultEffect::error). kInternal is
// InternalServerError.
inline constexpr ErrorCode kInjectableFaultErrors[] = {
    ErrorCode::kProvisionedThroughputExceeded,
    ErrorCode::kThrottling,
    ErrorCode::kRequestLimitExceeded,
    ErrorCode::kLimitExceeded,
    ErrorCode::kInternal,
    ErrorCode::kServiceUnavailable,
    ErrorCode::kTransactionConflict,
    ErrorCode::kTransactionCanceled,
};

// The longest latency a rule may add: a minute.
inline constexpr int64_t kMaxFaultLatencyMicros = 60'000'000;

// Which requests a rule applies to. Every member that is set must match;
// an empty rule matches every request.
struct FaultMatch {
  // Operation names as in X-Amz-Target without DynamoDB's prefix
  // ("PutItem", "DynamoDBStreams_20120810.GetRecords"); empty: any.
  std::vector<std::string> operations;
  std::string table_name;  // empty: any (and requests without a table)
  std::string index_name;  // empty: any
  // Attributes that one item the request names (its Key or Item, or one
  // entry of a batch or transaction) must hold with these values.
  std::vector<std::pair<std::string, AttributeValue>> key;
  // An attribute whose value (S or B) must start with `key_prefix`.
  std::string key_prefix_attribute;
  std::string key_prefix;
  // Top-level request members and the value each must have, as the request
  // states it (a string's characters; true / false; a number's digits);
  // an empty value only requires the member to be present.
  std::vector<std::pair<std::string, std::string>> request;
};

// What a rule does to a request it fires on.
enum class FaultEffectKind : uint8_t {
  // The request fails with `error` and takes no effect.
  kError,
  // BatchWriteItem / BatchGetItem: the entries the rule's key matches (all
  // of the matched table's entries when it names no key) come back as
  // UnprocessedItems / UnprocessedKeys; the others run.
  kUnprocessed,
  // The answer is delayed by `latency_micros` (the request runs as usual).
  kLatency,
};

struct FaultEffect {
  FaultEffectKind kind = FaultEffectKind::kError;
  // kError: one of kInjectableFaultErrors.
  ErrorCode error = ErrorCode::kProvisionedThroughputExceeded;
  // Empty: DynamoDB's own message for `error`.
  std::string message;
  // ProvisionedThroughputExceeded / ThrottlingException / RequestLimitExceeded:
  // the ThrottlingReason to report ("TableWriteKeyRangeThroughputExceeded");
  // empty: the one the operation's kind implies.
  std::string throttling_reason;
  // TransactionCanceled: the reason given to each action the rule's key
  // matches (the first action when it names no key), "None" to the others;
  // or, when `cancellation_reasons` is not empty, exactly those, one per
  // action in order.
  std::string cancellation_reason = "TransactionConflict";
  std::vector<std::string> cancellation_reasons;
  int64_t latency_micros = 0;
};

// When a matching request is failed. Each set condition must hold; a rule
// with none fires on every matching request.
struct FaultSchedule {
  // Fires with this probability (0, 1], from a generator seeded with `seed`,
  // so a run repeats exactly.
  std::optional<double> probability;
  uint64_t seed = 0;
  // Fires on the Nth, 2Nth, ... matching request.
  int64_t every_nth = 0;
  // Fires on the first N matching requests only.
  int64_t first_n = 0;
  // Between these times on the engine's clock (microseconds since the
  // epoch; from inclusive, to exclusive); 0: unbounded.
  int64_t from_micros = 0;
  int64_t to_micros = 0;
};

struct FaultRule {
  // Unique among the rules; PutFaultRule replaces the rule of the same id
  // (and its counters). Empty: the engine names it "rule-<n>".
  std::string id;
  FaultMatch match;
  FaultEffect effect;
  FaultSchedule schedule;
};

// A rule with what it has done since it was put.
struct FaultRuleStatus {
  FaultRule rule;
  int64_t matched = 0;  // matching requests seen
  int64_t fired = 0;    // of those, failed, delayed or cut
};

// One item a request names: a single-item operation's Key (or Item), or one
// entry of a batch or a transaction, with the table it belongs to.
struct FaultTarget {
  std::string_view table_name;
  const Item* item = nullptr;  // not owned; null when the entry has none
};

// A request as the fault rules see it. Views into the caller's request.
struct FaultSite {
  std::string_view operation;
  const Scope* scope = nullptr;
  std::string_view table_name;  // the request's TableName; empty: none
  std::string_view index_name;
  std::vector<FaultTarget> targets;
  // A top-level request member's value as text (see FaultMatch::request),
  // nullopt when absent. May be empty when no rule asks.
  std::function<std::optional<std::string>(std::string_view member)> member_text;
};

// What one firing rule does to the request.
struct FaultDecision {
  std::string rule_id;
  FaultEffectKind kind = FaultEffectKind::kError;
  // kError: the status to answer (message and reasons filled in).
  Status error;
  int64_t latency_micros = 0;
  // kUnprocessed: indexes into FaultSite::targets to leave unprocessed.
  std::vector<size_t> targets;
};

// Injected failures of one table (or of requests without a table, under the
// empty name), by DynamoDB error name ("ThrottlingException",
// "UnprocessedItems", "Latency" for delays).
struct InjectedFaultCount {
  std::string name;
  int64_t count = 0;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_FAULT_FAULT_RULE_H_
