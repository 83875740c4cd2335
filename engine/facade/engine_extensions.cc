// Engine's dynarock extensions: control of the secondary indexes'
// propagation and of global tables' replication, the consistency checker,
// the due background work, and the capacity model's statistics.

#include <cstdint>

#include "engine/facade/engine_state.h"
#include "engine/index/consistency_checker.h"

namespace dynarock {

Status Engine::WaitUntilIndexesCaughtUp() {
  return RunWithoutDueWork([](EngineParts& p) { return p.indexes->WaitUntilCaughtUp(); });
}

Status Engine::PropagateIndexes() {
  return RunWithoutDueWork([](EngineParts& p) { return p.indexes->PropagateDue(); });
}

void Engine::RunDueWork() {
  RunWithoutDueWork([](EngineParts& p) { p.RunDueWork(); });
}

Status Engine::SetIndexLag(const SetIndexLagRequest& req) {
  return Run([&](EngineParts& p) -> Status {
    DR_ASSIGN_OR_RETURN(auto table, p.tables.FindOrNotFound(req.scope, req.table_name));
    return p.indexes->SetLag(*table, req.index_name, req.lag_micros);
  });
}

namespace {

// The global table `table` belongs to, itself first. Errors: kValidation.
Result<std::vector<ReplicationTarget>> GroupOf(const EngineParts& p, const TableInfo& table) {
  std::vector<ReplicationTarget> group = p.global_tables->Group(table);
  if (group.empty()) {
    return Status::Validation("Table " + table.desc.table_name +
                              " is not a global table: it has no replicas");
  }
  return group;
}

}  // namespace

Status Engine::SetReplicationLag(const SetReplicationLagRequest& req) {
  return Run([&](EngineParts& p) -> Status {
    DR_ASSIGN_OR_RETURN(auto table, p.tables.FindOrNotFound(req.scope, req.table_name));
    DR_ASSIGN_OR_RETURN(std::vector<ReplicationTarget> group, GroupOf(p, *table));
    for (const ReplicationTarget& member : group) {
      if (member.region != req.region_name) continue;
      p.replicator.SetLag(member.table_id, req.lag_micros);
      return Status::OK();
    }
    return Status::Validation("Table " + req.table_name + " has no replica in Region " +
                              req.region_name);
  });
}

Status Engine::PartitionRegions(const PartitionRegionsRequest& req) {
  return Run([&](EngineParts& p) -> Status {
    for (const std::string* region : {&req.region_a, &req.region_b}) {
      if (!IsKnownRegion(*region)) {
        return Status::Validation("Region " + *region + " is not a Region DynamoDB serves");
      }
    }
    if (req.region_a == req.region_b) {
      return Status::Validation("A Region cannot be partitioned from itself: " + req.region_a);
    }
    if (req.heal) {
      if (!p.replicator.HealRegions(req.region_a, req.region_b)) {
        return Status::Validation("Regions " + req.region_a + " and " + req.region_b +
                                  " are not partitioned");
      }
      return Status::OK();
    }
    if (req.duration_micros < 0) {
      return Status::Validation("A partition's duration cannot be negative");
    }
    // A duration past the clock's range is a partition until healed.
    const int64_t now = p.clock->NowMicros();
    const int64_t until =
        req.duration_micros == 0 || req.duration_micros > INT64_MAX - now
            ? 0
            : now + req.duration_micros;
    p.replicator.PartitionRegions(req.region_a, req.region_b, until);
    return Status::OK();
  });
}

Result<ReplicationDescription> Engine::DescribeReplication(const Scope& scope,
                                                           const std::string& table_name) {
  return Run([&](EngineParts& p) -> Result<ReplicationDescription> {
    DR_ASSIGN_OR_RETURN(auto table, p.tables.FindOrNotFound(scope, table_name));
    DR_ASSIGN_OR_RETURN(std::vector<ReplicationTarget> group, GroupOf(p, *table));
    ReplicationDescription out;
    const std::vector<RegionPartition> partitions = p.replicator.Partitions();
    for (const RegionPartition& rp : partitions) {
      out.partitions.push_back(RegionPartitionDescription{rp.a, rp.b, rp.until_micros});
    }
    for (const ReplicationTarget& member : group) {
      DR_ASSIGN_OR_RETURN(ReplicaReplicationState s, p.replicator.Describe(member.table_id));
      ReplicaReplicationDescription r;
      r.region_name = member.region;
      r.lag_micros = s.lag_micros;
      r.default_lag = s.default_lag;
      r.pending_records = s.pending_records;
      r.applied = s.applied;
      r.superseded = s.superseded;
      r.throttled = s.throttled;
      r.tombstones_collected = s.tombstones_collected;
      r.latency_samples = s.latency.samples;
      r.latency_p50_micros = s.latency.p50;
      r.latency_p99_micros = s.latency.p99;
      r.latency_max_micros = s.latency.max;
      for (const ReplicationTarget& other : group) {
        if (other.region == member.region) continue;
        for (const RegionPartition& rp : partitions) {
          if ((rp.a == member.region && rp.b == other.region) ||
              (rp.b == member.region && rp.a == other.region)) {
            r.partitioned_from.push_back(other.region);
          }
        }
      }
      out.replicas.push_back(std::move(r));
    }
    return out;
  });
}

IndexPropagationStats Engine::GetIndexPropagationStats() {
  return RunWithoutDueWork([](EngineParts& p) { return p.indexes->Stats(); });
}

Status Engine::VerifyIndexes(const Scope& scope, const std::string& table_name) {
  return Run([&](EngineParts& p) -> Status {
    DR_ASSIGN_OR_RETURN(auto table, p.tables.FindOrNotFound(scope, table_name));
    DR_ASSIGN_OR_RETURN(std::vector<IndexDifference> diffs,
                        CheckTableIndexes(*p.store, *table));
    std::string report;
    for (const IndexDifference& d : diffs) report += d.ToString();
    DR_ASSIGN_OR_RETURN(std::string counters, CheckTableCounters(*p.store, *table));
    report += counters;
    if (report.empty()) return Status::OK();
    return Status::Internal(report);
  });
}

Result<TableThroughputStats> Engine::DescribeCapacity(const Scope& scope,
                                                          const std::string& table_name,
                                                          size_t hot_keys) {
  return Run([&](EngineParts& p) -> Result<TableThroughputStats> {
    DR_ASSIGN_OR_RETURN(auto table, p.tables.FindOrNotFound(scope, table_name));
    std::optional<TableThroughputStats> stats = p.throughput.Describe(table->id, hot_keys);
    if (!stats) return TableNotFound(table_name);
    return std::move(*stats);
  });
}

}  // namespace dynarock
