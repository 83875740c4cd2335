#include "engine/fault/fault_injector.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <iterator>
#include <utility>

#include "engine/capacity/throttle_messages.h"
#include "engine/schema/arns.h"
#include "engine/stream/stream_reads.h"
#include "engine/transactions/transactions.h"
#include "engine/data/write_path.h"

namespace dynarock {

namespace {

constexpr std::array<std::string_view, 2> kBatchOperations = {"BatchWriteItem",
                                                              "BatchGetItem"};
constexpr std::array<std::string_view, 3> kTransactionOperations = {
    "TransactWriteItems", "TransactGetItems", "ExecuteTransaction"};
constexpr std::array<std::string_view, 5> kWriteOperations = {
    "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"};

// CancellationReason codes, as TransactionCanceledException reports them.
constexpr std::array<std::string_view, 7> kCancellationCodes = {
    "None",
    "ConditionalCheckFailed",
    "ItemCollectionSizeLimitExceeded",
    "TransactionConflict",
    "ProvisionedThroughputExceeded",
    "ThrottlingError",
    "ValidationError"};

template <size_t N>
bool Contains(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Whether every operation of `ops` (non-empty) is one of `allowed`.
template <size_t N>
bool AllIn(const std::vector<std::string>& ops, const std::array<std::string_view, N>& allowed) {
  if (ops.empty()) return false;
  for (const std::string& op : ops) {
    if (!Contains(allowed, op)) return false;
  }
  return true;
}

bool IsThrottle(ErrorCode code) {
  return code == ErrorCode::kProvisionedThroughputExceeded ||
         code == ErrorCode::kRequestLimitExceeded || code == ErrorCode::kThrottling;
}

// The ThrottlingReason names DynamoDB defines (ResourceType, OperationType,
// LimitType), and the limit each one names.
bool KnownThrottlingReason(std::string_view name, ThrottleLimit* limit) {
  for (bool index : {false, true}) {
    for (bool write : {false, true}) {
      for (ThrottleLimit l : {ThrottleLimit::kProvisionedThroughput, ThrottleLimit::kAccountLimit,
                              ThrottleLimit::kKeyRange, ThrottleLimit::kMaxOnDemand}) {
        if (ThrottlingReasonName(index, write, l) == name) {
          *limit = l;
          return true;
        }
      }
    }
  }
  return false;
}

Status Invalid(std::string message) { return Status::Validation("Invalid fault rule: " + message); }

Status Validate(const FaultRule& rule) {
  if (rule.id.size() > 255) return Invalid("Id is longer than 255 characters");
  for (const std::string& op : rule.match.operations) {
    if (op.empty()) return Invalid("an operation name is empty");
  }
  if (rule.match.key_prefix_attribute.empty() != rule.match.key_prefix.empty()) {
    return Invalid("KeyPrefix needs an attribute name and a non-empty prefix");
  }
  for (const auto& entry : rule.match.key) {
    if (entry.first.empty()) return Invalid("a Key attribute name is empty");
  }
  const FaultEffect& e = rule.effect;
  switch (e.kind) {
    case FaultEffectKind::kError: {
      if (!FaultInjector::Injectable(e.error)) {
        return Invalid(std::string(ErrorCodeName(e.error)) + " cannot be injected");
      }
      if (!e.throttling_reason.empty()) {
        ThrottleLimit limit;
        if (!IsThrottle(e.error)) {
          return Invalid("ThrottlingReason is only for ProvisionedThroughputExceededException, "
                         "RequestLimitExceeded and ThrottlingException");
        }
        if (!KnownThrottlingReason(e.throttling_reason, &limit)) {
          return Invalid("unknown ThrottlingReason " + e.throttling_reason);
        }
      }
      if (e.error == ErrorCode::kTransactionCanceled) {
        if (!AllIn(rule.match.operations, kTransactionOperations)) {
          return Invalid(
              "TransactionCanceledException needs Operations among TransactWriteItems, "
              "TransactGetItems and ExecuteTransaction");
        }
        if (!Contains(kCancellationCodes, e.cancellation_reason)) {
          return Invalid("unknown cancellation reason " + e.cancellation_reason);
        }
        for (const std::string& code : e.cancellation_reasons) {
          if (!Contains(kCancellationCodes, code)) {
            return Invalid("unknown cancellation reason " + code);
          }
        }
      } else if (!e.cancellation_reasons.empty()) {
        return Invalid("CancellationReasons are only for TransactionCanceledException");
      }
      break;
    }
    case FaultEffectKind::kUnprocessed:
      if (!AllIn(rule.match.operations, kBatchOperations)) {
        return Invalid("unprocessed entries need Operations among BatchWriteItem and BatchGetItem");
      }
      break;
    case FaultEffectKind::kLatency:
      if (e.latency_micros <= 0 || e.latency_micros > kMaxFaultLatencyMicros) {
        return Invalid("LatencyMillis must be between 1 and 60000");
      }
      break;
  }
  const FaultSchedule& s = rule.schedule;
  if (s.probability && !(*s.probability > 0 && *s.probability <= 1)) {
    return Invalid("Probability must be greater than 0 and at most 1");
  }
  if (s.every_nth < 0) return Invalid("EveryNth must be positive");
  if (s.first_n < 0) return Invalid("FirstN must be positive");
  if (s.from_micros < 0 || s.to_micros < 0) return Invalid("From and To must not be negative");
  if (s.from_micros != 0 && s.to_micros != 0 && s.to_micros <= s.from_micros) {
    return Invalid("To must be after From");
  }
  return Status::OK();
}

uint64_t SplitMix64(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

bool HasPrefix(const AttributeValue& v, std::string_view prefix) {
  if (v.type() != AttrType::kS && v.type() != AttrType::kB) return false;
  const std::string& s = v.type() == AttrType::kS ? v.s() : v.b();
  return s.compare(0, prefix.size(), prefix) == 0 && s.size() >= prefix.size();
}

bool ItemMatches(const FaultMatch& m, const Item& item) {
  for (const auto& [name, value] : m.key) {
    auto it = item.find(name);
    if (it == item.end() || !(it->second == value)) return false;
  }
  if (!m.key_prefix_attribute.empty()) {
    auto it = item.find(m.key_prefix_attribute);
    if (it == item.end() || !HasPrefix(it->second, m.key_prefix)) return false;
  }
  return true;
}

// Whether `m` matches the request; `targets` gets the entries it names
// (those on its table that its key matches).
bool Matches(const FaultMatch& m, const FaultSite& site, std::vector<size_t>* targets) {
  if (!m.operations.empty() &&
      std::find(m.operations.begin(), m.operations.end(), site.operation) == m.operations.end()) {
    return false;
  }
  if (!m.index_name.empty() && site.index_name != m.index_name) return false;
  if (!m.request.empty()) {
    if (!site.member_text) return false;
    for (const auto& [member, value] : m.request) {
      std::optional<std::string> text = site.member_text(member);
      if (!text || (!value.empty() && *text != value)) return false;
    }
  }
  const bool by_key = !m.key.empty() || !m.key_prefix_attribute.empty();
  bool on_table = m.table_name.empty() || site.table_name == m.table_name;
  for (size_t i = 0; i < site.targets.size(); ++i) {
    const FaultTarget& t = site.targets[i];
    if (!m.table_name.empty() && t.table_name != m.table_name) continue;
    on_table = true;
    if (by_key && (t.item == nullptr || !ItemMatches(m, *t.item))) continue;
    targets->push_back(i);
  }
  if (!on_table) return false;
  return !by_key || !targets->empty();
}

// DynamoDB's message for an injected `code` when the rule gives none.
std::string DefaultMessage(ErrorCode code, bool index, ThrottleLimit limit) {
  switch (code) {
    case ErrorCode::kProvisionedThroughputExceeded:
    case ErrorCode::kRequestLimitExceeded:
      return std::string(ThrottleMessage(index, limit));
    case ErrorCode::kThrottling:
      return "Rate of requests exceeds the allowed throughput.";
    case ErrorCode::kLimitExceeded:
      return StreamRateExceeded().message();
    case ErrorCode::kServiceUnavailable:
      return "DynamoDB is currently unavailable. (This should be a temporary state.)";
    case ErrorCode::kTransactionConflict:
      return TransactionConflict().message();
    default:
      return "Internal server error";
  }
}

// An action's cancellation reason as a real cancellation gives it: the
// status an action fails with for `code`, through the coordinator's own
// ReasonFor (code and message).
CancellationReason ReasonNamed(std::string_view code) {
  Status s;
  if (code == "ConditionalCheckFailed") {
    s = Status::ConditionalCheckFailed(nullptr);
  } else if (code == "ItemCollectionSizeLimitExceeded") {
    s = Status(ErrorCode::kItemCollectionSizeLimitExceeded, "");
  } else if (code == "TransactionConflict") {
    s = TransactionConflict();
  } else if (code == "ProvisionedThroughputExceeded") {
    s = Status(ErrorCode::kProvisionedThroughputExceeded,
               std::string(ThrottleMessage(false, ThrottleLimit::kKeyRange)));
  } else if (code == "ThrottlingError") {
    s = Status(ErrorCode::kThrottling, DefaultMessage(ErrorCode::kThrottling, false,
                                                      ThrottleLimit::kKeyRange));
  } else if (code == "ValidationError") {
    s = Status::Validation("One or more parameter values were invalid");
  }
  return ReasonFor(s).value_or(CancellationReason{});
}

bool IsWrite(const FaultSite& site) {
  if (Contains(kWriteOperations, site.operation)) return true;
  if (site.operation == "ExecuteStatement" && site.member_text) {
    std::optional<std::string> statement = site.member_text("Statement");
    if (!statement) return false;
    size_t i = statement->find_first_not_of(" \t\r\n");
    if (i == std::string::npos) return false;
    std::string head = statement->substr(i, 6);
    for (char& c : head) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return head != "SELECT";
  }
  return false;
}

Status InjectedError(const FaultRule& rule, const FaultSite& site,
                     const std::vector<size_t>& targets) {
  const FaultEffect& e = rule.effect;
  if (e.error == ErrorCode::kTransactionCanceled) {
    std::vector<CancellationReason> reasons(site.targets.size());
    if (!e.cancellation_reasons.empty()) {
      for (size_t i = 0; i < reasons.size() && i < e.cancellation_reasons.size(); ++i) {
        reasons[i] = ReasonNamed(e.cancellation_reasons[i]);
      }
    } else if (!reasons.empty()) {
      const bool by_key = !rule.match.key.empty() || !rule.match.key_prefix_attribute.empty();
      if (by_key) {
        for (size_t i : targets) reasons[i] = ReasonNamed(e.cancellation_reason);
      } else {
        reasons[targets.empty() ? 0 : targets.front()] = ReasonNamed(e.cancellation_reason);
      }
    }
    return Status::TransactionCanceled(std::move(reasons));
  }
  const bool index = !site.index_name.empty();
  ThrottleLimit limit = e.error == ErrorCode::kRequestLimitExceeded ? ThrottleLimit::kAccountLimit
                                                                     : ThrottleLimit::kKeyRange;
  std::string reason = e.throttling_reason;
  if (!reason.empty()) {
    KnownThrottlingReason(reason, &limit);
  } else if (e.error != ErrorCode::kThrottling && IsThrottle(e.error)) {
    reason = ThrottlingReasonName(index, IsWrite(site), limit);
  }
  std::string message = e.message.empty() ? DefaultMessage(e.error, index, limit) : e.message;
  std::string_view table = site.table_name;
  if (table.empty() && !targets.empty()) table = site.targets[targets.front()].table_name;
  if (!reason.empty() && !table.empty() && site.scope != nullptr) {
    std::string resource = TableArn(*site.scope, table);
    if (index) resource = IndexArn(resource, site.index_name);
    return Status::Throttled(e.error, std::move(message),
                             {ThrottlingReason{std::move(reason), std::move(resource)}});
  }
  return Status(e.error, std::move(message));
}

std::string CountName(const FaultDecision& d, std::string_view operation) {
  switch (d.kind) {
    case FaultEffectKind::kError:
      return std::string(ErrorCodeName(d.error.code()));
    case FaultEffectKind::kUnprocessed:
      return operation == "BatchGetItem" ? "UnprocessedKeys" : "UnprocessedItems";
    case FaultEffectKind::kLatency:
      return "Latency";
  }
  return "";
}

}  // namespace

bool FaultInjector::Injectable(ErrorCode code) {
  return std::find(std::begin(kInjectableFaultErrors), std::end(kInjectableFaultErrors), code) !=
         std::end(kInjectableFaultErrors);
}

Result<FaultRule> FaultInjector::Put(FaultRule rule) {
  DR_RETURN_IF_ERROR(Validate(rule));
  MutexLock lock(&mu_);
  if (rule.id.empty()) {
    // Never a name a rule already has.
    for (bool taken = true; taken;) {
      rule.id = "rule-" + std::to_string(next_id_++);
      taken = std::any_of(rules_.begin(), rules_.end(),
                          [&](const Entry& e) { return e.status.rule.id == rule.id; });
    }
  }
  Entry entry;
  entry.status.rule = rule;
  entry.rng = rule.schedule.seed;
  for (Entry& e : rules_) {
    if (e.status.rule.id == rule.id) {
      e = std::move(entry);
      return rule;
    }
  }
  if (rules_.size() >= kMaxFaultRules) {
    return Invalid("there are already " + std::to_string(kMaxFaultRules) +
                   " rules; delete one first");
  }
  rules_.push_back(std::move(entry));
  count_.store(rules_.size(), std::memory_order_release);
  return rule;
}

Status FaultInjector::Delete(std::string_view id) {
  MutexLock lock(&mu_);
  auto it = std::find_if(rules_.begin(), rules_.end(),
                         [&](const Entry& e) { return e.status.rule.id == id; });
  if (it == rules_.end()) {
    return Status::ResourceNotFound("Fault rule not found: " + std::string(id));
  }
  rules_.erase(it);
  count_.store(rules_.size(), std::memory_order_release);
  return Status::OK();
}

void FaultInjector::Clear() {
  MutexLock lock(&mu_);
  rules_.clear();
  count_.store(0, std::memory_order_release);
}

bool FaultInjector::MayMatch(std::string_view operation) const {
  if (empty()) return false;
  MutexLock lock(&mu_);
  for (const Entry& e : rules_) {
    const std::vector<std::string>& ops = e.status.rule.match.operations;
    if (ops.empty() || std::find(ops.begin(), ops.end(), operation) != ops.end()) return true;
  }
  return false;
}

std::vector<FaultRuleStatus> FaultInjector::List() const {
  MutexLock lock(&mu_);
  std::vector<FaultRuleStatus> out;
  out.reserve(rules_.size());
  for (const Entry& e : rules_) out.push_back(e.status);
  return out;
}

bool FaultInjector::Fires(Entry* entry, int64_t now) {
  const FaultSchedule& s = entry->status.rule.schedule;
  const int64_t n = entry->status.matched;
  if (s.from_micros != 0 && now < s.from_micros) return false;
  if (s.to_micros != 0 && now >= s.to_micros) return false;
  if (s.first_n != 0 && n > s.first_n) return false;
  if (s.every_nth != 0 && n % s.every_nth != 0) return false;
  if (s.probability && *s.probability < 1) {
    // 53 random bits as a double in [0, 1).
    const double draw = static_cast<double>(SplitMix64(&entry->rng) >> 11) * 0x1.0p-53;
    if (draw >= *s.probability) return false;
  }
  return true;
}

std::vector<FaultDecision> FaultInjector::Decide(const FaultSite& site) {
  std::vector<FaultDecision> out;
  if (empty()) return out;
  const int64_t now = clock_->NowMicros();
  MutexLock lock(&mu_);
  for (Entry& entry : rules_) {
    const FaultRule& rule = entry.status.rule;
    std::vector<size_t> targets;
    if (!Matches(rule.match, site, &targets)) continue;
    ++entry.status.matched;
    if (!Fires(&entry, now)) continue;
    FaultDecision d;
    d.rule_id = rule.id;
    d.kind = rule.effect.kind;
    switch (rule.effect.kind) {
      case FaultEffectKind::kError:
        d.error = InjectedError(rule, site, targets);
        break;
      case FaultEffectKind::kUnprocessed:
        if (targets.empty()) continue;  // nothing of this request to cut
        d.targets = std::move(targets);
        break;
      case FaultEffectKind::kLatency:
        d.latency_micros = rule.effect.latency_micros;
        break;
    }
    ++entry.status.fired;
    std::string_view table = site.table_name;
    if (table.empty() && !d.targets.empty()) table = site.targets[d.targets.front()].table_name;
    if (table.empty() && !rule.match.table_name.empty()) table = rule.match.table_name;
    if (site.scope != nullptr) ++injected_[KeyOf(*site.scope, table)][CountName(d, site.operation)];
    const bool failed = d.kind == FaultEffectKind::kError;
    out.push_back(std::move(d));
    if (failed) break;
  }
  return out;
}

// A scope's tables are those of its namespace (its region only names them
// in ARNs), so the counts are too.
FaultInjector::CountKey FaultInjector::KeyOf(const Scope& scope, std::string_view table_name) {
  CountKey key = scope.ns;
  key += '\0';
  key += table_name;
  return key;
}

std::vector<InjectedFaultCount> FaultInjector::Injected(const Scope& scope,
                                                        std::string_view table_name) const {
  MutexLock lock(&mu_);
  std::vector<InjectedFaultCount> out;
  auto it = injected_.find(KeyOf(scope, table_name));
  if (it == injected_.end()) return out;
  for (const auto& [name, count] : it->second) out.push_back({name, count});
  return out;
}

}  // namespace dynarock
