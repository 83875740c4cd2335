// api/metrics/request_metrics.cc
//
// Slots are never removed: a slot pointer, once published by a
// compare-exchange into slots_, stays valid until the RequestMetrics is
// destroyed, so readers follow it without a lock. The same holds for a
// slot's per-operation counters.

#include "api/metrics/request_metrics.h"

#include <algorithm>
#include <optional>
#include <set>

#include "api/metrics/response_facts.h"

namespace dynarock::api::metrics {

struct RequestMetrics::Counters {
  explicit Counters(std::string_view op) : operation(op) {}
  const std::string operation;
  std::atomic<int64_t> requests{0};
  std::atomic<int64_t> successes{0};
  std::atomic<int64_t> latency_micros_sum{0};
  std::array<std::atomic<int64_t>, kLatencyBucketMicros.size() + 1> buckets{};
  std::atomic<int64_t> throttled{0};
  std::atomic<int64_t> user_errors{0};
  std::atomic<int64_t> system_errors{0};
  std::atomic<int64_t> conditional_check_failed{0};
  std::atomic<int64_t> transaction_conflicts{0};
  std::atomic<int64_t> returned_items{0};
};

struct RequestMetrics::Slot {
  Slot(std::string_view n, std::string_view t, uint64_t h) : ns(n), table(t), hash(h) {}
  ~Slot() {
    for (auto& c : ops) delete c.load(std::memory_order_relaxed);
  }
  const std::string ns;
  const std::string table;
  const uint64_t hash;
  std::array<std::atomic<Counters*>, kMaxOperations * 2> ops{};
  std::atomic<size_t> ops_used{0};
};

namespace {

uint64_t Fnv1a(uint64_t hash, std::string_view text) {
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

uint64_t HashOf(std::string_view ns, std::string_view table) {
  return Fnv1a(Fnv1a(14695981039346656037ull, ns) ^ 0xff, table);
}

void Add(std::atomic<int64_t>& counter, int64_t n) {
  counter.fetch_add(n, std::memory_order_relaxed);
}

int64_t Load(const std::atomic<int64_t>& counter) {
  return counter.load(std::memory_order_relaxed);
}

size_t BucketOf(int64_t micros) {
  const auto it = std::lower_bound(kLatencyBucketMicros.begin(), kLatencyBucketMicros.end(), micros);
  return static_cast<size_t>(it - kLatencyBucketMicros.begin());
}

}  // namespace

OutcomeKind ClassifyOutcome(int http_status, std::string_view error_type) {
  if (http_status == 200) return OutcomeKind::kSuccess;
  if (http_status >= 500) return OutcomeKind::kSystemError;
  if (error_type == "ProvisionedThroughputExceededException" ||
      error_type == "ThrottlingException" || error_type == "RequestLimitExceeded") {
    return OutcomeKind::kThrottled;
  }
  if (error_type == "ConditionalCheckFailedException") {
    return OutcomeKind::kConditionalCheckFailed;
  }
  if (error_type == "TransactionConflictException") return OutcomeKind::kTransactionConflict;
  return OutcomeKind::kUserError;
}

RequestMetrics::RequestMetrics(size_t max_series_tables)
    : max_tables_(std::max<size_t>(max_series_tables, 1)),
      slots_(max_tables_ * 2),
      other_(std::make_unique<Slot>("", kOtherTables, 0)) {}

RequestMetrics::~RequestMetrics() {
  for (auto& s : slots_) delete s.load(std::memory_order_relaxed);
}

RequestMetrics::Slot* RequestMetrics::FindOrAdd(std::string_view ns, std::string_view table,
                                                bool may_add) {
  const uint64_t hash = HashOf(ns, table);
  const size_t mask_size = slots_.size();
  std::unique_ptr<Slot> fresh;
  for (size_t i = 0, at = hash % mask_size; i < mask_size; ++i, at = (at + 1) % mask_size) {
    Slot* slot = slots_[at].load(std::memory_order_acquire);
    while (slot == nullptr) {
      if (!may_add) return nullptr;
      // Reserve a place within the bound, then publish.
      size_t used = used_.load(std::memory_order_relaxed);
      do {
        if (used >= max_tables_) return other_.get();
      } while (!used_.compare_exchange_weak(used, used + 1, std::memory_order_relaxed));
      if (!fresh) fresh = std::make_unique<Slot>(ns, table, hash);
      if (slots_[at].compare_exchange_strong(slot, fresh.get(), std::memory_order_acq_rel)) {
        return fresh.release();
      }
      used_.fetch_sub(1, std::memory_order_relaxed);  // another thread won the place
    }
    if (slot->hash == hash && slot->table == table && slot->ns == ns) return slot;
  }
  return other_.get();
}

RequestMetrics::Counters* RequestMetrics::CountersOf(Slot* slot, std::string_view operation) {
  const uint64_t hash = Fnv1a(14695981039346656037ull, operation);
  const size_t size = slot->ops.size();
  std::unique_ptr<Counters> fresh;
  for (size_t i = 0, at = hash % size; i < size; ++i, at = (at + 1) % size) {
    Counters* c = slot->ops[at].load(std::memory_order_acquire);
    while (c == nullptr) {
      size_t used = slot->ops_used.load(std::memory_order_relaxed);
      do {
        if (used >= kMaxOperations) return nullptr;
      } while (!slot->ops_used.compare_exchange_weak(used, used + 1, std::memory_order_relaxed));
      if (!fresh) fresh = std::make_unique<Counters>(operation);
      if (slot->ops[at].compare_exchange_strong(c, fresh.get(), std::memory_order_acq_rel)) {
        return fresh.release();
      }
      slot->ops_used.fetch_sub(1, std::memory_order_relaxed);
    }
    if (c->operation == operation) return c;
  }
  return nullptr;
}

void RequestMetrics::Record(const RequestOutcome& outcome) {
  const std::string_view error_type =
      outcome.http_status == 200 ? std::string_view() : ErrorTypeOf(outcome.response_body);
  const OutcomeKind kind = ClassifyOutcome(outcome.http_status, error_type);
  // A user error (an unknown table among them) is counted per namespace
  // only, as CloudWatch counts UserErrors per account and Region.
  std::optional<std::string_view> table;
  if (kind != OutcomeKind::kUserError) table = TableNameOf(outcome.request_body);
  Slot* slot = FindOrAdd(outcome.ns, table.value_or(std::string_view()), /*may_add=*/true);
  // An operation name no handler serves is one label, not one per name.
  const std::string_view operation = error_type == "UnknownOperationException"
                                         ? kUnknownOperation
                                         : outcome.operation;
  Counters* c = CountersOf(slot, operation);
  if (c == nullptr) return;
  Add(c->requests, 1);
  switch (kind) {
    case OutcomeKind::kSuccess: {
      Add(c->successes, 1);
      Add(c->latency_micros_sum, outcome.latency_micros);
      Add(c->buckets[BucketOf(outcome.latency_micros)], 1);
      if (operation == "Query" || operation == "Scan") {
        Add(c->returned_items, CountOf(outcome.response_body).value_or(0));
      }
      break;
    }
    case OutcomeKind::kThrottled:
      Add(c->throttled, 1);
      break;
    case OutcomeKind::kConditionalCheckFailed:
      Add(c->conditional_check_failed, 1);
      break;
    case OutcomeKind::kTransactionConflict:
      Add(c->transaction_conflicts, 1);
      break;
    case OutcomeKind::kUserError:
      Add(c->user_errors, 1);
      if (error_type == "TransactionCanceledException") {
        Add(c->transaction_conflicts, TransactionConflictsOf(outcome.response_body));
      }
      break;
    case OutcomeKind::kSystemError:
      Add(c->system_errors, 1);
      break;
  }
}

namespace {

template <typename CountersT>
OperationCounts SnapshotOf(const CountersT& c) {
  OperationCounts out;
  out.operation = c.operation;
  out.requests = Load(c.requests);
  out.successes = Load(c.successes);
  out.latency_micros_sum = Load(c.latency_micros_sum);
  for (size_t i = 0; i < out.latency_buckets.size(); ++i) {
    out.latency_buckets[i] = Load(c.buckets[i]);
  }
  out.throttled_requests = Load(c.throttled);
  out.user_errors = Load(c.user_errors);
  out.system_errors = Load(c.system_errors);
  out.conditional_check_failed = Load(c.conditional_check_failed);
  out.transaction_conflicts = Load(c.transaction_conflicts);
  out.returned_items = Load(c.returned_items);
  return out;
}

}  // namespace

std::vector<TableCounts> RequestMetrics::Snapshot() const {
  std::vector<TableCounts> out;
  auto add = [&out](const Slot& slot) {
    TableCounts t{slot.ns, slot.table, {}};
    for (const auto& op : slot.ops) {
      if (const Counters* c = op.load(std::memory_order_acquire)) {
        t.operations.push_back(SnapshotOf(*c));
      }
    }
    if (!t.operations.empty()) out.push_back(std::move(t));
  };
  for (const auto& s : slots_) {
    if (const Slot* slot = s.load(std::memory_order_acquire)) add(*slot);
  }
  add(*other_);
  return out;
}

std::vector<std::string> RequestMetrics::Namespaces() const {
  std::set<std::string> names;
  for (const auto& s : slots_) {
    if (const Slot* slot = s.load(std::memory_order_acquire)) names.insert(slot->ns);
  }
  return {names.begin(), names.end()};
}

}  // namespace dynarock::api::metrics
