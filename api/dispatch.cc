#include "api/dispatch.h"

#include <algorithm>
#include <cassert>
#include <array>
#include <span>
#include <utility>
#include <vector>

#include "api/ops/ops.h"

namespace dynarock::api {

namespace {

// Every handler file's rows, joined and sorted by name once.
const std::vector<Operation>& Operations() {
  static const std::vector<Operation>* table = [] {
    auto* rows = new std::vector<Operation>();
    for (std::span<const Operation> family : {
             ops::kBackupOperations,
             ops::kBatchOperations,
             ops::kBulkOperations,
             ops::kCapacityOperations,
             ops::kClockOperations,
             ops::kExportOperations,
             ops::kFaultOperations,
             ops::kGlobalTableOperations,
             ops::kImportOperations,
             ops::kIndexOperations,
             ops::kInsightsOperations,
             ops::kItemOperations,
             ops::kPartiqlOperations,
             ops::kPolicyOperations,
             ops::kQueryOperations,
             ops::kReplicationOperations,
             ops::kSnapshotOperations,
             ops::kStreamOperations,
             ops::kTableOperations,
             ops::kTagOperations,
             ops::kTransactOperations,
             ops::kTtlOperations,
             ops::kVectorOperations,
         }) {
      rows->insert(rows->end(), family.begin(), family.end());
    }
    std::sort(rows->begin(), rows->end(),
              [](const Operation& a, const Operation& b) { return a.name < b.name; });
    // A name in two files would answer with whichever sorted first.
    assert(std::adjacent_find(rows->begin(), rows->end(),
                              [](const Operation& a, const Operation& b) {
                                return a.name == b.name;
                              }) == rows->end());
    return rows;
  }();
  return *table;
}

const Operation* FindOperation(std::string_view name) {
  const std::vector<Operation>& rows = Operations();
  auto it = std::lower_bound(rows.begin(), rows.end(), name,
                             [](const Operation& op, std::string_view n) { return op.name < n; });
  if (it == rows.end() || it->name != name) return nullptr;
  return &*it;
}

// The operations of DynamoDB's current API model that dynarock does not serve
// (Kinesis streaming destinations, replica auto scaling): they need other
// AWS services, or auto scaling, which dynarock does not have. DynamoDB
// Local does not serve them either.
constexpr std::array<std::string_view, 6> kUnservedOperations = {
    "DescribeKinesisStreamingDestination",
    "DescribeTableReplicaAutoScaling",
    "DisableKinesisStreamingDestination",
    "EnableKinesisStreamingDestination",
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
  const Operation* op = FindOperation(operation);
  return op ? op->text_handler : nullptr;
}

Handler FindHandler(std::string_view operation) {
  const Operation* op = FindOperation(operation);
  return op ? op->handler : nullptr;
}

Result<Json> Dispatch(const RequestContext& ctx, std::string_view operation,
                      const Json& request) {
  Handler handler = FindHandler(operation);
  if (handler == nullptr) return UnknownOperation(operation);
  return handler(ctx, request);
}

}  // namespace dynarock::api
