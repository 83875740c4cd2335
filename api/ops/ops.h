// api/ops/ops.h
//
// The operation handlers (see api/dispatch.h for the contract): each checks
// the request's shape (api/validate.h), builds the engine request, calls the
// engine, and renders DynamoDB's response JSON. Thread-safe.

#ifndef DYNAROCK_API_OPS_OPS_H_
#define DYNAROCK_API_OPS_OPS_H_

#include <optional>
#include <string>
#include <string_view>

#include "api/dispatch.h"

namespace dynarock::api::ops {

// table_ops.cc
Result<Json> CreateTable(const RequestContext& ctx, const Json& request);
Result<Json> DescribeTable(const RequestContext& ctx, const Json& request);
Result<Json> ListTables(const RequestContext& ctx, const Json& request);
Result<Json> UpdateTable(const RequestContext& ctx, const Json& request);
Result<Json> DeleteTable(const RequestContext& ctx, const Json& request);

// item_ops.cc
Result<Json> PutItem(const RequestContext& ctx, const Json& request);
Result<Json> GetItem(const RequestContext& ctx, const Json& request);
Result<Json> DeleteItem(const RequestContext& ctx, const Json& request);
Result<Json> UpdateItem(const RequestContext& ctx, const Json& request);
// GetItem and PutItem straight from the body text, when
// api/ops/item_request_reader.h reads it in one pass: the response body as
// finished JSON, or the error; nullopt for any other body (the caller then
// parses it and calls GetItem / PutItem, which answer the same bytes for
// the bodies read here).
std::optional<Result<std::string>> GetItemText(const RequestContext& ctx,
                                               std::string_view body);
std::optional<Result<std::string>> PutItemText(const RequestContext& ctx,
                                               std::string_view body);

// query_ops.cc
Result<Json> Query(const RequestContext& ctx, const Json& request);
Result<Json> Scan(const RequestContext& ctx, const Json& request);

// batch_ops.cc
Result<Json> BatchGetItem(const RequestContext& ctx, const Json& request);
Result<Json> BatchWriteItem(const RequestContext& ctx, const Json& request);

// tag_ops.cc
Result<Json> TagResource(const RequestContext& ctx, const Json& request);
Result<Json> UntagResource(const RequestContext& ctx, const Json& request);
Result<Json> ListTagsOfResource(const RequestContext& ctx, const Json& request);

// insights_ops.cc: contributor insights.
Result<Json> UpdateContributorInsights(const RequestContext& ctx, const Json& request);
Result<Json> DescribeContributorInsights(const RequestContext& ctx, const Json& request);
Result<Json> ListContributorInsights(const RequestContext& ctx, const Json& request);

// transact_ops.cc
Result<Json> TransactWriteItems(const RequestContext& ctx, const Json& request);
Result<Json> TransactGetItems(const RequestContext& ctx, const Json& request);

// partiql_ops.cc: ExecuteStatement, BatchExecuteStatement, ExecuteTransaction.
Result<Json> ExecuteStatement(const RequestContext& ctx, const Json& request);
Result<Json> BatchExecuteStatement(const RequestContext& ctx, const Json& request);
Result<Json> ExecuteTransaction(const RequestContext& ctx, const Json& request);

// ttl_ops.cc: UpdateTimeToLive, DescribeTimeToLive, and the extension
// RunTimeToLiveSweep (dispatched as "DynamoRock_20251121.RunTimeToLiveSweep").
Result<Json> UpdateTimeToLive(const RequestContext& ctx, const Json& request);
Result<Json> DescribeTimeToLive(const RequestContext& ctx, const Json& request);
Result<Json> RunTimeToLiveSweep(const RequestContext& ctx, const Json& request);

// index_ops.cc: dynarock extensions, dispatched as
// "DynamoRock_20251121.<name>" (never a DynamoDB_20120810 operation).
Result<Json> WaitForIndexes(const RequestContext& ctx, const Json& request);
Result<Json> VerifyIndexes(const RequestContext& ctx, const Json& request);
Result<Json> SetIndexLag(const RequestContext& ctx, const Json& request);
Result<Json> DescribeIndexPropagation(const RequestContext& ctx, const Json& request);

// capacity_ops.cc: DescribeLimits, DescribeEndpoints, and the extensions
// DescribeCapacity and SetThrottling (dispatched as
// "DynamoRock_20251121.<name>").
Result<Json> DescribeLimits(const RequestContext& ctx, const Json& request);
Result<Json> DescribeEndpoints(const RequestContext& ctx, const Json& request);
Result<Json> DescribeCapacity(const RequestContext& ctx, const Json& request);
Result<Json> SetThrottling(const RequestContext& ctx, const Json& request);

// export_ops.cc: export to S3 (a directory, api/transfer/s3_directory.h).
Result<Json> ExportTableToPointInTime(const RequestContext& ctx, const Json& request);
Result<Json> DescribeExport(const RequestContext& ctx, const Json& request);
Result<Json> ListExports(const RequestContext& ctx, const Json& request);

// import_ops.cc: import from S3 (a directory).
Result<Json> ImportTable(const RequestContext& ctx, const Json& request);
Result<Json> DescribeImport(const RequestContext& ctx, const Json& request);
Result<Json> ListImports(const RequestContext& ctx, const Json& request);

// backup_ops.cc: on-demand backups and point-in-time recovery.
Result<Json> CreateBackup(const RequestContext& ctx, const Json& request);
Result<Json> DescribeBackup(const RequestContext& ctx, const Json& request);
Result<Json> ListBackups(const RequestContext& ctx, const Json& request);
Result<Json> DeleteBackup(const RequestContext& ctx, const Json& request);
Result<Json> RestoreTableFromBackup(const RequestContext& ctx, const Json& request);
Result<Json> UpdateContinuousBackups(const RequestContext& ctx, const Json& request);
Result<Json> DescribeContinuousBackups(const RequestContext& ctx, const Json& request);
Result<Json> RestoreTableToPointInTime(const RequestContext& ctx, const Json& request);
// snapshot_ops.cc: the database-snapshot extension, dispatched as
// "DynamoRock_20251121.<name>".
Result<Json> CreateSnapshot(const RequestContext& ctx, const Json& request);
Result<Json> RestoreSnapshot(const RequestContext& ctx, const Json& request);
Result<Json> ListSnapshots(const RequestContext& ctx, const Json& request);
Result<Json> DeleteSnapshot(const RequestContext& ctx, const Json& request);
// stream_ops.cc: the DynamoDB Streams API, dispatched as
// "DynamoDBStreams_20120810.<name>" (the same endpoint as DynamoDB's).
Result<Json> ListStreams(const RequestContext& ctx, const Json& request);
Result<Json> DescribeStream(const RequestContext& ctx, const Json& request);
Result<Json> GetShardIterator(const RequestContext& ctx, const Json& request);
Result<Json> GetRecords(const RequestContext& ctx, const Json& request);
// Extension: DynamoRock_20251121.DescribeStreamStats {TableName?} -> the
// streams' shards with records, bytes, reads and lag, and the stream
// storage size (Engine::DescribeStreamStats). `dynarock stats` shows it.
Result<Json> DescribeStreamStats(const RequestContext& ctx, const Json& request);

}  // namespace dynarock::api::ops

#endif  // DYNAROCK_API_OPS_OPS_H_
