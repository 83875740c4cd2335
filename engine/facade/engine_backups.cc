// Engine's backups: on-demand backups, point-in-time recovery, and the
// exports to and imports from S3.

#include "engine/facade/engine_state.h"

namespace dynarock {

Result<BackupDescription> Engine::CreateBackup(const CreateBackupRequest& req) {
  return Run([&](EngineParts& p) { return p.backups->Create(req); });
}

Result<BackupDescription> Engine::DescribeBackup(const DescribeBackupRequest& req) {
  return Run([&](EngineParts& p) { return p.backups->Describe(req); });
}

Result<ListBackupsResult> Engine::ListBackups(const ListBackupsRequest& req) {
  return Run([&](EngineParts& p) { return p.backups->List(req); });
}

Result<BackupDescription> Engine::DeleteBackup(const DeleteBackupRequest& req) {
  return Run([&](EngineParts& p) { return p.backups->Delete(req); });
}

Result<TableDescription> Engine::RestoreTableFromBackup(
    const RestoreTableFromBackupRequest& req) {
  return Run([&](EngineParts& p) { return p.backups->Restore(req); });
}

Result<ContinuousBackupsDescription> Engine::UpdateContinuousBackups(
    const UpdateContinuousBackupsRequest& req) {
  return Run([&](EngineParts& p) { return p.continuous_backups->Update(req); });
}

Result<ContinuousBackupsDescription> Engine::DescribeContinuousBackups(
    const DescribeContinuousBackupsRequest& req) {
  return Run([&](EngineParts& p) { return p.continuous_backups->Describe(req); });
}

Result<TableDescription> Engine::RestoreTableToPointInTime(
    const RestoreTableToPointInTimeRequest& req) {
  return Run([&](EngineParts& p) { return p.continuous_backups->Restore(req); });
}

Result<ExportDescription> Engine::ExportTableToPointInTime(
    const ExportTableToPointInTimeRequest& req) {
  return Run([&](EngineParts& p) { return p.exports->Export(req); });
}

Result<ExportDescription> Engine::DescribeExport(const DescribeExportRequest& req) {
  return Run([&](EngineParts& p) { return p.exports->Describe(req); });
}

Result<ListExportsResult> Engine::ListExports(const ListExportsRequest& req) {
  return Run([&](EngineParts& p) { return p.exports->List(req); });
}

Result<ImportTableDescription> Engine::ImportTable(const ImportTableRequest& req) {
  return Run([&](EngineParts& p) { return p.imports->Import(req); });
}

Result<ImportTableDescription> Engine::DescribeImport(const DescribeImportRequest& req) {
  return Run([&](EngineParts& p) { return p.imports->Describe(req); });
}

Result<ListImportsResult> Engine::ListImports(const ListImportsRequest& req) {
  return Run([&](EngineParts& p) { return p.imports->List(req); });
}

Result<BulkOperationDescription> Engine::StartBulkPutItems(const StartBulkPutItemsRequest& req) {
  return Run([&](EngineParts& p) { return p.bulk_puts->Start(req); });
}

Result<BulkOperationDescription> Engine::DescribeBulkOperation(
    const DescribeBulkOperationRequest& req) {
  return Run([&](EngineParts& p) { return p.bulk_puts->Describe(req); });
}

Result<ListBulkOperationsResult> Engine::ListBulkOperations(
    const ListBulkOperationsRequest& req) {
  return Run([&](EngineParts& p) { return p.bulk_puts->List(req); });
}

Result<BulkOperationDescription> Engine::CancelBulkOperation(
    const CancelBulkOperationRequest& req) {
  return Run([&](EngineParts& p) { return p.bulk_puts->Cancel(req); });
}

void Engine::WaitUntilTransfersDone() {
  RunWithoutDueWork([](EngineParts& p) {
    p.exports->WaitIdle();
    p.imports->WaitIdle();
  });
}

}  // namespace dynarock
