// Engine's operations of global tables version 2017.11.29 (Legacy): the
// membership lives in GlobalTables (engine/replication/global_tables.h),
// beside the 2019.11.21 replicas it shares replication with.

#include "engine/facade/engine_state.h"

namespace dynarock {

Result<GlobalTableDescription> Engine::CreateGlobalTable(const CreateGlobalTableRequest& req) {
  return Run([&](EngineParts& p) -> Result<GlobalTableDescription> {
    if (!p.options.legacy_global_tables) {
      // DynamoDB's answer to every CreateGlobalTable since new legacy global
      // tables ended (ScyllaDB's test_global_tables.py, run against
      // DynamoDB; crossplane-contrib/provider-aws#2308, 2026).
      return Status::Validation(
          "One or more parameter values were invalid: DynamoDB global tables version "
          "2017.11.29 is not supported. We recommend using DynamoDB global tables version "
          "2019.11.21, instead of version 2017.11.29 (Legacy).");
    }
    return p.global_tables->CreateGlobalTable(req);
  });
}

Result<GlobalTableDescription> Engine::DescribeGlobalTable(
    const DescribeGlobalTableRequest& req) {
  return Run([&](EngineParts& p) { return p.global_tables->DescribeGlobalTable(req); });
}

Result<ListGlobalTablesResult> Engine::ListGlobalTables(const ListGlobalTablesRequest& req) {
  return Run([&](EngineParts& p) { return p.global_tables->ListGlobalTables(req); });
}

Result<GlobalTableDescription> Engine::UpdateGlobalTable(const UpdateGlobalTableRequest& req) {
  return Run([&](EngineParts& p) { return p.global_tables->UpdateGlobalTable(req); });
}

Result<GlobalTableSettings> Engine::DescribeGlobalTableSettings(
    const DescribeGlobalTableRequest& req) {
  return Run([&](EngineParts& p) { return p.global_tables->DescribeSettings(req); });
}

Result<GlobalTableSettings> Engine::UpdateGlobalTableSettings(
    const UpdateGlobalTableSettingsRequest& req) {
  return Run([&](EngineParts& p) { return p.global_tables->UpdateSettings(req); });
}

}  // namespace dynarock
