// dynarock's global-tables extensions: operations no DynamoDB SDK sends,
// reached only under their own X-Amz-Target prefix ("DynamoRock_20251121.
// <Op>", see api/http/protocol.h) or in process as Client::Call(...). They
// act on the caller's replica of a global table (docs/global-tables.md).
//
//   SetReplicationLag    {TableName, RegionName, LagMillis} -> {}: how long
//                        a change takes to reach the replica in RegionName
//                        from now on (runtime only); -1 restores the
//                        default (serve --replication-lag-ms).
//   PartitionRegions     {RegionNames: [a, b], DurationMillis?} -> {}:
//                        nothing replicates between the two Regions for
//                        DurationMillis on the engine's clock (absent or 0:
//                        until HealRegions); changes wait and arrive after.
//   HealRegions          {RegionNames: [a, b]} -> {}: ends that partition.
//   DescribeReplication  {TableName} -> {Replicas: [{RegionName, LagMillis,
//                        DefaultLag, PendingChanges, AppliedChanges,
//                        SupersededChanges, ThrottledApplies,
//                        TombstonesCollected,
//                        LatencyMillis: {Samples, P50, P99, Max},
//                        PartitionedFrom}], Partitions: [{RegionNames,
//                        UntilEpochMillis?}]}: the table's own Region first.

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/validate.h"
#include "engine/engine.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

// Exactly two Region names.
Member RegionPairMember() {
  return Member{.name = "RegionNames",
                .shape = &kStringListShape,
                .required = true,
                .min_length = 2,
                .max_length = 2};
}

const Shape kSetReplicationLagInput{
    .kind = Kind::kStructure,
    .members = {
        TableNameMember(),
        Member{.name = "RegionName", .shape = &kStringShape, .required = true, .min_length = 1},
        Member{.name = "LagMillis", .shape = &kLongShape, .required = true, .min_value = -1},
    }};

const Shape kPartitionRegionsInput{
    .kind = Kind::kStructure,
    .members = {
        RegionPairMember(),
        Member{.name = "DurationMillis", .shape = &kLongShape, .min_value = 0},
    }};

const Shape kHealRegionsInput{.kind = Kind::kStructure, .members = {RegionPairMember()}};

const Shape kDescribeReplicationInput{.kind = Kind::kStructure, .members = {TableNameMember()}};

// Milliseconds of a microsecond figure, as a JSON number with fractions.
double Millis(int64_t micros) { return static_cast<double>(micros) / 1000.0; }

PartitionRegionsRequest PairOf(const Json& request) {
  PartitionRegionsRequest req;
  const Json& names = request.at("RegionNames");
  req.region_a = names.at(0).get<std::string>();
  req.region_b = names.at(1).get<std::string>();
  return req;
}

}  // namespace

Result<Json> SetReplicationLag(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kSetReplicationLagInput));
  SetReplicationLagRequest req;
  req.scope = ctx.scope;
  req.table_name = StringOr(request, "TableName");
  req.region_name = StringOr(request, "RegionName");
  req.lag_micros = LagMicrosOf(request);
  DR_RETURN_IF_ERROR(ctx.engine->SetReplicationLag(req));
  return Json::object();
}

Result<Json> PartitionRegions(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kPartitionRegionsInput));
  PartitionRegionsRequest req = PairOf(request);
  req.duration_micros = OptionalMillisAsMicros(request, "DurationMillis").value_or(0);
  DR_RETURN_IF_ERROR(ctx.engine->PartitionRegions(req));
  return Json::object();
}

Result<Json> HealRegions(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kHealRegionsInput));
  PartitionRegionsRequest req = PairOf(request);
  req.heal = true;
  DR_RETURN_IF_ERROR(ctx.engine->PartitionRegions(req));
  return Json::object();
}

Result<Json> DescribeReplication(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDescribeReplicationInput));
  DR_ASSIGN_OR_RETURN(ReplicationDescription d,
                      ctx.engine->DescribeReplication(ctx.scope, StringOr(request, "TableName")));
  Json replicas = Json::array();
  for (const ReplicaReplicationDescription& r : d.replicas) {
    replicas.push_back(Json{
        {"RegionName", r.region_name},
        {"LagMillis", Millis(r.lag_micros)},
        {"DefaultLag", r.default_lag},
        {"PendingChanges", r.pending_records},
        {"AppliedChanges", r.applied},
        {"SupersededChanges", r.superseded},
        {"ThrottledApplies", r.throttled},
        {"TombstonesCollected", r.tombstones_collected},
        {"LatencyMillis",
         Json{{"Samples", r.latency_samples},
              {"P50", Millis(r.latency_p50_micros)},
              {"P99", Millis(r.latency_p99_micros)},
              {"Max", Millis(r.latency_max_micros)}}},
        {"PartitionedFrom", r.partitioned_from},
    });
  }
  Json partitions = Json::array();
  for (const RegionPartitionDescription& p : d.partitions) {
    Json one{{"RegionNames", Json::array({p.region_a, p.region_b})}};
    if (p.until_micros != 0) one["UntilEpochMillis"] = p.until_micros / 1000;
    partitions.push_back(std::move(one));
  }
  return Json{{"Replicas", std::move(replicas)}, {"Partitions", std::move(partitions)}};
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kReplicationOperationsRows[] = {
    Operation{"DynamoRock_20251121.DescribeReplication", &DescribeReplication},
    Operation{"DynamoRock_20251121.HealRegions", &HealRegions},
    Operation{"DynamoRock_20251121.PartitionRegions", &PartitionRegions},
    Operation{"DynamoRock_20251121.SetReplicationLag", &SetReplicationLag},
};
const std::span<const Operation> kReplicationOperations = kReplicationOperationsRows;

}  // namespace dynarock::api::ops
