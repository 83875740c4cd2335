// tools/simulate/endpoint_write_sharding.h
//
// `dynarock simulate write-sharding --endpoint URL`: the write-sharding
// experiment's sustained read (write_sharding.h) run in real time against a
// DynamoDB endpoint, beside the in-process model run on the same inputs.
//
// The endpoint gets the model's table design (OrdersTableRequest: one GSI
// per variant and N, at most 20 a table, created with the table rather than
// backfilled: a GSI added to a loaded DynamoDB table takes minutes) and its
// Order items (OrderToLoad), written with BatchWriteItem paced at
// `load_orders_per_second` (throttled batches and UnprocessedItems retried
// with backoff). Once every GSI answers the expected count of open orders
// (eventually consistent, so polled), each variant and N is read as the
// model reads it: one reader per shard key, Query pages (Select COUNT) over
// the date range, paced to its share of `required_items_per_second` for
// `duration_seconds`, a throttled page retried after the model's backoff, a
// reader further behind than max_lag dropping the rest of its backlog.
// Readers share `clients` connections (endpoint_pacing.h). Per variant and N
// the run measures items/s (pages answered within the duration), requests,
// throttles by exception and ThrottlingReasons, the consumed RCU the
// endpoint reported, latency percentiles and each second's figures.
//
// Sustained mode only, Orders only (--with-order-items is refused).
// Not thread-safe; one run at a time (it starts its own client threads).

#ifndef DYNAROCK_TOOLS_SIMULATE_ENDPOINT_WRITE_SHARDING_H_
#define DYNAROCK_TOOLS_SIMULATE_ENDPOINT_WRITE_SHARDING_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "tools/simulate/endpoint_cost.h"
#include "tools/simulate/endpoint_report.h"
#include "tools/simulate/endpoint_session.h"
#include "tools/simulate/sim_support.h"
#include "tools/simulate/write_sharding.h"
#include "tools/simulate/write_sharding_tables.h"

namespace dynarock::tools::simulate {

// What the endpoint did in one variant at one N.
struct EndpointRead {
  ShardingKind kind = ShardingKind::kUnsharded;
  int shards = 1;
  std::string table_name;
  std::string index_name;
  int64_t requests = 0;  // Query calls answered, throttled ones included
  int64_t items = 0;     // ScannedCount of the pages answered within the duration
  int64_t errors = 0;    // 5xx or transport failures left after the session's retries
  EndpointCounts counts;  // throttles, consumed RCU
  double achieved_items_per_second = 0;
  double latency_p50_ms = 0;
  double latency_p99_ms = 0;
  double send_lag_p99_ms = 0;
  // Per second: items (by answer), requests, throttled, read units (by send).
  std::vector<SecondSample> seconds;
  bool interrupted = false;
};

// The load before the reads.
struct EndpointLoad {
  int64_t orders = 0;             // items written, over all tables
  int64_t batches = 0;            // BatchWriteItem calls answered
  int64_t throttled = 0;          // throttled calls, retried
  int64_t unprocessed_items = 0;  // UnprocessedItems, retried
  double wall_seconds = 0;        // the load and the wait for the GSIs
};

struct WriteShardingEndpointReport {
  WriteShardingReport model;  // the in-process run of the same inputs (options as run)
  EndpointRunInfo info;
  EndpointLoad load;
  std::vector<EndpointRead> endpoint;
};

// The tables an endpoint run creates: the model's variants over as few
// tables as DynamoDB's 20 GSIs a table allow.
std::vector<TableSpec> EndpointTables(const WriteShardingOptions& options);

// The plan of the run for the cost guard: the load (an Order and its GSI
// entries, WRU by started KB), the GSI checks and the reads (RRU of
// eventually consistent reads, 4 KB per half unit over whole pages), the
// storage. `options` as PrepareWriteShardingOptions left them.
RunPlan PlanWriteSharding(const WriteShardingOptions& options, const std::string& region,
                          const std::string& table_prefix);

// Creates the tables, loads them, waits for the GSIs, and reads every
// variant and N. The tables are the session's to clean up. Progress:
// phase ("load", "read"), done, total. Errors: the session's (CreateTable
// refused, endpoint unreachable), a request the endpoint refused with a
// client error other than throttling, GSIs that did not catch up.
Result<EndpointLoad> LoadWriteShardingAtEndpoint(
    EndpointSession& session, const WriteShardingOptions& options, int clients,
    const std::function<void(std::string_view, int64_t, int64_t)>& on_progress);
Result<std::vector<EndpointRead>> ReadWriteShardingAtEndpoint(
    EndpointSession& session, const WriteShardingOptions& options, int clients,
    const std::function<void(std::string_view, int64_t, int64_t)>& on_progress);

// Per variant, N and measure: endpoint, model, endpoint / model.
TextTable WriteShardingComparisonTable(const WriteShardingEndpointReport& report);
std::string WriteShardingComparisonText(const WriteShardingEndpointReport& report);
std::string WriteShardingComparisonJson(const WriteShardingEndpointReport& report);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_ENDPOINT_WRITE_SHARDING_H_
