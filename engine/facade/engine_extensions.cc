// Engine's dynarock extensions: control of the secondary indexes'
// propagation, the consistency checker, the due background work, and the
// capacity model's statistics.

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
