// Capacity: DynamoDB's DescribeLimits, and dynarock's capacity extensions,
// reached only under their own X-Amz-Target prefix
// ("DynamoRock_20251121.<Op>", see api/http/protocol.h) or in process as
// Client::Call("DynamoRock_20251121.<Op>", ...).
//
//   DescribeLimits    {} -> {AccountMaxReadCapacityUnits, ...}: DynamoDB's
//                     default throughput quotas (API_DescribeLimits).
//   DescribeEndpoints {} -> {Endpoints: [{Address, CachePeriodInMinutes}]}:
//                     dynamodb.<region>.amazonaws.com, 1440 minutes.
//   DescribeCapacity  {TableName, HotKeys?} -> the table's throughput
//                     statistics (Engine::DescribeCapacity): rates, bucket
//                     balances, usage windows, partitions and hot keys of
//                     the table and of each GSI, and InjectedFaults: what
//                     fault rules injected, by error name. `dynarock stats`
//                     shows it.
//   SetThrottling     {Enabled} -> {Enabled}: turns refusing requests beyond
//                     capacity on or off at runtime (metering goes on).

#include <cinttypes>
#include <cstdio>

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/validate.h"
#include "engine/capacity/capacity_options.h"
#include "engine/engine.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

const Shape kEmptyInput{.kind = Kind::kStructure};

// At most this many hot keys per table or GSI in one DescribeCapacity.
constexpr int64_t kMaxHotKeys = 100;

const Shape kDescribeCapacityInput{
    .kind = Kind::kStructure,
    .members = {
        TableNameMember(),
        Member{.name = "HotKeys",
               .shape = &kIntegerShape,
               .min_value = 0,
               .max_value = kMaxHotKeys},
    }};

const Shape kSetThrottlingInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "Enabled", .shape = &kBooleanShape, .required = true},
    }};

// DynamoDB's default account-level quotas (provisioned mode, per Region;
// developer guide "Quotas in Amazon DynamoDB"). dynarock enforces no
// account-level quota; they are reported for clients that size against them.
constexpr int64_t kAccountMaxReadCapacityUnits = 80000;
constexpr int64_t kAccountMaxWriteCapacityUnits = 80000;

// 16 hex digits, so that ranges sort and align as text.
std::string Hex64(uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016" PRIx64, v);
  return buf;
}

Json EncodeUsage(const Usage& u) {
  return Json{{"ConsumedReadUnits", u.consumed_read_units},
              {"ConsumedWriteUnits", u.consumed_write_units},
              {"ThrottledReadUnits", u.throttled_read_units},
              {"ThrottledWriteUnits", u.throttled_write_units},
              {"ThrottledReadRequests", u.throttled_read_requests},
              {"ThrottledWriteRequests", u.throttled_write_requests},
              {"TimeToLiveDeletedItems", u.ttl_deleted_items}};
}

void AddWindows(Json& out, const Usage& last_second, const Usage& last_minute,
                const Usage& last_5_minutes, const Usage& total) {
  out["LastSecond"] = EncodeUsage(last_second);
  out["LastMinute"] = EncodeUsage(last_minute);
  out["Last5Minutes"] = EncodeUsage(last_5_minutes);
  out["Total"] = EncodeUsage(total);
}

Json EncodePartition(const PartitionStats& p) {
  Json out = {{"Id", p.id},
              {"HashBegin", Hex64(p.begin)},
              {"HashEnd", Hex64(p.end)},
              {"ItemCount", p.items},
              {"SizeBytes", p.bytes},
              {"ReadBalance", p.read_balance},
              {"WriteBalance", p.write_balance}};
  AddWindows(out, p.last_second, p.last_minute, p.last_5_minutes, p.total);
  return out;
}

Json EncodeHotKey(const HotKey& k) {
  return Json{{"Key", k.key},
              {"Hash", Hex64(k.hash)},
              {"Units", k.units},
              {"ReadUnits", k.read_units},
              {"WriteUnits", k.write_units},
              {"ThrottledUnits", k.throttled_units}};
}

// `name_member` is "TableName" for the table, "IndexName" for a GSI.
Json EncodeResource(const ResourceStats& r, const char* name_member) {
  Json out = {{name_member, r.name},
              {"Arn", r.arn},
              {"ReadUnitsPerSecond", r.read_units_per_second},
              {"WriteUnitsPerSecond", r.write_units_per_second},
              {"ReadBalance", r.read_balance},
              {"WriteBalance", r.write_balance},
              {"PeakReadUnits", r.peak_read_units},
              {"PeakWriteUnits", r.peak_write_units}};
  AddWindows(out, r.last_second, r.last_minute, r.last_5_minutes, r.total);
  Json partitions = Json::array();
  for (const PartitionStats& p : r.partitions) {
    partitions.push_back(EncodePartition(p));
  }
  out["Partitions"] = std::move(partitions);
  Json hot_keys = Json::array();
  for (const HotKey& k : r.hot_keys) hot_keys.push_back(EncodeHotKey(k));
  out["HotKeys"] = std::move(hot_keys);
  return out;
}

}  // namespace

Result<Json> DescribeLimits(const RequestContext& /*ctx*/, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kEmptyInput));
  // The per-table quotas are the throughput model's (what an on-demand table
  // is capped at); the Engine does not expose its options, and `serve` runs
  // with the defaults.
  const CapacityOptions defaults;
  return Json{{"AccountMaxReadCapacityUnits", kAccountMaxReadCapacityUnits},
              {"AccountMaxWriteCapacityUnits", kAccountMaxWriteCapacityUnits},
              {"TableMaxReadCapacityUnits", defaults.table_read_quota},
              {"TableMaxWriteCapacityUnits", defaults.table_write_quota}};
}

Result<Json> DescribeEndpoints(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kEmptyInput));
  // DynamoDB names its regional endpoint, cached for a day
  // (API_DescribeEndpoints). SDKs only follow it with endpoint discovery on,
  // which they turn off when an endpoint URL is configured.
  const std::string region =
      ctx.scope.region.empty() || ctx.scope.region == "ddblocal"
          ? "us-east-1"
          : ctx.scope.region;
  return Json{{"Endpoints",
               Json::array({Json{{"Address", "dynamodb." + region + ".amazonaws.com"},
                                 {"CachePeriodInMinutes", 1440}}})}};
}

Result<Json> DescribeCapacity(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDescribeCapacityInput));
  const size_t hot_keys =
      static_cast<size_t>(OptionalInt(request, "HotKeys").value_or(10));
  DR_ASSIGN_OR_RETURN(
      TableThroughputStats stats,
      ctx.engine->DescribeCapacity(ctx.scope, StringOr(request, "TableName"),
                                   hot_keys));
  Json out = EncodeResource(stats.table, "TableName");
  Json indexes = Json::array();
  for (const ResourceStats& gsi : stats.global_secondary_indexes) {
    indexes.push_back(EncodeResource(gsi, "IndexName"));
  }
  Json body = {{"BillingMode", stats.billing_mode == BillingMode::kPayPerRequest
                                   ? "PAY_PER_REQUEST"
                                   : "PROVISIONED"},
               {"Table", std::move(out)},
               {"GlobalSecondaryIndexes", std::move(indexes)}};
  // Failures fault rules injected (docs/testing.md), apart from the
  // model's own throttles above: by error name, "UnprocessedItems" /
  // "UnprocessedKeys" for batch entries cut, "Latency" for delayed answers.
  Json injected = Json::object();
  for (const InjectedFaultCount& c :
       ctx.engine->InjectedFaults(ctx.scope, StringOr(request, "TableName"))) {
    injected[c.name] = c.count;
  }
  body["InjectedFaults"] = std::move(injected);
  return body;
}

Result<Json> SetThrottling(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kSetThrottlingInput));
  ctx.engine->SetThrottling(OptionalBool(request, "Enabled").value_or(false));
  return Json{{"Enabled", ctx.engine->throttling()}};
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kCapacityOperationsRows[] = {
    Operation{"DescribeEndpoints", &DescribeEndpoints},
    Operation{"DescribeLimits", &DescribeLimits},
    Operation{"DynamoRock_20251121.DescribeCapacity", &DescribeCapacity},
    Operation{"DynamoRock_20251121.SetThrottling", &SetThrottling},
};
const std::span<const Operation> kCapacityOperations = kCapacityOperationsRows;

}  // namespace dynarock::api::ops
