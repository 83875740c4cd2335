// engine/plan/batch_requests.h
//
// BatchGetItem and BatchWriteItem, checked in DynamoDB's order: everything
// that needs no table first (Prepare*), then, table by table, the keys
// against each key schema (KeysOf*). A batch whose checks fail reads or
// writes nothing; a BatchWriteItem that passes is applied as ONE WriteBatch
// (WritePath::ApplyMany), so it takes effect whole.
//
// Errors are kValidation with DynamoDB's messages. Stateless functions;
// thread-safe.

#ifndef DYNAROCK_ENGINE_PLAN_BATCH_REQUESTS_H_
#define DYNAROCK_ENGINE_PLAN_BATCH_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/expr/ast.h"
#include "engine/requests/batch_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"

namespace dynarock {

// The most keys one BatchGetItem reads, over all its tables.
inline constexpr size_t kMaxBatchGetKeys = 100;
// The most requests one BatchWriteItem makes, over all its tables.
inline constexpr size_t kMaxBatchWriteRequests = 25;
// BatchGetItem stops adding items to its response at 16 MB (item sizes by
// DynamoDB's rules, as returned); the remaining keys are UnprocessedKeys.
inline constexpr int64_t kMaxBatchGetResponseBytes = 16 * 1024 * 1024;

// The first check of PrepareBatchGetItem for one table: ProjectionExpression
// and AttributesToGet not mixed. It reads only which members are set (for
// the api, which reports it before decoding that table's keys).
Status CheckParameterUse(const KeysAndAttributes& table_request);

// Per table, in request order: the projection to apply (nullopt: whole
// items).
using PreparedBatchGet = std::vector<std::optional<expr::ProjectionExpression>>;

// Per table, in order: the parameter mix, AttributesToGet,
// ExpressionAttributeNames and the ProjectionExpression, then each key's
// values, no key twice ("Provided list of item keys contains duplicates"),
// at most 100 keys in all ("Too many items requested for the BatchGetItem
// call").
Result<PreparedBatchGet> PrepareBatchGetItem(const BatchGetItemRequest& req);

// At most 25 requests in all ("Too many items requested for the
// BatchWriteItem call"); each request exactly one of PutRequest and
// DeleteRequest; each item's values and size (400 KB), each key's values.
Status PrepareBatchWriteItem(const BatchWriteItemRequest& req);

// The storage key of a BatchWriteItem request's item against the table's
// key schema: the key attributes must be present and of the schema's types
// ("The provided key element does not match the schema"), then not empty
// and within the key size limits.
// REQUIRES: PrepareBatchWriteItem(req) is OK for the request's batch.
Result<std::string> StorageKeyOfWrite(const TableInfo& table,
                                      const WriteRequest& write);

// "Provided list of item keys contains duplicates".
Status DuplicateItemKeys();

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_PLAN_BATCH_REQUESTS_H_
