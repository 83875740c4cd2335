// api/metrics/prometheus_exposition.cc

#include "api/metrics/prometheus_exposition.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <tuple>
#include <string_view>
#include <utility>
#include <vector>

#include "api/metrics/prometheus_text.h"
#include "engine/engine.h"

namespace dynarock::api::metrics {
namespace {

// One table as read from the engine.
struct TableFigures {
  std::string ns;
  TableDescription description;
  TableThroughputStats capacity;
};

void DeclareRequestFamilies(PrometheusText* out) {
  out->Family("dynamodb_successful_request_latency_seconds", MetricType::kHistogram,
              "SuccessfulRequestLatency: seconds api::Client took to answer requests that "
              "succeeded (HTTP 200), by table and operation.");
  out->Family("dynamodb_throttled_requests_total", MetricType::kCounter,
              "ThrottledRequests: requests refused with a throttling error "
              "(ProvisionedThroughputExceeded, ThrottlingException, RequestLimitExceeded).");
  out->Family("dynamodb_user_errors_total", MetricType::kCounter,
              "UserErrors: requests answered HTTP 400 other than throttles, failed "
              "conditions and transaction conflicts, per namespace (CloudWatch: per account "
              "and Region) and operation.");
  out->Family("dynamodb_system_errors_total", MetricType::kCounter,
              "SystemErrors: requests answered HTTP 5xx.");
  out->Family("dynamodb_conditional_check_failed_requests_total", MetricType::kCounter,
              "ConditionalCheckFailedRequests: writes whose condition was false.");
  out->Family("dynamodb_transaction_conflict_total", MetricType::kCounter,
              "TransactionConflict: item-level requests rejected by a conflict with a "
              "concurrent transaction.");
  out->Family("dynamodb_returned_item_count_total", MetricType::kCounter,
              "ReturnedItemCount: items returned by Query and Scan pages.");
  out->Family("dynarock_requests_total", MetricType::kCounter,
              "Requests api::Client answered, by table and operation (user errors under no "
              "table).");
}

void DeclareCapacityFamilies(PrometheusText* out) {
  out->Family("dynamodb_consumed_read_capacity_units_total", MetricType::kCounter,
              "ConsumedReadCapacityUnits since the server opened the table.");
  out->Family("dynamodb_consumed_write_capacity_units_total", MetricType::kCounter,
              "ConsumedWriteCapacityUnits since the server opened the table (a GSI's: its "
              "propagated writes).");
  out->Family("dynamodb_read_throttle_events_total", MetricType::kCounter,
              "ReadThrottleEvents: read requests the capacity model throttled.");
  out->Family("dynamodb_write_throttle_events_total", MetricType::kCounter,
              "WriteThrottleEvents: write requests the capacity model throttled.");
  out->Family("dynamodb_time_to_live_deleted_item_count_total", MetricType::kCounter,
              "TimeToLiveDeletedItemCount: items Time to Live deleted since the server opened "
              "the table.");
  out->Family("dynamodb_provisioned_read_capacity_units", MetricType::kGauge,
              "ProvisionedReadCapacityUnits of a provisioned table or GSI.");
  out->Family("dynamodb_provisioned_write_capacity_units", MetricType::kGauge,
              "ProvisionedWriteCapacityUnits of a provisioned table or GSI.");
  out->Family("dynarock_throttled_read_units_total", MetricType::kCounter,
              "Read capacity units refused by throttling.");
  out->Family("dynarock_throttled_write_units_total", MetricType::kCounter,
              "Write capacity units refused by throttling.");
  out->Family("dynarock_read_units_per_second", MetricType::kGauge,
              "The table-level read rate now: provisioned RCU, or what on-demand serves.");
  out->Family("dynarock_write_units_per_second", MetricType::kGauge,
              "The table-level write rate now: provisioned WCU, or what on-demand serves.");
  out->Family("dynarock_read_bucket_balance_units", MetricType::kGauge,
              "Units in the table-level read bucket now (may be negative: debt).");
  out->Family("dynarock_write_bucket_balance_units", MetricType::kGauge,
              "Units in the table-level write bucket now (may be negative: debt).");
  out->Family("dynarock_peak_read_units", MetricType::kGauge,
              "Most read units consumed in one completed second of the peak window.");
  out->Family("dynarock_peak_write_units", MetricType::kGauge,
              "Most write units consumed in one completed second of the peak window.");
  out->Family("dynarock_items", MetricType::kGauge,
              "Items of a table or index (DescribeTable's ItemCount).");
  out->Family("dynarock_size_bytes", MetricType::kGauge,
              "Bytes of a table or index (DescribeTable's TableSizeBytes / IndexSizeBytes).");
  out->Family("dynarock_index_backfilling", MetricType::kGauge,
              "1 while a GSI created by UpdateTable is being backfilled.");
  out->Family("dynarock_partitions", MetricType::kGauge,
              "Physical partitions of a table or GSI.");
  out->Family("dynarock_partition_consumed_read_units_total", MetricType::kCounter,
              "Read units a partition consumed since it was created.");
  out->Family("dynarock_partition_consumed_write_units_total", MetricType::kCounter,
              "Write units a partition consumed since it was created.");
  out->Family("dynarock_partition_throttled_read_units_total", MetricType::kCounter,
              "Read units refused at a partition since it was created.");
  out->Family("dynarock_partition_throttled_write_units_total", MetricType::kCounter,
              "Write units refused at a partition since it was created.");
  out->Family("dynarock_partition_read_bucket_balance_units", MetricType::kGauge,
              "Units in a partition's read bucket now (its 3,000 RCU ceiling and burst).");
  out->Family("dynarock_partition_write_bucket_balance_units", MetricType::kGauge,
              "Units in a partition's write bucket now (its 1,000 WCU ceiling and burst).");
  out->Family("dynarock_partition_items", MetricType::kGauge, "Items in a partition.");
  out->Family("dynarock_partition_size_bytes", MetricType::kGauge, "Bytes in a partition.");
  out->Family("dynarock_gsi_pending_records", MetricType::kGauge,
              "GSI changes committed and not yet applied, over every GSI.");
  out->Family("dynarock_gsi_applied_records_total", MetricType::kCounter,
              "GSI changes applied, over every GSI.");
  out->Family("dynarock_gsi_propagation_lag_seconds", MetricType::kGauge,
              "Lag of applied GSI changes, from commit to index, by quantile.");
  out->Family("dynamodb_replication_latency_seconds", MetricType::kGauge,
              "ReplicationLatency: seconds from a write in another Region to its apply on "
              "this replica of a global table, over its latest changes, by quantile; "
              "receiving_region is the replica's own.");
  out->Family("dynarock_replication_pending_changes", MetricType::kGauge,
              "Changes of other Regions on their way to this replica of a global table.");
  out->Family("dynarock_metrics_tables", MetricType::kGauge, "Tables this document describes.");
  out->Family("dynarock_metrics_omitted", MetricType::kGauge,
              "Tables, or partitions, left out of this document by its bounds.");
}

void RenderRequests(const RequestMetrics& requests, PrometheusText* out) {
  std::vector<TableCounts> tables = requests.Snapshot();
  std::sort(tables.begin(), tables.end(), [](const TableCounts& a, const TableCounts& b) {
    return std::tie(a.ns, a.table) < std::tie(b.ns, b.table);
  });
  for (auto& t : tables) {
    std::sort(t.operations.begin(), t.operations.end(),
              [](const OperationCounts& a, const OperationCounts& b) {
                return a.operation < b.operation;
              });
    for (const OperationCounts& op : t.operations) {
      const std::vector<Label> labels = {
          {"namespace", t.ns}, {"table", t.table}, {"operation", op.operation}};
      auto counter = [&](std::string_view family, int64_t value) {
        if (value != 0) out->Sample(family, "", labels, static_cast<double>(value));
      };
      out->Sample("dynarock_requests_total", "", labels, static_cast<double>(op.requests));
      counter("dynamodb_throttled_requests_total", op.throttled_requests);
      counter("dynamodb_user_errors_total", op.user_errors);
      counter("dynamodb_system_errors_total", op.system_errors);
      counter("dynamodb_conditional_check_failed_requests_total", op.conditional_check_failed);
      counter("dynamodb_transaction_conflict_total", op.transaction_conflicts);
      if (op.operation == "Query" || op.operation == "Scan") {
        out->Sample("dynamodb_returned_item_count_total", "", labels,
                    static_cast<double>(op.returned_items));
      }
      if (op.successes == 0) continue;
      constexpr std::string_view kLatency = "dynamodb_successful_request_latency_seconds";
      int64_t cumulative = 0;
      for (size_t i = 0; i < op.latency_buckets.size(); ++i) {
        cumulative += op.latency_buckets[i];
        const std::string le = i < kLatencyBucketMicros.size()
                                   ? FormatSampleValue(kLatencyBucketMicros[i] / 1e6)
                                   : std::string("+Inf");
        const Label bound{"le", le};
        out->Sample(kLatency, "_bucket", labels, static_cast<double>(cumulative), &bound);
      }
      out->Sample(kLatency, "_sum", labels, op.latency_micros_sum / 1e6);
      out->Sample(kLatency, "_count", labels, static_cast<double>(op.successes));
    }
  }
}

// The tables of the namespaces, in order, at most `max` of them (and how
// many more there were).
std::vector<std::pair<std::string, std::string>> ListAllTables(
    Engine* engine, const std::vector<std::string>& namespaces, size_t max, size_t* omitted) {
  std::vector<std::pair<std::string, std::string>> tables;
  *omitted = 0;
  for (const std::string& ns : namespaces) {
    ListTablesRequest req;
    req.scope.ns = ns;
    for (;;) {
      Result<ListTablesResult> page = engine->ListTables(req);
      if (!page.ok()) break;
      for (std::string& name : page->table_names) {
        if (tables.size() < max) {
          tables.emplace_back(ns, std::move(name));
        } else {
          ++*omitted;
        }
      }
      if (!page->last_evaluated_table_name) break;
      req.exclusive_start_table_name = page->last_evaluated_table_name;
    }
  }
  return tables;
}

// The indexes of `partitions` to show: all, or the `max` with the most
// units consumed and throttled, in ring order.
std::vector<size_t> PartitionsToShow(const std::vector<PartitionStats>& partitions, size_t max) {
  std::vector<size_t> chosen(partitions.size());
  for (size_t i = 0; i < chosen.size(); ++i) chosen[i] = i;
  if (chosen.size() <= max) return chosen;
  auto weight = [&](size_t i) {
    const Usage& u = partitions[i].total;
    return u.consumed_read_units + u.consumed_write_units + u.throttled_read_units +
           u.throttled_write_units;
  };
  std::stable_sort(chosen.begin(), chosen.end(),
                   [&](size_t a, size_t b) { return weight(a) > weight(b); });
  chosen.resize(max);
  std::sort(chosen.begin(), chosen.end());
  return chosen;
}

// One table's or GSI's series. `items`, `bytes` from DescribeTable.
void RenderResource(const std::string& ns, const std::string& table, const std::string& index,
                    const ResourceStats& r, std::optional<ProvisionedThroughputDescription> provisioned,
                    int64_t items, int64_t bytes, const ExpositionOptions& options,
                    size_t* omitted_partitions, PrometheusText* out) {
  const std::vector<Label> labels = {{"namespace", ns}, {"table", table}, {"index", index}};
  auto sample = [&](std::string_view family, double value) {
    out->Sample(family, "", labels, value);
  };
  sample("dynamodb_consumed_read_capacity_units_total", r.total.consumed_read_units);
  sample("dynamodb_consumed_write_capacity_units_total", r.total.consumed_write_units);
  sample("dynamodb_read_throttle_events_total", static_cast<double>(r.total.throttled_read_requests));
  sample("dynamodb_write_throttle_events_total", static_cast<double>(r.total.throttled_write_requests));
  // CloudWatch reports TimeToLiveDeletedItemCount per table only.
  if (index.empty()) {
    sample("dynamodb_time_to_live_deleted_item_count_total",
           static_cast<double>(r.total.ttl_deleted_items));
  }
  if (provisioned) {
    sample("dynamodb_provisioned_read_capacity_units", static_cast<double>(provisioned->read_capacity_units));
    sample("dynamodb_provisioned_write_capacity_units", static_cast<double>(provisioned->write_capacity_units));
  }
  sample("dynarock_throttled_read_units_total", r.total.throttled_read_units);
  sample("dynarock_throttled_write_units_total", r.total.throttled_write_units);
  sample("dynarock_read_units_per_second", static_cast<double>(r.read_units_per_second));
  sample("dynarock_write_units_per_second", static_cast<double>(r.write_units_per_second));
  sample("dynarock_read_bucket_balance_units", r.read_balance);
  sample("dynarock_write_bucket_balance_units", r.write_balance);
  sample("dynarock_peak_read_units", r.peak_read_units);
  sample("dynarock_peak_write_units", r.peak_write_units);
  sample("dynarock_items", static_cast<double>(items));
  sample("dynarock_size_bytes", static_cast<double>(bytes));
  sample("dynarock_partitions", static_cast<double>(r.partitions.size()));
  const std::vector<size_t> shown = PartitionsToShow(r.partitions, options.max_partitions);
  *omitted_partitions += r.partitions.size() - shown.size();
  for (size_t i : shown) {
    const PartitionStats& p = r.partitions[i];
    const std::string id = std::to_string(p.id);
    const std::vector<Label> pl = {
        {"namespace", ns}, {"table", table}, {"index", index}, {"partition", id}};
    out->Sample("dynarock_partition_consumed_read_units_total", "", pl, p.total.consumed_read_units);
    out->Sample("dynarock_partition_consumed_write_units_total", "", pl, p.total.consumed_write_units);
    out->Sample("dynarock_partition_throttled_read_units_total", "", pl, p.total.throttled_read_units);
    out->Sample("dynarock_partition_throttled_write_units_total", "", pl, p.total.throttled_write_units);
    out->Sample("dynarock_partition_read_bucket_balance_units", "", pl, p.read_balance);
    out->Sample("dynarock_partition_write_bucket_balance_units", "", pl, p.write_balance);
    out->Sample("dynarock_partition_items", "", pl, static_cast<double>(p.items));
    out->Sample("dynarock_partition_size_bytes", "", pl, static_cast<double>(p.bytes));
  }
}

void RenderTable(const TableFigures& t, const ExpositionOptions& options,
                 size_t* omitted_partitions, PrometheusText* out) {
  const TableDescription& d = t.description;
  const bool provisioned = d.billing_mode == BillingMode::kProvisioned;
  auto throughput = [&](const ProvisionedThroughputDescription& p) {
    return provisioned ? std::optional(p) : std::nullopt;
  };
  RenderResource(t.ns, d.table_name, "", t.capacity.table, throughput(d.provisioned_throughput),
                 d.item_count, d.table_size_bytes, options, omitted_partitions, out);
  for (const ResourceStats& gsi : t.capacity.global_secondary_indexes) {
    auto it = std::find_if(d.global_secondary_indexes.begin(), d.global_secondary_indexes.end(),
                           [&](const GlobalSecondaryIndexDescription& g) {
                             return g.def.index_name == gsi.name;
                           });
    if (it == d.global_secondary_indexes.end()) continue;
    RenderResource(t.ns, d.table_name, gsi.name, gsi, throughput(it->provisioned_throughput),
                   it->item_count, it->index_size_bytes, options, omitted_partitions, out);
    out->Sample("dynarock_index_backfilling", "",
                {{"namespace", t.ns}, {"table", d.table_name}, {"index", gsi.name}},
                it->backfilling ? 1 : 0);
  }
  for (const LocalSecondaryIndexDescription& lsi : d.local_secondary_indexes) {
    const std::vector<Label> labels = {
        {"namespace", t.ns}, {"table", d.table_name}, {"index", lsi.def.index_name}};
    out->Sample("dynarock_items", "", labels, static_cast<double>(lsi.item_count));
    out->Sample("dynarock_size_bytes", "", labels, static_cast<double>(lsi.index_size_bytes));
  }
}

// A global table's replica: what replication into it is doing. Only its
// own entry (each member is rendered under its own namespace).
void RenderReplication(Engine* engine, const std::string& ns, const TableDescription& d,
                       PrometheusText* out) {
  if (d.global_table_version.empty()) return;
  Scope scope;
  scope.ns = ns;
  Result<ReplicationDescription> r = engine->DescribeReplication(scope, d.table_name);
  if (!r.ok() || r->replicas.empty()) return;  // left its group meanwhile
  const ReplicaReplicationDescription& self = r->replicas.front();
  const std::vector<Label> labels = {
      {"namespace", ns}, {"table", d.table_name}, {"receiving_region", self.region_name}};
  out->Sample("dynarock_replication_pending_changes", "", labels,
              static_cast<double>(self.pending_records));
  if (self.latency_samples == 0) return;
  constexpr std::string_view kLatency = "dynamodb_replication_latency_seconds";
  for (const auto& [quantile, micros] :
       {std::pair<const char*, int64_t>{"0.5", self.latency_p50_micros},
        {"0.99", self.latency_p99_micros},
        {"1", self.latency_max_micros}}) {
    const Label q{"quantile", quantile};
    out->Sample(kLatency, "", labels, static_cast<double>(micros) / 1e6, &q);
  }
}

void RenderCapacity(Engine* engine, const RequestMetrics* requests,
                    const ExpositionOptions& options, PrometheusText* out) {
  std::vector<std::string> namespaces = {""};
  if (requests != nullptr) {
    for (std::string& ns : requests->Namespaces()) {
      if (!ns.empty()) namespaces.push_back(std::move(ns));
    }
  }
  size_t omitted_tables = 0;
  size_t omitted_partitions = 0;
  size_t described = 0;
  for (auto& [ns, name] : ListAllTables(engine, namespaces, options.max_tables, &omitted_tables)) {
    TableFigures t;
    t.ns = ns;
    DescribeTableRequest describe;
    describe.scope.ns = ns;
    describe.table_name = name;
    Result<TableDescription> description = engine->DescribeTable(describe);
    Result<TableThroughputStats> capacity = engine->DescribeCapacity(describe.scope, name, 0);
    if (!description.ok() || !capacity.ok()) continue;  // deleted meanwhile
    t.description = *std::move(description);
    t.capacity = *std::move(capacity);
    RenderTable(t, options, &omitted_partitions, out);
    RenderReplication(engine, ns, t.description, out);
    ++described;
  }
  const IndexPropagationStats gsi = engine->GetIndexPropagationStats();
  out->Sample("dynarock_gsi_pending_records", "", {}, static_cast<double>(gsi.pending_records));
  out->Sample("dynarock_gsi_applied_records_total", "", {}, static_cast<double>(gsi.applied_records));
  out->Sample("dynarock_gsi_propagation_lag_seconds", "", {{"quantile", "0.5"}}, gsi.lag_p50_micros / 1e6);
  out->Sample("dynarock_gsi_propagation_lag_seconds", "", {{"quantile", "0.99"}}, gsi.lag_p99_micros / 1e6);
  out->Sample("dynarock_gsi_propagation_lag_seconds", "", {{"quantile", "1"}}, gsi.lag_max_micros / 1e6);
  out->Sample("dynarock_metrics_tables", "", {}, static_cast<double>(described));
  out->Sample("dynarock_metrics_omitted", "", {{"what", "tables"}}, static_cast<double>(omitted_tables));
  out->Sample("dynarock_metrics_omitted", "", {{"what", "partitions"}},
              static_cast<double>(omitted_partitions));
}

}  // namespace

std::string RenderMetrics(Engine* engine, const RequestMetrics* requests,
                          const ExpositionOptions& options) {
  try {
    PrometheusText out;
    if (requests != nullptr) DeclareRequestFamilies(&out);
    if (engine != nullptr) DeclareCapacityFamilies(&out);
    if (requests != nullptr) RenderRequests(*requests, &out);
    if (engine != nullptr) RenderCapacity(engine, requests, options, &out);
    return out.Text();
  } catch (const std::exception&) {
    return "";  // out of memory: an empty document rather than an exception
  }
}

}  // namespace dynarock::api::metrics
