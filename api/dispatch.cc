#include "api/dispatch.h"

#include <array>
#include <utility>

#include "api/ops/ops.h"

namespace dynarock::api {

namespace {

struct Operation {
  std::string_view name;
  Handler handler;
};

constexpr std::array kOperations = {
    Operation{"BatchExecuteStatement", &ops::BatchExecuteStatement},
    Operation{"BatchGetItem", &ops::BatchGetItem},
    Operation{"BatchWriteItem", &ops::BatchWriteItem},
    Operation{"CreateBackup", &ops::CreateBackup},
    Operation{"CreateTable", &ops::CreateTable},
    Operation{"DeleteBackup", &ops::DeleteBackup},
    Operation{"DeleteItem", &ops::DeleteItem},
    Operation{"DeleteTable", &ops::DeleteTable},
    Operation{"DescribeBackup", &ops::DescribeBackup},
    Operation{"DescribeContinuousBackups", &ops::DescribeContinuousBackups},
    Operation{"DescribeContributorInsights", &ops::DescribeContributorInsights},
    Operation{"DescribeEndpoints", &ops::DescribeEndpoints},
    Operation{"DescribeExport", &ops::DescribeExport},
    Operation{"DescribeImport", &ops::DescribeImport},
    Operation{"DescribeLimits", &ops::DescribeLimits},
    Operation{"DescribeTable", &ops::DescribeTable},
    Operation{"DescribeTimeToLive", &ops::DescribeTimeToLive},
    Operation{"ExecuteStatement", &ops::ExecuteStatement},
    Operation{"ExecuteTransaction", &ops::ExecuteTransaction},
    Operation{"ExportTableToPointInTime", &ops::ExportTableToPointInTime},
    Operation{"GetItem", &ops::GetItem},
    Operation{"ImportTable", &ops::ImportTable},
    Operation{"ListBackups", &ops::ListBackups},
    Operation{"ListContributorInsights", &ops::ListContributorInsights},
    Operation{"ListExports", &ops::ListExports},
    Operation{"ListImports", &ops::ListImports},
    Operation{"ListTables", &ops::ListTables},
    Operation{"ListTagsOfResource", &ops::ListTagsOfResource},
    Operation{"PutItem", &ops::PutItem},
    Operation{"Query", &ops::Query},
    Operation{"RestoreTableFromBackup", &ops::RestoreTableFromBackup},
    Operation{"RestoreTableToPointInTime", &ops::RestoreTableToPointInTime},
    Operation{"Scan", &ops::Scan},
    Operation{"TagResource", &ops::TagResource},
    Operation{"UntagResource", &ops::UntagResource},
    Operation{"TransactGetItems", &ops::TransactGetItems},
    Operation{"TransactWriteItems", &ops::TransactWriteItems},
    Operation{"UpdateContinuousBackups", &ops::UpdateContinuousBackups},
    Operation{"UpdateContributorInsights", &ops::UpdateContributorInsights},
    Operation{"UpdateItem", &ops::UpdateItem},
    Operation{"UpdateTable", &ops::UpdateTable},
    // DynamoDB Streams: the streams client's target prefix, kept whole
    // (api/ops/stream_ops.cc).
    Operation{"DynamoDBStreams_20120810.DescribeStream", &ops::DescribeStream},
    Operation{"DynamoDBStreams_20120810.GetRecords", &ops::GetRecords},
    Operation{"DynamoDBStreams_20120810.GetShardIterator", &ops::GetShardIterator},
    Operation{"DynamoDBStreams_20120810.ListStreams", &ops::ListStreams},
    Operation{"UpdateTimeToLive", &ops::UpdateTimeToLive},
    // Extensions: their names carry their own target prefix, so that no
    // DynamoDB SDK reaches them by accident (api/ops/index_ops.cc,
    // api/ops/capacity_ops.cc, api/ops/ttl_ops.cc).
    Operation{"DynamoRock_20251121.CreateSnapshot", &ops::CreateSnapshot},
    Operation{"DynamoRock_20251121.DeleteSnapshot", &ops::DeleteSnapshot},
    Operation{"DynamoRock_20251121.DescribeCapacity", &ops::DescribeCapacity},
    Operation{"DynamoRock_20251121.DescribeStreamStats", &ops::DescribeStreamStats},
    Operation{"DynamoRock_20251121.DescribeIndexPropagation",
              &ops::DescribeIndexPropagation},
    Operation{"DynamoRock_20251121.ListSnapshots", &ops::ListSnapshots},
    Operation{"DynamoRock_20251121.RestoreSnapshot", &ops::RestoreSnapshot},
    Operation{"DynamoRock_20251121.RunTimeToLiveSweep", &ops::RunTimeToLiveSweep},
    Operation{"DynamoRock_20251121.SetIndexLag", &ops::SetIndexLag},
    Operation{"DynamoRock_20251121.SetThrottling", &ops::SetThrottling},
    Operation{"DynamoRock_20251121.VerifyIndexes", &ops::VerifyIndexes},
    Operation{"DynamoRock_20251121.WaitForIndexes", &ops::WaitForIndexes},
};

// The operations of DynamoDB's current API model that dynarock does not serve
// (global tables, Kinesis streaming destinations, resource policies, replica
// auto scaling): they need other regions or other AWS services. DynamoDB
// Local does not serve them either.
constexpr std::array<std::string_view, 15> kUnservedOperations = {
    "CreateGlobalTable",
    "DeleteResourcePolicy",
    "DescribeGlobalTable",
    "DescribeGlobalTableSettings",
    "DescribeKinesisStreamingDestination",
    "DescribeTableReplicaAutoScaling",
    "DisableKinesisStreamingDestination",
    "EnableKinesisStreamingDestination",
    "GetResourcePolicy",
    "ListGlobalTables",
    "PutResourcePolicy",
    "UpdateGlobalTable",
    "UpdateGlobalTableSettings",
    "UpdateKinesisStreamingDestination",
    "UpdateTableReplicaAutoScaling",
};

// DynamoDB answers an X-Amz-Target name it does not know with a bare
// {"__type":"com.amazon.coral.service#UnknownOperationException"}, no message
// (mhart/dynalite test/connection.js, recorded against DynamoDB). An
// operation of the model that is not served gets what DynamoDB Local answers
// for it: the same type with "An unknown operation was requested." (as SDK
// users report it from the amazon/dynamodb-local image, e.g.
// saidsef/aws-kinesis-local#33 for EnableKinesisStreamingDestination).
Status UnknownOperation(std::string_view operation) {
  for (std::string_view name : kUnservedOperations) {
    if (name == operation) {
      return Status(ErrorCode::kUnknownOperation, "An unknown operation was requested.");
    }
  }
  return Status(ErrorCode::kUnknownOperation, "");
}

}  // namespace

TextHandler FindTextHandler(std::string_view operation) {
  if (operation == "GetItem") return &ops::GetItemText;
  if (operation == "PutItem") return &ops::PutItemText;
  return nullptr;
}

Handler FindHandler(std::string_view operation) {
  for (const Operation& op : kOperations) {
    if (op.name == operation) return op.handler;
  }
  return nullptr;
}

Result<Json> Dispatch(const RequestContext& ctx, std::string_view operation,
                      const Json& request) {
  Handler handler = FindHandler(operation);
  if (handler == nullptr) return UnknownOperation(operation);
  return handler(ctx, request);
}

}  // namespace dynarock::api
