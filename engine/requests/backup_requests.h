// engine/requests/backup_requests.h
//
// On-demand backups (CreateBackup, DescribeBackup, ListBackups,
// DeleteBackup, RestoreTableFromBackup) and point-in-time recovery
// (UpdateContinuousBackups, DescribeContinuousBackups,
// RestoreTableToPointInTime): engine/backup/ (pitr_log, continuous_backups).

#ifndef DYNAROCK_ENGINE_REQUESTS_BACKUP_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_BACKUP_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/requests/scope.h"
#include "engine/types.h"

namespace dynarock {

// What a restore may change of the source's definition, as DynamoDB allows
// (RestoreTableFromBackup and RestoreTableToPointInTime's *Override members).
// An unset member keeps the source's setting.
struct RestoreOverrides {
  std::optional<BillingMode> billing_mode;
  std::optional<ProvisionedThroughput> provisioned_throughput;
  // The table's OnDemandThroughput maxima (on-demand restores only).
  std::optional<OnDemandThroughput> on_demand_throughput;
  std::optional<std::vector<GlobalSecondaryIndexDef>> global_secondary_indexes;
  std::optional<std::vector<LocalSecondaryIndexDef>> local_secondary_indexes;
  // VectorIndexOverride: the source's vector indexes to keep (each must be
  // one of them); unset: all of them.
  std::optional<std::vector<VectorIndexDef>> vector_indexes;
  // SSESpecificationOverride; unset: the source's encryption.
  std::optional<SseSpecification> sse_specification;
};

struct CreateBackupRequest {
  Scope scope;
  std::string table_name;
  std::string backup_name;
};

enum class BackupStatus { kCreating, kDeleted, kAvailable };
std::string_view BackupStatusName(BackupStatus status);

// One on-demand backup: its BackupDetails, and the source table as it was
// when the backup was taken (SourceTableDetails and
// SourceTableFeatureDetails are rendered from `source`).
struct BackupDescription {
  std::string backup_arn;
  std::string backup_name;
  int64_t backup_size_bytes = 0;
  BackupStatus backup_status = BackupStatus::kAvailable;
  int64_t creation_micros = 0;
  // The source table's definition, with item_count and table_size_bytes as
  // backed up.
  TableDescription source;
  // The source's Time to Live setting when it was backed up.
  bool ttl_enabled = false;
  std::string ttl_attribute_name;
};

struct DescribeBackupRequest {
  Scope scope;
  std::string backup_arn;
};
using DeleteBackupRequest = DescribeBackupRequest;

struct ListBackupsRequest {
  Scope scope;
  std::optional<std::string> table_name;
  // Creation time bounds: lower inclusive, upper exclusive.
  std::optional<int64_t> time_range_lower_micros;
  std::optional<int64_t> time_range_upper_micros;
  // "USER", "SYSTEM", "AWS_BACKUP" or "ALL"; unset = USER.
  std::optional<std::string> backup_type;
  std::optional<int> limit;  // 1..100; unset = every backup
  std::optional<std::string> exclusive_start_backup_arn;
};

struct ListBackupsResult {
  // In creation order (then ARN).
  std::vector<BackupDescription> backups;
  std::optional<std::string> last_evaluated_backup_arn;
};

struct RestoreTableFromBackupRequest {
  Scope scope;
  std::string target_table_name;
  std::string backup_arn;
  RestoreOverrides overrides;
};

struct UpdateContinuousBackupsRequest {
  Scope scope;
  std::string table_name;
  bool point_in_time_recovery_enabled = false;
  std::optional<int64_t> recovery_period_in_days;  // 1..35; unset = 35
};

struct DescribeContinuousBackupsRequest {
  Scope scope;
  std::string table_name;
};

// DescribeContinuousBackups' ContinuousBackupsDescription.
struct ContinuousBackupsDescription {
  bool point_in_time_recovery_enabled = false;
  int64_t recovery_period_in_days = 35;
  // Set while enabled: the restore window on the engine clock.
  std::optional<int64_t> earliest_restorable_micros;
  std::optional<int64_t> latest_restorable_micros;
};

struct RestoreTableToPointInTimeRequest {
  Scope scope;
  std::string source_table_name;  // or the table named by source_table_arn
  std::optional<std::string> source_table_arn;
  std::string target_table_name;
  std::optional<int64_t> restore_micros;
  bool use_latest_restorable_time = false;
  RestoreOverrides overrides;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_BACKUP_REQUESTS_H_
