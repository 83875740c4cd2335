// api/metrics/prometheus_exposition.h
//
// The document `GET /metrics` serves (docs/metrics.md): CloudWatch's
// DynamoDB metrics under Prometheus names (ConsumedReadCapacityUnits ->
// dynamodb_consumed_read_capacity_units_total, SuccessfulRequestLatency ->
// the histogram dynamodb_successful_request_latency_seconds, ...) labelled
// by namespace, table, index and operation, and dynarock's own series
// (partitions, their units and bucket balances, items and bytes) under
// dynarock_. Request counts come from RequestMetrics; the capacity model's
// figures from the Engine (DescribeTable, DescribeCapacity), read at the
// time of the call.
//
// Cardinality is bounded by ExpositionOptions: at most max_tables tables
// (namespaces, then names, in order), and per table or GSI the
// max_partitions partitions that consumed and had throttled the most units;
// dynarock_metrics_omitted says how many were left out. Hot keys are never
// labels.
//
// Thread-safe as the Engine is; never throws.

#ifndef DYNAROCK_API_METRICS_PROMETHEUS_EXPOSITION_H_
#define DYNAROCK_API_METRICS_PROMETHEUS_EXPOSITION_H_

#include <cstddef>
#include <string>

#include "api/metrics/request_metrics.h"

namespace dynarock {
class Engine;
}

namespace dynarock::api::metrics {

struct ExpositionOptions {
  size_t max_tables = 200;
  size_t max_partitions = 64;  // per table and per GSI
};

// The exposition text (prometheus_text.h's format). `requests` may be null
// (no request series); so may `engine` (no capacity series). The
// namespaces whose tables are listed are "" and those `requests` saw.
std::string RenderMetrics(Engine* engine, const RequestMetrics* requests,
                          const ExpositionOptions& options = {});

}  // namespace dynarock::api::metrics

#endif  // DYNAROCK_API_METRICS_PROMETHEUS_EXPOSITION_H_
