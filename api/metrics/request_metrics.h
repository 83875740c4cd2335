// api/metrics/request_metrics.h
//
// RequestMetrics counts what CloudWatch counts per request, as api::Client
// sees each call: requests, SuccessfulRequestLatency (a histogram),
// ThrottledRequests, UserErrors, SystemErrors,
// ConditionalCheckFailedRequests, TransactionConflict and ReturnedItemCount,
// per table namespace (access key id + region, "" when shared), table and
// operation. Read by the Prometheus exposition (prometheus_exposition.h).
//
// Record() is on every request's path: it takes no lock and allocates only
// the first time a (namespace, table, operation) is seen; counting is
// relaxed atomic increments into a fixed open-addressed table. Cardinality
// is bounded: at most `max_series_tables` (namespace, table) pairs and
// kMaxOperations operations per pair; a table is only remembered once a
// request on it did not fail as the caller's mistake (no unknown table
// names), and pairs beyond the bound are counted together under the
// table "(other)", which no DynamoDB table name can be.
//
// Thread-safe.

#ifndef DYNAROCK_API_METRICS_REQUEST_METRICS_H_
#define DYNAROCK_API_METRICS_REQUEST_METRICS_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dynarock::api::metrics {

// The upper bounds of SuccessfulRequestLatency's buckets, in microseconds
// (250 us to 5 s); a last bucket, +Inf, follows them.
inline constexpr std::array<int64_t, 13> kLatencyBucketMicros = {
    250, 500, 1'000, 2'500, 5'000, 10'000, 25'000, 50'000, 100'000, 250'000,
    500'000, 1'000'000, 5'000'000};

// The table label of the counts beyond the bound on tables.
inline constexpr std::string_view kOtherTables = "(other)";

// The operation label of requests whose operation no handler serves.
inline constexpr std::string_view kUnknownOperation = "(unknown)";

// Operations counted per (namespace, table): more than dynarock serves.
inline constexpr size_t kMaxOperations = 128;

// One request as it ended. Views, valid during Record().
struct RequestOutcome {
  std::string_view ns;         // the caller's table namespace
  std::string_view operation;  // as dispatched ("PutItem")
  std::string_view request_body;
  int http_status = 200;
  std::string_view response_body;
  int64_t latency_micros = 0;
};

// A snapshot of one operation's counters.
struct OperationCounts {
  std::string operation;
  int64_t requests = 0;
  int64_t successes = 0;  // HTTP 200: the latency histogram's count
  int64_t latency_micros_sum = 0;
  // Per bucket of kLatencyBucketMicros, then +Inf; not cumulative.
  std::array<int64_t, kLatencyBucketMicros.size() + 1> latency_buckets{};
  int64_t throttled_requests = 0;  // throttling errors (any 400 of them)
  int64_t user_errors = 0;         // other 400s
  int64_t system_errors = 0;       // 5xx
  int64_t conditional_check_failed = 0;
  int64_t transaction_conflicts = 0;  // TransactionConflict, per item
  int64_t returned_items = 0;         // Query and Scan pages' Count
};

// A snapshot of one (namespace, table); `table` is empty for requests that
// name no table (ListTables) and for user errors, which CloudWatch counts
// per account and Region, not per table.
struct TableCounts {
  std::string ns;
  std::string table;
  std::vector<OperationCounts> operations;  // in no particular order
};

// The outcome's class, as the counters sort them.
enum class OutcomeKind { kSuccess, kThrottled, kConditionalCheckFailed,
                         kTransactionConflict, kUserError, kSystemError };
OutcomeKind ClassifyOutcome(int http_status, std::string_view error_type);

class RequestMetrics {
 public:
  // REQUIRES: max_series_tables >= 1
  explicit RequestMetrics(size_t max_series_tables = 256);
  ~RequestMetrics();
  RequestMetrics(const RequestMetrics&) = delete;
  RequestMetrics& operator=(const RequestMetrics&) = delete;

  void Record(const RequestOutcome& outcome);

  // Every (namespace, table) with what it counted, in no particular order.
  std::vector<TableCounts> Snapshot() const;
  // The namespaces that made any request, sorted (at most the bound).
  std::vector<std::string> Namespaces() const;

 private:
  struct Counters;
  struct Slot;
  Slot* FindOrAdd(std::string_view ns, std::string_view table, bool may_add);
  Counters* CountersOf(Slot* slot, std::string_view operation);

  const size_t max_tables_;
  std::vector<std::atomic<Slot*>> slots_;  // open addressing, 2x the bound
  std::atomic<size_t> used_{0};
  std::unique_ptr<Slot> other_;  // beyond the bound
};

}  // namespace dynarock::api::metrics

#endif  // DYNAROCK_API_METRICS_REQUEST_METRICS_H_
