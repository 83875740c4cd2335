// Engine's control plane: tables, tags, contributor insights, Time to
// Live settings and sweeps, and the DynamoDB Streams reads.

#include "engine/facade/engine_state.h"
#include "engine/stream/stream_reader.h"

namespace dynarock {

Result<TableDescription> Engine::CreateTable(const CreateTableRequest& req) {
  return Run([&](EngineParts& p) -> Result<TableDescription> {
    DR_ASSIGN_OR_RETURN(TableDescription created, p.tables.Create(req));
    if (req.resource_policy) {
      // Written just after the table record: a crash in between leaves the
      // table without its policy, and the client without an answer.
      std::shared_ptr<const TableInfo> table = p.catalog->Find(req.scope.ns, req.table_name);
      if (table) DR_RETURN_IF_ERROR(p.policies.AttachToNewTable(table->id, *req.resource_policy));
    }
    return created;
  });
}

namespace {

// The description with its global table's replicas (if any).
Result<TableDescription> WithReplicas(EngineParts& p, const Scope& scope,
                                      Result<TableDescription> desc) {
  if (!desc.ok()) return desc;
  std::shared_ptr<const TableInfo> table = p.catalog->Find(scope.ns, desc->table_name);
  if (table) {
    p.global_tables->Describe(*table, &*desc);
    p.strong->Describe(*table, &*desc);
  }
  return desc;
}

// UpdateTable of `before` (null: no such table) with `req` changed it: the
// other replicas of its global table get the synchronized settings
// (GlobalTables::Synchronize), and the answer shows them UPDATING.
Result<TableDescription> UpdateAndSynchronize(EngineParts& p, const UpdateTableRequest& req,
                                              const std::shared_ptr<const TableInfo>& before) {
  DR_ASSIGN_OR_RETURN(TableDescription updated, p.tables.Update(req));
  if (before) DR_RETURN_IF_ERROR(p.global_tables->Synchronize(*before, req));
  return updated;
}

// Time to Live is synchronized across the replicas of a global table: the
// other members of `table`'s get `spec` where theirs differs.
Status SynchronizeTimeToLive(EngineParts& p, const Scope& scope, const TableInfo& table,
                             const TimeToLiveSpecification& spec) {
  for (const ReplicationTarget& t : p.global_tables->SynchronizedWith(table)) {
    std::shared_ptr<const TableInfo> other = p.catalog->Find(t.ns, t.table_name);
    if (!other || (other->ttl.enabled == spec.enabled &&
                   (!spec.enabled || other->ttl.attribute_name == spec.attribute_name))) {
      continue;
    }
    UpdateTimeToLiveRequest r;
    r.scope = scope;
    r.scope.ns = t.ns;
    r.scope.region = t.region;
    r.table_name = t.table_name;
    r.specification = spec;
    if (!spec.enabled) r.specification.attribute_name = other->ttl.attribute_name;
    DR_RETURN_IF_ERROR(p.ttl.Update(r).status());
  }
  return Status::OK();
}

}  // namespace

Result<TableDescription> Engine::DescribeTable(const DescribeTableRequest& req) {
  return Run([&](EngineParts& p) {
    return WithReplicas(p, req.scope, p.tables.Describe(req));
  });
}

Result<ListTablesResult> Engine::ListTables(const ListTablesRequest& req) {
  return Run([&](EngineParts& p) { return p.tables.List(req); });
}

Result<TableDescription> Engine::UpdateTable(const UpdateTableRequest& req) {
  return Run([&](EngineParts& p) -> Result<TableDescription> {
    std::shared_ptr<const TableInfo> table = p.catalog->Find(req.scope.ns, req.table_name);
    if (table) DR_RETURN_IF_ERROR(p.global_tables->CheckUpdate(*table, req));
    if (p.strong->Handles(req)) {
      // Multi-Region strong consistency: the global table's replicas and
      // witness (no other change of the table goes with them).
      DR_RETURN_IF_ERROR(p.strong->UpdateReplicas(req));
      DescribeTableRequest d;
      d.scope = req.scope;
      d.table_name = req.table_name;
      return WithReplicas(p, req.scope, p.tables.Describe(d));
    }
    if (req.multi_region_consistency && !req.replica_updates) {
      return Status::Validation(
          "MultiRegionConsistency is only valid when ReplicaUpdates creates a global table "
          "(one or more Create actions)");
    }
    if (!req.replica_updates) {
      return WithReplicas(p, req.scope, UpdateAndSynchronize(p, req, table));
    }
    // ReplicaUpdates after the table's own changes, if it asks for any.
    UpdateTableRequest own = req;
    own.replica_updates.reset();
    const bool changes_table =
        own.billing_mode || own.provisioned_throughput || own.deletion_protection_enabled ||
        own.stream_specification || own.table_class || own.sse_specification ||
        own.on_demand_throughput || own.warm_throughput || own.vector_index_updates ||
        (own.global_secondary_index_updates && !own.global_secondary_index_updates->empty());
    if (changes_table) DR_RETURN_IF_ERROR(UpdateAndSynchronize(p, own, table).status());
    Result<TableDescription> updated = p.global_tables->UpdateReplicas(req);
    // A new replica takes the table's Time to Live (its other synchronized
    // settings came with its CreateTable).
    if (updated.ok() && table && table->ttl.enabled) {
      DR_RETURN_IF_ERROR(SynchronizeTimeToLive(
          p, req.scope, *table, TimeToLiveSpecification{true, table->ttl.attribute_name}));
    }
    return WithReplicas(p, req.scope, std::move(updated));
  });
}

Result<TableDescription> Engine::DeleteTable(const DeleteTableRequest& req) {
  return Run([&](EngineParts& p) -> Result<TableDescription> {
    std::shared_ptr<const TableInfo> table = p.catalog->Find(req.scope.ns, req.table_name);
    if (table) DR_RETURN_IF_ERROR(p.strong->CheckDelete(*table));
    Result<TableDescription> deleted = p.tables.Delete(req);
    // Point-in-time recovery ends with the table, and so does its place in
    // a global table (the other replicas stay).
    if (deleted.ok() && table) {
      p.continuous_backups->TableDeleted(table->id);
      DR_RETURN_IF_ERROR(p.global_tables->TableDeleted(*table));
    }
    return deleted;
  });
}

Status Engine::TagResource(const TagResourceRequest& req) {
  return Run([&](EngineParts& p) { return p.tags.Tag(req); });
}

Status Engine::UntagResource(const UntagResourceRequest& req) {
  return Run([&](EngineParts& p) { return p.tags.Untag(req); });
}

Result<ListTagsOfResourceResult> Engine::ListTagsOfResource(
    const ListTagsOfResourceRequest& req) {
  return Run([&](EngineParts& p) { return p.tags.List(req); });
}

Result<PutResourcePolicyResult> Engine::PutResourcePolicy(
    const PutResourcePolicyRequest& req) {
  return Run([&](EngineParts& p) { return p.policies.Put(req); });
}

Result<GetResourcePolicyResult> Engine::GetResourcePolicy(
    const GetResourcePolicyRequest& req) {
  return Run([&](EngineParts& p) { return p.policies.Get(req); });
}

Result<DeleteResourcePolicyResult> Engine::DeleteResourcePolicy(
    const DeleteResourcePolicyRequest& req) {
  return Run([&](EngineParts& p) { return p.policies.Delete(req); });
}

Result<ContributorInsightsDescription> Engine::UpdateContributorInsights(
    const UpdateContributorInsightsRequest& req) {
  return Run([&](EngineParts& p) { return p.insights.Update(req); });
}

Result<ContributorInsightsDescription> Engine::DescribeContributorInsights(
    const Scope& scope, const std::string& table_name, const std::string& index_name) {
  return Run([&](EngineParts& p) { return p.insights.Describe(scope, table_name, index_name); });
}

Result<ListContributorInsightsResult> Engine::ListContributorInsights(
    const ListContributorInsightsRequest& req) {
  return Run([&](EngineParts& p) { return p.insights.List(req); });
}

Result<TimeToLiveSpecification> Engine::UpdateTimeToLive(
    const UpdateTimeToLiveRequest& req) {
  return Run([&](EngineParts& p) -> Result<TimeToLiveSpecification> {
    std::shared_ptr<const TableInfo> table = p.catalog->Find(req.scope.ns, req.table_name);
    if (table && req.specification.enabled) {
      DR_RETURN_IF_ERROR(p.strong->RefuseFeature(
          *table,
          "Time to Live is not supported for multi-Region strongly consistent global tables"));
    }
    DR_ASSIGN_OR_RETURN(TimeToLiveSpecification spec, p.ttl.Update(req));
    if (table) DR_RETURN_IF_ERROR(SynchronizeTimeToLive(p, req.scope, *table, spec));
    return spec;
  });
}

Result<TimeToLiveDescription> Engine::DescribeTimeToLive(
    const DescribeTimeToLiveRequest& req) {
  return Run([&](EngineParts& p) { return p.ttl.Describe(req); });
}

Result<TimeToLiveSweepResult> Engine::RunTimeToLiveSweep(
    const TimeToLiveSweepRequest& req) {
  return Run([&](EngineParts& p) -> Result<TimeToLiveSweepResult> {
    std::vector<std::shared_ptr<const TableInfo>> tables;
    if (req.table_name) {
      DR_ASSIGN_OR_RETURN(auto table, p.tables.FindOrNotFound(req.scope, *req.table_name));
      tables.push_back(std::move(table));
    } else {
      tables = p.catalog->List(req.scope.ns);
    }
    return p.ttl_sweeper.SweepNow(tables);
  });
}

Result<ListStreamsResult> Engine::ListStreams(const ListStreamsRequest& req) {
  return Run([&](EngineParts& p) {
    return dynarock::ListStreams(*p.streams, &p.stream_reads, throttling(), req);
  });
}

Result<StreamDescription> Engine::DescribeStream(const DescribeStreamRequest& req) {
  return Run([&](EngineParts& p) {
    return dynarock::DescribeStream(*p.streams, &p.stream_reads, throttling(), req);
  });
}

Result<std::string> Engine::GetShardIterator(const GetShardIteratorRequest& req) {
  return Run([&](EngineParts& p) { return dynarock::GetShardIterator(*p.streams, req); });
}

Result<GetRecordsResult> Engine::GetRecords(const GetRecordsRequest& req) {
  return Run([&](EngineParts& p) {
    return dynarock::GetRecords(*p.streams, &p.stream_reads, throttling(), req);
  });
}

Result<StreamStorageStats> Engine::DescribeStreamStats(const Scope& scope,
                                                           const std::string& table_name) {
  return Run([&](EngineParts& p) {
    return dynarock::DescribeStreamStats(*p.streams, p.stream_reads, scope.ns, table_name);
  });
}

}  // namespace dynarock
